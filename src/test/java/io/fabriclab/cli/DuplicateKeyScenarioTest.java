package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;


/**
 * Issue 31, one reader: a scenario with {@code "seed": 1, "seed": 2} is refused by every command
 * that reads scenarios with simulate's message (compare once ran it, exit 0, because it parsed the
 * file with a plain Jackson mapper first). The live view and the Sweep window: ui.live.StrictScenarioReadTest.
 */
class DuplicateKeyScenarioTest {
    public static final String MESSAGE = ": $: not valid JSON at line 2, column 19: Duplicate field 'seed'; allowed: a JSON document";

    @TempDir
    Path dir;

    private Path scenario() throws IOException {
        Files.copy(Path.of("resources/examples/classic-leaf-spine.json"), dir.resolve("f.json"));
        return Files.writeString(dir.resolve("s.json"), """
                {"schemaVersion": 1, "name": "dup", "fabric": "f.json", "profile": "pfc-only",
                 "seed": 1, "seed": 2,
                 "workloads": [{"type": "incast", "senders": ["server02:nic0", "server03:nic0"],
                                "receiver": "server01:nic0", "bytesPerSender": 100000}]}
                """);
    }

    @Test
    void everyCommandThatReadsAScenarioRefusesItWithOneMessage() throws Exception {
        Path s = scenario();
        Path sweep = Files.writeString(dir.resolve("sw.json"), "{\"schemaVersion\": 1, \"scenario\": \"s.json\", "
                + "\"metrics\": [\"drops\"], \"parameters\": [{\"path\": \"qos.pfc.xoffBytes\", \"values\": [200000]}]}");
        String expected = "error: " + s + MESSAGE;
        for (List<String> args : List.of(
                List.of("simulate", s.toString(), "-o", dir.resolve("r.json").toString(), "--quiet"),
                List.of("compare", s.toString(), "--quiet"),
                List.of("compare", s.toString(), "--quiet", "--engine", "flow"),
                List.of("simulate", s.toString(), "-o", dir.resolve("r.json").toString(), "--engine", "flow", "--quiet"),
                List.of("report", s.toString(), "-o", dir.resolve("r.html").toString(), "--simulate", "--engine", "flow", "--quiet"),
                List.of("bench", "sim", "--scenario", s.toString(), "--runs", "1"),
                List.of("report", s.toString(), "-o", dir.resolve("r.html").toString(), "--quiet"),
                List.of("validate", s.toString()),
                List.of("sweep", sweep.toString(), "-o", dir.resolve("out").toString(), "--quiet"),
                List.of("tune", s.toString(), "-o", dir.resolve("t").toString(), "--objective", "drops"))) {
            CliRun r = CliRun.of(args.toArray(String[]::new));
            assertEquals(ExitCode.BAD_INPUT, r.code(), args + ": " + r.err());
            assertEquals(expected, r.err().lines().filter(l -> l.startsWith("error: ")).findFirst().orElse(r.err()),
                    args.get(0));
        }
        assertFalse(Files.exists(dir.resolve("r.json")));
        assertFalse(Files.exists(dir.resolve("r.html")));
    }
}
