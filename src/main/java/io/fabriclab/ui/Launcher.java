package io.fabriclab.ui;

import io.fabriclab.model.Fabric;
import javafx.application.Application;

/**
 * Entry point for classpath runs and packaged apps: a main class that does not extend
 * Application, so the JavaFX runtime check does not refuse to start from an unnamed module.
 */
public final class Launcher {
    private Launcher() {
    }

    /** Options: {@code --demo=classic} (default) or {@code --demo=rail} (a 16,384-GPU rail-optimised fabric) or {@code --demo=rail-small}. */
    public static void main(String[] args) {
        for (String a : args) {
            if (!a.startsWith("--")) {
                java.nio.file.Path file = java.nio.file.Path.of(a);
                try {
                    FabricLabApp.setInitialFabric(io.fabriclab.io.FabricFiles.load(file), file);
                } catch (io.fabriclab.io.InputException e) {
                    // The file is the user's mistake: say what is wrong and where, open nothing (exit code 2, bad input).
                    System.err.println("fabriclab gui: " + e.getMessage());
                    System.exit(2);
                }
            } else if (a.equals("--demo=rail")) {
                FabricLabApp.setInitialFabric(DemoFabric.railOptimized(64, 32, 16));
            } else if (a.startsWith("--demo=rail-small")) {
                FabricLabApp.setInitialFabric(DemoFabric.railOptimized(2, 8, 4));
            }
        }
        Application.launch(FabricLabApp.class, args);
    }

    /** Opens the editor on a given fabric (blocks until the window closes). */
    public static void open(Fabric fabric, String... args) {
        FabricLabApp.setInitialFabric(fabric);
        Application.launch(FabricLabApp.class, args);
    }
}
