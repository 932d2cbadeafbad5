package io.fabriclab.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.fabriclab.model.Fabric;

/**
 * Fuzz targets for the two readers of untrusted files. Property: for any bytes, the reader either
 * returns a fabric or throws {@link InputException}; any other exception (or error) is a bug. A
 * fabric that was read must also survive its own writer: written, read again, and written again
 * it gives the same text; and it must convert to the other format and back.
 *
 * <p>The kept corpus in src/test/resources/io/fabriclab/io/FabricFuzzTestInputs/&lt;method&gt;/ is
 * replayed by {@link FuzzCorpusTest} in every test run (plain JUnit: Jazzer's start-up cost 35 s).
 * Jazzer itself runs in the Maven profile {@code fuzz}: {@code mvn -Pfuzz test} replays the corpus
 * through Jazzer; {@code JAZZER_FUZZ=1 mvn -Pfuzz test -Dtest=FabricFuzzTest#fabricJsonRead}
 * fuzzes for real (one method per run) and adds what it finds to the corpus.
 */
class FabricFuzzTest {

    @FuzzTest(maxDuration = "2m")
    void fabricJsonRead(byte[] data) throws Exception {
        checkFabricJson(data);
    }

    @FuzzTest(maxDuration = "2m")
    void containerlabRead(byte[] data) throws Exception {
        checkContainerlab(data);
    }

    /** The property of {@link #fabricJsonRead}: a fabric or an {@link InputException}, and a stable round trip. */
    static void checkFabricJson(byte[] data) throws Exception {
        String text = new String(data, StandardCharsets.UTF_8);
        Fabric f;
        try {
            f = FabricJson.read(text, "fuzz.json");
        } catch (InputException e) {
            assertFalse(e.problems().isEmpty());
            return;
        }
        String written = FabricJson.write(f);
        assertEquals(written, FabricJson.write(FabricJson.read(written, "rewritten.json")));
        // Every fabric file converts to containerlab and back (QoS and layout aside).
        Fabric clab = ContainerlabYaml.read(ContainerlabYaml.write(f), "converted.clab.yml");
        assertEquals(f.devices().size(), clab.devices().size());
        assertEquals(f.linkCount(), clab.linkCount());
    }

    /** The property of {@link #containerlabRead}. */
    static void checkContainerlab(byte[] data) throws Exception {
        String text = new String(data, StandardCharsets.UTF_8);
        Fabric f;
        try {
            f = ContainerlabYaml.read(text, "fuzz.clab.yml");
        } catch (InputException e) {
            assertFalse(e.problems().isEmpty());
            return;
        }
        String written = ContainerlabYaml.write(f);
        assertEquals(written, ContainerlabYaml.write(ContainerlabYaml.read(written, "rewritten.clab.yml")));
        // Everything a containerlab file can hold must also fit the FabricLab file.
        FabricJson.read(FabricJson.write(f), "converted.json");
    }
}
