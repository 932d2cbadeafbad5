package io.fabriclab.ui;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.prefs.BackingStoreException;
import java.util.prefs.Preferences;

/**
 * The fabric files opened or saved most recently, newest first, kept in the user's Java
 * preferences so File > Open Recent survives restarts. Files that no longer exist are skipped.
 */
final class RecentFiles {
    static final int MAX = 8;
    private static final String KEY = "recentFiles";
    private final Preferences prefs;

    /** The user's list; {@code -Dfabriclab.prefs=NODE} picks another node (tests use a scratch one). */
    static RecentFiles user() {
        return new RecentFiles(Preferences.userRoot().node(System.getProperty("fabriclab.prefs", "io/fabriclab/editor")));
    }

    RecentFiles(Preferences prefs) {
        this.prefs = prefs;
    }

    List<Path> list() {
        List<Path> out = new ArrayList<>();
        for (String s : prefs.get(KEY, "").split("\n")) {
            if (!s.isBlank()) {
                Path p = Path.of(s);
                if (Files.isRegularFile(p)) {
                    out.add(p);
                }
            }
        }
        return out;
    }

    /** Moves a file to the top of the list. */
    void add(Path file) {
        Path abs = file.toAbsolutePath().normalize();
        List<Path> l = list();
        l.remove(abs);
        l.add(0, abs);
        while (l.size() > MAX) {
            l.remove(l.size() - 1);
        }
        prefs.put(KEY, String.join("\n", l.stream().map(Path::toString).toList()));
        try {
            prefs.flush();
        } catch (BackingStoreException e) {
            // The list is a convenience: a read-only preferences store only means it is not kept.
        }
    }

    void clear() {
        prefs.remove(KEY);
    }
}
