package io.fabriclab.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.jgrapht.Graph;
import org.jgrapht.alg.connectivity.KosarajuStrongConnectivityInspector;
import org.jgrapht.graph.DefaultDirectedGraph;
import org.jgrapht.graph.DefaultEdge;
import org.junit.jupiter.api.Test;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.sim.TestFabrics;
import io.fabriclab.topology.CreditLoopCheck;
import io.fabriclab.topology.FatTreeGenerator;
import io.fabriclab.topology.RailOptimizedGenerator;
import io.fabriclab.topology.RailParams;

/**
 * The forwarding tables filled a destination at a time with heaps for the least-used choice, and
 * the credit-loop check that walks each destination's routes once, give exactly what the first
 * implementation gave (kept here as {@link ReferenceForwardingTables} and {@link #referenceCheck}):
 * every entry of every engine, and the same cycles and VLs needed, on fat trees, rail fabrics, a
 * leaf-spine, rings (whose minhop routes close credit loops, and on a ring of 520 run past the
 * 256-hop cut) and fabrics with failed links and switches (whose routes bounce).
 */
class ForwardingTablesEquivalenceTest {

    /** Each case: a routing (maybe with failures) to compare on. */
    private static Map<String, Routing> cases() {
        Map<String, Routing> c = new LinkedHashMap<>();
        Fabric k4 = TestFabrics.fatTree(4, 100, 2.0, null);
        c.put("fat tree k=4", Routing.compute(k4));
        c.put("fat tree k=4, core0 and an uplink failed",
                Routing.compute(k4, Set.of(k4.device("core0")), Set.of(k4.linksOf(k4.device("edge1_0")).get(0))));
        c.put("fat tree k=4, agg0_0 failed", Routing.compute(k4, Set.of(k4.device("agg0_0")), Set.of()));
        Fabric k8 = FatTreeGenerator.generate(8);
        c.put("fat tree k=8", Routing.compute(k8));
        Device spine = k8.switches().stream().filter(d -> d.role().tier() == 2).findFirst().orElseThrow();
        c.put("fat tree k=8, a spine failed", Routing.compute(k8, Set.of(spine), Set.of()));
        // k=10: an aggregation switch's five up links are one candidate set, and ftree's single
        // up links toward a chain's top share them: the least-used choice among the five keeps a heap.
        c.put("fat tree k=10", Routing.compute(FatTreeGenerator.generate(10)));
        c.put("rail, 2 units", Routing.compute(RailOptimizedGenerator.generate(2)));
        c.put("rail, 3 units, 2:1", Routing.compute(RailOptimizedGenerator.generate(RailParams.of(3).withLeafUplinks(16))));
        c.put("leaf-spine 3x2", Routing.compute(TestFabrics.leafSpine(3, 2, 3, 100, 100, 2.0, null)));
        c.put("ring of 4", Routing.compute(TestFabrics.ring(4, 100, 2.0)));
        c.put("ring of 7", Routing.compute(TestFabrics.ring(7, 100, 2.0)));
        return c;
    }

    @Test
    void everyEntryOfEveryEngineIsTheFirstImplementations() {
        cases().forEach((name, r) -> {
            for (IbRoutingEngine e : IbRoutingEngine.values()) {
                ReferenceForwardingTables ref = ReferenceForwardingTables.compute(r, e);
                LinearForwardingTables kept = LinearForwardingTables.compute(r, e);
                assertEquals(ref.engine(), kept.engine(), name);
                assertEquals(ref.destinations(), kept.destinations(), name);
                List<Device> sw = r.switches();
                for (int j = 0; j < ref.destinations(); j++) {
                    Port dst = ref.destination(j);
                    assertSame(dst, kept.destination(j));
                    for (int s = 0; s < sw.size(); s++) {
                        assertEquals(ref.outIndex(s, j), kept.outIndex(s, j), name + " " + e + " " + sw.get(s).id() + " -> " + dst.ref());
                        assertSame(ref.outLink(sw.get(s), dst), kept.outLink(sw.get(s), dst), name + " " + e);
                    }
                }
                // The streamed tables hand over the same columns.
                List<short[]> streamed = new ArrayList<>();
                LinearForwardingTables.streamed(r, e).forEachColumn((j, d, out) -> streamed.add(out.clone()));
                assertEquals(ref.destinations(), streamed.size());
                for (int j = 0; j < streamed.size(); j++) {
                    for (int s = 0; s < sw.size(); s++) {
                        assertEquals(ref.outIndex(s, j), Math.max(-1, streamed.get(j)[s]), name + " " + e);
                    }
                }
                for (Device a : sw) {
                    for (Device b : sw) {
                        assertEquals(ref.allowedNextHops(a, b), kept.allowedNextHops(a, b), name + " " + e);
                    }
                }
            }
        });
    }

