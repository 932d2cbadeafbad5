package io.fabriclab.topology.describe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.ScaleUp;
import io.fabriclab.topology.FatTreeGenerator;
import io.fabriclab.topology.FatTreeParams;
import io.fabriclab.topology.LeafSpineGenerator;
import io.fabriclab.topology.LeafSpineParams;
import io.fabriclab.topology.RailOptimizedGenerator;
import io.fabriclab.topology.RailParams;

/** Round trip: describe a generated fabric, build the sentence, get the same fabric back. */
class FabricSentenceTest {

    static void roundTrip(Fabric f) {
        String s = FabricSentence.of(f);
        Understanding u = Descriptions.understand(s);
        assertTrue(u.ok(), s + "\n" + u.table());
        assertEquals(List.of(), u.unused(), "describe writes no word new does not use: " + s);
        Fabric again = u.blueprint().build();
        assertNull(FabricSentence.difference(f, again), s);
        assertEquals(s, FabricSentence.of(again), "the sentence is stable");
    }

    @TestFactory
    Stream<DynamicTest> generatorsFabricsComeBack() {
        List<Fabric> fabrics = new ArrayList<>();
        fabrics.add(LeafSpineGenerator.classic());
        fabrics.add(LeafSpineGenerator.generate(new LeafSpineParams(4, 2, 8, 8, 400, 16, 400, 3, 50, null)));
        fabrics.add(LeafSpineGenerator.generate(new LeafSpineParams(6, 3, 12, 2, 200, 2, 800, 2, 100, 64, ScaleUp.of("B200"))));
        fabrics.add(LeafSpineGenerator.generate(new LeafSpineParams(1, 1, 1, 1, 25, 1, 25, 1, 1, null)));
        fabrics.add(RailOptimizedGenerator.generate(1));
        fabrics.add(RailOptimizedGenerator.generate(4));
        fabrics.add(RailOptimizedGenerator.generate(RailParams.of(16)));
        fabrics.add(RailOptimizedGenerator.generate(RailParams.of(32).withUnitsPerSpineGroup(2)));
        fabrics.add(RailOptimizedGenerator.generate(RailParams.of(2).withLeafUplinks(16).withScaleUp(ScaleUp.of("A100"))));
        fabrics.add(RailOptimizedGenerator.generate(new RailParams(3, 16, 4, 128, 800, 5, 40, 120, 8, 1)));
        fabrics.add(FatTreeGenerator.generate(4));
        fabrics.add(FatTreeGenerator.generate(8));
        fabrics.add(FatTreeGenerator.generate(FatTreeParams.of(4).withSparePorts(4)));
        fabrics.add(FatTreeGenerator.generate(new FatTreeParams(6, 100, 2, 20, 200, 0, ScaleUp.of("H200"))));
        return fabrics.stream().map(f -> DynamicTest.dynamicTest(f.name() + ": " + f.description(), () -> roundTrip(f)));
    }

    @TestFactory
    Stream<DynamicTest> withQosModelsTransportsAndNamesTheyComeBackToo() {
        return Stream.of(
                "leaf-spine, 4 leaves, no PFC",
                "leaf-spine, 4 leaves, PFC and ECN on priority 4, no DCQCN",
                "leaf-spine, best effort, Ultra Ethernet",
                "leaf-spine, lossy, class 5",
                "leaf-spine, PFC only, DSCP 42",
                Descriptions.EXAMPLE,
                Descriptions.EXAMPLE.replace("priority 3", "priority 2"),
                "rail-optimized, 16 SUs, Spectrum-4 leaves, Tomahawk 5 spines, Jericho 3 cores, ECN only, class 1",
                "rail-optimized, 2 SUs, Quantum-2 switches, 20 m to the servers",
                "128 DGX B200 over InfiniBand, Quantum-X800 switches, rail-optimized, 800G",
                "fat tree k=8, SN5600 switches, RoCEv2, named \"hall B\"",
                "fat tree k=4, Tomahawk 3 cores, no PFC, ECN on priority 3",
                "leaf-spine, 8 servers per leaf with 8 x 400G NICs, 4 spines, 2:1, Tomahawk 4 leaves, Spectrum-3 spines")
                .map(s -> DynamicTest.dynamicTest(s, () -> {
                    Understanding u = Descriptions.understand(s);
                    assertTrue(u.ok(), u.table());
                    roundTrip(u.blueprint().build());
                }));
    }

    @TestFactory
    Stream<DynamicTest> everyFabricOfTheCorpusComesBack() throws Exception {
        return DescriptionCorpusTest.corpus().stream().filter(l -> !l.expect().startsWith("!"))
                .map(l -> DynamicTest.dynamicTest("line " + l.no() + ": " + l.sentence(), () -> {
                    Understanding u = Descriptions.understand(l.sentence());
                    roundTrip(u.blueprint().build());
                }));
    }

    @Test
    void anEditedFabricHasNoSentenceAndTheMessageNamesTheDifference() {
        Fabric f = LeafSpineGenerator.classic();
        f.device("leaf1").setModel("my own switch");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FabricSentence.of(f));
        assertTrue(e.getMessage().contains("device leaf1: model 'my own switch' vs '9x400G+8x100G'")
                || e.getMessage().contains("device leaf1: model"), e.getMessage());
        Fabric g = LeafSpineGenerator.classic();
        g.removeLink(g.links().iterator().next());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> FabricSentence.of(g)).getMessage()
                .contains("(leaf-spine: device "));
        assertThrows(IllegalArgumentException.class, () -> FabricSentence.of(new Fabric("empty")));
    }
}
