package io.fabriclab.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.LinkState;
import io.fabriclab.model.TestFabrics;

import org.junit.jupiter.api.Test;

class EcmpPathCounterTest {

    @Test
    void parallelUplinksMultiplyLeafToLeafPaths() {
        // 4 leaves, 2 spines, 2 links from each leaf to each spine, 2 servers per leaf.
        Fabric f = TestFabrics.leafSpine(4, 2, 2, 2);
        EcmpPathCounter c = EcmpPathCounter.of(f);
        // leaf0 -> spine (2 spines x 2 parallel uplinks) -> leaf1 (2 parallel downlinks) = 2*2*2 = 8
        assertEquals(8, c.paths(f.device("leaf0"), f.device("leaf1")));
        assertEquals(8, c.paths(f.port("srv0_0:nic0"), f.port("srv3_1:nic0")));
        assertEquals(1, c.paths(f.port("srv0_0:nic0"), f.port("srv0_1:nic0")));
        assertEquals(1, c.paths(f.device("leaf2"), f.device("leaf2")));
    }

    @Test
    void statisticsWeightEdgeSwitchPairsByNicCounts() {
        Fabric f = TestFabrics.leafSpine(4, 2, 2, 2);
        EcmpPathCounter.Statistics st = EcmpPathCounter.of(f).statistics();
        // 8 NICs: 8*7 = 56 ordered pairs. Same leaf: 4 leaves * 2*1 = 8 pairs with 1 path;
        // the other 48 pairs have 8 paths. Mean = (8*1 + 48*8) / 56 = 392/56 = 7.
        assertEquals(56, st.all().nicPairs());
        assertEquals(1, st.all().min());
        assertEquals(8, st.all().max());
        assertEquals(7.0, st.all().mean(), 1e-12);
        assertEquals(Map.of(1L, 8L, 8L, 48L), st.all().histogram());
        assertEquals(8, st.byClass().get(NicPairClass.SAME_SWITCH).nicPairs());
        assertEquals(48, st.byClass().get(NicPairClass.OTHER_SWITCH).nicPairs());
        assertEquals(0, st.all().unreachablePairs());
    }

    @Test
    void fatTreeK4PathCountsByPairClass() {
        Fabric f = TestFabrics.fatTree(4);
        EcmpPathCounter.Statistics st = EcmpPathCounter.of(f).statistics();
        // 16 hosts, 240 ordered pairs. Per host: 1 host on its edge switch (1 path), 2 hosts on the
        // other edge switch of its pod (2 paths, one per aggregation switch), 12 hosts in other pods
        // ((k/2)^2 = 4 paths, one per core).
        assertEquals(240, st.all().nicPairs());
        assertEquals(Map.of(1L, 16L, 2L, 32L, 4L, 192L), st.all().histogram());
        assertEquals((16 * 1 + 32 * 2 + 192 * 4) / 240.0, st.all().mean(), 1e-12);
        assertEquals(Map.of(2L, 32L), st.byClass().get(NicPairClass.SAME_POD).histogram());
        assertEquals(Map.of(4L, 192L), st.byClass().get(NicPairClass.OTHER_UNIT).histogram());
    }

    @Test
    void railThreeTierPathsByUnitPodAndPlane() {
        // 4 units of 2 servers x 2 rails, 2 units per pod, 2 spines per pod, 2 cores per plane,
        // 2 parallel spine-core links.
        Fabric f = TestFabrics.railThreeTier(4, 2, 2, 2, 2, 2, 2);
        EcmpPathCounter c = EcmpPathCounter.of(f);
        // Same unit, other rail: up to either pod spine and down: 2 paths.
        assertEquals(2, c.paths(f.port("gpu0_0:nic0"), f.port("gpu0_1:nic1")));
        // Same pod, other unit: also through the 2 pod spines.
        assertEquals(2, c.paths(f.port("gpu0_0:nic0"), f.port("gpu1_0:nic0")));
        // Other pod: 2 spines (planes) x (2 cores x 2 links) up x 2 links down to the plane's spine = 16.
        assertEquals(16, c.paths(f.port("gpu0_0:nic0"), f.port("gpu2_0:nic1")));
        EcmpPathCounter.Statistics st = c.statistics();
        // 16 NICs on 8 leaves (2 each). A NIC sees 1 NIC on its leaf, 2 on the other rail leaf of its
        // unit, 4 in the other unit of its pod, 8 in the other pod: pairs 16*1, 16*2, 16*4, 16*8.
        assertEquals(Map.of(1L, 16L), st.byClass().get(NicPairClass.SAME_SWITCH).histogram());
        assertEquals(Map.of(2L, 32L), st.byClass().get(NicPairClass.SAME_UNIT).histogram());
        assertEquals(Map.of(2L, 64L), st.byClass().get(NicPairClass.SAME_POD).histogram());
        assertEquals(Map.of(16L, 128L), st.byClass().get(NicPairClass.OTHER_UNIT).histogram());
    }

    @Test
    void countsEqualTheDynamicProgramOverRoutingNextHops() {
        // An irregular fabric: a fat tree with two links down and one extra leaf-to-leaf link.
        Fabric f = TestFabrics.fatTree(4);
        f.findLink("edge0_0--agg0_0").setState(LinkState.DOWN);
        f.findLink("agg1_1--core1_0").setState(LinkState.DOWN);
        TestFabrics.connect(f, f.device("edge2_0"), f.device("edge3_1"), 400, 10);
        Routing r = Routing.compute(f, Set.of(f.device("core0_1")), Set.of());
        EcmpPathCounter c = EcmpPathCounter.of(r);
        for (Device dst : r.switches()) {
            Map<Device, Long> memo = new HashMap<>();
            for (Device src : r.switches()) {
                assertEquals(dp(r, src, dst, memo), c.paths(src, dst), src + " -> " + dst);
            }
        }
    }

    /** sigma(dst) = 1; sigma(u) = sum over Routing.nextHops(u, dst) of sigma(next). */
    private static long dp(Routing r, Device u, Device dst, Map<Device, Long> memo) {
        if (u == dst) {
            return 1;
        }
        Long m = memo.get(u);
        if (m != null) {
            return m;
        }
        long s = 0;
        List<Link> hops = r.nextHops(u, dst);
        for (Link l : hops) {
            s += dp(r, l.other(u), dst, memo);
        }
        memo.put(u, s);
        return s;
    }

    @Test
    void failedUplinkLowersCountAndIsolatedLeafIsUnreachable() {
        Fabric f = TestFabrics.leafSpine(3, 2, 1, 1);
        Link l = f.findLink("leaf0--spine0");
        Routing r = Routing.compute(f, Set.of(), Set.of(l));
        EcmpPathCounter c = EcmpPathCounter.of(r);
        assertEquals(1, c.paths(f.device("leaf0"), f.device("leaf1")));
        assertEquals(2, c.paths(f.device("leaf1"), f.device("leaf2")));
        Routing cut = Routing.compute(f, Set.of(), Set.of(l, f.findLink("leaf0--spine1")));
        EcmpPathCounter.Statistics st = EcmpPathCounter.of(cut).statistics();
        // srv0 is cut off: 2 ordered pairs with each of the 2 other NICs = 4 unreachable of 6.
        assertEquals(6, st.all().nicPairs());
        assertEquals(4, st.all().unreachablePairs());
        assertEquals(0, st.all().min());
    }
}
