package io.fabriclab.ui;

import java.util.prefs.Preferences;

/**
 * The user's renderer choice from View > Renderer, kept across sessions: "auto" (the pipeline
 * decides, {@link FabricCanvas.Renderer#forPipeline}), "fx" or "java2d".
 */
final class RendererPreference {
    private static final String KEY = "renderer";

    private RendererPreference() {
    }

    private static Preferences node() {
        return Preferences.userRoot().node(System.getProperty("fabriclab.prefs", "io/fabriclab/editor"));
    }

    /** The stored choice, "auto" when none (or when the preferences cannot be read). */
    static String get() {
        try {
            return node().get(KEY, "auto");
        } catch (RuntimeException e) {
            return "auto";
        }
    }

    static void set(String choice) {
        try {
            node().put(KEY, choice);
        } catch (RuntimeException e) {
            // Not kept for the next session; this window uses the choice anyway.
        }
    }
}
