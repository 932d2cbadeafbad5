package io.fabriclab.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import io.fabriclab.model.CableType;
import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Counts of the rail-optimized generator against the growth of the DGX SuperPOD compute fabric
 * (32 servers x 8 GPUs per SU, 64-port 400G switches, non-blocking).
 *
 * <p>Source: NVIDIA DGX SuperPOD Reference Architecture with DGX B200 systems, section "DGX
 * SuperPOD Architecture", table "Larger DGX SuperPOD component counts"
 * (https://docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-b200/latest/dgx-superpod-architecture.html):
 * SUs / nodes / GPUs / leaf / spine / core / node-leaf / leaf-spine / spine-core cables =
 * 2/64/512/16/8/-/512/512/-, 4/128/1024/32/16/-, 8/256/2048/64/32/-, 16/512/4096/128/128/64/4096 x3,
 * 32/1024/8192/256/256/128/8192 x3, 64/2048/16384/512/512/256/16384 x3. The rows below repeat them.
 * The 1-SU (8 leaves, 4 spines) and 3-SU (24 leaves, 16 spines) rows are those of the DGX H100
 * reference architecture's compute-fabric table, which counts 31 nodes per SU (one slot for UFM).
 *
 * <p>Derivation: a rail leaf has 32 server ports and 32 uplinks; per SU 8 leaves, 256 server-leaf
 * and 256 leaf-spine cables. Two tiers while leaves (8U) <= radix 64, i.e. U <= 8: spines =
 * 8U x 32 uplinks / 64 ports = 4U, rounded up to a divisor of 32 (U = 3: 12 -> 16). From U = 16
 * each SU is a spine group: its 8 leaves x 32 uplinks land on 8 spines with 32 ports down and 32
 * up, so spines = 8U; spine-core cables = 8U x 32 = 256U; cores = 256U / 64 = 4U.
 */
class RailOptimizedGeneratorTest {

    @ParameterizedTest(name = "{0} SU: {1} leaves, {2} spines, {3} cores")
    @CsvSource({
            // units, leaves, spines, cores, server-leaf, leaf-spine, spine-core
            "1, 8, 4, 0, 256, 256, 0",
            "2, 16, 8, 0, 512, 512, 0",
            "3, 24, 16, 0, 768, 768, 0",
            "4, 32, 16, 0, 1024, 1024, 0",
            "8, 64, 32, 0, 2048, 2048, 0",
            "16, 128, 128, 64, 4096, 4096, 4096",
            "32, 256, 256, 128, 8192, 8192, 8192",
            "64, 512, 512, 256, 16384, 16384, 16384"})
    void switchAndCableCountsFollowTheScalableUnitGrowth(int units, int leaves, int spines, int cores,
                                                         int serverLeaf, int leafSpine, int spineCore) {
        Fabric f = RailOptimizedGenerator.generate(units);
        assertEquals(units * 32, f.servers().size());
        assertEquals(units * 256, f.gpuCount());
        assertEquals(leaves, f.devices(DeviceRole.LEAF).size());
        assertEquals(spines, f.devices(DeviceRole.SPINE).size());
        assertEquals(cores, f.devices(DeviceRole.CORE).size());
        Map<String, Integer> byTier = cablesByTier(f);
        assertEquals(serverLeaf, byTier.getOrDefault("server-leaf", 0));
        assertEquals(leafSpine, byTier.getOrDefault("leaf-spine", 0));
        assertEquals(spineCore, byTier.getOrDefault("spine-core", 0));
        assertEquals(serverLeaf + leafSpine + spineCore, f.linkCount());

        RailPlan plan = RailPlan.of(RailParams.of(units));
        assertEquals(leaves + spines + cores, plan.switches());
        assertEquals(spineCore, plan.spineCoreCables());
    }

    @Test
    void eightUnitsIsTheLargestTwoTierFabricOfSixtyFourPortSwitches() {
        // 8 SU = 64 leaves = one spine port per leaf on 64-port spines: 2048 GPUs in two tiers.
        RailPlan eight = RailPlan.of(RailParams.of(8));
        assertFalse(eight.threeTier());
        assertEquals(1, eight.leafSpinePerPair());
        assertTrue(RailPlan.of(RailParams.of(9)).threeTier());
        // 1 SU: 8 leaves x 32 uplinks on 4 spines = 8 parallel links per leaf-spine pair.
        assertEquals(8, RailPlan.of(RailParams.of(1)).leafSpinePerPair());
        // 3 SU: 24 x 32 / 64 = 12 spines would do, but 12 does not divide 32 uplinks: 16 (as NVIDIA builds it).
        assertEquals(16, RailPlan.of(RailParams.of(3)).spines());
    }

    @Test
    void nicKOfEveryServerLandsOnTheRailKLeafOfItsUnit() {
        Fabric f = RailOptimizedGenerator.generate(2);
        for (Device srv : f.servers()) {
            assertEquals(8, srv.portCount());
            for (Port p : srv.ports()) {
                Link l = f.linkAt(p);
                Device leaf = l.other(srv);
                assertEquals(DeviceRole.LEAF, leaf.role());
                assertEquals(p.nic(), leaf.rail(), p.ref());
                assertEquals(srv.unit(), leaf.unit(), p.ref());
            }
        }
        Port nic3 = f.port("su2-srv05:nic3");
        assertEquals(f.port("su2-leaf3:eth5"), f.linkAt(nic3).opposite(nic3));
    }

    @Test
    void portUsageNeverExceedsTheRadixInAnyTier() {
        for (int units : new int[] {1, 3, 8, 12, 16, 32}) {
            Fabric f = RailOptimizedGenerator.generate(units);
            for (Device sw : f.switches()) {
                assertEquals(64, sw.portCount(), sw.id());
                assertTrue(f.linksOf(sw).size() <= 64, sw.id());
                assertEquals("64x400G", sw.model());
            }
        }
    }

    @Test
    void spinesOfAThreeTierFabricHaveAsManyUplinksAsDownlinks() {
        Fabric f = RailOptimizedGenerator.generate(16);
        for (Device spine : f.devices(DeviceRole.SPINE)) {
            long down = f.linksOf(spine).stream().filter(l -> l.other(spine).role() == DeviceRole.LEAF).count();
            long up = f.linksOf(spine).stream().filter(l -> l.other(spine).role() == DeviceRole.CORE).count();
            assertEquals(32, down, spine.id());
            assertEquals(32, up, spine.id());
            // each spine of SU u serves only the 8 leaves of SU u, 4 links each.
            for (Device leaf : f.neighbors(spine)) {
                if (leaf.role() == DeviceRole.LEAF) {
                    assertEquals(spine.unit(), leaf.unit());
                    assertEquals(4, f.linksBetween(spine, leaf).size());
                }
            }
        }
        // core group j joins spine j of all 16 SUs: 8 cores per group, 4 links per spine-core pair.
        Device core = f.device("cg1-core1");
        assertNotNull(core);
        Set<Integer> units = new HashSet<>();
        for (Device spine : f.neighbors(core)) {
            assertTrue(spine.id().endsWith("-spine1"), spine.id());
            assertEquals(4, f.linksBetween(core, spine).size());
            units.add(spine.unit());
        }
        assertEquals(16, units.size());
    }

    @Test
    void devicesCarryUnitRailAndPodForGrouping() {
        Fabric f = RailOptimizedGenerator.generate(16);
        Device leaf = f.device("su07-leaf5");
        assertEquals(6, leaf.unit());
        assertEquals(5, leaf.rail());
        assertEquals(6, leaf.pod());
        Device srv = f.device("su07-srv32");
        assertEquals(6, srv.unit());
        assertNull(srv.rail());
        assertEquals("3", f.device("cg4-core8").labels().get("coreGroup"));
    }

    @Test
    void cablesFollowTheTierLengths() {
        Fabric f = RailOptimizedGenerator.generate(16);
        for (Link l : f.links()) {
            String tier = tier(l);
            double expected = switch (tier) {
                case "server-leaf" -> 20;
                case "leaf-spine" -> 50;
                default -> 150;
            };
            assertEquals(expected, l.cableLengthM(), l.id());
            // 20 m and 50 m are multimode reach (<= 100 m); 150 m needs single-mode.
            assertEquals(expected > 100 ? CableType.SMF : CableType.MMF, l.cableType(), l.id());
        }
    }

    @Test
    void largerSpineGroupsKeepTheSameCounts() {
        // Groups of 4 SUs: 32 leaves x 32 uplinks over 32 spines (one link each); 16 SU -> 4 groups.
        Fabric f = RailOptimizedGenerator.generate(RailParams.of(16).withUnitsPerSpineGroup(4));
        assertEquals(128, f.devices(DeviceRole.SPINE).size());
        assertEquals(64, f.devices(DeviceRole.CORE).size());
        assertEquals(4096 * 3, f.linkCount());
        assertThrows(IllegalArgumentException.class,
                () -> RailOptimizedGenerator.generate(RailParams.of(16).withUnitsPerSpineGroup(5)));
    }

    @Test
    void otherShapesFollowTheSameRules() {
        // 16 servers x 4 GPUs per unit on 32-port 200G switches, 16 uplinks per leaf.
        // 3 units: 12 leaves <= 32, two tiers; spines = smallest divisor of 16 >= 12 x 16 / 32 = 6 -> 8,
        // 16 / 8 = 2 links per leaf-spine pair, 12 x 2 = 24 of 32 spine ports used.
        RailParams small = new RailParams(3, 16, 4, 32, 200, 3, 30, 150, 16, 1);
        Fabric two = RailOptimizedGenerator.generate(small);
        assertEquals(12, two.devices(DeviceRole.LEAF).size());
        assertEquals(8, two.devices(DeviceRole.SPINE).size());
        for (Device spine : two.devices(DeviceRole.SPINE)) {
            assertEquals(24, two.linksOf(spine).size());
        }
        // 10 units: 40 leaves > 32, three tiers, one unit per group. Group spines = smallest divisor
        // of 16 >= 4 x 16 / 16 = 4 -> 4, each with 4 x 16 / 4 = 16 down and 16 up. Core group size =
        // smallest divisor of 16 >= 10 x 16 / 32 = 5 -> 8; cores = 4 x 8 = 32; 16 / 8 = 2 links per
        // spine-core pair, 10 groups x 2 = 20 of 32 core ports used. Spine-core cables 40 x 16 = 640.
        Fabric three = RailOptimizedGenerator.generate(small.withUnits(10));
        assertEquals(40, three.devices(DeviceRole.SPINE).size());
        assertEquals(32, three.devices(DeviceRole.CORE).size());
        assertEquals(640, cablesByTier(three).get("spine-core"));
        for (Device core : three.devices(DeviceRole.CORE)) {
            assertEquals(20, three.linksOf(core).size(), core.id());
        }
        // DAC to the servers at 3 m.
        assertEquals(CableType.DAC, three.linkAt(three.port("su01-srv01:nic0")).cableType());
    }

    @Test
    void refusesALeafThatCannotHoldItsServersAndUplinks() {
        // 32 servers + 40 uplinks = 72 > 64 ports.
        assertThrows(IllegalArgumentException.class, () -> RailParams.of(1).withLeafUplinks(40));
    }

    @Test
    void refusesSizesBeyondThreeTiersOfTheRadix() {
        // 65 spine groups exceed the 64 ports of a core switch.
        assertThrows(IllegalArgumentException.class, () -> RailPlan.of(RailParams.of(65)));
    }

    static Map<String, Integer> cablesByTier(Fabric f) {
        Map<String, Integer> m = new HashMap<>();
        for (Link l : f.links()) {
            m.merge(tier(l), 1, Integer::sum);
        }
        return m;
    }

    static String tier(Link l) {
        DeviceRole x = l.a().device().role();
        DeviceRole y = l.b().device().role();
        return x.tier() <= y.tier() ? x + "-" + y : y + "-" + x;
    }
}
