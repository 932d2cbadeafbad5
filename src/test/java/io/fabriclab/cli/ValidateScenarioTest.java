package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `fabriclab validate` on a scenario file reads it as `simulate` does (it used to read every
 * scenario as a fabric and report its fields as unknown fabric fields).
 */
class ValidateScenarioTest {
    @Test
    void aShippedScenarioValidatesWithItsFabricLinted() {
        CliRun r = CliRun.of("validate", "resources/scenarios/incast-pfc-only.json");
        assertTrue(r.code() == ExitCode.OK || r.code() == ExitCode.FINDINGS, r.err());
        assertTrue(r.out().contains("resources/scenarios/incast-pfc-only.json: scenario "), r.out());
        assertTrue(r.out().contains("transport rocev2"), r.out());
        assertFalse(r.err().contains("unknown field"), r.err());
    }

    @Test
    void aBadScenarioNamesTheFileAndTheJsonPath(@TempDir Path dir) throws Exception {
        String text = Files.readString(Path.of("resources/scenarios/incast-pfc-only.json"))
                .replaceFirst("\"workloads\"", "\"transport\": \"token-ring\", \"workloads\"");
        Path f = dir.resolve("bad.json");
        Files.writeString(f, text.replace("\"fabric\": \"../", "\"fabric\": \"" + Path.of("resources").toAbsolutePath() + "/"));
        CliRun r = CliRun.of("validate", f.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.out() + r.err());
        assertTrue(r.err().contains(f + ": $.transport"), r.err());
        assertTrue(r.err().contains("token-ring"), r.err());
    }
}
