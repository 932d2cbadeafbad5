package io.fabriclab.cli;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import io.fabriclab.io.PriceBookFile;
import io.fabriclab.model.Fabric;
import io.fabriclab.topology.FabricAnalysis;
import io.fabriclab.topology.RailOptimizedGenerator;
import io.fabriclab.topology.RailParams;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * `fabriclab bench foundation`: generate + every static analysis (failure impact included) of a
 * rail-optimized fabric, timed per phase, with the JVM's peak heap. Run it in a fresh JVM with the
 * heap limit you want to prove, e.g. FABRICLAB_JAVA_OPTS=-Xmx2g ./fabriclab bench foundation.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Benchmarks (figures go to docs/performance.md).",
        subcommands = {BenchCommand.Foundation.class, SimBench.class, CollectiveBench.class, NcclBench.class, TrainingBench.class, SweepBench.class,
                ReportBenchCommand.class})
public final class BenchCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a benchmark: foundation, sim, collective, sweep or report"
                + " (the editor and live-view benchmarks: tools/bench-ui.sh editor|live, from a source checkout)");
    }

    @Command(name = "foundation", mixinStandardHelpOptions = true,
            description = "Generate a rail-optimized fabric and run every static analysis on it; print wall and CPU time per run and the peak heap.")
    static final class Foundation implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--units", defaultValue = "64", description = "Scalable units of 256 GPUs (default: ${DEFAULT-VALUE} = 16,384 GPUs).")
        int units;

        @Option(names = "--runs", defaultValue = "3", description = "Runs; the first one is cold (default: ${DEFAULT-VALUE}).")
        int runs;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = spec.commandLine().getOut();
            railParams(units); // a bad --units is bad input (exit 2) before the header, in generate rail's words
            var threads = ManagementFactory.getThreadMXBean();
            out.printf(Locale.ROOT, "bench foundation: %d units, %d runs, %d cores, max heap %d MB%n", units, runs,
                    Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20);
            for (int r = 1; r <= runs; r++) {
                long cpu0 = threads.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                Fabric f = railFabric(units);
                long gen = System.nanoTime() - t0;
                FabricAnalysis a = FabricAnalysis.run(f, FabricAnalysis.Options.defaults(PriceBookFile.sample()));
                long total = System.nanoTime() - t0;
                long cpu = threads.getCurrentThreadCpuTime() - cpu0;
                out.printf(Locale.ROOT, "run %d%s: %,d GPUs, %,d links; generate %d ms, total %d ms wall, %d ms CPU (main thread)%n",
                        r, r == 1 ? " (cold)" : "", a.counts().gpus(), a.counts().links(), gen / 1_000_000,
                        total / 1_000_000, cpu / 1_000_000);
                StringBuilder phases = new StringBuilder("  phases ms:");
                for (Map.Entry<String, Long> e : a.timingsMs().entrySet()) {
                    phases.append(' ').append(e.getKey()).append('=').append(e.getValue());
                }
                out.println(phases);
                out.flush();
            }
            long peak = 0;
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                if (pool.getType() == MemoryType.HEAP) {
                    peak += pool.getPeakUsage().getUsed();
                }
            }
            out.printf(Locale.ROOT, "peak heap used (sum of pool peaks): %d MB%n", peak >> 20);
            return ExitCode.OK;
        }
    }

    /**
     * The rail-optimized fabric of {@code units} scalable units the benchmarks measure; a count the
     * generator refuses is bad input naming --units, in generate rail's words, never an internal error.
     */
    static Fabric railFabric(int units) {
        RailParams p = railParams(units);
        try {
            return RailOptimizedGenerator.generate(p);
        } catch (IllegalArgumentException e) {
            throw GenerateCommand.inOptionWords(e, GenerateCommand.RAIL_OPTIONS);
        }
    }

    static RailParams railParams(int units) {
        try {
            return RailParams.of(units);
        } catch (IllegalArgumentException e) {
            throw GenerateCommand.inOptionWords(e, GenerateCommand.RAIL_OPTIONS);
        }
    }
}
