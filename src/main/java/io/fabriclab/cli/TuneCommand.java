package io.fabriclab.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;

import io.fabriclab.sweep.SweepMetrics;
import io.fabriclab.sweep.SweepPlan;
import io.fabriclab.sweep.tune.TuneReport;
import io.fabriclab.sweep.tune.Tuner;

import io.fabriclab.topology.TextTable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code fabriclab tune SCENARIO --objective M [--constraint C]... [--budget N] -o DIR}: searches
 * ECN, PFC and DCQCN thresholds of a scenario for an objective under constraints (io.fabriclab.sweep.tune.Tuner).
 */
@Command(name = "tune", mixinStandardHelpOptions = true,
        description = {"Search a scenario's ECN Kmin/Kmax/Pmax (one class), PFC XOFF/XON and DCQCN g / R_AI for an objective",
                "under constraints (BOBYQA from Apache Commons Math; every candidate run on several seeds), then compare",
                "the best with the start on hold-out seeds the search never used. Writes DIR/tune-trace.csv|svg|png,",
                "DIR/tune.json and, when the best is better beyond noise, DIR/recommended-fabric.json (export it with",
                "fabriclab export-config) and DIR/recommended-scenario.json."},
        footerHeading = "%nExit codes:%n",
        footer = {"  0  the search ran (whether or not it found a better profile: see the verdict)",
                "  2  bad input (scenario, objective, constraint, option); nothing was run"})
public final class TuneCommand implements Callable<Integer> {
    /** Metrics for which larger is better. */
    static final List<String> LARGER_IS_BETTER = List.of("busbwGBps", "algbwGBps", "meanThroughputGbps", "flowsCompleted");
    private static final Pattern CONSTRAINT = Pattern.compile("\\s*([A-Za-z0-9]+)\\s*(<=|>=|=)\\s*(-?[0-9.]+(?:[eE][-+]?[0-9]+)?)\\s*");

    @Parameters(index = "0", paramLabel = "SCENARIO", description = "scenario file to tune")
    Path scenarioFile;

    @Option(names = "--objective", required = true, paramLabel = "METRIC[:min|max]",
            description = "what to improve, e.g. fctP99Us, pausedUs, busbwGBps:max (default goal: max for bandwidths and "
                    + "throughput, min otherwise)")
    String objective;

    @Option(names = "--constraint", paramLabel = "METRIC<=X", description = "a bound every seed must meet, e.g. drops<=0, "
            + "watchdogStorms<=0, fctP99Us<=1400 (repeatable; default: drops<=0 and watchdogStorms<=0)")
    List<String> constraints = new ArrayList<>();

    @Option(names = "--budget", paramLabel = "N", defaultValue = "40", description = "candidates to evaluate (default: ${DEFAULT-VALUE})")
    int budget;

    @Option(names = "--seeds", paramLabel = "N", defaultValue = "3", description = "search seeds per candidate, 1..N (default: ${DEFAULT-VALUE})")
    int seeds;

    @Option(names = "--holdout", paramLabel = "N", defaultValue = "5",
            description = "hold-out seeds for the final comparison, 1001..1000+N, never searched with (default: ${DEFAULT-VALUE})")
    int holdout;

