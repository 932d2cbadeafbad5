package io.fabriclab.io;

import java.util.regex.Pattern;

/** Builds JSONPath-style locations ({@code $.devices[2].ports[0].name}) for problem messages. */
final class JsonPaths {
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");

    private JsonPaths() {
    }

    static String field(String parent, String name) {
        if (IDENTIFIER.matcher(name).matches()) {
            return parent + "." + name;
        }
        return parent + "['" + InputProblem.shorten(name).replace("\\", "\\\\").replace("'", "\\'") + "']";
    }

    static String index(String parent, int i) {
        return parent + "[" + i + "]";
    }
}
