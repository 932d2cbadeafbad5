package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bad inputs of issue 18 (items 3-8 and 11) through the CLI, as a user runs them, and the
 * extreme-but-valid ones: each bad input must be a clean error (exit 2, the file or option named,
 * no stack trace, no "internal error"); each extreme-but-valid input must run or be refused up
 * front with its size named. The counts are printed at the end (see the surefire output).
 */
class BadInputCountTest {
    static final Path FABRIC = Path.of("resources/examples/leaf-spine-2x4-100g.json").toAbsolutePath();
    static final AtomicInteger TRIED = new AtomicInteger();
    static final AtomicInteger CLEAN = new AtomicInteger();
    static final AtomicInteger VALID_TRIED = new AtomicInteger();
    static final AtomicInteger VALID_OK = new AtomicInteger();

    /** A case: a name, the file to write (null for none), and the command with FILE and DIR placeholders. */
    static final class Case {
        final String name;
        final String fileName;
        String content;
        String command;
        byte[] bytes;
        String sideName;
        String sideContent;

        Case(String name, String fileName, String content, String command) {
            this.name = name;
            this.fileName = fileName;
            this.content = content;
            this.command = command;
        }

        String name() {
            return name;
        }

        Case withContent(java.util.function.UnaryOperator<String> edit) {
            content = edit.apply(content);
            return this;
        }

        Case withCommand(String c) {
            command = c;
            return this;
        }

        Case withBytes(byte[] b) {
            bytes = b;
            return this;
        }

