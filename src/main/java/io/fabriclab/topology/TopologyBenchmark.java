package io.fabriclab.topology;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.fabriclab.model.Fabric;

/**
 * Times the generators and the static analyses on the reference sizes, for the {@code bench}
 * command and docs/performance.md (never for assertions). Each case runs {@code warmups} untimed
 * rounds, then reports the best of {@code repetitions} timed rounds.
 */
public final class TopologyBenchmark {

    /** One fabric: its size and the best time of each step, in milliseconds. */
    public record Result(String name, int devices, int links, int gpus, double generateMs, double oversubscriptionMs,
                         double bisectionMs, double billOfMaterialsMs) {
    }

    private TopologyBenchmark() {
    }

    /** The reference cases: classic lab, rail 1/8/16/64 SU, fat tree k=16 and k=32. */
    public static Map<String, Supplier<Fabric>> referenceCases() {
        Map<String, Supplier<Fabric>> m = new LinkedHashMap<>();
        m.put("leaf-spine classic", LeafSpineGenerator::classic);
        for (int u : new int[] {1, 8, 16, 64}) {
            m.put("rail " + u + " SU", () -> RailOptimizedGenerator.generate(u));
        }
        m.put("fat-tree k=16", () -> FatTreeGenerator.generate(16));
        m.put("fat-tree k=32", () -> FatTreeGenerator.generate(32));
        return m;
    }

    public static List<Result> run(int warmups, int repetitions) {
        List<Result> out = new ArrayList<>();
        PriceBook empty = new PriceBook("USD", "", Map.of());
        referenceCases().forEach((name, gen) -> {
            double[] best = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE};
            Fabric f = null;
            for (int i = 0; i < warmups + repetitions; i++) {
                long t0 = System.nanoTime();
                f = gen.get();
                long t1 = System.nanoTime();
                Oversubscription.of(f);
                long t2 = System.nanoTime();
                Bisection.of(f);
                long t3 = System.nanoTime();
                BillOfMaterials.of(f, empty);
                long t4 = System.nanoTime();
                if (i >= warmups) {
                    best[0] = Math.min(best[0], (t1 - t0) / 1e6);
                    best[1] = Math.min(best[1], (t2 - t1) / 1e6);
                    best[2] = Math.min(best[2], (t3 - t2) / 1e6);
                    best[3] = Math.min(best[3], (t4 - t3) / 1e6);
                }
            }
            out.add(new Result(name, f.devices().size(), f.linkCount(), f.gpuCount(), best[0], best[1], best[2], best[3]));
        });
        return out;
    }
}
