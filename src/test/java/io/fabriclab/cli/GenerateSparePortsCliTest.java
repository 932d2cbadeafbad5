package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fabriclab.io.FabricFiles;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;

/** `generate` builds switches with room to grow (issue 16 item 8): --radix (leaf-spine), --spare-ports (fat tree). */
class GenerateSparePortsCliTest {
    @TempDir
    Path dir;

    @Test
    void aFatTreeWithSparePortsReadsBackWithFreePortsOnEverySwitch() throws Exception {
        Path out = dir.resolve("ft.json");
        CliRun r = CliRun.of("generate", "fat-tree", "-k", "4", "--spare-ports", "2", "-o", out.toString());
        assertEquals(0, r.code(), r.err());
        Fabric f = FabricFiles.load(out);
        // k = 4: 20 switches of 4 + 2 = 6 ports, 4 in use each.
        for (Device sw : f.switches()) {
            assertEquals(6, sw.portCount(), sw.id());
            assertEquals(2, f.freePorts(sw).size(), sw.id());
        }
        assertEquals(48, f.linkCount());
    }

    @Test
    void sparePortsPastTheReadersLimitAreRefusedWithExit2() {
        Path out = dir.resolve("big.json");
        CliRun r = CliRun.of("generate", "fat-tree", "-k", "4", "--spare-ports", "4093", "-o", out.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("4096"), r.err());
        CliRun neg = CliRun.of("generate", "fat-tree", "-k", "4", "--spare-ports", "-1", "-o", out.toString());
        assertEquals(2, neg.code());
        assertTrue(neg.err().contains("--spare-ports"), "names the option: " + neg.err());
    }

    @Test
    void aLeafSpineRadixGivesTheSpinesFreeUplinkPorts() throws Exception {
        Path out = dir.resolve("ls.json");
        assertEquals(0, CliRun.of("generate", "leaf-spine", "--radix", "32", "-o", out.toString()).code());
        Fabric f = FabricFiles.load(out);
        // The classic fabric: each spine uses 4 ports (one per leaf); radix 32 leaves 28 free at 400G.
        Device spine = f.device("spine1");
        assertEquals(32, spine.portCount());
        assertEquals(28, f.freePorts(spine).size());
        assertEquals(400, f.freePorts(spine).get(0).speedGbps());
    }
}
