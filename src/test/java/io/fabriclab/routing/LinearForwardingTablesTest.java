package io.fabriclab.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.sim.TestFabrics;

/**
 * The subnet manager's forwarding tables (docs/model.md, InfiniBand routing): the routes each
 * engine gives, derived by hand, and up/down's rule that no route turns up after going down.
 */
class LinearForwardingTablesTest {

    /** leaf0..leaf2 with servers s{l}_0..s{l}_2, each leaf one link to spine0 and one to spine1. */
    private static Fabric leafSpine() {
        return TestFabrics.leafSpine(3, 2, 3, 100, 100, 2.0, null);
    }

    /** The spine leaf0 sends to each destination of leaf1 and leaf2 through, in NIC order. */
    private static List<String> leaf0Spines(Fabric f, IbRoutingEngine e) {
        Routing r = Routing.compute(f);
        LinearForwardingTables t = LinearForwardingTables.compute(r, e);
        List<String> out = new ArrayList<>();
        for (String dst : List.of("s1_0", "s1_1", "s1_2", "s2_0", "s2_1", "s2_2")) {
            Link l = t.outLink(f.device("leaf0"), f.port(dst + ":nic0"));
            out.add(l.other(f.device("leaf0")).id());
        }
        return out;
    }

    @Test
    void minhopBalancesEachSwitchsDestinationsOverItsShortestPorts() {
        // At leaf0 both uplinks are shortest toward every remote destination. Taken in NIC order,
        // each goes to the uplink fewer destinations use so far (spine0 first on a tie):
        // s1_0 spine0 (0:0), s1_1 spine1 (1:0), s1_2 spine0 (1:1), s2_0 spine1 (2:1), s2_1 spine0, s2_2 spine1.
        assertEquals(List.of("spine0", "spine1", "spine0", "spine1", "spine0", "spine1"),
                leaf0Spines(leafSpine(), IbRoutingEngine.MINHOP));
    }

    @Test
    void ftreeSpreadsEachLeafsDestinationsOverTheSpinesByTheirIndexUnderTheLeaf() {
        // ftree picks each destination's top switch going up from its own leaf, least-loaded among
        // that leaf's destinations: the i-th destination of a leaf comes down from spine (i mod 2).
        // Every other leaf goes up to that spine: from leaf0, s1_0/s1_1/s1_2 via spine0/1/0 and
        // s2_0/s2_1/s2_2 via spine0/1/0 again (minhop sends s2_0 via spine1: its count runs on).
        assertEquals(List.of("spine0", "spine1", "spine0", "spine0", "spine1", "spine0"),
                leaf0Spines(leafSpine(), IbRoutingEngine.FTREE));
    }

    @Test
    void updnOnALeafSpineIsMinhop() {
        // Roots: the spines (the top tier without HCAs), rank 0; the leaves rank 1. Every shortest
        // route leaf-spine-leaf is up then down, so the choice is minhop's.
        assertEquals(leaf0Spines(leafSpine(), IbRoutingEngine.MINHOP), leaf0Spines(leafSpine(), IbRoutingEngine.UPDN));
    }

    @Test
    void everyDestinationOfAFatTreeIsReachedByEveryEngine() {
        Fabric f = TestFabrics.fatTree(4, 100, 2.0, null);
        Routing r = Routing.compute(f);
        for (IbRoutingEngine e : IbRoutingEngine.values()) {
            LinearForwardingTables t = LinearForwardingTables.compute(r, e);
            assertEquals(e, t.engine());
            for (Port src : r.nicPorts()) {
                for (Port dst : r.nicPorts()) {
                    if (src != dst) {
                        List<Device> path = route(r, t, src, dst);
                        // A k=4 fat-tree: at most edge-agg-core-agg-edge, 5 switches.
                        assertTrue(path.size() <= 5, e + " " + path);
                        assertNoDownUpTurn(t, path, e + " " + src.ref() + " -> " + dst.ref());
                    }
                }
            }
        }
    }

    /** L0 - L1 - L2 - L3 - L0, one server h{i} on each. */
    static Fabric ring() {
        return TestFabrics.ring(4, 100, 2.0);
    }

