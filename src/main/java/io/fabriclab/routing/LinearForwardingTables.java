package io.fabriclab.routing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import io.fabriclab.model.Device;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;

/**
 * The linear forwarding tables an InfiniBand subnet manager computes (docs/model.md, InfiniBand
 * routing): at every switch, one output link per destination HCA port (its LID), filled by one of
 * OpenSM's engines ({@link IbRoutingEngine}) over the switches and links that are up in
 * {@code routing}. Destinations are taken in LID order, which here is the fabric's NIC order
 * ({@link Routing#nicPorts()}); among equally good ports a switch takes the one fewest
 * destinations already use, the first by link id on a tie (OpenSM balances the same way).
 *
 * <p>Up and down, for updn: switches are ranked by hops from the root switches (the highest tier
 * of switches without HCAs, or the first switch when every switch has HCAs, as a ring does); a
 * link from u to v goes up when v's rank is lower, or equal with v earlier in switch order (a
 * total order, so a route of up hops then down hops can never close a cycle). A table has one
 * entry per destination, not per arriving direction, so a switch from which the destination is
 * reachable going only down always goes down (a packet that came down to it must not turn up),
 * and any other switch goes up toward the nearest such switch.
 */
public final class LinearForwardingTables {
    private final Routing routing;
    private final IbRoutingEngine engine;
    private final List<Device> switches;
    private final int[] rank;
    /** out[switch index] maps a destination NIC port to its output link. */
    private final List<Map<Port, Link>> out = new ArrayList<>();
    /** Per destination switch index: only-down hops and up-then-down hops of every switch (updn). */
    private final Map<Integer, int[][]> updnDistances = new HashMap<>();
    private static final int INF = Integer.MAX_VALUE / 2;

    private LinearForwardingTables(Routing routing, IbRoutingEngine engine) {
        this.routing = routing;
        this.switches = routing.switches();
        this.rank = ranks();
        IbRoutingEngine e = engine;
        if (e == IbRoutingEngine.FTREE && !tiered()) {
            // OpenSM's ftree refuses a fabric that is not a fat-tree and falls back to minhop.
            e = IbRoutingEngine.MINHOP;
        }
        this.engine = e;
        for (int i = 0; i < switches.size(); i++) {
            out.add(new IdentityHashMap<>());
        }
        fill();
    }

    /** The tables {@code engine} computes over {@code routing}'s switches and links that are up. */
    public static LinearForwardingTables compute(Routing routing, IbRoutingEngine engine) {
        return new LinearForwardingTables(routing, engine);
    }

    /** The engine that filled the tables (ftree falls back to minhop on a fabric without switch tiers). */
    public IbRoutingEngine engine() {
        return engine;
    }

    /** The output link of switch {@code sw} toward destination NIC port {@code dst}, or null if unreachable. */
    public Link outLink(Device sw, Port dst) {
        int i = routing.indexOf(sw);
        return i < 0 ? null : out.get(i).get(dst);
    }

    /** A switch's up/down rank (0 at the roots). */
    public int rank(Device sw) {
        return rank[routing.indexOf(sw)];
    }

    /** Whether the hop from {@code from} over {@code l} goes up (toward the roots). */
    public boolean isUp(Device from, Link l) {
        return up(routing.indexOf(from), routing.indexOf(l.other(from)));
    }

    /**
     * The links a switch may choose among for a packet toward destination switch {@code dst} under
     * adaptive routing: minhop's shortest-path next hops, or for updn and ftree the next hops of the
     * shortest routes that keep up before down (as the table's rule above).
     */
    public List<Link> allowedNextHops(Device sw, Device dst) {
        if (engine == IbRoutingEngine.MINHOP) {
            return routing.nextHops(sw, dst);
        }
        int s = routing.indexOf(sw);
        int d = routing.indexOf(dst);
        if (s < 0 || d < 0 || s == d) {
            return List.of();
        }
        return updnCandidates(s, d);
    }

    // ----- the engines ------------------------------------------------------------------------

