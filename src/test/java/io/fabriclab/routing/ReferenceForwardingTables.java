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
 * The linear forwarding tables as they were computed before the streamed, heap-balanced fill (a
 * short[switches][NICs] table, each entry a scan of its candidates): the reference that
 * {@link LinearForwardingTables} must match entry for entry ({@code ForwardingTablesEquivalenceTest}).
 * Test code only.
 */
final class ReferenceForwardingTables {
    private final Routing routing;
    private final IbRoutingEngine engine;
    private final List<Device> switches;
    private final int[] rank;
    /**
     * outK[switch index][destination index]: the output link as an index into {@code adj[switch]},
     * {@link #NONE} when unreachable, {@link #ACCESS} for the destination's own access link.
     * Arrays, not maps: a 16-unit rail fabric has 320 switches x 4,096 destinations per engine.
     */
    private final short[][] outK;
    private static final short NONE = -1;
    private static final short ACCESS = -2;
    /** A destination NIC port's index in {@link Routing#nicPorts()} (LID order). */
    private final Map<Port, Integer> nicIndex = new IdentityHashMap<>();
    private final List<Port> nics;
    /** Per destination switch index: only-down hops and up-then-down hops of every switch (updn). */
    private final Map<Integer, int[][]> updnDistances = new HashMap<>();
    private static final int INF = Integer.MAX_VALUE / 2;
    /** adj[s]: switch s's links to other switches (Routing.switchLinks order); nbr[s][k]: the switch index at adj[s][k]'s far end. */
    private final Link[][] adj;
    private final int[][] nbr;
    /** tier[s]: switch s's role tier. */
    private final int[] tier;
    /** slotBase[s]: the first link slot of switch s; slotBase[n]: the number of slots. */
    private final int[] slotBase;
    /** linkIndex[s]: switch s's switch link -> its index in adj[s] (to index minhop's next hops). */
    private final List<Map<Link, Integer>> linkIndex = new ArrayList<>();

    private ReferenceForwardingTables(Routing routing, IbRoutingEngine engine) {
        this.routing = routing;
        this.switches = routing.switches();
        // Index arrays once: the engines look at every switch's links for every destination
        // (a 16-unit rail fabric: 4,096 destinations x 320 switches x 64 links per engine).
        int n = switches.size();
        this.adj = new Link[n][];
        this.nbr = new int[n][];
        this.tier = new int[n];
        this.slotBase = new int[n + 1];
        for (int i = 0; i < n; i++) {
            Device sw = switches.get(i);
            adj[i] = routing.switchLinks(sw);
            nbr[i] = new int[adj[i].length];
            for (int k = 0; k < adj[i].length; k++) {
                nbr[i][k] = routing.indexOf(adj[i][k].other(sw));
            }
            tier[i] = sw.role().tier();
            slotBase[i + 1] = slotBase[i] + adj[i].length;
            Map<Link, Integer> ix = new IdentityHashMap<>();
            for (int k = 0; k < adj[i].length; k++) {
                ix.put(adj[i][k], k);
            }
            linkIndex.add(ix);
        }
        this.rank = ranks();
        IbRoutingEngine e = engine;
        if (e == IbRoutingEngine.FTREE && !tiered()) {
            // OpenSM's ftree refuses a fabric that is not a fat-tree and falls back to minhop.
            e = IbRoutingEngine.MINHOP;
        }
        this.engine = e;
        this.nics = routing.nicPorts();
        for (int j = 0; j < nics.size(); j++) {
            nicIndex.put(nics.get(j), j);
        }
        this.outK = new short[switches.size()][nics.size()];
        for (short[] row : outK) {
            Arrays.fill(row, NONE);
        }
        fill();
    }

    /** The tables {@code engine} computes over {@code routing}'s switches and links that are up. */
    static ReferenceForwardingTables compute(Routing routing, IbRoutingEngine engine) {
        return new ReferenceForwardingTables(routing, engine);
    }

    /** The engine that filled the tables (ftree falls back to minhop on a fabric without switch tiers). */
    public IbRoutingEngine engine() {
        return engine;
    }

    /** The output link of switch {@code sw} toward destination NIC port {@code dst}, or null if unreachable. */
    public Link outLink(Device sw, Port dst) {
        int i = routing.indexOf(sw);
        Integer j = nicIndex.get(dst);
        if (i < 0 || j == null) {
            return null;
        }
        int k = outK[i][j];
        return k == NONE ? null : k == ACCESS ? routing.accessLink(dst) : adj[i][k];
    }

    /** The number of destinations (HCA ports, in LID order); {@link #destination(int)} is the j-th. */
    public int destinations() {
        return nics.size();
    }

    public Port destination(int j) {
        return nics.get(j);
    }

    /** Switch {@code s}'s (an index of {@link Routing#switches()}) output toward destination {@code j}: an index of its switch links, -1 if none or at the destination's own switch. */
    public int outIndex(int s, int j) {
        int k = outK[s][j];
        return k < 0 ? -1 : k;
    }

    /** Switch {@code s}'s k-th switch link (in {@link Routing#switchLinks} order). */
    public Link link(int s, int k) {
        return adj[s][k];
    }

    /** The switch at the far end of switch {@code s}'s k-th switch link. */
    public int neighbour(int s, int k) {
        return nbr[s][k];
    }

