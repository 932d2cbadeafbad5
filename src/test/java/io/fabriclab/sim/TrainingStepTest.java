package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.ScaleUp;
import io.fabriclab.workload.FlowSpec;
import io.fabriclab.workload.Gpus;
import io.fabriclab.workload.NcclCollective;
import io.fabriclab.workload.TaskGraphs;
import io.fabriclab.workload.TrainingJob;

/** The task-graph engine, NCCL's algorithms and the training step against figures derived by hand. */
class TrainingStepTest {

    /** H100's domain: 450 GB/s = 0.45 B/ps each way, 470 ns a hop. */
    private static final ScaleUp H100 = ScaleUp.DEFAULT;

    private static SimResults run(Fabric f, List<FlowSpec> tasks) {
        return new Simulator(f, tasks, SimConfig.defaults()).run();
    }

    private static long end(SimResults r) {
        return r.lastFinishPs();
    }

    @Test
    void maxMinFairSharesOnTheTextbookExample() {
        // Bertsekas & Gallager's example: links A and B of capacity 1; flow 0 crosses A and B,
        // flows 1 and 2 only A, flow 3 only B. A fills first at 1/3 each (flows 0, 1, 2 frozen at
        // 1/3); flow 3 then takes what is left of B: 1 - 1/3 = 2/3.
        double[] r = MaxMinFair.rates(new double[] {1, 1}, new int[][] {{0, 1}, {0}, {0}, {1}});
        assertEquals(1 / 3.0, r[0], 1e-12);
        assertEquals(1 / 3.0, r[1], 1e-12);
        assertEquals(1 / 3.0, r[2], 1e-12);
        assertEquals(2 / 3.0, r[3], 1e-12);
    }

    @Test
    void anNvlinkRingAllReduceInsideOneServerTakesItsAlphaBetaTime() {
        // One server, 8 GPUs, ring all-reduce of S = 8 MiB: 2(g-1) = 14 steps; in each, every GPU
        // sends S/8 = 1 MiB to the next, alone on its NVLink egress and ingress: 470 ns + 1,048,576 B
        // / 0.45 B/ps = 470,000 + 2,330,169 ps (rounded up to whole ps) = 2,800,169 ps a step;
        // 14 steps = 39,202,366 ps. No NIC is touched.
        Fabric f = TestFabrics.railStar(1, 8, 400, 1.0, null, H100, false);
        NcclCollective c = new NcclCollective(NcclCollective.Op.ALL_REDUCE, "ar", Gpus.all(f), 8L << 20,
                NcclCollective.Algorithm.AUTO, 2, 3);
        assertEquals(NcclCollective.Algorithm.RING, c.plan(f).algorithm());
        SimResults r = run(f, c.flows(f));
        assertEquals(0, r.flows().size());
        assertEquals(14 * 8, r.local().tasksCompleted());
        assertEquals(14 * 2_800_169L, end(r), 14);
    }

    @Test
    void liveSnapshotsCarryEachServersNvlinkBytesSoFar() {
        // One NVLink transfer of 4.5 MB at 0.45 B/ps after 470 ns: done at 10,470,000 ps. A snapshot
        // at 5,470,000 ps sees 5,000,000 ps x 0.45 = 2,250,000 B moved; one after the end sees all.
        Fabric f = TestFabrics.railStar(1, 2, 400, 1.0, null, H100, false);
        Simulator sim = new Simulator(f, List.of(FlowSpec.nvlink("s0:gpu0", "s0:gpu1", 4_500_000, 0, "x", "a", List.of()),
                FlowSpec.compute("s0:gpu1", 20_000_000, "c", "b", List.of("a"))), SimConfig.defaults());
        List<SimSnapshot> seen = new java.util.ArrayList<>();
        sim.setSnapshotSink(seen::add, 5_470_000);
        sim.run();
        SimSnapshot.ScaleUpActivity first = seen.get(0).scaleUp();
        assertEquals(List.of("s0"), first.servers());
        assertEquals(5_470_000, seen.get(0).timePs());
        assertEquals(2_250_000, first.bytesTotal()[0], 1);
        assertEquals(4_500_000, seen.get(seen.size() - 1).scaleUp().bytesTotal()[0]);
    }

    @Test
    void nvlinkTransfersIntoOneGpuShareItsIngress() {
        // Three GPUs each send 450 KB to gpu0 at once: gpu0's ingress (0.45 B/ps) is shared max-min
        // fair, 0.15 B/ps each, so all three finish at 470 ns + 450,000 / 0.15 = 3,470,000 ps.
        Fabric f = TestFabrics.railStar(1, 4, 400, 1.0, null, H100, false);
        List<FlowSpec> t = List.of(FlowSpec.nvlink("s0:gpu1", "s0:gpu0", 450_000, 0, "x", "a", List.of()),
                FlowSpec.nvlink("s0:gpu2", "s0:gpu0", 450_000, 0, "x", "b", List.of()),
                FlowSpec.nvlink("s0:gpu3", "s0:gpu0", 450_000, 0, "x", "c", List.of()));
        SimResults r = run(f, t);
        for (SimResults.TaskResult x : r.local().tasks()) {
            assertEquals(3_470_000, x.finishPs(), 2);
        }
    }

