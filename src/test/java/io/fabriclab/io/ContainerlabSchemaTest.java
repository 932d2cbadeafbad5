package io.fabriclab.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

import io.fabriclab.model.Fabric;
import io.fabriclab.topology.Finding;
import io.fabriclab.topology.Lint;
import io.fabriclab.topology.RailOptimizedGenerator;

/**
 * Issue 35 item 13: an exported lab is held against containerlab's own JSON schema
 * (schemas/clab.schema.json of srl-labs/containerlab, commit fe2fff3a8f61 of 2026-08-20, copied to
 * src/test/resources/containerlab/). The shipped example's export failed it with 41 errors (a lab
 * name with spaces and a colon; labels on brief links). What the file cannot hold is said on export
 * and import, and lint flags the imported RoCE fabric without a lossless class.
 */
class ContainerlabSchemaTest {
    private static final JsonSchema SCHEMA;

    static {
        try (InputStream in = ContainerlabSchemaTest.class.getResourceAsStream("/containerlab/clab.schema.json")) {
            JsonNode s = new ObjectMapper().readTree(in);
            SCHEMA = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7).getSchema(s);
        } catch (java.io.IOException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    static Set<String> errors(String yaml) throws Exception {
        JsonNode lab = new YAMLMapper().readTree(yaml);
        return SCHEMA.validate(lab).stream().map(ValidationMessage::getMessage).collect(Collectors.toSet());
    }

    @ParameterizedTest
    @ValueSource(strings = {"classic-leaf-spine.json", "rail-1su.json", "deadlock-after-failure.json"})
    void everyShippedExampleExportsALabContainerlabsSchemaAccepts(String example) throws Exception {
        Fabric f = FabricFiles.load(Path.of("resources/examples", example));
        Set<String> errors = errors(ContainerlabYaml.write(f));
        assertEquals(Set.of(), errors, example);
        // ... and reads back with the same devices and links (the round trip loses nothing of the topology).
        Fabric back = ContainerlabYaml.read(ContainerlabYaml.write(f), example);
        assertEquals(f.devices().size(), back.devices().size());
        assertEquals(f.linkCount(), back.linkCount());
        assertEquals(ContainerlabYaml.labName(f.name()), back.name());
    }

    @Test
    void aGeneratedRailFabricExportsAValidLabToo() throws Exception {
        assertEquals(Set.of(), errors(ContainerlabYaml.write(RailOptimizedGenerator.generate(1))));
    }

    @Test
    void theOldBriefLinksWithLabelsAndADisplayNameFailTheSchema() throws Exception {
        // What the export wrote before: the check is not vacuous.
        String old = "name: \"classic leaf-spine: 4 leaves\"\ntopology:\n  nodes:\n    a: {kind: linux}\n    b: {kind: linux}\n"
                + "  links:\n    - endpoints: [\"a:eth1\", \"b:eth1\"]\n      labels: {fabriclab-state: up}\n";
        Set<String> errors = errors(old);
        assertTrue(errors.stream().anyMatch(e -> e.startsWith("$.name: does not match")), errors.toString());
        assertTrue(errors.stream().anyMatch(e -> e.contains("'labels' is not defined")), errors.toString());
    }

    @Test
    void whatTheLabCannotHoldIsSaidAndLintFlagsTheImportWithoutALosslessClass() throws Exception {
        Fabric f = FabricFiles.load(Path.of("resources/examples/classic-leaf-spine.json"));
        assertEquals("classic-leaf-spine-4-leaves-2-spines-32-GPU-servers", ContainerlabYaml.labName(f.name()));
        List<String> losses = ContainerlabYaml.exportLosses(f);
        assertTrue(losses.stream().anyMatch(l -> l.contains("QoS profile")), losses.toString());
        assertTrue(losses.stream().anyMatch(l -> l.contains("description")), losses.toString());
        assertTrue(losses.stream().anyMatch(l -> l.startsWith("the name")), losses.toString());
        assertTrue(Lint.check(f).stream().noneMatch(x -> x.code().equals("NO_LOSSLESS_CLASS")), "the example is lossless");

        Fabric back = ContainerlabYaml.read(ContainerlabYaml.write(f), "lab");
        assertFalse(ContainerlabYaml.importNotes(back).isEmpty());
        assertTrue(ContainerlabYaml.importNotes(back).get(0).contains("no QoS"));
        List<Finding> lint = Lint.check(back);
        assertTrue(lint.stream().anyMatch(x -> x.code().equals("NO_LOSSLESS_CLASS")
                && x.severity() == Finding.Severity.WARNING), lint.toString());
    }
}
