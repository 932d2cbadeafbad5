package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.workload.Collective;
import io.fabriclab.workload.FlowSpec;
import io.fabriclab.workload.RingOrder;

/** Collectives reported per step and per channel, with S and the bandwidths exactly as nccl-tests defines them. */
class CollectiveStepsTest {
    static final long US = 1_000_000L;

    static List<String> ranks(int n) {
        List<String> r = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            r.add("s" + i + ":nic0");
        }
        return r;
    }

    static SimResults run(Fabric f, Collective c) {
        Simulator sim = new Simulator(f, c.flows(f), SimConfig.defaults());
        sim.describeCollectives(List.of(c));
        return sim.run();
    }

    @Test
    void everyStepOfARingAllReduceTakesOneChunkTimeAndTheStepsAddUpToTheCollective() {
        // 8 ranks on one 100G switch, S = 8 MB: 14 steps of a 1 MB chunk each (as in CollectiveTest):
        // a step is 242 frames over two 100G hops, 242 x 337,600 + 225,920 + 2 x 5,000 = 81,935,120 ps,
        // plus at most 2 x 242 ACK slots of 6,880 ps where ACKs interleave.
        int n = 8;
        Fabric f = TestFabrics.star(n, 100, 1.0, IncastTest.pfcOnly(100_000, 80_000, 70_000));
        SimResults.CollectiveResult c = run(f, Collective.allReduce("ar", ranks(n), 8_000_000, 0, 3)).collectives().get(0);
        assertEquals(2 * (n - 1), c.steps().size());
        long step = 242L * 337_600 + 225_920 + 2 * 5_000;
        long sum = 0;
        for (SimResults.StepResult s : c.steps()) {
            assertTrue(s.timePs() >= step && s.timePs() <= step + 2 * 242 * 6_880L, "step " + s);
            sum += s.timePs();
        }
        assertEquals(c.timePs(), sum);
        assertEquals(c.finishPs(), c.steps().get(c.steps().size() - 1).finishPs());
    }

    @Test
    void sizeAlgbwAndBusbwAreNcclTestsDefinitionsEvenWhenSDoesNotDivideByN() {
        // nccl-tests (doc/PERFORMANCE.md): algbw = S / t with S the buffer size the user asked for,
        // busbw = algbw x 2(n-1)/n for all-reduce. S = 1,000,003 B over 3 ranks: each chunk is
        // ceil(S/3) = 333,335 B, but S stays 1,000,003.
        Fabric f = TestFabrics.star(3, 100, 1.0, IncastTest.pfcOnly(100_000, 80_000, 70_000));
        SimResults.CollectiveResult c = run(f, Collective.allReduce("odd", ranks(3), 1_000_003, 0, 3)).collectives().get(0);
        assertEquals(1_000_003, c.bytes());
        assertEquals(1_000_003 / (c.timePs() / 1e12) / 1e9, c.algbwGBps(), 1e-9);
        assertEquals(c.algbwGBps() * 2 * 2 / 3.0, c.busbwGBps(), 1e-9);
    }

    @Test
    void channelsSplitTheBufferOverSeparateQueuePairs() {
        // 4 channels of S/4 = 2 MB: 4 x 14 x 8 flows, each of ceil(2 MB / 8) = 250,000 B; the flows of
        // one channel have their own UDP ports. On one switch the channels share each NIC's link,
        // so the collective takes about as long as one channel would: each step moves 4 x 250 KB
        // per link instead of 1 MB, with 4 flows of a NIC interleaving frame by frame.
        int n = 8;
        Fabric f = TestFabrics.star(n, 100, 1.0, IncastTest.pfcOnly(100_000, 80_000, 70_000));
        Collective four = new Collective(Collective.Kind.ALL_REDUCE, "ch", ranks(n), 8_000_000, 0, 3, 4, RingOrder.AS_GIVEN);
        List<FlowSpec> flows = four.flows(f);
        assertEquals(4 * 14 * 8, flows.size());
        assertEquals(8_000_000, flows.stream().filter(x -> x.id().contains("/0/")).mapToLong(FlowSpec::bytes).sum());
        SimResults r = run(f, four);
        SimResults.CollectiveResult c = r.collectives().get(0);
        SimResults.CollectiveResult one = run(f, Collective.allReduce("one", ranks(n), 8_000_000, 0, 3)).collectives().get(0);
        assertEquals(4, c.channels());
        assertEquals(8_000_000, c.bytes());
        assertEquals(14, c.steps().size());
        System.out.printf("all-reduce 8 MB x 8 ranks: 1 channel %.1f us, 4 channels %.1f us%n", one.timePs() / 1e6, c.timePs() / 1e6);
        assertEquals(one.timePs(), c.timePs(), one.timePs() * 0.03);
    }

    @Test
    void aLinkFailureMidCollectiveStallsItAndTheCollectiveRecoversThroughGoBackN() {
        // Two leaves, two spines, 4 ranks on each leaf at 100G, 100G uplinks; one spine uplink of
        // leaf0 fails at 300 us and routing reconverges 50 us later. Flows hashed onto it lose the
        // frames on and behind it until then and stall; after the reroute the NAK of the first
        // out-of-order packet sends them back (go-back-N) over the surviving spine.
        Fabric f = TestFabrics.leafSpine(2, 2, 4, 100, 100, 1.0, IncastTest.pfcOnly(100_000, 80_000, 70_000));
        List<String> ranks = List.of("s0_0:nic0", "s1_0:nic0", "s0_1:nic0", "s1_1:nic0", "s0_2:nic0", "s1_2:nic0",
                "s0_3:nic0", "s1_3:nic0");
        Collective ar = new Collective(Collective.Kind.ALL_REDUCE, "ar", ranks, 16_000_000, 0, 3, 1, RingOrder.AS_GIVEN);
        SimResults healthy = run(f, ar);
        Fabric g = TestFabrics.leafSpine(2, 2, 4, 100, 100, 1.0, IncastTest.pfcOnly(100_000, 80_000, 70_000));
        Simulator sim = new Simulator(g, ar.flows(g), SimConfig.defaults());
        sim.describeCollectives(List.of(ar));
        sim.setReconvergencePs(50 * US);
        sim.scheduleFailure(new LinkFailure(g.findLink("leaf0:up0"), 300 * US, 0));
        SimResults failed = sim.run();
        SimResults.CollectiveResult h = healthy.collectives().get(0);
        SimResults.CollectiveResult c = failed.collectives().get(0);
        System.out.printf("all-reduce 16 MB over 8 ranks: healthy %.1f us, with a failure at 300 us %.1f us, stall %.1f us, "
                + "retransmitted %d B, link-down drops %d%n", h.timePs() / 1e6, c.timePs() / 1e6, c.stallPs() / 1e6,
                c.retransmittedBytes(), failed.summary().linkDownDrops());
        assertEquals(SimResults.StopReason.COMPLETED, failed.run().stopReason());
        assertTrue(failed.summary().linkDownDrops() > 0);
        assertTrue(c.retransmittedBytes() > 0);
        // The stall covers at least the 50 us until routing reconverges.
        assertTrue(c.stallPs() >= 50 * US, "stall " + c.stallPs());
        assertTrue(c.timePs() >= h.timePs() + 50 * US, "the collective is late by at least the reconvergence time");
        assertEquals(0, h.stallPs());
    }
}
