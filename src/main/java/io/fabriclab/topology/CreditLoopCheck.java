package io.fabriclab.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.jgrapht.Graph;
import org.jgrapht.alg.connectivity.KosarajuStrongConnectivityInspector;
import org.jgrapht.graph.DefaultDirectedGraph;
import org.jgrapht.graph.DefaultEdge;

import io.fabriclab.model.Device;
import io.fabriclab.model.Port;
import io.fabriclab.routing.IbRoutingEngine;
import io.fabriclab.routing.LinearForwardingTables;
import io.fabriclab.routing.Routing;

/**
 * Static credit-loop (deadlock) check of an InfiniBand subnet's routes, per virtual lane
 * (docs/model.md, Credit-loop deadlock). As {@link DeadlockCheck} does for PFC, vertices are
 * channels: a directed switch-to-switch link on one VL (its receive buffer, whose credits the
 * sender waits for); a packet that holds a buffer on hop i waits for the buffer of hop i+1, so
 * every route of the forwarding tables adds an edge from each hop's channel to the next's. A cycle
 * is a set of buffers that can all be full of packets waiting for one another: credits never
 * return (Dally and Seitz, IEEE Trans. Computers 1987).
 *
 * <p>Virtual lanes are the escape. With one data VL every route runs on VL 0. With more, a route
 * moves to the next VL at each turn from down to up (the SL-to-VL table of the switch where it
 * turns, as the escape VLs of LASH or DFSSSP use extra lanes): within a VL every route segment
 * goes up then down, which closes no cycle, and a route only ever moves to a higher VL. A route
 * with more turns than VLs stays on the last.
 */
public final class CreditLoopCheck {

    /**
     * The check's outcome: the engine whose tables were checked, the data VLs given, the VLs the
     * routes would need to keep every segment up-then-down (1 + the most down-up turns of a route),
     * and each cycle found as the sorted set of its channels ("device:port (VL v)").
     */
    public record Result(IbRoutingEngine engine, int dataVls, int vlsNeeded, List<List<String>> cycles) {
        public boolean deadlockFree() {
            return cycles.isEmpty();
        }
    }

    private CreditLoopCheck() {
    }

    /** Checks the routes {@code tables} give between every pair of HCA ports, on {@code dataVls} VLs. */
    public static Result check(Routing routing, LinearForwardingTables tables, int dataVls) {
        if (dataVls < 1) {
            throw new IllegalArgumentException("data VLs must be at least 1, not " + dataVls);
        }
        // Channels are (switch link, VL) numbers and the edges between them are gathered once each: a
        // large fabric's routes repeat the same hops millions of times (a 16-unit rail fabric: 4,096
        // destinations x 128 source switches), so the graph is built from the distinct edges only,
        // and names are made for the channels of a cycle only.
        // succ[channel]: the distinct channels that follow it on some route (few: a switch's links).
        int[][] succ = new int[tables.linkSlots() * dataVls][];
        int[] succCount = new int[succ.length];
        int mostTurns = 0;
        // Routes from one switch to one destination are the same whatever the source HCA on it.
        Set<Device> sourceSwitches = new java.util.LinkedHashSet<>();
        for (Port p : routing.nicPorts()) {
            Device sw = routing.edgeSwitch(p);
            if (sw != null) {
                sourceSwitches.add(sw);
            }
        }
        int[] sources = sourceSwitches.stream().mapToInt(routing::indexOf).toArray();
        for (int j = 0; j < tables.destinations(); j++) {
            Device lastSwitch = routing.edgeSwitch(tables.destination(j));
            if (lastSwitch == null) {
                continue;
            }
            int last = routing.indexOf(lastSwitch);
            for (int first : sources) {
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
                    // channel = (the switch's egress link, VL)
                    int channel = tables.linkSlot(sw, k) * dataVls + vl;
                    if (prev >= 0) {
                        addEdge(succ, succCount, prev, channel);
                    }
                    prev = channel;
                    sw = tables.neighbour(sw, k);
                }
                mostTurns = Math.max(mostTurns, turns);
            }
        }
        Graph<Integer, DefaultEdge> g = new DefaultDirectedGraph<>(DefaultEdge.class);
        for (int from = 0; from < succ.length; from++) {
            for (int i = 0; i < succCount[from]; i++) {
                int to = succ[from][i];
                g.addVertex(from);
                g.addVertex(to);
                g.addEdge(from, to);
            }
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
        return new Result(tables.engine(), dataVls, mostTurns + 1, List.copyOf(cycles));
    }

    private static void addEdge(int[][] succ, int[] count, int from, int to) {
        int[] list = succ[from];
        int n = count[from];
        for (int i = 0; i < n; i++) {
            if (list[i] == to) {
                return;
            }
        }
        if (list == null) {
            list = succ[from] = new int[4];
        } else if (n == list.length) {
            list = succ[from] = Arrays.copyOf(list, 2 * n);
        }
        list[n] = to;
        count[from] = n + 1;
    }

    /** The egress port of a link slot (LinearForwardingTables#linkSlot): the port on the switch it leaves. */
    private static Port egressPort(Routing routing, LinearForwardingTables tables, int slot) {
        List<Device> switches = routing.switches();
        for (int s = 0; s < switches.size(); s++) {
            if (slot < tables.linkSlot(s, 0) + tables.linkCount(s)) {
                return tables.link(s, slot - tables.linkSlot(s, 0)).portOn(switches.get(s));
            }
        }
        throw new IllegalArgumentException("no link slot " + slot);
    }
}
