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
                "shown as not simulated (said on stderr), with its cost only."},
        footerHeading = "%nExit codes:%n",
        footer = {"  0  compared (and the output written)",
                "  2  bad input (unreadable or invalid scenario, unknown transport, bad option, an output that is an",
                "     input or cannot be written); nothing was written"})
public final class CompareCommand implements Callable<Integer> {
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
        // Read as simulate reads it (io.JsonInput: 64 MB, UTF-8); TransportRuns parses it strictly.
        String text = io.fabriclab.io.JsonInput.readText(scenarioFile, "a scenario");
        io.fabriclab.io.JsonInput.parseTree(text, scenarioFile.toString(), "a scenario"); // its JSON errors in simulate's words
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        List<Path> fabricsRead = new ArrayList<>();
        Map<Transport, Scenario> scenarios;
        try {
            scenarios = TransportRuns.scenarios(text, scenarioFile.toString(), scenarioFile.toAbsolutePath().getParent(),
                    Outputs.recording(FabricReader.FILES, fabricsRead), null, set, err::println);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        }
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

    /** Runs the simulated transports, each on its own thread while cores allow (TransportRuns). */
    private Map<Transport, SimResults> run(Map<Transport, Scenario> scenarios, List<Transport> toRun, PrintWriter err)
            throws InterruptedException {
        if (toRun.isEmpty()) {
            return new LinkedHashMap<>();
        }
        int threads = TransportRuns.threads(toRun.size());
        if (!quiet) {
            err.println("compare: simulating " + String.join(", ", toRun.stream().map(Transport::jsonName).toList())
                    + " on " + threads + " thread" + (threads == 1 ? "" : "s"));
        }
        try {
            return TransportRuns.run(scenarios, toRun, threads, TransportRuns.QUIET);
        } catch (IllegalArgumentException e) {
            // The simulator refuses what it cannot run (no route, telemetry too big) before it starts.
            throw new BadInputException(scenarioFile + ": " + e.getMessage());
        }
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
