package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

import io.fabriclab.io.ContainerlabYaml;
import io.fabriclab.io.FabricFiles;
import io.fabriclab.io.FabricJson;
import io.fabriclab.io.JsonInput;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.topology.describe.Descriptions;

/** `fabriclab new` and `fabriclab describe` (docs/describe.md). */
class NewCommandTest {

    @Test
    void aSentenceBecomesAFabricAndWhatWasUnderstoodIsShownFirst(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("fabric.json");
        CliRun r = CliRun.of("new", Descriptions.EXAMPLE + ", please", "-o", out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().indexOf("Understood") < r.out().indexOf("wrote " + out), r.out());
        assertTrue(r.out().contains("'Tomahawk 5 leaves'"), r.out());
        assertTrue(r.out().contains("ports per switch     64"), "a default with its value: " + r.out());
        assertTrue(r.out().contains("fabriclab generate rail"), "and its source: " + r.out());
        assertTrue(r.out().contains("Not used: none"), "'please' is glue: " + r.out());
        assertTrue(r.out().contains("10 switches (8 leaf, 2 spine), 32 servers, 256 GPUs, 384 links"), r.out());
        Fabric f = FabricFiles.load(out);
        assertEquals("32x400G+32x400G Tomahawk 5".replace("32x400G+32x400G", "64x400G"), f.device("su1-leaf0").model());
    }

    @Test
    void severalWordsAreOneSentence(@TempDir Path dir) throws Exception {
        CliRun r = CliRun.of("new", "4", "leaves,", "2", "spines", "-o", dir.resolve("f.json").toString());
        assertEquals(0, r.code(), r.err());
        assertEquals(6, FabricFiles.load(dir.resolve("f.json")).switches().size());
    }

