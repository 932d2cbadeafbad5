package io.fabriclab.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.fabriclab.io.ContainerlabYaml;
import io.fabriclab.io.FabricFiles;
import io.fabriclab.io.config.ConfigExporter;
import io.fabriclab.io.config.UnexportableQosException;
import io.fabriclab.io.config.Vendor;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Transport;
import io.fabriclab.report.DesignReview;
import io.fabriclab.report.ReportFormat;
import io.fabriclab.report.ReportInput;
import io.fabriclab.report.ReportWriter;
import io.fabriclab.topology.FabricAnalysis;
import io.fabriclab.topology.describe.Descriptions;
import io.fabriclab.topology.describe.FabricSentence;
import io.fabriclab.topology.describe.Understanding;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code fabriclab new "DESCRIPTION" -o FILE [--lab DIR] [--report FILE]}: a fabric from a sentence
 * (docs/describe.md). What was understood is shown before anything is written.
 */
@Command(name = "new", mixinStandardHelpOptions = true,
        description = {"Build a fabric from a description in plain English, e.g.",
                "  fabriclab new \"8 leaves, 2 spines, 32 GPU servers with 8 x 400G NICs, rail-optimized, 2:1 oversubscribed,",
                "  PFC and ECN on priority 3, 50 m fibre between tiers, Tomahawk 5 leaves\" -o fabric.json",
                "It first prints every term it took (with the words it came from), every default it applied and every word",
                "it did not use; a contradiction is an error naming the words and the nearest fabric that fits.",
                "docs/describe.md lists every phrasing."},
        footerHeading = "%nExit codes:%n",
        footer = {"  0  written (or, with --dry-run, understood)", "  2  bad input: a description that makes no fabric, "
                + "or an output that cannot be written; nothing written"})
public final class NewCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "DESCRIPTION",
            description = "The fabric in words (quote it, or give it as several words).")
    List<String> words = new ArrayList<>();

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Where to write the fabric; the ending picks the format (.json, .clab.yml, .graphml, .dot).")
    Path output;

    @Option(names = "--lab", paramLabel = "DIR",
            description = "Also write a containerlab lab: DIR/<name>.clab.yml and each switch's QoS configuration for "
                    + "SONiC (DIR/sonic), Arista EOS (DIR/eos) and Cisco NX-OS (DIR/nxos).")
    Path lab;

    @Option(names = "--report", paramLabel = "FILE", description = "Also write the design-review report (.html or .pdf).")
    Path report;

    @Option(names = {"-n", "--dry-run"}, description = "Only show what the description says; write nothing.")
    boolean dryRun;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        String text = String.join(" ", words);
        if (!dryRun && output == null) {
            throw new BadInputException("-o FILE is required (or --dry-run to only see what the description says)");
        }
        if (report != null && ReportFormat.of(report) == null) {
            throw new BadInputException("--report " + report + ": a report file must end in .html or .pdf");
        }
        Understanding u = Descriptions.understand(text);
        out.print(u.table());
        out.flush();
        if (!u.ok()) {
            throw new BadInputException("the description makes no fabric: " + u.error());
        }
        if (lab != null && u.blueprint().transport() == Transport.INFINIBAND) {
            throw new BadInputException("--lab: a containerlab lab of SONiC, EOS and NX-OS switches is Ethernet; this "
                    + "fabric is InfiniBand (say RoCEv2 or Ultra Ethernet, or leave --lab out); nothing was written");
        }
        if (dryRun) {
            out.println("(dry run: nothing written)");
            out.flush();
            return ExitCode.OK;
        }
        Fabric f = u.blueprint().build();
        Outputs outputs = new Outputs().fabricFile("-o", output).file("--report", report);
        String labFile = ContainerlabYaml.labName(f.name()) + ".clab.yml";
        if (lab != null) {
            List<String> names = new ArrayList<>();
            names.add(labFile);
            for (Vendor v : Vendor.values()) {
                for (Device d : f.switches()) {
                    names.add(vendorDir(v) + "/" + ConfigExporter.fileFor(Path.of(""), d, v));
                }
            }
            outputs.directory("--lab", lab, names);
        }
        outputs.check();
        FabricFiles.save(f, output);
        FabricAnalysis.Counts c = FabricAnalysis.Counts.of(f);
        out.printf(Locale.ROOT, "%nwrote %s: %d switches (%s), %d servers, %d GPUs, %d links%n", output, c.switches(),
                GenerateCommand.byRole(c.switchesByRole()), c.servers(), c.gpus(), c.links());
        out.println("as a sentence: " + FabricSentence.of(f));
        if (lab != null) {
            writeLab(f, out, labFile);
        }
        if (report != null) {
            byte[] bytes = Files.readAllBytes(output);
            ReportInput in = new ReportInput(f, output.toString(), io.fabriclab.io.ScenarioJson.sha256(bytes), null, null,
                    FabricAnalysis.Options.defaults(Inputs.priceBook(null)), List.of(), System.getProperty("user.name", "unknown"),
                    LocalDate.now(), "fabriclab new \"" + text + "\"");
            DesignReview review;
            try {
                review = ReportWriter.write(in, report, (fraction, message) -> { });
            } catch (IOException e) {
                throw new BadInputException("cannot write " + report + ": " + e.getMessage());
            }
            out.printf(Locale.ROOT, "wrote %s: %s (%s)%n", report, review.verdictWord(), review.tally());
        }
        out.flush();
        return ExitCode.OK;
    }

    static String vendorDir(Vendor v) {
        return v.name().toLowerCase(Locale.ROOT);
    }

    private void writeLab(Fabric f, PrintWriter out, String labFile) throws IOException {
        Files.createDirectories(lab);
        Path topo = lab.resolve(labFile);
        ContainerlabYaml.save(f, topo);
        out.println("wrote " + topo);
        for (String loss : ContainerlabYaml.exportLosses(f)) {
            out.println("  note: " + loss);
        }
        ConfigExporter exporter = new ConfigExporter(8);
        for (Vendor v : Vendor.values()) {
            Path dir = lab.resolve(vendorDir(v));
            Files.createDirectories(dir);
            List<Path> written;
            try {
                written = exporter.exportAll(f, dir, v);
            } catch (UnexportableQosException e) {
                throw new BadInputException("--lab: " + v.name() + ": " + e.getMessage());
            }
            out.printf(Locale.ROOT, "wrote %d %s configurations to %s%n", written.size(), v.name(), dir);
        }
        out.println(ConfigExporter.SONIC_APPLY + ".");
        String yaml = Files.readString(topo, StandardCharsets.UTF_8);
        out.printf(Locale.ROOT, "deploy with: containerlab deploy -t %s (%d lines)%n", topo, yaml.lines().count());
    }
}
