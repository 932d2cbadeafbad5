package io.fabriclab.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.ScaleUp;

/** Every generator gives every server its GPUs' scale-up domain: H100 unless the parameters say otherwise. */
class GeneratorScaleUpTest {

    private static void assertEveryServer(Fabric f, ScaleUp expected) {
        for (Device d : f.servers()) {
            assertEquals(expected, d.scaleUp(), d.id());
        }
        for (Device d : f.switches()) {
            assertNull(d.scaleUp(), d.id());
        }
    }

    @Test
    void theDefaultIsH100() {
        assertEveryServer(RailOptimizedGenerator.generate(RailParams.of(1)), ScaleUp.of("H100"));
        assertEveryServer(LeafSpineGenerator.generate(LeafSpineParams.classic()), ScaleUp.of("H100"));
        assertEveryServer(FatTreeGenerator.generate(FatTreeParams.of(4)), ScaleUp.of("H100"));
    }

    @Test
    void anotherGenerationOrCustomFiguresReachEveryServer() {
        for (ScaleUp s : List.of(ScaleUp.of("A100"), ScaleUp.of("B200"), new ScaleUp("MI300X", "Infinity Fabric", 448, 700))) {
            assertEveryServer(RailOptimizedGenerator.generate(RailParams.of(1).withScaleUp(s)), s);
            assertEveryServer(LeafSpineGenerator.generate(LeafSpineParams.classic().withScaleUp(s)), s);
            assertEveryServer(FatTreeGenerator.generate(FatTreeParams.of(4).withScaleUp(s)), s);
        }
        // The with* methods keep it.
        ScaleUp b200 = ScaleUp.of("B200");
        assertEquals(b200, RailParams.of(1).withScaleUp(b200).withUnits(2).withLeafUplinks(16).scaleUp());
        assertEquals(b200, LeafSpineParams.classic().withScaleUp(b200).withLeaves(2).withSwitchRadix(64).scaleUp());
        assertEquals(b200, FatTreeParams.of(4).withScaleUp(b200).withSparePorts(2).scaleUp());
        assertThrows(NullPointerException.class, () -> RailParams.of(1).withScaleUp(null));
    }
}