    @Option(names = "--class", paramLabel = "TC", defaultValue = "3", description = "traffic class whose ECN curve is tuned (default: ${DEFAULT-VALUE})")
    int trafficClass;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "DIR", description = "output directory (run files are kept: a second tune reuses them)")
    Path outputDir;

    @Option(names = "--workers", paramLabel = "N", description = "runs at a time (default: every core)")
    Integer workers;

    @Option(names = "--engine", paramLabel = "E", converter = SimulateCommand.EngineConverter.class,
            description = "packet (the default and the only engine that models the ECN, PFC and DCQCN thresholds "
                    + "the tuner sets; flow is refused, saying so)")
    io.fabriclab.sim.Engine engine = io.fabriclab.sim.Engine.PACKET;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (engine != io.fabriclab.sim.Engine.PACKET) {
            throw new BadInputException(Tuner.FLOW_REFUSED);
        }
        PrintWriter err = spec.commandLine().getErr();
        String[] obj = objective.split(":", 2);
        if (!SweepMetrics.exists(obj[0])) {
            throw new BadInputException("--objective " + objective + ": unknown metric; allowed: " + String.join(", ", SweepMetrics.NAMES));
        }
        boolean minimize = !LARGER_IS_BETTER.contains(obj[0]);
        if (obj.length == 2) {
            if (!obj[1].equals("min") && !obj[1].equals("max")) {
                throw new BadInputException("--objective " + objective + ": the goal must be min or max");
            }
            minimize = obj[1].equals("min");
        }
        List<SweepPlan.Constraint> cs = new ArrayList<>();
        for (String c : constraints.isEmpty() ? List.of("drops<=0", "watchdogStorms<=0") : constraints) {
            Matcher m = CONSTRAINT.matcher(c);
            if (!m.matches()) {
                throw new BadInputException("--constraint " + c + ": allowed: METRIC<=X, METRIC>=X or METRIC=X, e.g. drops<=0");
            }
            if (!SweepMetrics.exists(m.group(1))) {
                throw new BadInputException("--constraint " + c + ": unknown metric " + m.group(1) + "; allowed: "
                        + String.join(", ", SweepMetrics.NAMES));
            }
            double x = Double.parseDouble(m.group(3));
            cs.add(new SweepPlan.Constraint(m.group(1), m.group(2).equals("<=") ? null : x, m.group(2).equals(">=") ? null : x));
        }
        if (budget < 1 || budget > 100_000 || seeds < 1 || seeds > 100 || holdout < 2 || holdout > 100
                || trafficClass < 0 || trafficClass > 7) {
            throw new BadInputException("allowed: --budget 1 to 100000, --seeds 1 to 100, --holdout 2 to 100, --class 0 to 7");
        }
        if (Files.exists(outputDir) && !Files.isDirectory(outputDir)) {
            throw new BadInputException("-o " + outputDir + " is a file; allowed: a directory");
        }
        int n = workers == null ? Runtime.getRuntime().availableProcessors() : workers;
        if (n < 1) {
            throw new BadInputException("--workers must be at least 1");
        }
        // Never over an input (the scenario, its fabric), by identity (Outputs).
        List<Path> fabricsRead = new ArrayList<>();
        try {
            io.fabriclab.io.ScenarioJson.read(scenarioFile, Outputs.recording(io.fabriclab.io.FabricReader.FILES, fabricsRead));
        } catch (io.fabriclab.io.ScenarioException e) {
            // Tuner.tune reports it with every problem.
        }
        new Outputs().commandLine(spec).inputs(fabricsRead).directory("-o", outputDir, List.of(TuneReport.TRACE_CSV,
                TuneReport.TRACE_CHART + ".svg", TuneReport.TRACE_CHART + ".png", TuneReport.RESULT_JSON, TuneReport.FABRIC,
                TuneReport.SCENARIO)).check();
        Tuner.Settings s = new Tuner.Settings(obj[0], minimize, cs, budget, LongStream.rangeClosed(1, seeds).boxed().toList(),
                LongStream.rangeClosed(1001, 1000 + holdout).boxed().toList(), trafficClass, n, engine);
        boolean terminal = System.console() != null && System.console().isTerminal();
        Tuner.Outcome o = Tuner.tune(scenarioFile, s, outputDir, (e, total, best) -> {
            String line = String.format(Locale.ROOT, "evaluation %d/%d: %s %s%s; best %s", e.index() + 1, total, s.objective(),
                    io.fabriclab.sweep.SweepSummary.plain(e.objective().mean()), e.feasible() ? "" : " (breaks a constraint)",
                    io.fabriclab.sweep.SweepSummary.plain(best.objective().mean()));
            err.print(terminal ? "\r" + line + "      " : line + "\n");
            err.flush();
        });
        if (terminal) {
            err.println();
        }
        TuneReport.write(o, scenarioFile, outputDir);
        for (String note : o.notes()) {
            out.println("note: " + note);
        }
        out.printf(Locale.ROOT, "tune %s: %s %s under %s; %d evaluations x %d seeds; engine: packet%n", scenarioFile,
                minimize ? "minimize" : "maximize", s.objective(), cs, o.trace().size(), seeds);
        List<String[]> rows = new ArrayList<>();
        List<String> sv = Tuner.values(o, o.start());
        List<String> bv = Tuner.values(o, o.best());
        for (int i = 0; i < o.knobs().size(); i++) {
            rows.add(new String[] {o.knobs().get(i).path(), sv.get(i), bv.get(i), o.knobs().get(i).why()});
        }
        out.print(table(new String[] {"setting", "start", "best", "range searched"}, rows));
        List<String> metrics = new ArrayList<>(List.of(s.objective()));
        cs.forEach(c -> {
            if (!metrics.contains(c.metric())) {
                metrics.add(c.metric());
            }
        });
        for (String m : List.of("fctP99Us", "pausedUs", "ecnMarked", "drops")) {
            if (!metrics.contains(m)) {
                metrics.add(m);
            }
        }
        out.printf("%nOn %d hold-out seeds (%s), mean +- 95 %% interval:%n", holdout, s.holdoutSeeds());
        out.print(table(new String[] {"metric", "start", "best"}, TuneReport.beforeAfter(o, metrics)));
        out.println("verdict: " + o.verdict());
        for (String w : TuneReport.worsened(o, TuneReport.shownMetrics(o))) {
            out.println("worse: " + w);
        }
        out.println("trace: " + outputDir.resolve(TuneReport.TRACE_CSV) + ", " + outputDir.resolve(TuneReport.TRACE_CHART + ".svg"));
        if (o.improved()) {
            out.println("recommended: " + outputDir.resolve(TuneReport.FABRIC) + " (fabriclab export-config "
                    + outputDir.resolve(TuneReport.FABRIC) + " --vendor sonic|eos|nxos -o CONFIGS), "
                    + outputDir.resolve(TuneReport.SCENARIO));
        }
        out.flush();
        return ExitCode.OK;
    }

    /** An aligned table through the project's one text-table writer. */
    static String table(String[] head, List<String[]> rows) {
        TextTable t = new TextTable(head);
        rows.forEach(r -> t.row((Object[]) r));
        return t.toString();
    }
}