    private void fill() {
        // used[switch index] counts destinations per output link.
        List<Map<Link, Integer>> used = new ArrayList<>();
        for (int i = 0; i < switches.size(); i++) {
            used.add(new IdentityHashMap<>());
        }
        // ftree: the up-port use of each switch counts only the destinations whose top it chose.
        List<Map<Link, Integer>> upUsed = new ArrayList<>();
        for (int i = 0; i < switches.size(); i++) {
            upUsed.add(new IdentityHashMap<>());
        }
        for (Port dst : routing.nicPorts()) {
            Device leaf = routing.edgeSwitch(dst);
            if (leaf == null) {
                continue;
            }
            int d = routing.indexOf(leaf);
            out.get(d).put(dst, routing.accessLink(dst));
            int[] chain = engine == IbRoutingEngine.FTREE ? ftreeChain(d, upUsed) : null;
            for (int s = 0; s < switches.size(); s++) {
                if (s == d) {
                    continue;
                }
                List<Link> cand = switch (engine) {
                    case MINHOP -> routing.nextHops(switches.get(s), leaf);
                    case UPDN -> updnCandidates(s, d);
                    case FTREE -> ftreeCandidates(s, d, chain);
                };
                if (cand.isEmpty()) {
                    continue;
                }
                Link pick = leastUsed(cand, used.get(s));
                out.get(s).put(dst, pick);
                used.get(s).merge(pick, 1, Integer::sum);
            }
        }
    }

    private static Link leastUsed(List<Link> cand, Map<Link, Integer> used) {
        Link best = null;
        int bestUse = Integer.MAX_VALUE;
        for (Link l : cand) {
            int u = used.getOrDefault(l, 0);
            if (u < bestUse) {
                best = l;
                bestUse = u;
            }
        }
        return best;
    }

    /** Switch ranks: BFS hops from the roots. */
    private int[] ranks() {
        int n = switches.size();
        int[] r = new int[n];
        Arrays.fill(r, INF);
        Map<Device, List<Port>> nics = routing.nicsBySwitch();
        int top = -1;
        for (Device sw : switches) {
            if (!nics.containsKey(sw)) {
                top = Math.max(top, sw.role().tier());
            }
        }
        java.util.ArrayDeque<Integer> q = new java.util.ArrayDeque<>();
        for (int i = 0; i < n; i++) {
            Device sw = switches.get(i);
            if (top >= 0 ? !nics.containsKey(sw) && sw.role().tier() == top : i == 0) {
                r[i] = 0;
                q.add(i);
            }
        }
        while (!q.isEmpty()) {
            int u = q.poll();
            for (Link l : routing.switchLinks(switches.get(u))) {
                int v = routing.indexOf(l.other(switches.get(u)));
                if (r[v] == INF) {
                    r[v] = r[u] + 1;
                    q.add(v);
                }
            }
        }
        return r;
    }

    private boolean up(int from, int to) {
        return rank[to] < rank[from] || (rank[to] == rank[from] && to < from);
    }

    /** dist[0][s]: hops from s to d going only down; dist[1][s]: hops going up first, then down. */
    private int[][] updnDistances(int d) {
        return updnDistances.computeIfAbsent(d, k -> {
            int n = switches.size();
            Integer[] order = new Integer[n];
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            // Up hops go to earlier (rank, index); down hops to later ones.
            Arrays.sort(order, (a, b) -> rank[a] != rank[b] ? Integer.compare(rank[a], rank[b]) : Integer.compare(a, b));
            int[] down = new int[n];
            int[] any = new int[n];
            Arrays.fill(down, INF);
            Arrays.fill(any, INF);
            down[d] = 0;
            for (int i = n - 1; i >= 0; i--) {
                int s = order[i];
                for (Link l : routing.switchLinks(switches.get(s))) {
                    int v = routing.indexOf(l.other(switches.get(s)));
                    if (!up(s, v) && down[v] < INF) {
                        down[s] = Math.min(down[s], down[v] + 1);
                    }
                }
            }
            for (int i = 0; i < n; i++) {
                int s = order[i];
                if (down[s] < INF) {
                    any[s] = down[s];
                    continue;
                }
                for (Link l : routing.switchLinks(switches.get(s))) {
                    int v = routing.indexOf(l.other(switches.get(s)));
                    if (up(s, v) && any[v] < INF) {
                        any[s] = Math.min(any[s], any[v] + 1);
                    }
                }
            }
            return new int[][] {down, any};
        });
    }

