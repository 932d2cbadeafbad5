package io.fabriclab.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.fabriclab.io.FabricFiles;
import io.fabriclab.io.FabricReader;
import io.fabriclab.io.Scenario;
import io.fabriclab.io.ScenarioException;
import io.fabriclab.io.ScenarioJson;
import io.fabriclab.model.Fabric;
import io.fabriclab.report.DesignReview;
import io.fabriclab.report.ReportFormat;
import io.fabriclab.report.ReportInput;
import io.fabriclab.report.ReportRun;
import io.fabriclab.report.ReportRuns;
import io.fabriclab.report.ReportWriter;
import io.fabriclab.report.Status;
import io.fabriclab.sweep.SweepPlan;
import io.fabriclab.sweep.SweepRunner;
import io.fabriclab.sweep.SweepSummary;
import io.fabriclab.topology.FabricAnalysis;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code fabriclab report FABRIC_OR_SCENARIO [--results R ...] -o report.html|report.pdf}: the
 * design-review report (docs/report.md).
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Write a design-review report (self-contained HTML, or PDF, by the output's ending): verdict,",
                "topology, bill of materials, capacity and ECMP paths, QoS tables, PFC headroom, deadlock analysis",
                "(with failures), failure impact, simulation results with charts, comparison of runs, findings, the",
                "pre-deployment checklist and every parameter. Exit 1 when the verdict has a failure."},
        footerHeading = "%nExit codes:%n",
        footer = {"  0  written; no check failed", "  1  written; at least one check failed",
                "  2  bad input (unreadable fabric, scenario or results, bad option, an output that is an input or",
                        "     cannot be written); nothing written"})
