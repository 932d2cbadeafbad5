package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;
import io.fabriclab.workload.FlowSpec;

class SingleFlowTest {

    @Test
    void aFlowOnAnIdlePathCompletesInSizeOverRatePlusPerHopSerializationAndPropagation() {
        // s0_0 -(100G, 2 m)- leaf0 -(400G, 2 m)- spine0 -(400G, 2 m)- leaf1 -(100G, 2 m)- s1_0
        Fabric f = TestFabrics.leafSpine(2, 1, 1, 100, 400, 2.0, QosProfile.roceLossless("lossless", 100));
        // MTU 4200 B: payload 4200 - 62 = 4138 B per packet; 4 full packets.
        long bytes = 4 * 4138;
        SimResults r = new Simulator(f, List.of(new FlowSpec("s0_0:nic0", "s1_0:nic0", bytes, 0, 3)),
                SimConfig.defaults()).run();

        // Wire size 4200 + 20 (preamble + IFG) = 4220 B = 33,760 bit.
        long full100 = 33_760L * 10;      // 10 ps per bit at 100G: 337,600 ps
        long full400 = 33_760L * 10 / 4;  // 2.5 ps per bit at 400G: 84,400 ps
        long prop = 2 * 5_000;             // 2 m at 5 ns/m = 10,000 ps per hop
        // The NIC sends back to back (4 * full100); the 400G hops never queue; on the last 100G hop
        // each packet arrives exactly as its predecessor finishes, so the last packet pays one
        // serialization per hop after leaving the NIC, plus four propagation delays.
        long expected = 4 * full100 + prop     // NIC -> leaf0
                + full400 + prop               // leaf0 -> spine0
                + full400 + prop               // spine0 -> leaf1
                + full100 + prop;              // leaf1 -> s1_0
        // 1,350,400 + 84,400 + 84,400 + 337,600 + 40,000
        assertEquals(1_896_800, expected);
        SimResults.FlowResult fr = r.flows().get(0);
        assertEquals(expected, fr.fctPs());
        assertEquals(SimResults.StopReason.COMPLETED, r.run().stopReason());
        assertEquals(0, r.summary().drops());
        assertEquals(0, fr.retransmittedBytes());
        assertEquals(List.of("s0_0:nic0", "leaf0:up0", "spine0:eth1", "leaf1:down0"), fr.path());
    }

    @Test
    void aShortLastPacketWaitsBehindItsPredecessorOnTheSlowLastHop() {
        Fabric f = TestFabrics.leafSpine(2, 1, 1, 100, 400, 2.0, QosProfile.roceLossless("lossless", 100));
        SimResults r = new Simulator(f, List.of(new FlowSpec("s0_0:nic0", "s1_0:nic0", 3 * 4138 + 1000, 0, 3)),
                SimConfig.defaults()).run();
        // Third full packet reaches leaf1 at 3 * 337,600 + 10,000 + 2 * (84,400 + 10,000) = 1,211,600
        // and holds the 100G link until 1,549,200. The 1000 B packet (1082 B on the wire: 86,560 ps at
        // 100G, 21,640 ps at 400G) reaches leaf1 at 1,099,360 + 10,000 + 2 * 31,640 = 1,172,640, waits,
        // and arrives at 1,549,200 + 86,560 + 10,000.
        assertEquals(1_645_760, r.flows().get(0).fctPs());
    }

    @Test
    void aLaterStartShiftsTheCompletionButNotTheFlowCompletionTime() {
        Fabric f = TestFabrics.star(2, 100, 1.0, QosProfile.roceLossless("lossless", 100));
        long start = 7_000_000;
        SimResults r = new Simulator(f, List.of(new FlowSpec("s0:nic0", "s1:nic0", 4138, start, 3)),
                SimConfig.defaults()).run();
        // One full packet over two 100G hops of 1 m: 2 * (337,600 + 5,000).
        assertEquals(2 * (337_600 + 5_000), r.flows().get(0).fctPs());
        assertEquals(start + 685_200, r.flows().get(0).finishPs());
    }
}
