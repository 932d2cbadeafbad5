package io.fabriclab.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.fabriclab.io.InputException;
import io.fabriclab.sweep.RunRow;
import io.fabriclab.sweep.SweepCharts;
import io.fabriclab.sweep.SweepPlan;
import io.fabriclab.topology.TextTable;
import io.fabriclab.sweep.SweepRunner;
import io.fabriclab.sweep.SweepSummary;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code fabriclab sweep SWEEP.json -o DIR [--workers N] [--yes]}: every run of a sweep file on a
 * pool of local workers, each run's result kept under DIR (resumable), then the summary and charts.
 */
@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = {"Run a sweep file (docs/format-sweep.md): a scenario with parameters varied, several seeds per point,",
                "on a pool of local workers. Each finished run is kept in DIR/runs/<hash>.json, so running the same",
                "command again after an interruption only runs what is missing. Writes DIR/summary-points.csv,",
                "summary-runs.csv, summary.json, wallclock.csv, DIR/charts/*.svg|png and DIR/report.html. Progress goes to stderr."},
        footerHeading = "%nExit codes:%n",
        footer = {"  0  every run finished and the summary was written (runs the simulator refused or that failed",
                "     are listed in the summary and on stderr)",
                "  2  bad input (the sweep file, its scenario or fabric, an option); nothing was run"})
public final class SweepCommand implements Callable<Integer> {
    /** The sweep's review page (the design review's Sweep section, standalone). */
    static final String REPORT = "report.html";

    @Parameters(index = "0", paramLabel = "SWEEP", description = "sweep file (JSON, schemaVersion 1)")
    Path sweepFile;

    @Option(names = {"-o", "--output"}, paramLabel = "DIR", required = true,
            description = "directory for the run files, the summary and the charts (created if missing; kept between runs)")
    Path outputDir;

    @Option(names = "--workers", paramLabel = "N",
            description = "runs at a time (default: every core of this machine)")
    Integer workers;

    @Option(names = "--yes", description = "run a sweep of more than " + SweepPlan.CONFIRM_RUNS + " runs")
    boolean yes;

    @Option(names = "--no-charts", description = "write the tables only (no charts, no report.html)")
    boolean noCharts;

    @Option(names = "--quiet", description = "no progress on stderr")
    boolean quiet;

