package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.io.ResultsJson;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.Transport;
import io.fabriclab.workload.FlowSpec;

/**
 * A packet an Ethernet cut-through switch stores (its head found the egress taken) joins its queue
 * when its last bit is in. When the next packet on the same wire follows it back to back and its
 * arrival was scheduled before the stored packet's head came in, that arrival, at the same
 * picosecond and first in event order, queues it, so the simulator schedules no event for the
 * last bit ({@code Simulator.store}). The results must be those of a run that gives every stored
 * packet its event, with fewer events.
 */
class StoredPacketEventsTest {
    private static final ResultsJson.Metadata META = new ResultsJson.Metadata("test", "stored", "stored", "-", "ls",
            "lossless");

    /**
     * leaf0's four servers send 2 MB each to one server on leaf1 in lock-step through one spine
     * (servers at 100G, uplinks at 400G, 2 m): the spine's packets reach leaf1 in trains, back to
     * back (84.4 ns each at 400G, L = 300 ns after they left the spine, so the next one's arrival
     * is scheduled before a packet's head is in), and leaf1's 100G port to the server is a 4:1
     * incast, so most of them are stored.
     */
    private static Simulator run(boolean eventPerStoredPacket, long failDownPs) {
        Fabric f = TestFabrics.leafSpine(2, 1, 4, 100, 400, 2.0, QosProfile.roceLossless("lossless", 100));
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            flows.add(new FlowSpec("s0_" + i + ":nic0", "s1_0:nic0", 2_000_000, 0, 3));
        }
        Simulator sim = new Simulator(f, flows, SimConfig.defaults(), QosResolver.of(f), Transport.ROCEV2);
        sim.setEventPerStoredPacket(eventPerStoredPacket);
        if (failDownPs > 0) {
            // The spine's link to leaf1 fails for 20 us, with packets stored at leaf1 on the wire
            // (at various points of a train).
            sim.scheduleFailure(new LinkFailure(f.linkAt(f.port("leaf1:up0")), failDownPs, failDownPs + 20_000_000));
        }
        return sim;
    }

    @Test
    void storedPacketsQueuedByTheNextHeadGiveTheResultsOfAnEventEach() {
        Simulator every = run(true, 0);
        String expected = ResultsJson.toJson(every.run(), META, true);
        Simulator fewer = run(false, 0);
        SimResults r = fewer.run();
        assertEquals(SimResults.StopReason.COMPLETED, r.run().stopReason());
        assertEquals(expected, ResultsJson.toJson(r, META, true).replace(
                "\"events\" : " + fewer.eventCount(), "\"events\" : " + every.eventCount()));
        assertTrue(fewer.eventCount() < every.eventCount(), fewer.eventCount() + " events, not fewer than "
                + every.eventCount());
        System.out.printf("stored packets' events: %d events with one for every stored packet, %d without%n",
                every.eventCount(), fewer.eventCount());
    }

    @Test
    void aLinkThatFailsUnderATrainLosesTheSamePackets() {
        for (long down : new long[] {30_000_000L, 30_000_800L, 41_337_600L}) {
            Simulator every = run(true, down);
            SimResults r = every.run();
            assertTrue(r.summary().drops() > 0, "the failure lost packets at " + down + " ps");
            String expected = ResultsJson.toJson(r, META, true);
            Simulator fewer = run(false, down);
            String actual = ResultsJson.toJson(fewer.run(), META, true);
            assertEquals(expected, actual.replace("\"events\" : " + fewer.eventCount(),
                    "\"events\" : " + every.eventCount()), "link down at " + down + " ps");
        }
    }
}
