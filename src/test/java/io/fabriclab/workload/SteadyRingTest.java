package io.fabriclab.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.ScaleUp;
import io.fabriclab.model.Transport;
import io.fabriclab.sim.FlowEngine;
import io.fabriclab.sim.SimConfig;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.Simulator;
import io.fabriclab.sim.TestFabrics;
import io.fabriclab.sim.TransportProfile;

/** Rings in their steady state (TaskGraph.steadyRings; docs/model.md, Steady rings). */
class SteadyRingTest {
    private static final ScaleUp H100 = ScaleUp.of("H100");

    private static List<FlowSpec> ring(Fabric f, boolean steady) {
        NcclCollective c = new NcclCollective(NcclCollective.Op.ALL_REDUCE, "r", Gpus.all(f), 8L << 20,
                NcclCollective.Algorithm.RING, NcclCollective.DEFAULT_CHANNELS_PER_RAIL, 3);
        TaskGraph g = new TaskGraph(f, 3).withSteadyRings(steady);
        c.build(g, r -> List.of());
        return g.tasks();
    }

    private static long end(SimResults r) {
        return r.lastFinishPs();
    }

    @Test
    void aSteadyRingMovesTheStepByStepRingsBytesInOneTransferPerPositionAndChannel() {
        // 8 one-GPU servers at 100G on one switch; ring all-reduce of S = 8 MiB, 2 channels: each
        // channel's 4 MiB in chunks of 512 KiB, 2(n-1) = 14 steps.
        Fabric f = TestFabrics.railStar(8, 1, 100, 1.0, null, H100, false);
        List<FlowSpec> steps = ring(f, false);
        List<FlowSpec> steady = ring(f, true);
        assertEquals(14 * 8 * 2, steps.size());
        assertEquals(8 * 2, steady.size());
        assertEquals(steps.stream().mapToLong(FlowSpec::bytes).sum(), steady.stream().mapToLong(FlowSpec::bytes).sum());
        // 14 x 524,288 B per transfer, the latency of 13 steps before it: two 1 m cables (5 ns a
        // metre) and one 300 ns switch each, 13 x 310,000 ps.
        assertEquals(14L * 524_288, steady.get(0).bytes());
        assertEquals(13L * 310_000, steady.get(0).delayPs());
        // On the flow engine, both forms take the same time to within 1 %: the same bytes over the
        // same NICs, 13 step latencies paid once up front instead of one per step.
        TransportProfile roce = TransportProfile.of(Transport.ROCEV2);
        long a = end(new FlowEngine(f, steps, SimConfig.defaults(), roce).run(null));
        long b = end(new FlowEngine(f, steady, SimConfig.defaults(), roce).run(null));
        assertEquals(a, b, a * 0.01, "step by step " + a + " ps, steady " + b + " ps");
        // And the packet engine agrees with the flow engine on the steady ring (both channels share
        // each NIC all the way: no synchronisation left to differ on) to within 2 %.
        long p = end(new Simulator(f, steady, SimConfig.defaults()).run());
        assertEquals(p, b, p * 0.02, "packet " + p + " ps, flow " + b + " ps");
    }

    @Test
    void aStepTooLargeForStepByStepRingsIsBuiltWithSteadyRings() {
        Fabric f = TestFabrics.railStar(4, 2, 100, 1.0, null, H100, false);
        TrainingJob.Model m = new TrainingJob.Model("m", 6_250_000, 6_250_000, 0, 4, 64, 64, 8, 1, 0, 0);
        TrainingJob job = new TrainingJob("j", m, 1, 1, 8, 1, 0, 300, true, 5_000_000, false, 4);
        TrainingJob.Built full = job.build(f);
        assertFalse(full.steadyRings());
        TrainingJob.Built small = job.build(f, full.tasks().size() - 1);
        assertTrue(small.steadyRings());
        assertTrue(small.tasks().size() < full.tasks().size(), small.tasks().size() + " tasks");
        assertTrue(small.tasks().stream().anyMatch(t -> t.id().contains("/steady/")));
    }
}
