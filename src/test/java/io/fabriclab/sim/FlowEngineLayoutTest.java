package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.Transport;
import io.fabriclab.routing.EcmpHash;
import io.fabriclab.routing.Routing;
import io.fabriclab.workload.FlowSpec;

/**
 * The flow engine's task records laid out in the order tasks can run ({@link FlowEngine#runOrder})
 * while every result keeps the input's order, and the ECMP paths it makes without maps
 * ({@link FlowPaths#pathInto}) equal to the packet engine's ({@link FlowPaths#path}).
 */
class FlowEngineLayoutTest {
    private static final QosProfile QOS = QosProfile.roceLossless("lossless", 100);

    @Test
    void runOrderIsBreadthFirstFromTheTasksWaitingForNothing() {
        // A ring of three positions (A, B, C) over two steps, the second step listed first, and a
        // task X waiting for nothing. Input: 0 = A2, 1 = B2, 2 = C2, 3 = A1, 4 = B1, 5 = C1, 6 = X;
        // a step-2 task waits for its own step 1 and its predecessor's: A2 after A1, C1; B2 after
        // B1, A1; C2 after C1, B1. The engine lists the edges in input order of the waiting task:
        int[] from = {3, 5, 4, 3, 5, 4};
        int[] to = {0, 0, 1, 1, 2, 2};
        // Kahn's sort, first in first out: those waiting for nothing in input order, 3, 4, 5, 6.
        // Taking 3 (A1) leaves A2 and B2 one wait each; 4 (B1) frees B2 (1), leaves C2 one;
        // 5 (C1) frees A2 (0), then C2 (2), in its edges' order; 6 frees nothing.
        assertArrayEquals(new int[] {3, 4, 5, 6, 1, 0, 2}, FlowEngine.runOrder(7, from, to, 6));
    }

    @Test
    void tasksLeftInACycleComeLastInInputOrder() {
        // 0 <-> 1 wait for each other, 2 waits for nothing: 2, then 0, 1.
        assertArrayEquals(new int[] {2, 0, 1}, FlowEngine.runOrder(3, new int[] {1, 0}, new int[] {0, 1}, 2));
    }

    @Test
    void resultsAreInTheInputsOrderWhateverTheLayout() {
        // A chain listed backwards: input 0 waits for input 1, which waits for input 2. Laid out
        // 2, 1, 0; each flow's result stays at its input index, each starts when the one before
        // it has arrived.
        Fabric fabric = TestFabrics.leafSpine(2, 2, 2, 100, 400, 2.0, QOS);
        List<FlowSpec> flows = List.of(
                new FlowSpec("s0_0:nic0", "s1_0:nic0", 100_000, 0, 3, "third", "c", List.of("b")),
                new FlowSpec("s1_0:nic0", "s0_1:nic0", 200_000, 0, 3, "second", "b", List.of("a")),
                new FlowSpec("s0_1:nic0", "s1_1:nic0", 300_000, 0, 3, "first", "a", List.of()));
        SimResults r = new FlowEngine(fabric, flows, SimConfig.defaults(), TransportProfile.of(Transport.ROCEV2)).run(null);
        assertEquals(3, r.run().flowsCompleted());
        for (int i = 0; i < 3; i++) {
            assertEquals(i, r.flows().get(i).id());
            assertEquals(flows.get(i).label(), r.flows().get(i).label());
            assertEquals(flows.get(i).bytes(), r.flows().get(i).bytes());
        }
        assertEquals(0, r.flows().get(2).startPs());
        assertEquals(r.flows().get(2).finishPs(), r.flows().get(1).startPs());
        assertEquals(r.flows().get(1).finishPs(), r.flows().get(0).startPs());
    }

    @Test
    void theFlowEnginesMaplessPathsAreThePacketEnginesPaths() {
        // 4 leaves x 4 spines: a cross-leaf pair has four paths, one per UDP port's hash; the
        // same-leaf pairs one. Every pair with 64 ports each, both ways of making the path.
        Fabric fabric = TestFabrics.leafSpine(4, 4, 2, 100, 400, 2.0, QOS);
        Map<Link, Integer> linkIndex = new IdentityHashMap<>();
        List<Link> links = new ArrayList<>(fabric.links());
        for (int i = 0; i < links.size(); i++) {
            linkIndex.put(links.get(i), i);
        }
        FlowPaths paths = new FlowPaths(Routing.compute(fabric), new EcmpHash(7, false), linkIndex);
        List<Port> nics = new ArrayList<>();
        fabric.servers().forEach(s -> nics.addAll(s.ports()));
        int compared = 0;
        int crossLeaf = 0;
        java.util.Set<java.util.List<Integer>> distinct = new java.util.HashSet<>();
        for (int a = 0; a < nics.size(); a++) {
            for (int b = 0; b < nics.size(); b++) {
                if (a == b) {
                    continue;
                }
                for (int udp = 49152; udp < 49152 + 64; udp++) {
                    int[] slow = paths.path(nics.get(a), nics.get(b), a, b, udp);
                    int len = paths.pathInto(paths.ends(nics.get(a), false), paths.ends(nics.get(b), true), a, b, udp);
                    int[] fast = java.util.Arrays.copyOf(paths.scratch(), len);
                    assertArrayEquals(slow, fast, "pair " + a + " -> " + b + " port " + udp);
                    compared++;
                    if (slow.length == 4) {
                        crossLeaf++;
                        if (a == 0 && b == nics.size() - 1) {
                            distinct.add(java.util.Arrays.stream(slow).boxed().toList());
                        }
                    }
                }
            }
        }
        // 8 hosts (4 leaves x 2): 8 x 7 ordered pairs, 8 x 6 of them across leaves (NIC -> leaf,
        // leaf -> spine, spine -> leaf, leaf -> NIC), 64 ports each.
        assertEquals(8 * 7 * 64, compared);
        assertEquals(8 * 6 * 64, crossLeaf);
        // The hash spreads one pair's 64 ports over all four spines.
        assertEquals(4, distinct.size());
    }
}
