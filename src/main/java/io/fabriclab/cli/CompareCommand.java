package io.fabriclab.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;


import io.fabriclab.io.AtomicFiles;
import io.fabriclab.io.FabricReader;
import io.fabriclab.io.ResultsJson;
import io.fabriclab.io.Scenario;
import io.fabriclab.model.Transport;
import io.fabriclab.report.ReportFormat;
import io.fabriclab.report.TransportComparison;
import io.fabriclab.report.TransportRuns;
import io.fabriclab.sim.Engine;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.TransportProfile;
import io.fabriclab.topology.PriceBook;
import io.fabriclab.topology.TextTable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code fabriclab compare SCENARIO --transports rocev2,infiniband,ultra-ethernet [-o FILE]}: the
 * same drawing and workload under each transport, side by side, with each transport's bill of
 * materials (docs/cli.md, compare; docs/model.md, Transports).
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Run one scenario under several transports (RoCEv2, InfiniBand, Ultra Ethernet) on the same drawing,",
                "in parallel where cores allow, and print one table: per collective busbw and completion time, FCT",
                "p50/p99/p99.9, drops, retransmitted bytes, paused or credit-stalled time, max queue and fabric cost,",
                "with throughput and cost as a share of InfiniBand's. A transport this build does not simulate is",
                "shown as not simulated (said on stderr), with its cost only.",
                "With --workload W on a FABRIC file: a preset (incast, all-reduce, all-to-all, permutation, training:MODEL)",
                "under each transport one after another: step time, exposed communication and tokens/s for a training",
                "step, busbw for a collective, as a share of InfiniBand's, with the switch latencies used."},
        footerHeading = "%nExit codes:%n",
        footer = {"  0  compared (and the output written)",
                "  2  bad input (unreadable or invalid scenario, unknown transport, bad option, an output that is an",
                "     input or cannot be written); nothing was written"})
