package io.fabriclab.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.LinkState;
import io.fabriclab.model.TestFabrics;
import io.fabriclab.topology.FailureImpact.Item;
import io.fabriclab.topology.FailureImpact.Kind;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class FailureImpactTest {

    @Test
    void leafSpineUplinkSpineLeafAndAccessLinkFailures() {
        // 4 leaves, 2 spines (one link each), 2 single-NIC servers per leaf: 8 NICs.
        Fabric f = TestFabrics.leafSpine(4, 2, 2, 1);
        FailureImpact fi = FailureImpact.analyze(f);
        // An uplink carries 1 of the 2 paths between its leaf and every other leaf: drop 1/2.
        Item up = fi.item(Kind.LINK, f.findLink("leaf0--spine0").id());
        assertEquals(400, up.capacityLostGbps());
        assertEquals(0, up.nicPairsDisconnected());
        assertEquals(0.5, up.worstDropFraction());
        assertEquals(2, up.worstPair().pathsBefore());
        assertEquals(1, up.worstPair().pathsAfter());
        // A spine carries half the paths of every leaf pair; it has 4 links of 400G.
        Item spine = fi.item(Kind.SWITCH, "spine0");
        assertEquals(1600, spine.capacityLostGbps());
        assertEquals(0.5, spine.worstDropFraction());
        assertEquals(0, spine.nicPairsDisconnected());
        // A leaf cuts its 2 NICs off: 2*1 ordered pairs between them + 2 * (2 NICs x 6 others) = 26.
        Item leaf = fi.item(Kind.SWITCH, "leaf0");
        assertEquals(26, leaf.nicPairsDisconnected());
        assertEquals(1.0, leaf.worstDropFraction());
        assertTrue(leaf.worstPair().disconnected());
        // 2 servers + 2 uplinks = 4 links.
        assertEquals(1600, leaf.capacityLostGbps());
        // An access link cuts one NIC off from the 7 others, both directions: 14.
        Item access = fi.item(Kind.ACCESS_LINK, f.linkAt(f.port("srv1_0:nic0")).id());
        assertEquals(14, access.nicPairsDisconnected());
        // Worst first: leaves (26 pairs) before access links (14) before spines and uplinks.
        List<Item> ranked = fi.ranked();
        assertEquals(Kind.SWITCH, ranked.get(0).kind());
        assertEquals(26, ranked.get(0).nicPairsDisconnected());
        assertEquals(0, ranked.get(ranked.size() - 1).nicPairsDisconnected());
    }

    @Test
    void singleHomedLeafUplinkDisconnectsAndADetourIsReportedAsFullDropWithLongerHops() {
        // 3 leaves, 2 spines, 1 server each; leaf0's uplink to spine0 is down, so leaf0 hangs off
        // spine1 alone.
        Fabric f = TestFabrics.leafSpine(3, 2, 1, 1);
        f.findLink("leaf0--spine0").setState(LinkState.DOWN);
        FailureImpact fi = FailureImpact.analyze(f);
        // Failing leaf0--spine1 isolates srv0 from srv1 and srv2: 2 x 2 = 4 ordered pairs.
        Item last = fi.item(Kind.LINK, f.findLink("leaf0--spine1").id());
        assertEquals(4, last.nicPairsDisconnected());
        assertTrue(last.worstPair().disconnected());
        // Failing leaf1--spine1 leaves leaf0 -> leaf1 one path: leaf0-spine1-leaf2-spine0-leaf1,
        // 4 switch hops + 2 access = 6 instead of 4: every shortest path is gone, none disconnected.
        Item detour = fi.item(Kind.LINK, f.findLink("leaf1--spine1").id());
        assertEquals(0, detour.nicPairsDisconnected());
        assertEquals(1.0, detour.worstDropFraction());
        assertFalse(detour.worstPair().disconnected());
        assertEquals(4, detour.worstPair().hopsBefore());
        assertEquals(6, detour.worstPair().hopsAfter());
        assertEquals(1, detour.worstPair().pathsAfter());
    }

    @Test
    void aLinkOnNoShortestPathHasNoWorstPair() {
        // A leaf-to-leaf link in a 2-spine leaf-spine: leaf0 and leaf1 become 1 hop apart, so the link
        // carries their paths; but a link between two spines carries none (no NIC pair uses it).
        Fabric f = TestFabrics.leafSpine(2, 2, 1, 1);
        TestFabrics.connect(f, f.device("spine0"), f.device("spine1"), 400, 10);
        Item spineSpine = FailureImpact.analyze(f).item(Kind.LINK, f.findLink("spine0--spine1").id());
        assertEquals(0, spineSpine.worstDropFraction());
        assertNull(spineSpine.worstPair());
    }

    /** Seeded irregular fabrics: a rail three-tier fabric with 4 random switch-to-switch links down. */
    static Stream<Fabric> damagedFabrics() {
        return java.util.stream.IntStream.range(0, 8).mapToObj(seed -> {
            Fabric f = TestFabrics.railThreeTier(4, 2, 2, 2, 2, 2, 1);
            java.util.Random rnd = new java.util.Random(seed);
            List<io.fabriclab.model.Link> trunk = f.links().stream()
                    .filter(l -> l.a().device().role().isSwitch() && l.b().device().role().isSwitch()).toList();
            for (int i = 0; i < 4; i++) {
                trunk.get(rnd.nextInt(trunk.size())).setState(LinkState.DOWN);
            }
            f.setName("damaged-" + seed);
            return f;
        });
    }

    /** Twin classes broken by failures, bridges and detours: still equal to a full recomputation. */
    @ParameterizedTest
    @MethodSource("damagedFabrics")
    void damagedFabricsMatchAFullRecomputation(Fabric f) {
        everyItemMatchesAFullRecomputation(f);
    }

    static Stream<Fabric> fabrics() {
        Fabric detour = TestFabrics.leafSpine(3, 2, 1, 1);
        detour.findLink("leaf0--spine0").setState(LinkState.DOWN);
        Fabric bounce = TestFabrics.leafSpine(3, 2, 1, 1);
        bounce.findLink("leaf0--spine0").setState(LinkState.DOWN);
        bounce.findLink("leaf1--spine1").setState(LinkState.DOWN);
        Fabric irregular = TestFabrics.fatTree(4);
        irregular.findLink("edge0_0--agg0_0").setState(LinkState.DOWN);
        irregular.findLink("agg1_1--core1_0").setState(LinkState.DOWN);
        TestFabrics.connect(irregular, irregular.device("edge2_0"), irregular.device("edge3_1"), 400, 10);
        return Stream.of(TestFabrics.leafSpine(4, 2, 2, 2), detour, bounce, TestFabrics.fatTree(4), irregular,
                TestFabrics.railThreeTier(4, 2, 2, 2, 2, 2, 2));
    }

    /** The path-count shortcut must agree with recomputing routing for every single failure. */
    @ParameterizedTest
    @MethodSource("fabrics")
    void everyItemMatchesAFullRecomputation(Fabric f) {
        for (Item item : FailureImpact.analyze(f).items()) {
            FailureImpact.Detail d = item.kind() == Kind.SWITCH
                    ? FailureImpact.detail(f, f.device(item.subject()))
                    : FailureImpact.detail(f, f.link(item.subject()));
            String what = item.kind() + " " + item.subject();
            assertEquals(d.capacityLostGbps(), item.capacityLostGbps(), what);
            assertEquals(d.nicPairsDisconnected(), item.nicPairsDisconnected(), what);
            assertEquals(d.worstDropFraction(), item.worstDropFraction(), what);
            assertEquals(d.worstPair(), item.worstPair(), what);
        }
    }

    @Test
    void detailListsChangedPairsAndStatisticsAfter() {
        Fabric f = TestFabrics.leafSpine(4, 2, 2, 1);
        FailureImpact.Detail d = FailureImpact.detail(f, f.findLink("leaf0--spine0"));
        // leaf0 with each of leaf1..3: 3 pairs of edge switches change from 2 paths to 1.
        assertEquals(3, d.changedPairs().size());
        d.changedPairs().forEach(p -> {
            assertEquals(2, p.pathsBefore());
            assertEquals(1, p.pathsAfter());
            assertEquals(8, p.nicPairs());
        });
        assertEquals(2, d.before().all().max());
        // After: pairs leaf0<->others (2*2*6 = 24 ordered NIC pairs) have 1 path, so min drops to 1 and
        // the 24 pairs among leaves 1-3 keep 2; the 8 same-leaf pairs have 1.
        assertEquals(24, d.after().all().histogram().get(2L));
        assertEquals(8 + 24, d.after().all().histogram().get(1L));
    }
}
