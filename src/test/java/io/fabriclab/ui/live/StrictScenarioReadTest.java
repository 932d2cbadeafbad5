package io.fabriclab.ui.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fabriclab.io.FabricJson;
import io.fabriclab.model.Fabric;
import io.fabriclab.ui.SweepModel;

/**
 * Issue 31, one reader: the live view's scenario file and the Sweep window read a scenario through
 * the strict reader, so {@code "seed": 1, "seed": 2} is refused with simulate's message (both
 * parsed it with a plain Jackson mapper and rewrote it before the strict reader saw it).
 */
class StrictScenarioReadTest {
    private static final String MESSAGE = ": $: not valid JSON at line 2, column 19: Duplicate field 'seed'; allowed: a JSON document";

    @Test
    void theLiveViewAndTheSweepWindowRefuseADuplicateKey(@TempDir Path dir) throws Exception {
        Files.copy(Path.of("resources/examples/classic-leaf-spine.json"), dir.resolve("f.json"));
        Path s = Files.writeString(dir.resolve("s.json"), """
                {"schemaVersion": 1, "name": "dup", "fabric": "f.json", "profile": "pfc-only",
                 "seed": 1, "seed": 2,
                 "workloads": [{"type": "incast", "senders": ["server02:nic0", "server03:nic0"],
                                "receiver": "server01:nic0", "bytesPerSender": 100000}]}
                """);
        Fabric f = FabricJson.read(dir.resolve("f.json"));
        Exception live = assertThrows(Exception.class, () -> LiveSession.create(f, RunSettings.incast().withScenario(s)));
        assertEquals(s + MESSAGE, live.getMessage());
        IOException window = assertThrows(IOException.class, () -> SweepModel.sweepJson("x", s, null, List.of(), "grid", 1,
                1, 1, List.of("drops"), false, null, true));
        assertEquals(s + MESSAGE, window.getMessage());
        assertTrue(LiveViewModel.scenarioTransport(s).isEmpty(), "the transport peek reads nothing from it");
    }
}