    @Test
    void computeOnOneGpuRunsOneTaskAtATime() {
        // Two 10 us tasks ready at once on gpu0 run back to back; one on gpu1 alongside.
        Fabric f = TestFabrics.railStar(1, 2, 400, 1.0, null, H100, false);
        SimResults r = run(f, List.of(FlowSpec.compute("s0:gpu0", 10_000_000, "c", "a", List.of()),
                FlowSpec.compute("s0:gpu0", 10_000_000, "c", "b", List.of()),
                FlowSpec.compute("s0:gpu1", 10_000_000, "c", "c", List.of())));
        assertEquals(20_000_000, end(r));
        assertEquals(List.of(10_000_000L, 20_000_000L, 10_000_000L),
                r.local().tasks().stream().map(SimResults.TaskResult::finishPs).toList());
    }

    @Test
    void aNetworkFlowWaitsForComputeAndComputeForAFlow() {
        // compute 5 us on s0:gpu0, then 1 MB s0 -> s1 (network), then compute 5 us on s1:gpu0.
        Fabric f = TestFabrics.railStar(2, 1, 100, 1.0, null, H100, false);
        List<FlowSpec> t = List.of(FlowSpec.compute("s0:gpu0", 5_000_000, "c", "a", List.of()),
                new FlowSpec("s0:nic0", "s1:nic0", 1_000_000, 0, 3, "x", "f", List.of("a")),
                FlowSpec.compute("s1:gpu0", 5_000_000, "c", "b", List.of("f")));
        SimResults r = run(f, t);
        SimResults.FlowResult flow = r.flows().get(0);
        assertEquals(5_000_000, flow.startPs());
        assertEquals(flow.finishPs() + 5_000_000, end(r));
    }

    @Test
    void aStepWithoutCommunicationIsItsCompute() {
        // One GPU: no TP, PP or DP. m = 32 micro-batches of 100 us: the step is 3,200 us exactly.
        Fabric f = TestFabrics.railStar(1, 1, 400, 1.0, null, H100, false);
        TrainingJob.Model m = new TrainingJob.Model("m", 1_000_000, 1_000_000, 0, 4, 256, 256, 32, 1, 0, 0);
        TrainingJob job = new TrainingJob("j", m, 1, 1, 1, 1, 0, 100, true, TrainingJob.DEFAULT_BUCKET_BYTES, false, 4);
        TrainingJob.Built b = job.build(f);
        SimResults r = run(f, b.tasks());
        StepAnalysis.Result a = StepAnalysis.of(b.tasks(), "j", r, job.tokensPerStep(), b.collectives());
        assertEquals(3_200_000_000L, a.stepPs());
        assertEquals(a.stepPs(), a.computePs());
        assertEquals(0, a.exposedCommPs());
        assertEquals(0, a.bubblePs());
    }

    @Test
    void thePipelineBubbleIsPMinusOneOverMPlusPMinusOne() {
        // p = 4 stages on 4 one-GPU servers, m = 8 micro-batches, forward 100 us, backward 200 us.
        // 1F1B with free communication takes (m + p - 1)(F + B) = 11 x 300 = 3,300 us, of which the
        // bubble is (p - 1)(F + B) = 900 us: (p - 1) / (m + p - 1) = 3/11 of the step.
        Fabric f = TestFabrics.railStar(4, 1, 400, 1.0, null, H100, false);
        TrainingJob.Model m = new TrainingJob.Model("m", 1_000_000, 1_000_000, 0, 4, 64, 64, 8, 1, 0, 0);
        TrainingJob job = new TrainingJob("j", m, 1, 4, 1, 1, 0, 300, true, TrainingJob.DEFAULT_BUCKET_BYTES, false, 4);
        TrainingJob.Built b = job.build(f);
        assertEquals(3_300_000_000L, TaskGraphs.computeOnly(b.tasks()));
        SimResults r = run(f, b.tasks());
        StepAnalysis.Result a = StepAnalysis.of(b.tasks(), "j", r, job.tokensPerStep(), b.collectives());
        assertEquals(2_400_000_000L, a.computePs());
        assertEquals(900_000_000L, a.bubblePs());
        assertEquals(3.0 / 11, (double) a.bubblePs() / a.noCommStepPs(), 1e-12);
        // The activations (8 KB each at 400G) add a little on the real run.
        assertTrue(a.stepPs() >= 3_300_000_000L && a.stepPs() < 3_300_000_000L * 1.01, "step " + a.stepPs());
    }