public final class CompareCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SCENARIO|FABRIC", description = "scenario file (JSON, schemaVersion 1); its own \"transport\" is replaced by each of --transports; with --workload, a fabric file")
    Path scenarioFile;

    @Option(names = "--workload", paramLabel = "W", converter = ScenarioPreset.ChoiceConverter.class,
            description = "compare a preset on the FABRIC file, one transport at a time: incast, all-reduce, all-to-all, "
                    + "permutation or training:MODEL (training throughput per transport and as a share of InfiniBand's)")
    ScenarioPreset.Choice workload;

    @Option(names = "--transports", paramLabel = "LIST", defaultValue = "rocev2,infiniband,ultra-ethernet",
            description = "comma-separated transports to compare, in column order (default: ${DEFAULT-VALUE})")
    String transports;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "also write the comparison: .json (the figures), .html or .pdf (the design-review report with a Transport comparison section)")
    Path output;

    @Option(names = "--price-book", paramLabel = "FILE", description = "unit prices (default: the shipped sample price book)")
    Path priceBook;

    @Option(names = "--author", paramLabel = "NAME", description = "with -o .html/.pdf: author on the cover (default: the user name)")
    String author;

    @Option(names = "--quiet", description = "no progress on stderr")
    boolean quiet;

    @Option(names = "--engine", paramLabel = "E", converter = SimulateCommand.EngineConverter.class,
            description = "packet (default) or flow: the engine every transport's run uses (simulate --engine)")
    Engine engine = Engine.PACKET;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<Transport> set = parseTransports(transports);
        if (workload != null) {
            return comparePreset(set, out, err);
        }
        if (ScenarioPreset.hasTopLevelField(scenarioFile, "devices")) {
            throw new BadInputException(scenarioFile + " is a fabric file; add --workload incast|all-reduce|all-to-all|"
                    + "permutation|training:MODEL to compare a preset on it");
        }
        if (output != null && !output.toString().toLowerCase(Locale.ROOT).endsWith(".json") && ReportFormat.of(output) == null) {
            throw new BadInputException("-o " + output + ": the comparison is written as .json, .html or .pdf");
        }
        // Read as simulate reads it (the strict reader: 64 MB, UTF-8, duplicate keys refused), once;
        // each transport's variant is made on the typed scenario (Scenario.withTransport).
        List<Path> fabricsRead = new ArrayList<>();
        Scenario base = SimulateCommand.readScenario(scenarioFile, Outputs.recording(FabricReader.FILES, fabricsRead));
        String text = io.fabriclab.io.JsonInput.readText(scenarioFile, "a scenario");
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        Map<Transport, Scenario> scenarios = TransportRuns.scenarios(base, set, err::println);
        // Every output checked before any run: never an input, always writable (Outputs).
        new Outputs().commandLine(spec).input(scenarioFile).inputs(fabricsRead).file("-o", output).check();
        PriceBook book = Inputs.priceBook(priceBook);

        List<Transport> toRun = TransportRuns.simulated(set);
        for (Transport t : set) {
            if (!toRun.contains(t)) {
                err.println("compare: " + t.jsonName() + " is not simulated in this build (it simulates "
                        + TransportProfile.simulatedNames() + "): its column shows no figures, only the fabric's cost");
            }
        }
        Map<Transport, SimResults> results = run(scenarios, toRun, err);
        TransportComparison cmp = TransportRuns.comparison(scenarios, results, book, scenarioFile.toString());
        Scenario first = scenarios.values().iterator().next();
        out.print(table(cmp, first));
        out.println(engineLine(engine));
        out.print(latencies(first.fabric(), set, first.switchLatencyPs()));
        if (output != null) {
            write(cmp, scenarios, results, book, bytes, text);
            out.println("comparison: " + output);
        }
        out.flush();
        return ExitCode.OK;
    }

    /**
     * The preset on the fabric under each transport, one after another (one simulator in memory at
     * a time, each dropped before the next), a row printed as each finishes.
     */
    private int comparePreset(List<Transport> set, PrintWriter out, PrintWriter err) throws IOException {
        if (output != null) {
            throw new BadInputException("-o: compare --workload prints its table only (write a scenario with "
                    + "simulate --save-scenario to compare it into a report)");
        }
        List<Transport> toRun = TransportRuns.simulated(set);
        List<String[]> rows = new ArrayList<>();
        Map<Transport, Double> rate = new LinkedHashMap<>();
        io.fabriclab.model.Fabric fabricSeen = null;
        Scenario presetBase = null;
        for (Transport t : toRun) {
            Scenario sc;
            if (presetBase == null) {
                // The preset read once (the scenario JSON a file would hold, by the strict reader);
                // each transport's variant made on the typed scenario.
                ScenarioPreset preset = new ScenarioPreset(workload, null, null, null, null, null, null);
                try {
                    presetBase = preset.read(scenarioFile, FabricReader.FILES, null);
                } catch (IllegalArgumentException | io.fabriclab.io.ScenarioException e) {
                    throw new BadInputException(e.getMessage());
                }
            }
            sc = presetBase.withTransport(t, n -> err.println("compare: " + n));
            fabricSeen = sc.fabric();
            if (!quiet) {
                err.println("compare: " + t.jsonName() + ": simulating " + sc.flows().size() + " tasks ("
                        + engine.jsonName() + " engine) ...");
            }
            long wall = System.nanoTime();
            io.fabriclab.app.RunService.Run sim;
            try {
                sim = io.fabriclab.app.RunService.prepare(new io.fabriclab.app.RunService.Request(t.jsonName(), sc, engine));
            } catch (IllegalArgumentException e) {
                throw new BadInputException(scenarioFile + ": " + e.getMessage());
            }
            SimResults r = sim.run(quiet ? null : new SimulateCommand.ProgressBar(err, false));
            sim = null;
            double seconds = (System.nanoTime() - wall) / 1e9;
            String latency = switchLatencies(sc.fabric(), t);
            String[] row = null;
            for (io.fabriclab.workload.Workload w : sc.workloads()) {
                if (w instanceof io.fabriclab.workload.TrainingJob job) {
                    io.fabriclab.sim.StepAnalysis.Result a = StepText.analyze(job, sc, r);
                    rate.put(t, a.completed() ? a.tokensPerSecond() : 0);
                    row = new String[] {t.displayName(), a.completed() ? ms(a.stepPs()) : "did not complete",
                            ms(a.computePs()), ms(a.exposedCommPs()) + String.format(Locale.ROOT, " (%.1f %%)", 100 * a.exposedShare()),
                            String.format(Locale.ROOT, "%,.0f", a.tokensPerSecond()), "", latency,
                            String.format(Locale.ROOT, "%.1f", seconds)};
                } else if (w instanceof io.fabriclab.workload.NcclCollective c) {
                    SimResults.CollectiveResult run = r.collective(c.op().jsonName(), c.name());
                    boolean done = run != null && run.finishPs() >= 0;
                    double busbw = done ? run.busbwGBps() : 0;
                    rate.put(t, busbw);
                    row = new String[] {t.displayName(), done ? String.format(Locale.ROOT, "%.1f us", run.timePs() / 1e6)
                            : "did not complete", "", "", String.format(Locale.ROOT, "busbw %.2f GB/s", busbw), "",
                            latency, String.format(Locale.ROOT, "%.1f", seconds)};
                }
            }
            if (row == null) {
                double fct = r.summary().fctMaxUs();
                rate.put(t, fct > 0 ? 1 / fct : 0);
                row = new String[] {t.displayName(), String.format(Locale.ROOT, "%.1f us (last flow)", fct), "", "",
                        String.format(Locale.ROOT, "FCT p99 %.1f us", r.summary().fctP99Us()), "", latency,
                        String.format(Locale.ROOT, "%.1f", seconds)};
            }
            String[] withCongestion = java.util.Arrays.copyOf(row, row.length + 1);
            withCongestion[row.length] = String.format(Locale.ROOT, "%,d / %,d / %,d", r.summary().pauseFramesSent(),
                    r.summary().ecnMarked(), r.summary().drops());
            rows.add(withCongestion);
            if (!quiet) {
                err.println("compare: " + t.jsonName() + " done in " + String.format(Locale.ROOT, "%.1f s", seconds));
            }
        }
        Double ib = rate.get(Transport.INFINIBAND);
        for (int i = 0; i < rows.size(); i++) {
            Double v = rate.get(toRun.get(i));
            rows.get(i)[5] = ib != null && ib > 0 && v != null ? String.format(Locale.ROOT, "%.1f %%", 100 * v / ib) : "-";
        }
        TextTable table = new TextTable(new String[] {"transport", "step / completion", "compute", "exposed communication",
                "throughput", "% of InfiniBand", "switch latency", "wall s", "PFC pauses / ECN marks / drops"});
        rows.forEach(r -> table.row((Object[]) r));
        out.println("Transport comparison: --workload " + workload + " on " + scenarioFile
                + (fabricSeen != null ? " (" + fabricSeen.name() + ")" : ""));
        out.print(table);
        out.println(engineLine(engine));
        out.println("throughput: training tokens/s, a collective's busbw, or the inverse of the last flow's completion; "
                + "% of InfiniBand compares it");
        if (fabricSeen != null) {
            out.print(latencies(fabricSeen, toRun, -1));
        }
        out.flush();
        return ExitCode.OK;
    }

    /** The switch port-to-port latencies each transport's run used, per switch model, with sources. */
    static String latencies(io.fabriclab.model.Fabric fabric, List<Transport> set, long scenarioOverridePs) {
        StringBuilder b = new StringBuilder("Switch port-to-port latency used:\n");
        if (scenarioOverridePs >= 0) {
            b.append(String.format(Locale.ROOT, "  every switch %.0f ns (the scenario's switchLatencyNs)%n", scenarioOverridePs / 1e3));
            return b.toString();
        }
        for (Transport t : set) {
            for (String line : io.fabriclab.topology.FabricSwitchLatency.describe(fabric, t)) {
                b.append("  ").append(t.displayName()).append(": ").append(line).append('\n');
            }
        }
        return b.toString();
    }

    private static String ms(long ps) {
        return String.format(Locale.ROOT, "%.3f ms", ps / 1e9);
    }

    /** The port-to-port latencies the run used, per switch model. */
    private static String switchLatencies(io.fabriclab.model.Fabric fabric, Transport t) {
        java.util.Set<String> out = new java.util.TreeSet<>();
        for (io.fabriclab.model.Device d : fabric.switches()) {
            out.add(String.format(Locale.ROOT, "%.0f ns", io.fabriclab.model.SwitchLatency.portToPortPs(d, t) / 1e3));
        }
        return String.join(", ", out);
    }

    /** "rocev2,infiniband": each a transport, none twice; anything else is bad input naming the allowed ones. */
    static List<Transport> parseTransports(String list) {
        List<Transport> out = new ArrayList<>();
        for (String name : list.split(",", -1)) {
            String n = name.strip();
            Transport t = Transport.fromJsonName(n).orElseThrow(() -> new BadInputException("--transports: \""
                    + n + "\" is not a transport; allowed: " + Transport.allowedNames() + " (comma-separated)"));
            if (out.contains(t)) {
                throw new BadInputException("--transports: " + n + " is named twice");
            }
            out.add(t);
        }
        return out;
    }

    /** Runs the simulated transports, each on its own thread while cores allow (TransportRuns). */
    private Map<Transport, SimResults> run(Map<Transport, Scenario> scenarios, List<Transport> toRun, PrintWriter err)
            throws InterruptedException {
        if (toRun.isEmpty()) {
            return new LinkedHashMap<>();
        }
        int threads = io.fabriclab.app.RunService.Batch.threadsFor(TransportRuns.requests(scenarios, toRun, engine),
                TransportRuns.threads(toRun.size()));
        int tasks = scenarios.values().iterator().next().flows().size();
        if (!quiet) {
            err.println("compare: simulating " + String.join(", ", toRun.stream().map(Transport::jsonName).toList())
                    + " on " + threads + " thread" + (threads == 1 ? "" : "s")
                    + (tasks > io.fabriclab.app.RunService.aloneTasks ? " (" + tasks + " tasks: one transport at a time)" : "")
                    + (engine == Engine.FLOW ? " (flow engine)" : ""));
        }
        try {
            return TransportRuns.run(scenarios, toRun, threads, engine, TransportRuns.QUIET);
        } catch (IllegalArgumentException e) {
            // The engine refuses what it cannot run (no route, telemetry too big) before it starts.
            throw new BadInputException(scenarioFile + ": " + e.getMessage());
        }
    }

    /** The engine line under a comparison: which engine ran every column. */
    static String engineLine(Engine e) {
        return "engine: " + e.jsonName() + (e == Engine.FLOW
                ? " (flow level: max-min fair rates; no PFC, ECN, credits, trimming, queues or drops: run with --engine packet for them)"
                : " (packet level)");
    }

    private static String table(TransportComparison cmp, Scenario s) {
        List<String[]> rows = cmp.table();
        TextTable t = new TextTable(rows.get(0));
        rows.subList(1, rows.size()).forEach(r -> t.row((Object[]) r));
        return "Transport comparison: " + cmp.scenarioName() + " (" + s.fabric().name() + ")\n" + t + "\n";
    }

    private void write(TransportComparison cmp, Map<Transport, Scenario> scenarios, Map<Transport, SimResults> results,
                       PriceBook book, byte[] bytes, String text) throws IOException {
        if (output.toString().toLowerCase(Locale.ROOT).endsWith(".json")) {
            AtomicFiles.write(output, cmp.json(ResultsJson.fabriclabVersion()).getBytes(StandardCharsets.UTF_8));
            return;
        }
        String who = author != null ? author : System.getProperty("user.name", "unknown");
        TransportRuns.writeReport(cmp, scenarios, results, book, scenarioFile.toString(), bytes, text, who,
                "simulated by fabriclab compare",
                "fabriclab " + String.join(" ", spec.commandLine().getParseResult().originalArgs()), output);
    }
}
