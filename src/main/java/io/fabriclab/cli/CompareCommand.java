package io.fabriclab.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabriclab.io.AtomicFiles;
import io.fabriclab.io.FabricReader;
import io.fabriclab.io.ResultsJson;
import io.fabriclab.io.Scenario;
import io.fabriclab.io.ScenarioException;
import io.fabriclab.io.ScenarioJson;
import io.fabriclab.model.Transport;
import io.fabriclab.report.ReportFormat;
import io.fabriclab.report.ReportInput;
import io.fabriclab.report.ReportRun;
import io.fabriclab.report.ReportWriter;
import io.fabriclab.report.TransportComparison;
import io.fabriclab.sim.IbFraming;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.TransportProfile;
import io.fabriclab.topology.BillOfMaterials;
import io.fabriclab.topology.FabricAnalysis;
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
                "shown as not simulated (said on stderr), with its cost only."},
        footerHeading = "%nExit codes:%n",
        footer = {"  0  compared (and the output written)",
                "  2  bad input (unreadable or invalid scenario, unknown transport, bad option, an output that is an",
                "     input or cannot be written); nothing was written"})
public final class CompareCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SCENARIO", description = "scenario file (JSON, schemaVersion 1); its own \"transport\" is replaced by each of --transports")
    Path scenarioFile;

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

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<Transport> set = parseTransports(transports);
        if (output != null && !output.toString().toLowerCase(Locale.ROOT).endsWith(".json") && ReportFormat.of(output) == null) {
            throw new BadInputException("-o " + output + ": the comparison is written as .json, .html or .pdf");
        }
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(scenarioFile);
        } catch (NoSuchFileException e) {
            throw new BadInputException("cannot read scenario " + scenarioFile + ": no such file");
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        List<Path> fabricsRead = new ArrayList<>();
        Map<Transport, Scenario> scenarios = new LinkedHashMap<>();
        for (Transport t : set) {
            Scenario s;
            try {
                s = ScenarioJson.parse(variant(text, t, err), scenarioFile.toString(),
                        scenarioFile.toAbsolutePath().getParent(), Outputs.recording(FabricReader.FILES, fabricsRead), null);
            } catch (ScenarioException | IllegalArgumentException e) {
                throw new BadInputException(t.jsonName() + ": " + e.getMessage());
            }
            s.warnings().forEach(w -> err.println("warning: " + t.jsonName() + ": " + w.render()));
            scenarios.put(t, s);
        }
        // Every output checked before any run: never an input, always writable (Outputs).
        new Outputs().input(scenarioFile).inputs(fabricsRead).file("-o", output).check();
        PriceBook book = Inputs.priceBook(priceBook);

        List<Transport> toRun = new ArrayList<>();
        for (Transport t : set) {
            if (TransportProfile.simulated(t)) {
                toRun.add(t);
            } else {
                err.println("compare: " + t.jsonName() + " is not simulated in this build (it simulates "
                        + TransportProfile.simulatedNames() + "): its column shows no figures, only the fabric's cost");
            }
        }
        Map<Transport, SimResults> results = run(scenarios, toRun, err);
        List<TransportComparison.Row> rows = new ArrayList<>();
        for (Transport t : set) {
            Scenario s = scenarios.get(t);
            rows.add(new TransportComparison.Row(t, results.get(t), BillOfMaterials.of(s.fabric(), book, t)));
        }
        Scenario first = scenarios.values().iterator().next();
        TransportComparison cmp = new TransportComparison(first.name(), scenarioFile.toString(), rows);
        out.print(table(cmp, first));
        if (output != null) {
            write(cmp, scenarios, results, book, bytes, text);
            out.println("comparison: " + output);
        }
        out.flush();
        return ExitCode.OK;
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

    /**
     * The scenario text with its transport set to {@code t}: fields of another transport are left
     * out, and on InfiniBand a top-level mtuBytes that is not an InfiniBand MTU (an Ethernet frame
     * size such as 9000) gives way to InfiniBand's 4096, said on stderr.
     */
    static String variant(String text, Transport t, PrintWriter err) {
        JsonNode root;
        try {
            root = JSON.readTree(text.startsWith("\uFEFF") ? text.substring(1) : text);
        } catch (IOException e) {
            return text; // the scenario reader reports the syntax error with its location
        }
        if (root == null || !root.isObject()) {
            return text;
        }
        ObjectNode o = (ObjectNode) root;
        JsonNode tr = o.get("transport");
        if (tr != null && tr.isObject()) {
            ObjectNode copy = ((ObjectNode) tr).deepCopy();
            copy.put("name", t.jsonName());
            if (t != Transport.INFINIBAND) {
                copy.remove(List.of("dataVls", "vlBufferBytes", "congestionControl"));
            }
            if (t != Transport.ULTRA_ETHERNET) {
                copy.remove("trimThresholdPackets");
            }
            o.set("transport", copy);
        } else {
            o.put("transport", t.jsonName());
        }
        JsonNode mtu = o.get("mtuBytes");
        if (t == Transport.INFINIBAND && mtu != null && mtu.isIntegralNumber() && !IbFraming.isMtu(mtu.asLong())) {
            err.println("compare: infiniband: $.mtuBytes " + mtu.asLong() + " is an Ethernet frame size; InfiniBand runs "
                    + "at its MTU of " + IbFraming.MAX_MTU_BYTES + " B of payload");
            o.remove("mtuBytes");
        }
        try {
            return JSON.writeValueAsString(o);
        } catch (IOException e) {
            return text;
        }
    }

    /** Runs the simulated transports, each on its own thread while cores allow. */
    private Map<Transport, SimResults> run(Map<Transport, Scenario> scenarios, List<Transport> toRun, PrintWriter err)
            throws InterruptedException {
        Map<Transport, SimResults> results = new LinkedHashMap<>();
        if (toRun.isEmpty()) {
            return results;
        }
        int threads = Math.max(1, Math.min(toRun.size(), Runtime.getRuntime().availableProcessors()));
        if (!quiet) {
            err.println("compare: simulating " + String.join(", ", toRun.stream().map(Transport::jsonName).toList())
                    + " on " + threads + " thread" + (threads == 1 ? "" : "s"));
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            Map<Transport, Future<SimResults>> futures = new LinkedHashMap<>();
            for (Transport t : toRun) {
                Scenario s = scenarios.get(t);
                // The simulator refuses what it cannot run (no route, telemetry too big) before it starts.
                io.fabriclab.sim.Simulator sim;
                try {
                    sim = s.simulator(s.config());
                } catch (IllegalArgumentException e) {
                    throw new BadInputException(scenarioFile + ": " + t.jsonName() + ": " + e.getMessage());
                }
                futures.put(t, pool.submit(() -> sim.run()));
            }
            for (Map.Entry<Transport, Future<SimResults>> e : futures.entrySet()) {
                try {
                    results.put(e.getKey(), e.getValue().get());
                } catch (ExecutionException ex) {
                    throw new IllegalStateException(e.getKey().jsonName() + " run failed: " + ex.getCause(), ex.getCause());
                }
            }
        } finally {
            pool.shutdownNow();
        }
        return results;
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
        List<ReportRun> runs = new ArrayList<>();
        int n = 1;
        for (Map.Entry<Transport, SimResults> e : results.entrySet()) {
            Scenario s = scenarios.get(e.getKey());
            ResultsJson.Metadata meta = new ResultsJson.Metadata(ResultsJson.fabriclabVersion(), s.name(),
                    scenarioFile.toString(), s.sha256(), s.fabric().name(), s.profile());
            runs.add(new ReportRun("R" + n++ + ": " + e.getKey().displayName(), "simulated by fabriclab compare", meta,
                    e.getValue(), s, text));
        }
        Scenario first = scenarios.values().iterator().next();
        String who = author != null ? author : System.getProperty("user.name", "unknown");
        ReportInput in = new ReportInput(first.fabric(), scenarioFile.toString(), ScenarioJson.sha256(bytes), first, text,
                FabricAnalysis.Options.defaults(book), runs, who, LocalDate.now(),
                "fabriclab " + String.join(" ", spec.commandLine().getParseResult().originalArgs()), cmp);
        ReportWriter.write(in, output, (f, m) -> { });
    }
}