    private List<Link> updnCandidates(int s, int d) {
        int[][] dist = updnDistances(d);
        int[] down = dist[0];
        int[] any = dist[1];
        List<Link> cand = new ArrayList<>(4);
        Device sw = switches.get(s);
        for (Link l : routing.switchLinks(sw)) {
            int v = routing.indexOf(l.other(sw));
            if (down[s] < INF) {
                if (!up(s, v) && down[v] == down[s] - 1) {
                    cand.add(l);
                }
            } else if (any[s] < INF && up(s, v) && any[v] == any[s] - 1) {
                cand.add(l);
            }
        }
        return cand;
    }

    /** Whether the switches have tiers (a fat-tree's leaves below spines below cores). */
    private boolean tiered() {
        for (Device sw : switches) {
            for (Link l : routing.switchLinks(sw)) {
                if (l.other(sw).role().tier() != sw.role().tier()) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * ftree: the switches a destination's traffic comes down through, from its leaf up to a top
     * switch: at each, the up link fewest destinations have taken so far (counted per switch).
     */
    private int[] ftreeChain(int leaf, List<Map<Link, Integer>> upUsed) {
        List<Integer> chain = new ArrayList<>();
        int s = leaf;
        chain.add(s);
        while (true) {
            Device sw = switches.get(s);
            List<Link> ups = new ArrayList<>();
            for (Link l : routing.switchLinks(sw)) {
                if (l.other(sw).role().tier() > sw.role().tier()) {
                    ups.add(l);
                }
            }
            if (ups.isEmpty()) {
                break;
            }
            Link pick = leastUsed(ups, upUsed.get(s));
            upUsed.get(s).merge(pick, 1, Integer::sum);
            s = routing.indexOf(pick.other(sw));
            chain.add(s);
        }
        return chain.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * ftree: on the destination's chain, the link down to the chain's next switch; elsewhere the
     * up links on a shortest way up to the chain's top (or, for a switch that cannot climb to it,
     * the up/down routes).
     */
    private List<Link> ftreeCandidates(int s, int d, int[] chain) {
        Device sw = switches.get(s);
        for (int i = 1; i < chain.length; i++) {
            if (chain[i] == s) {
                Device below = switches.get(chain[i - 1]);
                List<Link> down = new ArrayList<>();
                for (Link l : routing.switchLinks(sw)) {
                    if (l.other(sw) == below) {
                        down.add(l);
                    }
                }
                return down;
            }
        }
        int top = chain[chain.length - 1];
        int[] climb = climbTo(top);
        if (climb[s] < INF) {
            List<Link> cand = new ArrayList<>(4);
            for (Link l : routing.switchLinks(sw)) {
                int v = routing.indexOf(l.other(sw));
                if (l.other(sw).role().tier() > sw.role().tier() && climb[v] == climb[s] - 1) {
                    cand.add(l);
                }
            }
            return cand;
        }
        return updnCandidates(s, d);
    }

    private final Map<Integer, int[]> climbCache = new HashMap<>();

    /** Hops from every switch up to {@code top} using only links to a higher tier. */
    private int[] climbTo(int top) {
        return climbCache.computeIfAbsent(top, t -> {
            int n = switches.size();
            int[] c = new int[n];
            Arrays.fill(c, INF);
            c[t] = 0;
            java.util.ArrayDeque<Integer> q = new java.util.ArrayDeque<>();
            q.add(t);
            while (!q.isEmpty()) {
                int u = q.poll();
                Device du = switches.get(u);
                for (Link l : routing.switchLinks(du)) {
                    Device dv = l.other(du);
                    int v = routing.indexOf(dv);
                    if (dv.role().tier() < du.role().tier() && c[v] == INF) {
                        c[v] = c[u] + 1;
                        q.add(v);
                    }
                }
            }
            return c;
        });
    }
}