        Case withSideFile(String name, String text) {
            sideName = name;
            sideContent = text;
            return this;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static final String SCENARIO = """
            {"schemaVersion": 1, "name": "base", "fabric": "FABRIC", "seed": 7,
             "qos": {"pfc": {"xoffBytes": 1000000, "xonBytes": 800000}},
             "telemetry": {"sampleIntervalUs": 5},
             "workloads": [
               {"type": "incast", "senders": ["server2:nic0", "server3:nic0"], "receiver": "server1:nic0",
                "bytesPerSender": 20000, "startUs": 0},
               {"type": "flows", "flows": [{"src": "server4:nic0", "dst": "server5:nic0", "bytes": 10000}]}]}
            """.replace("FABRIC", FABRIC.toString().replace("\\", "\\\\"));

    static Case scenario(String name, String from, String to) {
        assertTrue(SCENARIO.contains(from), from);
        return new Case("simulate: " + name, "s.json", SCENARIO.replace(from, to), "simulate FILE -o DIR/out.json --quiet");
    }

    static Case qos(String name, String qos) {
        return scenario("qos " + name, "\"qos\": {\"pfc\": {\"xoffBytes\": 1000000, \"xonBytes\": 800000}},", "\"qos\": " + qos + ",");
    }

    static String fabric(String from, String to) throws IOException {
        String json = Files.readString(FABRIC);
        assertTrue(json.contains(from), from);
        return json.replace(from, to);
    }

    static Stream<Case> badInputs() throws IOException {
        List<Case> c = new ArrayList<>();
        // 18.3: QoS overrides
        for (String[] q : new String[][] {{"dcqcn.g -1", "{\"dcqcn\": {\"g\": -1}}"}, {"dcqcn.g 2", "{\"dcqcn\": {\"g\": 2}}"},
                {"dcqcn.g NaN", "{\"dcqcn\": {\"g\": \"NaN\"}}"}, {"initialAlpha NaN", "{\"dcqcn\": {\"initialAlpha\": \"NaN\"}}"},
                {"minRateMbps -1000", "{\"dcqcn\": {\"minRateMbps\": -1000}}"}, {"maxCutFraction 2", "{\"dcqcn\": {\"maxCutFraction\": 2}}"},
                {"buffer.alpha -1", "{\"buffer\": {\"alpha\": -1}}"}, {"buffer.mode STATIC", "{\"buffer\": {\"mode\": \"STATIC\"}}"},
                {"ecn pmax NaN", "{\"ecn\": {\"classes\": {\"3\": {\"kminBytes\": 1, \"kmaxBytes\": 2, \"pmax\": \"NaN\"}}}}"},
                {"pfc.watchdogUs -5", "{\"pfc\": {\"watchdogUs\": -5}}"}, {"strictPriorityClasses [9,-1]", "{\"scheduler\": {\"strictPriorityClasses\": [9, -1]}}"},
                {"xon above xoff", "{\"pfc\": {\"xonBytes\": 90000000}}"}, {"dwrrWeights 2", "{\"scheduler\": {\"dwrrWeights\": [1, 2]}}"},
                {"unknown qos field", "{\"dcqcn\": {\"gain\": 1}}"}, {"poolBytes 0", "{\"buffer\": {\"poolBytes\": 0}}"}}) {
            c.add(qos(q[0], q[1]));
        }
        // 17.7 and 18.11: scenario strictness and bounds
        c.add(scenario("duplicate seed", "\"seed\": 7,", "\"seed\": 1, \"seed\": 2,"));
        c.add(new Case("simulate: trailing garbage", "s.json", SCENARIO + "{\"x\": 1}", "simulate FILE -o DIR/out.json --quiet"));
        c.add(scenario("bytesPerSender 2^63-1", "\"bytesPerSender\": 20000", "\"bytesPerSender\": 9223372036854775807"));
        c.add(scenario("sampleIntervalUs 1e-9", "\"sampleIntervalUs\": 5", "\"sampleIntervalUs\": 1e-9"));
        c.add(scenario("mtuBytes 20000", "\"seed\": 7,", "\"seed\": 7, \"mtuBytes\": 20000,"));
        c.add(scenario("priority 8", "\"startUs\": 0}", "\"startUs\": 0, \"priority\": 8}"));
        c.add(scenario("after cycle", "{\"src\": \"server4:nic0\", \"dst\": \"server5:nic0\", \"bytes\": 10000}",
                "{\"id\": \"a\", \"after\": [\"b\"], \"src\": \"server4:nic0\", \"dst\": \"server5:nic0\", \"bytes\": 10000},"
                        + "{\"id\": \"b\", \"after\": [\"a\"], \"src\": \"server5:nic0\", \"dst\": \"server4:nic0\", \"bytes\": 10000}"));
        c.add(scenario("after unknown id", "{\"src\": \"server4:nic0\", \"dst\": \"server5:nic0\", \"bytes\": 10000}",
                "{\"after\": [\"nobody\"], \"src\": \"server4:nic0\", \"dst\": \"server5:nic0\", \"bytes\": 10000}"));
        c.add(scenario("background CDF 1e308", "{\"type\": \"flows\"", "{\"type\": \"background\", \"load\": 0.5, \"durationUs\": 100, "
                + "\"sizes\": [[1000, 0], [1e308, 100]]}, {\"type\": \"flows\""));
        c.add(scenario("background 2.5e8+ flows", "{\"type\": \"flows\"", "{\"type\": \"background\", \"load\": 1, \"durationUs\": 1e9, "
                + "\"sizes\": [[64, 0], [64, 100]]}, {\"type\": \"flows\""));
        c.add(scenario("telemetry 1e15 samples", "\"seed\": 7,", "\"seed\": 7, \"durationUs\": 1e9, \"telemetry\": {\"sampleIntervalUs\": 0.000001},")
                .withContent(s -> s.replace("\"telemetry\": {\"sampleIntervalUs\": 5},", "")));
        // 18.6: bidi / format characters in ids, lone surrogates anywhere
        for (String ch : new String[] {"\\u202e", "\\u200b", "\\u2066", "\\ufeff"}) {
            c.add(new Case("validate: id with " + ch, "f.json", fabric("\"id\": \"spine1\"", "\"id\": \"spine" + ch + "1\""), "validate FILE"));
        }
        String surrogate = fabric("\"description\": \"2 leaves", "\"description\": \"\\ud800 2 leaves");
        for (String cmd : new String[] {"validate FILE", "analyze FILE", "convert FILE DIR/o.graphml", "report FILE -o DIR/r.pdf --quiet",
                "export-config FILE --vendor sonic -o DIR/cfg"}) {
            c.add(new Case(cmd.split(" ")[0] + ": lone surrogate", "f.json", surrogate, cmd));
        }
        // 18.4: YAML
        c.add(new Case("validate: YAML second document", "t.clab.yml", "name: a\ntopology:\n  nodes:\n    a: {kind: linux}\n---\nname: b\n", "validate FILE"));
        StringBuilder lol = new StringBuilder("name: lol\na0: &a0 [x, x]\n");
        for (int i = 1; i <= 40; i++) {
            lol.append("a").append(i).append(": &a").append(i).append(" [*a").append(i - 1).append(", *a").append(i - 1).append("]\n");
        }
        c.add(new Case("validate: YAML billion laughs", "t.clab.yml", lol.toString(), "validate FILE"));
        c.add(new Case("validate: YAML recursive alias", "t.clab.yml", "name: r\ntopology: &t\n  nodes:\n    a: *t\n", "validate FILE"));
        c.add(new Case("validate: YAML duplicate node", "t.clab.yml", "name: d\ntopology:\n  nodes:\n    a: {kind: linux}\n    a: {kind: srl}\n", "validate FILE"));
        // 18.5: an annotations side file that cannot be merged stops the export
        c.add(new Case("convert: annotations with a trailing comma", "f.json", Files.readString(FABRIC),
                "convert FILE DIR/lab.clab.yml").withSideFile("lab.clab.yml.annotations.json", "{\"freeTextAnnotations\": [],}"));
        // 18.8 and 18.11: options
        c.add(new Case("analyze --top -5", "f.json", Files.readString(FABRIC), "analyze FILE --top -5"));
        for (String d : new String[] {"1e308", "-1", "NaN", "Infinity"}) {
            c.add(scenario("report --duration-us " + d, "\"seed\": 7,", "\"seed\": 7,").withCommand("report FILE --simulate --duration-us " + d + " -o DIR/r.html --quiet"));
        }
        c.add(new Case("bench sim --runs 0", null, null, "bench sim --runs 0"));
        c.add(new Case("bench sim --runs -1", null, null, "bench sim --runs -1"));
        // price books and results (17.7, 18.11)
        c.add(new Case("analyze: price book not UTF-8", "p.json", null, "analyze " + FABRIC + " --price-book FILE")
                .withBytes(new byte[] {'{', '"', (byte) 0xff, '"', ':', '1', '}'}));
        c.add(new Case("analyze: price book is a directory", null, null, "analyze " + FABRIC + " --price-book DIR"));
        c.add(new Case("analyze: price book duplicate key", "p.json", "{\"schemaVersion\": 1, \"currency\": \"USD\", \"currency\": \"EUR\", \"prices\": {}}",
                "analyze " + FABRIC + " --price-book FILE"));
        c.add(new Case("report: results with duplicate keys", "r.json", "{\"kind\": \"fabriclab-results\", \"kind\": \"x\"}",
                "report " + FABRIC + " --results FILE -o DIR/r.html --quiet"));
        c.add(new Case("report: results with trailing garbage", "r.json", "{\"kind\": \"fabriclab-results\"} x",
                "report " + FABRIC + " --results FILE -o DIR/r.html --quiet"));
        return c.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInputs")
    void badInputIsACleanError(Case c, @TempDir Path dir) throws Exception {
        TRIED.incrementAndGet();
        CliRun r = run(c, dir);
        assertEquals(ExitCode.BAD_INPUT, r.code(), c + ": " + r.out() + r.err());
        assertFalse(r.err().contains("internal error") || r.err().contains("\tat ") || r.err().contains("Exception"),
                "clean: " + r.err());
        assertFalse(r.err().isBlank(), "says why");
        CLEAN.incrementAndGet();
    }

    static Stream<Case> extremeButValid() throws IOException {
        List<Case> c = new ArrayList<>();
        StringBuilder chain = new StringBuilder("name: chain\ntopology:\n  nodes:\n");
        for (int i = 0; i < 5000; i++) {
            chain.append("    s").append(i).append(": {kind: sonic-vs}\n");
        }
        chain.append("    h0: {kind: linux}\n    h1: {kind: linux}\n  links:\n");
        for (int i = 1; i < 5000; i++) {
            chain.append("    - endpoints: [\"s").append(i - 1).append(":b\", \"s").append(i).append(":a\"]\n");
        }
        chain.append("    - endpoints: [\"h0:eth1\", \"s0:h\"]\n    - endpoints: [\"h1:eth1\", \"s4999:h\"]\n");
        c.add(new Case("analyze: 5,000-switch chain (bisection)", "chain.clab.yml", chain.toString(), "analyze FILE --no-failure-sweep"));
        c.add(new Case("analyze: escape sequences in the name", "f.json",
                fabric("\"name\": \"leaf-spine-2x4-100g\"", "\"name\": \"\\u001b]0;pwned\\u0007\\u001b[2J\""), "analyze FILE"));
        c.add(new Case("validate: YAML merge keys and aliases", "m.clab.yml", """
                name: m
                x-d: &d {kind: linux, image: alpine:3}
                topology:
                  nodes:
                    a: {<<: *d}
                    b: {<<: *d, image: alpine:4}
                  links:
                    - endpoints: ["a:eth1", "b:eth1"]
                """, "validate FILE"));
        c.add(new Case("convert: annotations with a byte-order mark kept", "f.json", Files.readString(FABRIC),
                "convert FILE DIR/lab.clab.yml").withSideFile("lab.clab.yml.annotations.json", "\uFEFF{\"freeTextAnnotations\": [{\"id\": \"t\", \"text\": \"keep\"}]}"));
        c.add(scenario("report --simulate --duration-us 1e9 (bounded)", "\"seed\": 7,", "\"seed\": 7,")
                .withCommand("report FILE --simulate --duration-us 1000 -o DIR/r.html --quiet"));
        return c.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("extremeButValid")
    void extremeButValidInputRunsOrIsRefusedWithItsSize(Case c, @TempDir Path dir) throws Exception {
        VALID_TRIED.incrementAndGet();
        CliRun r = run(c, dir);
        assertFalse(r.err().contains("internal error") || r.err().contains("\tat "), c + ": " + r.err());
        assertTrue(r.code() == ExitCode.OK || r.code() == ExitCode.FINDINGS
                || (r.code() == ExitCode.BAD_INPUT && r.err().matches("(?s).*\\d{4,}.*")), c + ": " + r.code() + " " + r.err());
        if (c.name().contains("byte-order mark")) {
            assertTrue(Files.readString(dir.resolve("lab.clab.yml.annotations.json")).contains("keep"));
        }
        VALID_OK.incrementAndGet();
    }

    @AfterAll
    static void counts() {
        System.out.printf("bad inputs tried: %d, clean errors: %d, bad outcomes: %d; extreme-but-valid tried: %d, "
                + "ran or refused with their size: %d, bad outcomes: %d%n", TRIED.get(), CLEAN.get(), TRIED.get() - CLEAN.get(),
                VALID_TRIED.get(), VALID_OK.get(), VALID_TRIED.get() - VALID_OK.get());
    }

    private static CliRun run(Case c, Path dir) throws IOException {
        Path file = null;
        if (c.fileName != null) {
            file = dir.resolve(c.fileName);
            if (c.bytes != null) {
                Files.write(file, c.bytes);
            } else {
                Files.writeString(file, c.content, StandardCharsets.UTF_8);
            }
        }
        if (c.sideName != null) {
            Files.writeString(dir.resolve(c.sideName), c.sideContent, StandardCharsets.UTF_8);
        }
        String cmd = c.command.replace("FILE", file == null ? "" : file.toString()).replace("DIR", dir.toString());
        return CliRun.of(cmd.trim().split(" +"));
    }
}
