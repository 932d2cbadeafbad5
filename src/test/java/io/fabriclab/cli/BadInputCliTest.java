package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every broken file of the bad-input table (src/test/resources/bad-input, messages checked in
 * io.BadInputTest) through the commands a user runs: exit code 2, a message naming the file, and
 * never a stack trace. The files too big or too deep to commit (a 50 MB file, a 65 MB one, deeply
 * nested JSON and YAML) are generated here and go through the same commands, and convert.
 */
class BadInputCliTest {
    static Stream<Path> brokenFiles() throws IOException {
        return Files.list(Path.of("src/test/resources/bad-input"))
                .filter(p -> !p.getFileName().toString().equals("EXPECTED.txt")).sorted();
    }

    @ParameterizedTest
    @MethodSource("brokenFiles")
    void validateAndAnalyzeExitTwoWithAClearMessage(Path file) {
        for (String cmd : new String[] {"validate", "analyze"}) {
            CliRun r = CliRun.of(cmd, file.toString());
            assertEquals(ExitCode.BAD_INPUT, r.code(), cmd + " " + file + ": " + r.out() + r.err());
            assertTrue(r.err().contains(file.getFileName().toString()), r.err());
            assertFalse(r.err().contains("\tat ") || r.err().contains("Exception"), "no stack trace: " + r.err());
        }
    }

    @Test
    void generatedHugeAndDeeplyNestedFilesExitTwoWithTheLimitNamed(@TempDir Path tmp) throws IOException {
        // 50 MB of one string: parsed (under the 64 MB file limit), refused by the string-length limit.
        Path junk = tmp.resolve("junk50.json");
        try (Writer w = Files.newBufferedWriter(junk, StandardCharsets.UTF_8)) {
            w.write("{\"schemaVersion\": 1, \"name\": \"junk\", \"description\": \"");
            char[] chunk = new char[1 << 20];
            Arrays.fill(chunk, 'A');
            for (int i = 0; i < 50; i++) {
                w.write(chunk);
            }
            w.write("\", \"devices\": []}\n");
        }
        assertRefused(junk, "strings <= 1000000 characters");

        // 65 MB (sparse, never read): refused before parsing.
        Path huge = tmp.resolve("huge.json");
        try (RandomAccessFile f = new RandomAccessFile(huge.toFile(), "rw")) {
            f.setLength(65L * 1024 * 1024);
        }
        assertRefused(huge, "allowed: at most 64 MB");

        // 100,000 nested arrays: refused by the depth limit, no StackOverflowError.
        Path deep = tmp.resolve("deep.json");
        Files.writeString(deep, "{\"schemaVersion\": 1, \"name\": " + "[".repeat(100_000) + "]".repeat(100_000) + "}");
        assertRefused(deep, "allowed: nesting depth <= 64");

        Path deepYaml = tmp.resolve("deep.clab.yml");
        Files.writeString(deepYaml, "name: x\ntopology: " + "[".repeat(100_000) + "]".repeat(100_000) + "\n");
        assertRefused(deepYaml, "deep.clab.yml");
    }

    private static void assertRefused(Path file, String expected) {
        for (String[] cmd : new String[][] {{"validate", file.toString()}, {"analyze", file.toString()},
                {"convert", file.toString(), file.resolveSibling("out.json").toString()}}) {
            CliRun r = CliRun.of(cmd);
            String all = r.out() + r.err();
            assertEquals(ExitCode.BAD_INPUT, r.code(), String.join(" ", cmd) + ": " + all);
            assertTrue(r.err().contains(file.getFileName().toString()), r.err());
            assertTrue(r.err().contains(expected), "expected «" + expected + "» in: " + r.err());
            assertFalse(all.contains("\tat ") || all.contains("Exception") || all.contains("Error:"),
                    "no stack trace: " + all);
            assertFalse(Files.exists(file.resolveSibling("out.json")), "convert wrote nothing");
        }
    }
}