    @Test
    void aContradictionWritesNothingAndQuotesTheWords(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("fabric.json");
        CliRun r = CliRun.of("new", "4 leaves, 2 spines, 8 leaves", "-o", out.toString(), "--lab", dir.resolve("lab").toString());
        assertEquals(ExitCode.BAD_INPUT, r.code());
        assertTrue(r.err().contains("'4 leaves' and '8 leaves' give two different leaves (4 and 8)"), r.err());
        assertTrue(r.out().contains("Understood"), "what was understood is still shown: " + r.out());
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of(), s.toList(), "nothing written");
        }
    }

    @Test
    void emptyAndHugeDescriptionsAreBadInput(@TempDir Path dir) {
        CliRun empty = CliRun.of("new", "", "-o", dir.resolve("f.json").toString());
        assertEquals(ExitCode.BAD_INPUT, empty.code());
        assertTrue(empty.err().contains("the description is empty"), empty.err());
        CliRun huge = CliRun.of("new", "x".repeat(100_000), "-o", dir.resolve("f.json").toString());
        assertEquals(ExitCode.BAD_INPUT, huge.code());
        assertTrue(huge.err().contains("100,000 characters; at most 2,000 are read"), huge.err());
        assertFalse(Files.exists(dir.resolve("f.json")));
    }

    @Test
    void dryRunWritesNothingAndNeedsNoOutput(@TempDir Path dir) throws Exception {
        CliRun r = CliRun.of("new", "fat tree k=4", "--dry-run");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("dry run: nothing written"), r.out());
        CliRun noOut = CliRun.of("new", "fat tree k=4");
        assertEquals(ExitCode.BAD_INPUT, noOut.code());
        assertTrue(noOut.err().contains("-o FILE is required"), noOut.err());
    }

    private static final JsonSchema CLAB_SCHEMA;

    static {
        try (InputStream in = NewCommandTest.class.getResourceAsStream("/containerlab/clab.schema.json")) {
            CLAB_SCHEMA = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7).getSchema(new ObjectMapper().readTree(in));
        } catch (java.io.IOException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Test
    void theLabFromOneSentenceReadsBackWithTheProjectsReaders(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("fabric.json");
        Path lab = dir.resolve("lab");
        Path report = dir.resolve("review.html");
        String sentence = Descriptions.EXAMPLE.replace("priority 3", "priority 4");
        CliRun r = CliRun.of("new", sentence, "-o", out.toString(), "--lab", lab.toString(), "--report", report.toString());
        assertEquals(0, r.code(), r.err() + r.out());
        Fabric f = FabricFiles.load(out);
        // The containerlab topology: containerlab's own schema accepts it, and FabricLab's reader gives the same topology.
        Path topo = lab.resolve("rail-optimized-1-SU.clab.yml");
        String yaml = Files.readString(topo);
        Set<String> errors = CLAB_SCHEMA.validate(new YAMLMapper().readTree(yaml)).stream().map(ValidationMessage::getMessage)
                .collect(Collectors.toSet());
        assertEquals(Set.of(), errors);
        Fabric back = ContainerlabYaml.read(topo);
        assertEquals(f.devices().size(), back.devices().size());
        assertEquals(f.linkCount(), back.linkCount());
        for (Device d : f.devices()) {
            assertEquals(d.role(), back.device(d.id()).role(), d.id());
            assertEquals(d.model(), back.device(d.id()).model(), d.id());
        }
        // One configuration per switch and vendor; SONiC's reads as JSON with the strict reader, PFC on priority 4.
        for (String vendor : List.of("sonic", "eos", "nxos")) {
            try (Stream<Path> s = Files.list(lab.resolve(vendor))) {
                assertEquals(f.switches().size(), s.count(), vendor);
            }
        }
        JsonNode db = JsonInput.readTree(lab.resolve("sonic/su1-leaf0.config_db.json"), "a SONiC config_db");
        JsonNode qos = db.get("PORT_QOS_MAP");
        assertTrue(qos.toString().contains("\"pfc_enable\":\"4\""), qos.toString());
        String eos = Files.readString(lab.resolve("eos/su1-leaf0.eos.cfg"), StandardCharsets.UTF_8);
        assertTrue(eos.contains("priority-flow-control priority 4 no-drop"), eos);
        String nxos = Files.readString(lab.resolve("nxos/su1-leaf0.nxos.cfg"), StandardCharsets.UTF_8);
        assertTrue(nxos.contains("pause pfc-cos 4"), nxos);
        // The design review.
        String html = Files.readString(report);
        assertTrue(html.contains("<html") && html.contains("fabriclab new"), "a report of the new fabric");
        assertTrue(r.out().contains("wrote " + report + ": "), r.out());
    }

    @Test
    void anInfinibandFabricHasNoEthernetLab(@TempDir Path dir) {
        CliRun r = CliRun.of("new", "fat tree k=4, InfiniBand", "-o", dir.resolve("f.json").toString(), "--lab",
                dir.resolve("lab").toString());
        assertEquals(ExitCode.BAD_INPUT, r.code());
        assertTrue(r.err().contains("this fabric is InfiniBand"), r.err());
        assertFalse(Files.exists(dir.resolve("f.json")));
    }

    @Test
    void describeThenNewGivesTheSameFileBack(@TempDir Path dir) throws Exception {
        for (String s : List.of(Descriptions.EXAMPLE, "fat tree k=8 at 400G, no PFC, ECN on priority 2, Ultra Ethernet",
                "leaf-spine, 6 leaves, 3 spines, 12 servers per leaf with 2 x 200G NICs, 800G uplinks, radix 64, B200",
                "rail-optimized, 16 SUs, InfiniBand, Quantum-2 switches")) {
            Path a = dir.resolve("a.json");
            Path b = dir.resolve("b.json");
            assertEquals(0, CliRun.of("new", s, "-o", a.toString()).code(), s);
            CliRun d = CliRun.of("describe", a.toString());
            assertEquals(0, d.code(), d.err());
            String sentence = d.out().strip();
            assertEquals(0, CliRun.of("new", sentence, "-o", b.toString()).code(), sentence);
            assertEquals(FabricJson.write(FabricFiles.load(a)), FabricJson.write(FabricFiles.load(b)), sentence);
            assertEquals(Files.readString(a), Files.readString(b), "the same file, byte for byte: " + sentence);
        }
    }

    @Test
    void describeRefusesAFabricNoSentenceMakes(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("f.json");
        assertEquals(0, CliRun.of("new", "4 leaves, 2 spines", "-o", f.toString()).code());
        Fabric edited = FabricFiles.load(f);
        edited.device("leaf1").labels().put("rack", "A12");
        FabricFiles.save(edited, f);
        CliRun r = CliRun.of("describe", f.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code());
        assertTrue(r.err().contains(f + ": no sentence makes this fabric") && r.err().contains("device leaf1: labels"), r.err());
    }
}