public final class ReportCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = io.fabriclab.io.JsonInput.strictMapper();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FABRIC_OR_SCENARIO",
            description = "A fabric file (.json, .clab.yml) or a scenario file (its fabric is reviewed and its hash goes on the cover).")
    Path input;

    @Option(names = "--results", arity = "1..*", paramLabel = "R",
            description = "Results files of fabriclab simulate (repeatable); two or more get a side-by-side comparison.")
    List<Path> results = new ArrayList<>();

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE", description = "report.html or report.pdf")
    Path output;

    @Option(names = "--simulate", description = "With a scenario: simulate it now and include the run.")
    boolean simulate;

    @Option(names = "--duration-us", paramLabel = "US", defaultValue = "0",
            description = "With --simulate: stop the run at this simulated time (0: the scenario's own).")
    double durationUs;

    @Option(names = "--engine", paramLabel = "E", converter = SimulateCommand.EngineConverter.class,
            description = "With --simulate: packet (default) or flow, the engine of the run (simulate --engine).")
    io.fabriclab.sim.Engine engine;

    @Option(names = "--author", paramLabel = "NAME", description = "Author on the cover (default: the user name).")
    String author;

    @Option(names = "--date", paramLabel = "YYYY-MM-DD", description = "Date on the cover (default: today).")
    String date;

    @CommandLine.Mixin
    AnalysisOptions analysis = new AnalysisOptions();



    @Option(names = "--sweep", arity = "2", paramLabel = "SWEEP DIR",
            description = {"Add a finished sweep as a section: its sweep file and the -o directory `fabriclab sweep` wrote",
                    "(repeatable: --sweep A.json dirA --sweep B.json dirB). Nothing is run; every run must be finished."})
    List<Path> sweeps = new ArrayList<>();

    @Option(names = "--counters", arity = "1..*", paramLabel = "FILE",
            description = {"Add a \"Measured vs simulated\" section: measured counters files ([DEVICE[:IFACE]=]FILE, as `fabriclab counters`",
                    "reads them) beside the report's first run (docs/counters.md)"})
    List<String> counters = new ArrayList<>();

    @Option(names = "--counters-map", paramLabel = "FILE", description = "port map of the --counters files (JSON)")
    Path countersMap;

    @Option(names = "--counters-interval", paramLabel = "SECONDS", description = "seconds between --counters samples that carry no time")
    Double countersInterval;

    @Option(names = "--quiet", description = "No progress on stderr.")
    boolean quiet;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (ReportFormat.of(output) == null) {
            throw new BadInputException("-o " + output + ": a report file must end in .html or .pdf");
        }
        if (!simulate && engine != null) {
            throw new BadInputException("--engine applies to the run --simulate makes; without --simulate nothing is "
                    + "simulated (results files name the engine that ran them)");
        }
        if (!simulate && spec.commandLine().getParseResult().hasMatchedOption("--duration-us")) {
            throw new BadInputException("--duration-us applies to the run --simulate makes; without --simulate nothing is "
                    + "simulated (add --simulate, or leave --duration-us out)");
        }
        LocalDate day = LocalDate.now();
        if (date != null) {
            try {
                day = LocalDate.parse(date);
            } catch (DateTimeParseException e) {
                throw new BadInputException("--date " + date + ": expected a date as YYYY-MM-DD");
            }
        }
        if (!Files.exists(input)) {
            throw new BadInputException(input + ": no such file");
        }
        // A JSON input is read as every FabricLab JSON file is (io.JsonInput: 64 MB, UTF-8); others by their format's reader.
        boolean json = input.toString().toLowerCase(Locale.ROOT).endsWith(".json");
        byte[] bytes = json ? io.fabriclab.io.JsonInput.readText(input, "a fabric or a scenario").getBytes(StandardCharsets.UTF_8)
                : fabricBytes(input);
        Scenario scenario = null;
        String scenarioText = null;
        Fabric fabric;
        List<Path> fabricsRead = new ArrayList<>();
        if (isScenario(input, bytes)) {
            try {
                scenario = ScenarioJson.read(input, Outputs.recording(FabricReader.FILES, fabricsRead));
            } catch (ScenarioException | IllegalArgumentException e) {
                throw new BadInputException(e.getMessage());
            }
            scenarioText = new String(bytes, StandardCharsets.UTF_8);
            fabric = scenario.fabric();
        } else {
            if (simulate) {
                throw new BadInputException("--simulate needs a scenario file; " + input + " is a fabric");
            }
            fabric = FabricFiles.load(input);
        }
        // Checked before any analysis or simulation: never an input, always writable (Outputs).
        new Outputs().commandLine(spec).input(input).inputs(fabricsRead).inputs(results).inputs(sweeps)
                .inputs(counters.stream().map(c -> io.fabriclab.counters.CountersFile.of(c).path()).toList()).file("-o", output).check();
        if (countersInterval != null && !(countersInterval > 0 && countersInterval < 1e7)) {
            throw new BadInputException("--counters-interval " + countersInterval + ": seconds between samples, above 0");
        }
        if (counters.isEmpty() && (countersMap != null || countersInterval != null)) {
            throw new BadInputException("--counters-map and --counters-interval go with --counters FILE...");
        }
        io.fabriclab.report.MeasuredSection.Counters measured = counters.isEmpty() ? null
                : new io.fabriclab.report.MeasuredSection.Counters(io.fabriclab.counters.CountersImport.read(fabric, countersMap,
                        counters, countersInterval), counters);
        List<SweepSummary> sweepSummaries = new ArrayList<>();
        for (int i = 0; i + 1 < sweeps.size(); i += 2) {
            sweepSummaries.add(finishedSweep(sweeps.get(i), sweeps.get(i + 1)));
        }
        FabricAnalysis.Options opt = analysis.toOptions(fabric);
        List<ReportRun> runs = new ArrayList<>();
        int n = 1;
        if (simulate) {
            progress(err, 0, "simulating " + scenario.name());
            runs.add(ReportRuns.simulate(scenario, input, scenarioText, n++, durationUs,
                    engine == null ? io.fabriclab.sim.Engine.PACKET : engine));
        }
        for (Path r : results) {
            runs.add(ReportRuns.fromResults(r, n++));
        }
        String who = author != null ? author : System.getProperty("user.name", "unknown");
        ReportInput in = new ReportInput(fabric, input.toString(), ScenarioJson.sha256(bytes), scenario, scenarioText, opt,
                runs, who, day, "fabriclab " + String.join(" ", spec.commandLine().getParseResult().originalArgs()), null,
                sweepSummaries, measured);
        DesignReview review;
        try {
            review = ReportWriter.write(in, output, (f, m) -> progress(err, f, m));
        } catch (IOException e) {
            String msg = String.valueOf(e.getMessage());
            throw new BadInputException("cannot write " + (msg.contains(output.toString()) ? msg : output + ": " + msg));
        }
        if (!quiet && terminal) {
            err.println();
        }
        out.printf(Locale.ROOT, "%s: %s (%s)%n", output, review.verdictWord(), review.tally());
        out.flush();
        return review.count(Status.FAIL) > 0 ? ExitCode.FINDINGS : ExitCode.OK;
    }

    /** A finished sweep's summary from its sweep file and output directory; bad input when a run is missing. */
    static SweepSummary finishedSweep(Path sweepFile, Path dir) throws io.fabriclab.io.InputException {
        if (!Files.isDirectory(dir)) {
            throw new BadInputException("--sweep " + sweepFile + " " + dir + ": " + dir
                    + " is not a directory; allowed: the -o directory of `fabriclab sweep " + sweepFile + "`");
        }
        SweepPlan plan = SweepPlan.read(sweepFile, true); // InputException: exit 2 naming the file and the path
        SweepRunner.Finished f = SweepRunner.finished(plan, dir);
        if (f.missing() > 0) {
            throw new BadInputException(String.format(Locale.ROOT, "--sweep %s %s: %d of %d runs are not finished in %s; "
                    + "run `fabriclab sweep %s -o %s` first (it resumes)%s", sweepFile, dir, f.missing(), plan.runCount(), dir,
                    sweepFile, dir, f.rejected().isEmpty() ? "" : "; not a valid run file: " + f.rejected().get(0)
                            + (f.rejected().size() > 1 ? " (and " + (f.rejected().size() - 1) + " more)" : "")));
        }
        return SweepSummary.of(plan, f.rows());
    }

    /** A fabric file of another format (its hash goes on the cover); its reader bounds it, so is this read. */
    private static byte[] fabricBytes(Path input) throws IOException {
        long size = Files.size(input);
        if (size > io.fabriclab.io.JsonInput.MAX_FILE_BYTES) {
            throw new BadInputException(String.format(Locale.ROOT, "%s: file is %.1f MB, too large to be a fabric; allowed: "
                    + "at most %d MB", input, size / 1048576.0, io.fabriclab.io.JsonInput.MAX_FILE_BYTES / 1048576));
        }
        return Files.readAllBytes(input);
    }

    /** Whether stderr is a terminal (progress overwrites one line) or a file or pipe (plain lines); tests set it. */
    boolean terminal = System.console() != null && System.console().isTerminal();

    private void progress(PrintWriter err, double fraction, String message) {
        if (quiet) {
            return;
        }
        err.print(progressLine(terminal, fraction, message));
        err.flush();
    }

    /**
     * One progress step: on a terminal it overwrites the line ("\r[ 40%] charts"); written to a
     * file or a pipe it is a line of its own, so a log is not one line of carriage returns (issue 35
     * item 18).
     */
    static String progressLine(boolean terminal, double fraction, String message) {
        return terminal ? String.format(Locale.ROOT, "\r[%3.0f%%] %-60s", 100 * fraction, message)
                : String.format(Locale.ROOT, "[%3.0f%%] %s%n", 100 * fraction, message);
    }

    /**
     * A scenario is a JSON object with workloads at its top level (looked for as a stream by the
     * strict reader, nested values skipped); anything else is read as a fabric file, whose reader
     * reports a syntax error with its location.
     */
    static boolean isScenario(Path file, byte[] bytes) {
        if (!file.toString().toLowerCase(Locale.ROOT).endsWith(".json")) {
            return false;
        }
        try (com.fasterxml.jackson.core.JsonParser p = JSON.createParser(bytes)) {
            if (p.nextToken() != com.fasterxml.jackson.core.JsonToken.START_OBJECT) {
                return false;
            }
            while (p.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
                if ("workloads".equals(p.currentName())) {
                    return true;
                }
                p.nextToken();
                p.skipChildren();
            }
            return false;
        } catch (IOException e) {
            // A duplicate key or a syntax error before "workloads": the fabric reader reports it in
            // the scenario reader's words (both parse through io.JsonInput).
            return false;
        }
    }
}
