package io.fabriclab.ui;

import java.util.prefs.Preferences;

/**
 * Whether the welcome page opens when the editor starts: on the very first start (nothing stored
 * yet), and afterwards only when the user ticked "Show this page when FabricLab starts" on it.
 * Kept in Java preferences next to the renderer choice.
 */
final class WelcomePreference {
    private static final String SEEN = "welcome.seen";
    private static final String AT_START = "welcome.atStart";

    private WelcomePreference() {
    }

    private static Preferences node() {
        return Preferences.userRoot().node(System.getProperty("fabriclab.prefs", "io/fabriclab/editor"));
    }

    /** True on the first start, or when the user asked for the page at every start. */
    static boolean showAtStart() {
        try {
            return !node().getBoolean(SEEN, false) || node().getBoolean(AT_START, false);
        } catch (RuntimeException e) {
            return false; // preferences unreadable: do not pop up a window at every start
        }
    }

    /** The page has been shown once: later starts go straight to the editor (unless asked otherwise). */
    static void markSeen() {
        try {
            node().putBoolean(SEEN, true);
        } catch (RuntimeException e) {
            // Shown again next time; nothing lost.
        }
    }

    static boolean atStart() {
        try {
            return node().getBoolean(AT_START, false);
        } catch (RuntimeException e) {
            return false;
        }
    }

    static void setAtStart(boolean on) {
        try {
            node().putBoolean(AT_START, on);
        } catch (RuntimeException e) {
            // This session only.
        }
    }
}
