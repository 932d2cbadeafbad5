package io.fabriclab.cli;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * Starts the editor. The CLI does not depend on the ui package at compile time (ARCHITECTURE.md:
 * cli uses all but ui), so the JavaFX launcher is looked up by name.
 */
@Command(name = "gui", mixinStandardHelpOptions = true,
        description = "Start the FabricLab editor, on FILE or on the shipped classic leaf-spine example.")
public final class GuiCommand implements Callable<Integer> {
    static final String LAUNCHER = "io.fabriclab.ui.Launcher";

    @Parameters(arity = "0..1", paramLabel = "FILE", description = "Fabric file to open (.json or containerlab .clab.yml).")
    Path file;

    @Override
    public Integer call() throws Exception {
        if (file != null && !Files.isReadable(file)) {
            throw new BadInputException(file + ": no such readable file");
        }
        Method main;
        try {
            main = Class.forName(LAUNCHER).getMethod("main", String[].class);
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            throw new IllegalStateException("the editor is not part of this build (" + LAUNCHER + " missing)", e);
        }
        String[] args = file == null ? new String[0] : new String[] {file.toString()};
        try {
            main.invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception ex ? ex : e;
        }
        // Application.launch returns when the last window closes.
        return ExitCode.OK;
    }
}
