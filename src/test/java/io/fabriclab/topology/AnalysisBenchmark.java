package io.fabriclab.topology;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.function.Supplier;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.TestFabrics;
import io.fabriclab.routing.EcmpPathCounter;
import io.fabriclab.routing.Routing;

/**
 * Times every analysis on the 16,384-GPU rail-optimized three-tier fabric (512 leaves, 512 spines,
 * 256 cores, 49,152 links). A main, not a test: figures go to docs/analysis.md, never into
 * assertions. Prints wall time and process CPU time per step (CPU time is the steadier figure on a
 * shared machine). Run after test-compile:
 * java -Xmx2g -cp target/classes:target/test-classes:(dependencies) io.fabriclab.topology.AnalysisBenchmark [rounds [fat32]]
 * (fat32: the k=32 fat tree, 8,192 hosts, 1,280 switches, instead)
 */
public final class AnalysisBenchmark {
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private AnalysisBenchmark() {
    }

    private static <T> T step(String name, Supplier<T> work, long[] totals) {
        long w0 = System.nanoTime();
        long c0 = OS.getProcessCpuTime();
        T result = work.get();
        long wall = (System.nanoTime() - w0) / 1_000_000;
        long cpu = (OS.getProcessCpuTime() - c0) / 1_000_000;
        totals[0] += wall;
        totals[1] += cpu;
        System.out.printf("  %-34s wall %6d ms   cpu %6d ms%n", name, wall, cpu);
        return result;
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        boolean fatTree = args.length > 1 && args[1].equals("fat32");
        for (int round = 1; round <= rounds; round++) {
            System.out.printf("round %d (%d cores)%n", round, Runtime.getRuntime().availableProcessors());
            long[] fixture = new long[2];
            Fabric f = step("build fabric (test fixture)", 
                    () -> fatTree ? TestFabrics.fatTree(32) : TestFabrics.railThreeTier(64, 32, 8, 4, 32, 8, 4),
                    fixture);
            long[] t = new long[2];
            Routing r = step("routing", () -> Routing.compute(f), t);
            EcmpPathCounter c = step("ECMP path counts", () -> EcmpPathCounter.of(r), t);
            EcmpPathCounter.Statistics st = step("path-count statistics", c::statistics, t);
            HopStats hops = step("hop stats", () -> HopStats.of(c), t);
            FailureImpact fi = step("failure impact (all links, switches)", () -> FailureImpact.analyze(c), t);
            DeadlockCheck.Result dl = step("deadlock check", () -> DeadlockCheck.check(r), t);
            List<HeadroomCalculator.PortHeadroom> hr = step("headroom", () -> HeadroomCalculator.check(f), t);
            List<Finding> lint = step("lint", () -> Lint.check(f), t);
            System.out.printf("  all analyses                       wall %6d ms   cpu %6d ms%n", t[0], t[1]);
            Runtime rt = Runtime.getRuntime();
            System.out.printf("  %d devices, %d links, %d NICs; paths mean %.1f max %d; diameter %d; %d failure items;"
                            + " %d dependencies, %d cycles; %d ports, %d short of headroom; %d findings; heap used ~%d MB%n",
                    f.devices().size(), f.linkCount(), c.totalNics(), st.all().mean(), st.all().max(), hops.diameter(),
                    fi.items().size(), dl.dependencies(), dl.cycles().size(), hr.size(),
                    hr.stream().filter(HeadroomCalculator.PortHeadroom::shortfall).count(), lint.size(),
                    (rt.totalMemory() - rt.freeMemory()) >> 20);
            System.out.println("  worst: " + fi.ranked().get(0));
        }
    }
}
