package io.fabriclab.topology;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.TestFabrics;
import io.fabriclab.routing.EcmpPathCounter;
import io.fabriclab.routing.Routing;

/**
 * Times every analysis on the 16,384-GPU rail-optimized three-tier fabric (512 leaves, 512 spines,
 * 256 cores, 49,152 links). A main, not a test: figures go to docs/analysis.md, never into
 * assertions. Run: java -Xmx2g -cp target/classes:target/test-classes:$(deps) io.fabriclab.topology.AnalysisBenchmark
 */
public final class AnalysisBenchmark {
    private AnalysisBenchmark() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        for (int round = 1; round <= rounds; round++) {
            long t0 = System.nanoTime();
            Fabric f = TestFabrics.railThreeTier(64, 32, 8, 4, 32, 8, 4);
            long t1 = System.nanoTime();
            Routing r = Routing.compute(f);
            EcmpPathCounter c = EcmpPathCounter.of(r);
            EcmpPathCounter.Statistics st = c.statistics();
            long t2 = System.nanoTime();
            HopStats hops = HopStats.of(c);
            long t3 = System.nanoTime();
            FailureImpact fi = FailureImpact.analyze(c);
            long t4 = System.nanoTime();
            DeadlockCheck.Result dl = DeadlockCheck.check(r);
            long t5 = System.nanoTime();
            var headroom = HeadroomCalculator.check(f);
            long t6 = System.nanoTime();
            Runtime rt = Runtime.getRuntime();
            long usedMb = (rt.totalMemory() - rt.freeMemory()) >> 20;
            System.out.printf("round %d: %d devices, %d links, %d NICs%n", round, f.devices().size(), f.linkCount(),
                    c.totalNics());
            System.out.printf("  build fabric (test fixture)  %6d ms%n", (t1 - t0) / 1_000_000);
            System.out.printf("  ECMP path counts + stats     %6d ms  (mean %.1f, max %d)%n", (t2 - t1) / 1_000_000,
                    st.all().mean(), st.all().max());
            System.out.printf("  hop stats                    %6d ms  (diameter %d)%n", (t3 - t2) / 1_000_000,
                    hops.diameter());
            System.out.printf("  failure impact (%d items)  %6d ms  (worst: %s)%n", fi.items().size(),
                    (t4 - t3) / 1_000_000, fi.ranked().get(0));
            FailureImpact.Item core = fi.ranked().stream().filter(i -> i.kind() == FailureImpact.Kind.SWITCH
                    && i.subject().startsWith("core")).findFirst().orElseThrow();
            System.out.printf("  e.g. %s%n", core);
            System.out.printf("  deadlock check                %6d ms  (%d dependencies, %d cycles)%n",
                    (t5 - t4) / 1_000_000, dl.dependencies(), dl.cycles().size());
            System.out.printf("  headroom (%d ports)          %6d ms  (%d short)%n", headroom.size(),
                    (t6 - t5) / 1_000_000, headroom.stream().filter(HeadroomCalculator.PortHeadroom::shortfall).count());
            System.out.printf("  all analyses                 %6d ms%n", (t6 - t1) / 1_000_000);
            System.out.printf("  heap used ~%d MB%n", usedMb);
        }
    }
}
