package io.fabriclab.io;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.fabriclab.model.Fabric;
import io.fabriclab.topology.LeafSpineGenerator;

/**
 * Fuzz target for the third reader of untrusted files, the scenario reader. Property: for any
 * bytes it returns a scenario or throws {@link ScenarioException} (whose message names the file);
 * any other exception or error is a bug. The fabric is given (the classic lab fabric), so the
 * fuzzer spends its time on workloads, failures, QoS overrides and telemetry, not on file lookups.
 *
 * <p>The kept corpus in src/test/resources/io/fabriclab/io/ScenarioFuzzTestInputs/scenarioParse/
 * (the shipped scenarios plus inputs the fuzzer found) is replayed by {@link FuzzCorpusTest} in
 * every test run. Jazzer runs in the Maven profile {@code fuzz}: to fuzz for real,
 * {@code JAZZER_FUZZ=1 mvn -Pfuzz test -Dtest=ScenarioFuzzTest}.
 */
class ScenarioFuzzTest {
    private static final Fabric CLASSIC = LeafSpineGenerator.classic();

    @FuzzTest(maxDuration = "2m")
    void scenarioParse(byte[] data) {
        checkScenario(data);
    }

    /** The property of {@link #scenarioParse}: a scenario or a {@link ScenarioException} naming the file. */
    static void checkScenario(byte[] data) {
        String text = new String(data, StandardCharsets.UTF_8);
        try {
            assertNotNull(ScenarioJson.parse(text, "fuzz.scenario.json", Path.of("."), FabricReader.NONE, CLASSIC));
        } catch (ScenarioException e) {
            if (e.getMessage() == null || !e.getMessage().contains("fuzz.scenario.json")) {
                throw new AssertionError("a scenario error must name the file: " + e.getMessage(), e);
            }
        }
    }
}
