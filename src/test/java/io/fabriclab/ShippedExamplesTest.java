package io.fabriclab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import io.fabriclab.io.FabricJson;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.topology.DeadlockCheck;
import io.fabriclab.topology.ExampleFabrics;
import io.fabriclab.topology.LeafSpineGenerator;
import io.fabriclab.topology.RailOptimizedGenerator;
import io.fabriclab.topology.RailParams;

import org.junit.jupiter.api.Test;

/** The example fabrics shipped in resources/examples are what the generators make, and load cleanly. */
class ShippedExamplesTest {
    private static final Path DIR = Path.of("resources/examples");

    private static Fabric load(String name) throws Exception {
        return FabricJson.read(DIR.resolve(name));
    }

    /** Same structure as a fresh generator run (names and descriptions may be edited by hand). */
    private static void assertSameShape(Fabric expected, Fabric shipped) {
        assertEquals(expected.devices().size(), shipped.devices().size());
        assertEquals(expected.linkCount(), shipped.linkCount());
        assertEquals(expected.gpuCount(), shipped.gpuCount());
        for (Link l : expected.links()) {
            assertTrue(shipped.link(l.id()) != null, "missing link " + l.id());
        }
    }

    @Test
    void classicLeafSpineIsTheDomainsLabExample() throws Exception {
        Fabric f = load("classic-leaf-spine.json");
        assertSameShape(LeafSpineGenerator.classic(), f);
        // 4 leaves, 2 spines, 32 servers with one 100G NIC, 400G uplinks, PFC + ECN on priority 3.
        assertEquals(32, f.servers().size());
        assertTrue(f.links().stream().anyMatch(l -> l.speedGbps() == 400));
        assertTrue(f.qosProfiles().values().stream().allMatch(q -> q.pfc().isLossless(3) && q.ecn().forClass(3) != null));
    }

    @Test
    void railExamplesMatchTheGenerator() throws Exception {
        assertSameShape(RailOptimizedGenerator.generate(RailParams.of(1)), load("rail-1su.json"));
        assertSameShape(RailOptimizedGenerator.generate(RailParams.of(4)), load("rail-4su.json"));
    }

    @Test
    void theGpuServerExamplesCarryTheGeneratorsScaleUpDomainInCanonicalForm() throws Exception {
        for (String name : new String[] {"classic-leaf-spine.json", "rail-1su.json", "rail-4su.json"}) {
            Fabric f = load(name);
            assertTrue(!f.servers().isEmpty(), name);
            for (io.fabriclab.model.Device d : f.servers()) {
                assertEquals(io.fabriclab.model.ScaleUp.DEFAULT, d.scaleUp(), name + " " + d.id());
            }
            assertEquals(Files.readString(DIR.resolve(name)), FabricJson.write(f), name + " is in FabricLab's canonical form");
        }
    }

    @Test
    void deadlockExampleIsCleanHealthyAndCyclicAfterItsTriggerFailure() throws Exception {
        Fabric f = load("deadlock-after-failure.json");
        assertSameShape(ExampleFabrics.deadlockProne(), f);
        assertTrue(DeadlockCheck.check(f).deadlockFree());
        Link trigger = f.link(ExampleFabrics.DEADLOCK_TRIGGER_LINK);
        assertFalse(DeadlockCheck.check(f, Set.of(), Set.of(trigger)).deadlockFree());
    }

    @Test
    void examplesAreOnTheClasspathForTheApp() {
        for (String name : new String[] {"classic-leaf-spine.json", "rail-1su.json", "rail-4su.json", "deadlock-after-failure.json"}) {
            assertTrue(Files.exists(DIR.resolve(name)));
            assertTrue(ShippedExamplesTest.class.getResource("/fabriclab/examples/" + name) != null, name);
        }
    }
}
