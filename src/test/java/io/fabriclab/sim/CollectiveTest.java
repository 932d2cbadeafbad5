package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.workload.FlowSpec;
import io.fabriclab.workload.Collective;

class CollectiveTest {

    @Test
    void ringAllReduceOnANonBlockingFabricTakesTwoNMinusOneOverNTimesSOverBPlusLatencyTerms() {
        int n = 8;
        Fabric f = TestFabrics.star(n, 100, 1.0, IncastTest.pfcOnly(100_000, 80_000, 70_000));
        List<String> ranks = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ranks.add("s" + i + ":nic0");
        }
        Collective ar = Collective.allReduce("ar", ranks, 8_000_000, 0, 3);
        List<FlowSpec> flows = ar.flows(f);
        assertEquals(2 * (n - 1) * n, flows.size());
        SimResults r = new Simulator(f, flows, SimConfig.defaults()).run();
        SimResults.CollectiveResult c = r.collectives().get(0);
        assertEquals(n, c.ranks());
        assertEquals(8_000_000, c.bytes());

        // nccl-tests' ideal: 2(n-1)/n * S / B = 14/8 * 8 MB / 12.5 GB/s = 1,120 us. Latency terms:
        // each of the 14 steps moves a 1 MB chunk (241 full packets + 2,742 B) over two 100G hops:
        // 242 * 337,600 + 225,920 (last frame, 2,824 B on the wire) + 2 * 5,000 = 81,935,120 ps,
        // headers included (the 2 % of 82 B per 4138 B). Each step waits for the previous one on
        // both neighbours, so with no other traffic the collective takes 14 such steps; ACKs (86 B
        // on the wire, one per packet, strict priority) interleave with the data on the NIC and on
        // the switch port, adding at most 2 * 242 * 6,880 ps per step.
        long step = 242L * 337_600 + 225_920 + 2 * 5_000;
        long lower = 14 * step;
        long upper = 14 * (step + 2 * 242 * 6_880L);
        System.out.printf("ring all-reduce: %.1f us (bounds %.1f .. %.1f us, ideal 1120 us), algbw %.2f GB/s, busbw %.2f GB/s%n",
                c.timePs() / 1e6, lower / 1e6, upper / 1e6, c.algbwGBps(), c.busbwGBps());
        assertTrue(c.timePs() >= lower && c.timePs() <= upper, "took " + c.timePs());
        assertTrue(c.timePs() >= 1_120_000_000L);
        // Bus bandwidth close to the 12.5 GB/s of a 100G link (within headers and latency).
        assertEquals(c.algbwGBps() * 14 / 8, c.busbwGBps(), 1e-9);
        assertTrue(c.busbwGBps() > 11.5 && c.busbwGBps() < 12.5, "busbw " + c.busbwGBps());
    }

    @Test
    void allGatherReduceScatterAndAllToAllReportNcclTestsBusBandwidth() {
        int n = 4;
        Fabric f = TestFabrics.star(n, 100, 1.0, IncastTest.pfcOnly(100_000, 80_000, 70_000));
        List<String> ranks = List.of("s0:nic0", "s1:nic0", "s2:nic0", "s3:nic0");
        for (Collective.Kind kind : List.of(Collective.Kind.ALL_GATHER, Collective.Kind.REDUCE_SCATTER,
                Collective.Kind.ALL_TO_ALL)) {
            Collective c = new Collective(kind, "c", ranks, 4_000_000, 0, 3);
            List<FlowSpec> flows = c.flows(f);
            // Rings: n-1 steps of n flows; all-to-all: n(n-1) flows at once. Each moves S/n = 1 MB.
            assertEquals(kind == Collective.Kind.ALL_TO_ALL ? n * (n - 1) : (n - 1) * n, flows.size());
            SimResults.CollectiveResult r = new Simulator(f, flows, SimConfig.defaults()).run().collectives().get(0);
            assertEquals(kind.jsonName(), r.kind());
            assertEquals(4_000_000, r.bytes());
            // busbw = algbw (n-1)/n; on a non-blocking 100G fabric each rank's link carries (n-1)/n S,
            // so busbw approaches the 12.5 GB/s of the link, less headers and step latency.
            assertEquals(r.algbwGBps() * 3 / 4, r.busbwGBps(), 1e-9);
            assertTrue(r.busbwGBps() > 11 && r.busbwGBps() < 12.5, kind + " busbw " + r.busbwGBps());
        }
    }

    @Test
    void aStepStartsOnlyWhenItsInputHasArrived() {
        Fabric f = TestFabrics.star(3, 100, 1.0, IncastTest.pfcOnly(100_000, 80_000, 70_000));
        List<FlowSpec> flows = Collective.allReduce("x", List.of("s0:nic0", "s1:nic0", "s2:nic0"), 300_000, 0, 3).flows(f);
        SimResults r = new Simulator(f, flows, SimConfig.defaults()).run();
        // Flow of step 1 for rank 1 (index 3 + 1) waits for step 0 of ranks 1 and 0.
        SimResults.FlowResult s1 = r.flows().get(4);
        long ready = Math.max(r.flows().get(1).finishPs(), r.flows().get(0).finishPs());
        assertEquals(ready, s1.startPs());
    }
}
