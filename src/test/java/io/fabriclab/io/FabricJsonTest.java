package io.fabriclab.io;

import static io.fabriclab.io.FabricAssertions.assertSameFabric;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fabriclab.model.CableType;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.LinkState;

class FabricJsonTest {

    @Test
    void readingWhatWasWrittenGivesTheSameFabric() throws Exception {
        Fabric f = SampleFabrics.everyField();
        Fabric back = FabricJson.read(FabricJson.write(f), "mem.json");
        assertSameFabric(f, back);
    }

    @Test
    void writingWhatWasReadGivesTheSameTextByteForByte() throws Exception {
        String text = FabricJson.write(SampleFabrics.everyField());
        assertEquals(text, FabricJson.write(FabricJson.read(text, "mem.json")));
        String empty = FabricJson.write(SampleFabrics.empty());
        assertEquals(empty, FabricJson.write(FabricJson.read(empty, "mem.json")));
    }

    @Test
    void canonicalTextUsesTwoSpacesUnixLineEndsAndAFinalNewline() {
        String text = FabricJson.write(SampleFabrics.everyField());
        assertTrue(text.startsWith("{\n  \"schemaVersion\": 1,\n  \"name\": \"lab-2x1\",\n"), text.substring(0, 60));
        assertTrue(text.endsWith("}\n"));
        assertFalse(text.contains("\r"));
        assertFalse(text.contains("\t"));
        // Whole-number doubles are written without a fraction, others exactly.
        assertTrue(text.contains("\"cableLengthM\": 30,"), "30.0 m written as 30");
        assertTrue(text.contains("\"cableLengthM\": 120.25,"));
        assertTrue(text.contains("\"g\": 0.00390625,"), "1/256 is exact in binary and in decimal");
    }

    @Test
    void conventionalLinkIdsAreImpliedAndCustomOnesKept() throws Exception {
        String text = FabricJson.write(SampleFabrics.everyField());
        assertFalse(text.contains("\"id\": \"leaf1:eth5--spine1:eth1\""));
        assertTrue(text.contains("\"id\": \"g2-rail0\""));
        Fabric back = FabricJson.read(text, "m.json");
        assertEquals(LinkState.DOWN, back.link("leaf2:eth5--spine1:eth3").state());
        assertEquals(200, back.link("g2-rail0").speedGbps());
    }

    @Test
    void leftOutFieldsTakeTheDocumentedDefaults() throws Exception {
        String text = """
                {"schemaVersion": 1, "name": "min",
                 "qosProfiles": {"p": {"pfc": {"xoffBytes": 900000}}},
                 "devices": [
                   {"id": "a", "role": "leaf", "ports": [{"name": "e1", "speedGbps": 400}]},
                   {"id": "b", "role": "spine", "ports": [{"name": "e1", "speedGbps": 800}]}],
                 "links": [{"a": "a:e1", "b": "b:e1", "cableLengthM": 50}]}
                """;
        Fabric f = FabricJson.read(text, "min.json");
        assertEquals("", f.description());
        assertEquals(Fabric.DEFAULT_MTU_BYTES, f.mtuBytes());
        assertEquals(null, f.defaultQosProfile(), "no defaultQosProfile field: no default");
        var pfc = f.qosProfile("p").pfc();
        assertTrue(pfc.enabled());
        assertEquals(java.util.Set.of(3), pfc.priorities());
        assertEquals(900_000, pfc.xoffBytes());
        assertEquals(800_000, pfc.xonBytes(), "roceLossless default XON");
        assertFalse(f.qosProfile("p").ecn().enabled(), "absent ecn section: off");
        assertFalse(f.qosProfile("p").dcqcn().enabled(), "absent dcqcn section: off");
        var link = f.links().iterator().next();
        assertEquals("a:e1--b:e1", link.id());
        assertEquals(400, link.speedGbps(), "min(400G, 800G)");
        assertEquals(CableType.MMF, link.cableType(), "50 m: beyond DAC reach, within multimode");
        assertEquals(LinkState.UP, link.state());
    }

