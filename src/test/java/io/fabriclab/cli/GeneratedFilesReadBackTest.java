package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.fabriclab.io.ContainerlabYaml;
import io.fabriclab.io.FabricFiles;
import io.fabriclab.io.InputException;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.FabricLimits;
import io.fabriclab.topology.LeafSpineGenerator;
import io.fabriclab.topology.LeafSpineParams;

/**
 * {@code generate}, {@code convert}, the editor's Save and New from Template never write a fabric
 * FabricLab's own reader refuses: the generators check the reader's limits (FabricLimits) before
 * building, and every fabric write goes through the reader first.
 */
class GeneratedFilesReadBackTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            // 128 x 64 uplinks on every leaf: more ports than a device may have.
            "leaf-spine --spines 128 --uplinks-per-pair 64 | 8200 ports",
            "leaf-spine --server-cable 1e308 | at most 100000",
            "leaf-spine --uplink-cable NaN | at most 100000",
            "leaf-spine --leaves 2000 --servers-per-leaf 1000 | 2002002 devices",
            "fat-tree -k 1000 | devices; FabricLab reads at most 1000000",
            "rail --units 100000 | devices; FabricLab reads at most 1000000",
            "leaf-spine --name= | $.name"})
    void generateRefusesWhatTheReaderWouldRefuse(String options, String says) throws Exception {
        Path out = dir.resolve("g.json");
        List<String> args = new ArrayList<>(List.of("generate"));
        args.addAll(List.of(options.split(" ")));
        args.addAll(List.of("-o", out.toString()));
        CliRun r = CliRun.of(args.toArray(String[]::new));
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains(says), r.err());
        assertFalse(Files.exists(out), "nothing written");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"leaf-spine --leaves 8 --spines 4 --uplinks-per-pair 2 | g.json",
            "rail --units 2 | g.clab.yml", "fat-tree -k 8 | g.json", "leaf-spine --server-cable 100000 | g.json"})
    void whatGenerateWritesReadsBack(String options, String file) throws Exception {
        Path out = dir.resolve(file);
        List<String> args = new ArrayList<>(List.of("generate"));
        args.addAll(List.of(options.split(" ")));
        args.addAll(List.of("-o", out.toString()));
        assertEquals(0, CliRun.of(args.toArray(String[]::new)).code());
        assertTrue(FabricFiles.load(out).devices().size() > 0);
    }

    @Test
    void convertRefusesAPositionTheReaderRefuses() throws Exception {
        Path json = dir.resolve("f.json");
        Fabric f = LeafSpineGenerator.generate(LeafSpineParams.classic());
        new io.fabriclab.diagram.TieredLayout().placeMissing(f, f.layout());
        FabricFiles.save(f, json);
        Path clab = dir.resolve("lab.clab.yml");
        assertEquals(0, CliRun.of("convert", json.toString(), clab.toString()).code());
        Path ann = ContainerlabYaml.annotationsPath(clab);
        Files.writeString(ann, Files.readString(ann).replaceFirst("\"x\"\\s*:\\s*[-0-9.eE]+", "\"x\": 1e308"));
        Path out = dir.resolve("back.json");
        CliRun r = CliRun.of("convert", clab.toString(), out.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("not written, FabricLab could not read it back"), r.err());
        assertTrue(r.err().contains("$.layout.positions"), r.err());
        assertFalse(Files.exists(out));
    }

    @Test
    void theEditorsSaveRefusesAFabricItCouldNotOpen() throws Exception {
        Path file = Files.writeString(dir.resolve("saved.json"), "the last good save");
        Fabric f = LeafSpineGenerator.generate(LeafSpineParams.classic());
        f.setName("");
        InputException e = assertThrows(InputException.class, () -> FabricFiles.save(f, file));
        assertTrue(e.getMessage().contains(file + ": $.name: not written"), e.getMessage());
        assertEquals("the last good save", Files.readString(file));
    }

    @Test
    void newFromTemplateUsesTheSameLimits() {
        // The template dialog's largest leaf-spine (spinner maxima 128 spines, 64 uplinks per pair).
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new LeafSpineParams(4, 128, 8, 1, 100, 64, 400, 3, 30, null));
        assertTrue(e.getMessage().contains("at most " + FabricLimits.MAX_PORTS_PER_DEVICE), e.getMessage());
    }
}
