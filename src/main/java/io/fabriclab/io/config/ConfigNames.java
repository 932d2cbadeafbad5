package io.fabriclab.io.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/** Names and index lists the way switch configurations write them. */
public final class ConfigNames {

    private ConfigNames() {
    }

    /**
     * A profile name made safe as a configuration object name: letters, digits, '-' and '_' kept,
     * anything else becomes '_', starting with a letter or digit (SONiC's WRED profile pattern).
     */
    public static String token(String name) {
        StringBuilder b = new StringBuilder();
        for (char c : name.toCharArray()) {
            b.append(c < 128 && (Character.isLetterOrDigit(c) || c == '-' || c == '_') ? c : '_');
        }
        if (b.isEmpty() || !Character.isLetterOrDigit(b.charAt(0))) {
            b.insert(0, 'P');
        }
        return b.toString();
    }

    /** Ascending integers as SONiC key ranges: {3, 4} is ["3-4"], {0, 1, 2, 5, 7} is ["0-2", "5", "7"]. */
    public static List<String> ranges(Collection<Integer> values) {
        List<String> out = new ArrayList<>();
        Integer start = null;
        Integer prev = null;
        for (int v : new TreeSet<>(values)) {
            if (start == null) {
                start = v;
            } else if (v != prev + 1) {
                out.add(range(start, prev));
                start = v;
            }
            prev = v;
        }
        if (start != null) {
            out.add(range(start, prev));
        }
        return out;
    }

    private static String range(int a, int b) {
        return a == b ? Integer.toString(a) : a + "-" + b;
    }
}
