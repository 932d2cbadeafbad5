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
        EditorHeap.apply(); // ZGC's soft heap size (its launchers select ZGC)
        if (java.util.Arrays.stream(args).noneMatch(a -> !a.startsWith("--") || a.startsWith("--demo"))) {
            openShippedExample();
        }
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

    /** The shipped example the editor opens without a file argument (README: `./fabriclab gui`). */
    static final String EXAMPLE = "resources/examples/classic-leaf-spine.json";

    /**
     * Opens the shipped classic example, found next to the jar (target/../resources) or in the
     * working directory. It opens without a file, so Save asks where to write instead of
     * overwriting the example; without it the same fabric is built in code (DemoFabric).
     */
    private static void openShippedExample() {
        java.util.List<java.nio.file.Path> candidates = new java.util.ArrayList<>();
        try {
            java.nio.file.Path jar = java.nio.file.Path.of(Launcher.class.getProtectionDomain().getCodeSource()
                    .getLocation().toURI());
            if (jar.getParent() != null && jar.getParent().getParent() != null) {
                candidates.add(jar.getParent().getParent().resolve(EXAMPLE));
            }
        } catch (java.net.URISyntaxException | RuntimeException e) {
            // No code source (unusual class loader): the working directory is still tried.
        }
        candidates.add(java.nio.file.Path.of(EXAMPLE));
        for (java.nio.file.Path p : candidates) {
            if (java.nio.file.Files.isRegularFile(p)) {
                try {
                    FabricLabApp.setInitialFabric(io.fabriclab.io.FabricFiles.load(p), null);
                    return;
                } catch (io.fabriclab.io.InputException e) {
                    System.err.println("fabriclab gui: the shipped example does not load, opening the built-in one: "
                            + e.getMessage());
                }
            }
        }
    }

    /** Opens the editor on a given fabric (blocks until the window closes). */
    public static void open(Fabric fabric, String... args) {
        FabricLabApp.setInitialFabric(fabric);
        Application.launch(FabricLabApp.class, args);
    }
}
