package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * {@code simulate --engine flow --focus WHERE} (issue 32, a closer look at part of a flow run):
 * the flow run, then the focus run on the packet engine, both printed; the focus run's results in
 * RESULTS with .focus before .json; a bad focus refused before anything runs.
 */
class FocusOptionTest {
    @TempDir
    Path dir;

    /** Two incasts on the shipped leaf-spine: three senders to server01, two to server04. */
    private Path scenario() throws Exception {
        Files.copy(Path.of("resources/examples/classic-leaf-spine.json"), dir.resolve("f.json"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return Files.writeString(dir.resolve("s.json"), """
                {"schemaVersion": 1, "name": "two incasts", "fabric": "f.json", "seed": 1,
                 "workloads": [{"type": "incast", "senders": ["server02:nic0", "server03:nic0", "server05:nic0"],
                                "receiver": "server01:nic0", "bytesPerSender": 100000},
                               {"type": "incast", "senders": ["server06:nic0", "server07:nic0"],
                                "receiver": "server04:nic0", "bytesPerSender": 200000}]}
                """);
    }

    @Test
    void aFocusRunFollowsTheFlowRunAndComparesTheFocusFlows() throws Exception {
        Path out = dir.resolve("r.json");
        CliRun r = CliRun.of("simulate", scenario().toString(), "--engine", "flow", "--focus", "server01:nic0",
                "-o", out.toString(), "--quiet");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("engine: flow level"), r.out());
        assertTrue(r.out().contains("focus link "), r.out());
        assertTrue(r.out().contains("3 flows on the packet engine"), r.out());
        assertTrue(r.out().contains("engine: packet level"), r.out());
        assertTrue(r.out().contains("FCT packet / flow run median"), r.out());
        Path focus = dir.resolve("r.focus.json");
        assertTrue(Files.exists(out) && Files.exists(focus), r.out());
        JsonNode j = new ObjectMapper().readTree(focus.toFile());
        assertEquals("packet", j.at("/run/engine").asText());
        assertEquals("server01:nic0", j.at("/focus/focus").asText());
        assertEquals(3, j.at("/focus/flows").size());
        for (JsonNode f : j.at("/focus/flows")) {
            assertTrue(f.get("samePath").asBoolean(), f.toString());
            assertEquals("server01:nic0", f.get("dst").asText());
            assertTrue(f.get("packetFctPs").asLong() > 0 && f.get("flowFctPs").asLong() > 0, f.toString());
        }
        assertEquals(3, j.at("/run/flows").asInt());
    }

    @Test
    void aBadFocusIsRefusedBeforeAnythingRuns() throws Exception {
        Path out = dir.resolve("r.json");
        CliRun r = CliRun.of("simulate", scenario().toString(), "--engine", "flow", "--focus", "leaf9", "-o",
                out.toString(), "--quiet");
        assertEquals(ExitCode.BAD_INPUT, r.code());
        assertTrue(r.err().contains("--focus: focus 'leaf9'") && r.err().contains("allowed: a link id"), r.err());
        assertFalse(Files.exists(out));
        CliRun p = CliRun.of("simulate", scenario().toString(), "--focus", "server01:nic0", "-o", out.toString(),
                "--quiet");
        assertEquals(ExitCode.BAD_INPUT, p.code());
        assertTrue(p.err().contains("--focus looks closer at a flow-level run: add --engine flow"), p.err());
        assertFalse(Files.exists(out));
    }
}
