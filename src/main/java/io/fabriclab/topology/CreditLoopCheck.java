package io.fabriclab.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

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
        return check(routing, tables, dataVls, (j, dst, out) -> { });
    }

    /** As above, showing {@code alsoTold} each destination's column after the check has read it (progress). */
    public static Result check(Routing routing, LinearForwardingTables tables, int dataVls,
                               LinearForwardingTables.ColumnReader alsoTold) {
        if (dataVls < 1) {
            throw new IllegalArgumentException("data VLs must be at least 1, not " + dataVls);
        }
        Walk w = new Walk(routing, tables, dataVls);
        tables.forEachColumn((j, dst, out) -> {
            w.column(j, dst, out);
            alsoTold.column(j, dst, out);
        });
        List<List<String>> cycles = new ArrayList<>();
        for (int[] scc : w.stronglyConnected()) {
            TreeSet<String> names = new TreeSet<>();
            for (int c : scc) {
                names.add(egressPort(routing, tables, c / dataVls).ref() + " (VL " + (c % dataVls) + ")");
            }
            cycles.add(List.copyOf(names));
        }
        cycles.sort((a, b) -> a.get(0).compareTo(b.get(0)));
        return new Result(tables.engine(), dataVls, w.mostTurns + 1, List.copyOf(cycles));
    }

    /** The most hops a route is followed (a longer one is cut there, as a loop would be). */
    static final int MAX_HOPS = 256;

    /**
     * The channel dependencies of every route, one destination (a column of the tables) at a time.
     *
     * <p>A route from a source switch to the destination is the chain of the column's entries from
     * it; the routes of one destination form a tree toward it, so the walk from each source stops
     * where it joins a route already walked in the same state (switch, VL so far, whether it last
     * went down): what follows was recorded then. The most down-up turns of a route are summed
     * backwards along the walk (turns from a switch depend on the switch and on whether the route
     * came down to it). A column in which a route loops or runs past {@link #MAX_HOPS} is walked
     * source by source instead, each route cut at {@link #MAX_HOPS} hops. Channels are (switch link,
     * VL) numbers; each channel's successors are a bit set over the links of the switch it leads to,
     * so an edge costs a bit however many routes repeat it (a 65,536-host fat tree's routes repeat
     * each of its few million edges thousands of times).
     */
    private static final class Walk {
        final LinearForwardingTables t;
        final int vls;
        final int n;
        final int[] sources;
        /** Channel c's successors: bits [base[c] * 64, ...) over (k * vls + vl) of the switch c leads to. */
        final long[] bits;
        final int[] base;
        /** The switch a link slot leads to, and the first slot of each switch. */
        final int[] slotFar;
        int mostTurns;
        // Per-column memory, by stamp (never cleared).
        int column;
        int walk;
        /** Per (switch, VL so far, went down): the column it was last walked in. */
        final int[] walked;
        /** Per (switch, went down): its hops and turns to the route's end (valid where walked in this column). */
        final int[] hops;
        final int[] turns;
        /** Per (switch, went down): the walk that has it on its path (a loop when met again). */
        final int[] onPath;
        final int[] pathState;
        final int[] pathTurn;

        Walk(Routing routing, LinearForwardingTables t, int vls) {
            this.t = t;
            this.vls = vls;
            this.n = routing.switches().size();
            // Routes from one switch to one destination are the same whatever the source HCA on it.
            Set<Device> sourceSwitches = new java.util.LinkedHashSet<>();
            for (Port p : routing.nicPorts()) {
                Device sw = routing.edgeSwitch(p);
                if (sw != null) {
                    sourceSwitches.add(sw);
                }
            }
            sources = sourceSwitches.stream().mapToInt(routing::indexOf).toArray();
            int slots = t.linkSlots();
            slotFar = new int[slots];
            for (int s = 0; s < n; s++) {
                for (int k = 0; k < t.linkCount(s); k++) {
                    slotFar[t.linkSlot(s, k)] = t.neighbour(s, k);
                }
            }
            base = new int[slots * vls + 1];
            for (int c = 0; c < slots * vls; c++) {
                base[c + 1] = base[c] + (t.linkCount(slotFar[c / vls]) * vls + 63) / 64;
            }
            bits = new long[base[slots * vls]];
            walked = new int[n * vls * 2];
            hops = new int[n * 2];
            turns = new int[n * 2];
            onPath = new int[n * 2];
            pathState = new int[MAX_HOPS + 1];
            pathTurn = new int[MAX_HOPS + 1];
        }

        private int channel(int s, int k, int vl) {
            return t.linkSlot(s, k) * vls + vl;
        }

        private void addEdge(int from, int s, int k, int vl) {
            int b = k * vls + vl;
            bits[base[from] + (b >>> 6)] |= 1L << b;
        }

        void column(int j, int last, short[] out) {
            if (last < 0) {
                return;
            }
            column++;
            for (int first : sources) {
                if (first != last && !walkFrom(first, last, out)) {
                    routeByRoute(last, out);
                    return;
                }
            }
        }

        /** Walks the route from {@code first}; false when it loops or runs past MAX_HOPS. */
        private boolean walkFrom(int first, int last, short[] out) {
            walk++;
            int sw = first;
            int prev = -1;
            boolean wentDown = false;
            int vl = 0;
            int depth = 0;
            int sufHops = 0;
            int sufTurns = 0;
            while (sw != last) {
                int k = out[sw];
                if (k < 0) {
                    break;
                }
                int st = 2 * sw + (wentDown ? 1 : 0);
                if (onPath[st] == walk) {
                    return false;
                }
                if (depth == MAX_HOPS) {
                    return false;
                }
                boolean up = t.isUp(sw, k);
                int inc = up && wentDown ? 1 : 0;
                int nvl = Math.min(vl + inc, vls - 1);
                if (prev >= 0) {
                    addEdge(prev, sw, k, nvl);
                }
                int ws = (sw * vls + vl) * 2 + (wentDown ? 1 : 0);
                if (walked[ws] == column) {
                    // Joined a route walked before in the same state: the rest is recorded.
                    sufHops = hops[st];
                    sufTurns = turns[st];
                    if (depth + sufHops > MAX_HOPS) {
                        return false;
                    }
                    break;
                }
                walked[ws] = column;
                onPath[st] = walk;
                pathState[depth] = st;
                pathTurn[depth] = inc;
                depth++;
                prev = channel(sw, k, nvl);
                vl = nvl;
                wentDown = !up;
                sw = t.neighbour(sw, k);
            }
            for (int i = depth - 1; i >= 0; i--) {
                sufHops++;
                sufTurns += pathTurn[i];
                int st = pathState[i];
                hops[st] = sufHops;
                turns[st] = sufTurns;
            }
            mostTurns = Math.max(mostTurns, sufTurns);
            return true;
        }

        /** Every source's route of this column followed hop by hop, each cut at MAX_HOPS hops. */
        private void routeByRoute(int last, short[] out) {
            for (int first : sources) {
                if (first == last) {
                    continue;
                }
                int sw = first;
                int prev = -1;
                boolean wentDown = false;
                int turnsSoFar = 0;
                int guard = 0;
                while (sw != last && guard++ < MAX_HOPS) {
                    int k = out[sw];
                    if (k < 0) {
                        break;
                    }
                    boolean up = t.isUp(sw, k);
                    if (up && wentDown) {
                        turnsSoFar++;
                        wentDown = false;
                    }
                    wentDown |= !up;
                    int vl = Math.min(turnsSoFar, vls - 1);
                    if (prev >= 0) {
                        addEdge(prev, sw, k, vl);
                    }
                    prev = channel(sw, k, vl);
                    sw = t.neighbour(sw, k);
                }
                mostTurns = Math.max(mostTurns, turnsSoFar);
            }
        }

        /** The strongly connected sets of more than one channel (Tarjan's algorithm, iterative). */
        List<int[]> stronglyConnected() {
            int channels = base.length - 1;
            // Successor lists from the bit sets.
            int[] start = new int[channels + 1];
            for (int c = 0; c < channels; c++) {
                int count = 0;
                for (int w = base[c]; w < base[c + 1]; w++) {
                    count += Long.bitCount(bits[w]);
                }
                start[c + 1] = start[c] + count;
            }
            int[] succ = new int[start[channels]];
            for (int c = 0; c < channels; c++) {
                int far = slotFar[c / vls];
                int at = start[c];
                for (int w = base[c]; w < base[c + 1]; w++) {
                    long word = bits[w];
                    while (word != 0) {
                        int b = (w - base[c]) * 64 + Long.numberOfTrailingZeros(word);
                        word &= word - 1;
                        succ[at++] = channel(far, b / vls, b % vls);
                    }
                }
            }
            int[] index = new int[channels];
            int[] low = new int[channels];
            boolean[] onStack = new boolean[channels];
            Arrays.fill(index, -1);
            int[] stack = new int[channels];
            int sp = 0;
            int[] callV = new int[channels];
            int[] callI = new int[channels];
            int next = 0;
            List<int[]> out = new ArrayList<>();
            for (int root = 0; root < channels; root++) {
                if (index[root] >= 0 || start[root] == start[root + 1]) {
                    continue;
                }
                int depth = 0;
                callV[0] = root;
                callI[0] = start[root];
                index[root] = low[root] = next++;
                stack[sp++] = root;
                onStack[root] = true;
                while (depth >= 0) {
                    int v = callV[depth];
                    if (callI[depth] < start[v + 1]) {
                        int w = succ[callI[depth]++];
                        if (index[w] < 0) {
                            index[w] = low[w] = next++;
                            stack[sp++] = w;
                            onStack[w] = true;
                            depth++;
                            callV[depth] = w;
                            callI[depth] = start[w];
                        } else if (onStack[w]) {
                            low[v] = Math.min(low[v], index[w]);
                        }
                        continue;
                    }
                    if (low[v] == index[v]) {
                        int from = sp;
                        do {
                            from--;
                            onStack[stack[from]] = false;
                        } while (stack[from] != v);
                        if (sp - from > 1) {
                            out.add(Arrays.copyOfRange(stack, from, sp));
                        }
                        sp = from;
                    }
                    depth--;
                    if (depth >= 0) {
                        int u = callV[depth];
                        low[u] = Math.min(low[u], low[v]);
                    }
                }
            }
            return out;
        }
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
