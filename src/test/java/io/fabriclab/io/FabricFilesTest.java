package io.fabriclab.io;

import static io.fabriclab.io.FabricAssertions.assertSameFabric;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fabriclab.io.FabricFiles.Format;
import io.fabriclab.model.Fabric;

class FabricFilesTest {

    @Test
    void theEndingOfTheNameSelectsTheFormat() throws Exception {
        assertEquals(Format.FABRIC_JSON, FabricFiles.formatOf(Path.of("a/fabric.json")));
        assertEquals(Format.CONTAINERLAB, FabricFiles.formatOf(Path.of("lab.clab.yml")));
        assertEquals(Format.CONTAINERLAB, FabricFiles.formatOf(Path.of("lab.CLAB.YAML")), "case does not matter");
        assertEquals(Format.CONTAINERLAB, FabricFiles.formatOf(Path.of("topo.yml")));
        assertEquals(Format.GRAPHML, FabricFiles.formatOf(Path.of("x.graphml")));
        assertEquals(Format.DOT, FabricFiles.formatOf(Path.of("x.dot")));
        InputException e = assertThrows(InputException.class, () -> FabricFiles.formatOf(Path.of("x.xml")));
        assertEquals("x.xml: $: unknown file type (the name's ending selects the format); allowed: .json (fabric json); "
                + ".clab.yml, .clab.yaml, .yml, .yaml (containerlab); .graphml (graphml); .dot (dot)", e.getMessage());
        assertThrows(InputException.class, () -> FabricFiles.formatOf(Path.of(".json")), "an ending alone is no name");
    }

    @Test
    void convertingJsonToContainerlabAndBackKeepsTheTopologyAndLayout(@TempDir Path dir) throws Exception {
        Fabric f = SampleFabrics.everyField();
        Path json = dir.resolve("fabric.json");
        Path clab = dir.resolve("fabric.clab.yml");
        FabricFiles.save(f, json);
        FabricFiles.save(FabricFiles.load(json), clab);
        Fabric back = FabricFiles.load(clab);
        assertSameFabric(f, back, false, false);
        assertEquals(f.layout().positions(), back.layout().positions(), "positions through the annotations file");
    }

    @Test
    void everyFormatIsSavedWithNoTemporaryFilesLeft(@TempDir Path dir) throws Exception {
        Fabric f = SampleFabrics.everyField();
        for (String name : List.of("f.json", "f.clab.yaml", "f.graphml", "f.dot")) {
            FabricFiles.save(f, dir.resolve(name));
            assertTrue(Files.size(dir.resolve(name)) > 100, name);
        }
        try (var s = Files.list(dir)) {
            assertEquals(List.of("f.clab.yaml", "f.clab.yaml.annotations.json", "f.dot", "f.graphml", "f.json"),
                    s.map(p -> p.getFileName().toString()).sorted().toList());
        }
        assertTrue(Files.readString(dir.resolve("f.dot")).contains("\"leaf1\" -- \"spine1\""));
    }
}