    /** Whether switch {@code s}'s k-th switch link goes up (toward the roots). */
    public boolean isUp(int s, int k) {
        return up(s, nbr[s][k]);
    }

    /** A number for switch {@code s}'s k-th switch link, unique over all switches, below {@link #linkSlots()}. */
    public int linkSlot(int s, int k) {
        return slotBase[s] + k;
    }

    /** Switch {@code s}'s number of switch links. */
    public int linkCount(int s) {
        return adj[s].length;
    }

    public int linkSlots() {
        return slotBase[slotBase.length - 1];
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
        // used[switch index][link index] counts destinations per output link.
        int[][] used = new int[switches.size()][];
        for (int i = 0; i < switches.size(); i++) {
            used[i] = new int[adj[i].length];
        }
        // ftree: the up-port use of each switch counts only the destinations whose top it chose.
        List<Map<Link, Integer>> upUsed = new ArrayList<>();
        for (int i = 0; i < switches.size(); i++) {
            upUsed.add(new IdentityHashMap<>());
        }
        for (int j = 0; j < nics.size(); j++) {
            Port dst = nics.get(j);
            Device leaf = routing.edgeSwitch(dst);
            if (leaf == null) {
                continue;
            }
            int d = routing.indexOf(leaf);
            outK[d][j] = ACCESS;
            int[] chain = engine == IbRoutingEngine.FTREE ? ftreeChain(d, upUsed) : null;
            for (int s = 0; s < switches.size(); s++) {
                if (s == d) {
                    continue;
                }
                int[] cand;
                if (engine == IbRoutingEngine.FTREE) {
                    cand = ftreeCandidates(s, d, chain);
                } else {
                    // minhop's and updn's candidates depend on the two switches only, not on which
                    // of the destination switch's HCA ports the entry is for: computed once per pair.
                    int[][] bySource = candidates.computeIfAbsent(d, k -> new int[switches.size()][]);
                    cand = bySource[s];
                    if (cand == null) {
                        cand = indexes(s, engine == IbRoutingEngine.MINHOP ? routing.nextHops(switches.get(s), leaf)
                                : updnCandidates(s, d));
                        bySource[s] = cand;
                    }
                }
                if (cand.length == 0) {
                    continue;
                }
                // The candidate fewest destinations use, the first on a tie.
                int[] u = used[s];
                int pick = cand[0];
                for (int c : cand) {
                    if (u[c] < u[pick]) {
                        pick = c;
                    }
                }
                outK[s][j] = (short) pick;
                u[pick]++;
            }
        }
    }

    /** Switch s's links as indexes into adj[s], in the list's order. */
    private int[] indexes(int s, List<Link> links) {
        int[] k = new int[links.size()];
        Map<Link, Integer> ix = linkIndex.get(s);
        for (int i = 0; i < k.length; i++) {
            Integer x = ix.get(links.get(i));
            if (x == null) {
                throw new IllegalStateException("link " + links.get(i).id() + " is not a switch link of " + switches.get(s).id());
            }
            k[i] = x;
        }
        return k;
    }

    /** Per destination switch index, each source switch's candidate link indexes (minhop, updn), filled as needed. */
    private final Map<Integer, int[][]> candidates = new HashMap<>();

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
            for (int v : nbr[u]) {
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
                for (int v : nbr[s]) {
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
                for (int v : nbr[s]) {
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
        Link[] links = adj[s];
        int[] far = nbr[s];
        for (int k = 0; k < links.length; k++) {
            int v = far[k];
            if (down[s] < INF) {
                if (!up(s, v) && down[v] == down[s] - 1) {
                    cand.add(links[k]);
                }
            } else if (any[s] < INF && up(s, v) && any[v] == any[s] - 1) {
                cand.add(links[k]);
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
    private int[] ftreeCandidates(int s, int d, int[] chain) {
        for (int i = 1; i < chain.length; i++) {
            if (chain[i] == s) {
                int below = chain[i - 1];
                int n = 0;
                int[] down = new int[adj[s].length];
                for (int k = 0; k < adj[s].length; k++) {
                    if (nbr[s][k] == below) {
                        down[n++] = k;
                    }
                }
                return Arrays.copyOf(down, n);
            }
        }
        // Off the chain the candidates depend on the switch and the chain's top only (or, for the
        // up/down fallback, on the two switches): computed once each.
        int top = chain[chain.length - 1];
        int[][] byTop = ftreeOffChain.computeIfAbsent(top, k -> new int[switches.size()][]);
        if (byTop[s] != null) {
            return byTop[s];
        }
        int[] climb = climbTo(top);
        if (climb[s] < INF) {
            int n = 0;
            int[] cand = new int[adj[s].length];
            int[] far = nbr[s];
            for (int k = 0; k < far.length; k++) {
                int v = far[k];
                if (tier[v] > tier[s] && climb[v] == climb[s] - 1) {
                    cand[n++] = k;
                }
            }
            byTop[s] = Arrays.copyOf(cand, n);
            return byTop[s];
        }
        int[][] bySource = candidates.computeIfAbsent(d, k -> new int[switches.size()][]);
        if (bySource[s] == null) {
            bySource[s] = indexes(s, updnCandidates(s, d));
        }
        return bySource[s];
    }

    /** ftree: per chain top, each switch's up links on a shortest climb to it. */
    private final Map<Integer, int[][]> ftreeOffChain = new HashMap<>();

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
