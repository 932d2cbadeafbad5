package io.fabriclab.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.fabriclab.model.Fabric;

/**
 * containerlab files with YAML anchors, aliases and merge keys read as YAML defines them, and the
 * export keeps (or refuses to touch) the user's annotations side file.
 */
class ContainerlabAnchorsTest {

    @Test
    void mergeKeysAndAliasesAreResolved() throws Exception {
        String yaml = """
                name: anchors
                x-defaults: &defaults
                  kind: nokia_srlinux
                  image: ghcr.io/nokia/srlinux:24.10
                x-name: &leafname A12
                topology:
                  nodes:
                    spine1:
                      <<: *defaults
                      type: ixrd3l
                    leaf1:
                      <<: *defaults
                      image: srlinux:own
                      labels:
                        rack: *leafname
                  links:
                    - endpoints: ["leaf1:e1-49", "spine1:e1-1"]
                """;
        Fabric f = ContainerlabYaml.read(yaml, "anchors.clab.yml");
        assertEquals("nokia_srlinux", f.device("spine1").labels().get("clab-kind"));
        assertEquals("ghcr.io/nokia/srlinux:24.10", f.device("spine1").labels().get("clab-image"));
        assertEquals("srlinux:own", f.device("leaf1").labels().get("clab-image"), "the node's own key wins");
        assertEquals("A12", f.device("leaf1").labels().get("rack"), "an alias reads as the anchored value");
        assertFalse(f.device("spine1").labels().keySet().stream().anyMatch(k -> k.contains("<<")),
                f.device("spine1").labels().toString());
    }

    @Test
    void aSecondDocumentIsRefused() {
        String yaml = "name: one\ntopology:\n  nodes:\n    a: {kind: linux}\n---\nname: two\n";
        InputException e = assertThrows(InputException.class, () -> ContainerlabYaml.read(yaml, "two.clab.yml"));
        assertTrue(e.getMessage().contains("a second YAML document starts at line 6"), e.getMessage());
    }

    @Test
    void aBillionLaughsDocumentIsRefusedWithoutExpandingIt() {
        StringBuilder sb = new StringBuilder("name: lol\na0: &a0 [x, x]\n");
        for (int i = 1; i <= 40; i++) {
            sb.append("a").append(i).append(": &a").append(i).append(" [*a").append(i - 1).append(", *a").append(i - 1)
                    .append("]\n");
        }
        InputException e = assertThrows(InputException.class, () -> ContainerlabYaml.read(sb.toString(), "lol.clab.yml"));
        assertTrue(e.getMessage().contains("expands to more than " + YamlTree.MAX_VALUES + " values"), e.getMessage());
    }

    @Test
    void tooManyAliasesAreRefused() {
        StringBuilder sb = new StringBuilder("name: many\nd: &d {k: v}\nl:\n");
        for (int i = 0; i <= YamlTree.MAX_ALIASES; i++) {
            sb.append("  - *d\n");
        }
        InputException e = assertThrows(InputException.class, () -> ContainerlabYaml.read(sb.toString(), "many.clab.yml"));
        assertTrue(e.getMessage().contains("many.clab.yml: $: more than 100 aliases; alias 101 (*d)"), e.getMessage());
    }

    /** Item 10 of issue 31: the 100-alias limit counted aliases to lists and maps, not to scalars. */
    @Test
    void aliasesToScalarsCountToo() {
        StringBuilder sb = new StringBuilder("name: many\nv: &v leaf\nl:\n");
        for (int i = 0; i <= YamlTree.MAX_ALIASES; i++) {
            sb.append("  - *v\n");
        }
        InputException e = assertThrows(InputException.class, () -> ContainerlabYaml.read(sb.toString(), "many.clab.yml"));
        assertTrue(e.getMessage().contains("many.clab.yml: $: more than 100 aliases; alias 101 (*v) at line"), e.getMessage());
    }

