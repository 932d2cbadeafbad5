package io.fabriclab.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.fabriclab.io.AtomicFiles;
import io.fabriclab.io.FabricReader;
import io.fabriclab.io.ResultsJson;
import io.fabriclab.io.Scenario;
import io.fabriclab.io.ScenarioException;
import io.fabriclab.io.ScenarioJson;
import io.fabriclab.sim.Engine;
import io.fabriclab.sim.SimConfig;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.Simulator;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code fabriclab simulate SCENARIO -o RESULTS [--csv DIR]}: a packet-level run of a scenario; or
 * {@code fabriclab simulate FABRIC --workload W [options]}: a preset workload on a fabric, built as
 * the scenario JSON a file would hold and read by the same reader ({@link ScenarioPreset}).
 */
@Command(name = "simulate", mixinStandardHelpOptions = true,
        description = {"Run a packet-level simulation (PFC, ECN, DCQCN) of a scenario file and write the results;",
                "or, with --workload, of a preset workload on a fabric file (no scenario file needed).",
                "Progress goes to stderr; a summary table to stdout."},
        footerHeading = "%nExit codes:%n",
        footer = {"  0  the simulation ran and the results were written",
                "  2  bad input (unreadable or invalid scenario or fabric, bad option, an output that is an input",
                "     of the run or cannot be written); checked before the run, nothing was written"})
public final class SimulateCommand implements Callable<Integer> {
    private static volatile FabricReader fabricReader = FabricReader.FILES;
    /** Where a preset's default results file goes: the current directory (tests point it elsewhere). */
    static volatile Path workingDirectory = Path.of("");

    @Parameters(index = "0", paramLabel = "SCENARIO|FABRIC", description = "scenario file (JSON, schemaVersion 1); with --workload, a fabric file")
    Path scenarioFile;

    @Option(names = {"-o", "--output"}, paramLabel = "RESULTS", description = "results file to write (JSON), atomically; never an input of the run. "
            + "Required for a scenario; with --workload the default is <fabric-name>-<workload>-results.json in the current directory")
    Path output;

    @Option(names = "--workload", paramLabel = "W", converter = ScenarioPreset.ChoiceConverter.class,
            description = "simulate a preset on the FABRIC file: incast, all-reduce, all-to-all, permutation or "
                    + "training:MODEL (a training step; MODEL one of gpt2-124m, gpt-1.3b, llama-7b, gpt-13b, gpt-175b, moe-8x7b)")
    ScenarioPreset.Choice workloadChoice;

    /** The preset's kind (from --workload). */
    ScenarioPreset.Kind workload;

    @Option(names = "--senders", paramLabel = "N", description = "incast: senders (default 8, or every other NIC if the fabric has fewer)")
    Integer senders;

    @Option(names = "--bytes", paramLabel = "B", description = "incast: bytes per sender (default 1 MiB); all-reduce, all-to-all: the collective's size S "
            + "(default 4 MiB); permutation: bytes per NIC (default 2 MB)")
    Long bytes;

    @Option(names = "--priority", paramLabel = "P", description = "priority of the workload's flows, 0-7 (default 3)")
    Integer priority;

    @Option(names = "--profile", paramLabel = "NAME", description = "simulation QoS profile (as a scenario's \"profile\"; default the fabric's own QoS)")
    String profile;

    @Option(names = "--duration-us", paramLabel = "US", description = "stop at this simulated time (default: run until every flow completes)")
    Double durationUs;

    @Option(names = "--save-scenario", paramLabel = "FILE", description = "with --workload: also write the preset as a scenario file "
            + "(its fabric named relative to FILE), to edit or to run again with simulate FILE")
    Path saveScenario;

    @Option(names = "--csv", paramLabel = "DIR", description = "also write the time series as CSV files into DIR (created if missing; its four CSV files are replaced)")
    Path csvDir;

    @Option(names = "--seed", description = "override the scenario's run seed (ECMP source ports, ECN marking); workloads keep the flows they were given. "
            + "With --workload it is the scenario's seed, so it also seeds the permutation (default 1)")
    Long seed;

