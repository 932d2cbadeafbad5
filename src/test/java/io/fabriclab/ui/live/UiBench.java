package io.fabriclab.ui.live;

import java.util.concurrent.Callable;

import io.fabriclab.ui.EditorBenchmark;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The desktop benchmarks, kept out of the shipped jar (test scope): {@code tools/bench-ui.sh
 * editor|live [options]} compiles the test classes and runs this class on the test class path.
 * Figures go to docs/performance.md and docs/rendering.md.
 */
@Command(name = "bench-ui", mixinStandardHelpOptions = true,
        description = "Desktop benchmarks (editor, live view); not part of the shipped jar.",
        subcommands = {UiBench.Editor.class, UiBench.Live.class})
public final class UiBench implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.out.println("bench-ui: " + io.fabriclab.ui.EditorHeap.apply()); // as the editor's launcher does
        System.exit(new CommandLine(new UiBench()).execute(args));
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a benchmark: editor or live");
    }

    /** `bench editor`: open and frame times of the editor ({@link EditorBenchmark}). Needs a display. */
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
            return EditorBenchmark.run(spec.commandLine().getOut(), units, frames, renderers);
        }
    }

    /**
     * `bench live`: frame time of the live view while it animates an all-reduce on the 4-unit
     * rail-optimized fabric, and the simulator's events/s with the UI against headless
     * ({@link LiveViewBench}). Needs a display.
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
                return LiveViewBench.run(spec.commandLine().getOut(), fabric, Math.round(speedUs * 1e6), seconds, runs);
            }
            return LiveViewBench.run(spec.commandLine().getOut(), bytes, runs, renderers);
        }
    }
}
