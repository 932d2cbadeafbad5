package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Transport;
import io.fabriclab.workload.FlowSpec;

/**
 * Ultra Ethernet's retransmission timer (docs/validation.md, Ultra Ethernet): per packet, on the
 * oldest unanswered send, with an adaptive timeout floored at 100 us (csg-htsim EQDS), not
 * InfiniBand's 4.194 ms after the last progress.
 */
class UecRetransmitTimeoutTest {
    static final long US = 1_000_000L;

    @Test
    void aPacketLostOnAFailedLinkIsResentAboutOneFloorAfterItWasSent() {
        // Two leaves, two spines, one 100G server per leaf, 1 m cables; one 8 MB flow sprayed over
        // both spines. spine0's link to leaf1 fails at 100 us (reconvergence 50 us): spine0 has
        // no other way down, and leaf0 keeps spraying half the packets to it until routing
        // reconverges. They are dropped there without a trimmed header, so no NACK names them:
        // only the retransmission timer recovers them.
        //
        // The flow's RTT is a few us (3 cut-through switches of 300 ns), so SRTT + 4 RTTVAR is far
        // below the 100 us floor and the timeout is 100 us. The lost packets hold the window
        // (NSCC's 1.5 BDP, at most 94,110 B = 23 frames here): after at most two windows (every
        // other packet lost, the others acknowledged), 46 x 337,600 ps = 15.5 us after the first
        // loss, the sender stalls, until the first lost packet's timer expires 100 us after it was
        // sent; the others follow 100 us after their own sends, at the spacing they were sent
        // with, while the ACKs of the resends reopen the window. So the flow ends later than
        // without the failure by
        //   at least 100 us - 15.5 us (what it sent after the first loss) = 84.5 us,
        //   at most 100 us + one frame per lost packet and one in progress + 2 base RTTs (< 5 us).
        // The old timer (4.194 ms without any ACK, InfiniBand's) made it at least 4 ms.
        Fabric f = TestFabrics.leafSpine(2, 2, 1, 100, 100, 1.0, null);
        List<FlowSpec> flow = List.of(new FlowSpec("s0_0:nic0", "s1_0:nic0", 8_000_000, 0, 3));
        TransportProfile uec = TransportProfile.of(Transport.ULTRA_ETHERNET);
        SimResults alone = new Simulator(f, flow, SimConfig.defaults(), QosResolver.of(f), uec).run();

        Fabric g = TestFabrics.leafSpine(2, 2, 1, 100, 100, 1.0, null);
        Simulator sim = new Simulator(g, flow, SimConfig.defaults(), QosResolver.of(g), uec);
        sim.setReconvergencePs(50 * US);
        sim.scheduleFailure(new LinkFailure(g.findLink("spine0:eth1"), 100 * US, 0));
        SimResults r = sim.run();
        SimResults.FlowResult fr = r.flows().get(0);
        long lost = r.summary().linkDownDrops();
        long extra = fr.fctPs() - alone.flows().get(0).fctPs();
        System.out.printf("UEC link failure: alone %.1f us, with failure %.1f us (+%.3f us), lost %d, timeouts %d,"
                + " retransmitted %d%n", alone.flows().get(0).fctPs() / 1e6, fr.fctPs() / 1e6, extra / 1e6, lost,
                r.ultraEthernet().timeouts(), r.ultraEthernet().retransmittedPackets());
        assertEquals(1, r.run().flowsCompleted());
        assertTrue(lost > 0, "frames on the dead wire are lost");
        assertTrue(r.ultraEthernet().timeouts() > 0, "the timer recovered them");
        assertEquals(lost, r.ultraEthernet().retransmittedPackets(), "exactly the lost packets are sent again");
        assertTrue(extra >= 100 * US - 46 * IncastTest.SER_FULL_100G, "extra " + extra + " ps");
        assertTrue(extra <= 100 * US + (lost + 1) * IncastTest.SER_FULL_100G + 5 * US, "extra " + extra + " ps");
    }
}
