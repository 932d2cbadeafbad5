package io.fabriclab.ui.live;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.fabriclab.io.FabricJson;
import io.fabriclab.model.Fabric;
import io.fabriclab.sim.FlowValues;
import io.fabriclab.sim.SimSnapshot;
import io.fabriclab.workload.Collective;
import io.fabriclab.workload.FlowSpec;
import io.fabriclab.workload.RingOrder;

/** The collective figures the live view shows, against nccl-tests' definitions worked by hand. */
class CollectiveProgressTest {
    static final List<String> RANKS = List.of("server01:nic0", "server02:nic0", "server09:nic0", "server10:nic0");

    /** A picture at {@code timePs} where flow i has progress[i]; nothing else is read. */
    static SimSnapshot picture(long timePs, double[] progress) {
        int n = progress.length;
        List<int[]> paths = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            paths.add(new int[0]);
        }
        return new SimSnapshot(timePs, 0, 0, List.of(), new long[0], new long[0], new int[0], new boolean[0],
                new long[0], new long[0], new double[0], new long[0], new long[0], new long[0], new long[0],
                new long[0], new long[0], List.of(), FlowValues.zeros(n), FlowValues.zeros(n), FlowValues.of(progress), paths, 0, 0, 0,
                List.of(), null, null, null, null, null, null, null);
    }

    @Test
    void aTwoChannelRingAllReduceCountsAStepOnlyWhenEveryChannelHasDoneIt() throws Exception {
        Fabric f = FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json"));
        // S = 800,000 B, n = 4, 2 channels: each channel moves 400,000 B in 2(n-1) = 6 steps of
        // 400,000 / 4 = 100,000 B per rank: 2 x 6 x 4 = 48 flows, 4.8 MB = S x 6 in all.
        Collective c = new Collective(Collective.Kind.ALL_REDUCE, "g", RANKS, 800_000, 0, 3, 2, RingOrder.AS_GIVEN);
        List<FlowSpec> flows = c.flows(f);
        assertEquals(48, flows.size());
        double[] progress = new double[48];
        // Steps 0-2 complete on both channels, step 3 on channel 0 only (flows channel by channel,
        // step by step, rank by rank: channel k's step s rank r is flow 24k + 4s + r).
        for (int ch = 0; ch < 2; ch++) {
            for (int step = 0; step < (ch == 0 ? 4 : 3); step++) {
                for (int r = 0; r < 4; r++) {
                    progress[24 * ch + 4 * step + r] = 1.0;
                }
            }
        }
        CollectiveProgress p = CollectiveProgress.of(picture(100_000_000L, progress), flows, c.label(),
                IntStream.range(0, 48).boxed().toList());
        assertEquals(3, p.stepsDone(), "step 3 waits for channel 1");
        assertEquals(6, p.steps());
        assertEquals(4, p.ranks());
        // Delivered 28 flows x 100,000 = 2.8 MB of 4.8 MB; algbw = S x 2.8/4.8 / 100 us
        // = 4.6667 GB/s; busbw = algbw x 2(n-1)/n = x 1.5 = 7.0 GB/s.
        assertEquals(2_800_000, p.bytesDone(), 1e-6);
        assertEquals(800_000, p.sizeBytes(), 1e-9);
        assertEquals(800_000 * 2.8 / 4.8 / 100e-6 / 1e9, p.algbwGBps(), 1e-9);
        assertEquals(7.0, p.busbwGBps(), 1e-9);
        assertEquals("allreduce:g: 58 % (3/6 steps), algbw 4.7, busbw so far 7.0 GB/s", p.text());
    }

    @Test
    void anAllToAllIsOneStepAndItsBusBandwidthUsesNMinusOneOverN() throws Exception {
        Fabric f = FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json"));
        // S = 400,000 B per rank, n = 4: 4 x 3 flows of S/n = 100,000 B, 1.2 MB = S x (n-1).
        Collective c = new Collective(Collective.Kind.ALL_TO_ALL, "a", RANKS, 400_000, 0, 3);
        List<FlowSpec> flows = c.flows(f);
        assertEquals(12, flows.size());
        double[] half = new double[12];
        java.util.Arrays.fill(half, 0.5);
        List<Integer> all = IntStream.range(0, 12).boxed().toList();
        CollectiveProgress p = CollectiveProgress.of(picture(100_000_000L, half), flows, c.label(), all);
        // algbw = 400,000 x 0.5 / 100 us = 2 GB/s; busbw = x 3/4 = 1.5 GB/s.
        assertEquals(2.0, p.algbwGBps(), 1e-9);
        assertEquals(1.5, p.busbwGBps(), 1e-9);
        assertEquals(0, p.stepsDone());
        double[] done = new double[12];
        java.util.Arrays.fill(done, 1.0);
        assertEquals(1, CollectiveProgress.of(picture(200_000_000L, done), flows, c.label(), all).stepsDone());
    }

    @Test
    void theRingStepIsReadFromTheFlowId() {
        assertEquals(3, CollectiveProgress.stepOf("allreduce/3/5"));
        assertEquals(12, CollectiveProgress.stepOf("allreduce/c1/12/5"));
        assertEquals(0, CollectiveProgress.stepOf("alltoall/2->5"), "all-to-all is one step");
        assertEquals(-1, CollectiveProgress.stepOf("allreduce/x/5"));
        assertEquals(-1, CollectiveProgress.stepOf("allreduce/5"));
        assertEquals(-1, CollectiveProgress.stepOf("flow7"));
        assertEquals(-1, CollectiveProgress.stepOf(null));
        assertEquals(-1, CollectiveProgress.stepOf("/3"));
    }
}
