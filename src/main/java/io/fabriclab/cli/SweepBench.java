package io.fabriclab.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import io.fabriclab.sweep.SweepPlan;
import io.fabriclab.sweep.SweepRunner;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fabriclab bench sweep}: the wall time of one sweep with 1 worker and with N, measured
 * alternately (1, N, N, 1, ...) in fresh directories so both see the same machine load; prints each
 * round, the medians and the speed-up, with the load average before and after.
 */
@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = "Time a sweep (default: resources/sweeps/bench-16-k8-long.json, 16 runs of about 0.2 s) with 1 worker and with --workers N, alternately.")
final class SweepBench implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--sweep", paramLabel = "FILE", description = "sweep file (default: ${DEFAULT-VALUE})",
            defaultValue = "resources/sweeps/bench-16-k8-long.json")
    Path sweepFile;

    @Option(names = "--workers", paramLabel = "N", defaultValue = "2", description = "workers to compare with 1 (default: ${DEFAULT-VALUE})")
    int workers;

    @Option(names = "--rounds", defaultValue = "3", description = "rounds; each times 1 worker and N workers once, in alternating order "
            + "(default: ${DEFAULT-VALUE}); untimed sweeps (--warm-up) come first")
    int rounds;

    @Option(names = "--warm-up", paramLabel = "N", defaultValue = "3",
            description = "untimed sweeps first, with N workers, so the JIT has compiled the simulator before the timed rounds "
                    + "(default: ${DEFAULT-VALUE}; measured: the ratio settles after three or four k=8 sweeps)")
    int warmUp;

    @Override
    public Integer call() throws Exception {
        if (workers < 2 || rounds < 1 || warmUp < 0) {
            throw new BadInputException("--workers must be at least 2, --rounds at least 1 and --warm-up at least 0");
        }
        PrintWriter out = spec.commandLine().getOut();
        SweepPlan plan = SweepPlan.read(sweepFile);
        out.printf(Locale.ROOT, "bench sweep: %s, %d runs; %d cores, max heap %d MB; load %s%n", sweepFile, plan.runCount(),
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20, load());
        Path tmp = Files.createTempDirectory("fabriclab-bench-sweep");
        try {
            for (int w = 1; w <= warmUp; w++) {
                time(plan, tmp.resolve("warm-up-" + w), workers);
            }
            List<Double> one = new ArrayList<>();
            List<Double> many = new ArrayList<>();
            for (int r = 1; r <= rounds; r++) {
                boolean oneFirst = r % 2 == 1;
                double a = time(plan, tmp.resolve("r" + r + "-a"), oneFirst ? 1 : workers);
                double ca = lastCpu;
                double b = time(plan, tmp.resolve("r" + r + "-b"), oneFirst ? workers : 1);
                double cb = lastCpu;
                double t1 = oneFirst ? a : b;
                double tn = oneFirst ? b : a;
                double c1 = oneFirst ? ca : cb;
                double cn = oneFirst ? cb : ca;
                one.add(t1);
                many.add(tn);
                // CPU / wall: how many cores the sweep actually got (at most 1 with one worker, N with N).
                out.printf(Locale.ROOT, "round %d: 1 worker %.2f s (CPU/wall %.2f), %d workers %.2f s (CPU/wall %.2f), "
                        + "speed-up %.2f; load %s%n", r, t1, c1 / t1, workers, tn, cn / tn, t1 / tn, load());
                out.flush();
            }
            double m1 = median(one);
            double mn = median(many);
            out.printf(Locale.ROOT, "median: 1 worker %.2f s, %d workers %.2f s, speed-up %.2f (%d runs); load %s%n", m1, workers,
                    mn, m1 / mn, plan.runCount(), load());
        } finally {
            try (Stream<Path> s = Files.walk(tmp)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
        return ExitCode.OK;
    }

    /** CPU seconds this process used during the last timed sweep (all threads: workers, GC, JIT). */
    private double lastCpu;

    private double time(SweepPlan plan, Path dir, int workers) throws IOException {
        long c0 = cpuNanos();
        long t0 = System.nanoTime();
        SweepRunner.Result r = SweepRunner.run(plan, dir, workers, null);
        double s = (System.nanoTime() - t0) / 1e9;
        lastCpu = (cpuNanos() - c0) / 1e9;
        if (r.executed() != plan.runCount()) {
            throw new IllegalStateException("a timed sweep reused runs");
        }
        return s;
    }

    private static long cpuNanos() {
        if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return 0;
    }

    static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(null);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    /** The 1, 5 and 15 minute load averages (Linux), as uptime prints them. */
    static String load() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + ", " + f[1] + ", " + f[2];
        } catch (IOException | RuntimeException e) {
            return String.format(Locale.ROOT, "%.2f", java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                    .getSystemLoadAverage());
        }
    }
}
