package io.fabriclab.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.fabriclab.io.FabricReader;
import io.fabriclab.io.Scenario;
import io.fabriclab.io.ScenarioException;
import io.fabriclab.io.ScenarioJson;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.Simulator;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fabriclab bench sim}: runs the shipped simulator benchmark (htsim's reference: a k=16
 * fat tree, 1024 hosts at 100G, 1 us per hop, a 2 MB permutation, PFC + ECN + DCQCN on, run to
 * completion) or any scenario, and prints events, events/s of the simulator thread's CPU time and
 * of wall time, simulated time and heap. The machine may be shared: CPU time of the thread that
 * runs the events is the fair figure, wall time is an upper bound.
 */
@Command(name = "sim", mixinStandardHelpOptions = true,
        description = {"Simulator speed: run the shipped k=16 fat-tree permutation bench (or --scenario FILE) and print",
                "events, events/s (CPU time of the simulator thread, and wall), simulated time and heap."})
final class SimBench implements Callable<Integer> {
    /** Shipped bench scenarios, on the classpath under /fabriclab (resources/ in the source tree). */
    static final String SCENARIO_9000 = "scenarios/bench-fattree-k16-permutation.json";
    static final String SCENARIO_1500 = "scenarios/bench-fattree-k16-permutation-1500.json";
    static final String FABRIC = "examples/fat-tree-k16-bench.json";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--mtu", defaultValue = "9000", paramLabel = "BYTES",
            description = "which shipped bench: 9000 or 1500 (default: ${DEFAULT-VALUE})")
    int mtu;

    @Option(names = "--scenario", paramLabel = "FILE", description = {"run this scenario file instead of the shipped bench;",
            "repeat it to compare scenarios: their runs alternate (A, B, C, A, B, C, ...) in this JVM and each",
            "later one is reported as the median of its per-round ratios to the first one's CPU events/s"})
    List<Path> scenarioFiles = new ArrayList<>();

    @Option(names = "--runs", defaultValue = "3", description = "runs in this JVM; the first one includes JIT warm-up (default: ${DEFAULT-VALUE})")
    int runs;

    @Option(names = "--heap-check", description = {"also measure the heap after a full GC at every tenth of the run (simulated time",
            "or flows completed): a long run must keep a constant heap. The GCs are outside the timed CPU figure",
            "only approximately: use runs without this option for speed figures."})
    boolean heapCheck;

    @Option(names = "--engine", paramLabel = "E", converter = SimulateCommand.EngineConverter.class,
            description = "packet (default) or flow: the engine every run uses (simulate --engine)")
    io.fabriclab.sim.Engine engine = io.fabriclab.sim.Engine.PACKET;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (runs < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--runs must be >= 1");
        }
        List<Path> files = new ArrayList<>();
        Path temp = null;
        if (!scenarioFiles.isEmpty()) {
            files.addAll(scenarioFiles);
        } else {
            if (mtu != 9000 && mtu != 1500) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "--mtu: the shipped benches are 9000 and 1500 (use --scenario for others)");
            }
            temp = Files.createTempDirectory("fabriclab-bench");
            files.add(extract(temp, mtu == 9000 ? SCENARIO_9000 : SCENARIO_1500));
            extract(temp, FABRIC);
        }
        boolean several = files.size() > 1;
        try {
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
            out.printf(Locale.ROOT, "bench sim: %s, %d runs%s, %s engine, %d cores, load average %.1f, max heap %d MB, %s%n",
                    !scenarioFiles.isEmpty() ? scenarioFiles.stream().map(Path::toString).collect(java.util.stream.Collectors.joining(", "))
                            : "shipped " + (mtu == 9000 ? SCENARIO_9000 : SCENARIO_1500),
                    runs, several ? " of each, alternating" : "", engine.jsonName(),
                    Runtime.getRuntime().availableProcessors(), load, Runtime.getRuntime().maxMemory() >> 20,
                    System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
            out.flush();
            // warm.get(i): scenario i's CPU events/s (M) of rounds 2..runs, in round order.
            List<List<Double>> warm = new ArrayList<>();
            for (int i = 0; i < files.size(); i++) {
                warm.add(new ArrayList<>());
            }
            for (int r = 1; r <= runs; r++) {
                for (int i = 0; i < files.size(); i++) {
                    Path file = files.get(i);
                    long b0 = System.nanoTime();
                    Scenario scenario;
                    io.fabriclab.app.RunService.Run sim;
                    try {
                        scenario = ScenarioJson.read(file, FabricReader.FILES);
                        // Built as every command builds a run: the run service.
                        sim = io.fabriclab.app.RunService.prepare(new io.fabriclab.app.RunService.Request(scenario.name(),
                                scenario, engine));
                    } catch (ScenarioException | IllegalArgumentException e) {
                        err.println("error: " + e.getMessage());
                        return ExitCode.BAD_INPUT;
                    }
                    long build = System.nanoTime() - b0;
                    HeapProbe probe = heapCheck ? new HeapProbe(scenario.config().durationPs() > 0) : null;
                    long cpu0 = threads.getCurrentThreadCpuTime();
                    long t0 = System.nanoTime();
                    SimResults res = sim.run(probe);
                    long wall = System.nanoTime() - t0;
                    long cpu = threads.getCurrentThreadCpuTime() - cpu0;
                    SimResults.RunInfo run = res.run();
                    if (r > 1) {
                        warm.get(i).add(run.events() * 1e3 / Math.max(1, cpu));
                    }
                    out.printf(Locale.ROOT, "run %d%s%s: %,d events, CPU %.3f s (%.2f M events/s), wall %.3f s (%.2f M events/s), "
                                    + "load average %.1f%n", r, r == 1 ? " (cold)" : "", several ? " " + file.getFileName() : "",
                            run.events(), cpu / 1e9, run.events() * 1e3 / Math.max(1, cpu), wall / 1e9,
                            run.events() * 1e3 / Math.max(1, wall),
                            ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
                    out.printf(Locale.ROOT, "  %s: %.1f us simulated (%.2f ms per simulated us of CPU), %d/%d flows, FCT p50 %.1f us, "
                                    + "p99 %.1f us; %,d ECN marks, %,d CNPs, %,d PFC pauses, %,d drops; build %.2f s; "
                                    + "max packets in flight %,d%n",
                            run.stopReason().name().toLowerCase(Locale.ROOT).replace('_', ' '), run.simulatedPs() / 1e6,
                            cpu / 1e6 / Math.max(1e-9, run.simulatedPs() / 1e6), run.flowsCompleted(), run.flows(),
                            res.summary().fctP50Us(), res.summary().fctP99Us(), res.summary().ecnMarked(),
                            res.summary().cnpsSent(), res.summary().pauseFramesSent(), res.summary().drops(), build / 1e9,
                            run.maxPacketsInFlight());
                    if (probe != null) {
                        out.println("  heap after full GC during the run (MB): " + probe.report());
                    }
                    res = null;
                    sim = null;
                    scenario = null;
                    out.printf(Locale.ROOT, "  heap after full GC with the results released: %d MB%n", heapAfterGc() >> 20);
                    out.flush();
                }
            }
            if (runs > 1) {
                // The verdict on the 5 M events/s target: warm runs only (run 1 also pays the JIT).
                for (int i = 0; i < files.size(); i++) {
                    List<Double> w = new ArrayList<>(warm.get(i));
                    Collections.sort(w);
                    out.printf(Locale.ROOT, "warm runs (2..%d)%s: median %.2f M events/s of CPU, range %.2f-%.2f%n", runs,
                            several ? " " + files.get(i).getFileName() : "", median(w), w.get(0), w.get(w.size() - 1));
                }
                for (int i = 1; i < files.size(); i++) {
                    // Ratios per round: both runs of a round saw about the same machine, so the ratio is
                    // steadier than the ratio of two medians taken over minutes of a shared machine.
                    List<Double> ratios = new ArrayList<>();
                    for (int k = 0; k < warm.get(i).size(); k++) {
                        ratios.add(warm.get(i).get(k) / warm.get(0).get(k));
                    }
                    Collections.sort(ratios);
                    out.printf(Locale.ROOT, "%s / %s: median of per-round ratios of CPU events/s %.2f, range %.2f-%.2f%n",
                            files.get(i).getFileName(), files.get(0).getFileName(), median(ratios), ratios.get(0),
                            ratios.get(ratios.size() - 1));
                }
            }
            long peak = 0;
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                if (pool.getType() == MemoryType.HEAP) {
                    peak += pool.getPeakUsage().getUsed();
                }
            }
            out.printf(Locale.ROOT, "peak heap used (sum of pool peaks, garbage included): %d MB%n", peak >> 20);
            return ExitCode.OK;
        } finally {
            if (temp != null) {
                deleteTree(temp);
            }
        }
    }

    private static double median(List<Double> sorted) {
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** Copies a shipped resource to {@code dir/relative} (the scenario names its fabric by relative path). */
    private static Path extract(Path dir, String relative) throws IOException {
        Path target = dir.resolve(relative);
        Files.createDirectories(target.getParent());
        try (InputStream in = SimBench.class.getResourceAsStream("/fabriclab/" + relative)) {
            if (in == null) {
                throw new IOException("shipped file /fabriclab/" + relative + " is not on the classpath");
            }
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
        return target;
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    static long heapAfterGc() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** Heap after a full GC at each tenth of the run, from the simulator's progress callback. */
    static final class HeapProbe implements Simulator.Progress {
        private final boolean byTime;
        private final List<String> points = new ArrayList<>();
        private int nextTenth = 1;

        HeapProbe(boolean byTime) {
            this.byTime = byTime;
        }

        @Override
        public void update(long simulatedPs, long endPs, long events, long wallNanos, int done, int flows) {
            double frac = byTime ? (double) simulatedPs / endPs : flows == 0 ? 1 : (double) done / flows;
            if (frac * 10 >= nextTenth && nextTenth <= 10) {
                points.add(String.format(Locale.ROOT, "%d%% (%.0f us, %,d events) %d", Math.min(100, (int) (frac * 100)),
                        simulatedPs / 1e6, events, heapAfterGc() >> 20));
                nextTenth = (int) (frac * 10) + 1;
            }
        }

        String report() {
            return points.isEmpty() ? "(run too short for a probe)" : String.join(", ", points);
        }
    }
}
