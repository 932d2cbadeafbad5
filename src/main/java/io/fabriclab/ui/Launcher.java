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

    public static void main(String[] args) {
        Application.launch(FabricLabApp.class, args);
    }

    /** Opens the editor on a given fabric (blocks until the window closes). */
    public static void open(Fabric fabric, String... args) {
        FabricLabApp.setInitialFabric(fabric);
        Application.launch(FabricLabApp.class, args);
    }
}
