package io.fabriclab.io;

import java.util.Objects;

/**
 * One thing wrong with an input file, located precisely enough that a user can fix it without a
 * debugger: which file, where in it (a JSON path such as {@code $.links[3].speedGbps}, or
 * {@code $} plus a line and column in the message for syntax errors), the offending value, what is
 * wrong, and what would have been accepted.
 *
 * @param file     the file as the user named it (or a source name such as "fabric.json")
 * @param jsonPath JSONPath-style location inside the file; {@code $} for the whole document
 * @param value    the offending value as it appears in the file (JSON text, possibly shortened); null if none
 * @param message  what is wrong, in one sentence without trailing period
 * @param allowed  what would be accepted; null when there is nothing useful to say
 */
public record InputProblem(String file, String jsonPath, String value, String message, String allowed) {

    /** Longest value echoed back in a message; longer values are cut with an ellipsis. */
    public static final int MAX_VALUE_CHARS = 80;

    public InputProblem {
        file = file == null || file.isBlank() ? "<input>" : file;
        jsonPath = jsonPath == null || jsonPath.isBlank() ? "$" : jsonPath;
        message = Objects.requireNonNull(message, "message");
        value = value == null ? null : shorten(value);
    }

    /** A problem with a value: the message says "{value} is not allowed" unless one is given. */
    public static InputProblem notAllowed(String file, String jsonPath, String value, String allowed) {
        return new InputProblem(file, jsonPath, value, shorten(String.valueOf(value)) + " is not allowed", allowed);
    }

    /** One line: {@code file: path: message; allowed: ...}. */
    public String render() {
        StringBuilder sb = new StringBuilder();
        sb.append(file).append(": ").append(jsonPath).append(": ").append(message);
        if (allowed != null && !allowed.isBlank()) {
            sb.append("; allowed: ").append(allowed);
        }
        return sb.toString();
    }

    /** Cuts a long value so a message stays one readable line; also makes control characters visible. */
    public static String shorten(String s) {
        if (s == null) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length() && sb.length() < MAX_VALUE_CHARS; i++) {
            char c = s.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
            if (pair) {
                sb.append(c).append(s.charAt(++i));
            } else if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || Character.getType(c) == Character.FORMAT
                    || Character.isSurrogate(c)) {
                // Control, format (bidi, zero-width) and half characters are shown, never obeyed.
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        if (sb.length() >= MAX_VALUE_CHARS && s.length() > MAX_VALUE_CHARS) {
            sb.setLength(MAX_VALUE_CHARS);
            sb.append("...");
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return render();
    }
}
