package io.fabriclab.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.LinkState;
import io.fabriclab.model.TestFabrics;
import io.fabriclab.routing.NicPairClass;

import org.junit.jupiter.api.Test;

class HopStatsTest {

    @Test
    void fatTreeK4HopDistributionAndDiameter() {
        HopStats h = HopStats.of(TestFabrics.fatTree(4));
        // Per host: 1 host on its edge switch (host-edge-host: 2 links), 2 in its pod
        // (host-edge-agg-edge-host: 4), 12 in other pods (via a core: 6). 16 hosts.
        assertEquals(Map.of(2, 16L, 4, 32L, 6, 192L), h.histogram());
        assertEquals(6, h.diameter());
        assertEquals((2 * 16 + 4 * 32 + 6 * 192) / 240.0, h.mean(), 1e-12);
        assertEquals(Map.of(4, 32L), h.byClass().get(NicPairClass.SAME_POD));
        assertEquals(0, h.unreachablePairs());
    }

    @Test
    void failedLinksStretchPathsAndCutPairsOut() {
        // 3 leaves, 2 spines, 1 server per leaf. leaf0 keeps only its spine1 uplink and leaf1 only
        // its spine0 uplink: leaf0-spine1-leaf2-spine0-leaf1 is the shortest path (4 switch hops).
        Fabric f = TestFabrics.leafSpine(3, 2, 1, 1);
        f.findLink("leaf0--spine0").setState(LinkState.DOWN);
        f.findLink("leaf1--spine1").setState(LinkState.DOWN);
        HopStats h = HopStats.of(f);
        // Pairs srv0<->srv1: 4 + 2 access = 6 hops (2 ordered pairs); the other 4 pairs 4 hops.
        assertEquals(Map.of(4, 4L, 6, 2L), h.histogram());
        assertEquals(6, h.diameter());
        f.findLink("leaf2--spine0").setState(LinkState.DOWN);
        HopStats cut = HopStats.of(f);
        // Now leaf1 hangs off spine0 alone and spine0 reaches nobody else: srv1 is cut off (4 pairs).
        assertEquals(4, cut.unreachablePairs());
        assertEquals(Map.of(4, 2L), cut.histogram());
    }
}
