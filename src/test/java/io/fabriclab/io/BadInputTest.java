package io.fabriclab.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.Writer;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every broken file in src/test/resources/bad-input/ (listed with its expected message parts in
 * EXPECTED.txt) must be refused with an {@link InputException} whose every line names the file,
 * a JSON path and what is allowed; never with another exception or a stack trace. Files too big
 * to commit are generated into a temporary directory.
 */
class BadInputTest {

    private static Path dir() {
        try {
            return Path.of(BadInputTest.class.getResource("/bad-input/EXPECTED.txt").toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static Stream<Arguments> cases() throws IOException {
        return Files.readAllLines(dir().resolve("EXPECTED.txt")).stream()
                .filter(l -> !l.isBlank() && !l.startsWith("#"))
                .map(l -> {
                    List<String> parts = Arrays.stream(l.split(" \\| ")).map(String::strip).toList();
                    return Arguments.of(parts.get(0), parts.subList(1, parts.size()));
                });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void isRefusedWithFilePathAndWhatIsAllowed(String fileName, List<String> expectedParts) {
        Path file = dir().resolve(fileName);
        InputException e = assertThrows(InputException.class, () -> FabricFiles.load(file));
        assertWellFormed(e, file);
        for (String part : expectedParts) {
            assertTrue(e.getMessage().contains(part), "expected «" + part + "» in:\n" + e.getMessage());
        }
    }

    @Test
    void everyFileInTheDirectoryHasExpectations() throws IOException {
        Set<String> listed = cases().map(a -> (String) a.get()[0]).collect(Collectors.toCollection(TreeSet::new));
        Set<String> present;
        try (Stream<Path> s = Files.list(dir())) {
            present = s.map(p -> p.getFileName().toString()).filter(n -> !n.equals("EXPECTED.txt"))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
        assertEquals(present, listed);
        assertTrue(listed.size() >= 25, "at least 25 broken files, found " + listed.size());
    }

    /** One problem per line, each "file: $path: message; allowed: ...", and nothing that looks like a stack trace. */
    static void assertWellFormed(InputException e, Path file) {
        String msg = e.getMessage();
        assertFalse(msg.contains("\tat ") || msg.contains("Exception"), "no stack trace or exception names:\n" + msg);
        for (String line : msg.lines().toList()) {
            assertTrue(line.startsWith(file + ": $"), "line names the file, then a JSON path: " + line);
            assertTrue(line.contains("; allowed: "), "line says what is allowed: " + line);
        }
        assertEquals(e.problems().size(), msg.lines().count());
    }

    // ----- generated: too big or too deep to commit ----------------------------------------------

    @Test
    void aFileOver64MbIsRefusedBeforeParsing(@TempDir Path tmp) throws Exception {
        Path big = tmp.resolve("huge.json");
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(65L * 1024 * 1024); // sparse: costs no disk and is never read
        }
        InputException e = assertThrows(InputException.class, () -> FabricFiles.load(big));
        assertWellFormed(e, big);
        assertTrue(e.getMessage().contains("$: file is 65.0 MB, too large to be a fabric; allowed: at most 64 MB"), e.getMessage());
    }

    @Test
    void a50MbFileOfJunkIsRefusedWithTheLimitItBroke(@TempDir Path tmp) throws Exception {
        // 50 MB: under the file limit, so it is parsed, but its one string breaks the 1,000,000-character limit.
        Path big = tmp.resolve("junk50.json");
        try (Writer w = Files.newBufferedWriter(big, StandardCharsets.UTF_8)) {
            w.write("{\"schemaVersion\": 1, \"name\": \"junk\", \"description\": \"");
            char[] chunk = new char[1 << 20];
            Arrays.fill(chunk, 'A');
            for (int i = 0; i < 50; i++) {
                w.write(chunk);
            }
            w.write("\", \"devices\": []}\n");
        }
        assertTrue(Files.size(big) > 50L * 1024 * 1024);
        InputException e = assertThrows(InputException.class, () -> FabricFiles.load(big));
        assertWellFormed(e, big);
        assertTrue(e.getMessage().contains("$: document exceeds a size limit: String value length"), e.getMessage());
        assertTrue(e.getMessage().contains("strings <= 1000000 characters"), e.getMessage());
    }

    @Test
    void deeplyNestedJunkIsRefusedWithoutAStackOverflow(@TempDir Path tmp) throws Exception {
        Path deep = tmp.resolve("deep.json");
        Files.writeString(deep, "{\"schemaVersion\": 1, \"name\": " + "[".repeat(100_000) + "]".repeat(100_000) + "}");
        InputException e = assertThrows(InputException.class, () -> FabricFiles.load(deep));
        assertWellFormed(e, deep);
        assertTrue(e.getMessage().contains("nesting depth"), e.getMessage());
        assertTrue(e.getMessage().contains("allowed: nesting depth <= 64"), e.getMessage());
    }

    @Test
    void deeplyNestedYamlIsRefusedWithoutAStackOverflow(@TempDir Path tmp) throws Exception {
        Path deep = tmp.resolve("deep.clab.yml");
        Files.writeString(deep, "name: x\ntopology: " + "[".repeat(100_000) + "]".repeat(100_000) + "\n");
        InputException e = assertThrows(InputException.class, () -> FabricFiles.load(deep));
        assertWellFormed(e, deep);
    }

    @Test
    void aYamlAliasBombIsNotExpanded(@TempDir Path tmp) throws Exception {
        // "Billion laughs": each level repeats the previous one ten times, 10^9 strings if expanded.
        // Aliases are resolved (containerlab files use them), so expansion is bounded: refused at
        // YamlTree.MAX_VALUES values, before memory runs out.
        StringBuilder sb = new StringBuilder("name: bomb\na0: &a0 [\"lol\"]\n");
        for (int i = 1; i <= 9; i++) {
            sb.append("a").append(i).append(": &a").append(i).append(" [")
                    .append(String.join(", ", java.util.Collections.nCopies(10, "*a" + (i - 1)))).append("]\n");
        }
        sb.append("topology: {nodes: {x: {kind: linux}}}\n");
        Path bomb = tmp.resolve("bomb.clab.yml");
        Files.writeString(bomb, sb);
        InputException e = assertThrows(InputException.class, () -> FabricFiles.load(bomb));
        assertTrue(e.getMessage().contains("expands to more than " + YamlTree.MAX_VALUES + " values"), e.getMessage());
    }

    @Test
    void moreThanAMillionDevicesAreRefused(@TempDir Path tmp) throws Exception {
        Path many = tmp.resolve("many.json");
        try (Writer w = Files.newBufferedWriter(many, StandardCharsets.UTF_8)) {
            w.write("{\"schemaVersion\": 1, \"name\": \"many\", \"devices\": [{}");
            for (int i = 1; i < 1_000_001; i++) {
                w.write(",{}");
            }
            w.write("]}");
        }
        InputException e = assertThrows(InputException.class, () -> FabricFiles.load(many));
        assertWellFormed(e, many);
        assertTrue(e.getMessage().contains("$.devices: too many devices; allowed: at most 1000000"), e.getMessage());
    }

    @Test
    void thousandsOfProblemsAreCappedNotExhaustingMemory() {
        StringBuilder sb = new StringBuilder("{\"schemaVersion\": 1, \"name\": \"x\", \"devices\": [");
        for (int i = 0; i < 5000; i++) {
            sb.append(i == 0 ? "" : ",").append("{\"id\": \"d").append(i).append("\", \"role\": \"router\"}");
        }
        sb.append("]}");
        InputException e = assertThrows(InputException.class, () -> FabricJson.read(sb.toString(), "x.json"));
        // 5000 bad roles, collection stops after 1000 problems and says so in a 1001st.
        assertEquals(Problems.MAX_PROBLEMS + 1, e.problems().size());
        assertTrue(e.getMessage().endsWith("... and " + (Problems.MAX_PROBLEMS + 1 - InputException.MAX_RENDERED)
                + " more problems"));
    }
}