    @Test
    void everyProblemIsReportedNotOnlyTheFirst() {
        String text = """
                {"schemaVersion": 1, "name": "bad",
                 "devices": [
                   {"id": "a", "role": "leaf", "ports": [{"name": "e1", "speedGbps": -400}]},
                   {"id": "b", "role": "router", "ports": [{"name": "e1", "speedGbps": 400}]}],
                 "links": [{"a": "a:e1", "b": "c:e1", "cableLengthM": 5}, {"a": "a:e9", "b": "b:e1", "cableLengthM": 5}]}
                """;
        InputException e = assertThrows(InputException.class, () -> FabricJson.read(text, "fabric.json"));
        List<String> lines = e.getMessage().lines().toList();
        assertEquals(4, lines.size(), e.getMessage());
        assertEquals("fabric.json: $.devices[0].ports[0].speedGbps: -400 is not allowed; allowed: "
                + "10G, 25G, 40G, 50G, 100G, 200G, 400G, 800G, 1600G", lines.get(0));
        assertTrue(lines.get(1).startsWith("fabric.json: $.devices[1].role: \"router\" is not allowed; allowed: server, leaf"));
        assertTrue(lines.get(2).startsWith("fabric.json: $.links[0].b: no device \"c\""), lines.get(2));
        assertTrue(lines.get(3).startsWith("fabric.json: $.links[1].a: device a has no port \"e9\"; allowed: e1"), lines.get(3));
    }

    @Test
    void saveReplacesTheFileAtomicallyAndLeavesNoTemporaryFiles(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("fabric.json");
        Files.writeString(file, "old content");
        Fabric f = SampleFabrics.everyField();
        FabricJson.save(f, file);
        assertEquals(FabricJson.write(f), Files.readString(file, StandardCharsets.UTF_8));
        try (var s = Files.list(dir)) {
            assertEquals(List.of(file), s.toList(), "only the target remains");
        }
        assertSameFabric(f, FabricJson.read(file));
    }

    @Test
    void aMissingFileIsAnInputProblemNotAnIoException(@TempDir Path dir) {
        InputException e = assertThrows(InputException.class, () -> FabricJson.read(dir.resolve("nope.json")));
        assertTrue(e.getMessage().contains("nope.json: $: file does not exist"), e.getMessage());
    }

    @Test
    void aFileStartingWithAByteOrderMarkIsRead(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bom.json");
        byte[] text = FabricJson.write(SampleFabrics.everyField()).getBytes(StandardCharsets.UTF_8);
        byte[] withBom = new byte[text.length + 3];
        withBom[0] = (byte) 0xEF;
        withBom[1] = (byte) 0xBB;
        withBom[2] = (byte) 0xBF;
        System.arraycopy(text, 0, withBom, 3, text.length);
        Files.write(file, withBom);
        assertSameFabric(SampleFabrics.everyField(), FabricJson.read(file));
    }

    @Test
    void aBadRoleDoesNotCascadeIntoGuessedRoleProblems() {
        String text = """
                {"schemaVersion": 1, "name": "x", "devices": [
                  {"id": "s1", "role": "Server", "gpus": 8, "ports": [{"name": "p0", "speedGbps": 400, "nic": 0}]}]}
                """;
        InputException e = assertThrows(InputException.class, () -> FabricJson.read(text, "x.json"));
        // Only the role is wrong (names are lower case); gpus and nic are not judged against a guessed role.
        assertEquals(1, e.problems().size(), e.getMessage());
        assertEquals("$.devices[0].role", e.problems().get(0).jsonPath());
        assertEquals("\"Server\"", e.problems().get(0).value());
    }

    @Test
    void labelsStartingWithFabriclabAreReservedForTheContainerlabMapping() {
        String text = """
                {"schemaVersion": 1, "name": "x", "devices": [
                  {"id": "l1", "role": "leaf", "labels": {"fabriclab-role": "spine", "rack": "A1"}}]}
                """;
        InputException e = assertThrows(InputException.class, () -> FabricJson.read(text, "x.json"));
        assertEquals(1, e.problems().size(), e.getMessage());
        assertTrue(e.getMessage().startsWith("x.json: $.devices[0].labels.fabriclab-role: label names starting with"),
                e.getMessage());
    }

    @Test
    void inputProblemsRenderOneLineWithFilePathMessageAndAllowed() {
        InputProblem p = InputProblem.notAllowed("fabric.json", "$.links[3].speedGbps", "-400",
                "10G, 25G, 40G, 50G, 100G, 200G, 400G, 800G, 1600G");
        assertEquals("fabric.json: $.links[3].speedGbps: -400 is not allowed; allowed: 10G, 25G, 40G, 50G, 100G, "
                + "200G, 400G, 800G, 1600G", p.render());
        InputProblem noAllowed = new InputProblem("f.json", "$", null, "file does not exist", null);
        assertEquals("f.json: $: file does not exist", noAllowed.render());
        // Control characters in echoed values are made visible, long values cut.
        assertEquals("\"a\\u000ab\"", InputProblem.shorten("\"a\nb\""));
        assertEquals(InputProblem.MAX_VALUE_CHARS + 3, InputProblem.shorten("x".repeat(500)).length());
    }
}
