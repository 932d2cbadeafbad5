package io.fabriclab.topology;

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

import io.fabriclab.model.Device;
import io.fabriclab.model.Link;
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
        Graph<String, DefaultEdge> g = new DefaultDirectedGraph<>(DefaultEdge.class);
        int mostTurns = 0;
        // Routes from one switch to one destination are the same whatever the source HCA on it.
        Map<Device, Boolean> sourceSwitches = new LinkedHashMap<>();
        for (Port p : routing.nicPorts()) {
            Device sw = routing.edgeSwitch(p);
            if (sw != null) {
                sourceSwitches.put(sw, true);
            }
        }
        for (Port dst : routing.nicPorts()) {
            Device last = routing.edgeSwitch(dst);
            for (Device first : sourceSwitches.keySet()) {
                if (first == last || last == null) {
                    continue;
                }
                Device sw = first;
                String prev = null;
                boolean wentDown = false;
                int turns = 0;
                int guard = 0;
                while (sw != last && guard++ < 256) {
                    Link l = tables.outLink(sw, dst);
                    if (l == null) {
                        break;
                    }
                    boolean up = tables.isUp(sw, l);
                    if (up && wentDown) {
                        turns++;
                        wentDown = false;
                    }
                    wentDown |= !up;
                    int vl = Math.min(turns, dataVls - 1);
                    String channel = l.portOn(sw).ref() + " (VL " + vl + ")";
                    g.addVertex(channel);
                    if (prev != null) {
                        g.addEdge(prev, channel);
                    }
                    prev = channel;
                    sw = l.other(sw);
                }
                mostTurns = Math.max(mostTurns, turns);
            }
        }
        List<List<String>> cycles = new ArrayList<>();
        for (Set<String> scc : new KosarajuStrongConnectivityInspector<>(g).stronglyConnectedSets()) {
            if (scc.size() > 1) {
                cycles.add(List.copyOf(new TreeSet<>(scc)));
            }
        }
        cycles.sort((a, b) -> a.get(0).compareTo(b.get(0)));
        return new Result(tables.engine(), dataVls, mostTurns + 1, List.copyOf(cycles));
    }
}