    @Option(names = "--reproducible", description = "write 0 for wall-clock fields, so identical runs give identical files")
    boolean reproducible;

    @Option(names = "--engine", paramLabel = "E", converter = EngineConverter.class,
            description = "packet (default: every packet, PFC, ECN, DCQCN, credits, trimming) or flow (max-min fair "
                    + "rates, no queues: whole clusters in seconds; docs/model.md, The flow-level engine)")
    Engine engine = Engine.PACKET;

    @Option(names = "--focus", paramLabel = "WHERE",
            description = "with --engine flow: then run the flows whose flow-run path crosses WHERE on the packet engine, "
                    + "each on its flow-run ECMP path from its flow-run start, the rest of the traffic as background "
                    + "(docs/model.md, Focus run). WHERE: a link id (devA:portA--devB:portB), a port (device:port), "
                    + "\"from -> to\" as the flow run names busy links, a device, \"unit N\" or \"pod N\". Its results go "
                    + "to RESULTS with .focus before .json")
    String focus;

    @Option(names = "--quiet", description = "no progress bar")
    boolean quiet;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Wires the fabric file reader (the fabric format lives in its own class). */
    public static void setFabricReader(FabricReader reader) {
        fabricReader = reader == null ? FabricReader.NONE : reader;
    }

    @Override
    public Integer call() {
        workload = workloadChoice == null ? null : workloadChoice.kind();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Scenario scenario;
        ScenarioPreset preset = null;
        List<Path> fabricsRead = new ArrayList<>();
        String presetProblem = presetOptionProblem();
        if (presetProblem != null) {
            err.println("error: " + presetProblem);
            return 2;
        }
        try {
            if (workload != null) {
                preset = new ScenarioPreset(workloadChoice, senders, bytes, priority, profile, durationUs, seed);
                scenario = preset.read(scenarioFile, Outputs.recording(fabricReader, fabricsRead),
                        saveScenario == null ? null : saveScenario.toAbsolutePath().getParent());
                if (output == null) {
                    output = workingDirectory.resolve(ScenarioPreset.defaultOutputName(scenario.fabric().name(), workload));
                }
            } else {
                scenario = ScenarioJson.read(scenarioFile, Outputs.recording(fabricReader, fabricsRead));
            }
        } catch (NoSuchFileException e) {
            err.println("error: cannot read scenario " + scenarioFile + ": no such file");
            return 2;
        } catch (IOException e) {
            err.println("error: cannot read " + scenarioFile + ": " + e.getMessage());
            return 2;
        } catch (ScenarioException | IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            String hint = kindHint();
            if (hint != null) {
                err.println("hint: " + hint);
            }
            return 2;
        }
        scenario.warnings().forEach(w -> err.println("warning: " + w.render()));
        Path focusOutput = null;
        if (focus != null) {
            if (engine != Engine.FLOW) {
                err.println("error: --focus looks closer at a flow-level run: add --engine flow");
                return 2;
            }
            try {
                io.fabriclab.sim.FocusRun.resolve(scenario.fabric(), focus);
            } catch (IllegalArgumentException e) {
                err.println("error: --focus: " + e.getMessage());
                return 2;
            }
            focusOutput = focusOutput(output);
        }
        // Every output checked before the run: never an input, always writable (Outputs).
        Outputs outputs = new Outputs().input(scenarioFile).inputs(fabricsRead).file("-o", output)
                .directory("--csv", csvDir, ResultsJson.CSV_FILES);
        if (focusOutput != null) {
            outputs.file("--focus", focusOutput);
        }
        if (saveScenario != null) {
            outputs.file("--save-scenario", saveScenario);
            if (Outputs.sameFile(saveScenario, output)) {
                err.println("error: --save-scenario " + saveScenario + " is the results file (-o); nothing was written");
                return 2;
            }
        }
        outputs.check();
        SimConfig cfg = seed == null ? scenario.config() : scenario.config().withSeed(seed);
        io.fabriclab.app.RunService.Run sim;
        try {
            // The one place a run is built (app.RunService), as compare, sweep and report build theirs.
            sim = io.fabriclab.app.RunService.prepare(new io.fabriclab.app.RunService.Request(scenario.name(),
                    scenario.withConfig(cfg), engine));
        } catch (IllegalArgumentException e) {
            err.println("error: " + scenarioFile + (workload == null ? "" : " --workload " + workload)
                    + ": " + e.getMessage() + (workload != null && String.valueOf(e.getMessage()).contains("no route")
                    ? "; the preset needs NICs that can reach one another" : ""));
            return 2;
        }
        // Saved once the simulator accepted the scenario (routes exist), so a refused run writes nothing.
        if (preset != null && saveScenario != null) {
            try {
                AtomicFiles.write(saveScenario, preset.json().getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                err.println("error: cannot write scenario " + saveScenario + ": " + e.getMessage());
                return 2;
            }
        }
        ProgressBar bar = quiet ? null : new ProgressBar(err, cfg.durationPs() > 0);
        SimResults r = sim.run(bar);
        // The engine's queues, rings and per-port state are garbage once the results exist: let the
        // collector take them while the results are written (an interpreted frame keeps a local alive).
        sim = null;
        if (bar != null) {
            bar.finish();
        }
        ResultsJson.Metadata meta = new ResultsJson.Metadata(ResultsJson.fabriclabVersion(), scenario.name(),
                scenarioFile.toString(), scenario.sha256(), scenario.fabric().name(), scenario.profile());
        // A training step's analysis goes into the results too (the "training" list).
        List<java.util.Map<String, Object>> training = new ArrayList<>();
        java.util.Map<io.fabriclab.workload.TrainingJob, io.fabriclab.sim.StepAnalysis.Result> analysed =
                new java.util.IdentityHashMap<>();
        for (io.fabriclab.workload.Workload w : scenario.workloads()) {
            if (w instanceof io.fabriclab.workload.TrainingJob job) {
                analysed.put(job, StepText.analyze(job, scenario, r));
                java.util.Map<String, Object> t = new java.util.LinkedHashMap<>();
                t.put("job", job.name());
                t.put("describe", job.describe());
                t.put("tokensPerStep", job.tokensPerStep());
                t.put("computePsPerMicroBatch", job.computePsPerMicroBatch());
                t.put("analysis", analysed.get(job));
                training.add(t);
            }
        }
        try {
            ResultsJson.write(r, meta, output, reproducible,
                    training.isEmpty() ? java.util.Map.of() : java.util.Map.of("training", training));
            if (csvDir != null) {
                ResultsJson.writeCsv(r, csvDir);
            }
        } catch (IOException e) {
            err.println("error: cannot write results: " + e.getMessage());
            return 2;
        }
        out.print(summary(r));
        out.print(StepText.of(scenario, r, analysed));
        out.println("results: " + output + (csvDir != null ? ", time series: " + csvDir : ""));
        out.flush();
        if (focus != null) {
            return focusRun(scenario, cfg, r, meta, focusOutput, out, err);
        }
        return 0;
    }

    /** {@code RESULTS} with ".focus" before its ".json" (or after its name): where a focus run's results go. */
    static Path focusOutput(Path output) {
        String name = output.getFileName().toString();
        String focused = name.endsWith(".json") ? name.substring(0, name.length() - 5) + ".focus.json" : name + ".focus";
        return output.resolveSibling(focused);
    }

    /** --focus: the packet engine on the flows that cross the focus, after the flow run {@code flowRun}. */
    private int focusRun(Scenario scenario, SimConfig cfg, SimResults flowRun, ResultsJson.Metadata meta, Path target,
                         PrintWriter out, PrintWriter err) {
        io.fabriclab.app.FocusRuns.Prepared prepared;
        if (!quiet) {
            err.println("focus " + focus + ": choosing its flows and running the flow run again for the other flows' rates ...");
            err.flush();
        }
        try {
            prepared = io.fabriclab.app.FocusRuns.prepare(scenario, cfg, flowRun, focus);
        } catch (IllegalArgumentException e) {
            err.println("error: --focus: " + e.getMessage());
            return 2;
        }
        out.println();
        out.printf(Locale.ROOT, "focus %s: %d flows on the packet engine, background on %d link directions%n",
                prepared.plan().focus().describe(), prepared.plan().flows().size(), prepared.plan().background().size());
        out.flush();
        ProgressBar bar = quiet ? null : new ProgressBar(err, false);
        io.fabriclab.sim.FocusRun.Result fr = prepared.run(bar);
        if (bar != null) {
            bar.finish();
        }
        try {
            ResultsJson.write(fr.packet(), meta, target, reproducible,
                    java.util.Map.of("focus", io.fabriclab.app.FocusRuns.json(fr)));
        } catch (IOException e) {
            err.println("error: cannot write focus results: " + e.getMessage());
            return 2;
        }
        out.print(summary(fr.packet()));
        out.print(io.fabriclab.app.FocusRuns.text(fr, 10));
        out.println("focus results: " + target);
        out.flush();
        return 0;
    }

    /**
     * When the positional file failed to read as what the options asked for, whether it is the
     * other kind: a fabric given without --workload, or a scenario given with it. Null otherwise.
     */
    private String kindHint() {
        if (workload == null && ScenarioPreset.hasTopLevelField(scenarioFile, "devices")) {
            return scenarioFile + " is a fabric file; add --workload incast|all-reduce|all-to-all|permutation to simulate a preset on it";
        }
        if (workload != null && ScenarioPreset.hasTopLevelField(scenarioFile, "workloads")) {
            return scenarioFile + " is a scenario file; run it without --workload (it names its own fabric and workloads)";
        }
        return null;
    }

    /** Options that only a preset takes, or a scenario without -o; null when the options fit together. */
    private String presetOptionProblem() {
        if (workload == null) {
            List<String> presetOnly = new ArrayList<>();
            if (senders != null) {
                presetOnly.add("--senders");
            }
            if (bytes != null) {
                presetOnly.add("--bytes");
            }
            if (priority != null) {
                presetOnly.add("--priority");
            }
            if (profile != null) {
                presetOnly.add("--profile");
            }
            if (durationUs != null) {
                presetOnly.add("--duration-us");
            }
            if (saveScenario != null) {
                presetOnly.add("--save-scenario");
            }
            if (!presetOnly.isEmpty()) {
                return String.join(", ", presetOnly) + " only with --workload (a scenario file sets these itself)";
            }
            if (output == null) {
                return "-o RESULTS is required when simulating a scenario file (it is optional only with --workload)";
            }
            return null;
        }
        if (senders != null && workload != ScenarioPreset.Kind.INCAST) {
            return "--senders applies to --workload incast only, not " + workload;
        }
        return null;
    }

    /**
     * Reads a scenario file as every command reads one (simulate, compare, report --simulate,
     * bench sim): the strict reader, with the same message for the same problem.
     *
     * @throws BadInputException naming the file, the JSON path and what is allowed
     */
    static Scenario readScenario(Path file, FabricReader reader) {
        try {
            return ScenarioJson.read(file, reader);
        } catch (NoSuchFileException e) {
            throw new BadInputException("cannot read scenario " + file + ": no such file");
        } catch (IOException e) {
            throw new BadInputException("cannot read " + file + ": " + e.getMessage());
        } catch (ScenarioException | IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        }
    }

    /**
     * A flow-level run's summary after its first line: FCTs, what the engine does not model, and
     * the links the packet engine should look at.
     */
    static String flowEngineNote(SimResults r) {
        StringBuilder sb = new StringBuilder();
        SimResults.Summary s = r.summary();
        sb.append(String.format(Locale.ROOT, "FCT p50 %.1f us, p99 %.1f us, max %.1f us; mean flow throughput %.2f Gb/s%n",
                s.fctP50Us(), s.fctP99Us(), s.fctMaxUs(), s.meanThroughputGbps()));
        sb.append("engine: flow level (max-min fair rates); PFC, ECN, DCQCN, credits, trimming, queues and losses "
                + "are not modelled: run with --engine packet for them\n");
        List<String> hot = io.fabriclab.sim.FlowEngine.packetLevelCandidates(r, io.fabriclab.sim.FlowEngine.PACKET_LEVEL_UTILIZATION, 5);
        if (!hot.isEmpty()) {
            sb.append(String.format(Locale.ROOT, "links at %.0f %% or more of their capacity, or into a NIC from %d or more "
                    + "transfers at once (where queues, pauses and marks would be; look closer with --focus \"FROM -> TO\" or --engine packet): %s%n",
                    100 * io.fabriclab.sim.FlowEngine.PACKET_LEVEL_UTILIZATION, io.fabriclab.sim.FlowEngine.PACKET_LEVEL_INCAST,
                    String.join("; ", hot)));
        }
        return sb.toString();
    }

    /** "packet" or "flow", any case; anything else an error naming both. */
    static final class EngineConverter implements picocli.CommandLine.ITypeConverter<Engine> {
        @Override
        public Engine convert(String value) {
            try {
                return Engine.parse(value);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** The human summary: run, worst queues, PFC, ECN/CNP, drops, FCT percentiles. */
    static String summary(SimResults r) {
        StringBuilder sb = new StringBuilder();
        SimResults.RunInfo run = r.run();
        SimResults.Summary s = r.summary();
        sb.append(String.format(Locale.ROOT, "%s after %.3f us simulated: %d/%d flows completed, %,d events in %.2f s (%.2f M events/s)%n",
                run.stopReason().name().toLowerCase(Locale.ROOT).replace('_', ' '), run.simulatedPs() / 1e6,
                run.flowsCompleted(), run.flows(), run.events(), run.wallNanos() / 1e9, run.eventsPerSecond() / 1e6));
        if (Engine.FLOW.jsonName().equals(run.engine())) {
            sb.append(flowEngineNote(r));
            return sb.toString();
        }
        sb.append("engine: packet level (every packet: PFC, ECN, DCQCN, credits, trimming, queues)\n");
        for (SimResults.DeadlockResult d : r.deadlocks()) {
            // On an InfiniBand run the queues wait on credits, per virtual lane (docs/model.md).
            boolean ib = !r.credits().isEmpty();
            sb.append(String.format(Locale.ROOT, "%n!!! %s on %s %d at %.1f us: %s wait on one another. !!!%n%n",
                    ib ? "CREDIT-LOOP DEADLOCK" : "PFC DEADLOCK", ib ? "VL" : "priority",
                    d.priority(), d.detectedPs() / 1e6, String.join(", ", d.ports())));
        }
        if (s.headroomOverflowDrops() > 0) {
            sb.append(String.format("%n!!! LOSSLESS CLASS LOST %d PACKETS: PFC headroom overflowed. Check headroom sizing. !!!%n%n",
                    s.headroomOverflowDrops()));
        }
        sb.append(String.format(Locale.ROOT, "FCT p50 %.1f us, p99 %.1f us, max %.1f us; mean flow throughput %.2f Gb/s%n",
                s.fctP50Us(), s.fctP99Us(), s.fctMaxUs(), s.meanThroughputGbps()));
        sb.append(String.format(Locale.ROOT, "ECN marked %,d; CNPs sent %,d, received %,d; PFC pauses sent %,d, resumes %,d, "
                        + "paused %.1f us in total; watchdog storms %d%n", s.ecnMarked(), s.cnpsSent(), s.cnpsReceived(),
                s.pauseFramesSent(), s.resumeFramesSent(), s.pausedPs() / 1e6, s.watchdogStorms()));
        sb.append(String.format(Locale.ROOT, "drops %,d (buffer %,d, headroom overflow %,d, watchdog %,d, link down %,d); "
                        + "retransmitted %,d B; reroutes %d%n", s.drops(), s.bufferDrops(), s.headroomOverflowDrops(),
                s.watchdogDrops(), s.linkDownDrops(), s.retransmittedBytes(), run.reroutes()));
        SimResults.IbCongestionResult cc = r.ibCongestionControl();
        if (cc != null) {
            // InfiniBand congestion control on: what the switches marked and how far the senders backed off.
            long ports = cc.fecnByPort().size();
            sb.append(String.format(Locale.ROOT, "IB congestion control: FECN marked %,d packets at %d switch port%s "
                            + "(threshold %d: queue above %s); BECNs %,d; highest CCTI %d of %d; %.1f us at CCTI > 0 "
                            + "over %d flow%s%n", cc.fecnMarked(), ports, ports == 1 ? "" : "s", cc.threshold(),
                    cc.thresholdBytes() < 0 ? "never" : String.format(Locale.ROOT, "%,d B", cc.thresholdBytes()),
                    cc.becnsReceived(), cc.maxCcti(), cc.cctiLimit(), cc.cctiAboveZeroPs() / 1e6,
                    cc.flows().size(), cc.flows().size() == 1 ? "" : "s"));
        }
        SimResults.UecResult u = r.ultraEthernet();
        if (u != null) {
            // Ultra Ethernet only: what trimming and selective retransmission did.
            sb.append(String.format(Locale.ROOT, "Ultra Ethernet: trimmed %,d packets (%,d B of payload cut); NACKs %,d; "
                            + "retransmitted %,d packets (%,d B), timeouts %,d; out of order %,d%n", u.trimmedPackets(),
                    u.trimmedPayloadBytes(), u.nacksSent(), u.retransmittedPackets(), u.retransmittedBytes(), u.timeouts(),
                    u.outOfOrderPackets()));
        }

        for (SimResults.CollectiveResult c : r.collectives()) {
            sb.append(String.format(Locale.ROOT, "%s %s over %d ranks, %,d B%s: %s%n", c.kind(), c.name(), c.ranks(), c.bytes(),
                    c.channels() > 1 ? ", " + c.channels() + " channels" : "",
                    c.timePs() < 0 ? "did not complete"
                            : String.format(Locale.ROOT, "%.1f us, algbw %.2f GB/s, busbw %.2f GB/s", c.timePs() / 1e6,
                            c.algbwGBps(), c.busbwGBps())
                            + (c.stallPs() > 0 ? String.format(Locale.ROOT, "; stalled %.1f us, resent %,d B",
                            c.stallPs() / 1e6, c.retransmittedBytes()) : "")));
            if (!c.steps().isEmpty() && c.timePs() > 0) {
                long slowest = c.steps().stream().mapToLong(SimResults.StepResult::timePs).max().orElse(0);
                sb.append(String.format(Locale.ROOT, "  %d steps: mean %.1f us, slowest %.1f us (per step in the results file)%n",
                        c.steps().size(), c.timePs() / 1e6 / c.steps().size(), slowest / 1e6));
            }
        }
        if (!r.uplinks().isEmpty()) {
            SimResults.UplinkSpread worst = r.uplinks().stream()
                    .max(Comparator.comparingDouble(SimResults.UplinkSpread::maxOverMean)).orElseThrow();
            sb.append(String.format(Locale.ROOT, "routing %s; most uneven uplinks: %s, busiest carries %.2f x the mean bytes%s%n",
                    run.routing(), worst.device(), worst.maxOverMean(),
                    worst.flows().isEmpty() ? "" : " (flows per uplink " + worst.flows() + ")"));
        }
        List<SimResults.QueueResult> queues = new ArrayList<>(r.queues());
        queues.sort(Comparator.comparingLong(SimResults.QueueResult::maxBytes).reversed());
        List<String[]> rows = new ArrayList<>();
        for (SimResults.QueueResult q : queues.subList(0, Math.min(8, queues.size()))) {
            rows.add(new String[] {q.port() + " -> " + q.peer(), String.valueOf(q.trafficClass()),
                    String.format(Locale.ROOT, "%.1f", q.maxBytes() / 1000.0), String.valueOf(q.ecnMarked()),
                    String.valueOf(q.dropsBuffer() + q.dropsHeadroomOverflow() + q.dropsWatchdog() + q.dropsLinkDown()),
                    String.format(Locale.ROOT, "%.2f", q.maxLatencyNs() / 1000)});
        }
        if (!rows.isEmpty()) {
            sb.append("\nWorst egress queues\n").append(table(new String[] {"queue", "tc", "max KB", "ECN marks", "drops",
                    "max latency us"}, rows));
        }
        List<SimResults.PfcResult> pfc = new ArrayList<>(r.pfc());
        pfc.sort(Comparator.comparingLong(SimResults.PfcResult::pausedPs).reversed()
                .thenComparing(Comparator.comparingLong(SimResults.PfcResult::pauseFramesSent).reversed()));
        rows = new ArrayList<>();
        for (SimResults.PfcResult p : pfc.subList(0, Math.min(8, pfc.size()))) {
            rows.add(new String[] {p.port(), String.valueOf(p.priority()), String.valueOf(p.pauseFramesSent()),
                    String.valueOf(p.pauseFramesReceived()), String.format(Locale.ROOT, "%.1f", p.pausedPs() / 1e6),
                    String.format(Locale.ROOT, "%.1f", p.maxIngressBytes() / 1000.0), String.valueOf(p.watchdogStorms())});
        }
        if (!rows.isEmpty()) {
            sb.append("\nPFC by port and priority (sent: XOFF from this port's ingress; received/paused: this port's egress)\n")
                    .append(table(new String[] {"port", "prio", "XOFF sent", "received", "paused us", "max ingress KB",
                            "storms"}, rows));
        }
        return sb.toString();
    }

    private static String table(String[] head, List<String[]> rows) {
        int[] w = new int[head.length];
        for (int i = 0; i < head.length; i++) {
            w[i] = head[i].length();
            for (String[] r : rows) {
                w[i] = Math.max(w[i], r[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        List<String[]> all = new ArrayList<>();
        all.add(head);
        String[] rule = new String[head.length];
        for (int i = 0; i < head.length; i++) {
            rule[i] = "-".repeat(w[i]);
        }
        all.add(rule);
        all.addAll(rows);
        for (String[] r : all) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < r.length; i++) {
                String pad = " ".repeat(w[i] - r[i].length());
                line.append(i == 0 ? "" : "  ").append(i == 0 ? r[i] + pad : pad + r[i]);
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
        return sb.toString();
    }

    /** A one-line progress bar on stderr: simulated time, events/s, ETA. */
    static final class ProgressBar implements Simulator.Progress {
        private final PrintWriter err;
        private final boolean byTime;
        private boolean drawn;

        ProgressBar(PrintWriter err, boolean byTime) {
            this.err = err;
            this.byTime = byTime;
        }

        @Override
        public void update(long simulatedPs, long endPs, long events, long wallNanos, int done, int flows) {
            double frac = byTime ? (double) simulatedPs / endPs : flows == 0 ? 1 : (double) done / flows;
            frac = Math.max(0, Math.min(1, frac));
            int width = 30;
            int filled = (int) Math.round(frac * width);
            double evps = wallNanos <= 0 ? 0 : events * 1e9 / wallNanos;
            String eta = frac <= 0 ? "?" : String.format(Locale.ROOT, "%.0f s", wallNanos / 1e9 * (1 - frac) / frac);
            err.print(String.format(Locale.ROOT, "\r[%s%s] %3.0f%%  sim %.1f us  %d/%d flows  %.2f M events/s  ETA %s   ",
                    "#".repeat(filled), ".".repeat(width - filled), frac * 100, simulatedPs / 1e6, done, flows, evps / 1e6, eta));
            err.flush();
            drawn = true;
        }

        void finish() {
            if (drawn) {
                err.println();
                err.flush();
            }
        }
    }
}