    @Test
    void updnOnARingGoesRoundTheRootRatherThanTurnUpAfterGoingDown() {
        Fabric f = ring();
        Routing r = Routing.compute(f);
        LinearForwardingTables t = LinearForwardingTables.compute(r, IbRoutingEngine.UPDN);
        // Every switch has an HCA, so the root is the first switch, L0: ranks L0 0, L1 and L3 1, L2 2.
        assertEquals(0, t.rank(f.device("L0")));
        assertEquals(1, t.rank(f.device("L1")));
        assertEquals(1, t.rank(f.device("L3")));
        assertEquals(2, t.rank(f.device("L2")));
        // L1 to h3: L1-L2-L3 is as short, but L1 -> L2 goes down (rank 1 to 2) and L2 -> L3 up
        // (rank 2 to 1): a down-up turn. Up/down goes up to the root and down: L1 - L0 - L3.
        assertEquals(List.of("L1", "L0", "L3"), ids(route(r, t, f.port("h1:nic0"), f.port("h3:nic0"))));
        // Likewise L3 to h1 goes through L0 (L3 -> L2 would go down, then L2 -> L1 up).
        assertEquals(List.of("L3", "L0", "L1"), ids(route(r, t, f.port("h3:nic0"), f.port("h1:nic0"))));
        // Every route of the ring keeps up before down.
        for (Port src : r.nicPorts()) {
            for (Port dst : r.nicPorts()) {
                if (src != dst) {
                    assertNoDownUpTurn(t, route(r, t, src, dst), src.ref() + " -> " + dst.ref());
                }
            }
        }
    }

    @Test
    void minhopOnARingTurnsUpAfterGoingDown() {
        // minhop knows no up and down. At L3, destinations in NIC order: h0 takes the link to L0
        // (its only shortest port); h1 is 2 hops away through L2 or L0, and the link to L2, used by
        // no destination yet, is the least used: L3 - L2 - L1, down (rank 1 to 2) then up (2 to 1),
        // the turn up/down refuses.
        Fabric f = ring();
        Routing r = Routing.compute(f);
        LinearForwardingTables minhop = LinearForwardingTables.compute(r, IbRoutingEngine.MINHOP);
        assertEquals(List.of("L3", "L2", "L1"), ids(route(r, minhop, f.port("h3:nic0"), f.port("h1:nic0"))));
        LinearForwardingTables updn = LinearForwardingTables.compute(r, IbRoutingEngine.UPDN);
        assertTrue(!updn.isUp(f.device("L3"), f.linksBetween(f.device("L3"), f.device("L2")).get(0)));
        assertTrue(updn.isUp(f.device("L2"), f.linksBetween(f.device("L2"), f.device("L1")).get(0)));
    }

    /** The switches a packet from {@code src} to {@code dst} crosses, following the tables. */
    static List<Device> route(Routing r, LinearForwardingTables t, Port src, Port dst) {
        current = r.fabric();
        List<Device> path = new ArrayList<>();
        Device sw = r.edgeSwitch(src);
        Device last = r.edgeSwitch(dst);
        path.add(sw);
        while (sw != last) {
            Link l = t.outLink(sw, dst);
            assertTrue(l != null, "no entry at " + sw.id() + " for " + dst.ref());
            sw = l.other(sw);
            path.add(sw);
            assertTrue(path.size() < 16, "a loop: " + ids(path));
        }
        return path;
    }

    private static void assertNoDownUpTurn(LinearForwardingTables t, List<Device> path, String what) {
        boolean wentDown = false;
        for (int i = 0; i + 1 < path.size(); i++) {
            Device a = path.get(i);
            Device b = path.get(i + 1);
            Link l = a.ports().stream().map(p -> linkOf(p)).filter(x -> x != null && x.other(a) == b)
                    .findFirst().orElseThrow();
            boolean up = t.isUp(a, l);
            assertTrue(!(wentDown && up), what + ": up after down in " + ids(path));
            wentDown |= !up;
        }
    }

    private static Fabric current;

    private static Link linkOf(Port p) {
        return current.linkAt(p);
    }

    private static List<String> ids(List<Device> path) {
        return path.stream().map(Device::id).toList();
    }
}
