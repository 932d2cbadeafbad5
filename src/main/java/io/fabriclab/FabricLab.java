package io.fabriclab;

import io.fabriclab.cli.Main;

/** The single entry point of the application jar: the CLI, whose `gui` command starts the editor. */
public final class FabricLab {
    private FabricLab() {
    }

    public static void main(String[] args) {
        System.exit(Main.run(args));
    }
}
