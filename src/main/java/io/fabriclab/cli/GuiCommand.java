package io.fabriclab.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import io.fabriclab.app.Desktop;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * Starts the editor. The CLI does not depend on the ui package at compile time (ArchitectureTest:
 * nothing but ui and the entry point knows ui), so the editor is found through the {@link Desktop}
 * service that ui registers.
 */
@Command(name = "gui", mixinStandardHelpOptions = true,
        description = {"Start the FabricLab editor, on FILE or on the shipped classic leaf-spine example.",
                "Needs a display; on a machine without one: xvfb-run ./fabriclab gui"})
public final class GuiCommand implements Callable<Integer> {

    @Parameters(arity = "0..1", paramLabel = "FILE", description = "Fabric file to open (.json or containerlab .clab.yml).")
    Path file;

    @Override
    public Integer call() throws Exception {
        if (file != null && !Files.isReadable(file)) {
            throw new BadInputException(file + ": no such readable file");
        }
        Desktop desktop = Desktop.find().orElseThrow(() -> new IllegalStateException(
                "the editor is not part of this build (no io.fabriclab.app.Desktop provider)"));
        try {
            desktop.openEditor(file == null ? new String[0] : new String[] {file.toString()});
        } catch (Desktop.NoDisplayException e) {
            throw new BadInputException(e.getMessage(), e); // the user's setup: exit 2
        }
        // Application.launch returns when the last window closes.
        return ExitCode.OK;
    }
}
