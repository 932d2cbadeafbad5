package io.fabriclab.io;

import java.io.FilterWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;

/**
 * Everything a command prints goes through here, so text from input files (names, descriptions,
 * models, labels, collective names, unknown field names) cannot drive the terminal: an OSC
 * sequence that sets the window title or writes the clipboard (OSC 52), {@code CSI 2J} that
 * clears the screen, a bidirectional override that reverses what follows. Control characters
 * other than newline, carriage return (progress bars) and tab, C1 controls (U+0080-U+009F),
 * Unicode format characters (category Cf: U+200B-U+200F, U+202A-U+202E, U+2066-U+2069, U+FEFF)
 * and lone surrogates are written as a visible {@code \u001b} escape instead.
 *
 * <p>The one terminal-safe printer of FabricLab: the command line ({@code cli.Main}) and the Spark
 * job ({@code fabriclab-spark}) both print through it.
 */
public final class TerminalText {
    private TerminalText() {
    }

    /** A writer printing through {@code out} with every unsafe character escaped; idempotent. */
    public static PrintWriter safe(PrintWriter out) {
        if (out instanceof SafePrintWriter) {
            return out;
        }
        return new SafePrintWriter(new Escaping(out));
    }

    /** The text as it would be printed. */
    public static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                sb.append(c).append(s.charAt(++i));
            } else if (unsafe(c) || Character.isSurrogate(c)) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    public static boolean unsafe(char c) {
        if (c == '\n' || c == '\r' || c == '\t') {
            return false;
        }
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || Character.getType(c) == Character.FORMAT;
    }

    private static final class SafePrintWriter extends PrintWriter {
        SafePrintWriter(Writer w) {
            super(w, true);
        }
    }

    /** Escapes as it writes; a high surrogate waits for the next character to see whether it is paired. */
    private static final class Escaping extends FilterWriter {
        private char pendingHigh;

        Escaping(Writer out) {
            super(out);
        }

        private void append(char ch, StringBuilder sb) {
            if (pendingHigh != 0) {
                char high = pendingHigh;
                pendingHigh = 0;
                if (Character.isLowSurrogate(ch)) {
                    sb.append(high).append(ch);
                    return;
                }
                sb.append(String.format("\\u%04x", (int) high));
            }
            if (Character.isHighSurrogate(ch)) {
                pendingHigh = ch;
            } else if (Character.isLowSurrogate(ch) || unsafe(ch)) {
                sb.append(String.format("\\u%04x", (int) ch));
            } else {
                sb.append(ch);
            }
        }

        @Override
        public void write(int c) throws IOException {
            StringBuilder sb = new StringBuilder(8);
            append((char) c, sb);
            out.write(sb.toString());
        }

        @Override
        public void write(char[] cbuf, int off, int len) throws IOException {
            StringBuilder sb = new StringBuilder(len + 8);
            for (int i = off; i < off + len; i++) {
                append(cbuf[i], sb);
            }
            out.write(sb.toString());
        }

        @Override
        public void write(String str, int off, int len) throws IOException {
            StringBuilder sb = new StringBuilder(len + 8);
            for (int i = off; i < off + len; i++) {
                append(str.charAt(i), sb);
            }
            out.write(sb.toString());
        }

        @Override
        public void close() throws IOException {
            if (pendingHigh != 0) {
                out.write(String.format("\\u%04x", (int) pendingHigh));
                pendingHigh = 0;
            }
            super.close();
        }
    }
}