    @Test
    void dataParallelOverlapHidesAllButTheLastBucketAndNoOverlapAddsEverything() {
        // dp = 2 on two one-GPU servers at 100G, m = 1, forward F = 100 us, backward B = 200 us,
        // gradients G = 25 MB (6.25 M params x 4 B) in 5 buckets of 5 MB. One bucket's all-reduce
        // over 2 ranks moves 2.5 MB each way twice; c is measured alone on the same fabric.
        // Overlap: bucket b is ready at F + (b + 1) B/5 and the communicator runs one at a time:
        //   c <= B/5 (40 us): step = F + B + c (only the last bucket exposed);
        //   c >  B/5: step = F + B/5 + 5c (communication-bound).
        // No overlap: step = F + B + 5c (their sum).
        Fabric f = TestFabrics.railStar(2, 1, 100, 1.0, null, H100, false);
        TrainingJob.Model m = new TrainingJob.Model("m", 6_250_000, 6_250_000, 0, 4, 64, 64, 2, 1, 0, 0);
        NcclCollective one = new NcclCollective(NcclCollective.Op.ALL_REDUCE, "x", Gpus.all(f), 5_000_000,
                NcclCollective.Algorithm.AUTO, NcclCollective.DEFAULT_CHANNELS_PER_RAIL, 3);
        long c = end(run(f, one.flows(f)));
        long fw = 100_000_000L;
        long bw = 200_000_000L;
        for (boolean overlap : new boolean[] {true, false}) {
            TrainingJob job = new TrainingJob("j", m, 1, 1, 2, 1, 0, 300, overlap, 5_000_000, false, 4);
            TrainingJob.Built b = job.build(f);
            StepAnalysis.Result a = StepAnalysis.of(b.tasks(), "j", run(f, b.tasks()),
                    job.tokensPerStep(), b.collectives());
            long expected = overlap ? fw + Math.max(bw + c, bw / 5 + 5 * c) : fw + bw + 5 * c;
            System.out.printf("dp %s: c %.2f us, expected %.2f us, got %.2f us%n", overlap ? "overlap" : "no overlap",
                    c / 1e6, expected / 1e6, a.stepPs() / 1e6);
            assertEquals(expected, a.stepPs(), expected * 0.01, (overlap ? "overlap" : "no overlap") + ", c = " + c);
            assertEquals(a.stepPs() - (fw + bw), a.exposedCommPs());
        }
    }

    @Test
    void impossibleParallelismIsRefusedNamingTheField() {
        Fabric f = TestFabrics.railStar(2, 4, 400, 1.0, null, H100, false);
        TrainingJob.Model m = new TrainingJob.Model("m", 1_000_000, 1_000_000, 0, 4, 64, 64, 8, 1, 0, 0);
        TrainingJob wrongCount = new TrainingJob("j", m, 4, 1, 1, 1, 0, 10, true, 1000, false, 4);
        assertTrue(wrongCount.problem(f).startsWith("parallelism: tp x pp x dp = 4 x 1 x 1 = 4 GPUs, but the fabric has 8"));
        TrainingJob tooWide = new TrainingJob("j", m, 8, 1, 1, 1, 0, 10, true, 1000, false, 4);
        assertTrue(tooWide.problem(f).startsWith("parallelism.tp: 8 is larger than server s0 (4 GPUs)"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new TrainingJob("j", m, 1, 3, 1, 1, 0, 10, true, 1000, false, 4));
        assertTrue(e.getMessage().startsWith("parallelism.pp: 3 stages do not divide the model's 4 layers"));
        e = assertThrows(IllegalArgumentException.class,
                () -> new TrainingJob.Model("m", -5, 1, 0, 4, 64, 64, 8, 1, 0, 0));
        assertTrue(e.getMessage().startsWith("parameters:"), e.getMessage());
    }

    @Test
    void theCriticalPathNamesThePortThatHeldItsTransfers() {
        // DP 4 on four one-GPU servers of one 100G switch, 2 MB of gradients in one bucket, and beside
        // the job a 2:1 incast of 4 MB each into s0: the job's all-reduce steps into s0 wait behind
        // it at the switch's port to s0, which the critical path names with its queue.
        Fabric f = TestFabrics.railStar(4, 1, 100, 1.0, null, H100, false);
        TrainingJob.Model m = new TrainingJob.Model("m", 500_000, 500_000, 0, 4, 64, 64, 4, 1, 0, 0);
        TrainingJob job = new TrainingJob("j", m, 1, 1, 4, 1, 0, 10, false, 0, false, 4);
        TrainingJob.Built b = job.build(f);
        List<FlowSpec> all = new java.util.ArrayList<>(b.tasks());
        all.add(new FlowSpec("s2:nic0", "s0:nic0", 4_000_000, 0, 3, "incast"));
        all.add(new FlowSpec("s3:nic0", "s0:nic0", 4_000_000, 0, 3, "incast"));
        SimResults r = new Simulator(f, all, SimConfig.defaults()).run();
        StepAnalysis.Result a = StepAnalysis.of(all, "j", r, job.tokensPerStep(), b.collectives());
        assertTrue(a.completed());
        assertTrue(a.heldBy().stream().anyMatch(t -> "rail0:eth0".equals(t.port()) && t.maxQueueBytes() > 0),
                a.heldBy().toString());
        assertTrue(StepAnalysis.text(job, a).contains("its busiest port rail0:eth0 (queue up to"), StepAnalysis.text(job, a));
    }
}
