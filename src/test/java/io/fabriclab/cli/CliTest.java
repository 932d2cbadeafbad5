package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fabriclab.topology.ExampleFabrics;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliTest {
    @TempDir
    Path dir;

    private JsonNode analyzeJson(Path file, String... extra) throws Exception {
        String[] args = new String[3 + extra.length];
        args[0] = "analyze";
        args[1] = file.toString();
        args[2] = "--json";
        System.arraycopy(extra, 0, args, 3, extra.length);
        CliRun r = CliRun.of(args);
        assertTrue(r.code() == 0 || r.code() == 1, r.err());
        return new ObjectMapper().readTree(r.out());
    }

    @Test
    void versionAndHelpOnEveryCommand() {
        CliRun v = CliRun.of("--version");
        assertEquals(0, v.code());
        assertTrue(v.out().startsWith("FabricLab "));
        for (String cmd : new String[] {"gui", "generate", "analyze", "validate", "convert", "export-config", "bench"}) {
            CliRun h = CliRun.of(cmd, "--help");
            assertEquals(0, h.code(), cmd);
            assertTrue(h.out().contains("Usage: fabriclab " + cmd), cmd + ": " + h.out());
        }
        assertEquals(0, CliRun.of("generate", "rail", "--help").code());
    }

    @Test
    void generatedClassicFabricAnalysesToTheHandCountedFigures() throws Exception {
        Path f = dir.resolve("classic.json");
        assertEquals(0, CliRun.of("generate", "leaf-spine", "-o", f.toString()).code());
        JsonNode a = analyzeJson(f);
        // 4 leaves x 8 servers x 1 NIC; every leaf to every spine once: 32 + 4*2 = 40 cables.
        assertEquals(4, a.at("/counts/switches/leaf").asInt());
        assertEquals(2, a.at("/counts/switches/spine").asInt());
        assertEquals(0, a.at("/counts/switches/core").asInt());
        assertEquals(32, a.at("/counts/servers").asInt());
        assertEquals(32, a.at("/counts/gpus").asInt());
        assertEquals(32, a.at("/counts/cablesByTier/server-leaf").asInt());
        assertEquals(8, a.at("/counts/cablesByTier/leaf-spine").asInt());
        // Leaf: 8 x 100G down, 2 x 400G up = 800:800 -> 1:1.
        assertEquals(1.0, a.at("/oversubscription/worstLeaf/ratio").asDouble(), 1e-9);
        // Half the servers (16 x 100G) against the other half: 1,600 Gb/s, all of it.
        assertEquals(1600.0, a.at("/bisection/bandwidthGbps").asDouble(), 1e-6);
        // Different leaves: one path via each spine = 2; same leaf: 1. 32*31 ordered NIC pairs = 992.
        assertEquals(992, a.at("/ecmpPaths/nicPairs").asLong());
        assertEquals(2, a.at("/ecmpPaths/max").asLong());
        assertEquals(4, a.at("/hops/diameter").asInt());
        assertTrue(a.at("/deadlock/deadlockFree").asBoolean());
        // A leaf failure cuts its 8 NICs off from the other 24 and each other's peers: 8*24*2 + 8*7 = 440 ordered pairs.
        assertEquals(440, a.at("/failureImpact/worst/0/nicPairsDisconnected").asLong());
    }

    @Test
    void railGeneratorCountsThroughTheCli() throws Exception {
        Path f = dir.resolve("rail.json");
        assertEquals(0, CliRun.of("generate", "rail", "--units", "2", "-o", f.toString()).code());
        JsonNode a = analyzeJson(f, "--no-failure-sweep");
        // 2 SUs: 8 rail leaves each = 16; 16 leaves x 32 uplinks / 64 ports = 8 spines; 64 servers x 8 GPUs.
        assertEquals(16, a.at("/counts/switches/leaf").asInt());
        assertEquals(8, a.at("/counts/switches/spine").asInt());
        assertEquals(512, a.at("/counts/gpus").asInt());
        assertEquals(512, a.at("/counts/cablesByTier/leaf-spine").asInt());
    }

    @Test
    void railDefaultsAreTheScalableUnitOfTheReferenceArchitecture() throws Exception {
        // `generate rail --units 16` with every other option at its default must equal the explicit
        // --servers-per-unit 32 --gpus-per-server 8 --radix 64 --speed 400G.
        Path byDefault = dir.resolve("d.json");
        Path explicit = dir.resolve("e.json");
        assertEquals(0, CliRun.of("generate", "rail", "--units", "16", "-o", byDefault.toString()).code());
        assertEquals(0, CliRun.of("generate", "rail", "--units", "16", "--servers-per-unit", "32",
                "--gpus-per-server", "8", "--radix", "64", "--speed", "400G", "-o", explicit.toString()).code());
        assertEquals(java.nio.file.Files.readString(explicit), java.nio.file.Files.readString(byDefault));
    }

    @Test
    void threeTierRailCountsByRoleAndCableTierInTheJson() throws Exception {
        // 16 SUs = 128 rail leaves > 64 ports, so three tiers (DGX SuperPOD B200 RA, 16-SU row):
        // each SU's 8 leaves x 32 uplinks land on 8 spines of 32 down + 32 up ports: 128 spines;
        // spine-core cables 128 x 32 = 4096 on 64-port cores: 64 cores. Cables per tier: 16 x 256 each.
        Path f = dir.resolve("rail16.json");
        assertEquals(0, CliRun.of("generate", "rail", "--units", "16", "-o", f.toString()).code());
        JsonNode a = analyzeJson(f, "--no-failure-sweep");
        assertEquals(128, a.at("/counts/switches/leaf").asInt());
        assertEquals(128, a.at("/counts/switches/spine").asInt());
        assertEquals(64, a.at("/counts/switches/core").asInt());
        assertEquals(320, a.at("/counts/switches/total").asInt());
        assertEquals(512, a.at("/counts/servers").asInt());
        assertEquals(4096, a.at("/counts/gpus").asInt());
        assertEquals(4096, a.at("/counts/cablesByTier/server-leaf").asInt());
        assertEquals(4096, a.at("/counts/cablesByTier/leaf-spine").asInt());
        assertEquals(4096, a.at("/counts/cablesByTier/spine-core").asInt());
        // Non-blocking in every tier, full bisection: 8 SUs x 256 GPUs x 400G = 819,200 Gb/s.
        assertEquals(819_200, a.at("/bisection/bandwidthGbps").asDouble(), 1e-6);
        // NIC to NIC across SUs: NIC-leaf-spine-core-spine-leaf-NIC = 6 links.
        assertEquals(6, a.at("/hops/diameter").asInt());
        // Every lossless port is in a headroom class with its margin, terms and the interface delay's source.
        JsonNode head = a.at("/pfcHeadroom");
        int ports = 0;
        boolean fourHundred = false;
        for (JsonNode c : head.at("/classes")) {
            ports += c.at("/portCount").asInt();
            assertEquals(c.at("/portCount").asInt(), c.at("/ports").size());
            assertEquals(c.at("/configuredBytes").asLong() - c.at("/requiredBytes").asLong(), c.at("/marginBytes").asLong());
            assertFalse(c.at("/interfaceSource").asText().isEmpty());
            assertTrue(c.at("/terms/interfaceBytes").asLong() > 0);
            if (c.at("/speedGbps").asInt() == 400) {
                fourHundred = true;
                assertEquals(6_554, c.at("/interfaceDelayBitsPerEnd").asLong());
                assertFalse(c.at("/extrapolated").asBoolean());
            }
        }
        assertEquals(head.at("/portsChecked").asInt(), ports);
        assertTrue(fourHundred, head.toString());
    }

    @Test
    void deadlockAfterTheNamedFailureExitsWithFindings() throws Exception {
        Path f = dir.resolve("dl.json");
        io.fabriclab.io.FabricJson.save(ExampleFabrics.deadlockProne(), f);
        CliRun healthy = CliRun.of("analyze", f.toString(), "--json");
        assertFalse(healthy.out().contains("DEADLOCK_CYCLE"));
        CliRun failed = CliRun.of("analyze", f.toString(), "--fail", ExampleFabrics.DEADLOCK_TRIGGER_LINK);
        assertEquals(ExitCode.FINDINGS, failed.code());
        assertTrue(failed.out().contains("DEADLOCK_CYCLE"), failed.out());
    }

    @Test
    void aLeafWithNoUplinksIsAnErrorAndExitsOne() throws Exception {
        io.fabriclab.model.Fabric fabric = ExampleFabrics.deadlockProne();
        io.fabriclab.model.Device leaf4 = fabric.device("leaf4");
        for (io.fabriclab.model.Link l : java.util.List.copyOf(fabric.linksOf(leaf4))) {
            if (l.other(leaf4).role().isSwitch()) {
                fabric.removeLink(l);
            }
        }
        Path f = dir.resolve("cut.json");
        io.fabriclab.io.FabricJson.save(fabric, f);
        CliRun r = CliRun.of("analyze", f.toString(), "--no-failure-sweep");
        assertEquals(ExitCode.FINDINGS, r.code(), r.out());
        assertTrue(r.out().contains("NICS_CUT_OFF"), r.out());
        CliRun v = CliRun.of("validate", f.toString());
        assertEquals(ExitCode.FINDINGS, v.code(), v.out());
        assertTrue(v.out().contains("NICS_CUT_OFF"), v.out());
    }

    @Test
    void identicalFindingsPrintOnceWithACountAndNoJavaMapText() throws Exception {
        Path f = dir.resolve("classic.json");
        assertEquals(0, CliRun.of("generate", "leaf-spine", "-o", f.toString()).code());
        // 32 servers, each single-homed to one of 4 leaves: 4 distinct messages, 8 servers each.
        CliRun v = CliRun.of("validate", f.toString());
        java.util.List<String> lines = v.out().lines().filter(l -> l.contains("SINGLE_HOMED_SERVER")).toList();
        assertEquals(4, lines.size(), v.out());
        assertTrue(lines.stream().allMatch(l -> l.contains("[SINGLE_HOMED_SERVER] x8")), v.out());
        assertTrue(v.out().contains("32 findings"), v.out());
        CliRun a = CliRun.of("analyze", f.toString(), "--no-failure-sweep");
        assertFalse(a.out().matches("(?s).*\\{\\d+=.*"), a.out());
        assertTrue(a.out().contains("NIC pairs by hops: 2: "), a.out());
        // The 4 groups of one code collapse into one row counting all 32.
        assertTrue(a.out().lines().anyMatch(l -> l.contains("SINGLE_HOMED_SERVER") && l.contains(" 32 ")
                && l.contains("and 31 more")), a.out());
    }

    @Test
    void badInputExitsTwoWithOneClearMessage() throws Exception {
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"schemaVersion\": 1, \"name\": 5");
        CliRun r = CliRun.of("analyze", bad.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code());
        assertTrue(r.err().contains("bad.json"), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
        assertEquals(ExitCode.BAD_INPUT, CliRun.of("validate", dir.resolve("missing.json").toString()).code());
        Path ok = dir.resolve("ok.json");
        CliRun.of("generate", "leaf-spine", "-o", ok.toString());
        CliRun unknown = CliRun.of("analyze", ok.toString(), "--fail", "nosuchlink");
        assertEquals(ExitCode.BAD_INPUT, unknown.code());
        assertTrue(unknown.err().contains("--fail nosuchlink"), unknown.err());
        assertEquals(ExitCode.BAD_INPUT, CliRun.of("generate", "leaf-spine", "--nic-speed", "-100G", "-o", ok.toString()).code());
        assertEquals(ExitCode.BAD_INPUT, CliRun.of("convert", ok.toString(), dir.resolve("x.txt").toString()).code());
    }

    @Test
    void convertRoundTripsThroughContainerlab() throws Exception {
        Path json = dir.resolve("a.json");
        Path clab = dir.resolve("a.clab.yml");
        Path back = dir.resolve("b.json");
        CliRun.of("generate", "leaf-spine", "-o", json.toString());
        assertEquals(0, CliRun.of("convert", json.toString(), clab.toString()).code());
        assertEquals(0, CliRun.of("convert", clab.toString(), back.toString()).code());
        assertEquals(0, CliRun.of("validate", back.toString()).code());
        assertEquals(0, CliRun.of("convert", json.toString(), dir.resolve("a.graphml").toString()).code());
        assertTrue(Files.readString(dir.resolve("a.graphml")).contains("graphml"));
    }
}
