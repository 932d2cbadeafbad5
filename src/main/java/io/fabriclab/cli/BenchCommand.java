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
        subcommands = {BenchCommand.Foundation.class, SimBench.class, CollectiveBench.class, BenchCommand.Editor.class, BenchCommand.Live.class, SweepBench.class,
                ReportBenchCommand.class})
public final class BenchCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a benchmark: foundation, sim, collective, editor, live, sweep or report");
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
            var threads = ManagementFactory.getThreadMXBean();
            out.printf(Locale.ROOT, "bench foundation: %d units, %d runs, %d cores, max heap %d MB%n", units, runs,
                    Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20);
            for (int r = 1; r <= runs; r++) {
                long cpu0 = threads.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                Fabric f = RailOptimizedGenerator.generate(RailParams.of(units));
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
     * `fabriclab bench editor`: open and frame times of the editor (ui.EditorBenchmark, reached through
     * the {@link Desktop} service because the CLI does not compile against the ui package). Needs a display: on a
     * headless machine run it under {@code xvfb-run -a}.
     */
    @Command(name = "editor", mixinStandardHelpOptions = true,
            description = "Open the 4- and 64-unit rail-optimized fabrics in the editor (software renderer) and time "
                    + "opening and pan / zoom / redraw frames. Needs a display (xvfb-run -a on a server).")
    static final class Editor implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--units", split = ",", defaultValue = "4,64",
                description = "Scalable units of each fabric, comma-separated (default: ${DEFAULT-VALUE}).")
        int[] units;

        @Option(names = "--frames", defaultValue = "30", description = "Measured frames per case (default: ${DEFAULT-VALUE}).")
        int frames;

        @Option(names = "--renderer", split = ",", defaultValue = "java2d,fx",
                description = "Rasterisers to time, alternating case by case: java2d (the editor's, off-screen "
                        + "Java2D), fx (JavaFX's canvas pipeline) (default: ${DEFAULT-VALUE}).")
        String[] renderers;

        @Override
        public Integer call() throws Exception {
            return desktop("the editor").benchEditor(spec.commandLine().getOut(), units, frames, renderers);
        }
    }

    /**
     * `fabriclab bench live`: frame time of the live view while it animates an all-reduce on the
     * 4-unit rail-optimized fabric, and the simulator's events/s with the UI against headless
     * (ui.live.LiveViewBench, through the {@link Desktop} service like the editor bench). Needs a display.
     */
    @Command(name = "live", mixinStandardHelpOptions = true,
            description = {"Animate the live view on the 4-unit rail-optimized fabric during an all-reduce (software "
                    + "renderer) and time its frames; compare the simulator's events/s with the UI against headless.",
                    "Needs a display (xvfb-run -a on a server)."})
    static final class Live implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--bytes", defaultValue = "4000000",
                description = "All-reduce size S per rail ring, in bytes (default: ${DEFAULT-VALUE}).")
        long bytes;

        @Option(names = "--runs", defaultValue = "2",
                description = "Runs with the UI per renderer, each after a headless run to compare with; the first warms up (default: ${DEFAULT-VALUE}).")
        int runs;

        @Option(names = "--renderer", split = ",", defaultValue = "java2d,fx",
                description = "Rasterisers to time, alternating: java2d (the editor's) and fx (JavaFX's canvas) "
                        + "(default: ${DEFAULT-VALUE}).")
        String[] renderers;

        @Option(names = "--fabric", description = "Instead: the cost of live snapshots on this fabric (e.g. generate rail "
                + "--units 64): the incast preset played headless at --speed-us, snapshots of the whole fabric and of the "
                + "links traffic reached, alternating, --runs rounds. Needs no display.")
        String fabric;

        @Option(names = "--speed-us", defaultValue = "100",
                description = "With --fabric: simulated microseconds per wall second asked for (default: ${DEFAULT-VALUE}).")
        double speedUs;

        @Option(names = "--seconds", defaultValue = "20",
                description = "With --fabric: wall seconds per run at most (default: ${DEFAULT-VALUE}).")
        double seconds;

        @Override
        public Integer call() throws Exception {
            if (fabric != null) {
                return desktop("the live view").benchLiveSnapshots(spec.commandLine().getOut(), fabric,
                        Math.round(speedUs * 1e6), seconds, runs);
            }
            return desktop("the live view").benchLive(spec.commandLine().getOut(), bytes, runs, renderers);
        }
    }

    /** The desktop side of this build ({@code cli} must not import {@code ui}: ArchitectureTest). */
    static Desktop desktop(String what) {
        return Desktop.find().orElseThrow(() -> new IllegalStateException(
                what + " is not part of this build (no io.fabriclab.cli.Desktop provider)"));
    }
}
