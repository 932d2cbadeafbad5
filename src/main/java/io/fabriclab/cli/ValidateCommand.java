package io.fabriclab.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.fabriclab.model.Fabric;
import io.fabriclab.topology.Finding;
import io.fabriclab.topology.Lint;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** `fabriclab validate FILE`: reads the file (every format problem at once) and lints the design. */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = {"Check a fabric or scenario file: format errors (exit 2, all of them, with file, JSON path and what is",
                "allowed), a scenario's warnings, and the fabric's design lint findings (exit 1 when one is at error level)."})
public final class ValidateCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "Fabric file, or a scenario file (its fabric is linted).")
    Path file;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Fabric fabric;
        byte[] bytes = null;
        try {
            bytes = java.nio.file.Files.readAllBytes(file);
        } catch (java.io.IOException e) {
            // Inputs.fabric below says what is wrong with the path.
        }
        if (bytes != null && ReportCommand.isScenario(file, bytes)) {
            // A scenario is read as `simulate` reads it (strict, every problem with its JSON path).
            io.fabriclab.io.Scenario scenario;
            try {
                scenario = io.fabriclab.io.ScenarioJson.read(file, io.fabriclab.io.FabricReader.FILES);
            } catch (io.fabriclab.io.ScenarioException | IllegalArgumentException e) {
                throw new BadInputException(e.getMessage());
            }
            scenario.warnings().forEach(w -> out.println(file + ": warning: " + w.render()));
            out.printf("%s: scenario %s, %d workload%s, transport %s%n", file, scenario.name(), scenario.workloads().size(),
                    scenario.workloads().size() == 1 ? "" : "s", scenario.transportName().jsonName());
            fabric = scenario.fabric();
        } else {
            fabric = Inputs.fabric(file);
        }
        List<Finding> findings = Lint.check(fabric);
        // Identical findings about several subjects print once, with the subjects and their count.
        for (Finding.Group g : Finding.group(findings)) {
            out.printf("%s: %s %s [%s]%s: %s; fix: %s%n", file, g.severity().name().toLowerCase(Locale.ROOT),
                    g.subjectsText(5), g.code(), g.count() > 1 ? " x" + g.count() : "", g.message(), g.fix());
        }
        long errors = findings.stream().filter(f -> f.severity() == Finding.Severity.ERROR).count();
        out.printf("%s: %d devices, %d links; %d findings (%d at error level)%n", file, fabric.devices().size(),
                fabric.linkCount(), findings.size(), errors);
        return errors > 0 ? ExitCode.FINDINGS : ExitCode.OK;
    }
}
