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
 *
 * <p>How it stays proportional on a 65,536-host fat tree (5,120 switches x 65,536 destinations per
 * engine): the tables are filled one destination at a time, a column of one entry per switch, and
 * {@link #forEachColumn} hands each column to its reader without keeping the others (the credit-loop
 * check needs one at a time), so memory grows with switches and links, not with switches x NICs;
 * only {@link #compute} keeps every column (the simulator looks entries up). Each switch's
 * candidate sets (the ports it may choose among toward one destination switch) are computed once
 * per destination switch and shared by content, and "the candidate fewest destinations use, the
 * first on a tie" is the same choice as a scan, made faster: a set no other set of its switch
 * shares a link with takes its members in turn (only its own choices count them), and sets that
 * share keep a heap ordered by (use, position), refreshed lazily when another set's choice raised
 * a count (or are scanned when small). docs/performance.md, "Analysis at cluster scale".
 */
public final class LinearForwardingTables {
    private final Routing routing;
    private final IbRoutingEngine engine;
    private final List<Device> switches;
    private final int n;
    private final int[] rank;
    /** An entry with no output link (the destination is unreachable from the switch). */
    public static final short NONE = -1;
    /** The entry of the destination's own switch: out through the destination's access link. */
    public static final short ACCESS = -2;
    /**
     * cols[destination index][switch index]: the output link as an index into {@code adj[switch]},
     * {@link #NONE} or {@link #ACCESS}; null for tables made only to be streamed.
     */
    private final short[][] cols;
    /** A destination NIC port's index in {@link Routing#nicPorts()} (LID order). */
    private final Map<Port, Integer> nicIndex = new IdentityHashMap<>();
    private final List<Port> nics;
    /** Per destination switch index: only-down hops and up-then-down hops of every switch (updn, adaptive routing). */
    private final Map<Integer, int[][]> updnDistances = new HashMap<>();
    private static final int INF = Integer.MAX_VALUE / 2;
    /** adj[s]: switch s's links to other switches (Routing.switchLinks order); nbr[s][k]: the switch index at adj[s][k]'s far end. */
    private final Link[][] adj;
    private final int[][] nbr;
    /** tier[s]: switch s's role tier. */
    private final int[] tier;
    /** slotBase[s]: the first link slot of switch s; slotBase[n]: the number of slots. */
    private final int[] slotBase;
    /** Switch indexes sorted by (rank, index): up hops go to earlier ones (updn). */
    private final int[] rankOrder;
    /** slotUp[slotBase[s] + k]: whether switch s's k-th link goes up (toward the roots). */
    private final boolean[] slotUp;

    /**
     * Reads the tables one destination at a time ({@link #forEachColumn}).
     */
    @FunctionalInterface
    public interface ColumnReader {
        /**
         * @param j        the destination's index ({@link #destination(int)})
         * @param dst      the index of the destination's switch, -1 when it hangs off none
         * @param out      per switch index: its output link (an index of its switch links), {@link #NONE}
         *                 or {@link #ACCESS}; valid during the call only
         */
        void column(int j, int dst, short[] out);
    }

    private LinearForwardingTables(Routing routing, IbRoutingEngine engine, boolean keep) {
        this.routing = routing;
        this.switches = routing.switches();
        // Index arrays once: the engines look at every switch's links for every destination.
        n = switches.size();
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
        }
        this.rank = ranks();
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> rank[a] != rank[b] ? Integer.compare(rank[a], rank[b]) : Integer.compare(a, b));
        this.rankOrder = Arrays.stream(order).mapToInt(Integer::intValue).toArray();
        this.slotUp = new boolean[slotBase[n]];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < nbr[i].length; k++) {
                slotUp[slotBase[i] + k] = up(i, nbr[i][k]);
            }
        }
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
        if (keep) {
            short[][] c = new short[nics.size()][];
            new Filler().run((j, dst, out) -> c[j] = out.clone());
            this.cols = c;
        } else {
            this.cols = null;
        }
    }

    /** The tables {@code engine} computes over {@code routing}'s switches and links that are up, every entry kept. */
    public static LinearForwardingTables compute(Routing routing, IbRoutingEngine engine) {
        return new LinearForwardingTables(routing, engine, true);
    }

    /**
     * The tables of {@code engine} without their entries: their shape (links, ranks, the engine
     * that applies) for a reader that takes the entries one destination at a time from
     * {@link #forEachColumn}, in memory that grows with switches and links only.
     */
    public static LinearForwardingTables streamed(Routing routing, IbRoutingEngine engine) {
        return new LinearForwardingTables(routing, engine, false);
    }

    /**
     * Hands every destination's column to {@code reader}, in destination (LID) order: the kept
     * entries, or for {@link #streamed} tables the entries computed afresh (the same ones).
     */
    public void forEachColumn(ColumnReader reader) {
        if (cols == null) {
            new Filler().run(reader);
            return;
        }
        for (int j = 0; j < cols.length; j++) {
            Device leaf = routing.edgeSwitch(nics.get(j));
            reader.column(j, leaf == null ? -1 : routing.indexOf(leaf), cols[j]);
        }
    }

    /** The engine that filled the tables (ftree falls back to minhop on a fabric without switch tiers). */
    public IbRoutingEngine engine() {
        return engine;
    }

    private short[][] kept() {
        if (cols == null) {
            throw new IllegalStateException("streamed tables keep no entries: read them with forEachColumn");
        }
        return cols;
    }

    /** The output link of switch {@code sw} toward destination NIC port {@code dst}, or null if unreachable. */
    public Link outLink(Device sw, Port dst) {
        int i = routing.indexOf(sw);
        Integer j = nicIndex.get(dst);
        if (i < 0 || j == null) {
            return null;
        }
        int k = kept()[j][i];
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
        int k = kept()[j][s];
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
        return slotUp[slotBase[s] + k];
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
        int[][] dist = updnDistances.computeIfAbsent(d, this::updnDistances);
        int[] k = updnCandidates(s, dist[0], dist[1], new int[adj[s].length]);
        List<Link> out = new ArrayList<>(k.length);
        for (int x : k) {
            out.add(adj[s][x]);
        }
        return out;
    }

    // ----- the engines ------------------------------------------------------------------------

    /**
     * One pass over the destinations in LID order, filling a column per destination. The state is
     * per switch and link: the destinations each output link has taken so far, and the candidate
     * sets with their heaps.
     */
    private final class Filler {
        /** used[slotBase[s] + k]: destinations switch s sends out of its k-th link so far. */
        final int[] used = new int[slotBase[n]];
        /**
         * Candidate sets by id: the link indexes (ascending), the switch, how the least-used member
         * is found, and the state for that.
         */
        int[][] setLinks = new int[64][];
        int[] setSwitch = new int[64];
        byte[] setMode = new byte[64];
        int[] setCursor = new int[64];
        long[][] setHeap = new long[64][];
        int sets;
        /** owner[slotBase[s] + k]: the first set of switch s holding its k-th link (-1: none yet). */
        final int[] owner = new int[slotBase[n]];
        /** Per switch: the set it was last given (-1: none yet). */
        final int[] lastSet = new int[n];
        /** Per switch: its candidate sets by content, to share one id (and one state) per distinct set. */
        final List<Map<IntKey, Integer>> interned = new ArrayList<>();
        /** Per destination switch: each switch's candidate set id toward it (-1: none), minhop and updn. */
        final Map<Integer, int[]> byDestination = new HashMap<>();
        /** ftree: per chain top, each switch's set id (-2: not yet known, -1: none, -3: the up/down fallback). */
        final Map<Integer, int[]> byTop = new HashMap<>();
        /** ftree: the up links each switch has given destinations' chains so far. */
        final int[] upUsed = new int[slotBase[n]];
        final int[] scratch;

        Filler() {
            for (int i = 0; i < n; i++) {
                interned.add(new HashMap<>());
            }
            int most = 0;
            for (Link[] a : adj) {
                most = Math.max(most, a.length);
            }
            scratch = new int[most];
            Arrays.fill(owner, -1);
            Arrays.fill(lastSet, -1);
        }

        void run(ColumnReader reader) {
            short[] out = new short[n];
            for (int j = 0; j < nics.size(); j++) {
                Device leaf = routing.edgeSwitch(nics.get(j));
                if (leaf == null) {
                    Arrays.fill(out, NONE);
                    reader.column(j, -1, out);
                    continue;
                }
                int d = routing.indexOf(leaf);
                if (engine == IbRoutingEngine.FTREE) {
                    ftreeColumn(d, out);
                } else {
                    int[] ids = byDestination.get(d);
                    if (ids == null) {
                        ids = candidateSets(d);
                        byDestination.put(d, ids);
                    }
                    for (int s = 0; s < n; s++) {
                        int id = ids[s];
                        out[s] = id < 0 ? NONE : pick(id);
                    }
                }
                out[d] = ACCESS;
                reader.column(j, d, out);
            }
        }

        /** minhop's or updn's candidate set of every switch toward destination switch d. */
        int[] candidateSets(int d) {
            int[] ids = new int[n];
            if (engine == IbRoutingEngine.MINHOP) {
                // routing.nextHops: the links to a neighbour one hop closer, in link order.
                int[] dist = routing.distancesTo(d);
                for (int s = 0; s < n; s++) {
                    int c = 0;
                    int ds = dist[s];
                    if (s != d && ds != Routing.UNREACHABLE) {
                        for (int k = 0; k < nbr[s].length; k++) {
                            if (dist[nbr[s][k]] == ds - 1) {
                                scratch[c++] = k;
                            }
                        }
                    }
                    ids[s] = intern(s, scratch, c);
                }
                return ids;
            }
            return updnSets(d);
        }

        int[] updnSets(int d) {
            int[][] dist = updnDistances(d);
            int[] ids = new int[n];
            for (int s = 0; s < n; s++) {
                if (s == d) {
                    ids[s] = -1;
                } else {
                    int[] k = updnCandidates(s, dist[0], dist[1], scratch);
                    ids[s] = intern(s, k, k.length);
                }
            }
            return ids;
        }

        /** How a set's least-used member is found: its only member; in turn; a scan; a heap. */
        static final byte SINGLE = 0;
        static final byte IN_TURN = 1;
        static final byte SCANNED = 2;
        static final byte HEAP = 3;
        /** Shared sets up to this size are scanned; larger ones keep a heap. */
        static final int SCAN = 4;

        /**
         * The id of switch s's candidate set {@code links[0..count)}, -1 for an empty one. A set
         * whose links no other set of the switch holds is only ever counted by its own choices:
         * from all-zero counts, "least used, first on a tie" takes its members in turn, a cursor.
         * Once another set shares a link, both are scanned or heaped from the counts as they are.
         */
        int intern(int s, int[] links, int count) {
            if (count == 0) {
                return -1;
            }
            // Most switches have the same set toward the next destination switch as toward the last.
            int last = lastSet[s];
            if (last >= 0 && Arrays.equals(setLinks[last], 0, setLinks[last].length, links, 0, count)) {
                return last;
            }
            int id = internByContent(s, links, count);
            lastSet[s] = id;
            return id;
        }

        private int internByContent(int s, int[] links, int count) {
            Map<IntKey, Integer> mine = interned.get(s);
            IntKey probe = new IntKey(links, count);
            Integer id = mine.get(probe);
            if (id != null) {
                return id;
            }
            int[] set = Arrays.copyOf(links, count);
            int nid = sets++;
            if (nid == setLinks.length) {
                int len = 2 * nid;
                setLinks = Arrays.copyOf(setLinks, len);
                setSwitch = Arrays.copyOf(setSwitch, len);
                setMode = Arrays.copyOf(setMode, len);
                setCursor = Arrays.copyOf(setCursor, len);
                setHeap = Arrays.copyOf(setHeap, len);
            }
            setLinks[nid] = set;
            setSwitch[nid] = s;
            boolean shared = false;
            int base = slotBase[s];
            for (int k : set) {
                int o = owner[base + k];
                if (o < 0) {
                    owner[base + k] = nid;
                } else {
                    shared = true;
                    share(o);
                }
            }
            setMode[nid] = count == 1 ? SINGLE : IN_TURN;
            if (shared) {
                share(nid);
            }
            mine.put(new IntKey(set, count), nid);
            return nid;
        }

        /** Set {@code id} shares a link with another set: from now on its choice is looked for among the counts. */
        private void share(int id) {
            if (setMode[id] != IN_TURN) {
                return;
            }
            int[] set = setLinks[id];
            if (set.length <= SCAN) {
                setMode[id] = SCANNED;
                return;
            }
            // Every member at its current use; the heap orders by (use, position).
            int base = slotBase[setSwitch[id]];
            long[] heap = new long[set.length];
            for (int p = 0; p < set.length; p++) {
                heap[p] = ((long) used[base + set[p]] << 24) | p;
            }
            Arrays.sort(heap);
            setHeap[id] = heap;
            setMode[id] = HEAP;
        }

        /** The candidate of set {@code id} fewest destinations use, the first on a tie; counts it as used. */
        short pick(int id) {
            int[] set = setLinks[id];
            int base = slotBase[setSwitch[id]];
            switch (setMode[id]) {
                case SINGLE -> {
                    used[base + set[0]]++;
                    return (short) set[0];
                }
                case IN_TURN -> {
                    // Members before the cursor are used once more than the rest: the cursor's is the first least used.
                    int p = setCursor[id];
                    used[base + set[p]]++;
                    setCursor[id] = p + 1 == set.length ? 0 : p + 1;
                    return (short) set[p];
                }
                case SCANNED -> {
                    int pick = set[0];
                    int best = used[base + pick];
                    for (int p = 1; p < set.length; p++) {
                        int u = used[base + set[p]];
                        if (u < best) {
                            best = u;
                            pick = set[p];
                        }
                    }
                    used[base + pick]++;
                    return (short) pick;
                }
                default -> {
                    long[] heap = setHeap[id];
                    while (true) {
                        long top = heap[0];
                        int p = (int) (top & 0xffffff);
                        int u = used[base + set[p]];
                        if ((top >>> 24) == u) {
                            // The least (use, position) and current: the scan's choice. Counted, it moves down.
                            used[base + set[p]] = u + 1;
                            siftDown(heap, ((long) (u + 1) << 24) | p);
                            return (short) set[p];
                        }
                        // Another set's choice raised this count since: refresh it (counts only grow, so a
                        // current top is the true least).
                        siftDown(heap, ((long) u << 24) | p);
                    }
                }
            }
        }

        private static void siftDown(long[] heap, long value) {
            int len = heap.length;
            int i = 0;
            while (true) {
                int c = 2 * i + 1;
                if (c >= len) {
                    break;
                }
                if (c + 1 < len && heap[c + 1] < heap[c]) {
                    c++;
                }
                if (heap[c] >= value) {
                    break;
                }
                heap[i] = heap[c];
                i = c;
            }
            heap[i] = value;
        }

        /**
         * ftree: the switches this destination's traffic comes down through, from its leaf up to a
         * top switch, each the up link fewest destinations have taken so far at that switch; then
         * on the chain the link down to the chain's next switch, elsewhere the up links on a
         * shortest way up to the chain's top (or, for a switch that cannot climb to it, the
         * up/down routes).
         */
        void ftreeColumn(int d, short[] out) {
            int[] chain = chain(d);
            int top = chain[chain.length - 1];
            int[] offChain = byTop.get(top);
            if (offChain == null) {
                offChain = new int[n];
                Arrays.fill(offChain, -2);
                byTop.put(top, offChain);
            }
            int[] climb = null;
            int[] fallback = null;
            for (int s = 0; s < n; s++) {
                if (s == d) {
                    continue;
                }
                int id;
                int at = onChain(chain, s);
                if (at > 0) {
                    int below = chain[at - 1];
                    int c = 0;
                    for (int k = 0; k < nbr[s].length; k++) {
                        if (nbr[s][k] == below) {
                            scratch[c++] = k;
                        }
                    }
                    id = intern(s, scratch, c);
                } else {
                    id = offChain[s];
                    if (id == -2) {
                        if (climb == null) {
                            climb = climbTo(top);
                        }
                        if (climb[s] < INF) {
                            int c = 0;
                            int[] far = nbr[s];
                            for (int k = 0; k < far.length; k++) {
                                int v = far[k];
                                if (tier[v] > tier[s] && climb[v] == climb[s] - 1) {
                                    scratch[c++] = k;
                                }
                            }
                            id = intern(s, scratch, c);
                        } else {
                            id = -3;
                        }
                        offChain[s] = id;
                    }
                    if (id == -3) {
                        // Off the chain and below no way up to its top: the up/down candidates.
                        if (fallback == null) {
                            fallback = byDestination.get(d);
                            if (fallback == null) {
                                fallback = updnSets(d);
                                byDestination.put(d, fallback);
                            }
                        }
                        id = fallback[s];
                    }
                }
                out[s] = id < 0 ? NONE : pick(id);
            }
        }

        private static int onChain(int[] chain, int s) {
            for (int i = 1; i < chain.length; i++) {
                if (chain[i] == s) {
                    return i;
                }
            }
            return -1;
        }

        /** ftree's chain from leaf d: at each switch the up link (to a higher tier) fewest chains took, the first on a tie. */
        int[] chain(int leaf) {
            int[] chain = new int[4];
            int len = 0;
            int s = leaf;
            chain[len++] = s;
            while (true) {
                int pick = -1;
                int best = Integer.MAX_VALUE;
                for (int k = 0; k < nbr[s].length; k++) {
                    if (tier[nbr[s][k]] > tier[s]) {
                        int u = upUsed[slotBase[s] + k];
                        if (u < best) {
                            best = u;
                            pick = k;
                        }
                    }
                }
                if (pick < 0) {
                    break;
                }
                upUsed[slotBase[s] + pick]++;
                s = nbr[s][pick];
                if (len == chain.length) {
                    chain = Arrays.copyOf(chain, 2 * len);
                }
                chain[len++] = s;
            }
            return Arrays.copyOf(chain, len);
        }

        /** ftree: per chain top, hops from every switch up to it using only links to a higher tier. */
        final Map<Integer, int[]> climbCache = new HashMap<>();

        int[] climbTo(int top) {
            return climbCache.computeIfAbsent(top, t -> {
                int[] c = new int[n];
                Arrays.fill(c, INF);
                c[t] = 0;
                int[] q = new int[n];
                int qh = 0;
                int qt = 0;
                q[qt++] = t;
                while (qh < qt) {
                    int u = q[qh++];
                    for (int v : nbr[u]) {
                        if (tier[v] < tier[u] && c[v] == INF) {
                            c[v] = c[u] + 1;
                            q[qt++] = v;
                        }
                    }
                }
                return c;
            });
        }
    }

    /** The first {@code length} ints of an array, compared by content (a key of a switch's candidate sets). */
    private record IntKey(int[] a, int length) {
        @Override
        public boolean equals(Object o) {
            return o instanceof IntKey k && Arrays.equals(a, 0, length, k.a, 0, k.length);
        }

        @Override
        public int hashCode() {
            int h = 1;
            for (int i = 0; i < length; i++) {
                h = 31 * h + a[i];
            }
            return h;
        }
    }

    /** Switch ranks: BFS hops from the roots. */
    private int[] ranks() {
        int[] r = new int[n];
        Arrays.fill(r, INF);
        Map<Device, List<Port>> nicsBy = routing.nicsBySwitch();
        int top = -1;
        for (Device sw : switches) {
            if (!nicsBy.containsKey(sw)) {
                top = Math.max(top, sw.role().tier());
            }
        }
        java.util.ArrayDeque<Integer> q = new java.util.ArrayDeque<>();
        for (int i = 0; i < n; i++) {
            Device sw = switches.get(i);
            if (top >= 0 ? !nicsBy.containsKey(sw) && sw.role().tier() == top : i == 0) {
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
        int[] down = new int[n];
        int[] any = new int[n];
        Arrays.fill(down, INF);
        Arrays.fill(any, INF);
        down[d] = 0;
        // Up hops go to earlier (rank, index); down hops to later ones.
        for (int i = n - 1; i >= 0; i--) {
            int s = rankOrder[i];
            int[] far = nbr[s];
            int b = slotBase[s];
            for (int k = 0; k < far.length; k++) {
                int v = far[k];
                if (!slotUp[b + k] && down[v] < INF) {
                    down[s] = Math.min(down[s], down[v] + 1);
                }
            }
        }
        for (int i = 0; i < n; i++) {
            int s = rankOrder[i];
            if (down[s] < INF) {
                any[s] = down[s];
                continue;
            }
            int[] far = nbr[s];
            int b = slotBase[s];
            for (int k = 0; k < far.length; k++) {
                int v = far[k];
                if (slotUp[b + k] && any[v] < INF) {
                    any[s] = Math.min(any[s], any[v] + 1);
                }
            }
        }
        return new int[][] {down, any};
    }

    /** Switch s's up/down candidate link indexes toward the destination of {@code down}/{@code any}, ascending (a copy). */
    private int[] updnCandidates(int s, int[] down, int[] any, int[] buf) {
        int c = 0;
        int[] far = nbr[s];
        int b = slotBase[s];
        if (down[s] < INF) {
            for (int k = 0; k < far.length; k++) {
                if (!slotUp[b + k] && down[far[k]] == down[s] - 1) {
                    buf[c++] = k;
                }
            }
        } else if (any[s] < INF) {
            for (int k = 0; k < far.length; k++) {
                if (slotUp[b + k] && any[far[k]] == any[s] - 1) {
                    buf[c++] = k;
                }
            }
        }
        return Arrays.copyOf(buf, c);
    }

    /** Whether the switches have tiers (a fat-tree's leaves below spines below cores). */
    private boolean tiered() {
        for (int s = 0; s < n; s++) {
            for (int v : nbr[s]) {
                if (tier[v] != tier[s]) {
                    return true;
                }
            }
        }
        return false;
    }
}
