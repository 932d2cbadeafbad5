package io.fabriclab.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import io.fabriclab.io.FabricFiles;
import io.fabriclab.model.Fabric;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** `fabriclab convert IN OUT`: between the fabric JSON, containerlab YAML, GraphML and DOT. */
@Command(name = "convert", mixinStandardHelpOptions = true,
        // The command list shows this line: the description's first sentence wrapped as ".json (FabricLab), ."
        header = "Convert a fabric between formats: FabricLab JSON, containerlab, GraphML, DOT.",
        description = {"Convert a fabric between formats, chosen by file ending:",
                ".json (FabricLab), .clab.yml/.clab.yaml/.yml/.yaml (containerlab, with its annotations side file),",
                ".graphml and .dot (export only). The output is written atomically, never over the input, and only",
                "if FabricLab can read it back (the fabric file's limits)."})
public final class ConvertCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "IN", description = "Input fabric file.")
    Path in;

    @Parameters(index = "1", paramLabel = "OUT", description = "Output file.")
    Path out;

    @Override
    public Integer call() throws Exception {
        FabricFiles.formatOf(out);
        new Outputs().input(in).fabricFile("OUT", out).check();
        Fabric fabric = Inputs.fabric(in);
        FabricFiles.save(fabric, out);
        spec.commandLine().getOut().printf("wrote %s (%d devices, %d links)%n", out, fabric.devices().size(), fabric.linkCount());
        // What a containerlab file cannot hold is said, not dropped silently (issue 35 item 13).
        java.io.PrintWriter err = spec.commandLine().getErr();
        if (FabricFiles.formatOf(out) == FabricFiles.Format.CONTAINERLAB) {
            for (String loss : io.fabriclab.io.ContainerlabYaml.exportLosses(fabric)) {
                err.println("warning: not in the containerlab file: " + loss);
            }
        }
        if (FabricFiles.formatOf(in) == FabricFiles.Format.CONTAINERLAB) {
            for (String note : io.fabriclab.io.ContainerlabYaml.importNotes(fabric)) {
                err.println("warning: " + note);
            }
        }
        err.flush();
        return ExitCode.OK;
    }
}
