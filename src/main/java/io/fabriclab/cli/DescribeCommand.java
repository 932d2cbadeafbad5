package io.fabriclab.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import io.fabriclab.io.FabricFiles;
import io.fabriclab.model.Fabric;
import io.fabriclab.topology.describe.FabricSentence;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code fabriclab describe FABRIC}: the sentence that makes the fabric again with {@code fabriclab new}. */
@Command(name = "describe", mixinStandardHelpOptions = true,
        description = {"Write the sentence that makes this fabric again with `fabriclab new` (for fabrics the generators",
                "make: leaf-spine, rail-optimized, fat tree, with their QoS, switch models and GPUs). The sentence is checked",
                "by building it and comparing the result with the file."},
        footerHeading = "%nExit codes:%n",
        footer = {"  0  the sentence was written", "  2  unreadable file, or a fabric no sentence makes (the message names the "
                + "first difference)"})
public final class DescribeCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FABRIC", description = "The fabric file.")
    Path fabricFile;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Fabric f = FabricFiles.load(fabricFile);
        String sentence;
        try {
            sentence = FabricSentence.of(f);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(fabricFile + ": " + e.getMessage());
        }
        out.println(sentence);
        out.flush();
        return ExitCode.OK;
    }
}