    @Test
    void theCreditLoopCheckFindsTheFirstImplementationsCyclesAndVls() {
        int loops = 0;
        for (Map.Entry<String, Routing> en : cases().entrySet()) {
            Routing r = en.getValue();
            for (IbRoutingEngine e : IbRoutingEngine.values()) {
                ReferenceForwardingTables ref = ReferenceForwardingTables.compute(r, e);
                for (int vls = 1; vls <= 3; vls++) {
                    CreditLoopCheck.Result want = referenceCheck(r, ref, vls);
                    String what = en.getKey() + " " + e + " on " + vls + " VLs";
                    assertEquals(want, CreditLoopCheck.check(r, LinearForwardingTables.compute(r, e), vls), what);
                    assertEquals(want, CreditLoopCheck.check(r, LinearForwardingTables.streamed(r, e), vls), what);
                    loops += want.cycles().size();
                }
            }
        }
        // The cases include credit loops (the rings' minhop), so cycles are compared, not only their absence.
        assertFalse(loops == 0);
        // A chain of 300 switches with servers at both ends and in the middle: routes of 299
        // hops, past the 256-hop cut, which the check then applies route by route, as the first
        // implementation did.
        Routing chain = Routing.compute(chain(300));
        for (IbRoutingEngine e : IbRoutingEngine.values()) {
            for (int vls = 1; vls <= 2; vls++) {
                CreditLoopCheck.Result want = referenceCheck(chain, ReferenceForwardingTables.compute(chain, e), vls);
                assertEquals(want, CreditLoopCheck.check(chain, LinearForwardingTables.streamed(chain, e), vls));
            }
        }
    }

    /** Leaf switches L0..L(n-1) in a line, a server on L0, on L(n/2) and on L(n-1). */
    private static Fabric chain(int n) {
        Fabric f = new Fabric("chain" + n);
        Device[] l = new Device[n];
        for (int i = 0; i < n; i++) {
            l[i] = f.addDevice("L" + i, io.fabriclab.model.DeviceRole.LEAF);
            l[i].addPorts("e", 0, 3, 100);
        }
        for (int i = 0; i + 1 < n; i++) {
            f.connect(l[i].port("e1"), l[i + 1].port("e0"), 100, 2.0);
        }
        for (int i : new int[] {0, n / 2, n - 1}) {
            Device h = TestFabrics.server(f, "h" + i, 100);
            f.connect(h.port("nic0"), l[i].port("e2"), 100, 2.0);
        }
        return f;
    }

    @Test
    void streamedTablesKeepNoEntries() {
        Fabric f = TestFabrics.fatTree(4, 100, 2.0, null);
        Routing r = Routing.compute(f);
        LinearForwardingTables t = LinearForwardingTables.streamed(r, IbRoutingEngine.MINHOP);
        assertThrows(IllegalStateException.class, () -> t.outIndex(0, 0));
    }

    /** The first implementation of {@link CreditLoopCheck#check}: every source switch's route walked to every destination. */
    static CreditLoopCheck.Result referenceCheck(Routing routing, ReferenceForwardingTables tables, int dataVls) {
        Set<Long> edges = new java.util.HashSet<>();
        int mostTurns = 0;
        Set<Device> sourceSwitches = new java.util.LinkedHashSet<>();
        for (Port p : routing.nicPorts()) {
            Device sw = routing.edgeSwitch(p);
            if (sw != null) {
                sourceSwitches.add(sw);
            }
        }
        for (int j = 0; j < tables.destinations(); j++) {
            Device lastSwitch = routing.edgeSwitch(tables.destination(j));
            if (lastSwitch == null) {
                continue;
            }
            int last = routing.indexOf(lastSwitch);
            for (Device firstSwitch : sourceSwitches) {
                int first = routing.indexOf(firstSwitch);
                if (first == last) {
                    continue;
                }
                int sw = first;
                int prev = -1;
                boolean wentDown = false;
                int turns = 0;
                int guard = 0;
                while (sw != last && guard++ < 256) {
                    int k = tables.outIndex(sw, j);
                    if (k < 0) {
                        break;
                    }
                    boolean up = tables.isUp(sw, k);
                    if (up && wentDown) {
                        turns++;
                        wentDown = false;
                    }
                    wentDown |= !up;
                    int vl = Math.min(turns, dataVls - 1);
                    int channel = tables.linkSlot(sw, k) * dataVls + vl;
                    if (prev >= 0) {
                        edges.add(((long) prev << 32) | channel);
                    }
                    prev = channel;
                    sw = tables.neighbour(sw, k);
                }
                mostTurns = Math.max(mostTurns, turns);
            }
        }
        Graph<Integer, DefaultEdge> g = new DefaultDirectedGraph<>(DefaultEdge.class);
        for (long e : edges) {
            int from = (int) (e >>> 32);
            int to = (int) e;
            g.addVertex(from);
            g.addVertex(to);
            g.addEdge(from, to);
        }
        List<List<String>> cycles = new ArrayList<>();
        for (Set<Integer> scc : new KosarajuStrongConnectivityInspector<>(g).stronglyConnectedSets()) {
            if (scc.size() > 1) {
                TreeSet<String> names = new TreeSet<>();
                for (int c : scc) {
                    names.add(egressPort(routing, tables, c / dataVls).ref() + " (VL " + (c % dataVls) + ")");
                }
                cycles.add(List.copyOf(names));
            }
        }
        cycles.sort((a, b) -> a.get(0).compareTo(b.get(0)));
        return new CreditLoopCheck.Result(tables.engine(), dataVls, mostTurns + 1, List.copyOf(cycles));
    }

    private static Port egressPort(Routing routing, ReferenceForwardingTables tables, int slot) {
        List<Device> switches = routing.switches();
        for (int s = 0; s < switches.size(); s++) {
            if (slot < tables.linkSlot(s, 0) + tables.linkCount(s)) {
                Link l = tables.link(s, slot - tables.linkSlot(s, 0));
                return l.portOn(switches.get(s));
            }
        }
        throw new IllegalArgumentException("no link slot " + slot);
    }
}
