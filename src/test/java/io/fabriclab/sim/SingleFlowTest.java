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
        // each packet arrives exactly as its predecessor finishes, so, store-and-forward, the last
        // packet pays one serialization per hop after leaving the NIC, plus four propagation delays.
        long storeAndForward = 4 * full100 + prop     // NIC -> leaf0
                + full400 + prop               // leaf0 -> spine0
                + full400 + prop               // spine0 -> leaf1
                + full100 + prop;              // leaf1 -> s1_0
        // 1,350,400 + 84,400 + 84,400 + 337,600 + 40,000
        assertEquals(1_896_800, storeAndForward);
        // The three switches are Ethernet cut-through (300 ns, model.SwitchLatency): each adds its
        // latency and, as no packet waits for its egress, saves the smaller of its ingress and egress
        // serializations (84,400 at each: 100/400, 400/400, 400/100): SwitchPipelineTest derives it.
        long expected = storeAndForward + 3 * 300_000 - 3 * full400;
        assertEquals(2_543_600, expected); // 1,896,800 + 900,000 - 253,200
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
        // Store-and-forward without latency, the third full packet would reach leaf1 at 3 * 337,600
        // + 10,000 + 2 * (84,400 + 10,000) = 1,211,600 and hold the 100G link until 1,549,200; the
        // 1000 B packet (1082 B on the wire: 86,560 ps at 100G, 21,640 ps at 400G) would reach leaf1
        // at 1,099,360 + 10,000 + 2 * 31,640 = 1,172,640, wait, and arrive at 1,549,200 + 86,560 +
        // 10,000 = 1,645,760.
        // The switches are Ethernet cut-through, L = 300 ns (SwitchPipelineTest). The third full
        // packet waits nowhere: leaf0 and spine0 each add L - 84,400, leaf1 L - min(84,400, 337,600),
        // so its last bit reaches s1_0 at 3 * 337,600 + 4 * 10,000 + 2 * 84,400 + 337,600
        // + 3 * (300,000 - 84,400) = 2,206,000. The short packet also waits nowhere on the 400G hops
        // (L - 21,640 at each) and waits at leaf1 behind the third packet: it leaves straight after
        // it, so it arrives one 100G serialization of its own after the third: 2,206,000 + 86,560.
        assertEquals(2_292_560, r.flows().get(0).fctPs());
    }

    @Test
    void aLaterStartShiftsTheCompletionButNotTheFlowCompletionTime() {
        Fabric f = TestFabrics.star(2, 100, 1.0, QosProfile.roceLossless("lossless", 100));
        long start = 7_000_000;
        SimResults r = new Simulator(f, List.of(new FlowSpec("s0:nic0", "s1:nic0", 4138, start, 3)),
                SimConfig.defaults()).run();
        // One full packet over two 100G hops of 1 m, through one cut-through switch (300 ns) that
        // sends it on as its head arrives: 337,600 + 2 * 5,000 + 300,000 = 647,600.
        assertEquals(337_600 + 2 * 5_000 + 300_000, r.flows().get(0).fctPs());
        assertEquals(start + 647_600, r.flows().get(0).finishPs());
    }
}
