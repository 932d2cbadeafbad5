package io.fabriclab.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import io.fabriclab.model.Fabric;
import io.fabriclab.topology.AnalysisText;
import io.fabriclab.topology.FabricAnalysis;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `fabriclab analyze FILE [--json] [--fail LINK|DEVICE]`: the numbers a design review asks for first. */
@Command(name = "analyze", mixinStandardHelpOptions = true,
        description = {"Static analysis of a fabric: counts, oversubscription, bisection bandwidth, ECMP path counts,",
                "hop counts, bill of materials, failure impact of every link and switch, PFC headroom,",
                "deadlock check and lint findings. Exit 1 when a finding is at error level."})
public final class AnalyzeCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "Fabric file (.json or containerlab .clab.yml).")
    Path file;

    @Option(names = "--json", description = "Print the stable JSON document (docs/cli.md) instead of tables.")
    boolean json;

    @CommandLine.Mixin
    AnalysisOptions analysis = new AnalysisOptions();

    @Option(names = "--top", defaultValue = "10", paramLabel = "N", description = "Rows of the worst-failures table (default: ${DEFAULT-VALUE}).")
    int top;

    @Override
    public Integer call() throws Exception {
        Fabric fabric = Inputs.fabric(file);
        FabricAnalysis.Options opt = analysis.toOptions(fabric);
        FabricAnalysis a = FabricAnalysis.run(fabric, opt);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.print(AnalysisJson.render(fabric, file.toString(), a, top));
        } else {
            out.print(AnalysisText.of(fabric, file.toString(), a, top));
        }
        out.flush();
        return a.hasErrors() ? ExitCode.FINDINGS : ExitCode.OK;
    }
}
