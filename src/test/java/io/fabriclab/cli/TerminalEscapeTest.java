package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.fabriclab.io.TerminalText;

/**
 * Text from input files never reaches the terminal as control sequences (OSC title/clipboard,
 * CSI clear screen, bidi overrides): every command prints through TerminalText. Ids holding
 * format or bidi characters and strings holding lone surrogates are refused by the reader, so the
 * PDF report, export-config and GraphML export no longer crash on them (exit 3).
 */
class TerminalEscapeTest {
    private static final String OSC_TITLE = "\u001b]0;pwned\u0007";
    private static final String CLEAR = "\u001b[2J";

    private static Path example(Path dir, String from, String to) throws Exception {
        String json = Files.readString(Path.of("resources/examples/leaf-spine-2x4-100g.json"));
        assertTrue(json.contains(from), from);
        Path f = dir.resolve("f.json");
        Files.writeString(f, json.replace(from, to));
        return f;
    }

    private static void assertNoRawControls(CliRun r) {
        String all = r.out() + r.err();
        for (int i = 0; i < all.length(); i++) {
            char c = all.charAt(i);
            boolean ok = c == '\n' || c == '\r' || c == '\t' || (c >= 0x20 && c != 0x7f && !(c >= 0x80 && c <= 0x9f)
                    && Character.getType(c) != Character.FORMAT);
            assertTrue(ok, String.format("raw U+%04X printed in: %s", (int) c, all));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"validate", "analyze"})
    void namesAndDescriptionsArePrintedEscaped(String command, @TempDir Path dir) throws Exception {
        Path f = example(dir, "\"name\": \"leaf-spine-2x4-100g\"", "\"name\": \"lab" + json(OSC_TITLE) + "\"");
        Files.writeString(f, Files.readString(f).replace("\"description\": \"2 leaves",
                "\"description\": \"" + json(CLEAR) + "\u202e2 leaves"));
        CliRun r = CliRun.of(command, f.toString());
        assertNoRawControls(r);
        if (command.equals("analyze")) {
            assertTrue(r.out().contains("lab\\u001b]0;pwned\\u0007"), r.out());
        }
    }

    @Test
    void unknownFieldNamesAndOptionValuesArePrintedEscaped(@TempDir Path dir) throws Exception {
        Path f = example(dir, "\"mtuBytes\": 4200,", "\"mtuBytes\": 4200, \"" + json(CLEAR) + "\": 1,");
        CliRun r = CliRun.of("validate", f.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertNoRawControls(r);
        r = CliRun.of("analyze", "--top", CLEAR, f.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertNoRawControls(r);
        r = CliRun.of("analyze", OSC_TITLE + ".json");
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertNoRawControls(r);
    }

    @ParameterizedTest
    @ValueSource(strings = {"\\u202e", "\\u200b", "\\u2066", "\\ufeff"})
    void idsWithFormatOrBidiCharactersAreRefused(String ch, @TempDir Path dir) throws Exception {
        Path f = example(dir, "\"id\": \"spine1\"", "\"id\": \"spine" + ch + "1\"");
        CliRun r = CliRun.of("validate", f.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("bad device id"), r.err());
        assertTrue(r.err().contains("format or bidirectional characters"), r.err());
        assertNoRawControls(r);
    }

    @ParameterizedTest
    @ValueSource(strings = {"report|-o|out.pdf", "export-config|--vendor|sonic|-o|cfg", "convert|OUT.graphml",
            "validate", "analyze"})
    void aLoneSurrogateIsRefusedByTheReaderNotACrashLater(String args, @TempDir Path dir) throws Exception {
        Path f = example(dir, "\"description\": \"2 leaves", "\"description\": \"\\ud800 2 leaves");
        java.util.List<String> argv = new java.util.ArrayList<>();
        String[] parts = args.split("\\|");
        argv.add(parts[0]);
        argv.add(f.toString());
        for (int i = 1; i < parts.length; i++) {
            argv.add(parts[i].equals("OUT.graphml") || parts[i].equals("out.pdf") || parts[i].equals("cfg")
                    ? dir.resolve(parts[i]).toString() : parts[i]);
        }
        CliRun r = CliRun.of(argv.toArray(String[]::new));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("$.description: holds a lone surrogate \\ud800"), r.err());
        assertFalse(r.err().contains("internal error"), r.err());
    }

    @Test
    void escapeKeepsNewlinesTabsAndWholeCharacters() {
        assertEquals("a\nb\tc\r\\u001b[2J\\u202e\\ud800 x \uD83D\uDE80", TerminalText.escape(
                "a\nb\tc\r\u001b[2J\u202e\ud800 x \uD83D\uDE80"));
    }

    /** A JSON string body for text with control characters. */
    private static String json(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.toCharArray()) {
            sb.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return sb.toString();
    }
}