    /** Item 10 of issue 31: a wrong-typed topology.kinds or topology.defaults was silently ignored. */
    @Test
    void kindsAndDefaultsOfTheWrongTypeAreRefused() {
        String nodes = "  nodes:\n    a: {kind: linux}\n";
        InputException k = assertThrows(InputException.class,
                () -> ContainerlabYaml.read("name: k\ntopology:\n  kinds: [linux]\n" + nodes, "k.clab.yml"));
        assertTrue(k.getMessage().contains("k.clab.yml: $.topology.kinds: must be a mapping"), k.getMessage());
        InputException d = assertThrows(InputException.class,
                () -> ContainerlabYaml.read("name: d\ntopology:\n  defaults: linux\n" + nodes, "d.clab.yml"));
        assertTrue(d.getMessage().contains("d.clab.yml: $.topology.defaults: must be a mapping"), d.getMessage());
        InputException one = assertThrows(InputException.class,
                () -> ContainerlabYaml.read("name: o\ntopology:\n  kinds:\n    linux: alpine\n" + nodes, "o.clab.yml"));
        assertTrue(one.getMessage().contains("o.clab.yml: $.topology.kinds.linux: a kind's settings must be a mapping"),
                one.getMessage());
    }

    @Test
    void aRecursiveAliasIsRefused() {
        String yaml = "name: rec\ntopology: &t\n  nodes:\n    a: *t\n";
        InputException e = assertThrows(InputException.class, () -> ContainerlabYaml.read(yaml, "rec.clab.yml"));
        assertTrue(e.getMessage().contains("refers to a node that contains it"), e.getMessage());
    }

    @Test
    void duplicateKeysAreErrorsWithTheirPath() {
        String yaml = "name: dup\ntopology:\n  nodes:\n    a: {kind: linux}\n    a: {kind: srl}\n";
        InputException e = assertThrows(InputException.class, () -> ContainerlabYaml.read(yaml, "dup.clab.yml"));
        assertTrue(e.getMessage().contains("dup.clab.yml: $.topology.nodes.a: duplicate key \"a\" at line 5"),
                e.getMessage());
    }

    @Test
    void yamlSyntaxErrorsNameLineAndColumn() {
        InputException e = assertThrows(InputException.class,
                () -> ContainerlabYaml.read("name: x\ntopology: [a\n", "syn.clab.yml"));
        assertTrue(e.getMessage().startsWith("syn.clab.yml: $: not valid YAML at line "), e.getMessage());
    }

    @Test
    void exportMergesIntoAnAnnotationsFileWithAByteOrderMark(@TempDir Path dir) throws Exception {
        Fabric f = SampleFabrics.everyField();
        Path topo = dir.resolve("lab.clab.yml");
        Path ann = ContainerlabYaml.annotationsPath(topo);
        Files.writeString(ann, "\uFEFF{\"freeTextAnnotations\": [{\"id\": \"t1\", \"text\": \"rack A\"}]}");
        ContainerlabYaml.save(f, topo);
        String written = Files.readString(ann);
        assertTrue(written.contains("rack A"), "the user's annotation is kept: " + written);
        assertTrue(written.contains("nodeAnnotations"), written);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"freeTextAnnotations\": [{\"id\": \"t1\", \"text\": \"rack A\"},]}",
            "{\"freeTextAnnotations\": []", "[1, 2]", "\u00ff\u00fe"})
    void exportStopsAndKeepsAnAnnotationsFileItCannotRead(String content, @TempDir Path dir) throws Exception {
        Fabric f = SampleFabrics.everyField();
        Path topo = dir.resolve("lab.clab.yml");
        Path ann = ContainerlabYaml.annotationsPath(topo);
        byte[] before = content.equals("\u00ff\u00fe") ? new byte[] {(byte) 0xff, (byte) 0xfe, 'x'}
                : content.getBytes(StandardCharsets.UTF_8);
        Files.write(ann, before);
        IOException e = assertThrows(IOException.class, () -> ContainerlabYaml.save(f, topo));
        assertTrue(e.getMessage().contains(ann.toString()), e.getMessage());
        assertTrue(e.getMessage().contains("nothing was written"), e.getMessage());
        assertNotNull(Files.readAllBytes(ann));
        assertEquals(new String(before, StandardCharsets.ISO_8859_1),
                new String(Files.readAllBytes(ann), StandardCharsets.ISO_8859_1), "the side file is untouched");
        assertFalse(Files.exists(topo), "no half export: the topology is not written either");
    }
}
