package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fabriclab.io.FabricJson;
import io.fabriclab.sim.TestFabrics;

/**
 * `analyze --json` carries the InfiniBand credit-loop check of the text output, per subnet-manager
 * engine (docs/cli.md; docs/model.md, Credit-loop deadlock), with the same figures.
 */
class AnalyzeCreditLoopsJsonTest {

    @TempDir
    Path dir;

    @Test
    void theJsonGivesEachEnginesCreditLoopsAndVlsAsTheTextDoes() throws Exception {
        // Four leaves in a ring, a host on each (CreditLoopCheckTest): minhop's two-hop routes all
        // turn the same way round and close one loop over the four ring links on one VL; one of
        // them turns up after going down, so 1 + 1 = 2 VLs are the escape. updn: no loop, 1 VL.
        // ftree: the ring has no switch tiers, so the subnet manager falls back to minhop.
        Path fabric = dir.resolve("ring4.json");
        FabricJson.save(TestFabrics.ring(4, 100, 2.0), fabric);
        CliRun text = CliRun.of("analyze", fabric.toString(), "--no-failure-sweep");
        assertTrue(text.out().matches("(?s).*minhop\\s+1, e\\.g\\. L0:e0 \\(VL 0\\) -> L1:e0 \\(VL 0\\) -> L2:e0 \\(VL 0\\) "
                + "-> L3:e0 \\(VL 0\\)\\s+2\\s.*"), text.out());
        assertTrue(text.out().matches("(?s).*updn\\s+none\\s+1\\s.*"), text.out());

        CliRun json = CliRun.of("analyze", fabric.toString(), "--no-failure-sweep", "--json");
        JsonNode loops = new ObjectMapper().readTree(json.out()).get("ibCreditLoops");
        assertEquals(3, loops.size(), json.out());
        JsonNode minhop = loops.get(0);
        assertEquals("minhop", minhop.get("engine").asText());
        assertEquals("minhop", minhop.get("engineUsed").asText());
        assertEquals(1, minhop.get("dataVls").asInt());
        assertEquals(1, minhop.get("creditLoops").asInt());
        assertEquals(false, minhop.get("deadlockFree").asBoolean());
        assertEquals(2, minhop.get("vlsNeeded").asInt());
        assertEquals("[\"L0:e0 (VL 0)\",\"L1:e0 (VL 0)\",\"L2:e0 (VL 0)\",\"L3:e0 (VL 0)\"]",
                minhop.get("exampleLoop").toString());
        JsonNode updn = loops.get(1);
        assertEquals("updn", updn.get("engine").asText());
        assertEquals(0, updn.get("creditLoops").asInt());
        assertTrue(updn.get("deadlockFree").asBoolean());
        assertEquals(1, updn.get("vlsNeeded").asInt());
        assertTrue(updn.get("exampleLoop").isNull());
        JsonNode ftree = loops.get(2);
        assertEquals("ftree", ftree.get("engine").asText());
        assertEquals("minhop", ftree.get("engineUsed").asText());
        assertEquals(1, ftree.get("creditLoops").asInt());
        assertTrue(Files.exists(fabric));
    }
}