    @Option(names = "--engine", paramLabel = "E", converter = SimulateCommand.EngineConverter.class,
            description = "packet or flow: the engine of every run, over the sweep file's \"engine\" (default: the file's, else packet)")
    io.fabriclab.sim.Engine engine;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        int cores = Runtime.getRuntime().availableProcessors();
        int n = workers == null ? cores : workers;
        if (n < 1 || n > 4096) {
            throw new BadInputException("--workers " + n + " is not allowed; allowed: 1 to 4096 (default: every core, " + cores + ")");
        }
        if (Files.exists(outputDir) && !Files.isDirectory(outputDir)) {
            throw new BadInputException("-o " + outputDir + " is a file; allowed: a directory (created if missing)");
        }
        if (outputDir.toAbsolutePath().normalize().equals(sweepFile.toAbsolutePath().normalize())) {
            throw new BadInputException("-o " + outputDir + " is the sweep file");
        }
        // InputException: exit 2 with every problem; --engine over the file's own choice.
        SweepPlan plan = SweepPlan.read(sweepFile, yes).withEngine(engine);
        String notModelled = flowEngineNote(plan);
        if (notModelled != null) {
            err.println("warning: " + notModelled);
        }
        // Never over an input (the sweep file, its scenario, its fabric), by identity (Outputs).
        new Outputs().commandLine(spec).inputs(plan.inputFiles()).directory("-o", outputDir, List.of(
                SweepSummary.POINTS_CSV, SweepSummary.RUNS_CSV, SweepSummary.SUMMARY_JSON, SweepSummary.WALLCLOCK_CSV, REPORT))
                .check();
        try {
            Files.createDirectories(outputDir);
        } catch (IOException e) {
            throw new BadInputException("cannot create -o " + outputDir + ": " + e.getMessage());
        }
        // Without --quiet a listener shows progress; with it, only the run files not reused are said.
        SweepRunner.Listener progress = quiet ? new Rejections(err)
                : new Progress(err, System.console() != null && System.console().isTerminal());
        if (!quiet) {
            err.printf(Locale.ROOT, "sweep %s: %d points x %d seeds = %d runs on %d worker%s, %s engine%n", plan.name(),
                    plan.points(), plan.seeds().size(), plan.runCount(), n, n == 1 ? "" : "s", plan.engine().jsonName());
            err.flush();
        }
        long t0 = System.nanoTime();
        SweepRunner.Result result = SweepRunner.run(plan, outputDir, n, progress);
        if (progress instanceof Progress p) {
            p.finish();
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        SweepSummary summary = SweepSummary.write(plan, result.rows(), outputDir);
        List<String> charts = List.of();
        if (!noCharts) {
            charts = SweepCharts.write(summary, outputDir.resolve("charts"));
            io.fabriclab.io.AtomicFiles.write(outputDir.resolve(REPORT),
                    io.fabriclab.report.SweepSection.page(summary).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        if (!quiet && !result.reusedRows().isEmpty()) {
            err.printf(Locale.ROOT, "reused %d finished run%s from %s: %s%n", result.reusedRows().size(),
                    result.reusedRows().size() == 1 ? "" : "s", outputDir.resolve(SweepRunner.RUNS_DIR),
                    SweepRunner.describe(result.reusedRows(), 10));
        }
        List<RunRow> bad = result.rows().stream().filter(r -> !r.ok()).toList();
        for (RunRow r : bad.subList(0, Math.min(10, bad.size()))) {
            err.printf(Locale.ROOT, "warning: point %d seed %d %s: %s%n", r.point(), r.seed(), r.status(), r.message());
        }
        if (bad.size() > 10) {
            err.printf(Locale.ROOT, "warning: %d more runs not ok (summary-runs.csv lists them)%n", bad.size() - 10);
        }
        out.printf(Locale.ROOT, "sweep %s: %d runs (%d run now, %d already done, %d not ok) in %.1f s on %d worker%s; "
                        + "engine: %s%n", plan.name(), result.rows().size(), result.executed(), result.reused(), bad.size(),
                wall, n, n == 1 ? "" : "s", plan.engine().jsonName());
        out.print(table(summary));
        out.printf("summary: %s, %s, %s%s%n", outputDir.resolve(SweepSummary.POINTS_CSV), outputDir.resolve(SweepSummary.RUNS_CSV),
                outputDir.resolve(SweepSummary.SUMMARY_JSON), noCharts ? "" : "; charts: " + outputDir.resolve("charts")
                        + " (" + charts.size() + " as SVG and PNG); report: " + outputDir.resolve(REPORT));
        out.flush();
        return ExitCode.OK;
    }

    /**
     * On the flow engine, the parameters it does not model (ECN, PFC, DCQCN, buffers: $.qos and
     * $.profile), said before the runs; null when there are none or the engine is packet.
     */
    static String flowEngineNote(SweepPlan plan) {
        if (plan.engine() != io.fabriclab.sim.Engine.FLOW) {
            return null;
        }
        List<String> qos = plan.parameterPaths().stream().filter(p -> p.replaceFirst("^\\$\\.", "").startsWith("qos")
                || p.replaceFirst("^\\$\\.", "").startsWith("profile")).toList();
        return qos.isEmpty() ? null : "the flow engine does not model PFC, ECN, DCQCN or queues: "
                + String.join(", ", qos) + " change nothing in its runs (--engine packet for them)";
    }

    /** The points (at most 20) with each metric's mean and interval half-width. */
    static String table(SweepSummary s) {
        SweepPlan plan = s.plan();
        List<String> head = new ArrayList<>(List.of("point"));
        head.addAll(plan.parameterNames());
        head.addAll(plan.summaryMetrics());
        if (!plan.constraints().isEmpty()) {
            head.add("feasible");
        }
        TextTable t = new TextTable(head.toArray(String[]::new));
        for (SweepSummary.Point p : s.points().subList(0, Math.min(20, s.points().size()))) {
            List<String> c = new ArrayList<>(List.of(String.valueOf(p.point())));
            p.values().forEach(v -> c.add(v.replace("\"", "")));
            for (String m : plan.summaryMetrics()) {
                c.add(p.stat(m).text());
            }
            if (!plan.constraints().isEmpty()) {
                c.add(p.feasible() ? "yes" : "no");
            }
            t.row(c.toArray());
        }
        String more = s.points().size() > 20 ? "... " + (s.points().size() - 20) + " more points in the summary\n" : "";
        return t + more;
    }

    /** A run file that is not reused, on stderr, even with --quiet: what the summary leaves out must be said. */
    static class Rejections implements SweepRunner.Listener {
        final PrintWriter err;

        Rejections(PrintWriter err) {
            this.err = err;
        }

        @Override
        public void progress(int done, int running, int total, int reused, double etaSeconds) {
        }

        @Override
        public synchronized void rejected(Path runFile, String why) {
            err.printf(Locale.ROOT, "%swarning: %s is not a valid run file (%s); the run is simulated again%n",
                    midLine() ? "\n" : "", runFile, why);
            err.flush();
        }

        boolean midLine() {
            return false;
        }
    }

    /** Done / running / ETA on stderr: one updating line on a terminal, a plain line per step when piped. */
    static final class Progress extends Rejections {
        private final boolean terminal;
        private int lastDone = -1;
        private boolean drawn;

        Progress(PrintWriter err, boolean terminal) {
            super(err);
            this.terminal = terminal;
        }

        @Override
        boolean midLine() {
            return drawn;
        }

        @Override
        public synchronized void progress(int done, int running, int total, int reused, double etaSeconds) {
            if (!terminal && done == lastDone) {
                return;
            }
            // Piped: a line per finished run for small sweeps, per 1 % for large ones.
            if (!terminal && total > 100 && done != total && lastDone >= 0 && (long) done * 100 / total == (long) lastDone * 100 / total) {
                return;
            }
            lastDone = done;
            String eta = Double.isNaN(etaSeconds) ? "?" : etaSeconds < 90 ? String.format(Locale.ROOT, "%.0f s", etaSeconds)
                    : String.format(Locale.ROOT, "%.1f min", etaSeconds / 60);
            String text = String.format(Locale.ROOT, "%d/%d done (%d already done before), %d running, ETA %s", done, total,
                    reused, running, eta);
            if (terminal) {
                int width = 30;
                int filled = total == 0 ? width : (int) Math.round((double) done / total * width);
                err.print("\r[" + "#".repeat(filled) + ".".repeat(width - filled) + "] " + text + "   ");
                drawn = true;
            } else {
                err.println(text);
            }
            err.flush();
        }

        void finish() {
            if (drawn) {
                err.println();
                err.flush();
            }
        }
    }
}
