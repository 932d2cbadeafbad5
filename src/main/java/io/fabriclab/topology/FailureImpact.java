package io.fabriclab.topology;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.routing.EcmpPathCounter;
import io.fabriclab.routing.NicPairClass;
import io.fabriclab.routing.Routing;
import io.fabriclab.routing.SwitchAdjacency;

/**
 * What each single failure costs: for every up link and every switch, the capacity lost, the NIC
 * pairs that lose all paths, and the pair that loses the largest share of its equal-cost paths.
 *
 * <p>How it stays fast on a 16k-GPU fabric without recomputing routing per failure: with sigma(s,x)
 * the shortest-path counts and dist the hop distances of the healthy fabric, the number of
 * shortest s-t paths through link (u,v) is sigma(s,u)*sigma(v,t) when dist(s,u)+1+dist(v,t) =
 * dist(s,t), and through switch w it is sigma(s,w)*sigma(w,t) when w is on a shortest s-t path.
 * While that is below sigma(s,t) the distance stays and the new count is the difference; only when
 * it equals sigma(s,t) (the element carried every shortest path) are distances recomputed, by a BFS
 * from that source without the element. The sum runs per pair of edge switches over the pair's
 * shortest-path DAG (the next hops toward t, walked from s), so the work is the total size of the
 * pairs' DAGs, never the number of NIC pairs times elements. Access links and edge switches cut
 * their own NICs off, which needs no routing at all.
 *
 * <p>Definitions: NIC pairs are ordered pairs of distinct connected NICs (as {@link EcmpPathCounter});
 * "disconnected" counts pairs that had a path before and none after. A pair's drop is the fraction
 * of its equal-cost shortest paths the failure removes (1 when all are gone, whether or not longer
 * paths remain; then the hop counts show the detour). The worst pair is the one with the largest
 * drop; ties go to a disconnected pair, then to the longer detour, then to the pair with more paths
 * before, then to the first pair of edge switches in switch order. Capacity lost is the sum of the
 * failed links' speeds (one direction of each full-duplex link).
 */
public final class FailureImpact {

    public enum Kind { LINK, ACCESS_LINK, SWITCH }

    /**
     * The pair of edge switches whose NICs lose the largest share of paths.
     *
     * @param hopsAfter NIC-to-NIC hops after the failure, -1 when disconnected
     */
    public record WorstPair(String fromSwitch, String toSwitch, long pathsBefore, long pathsAfter, int hopsBefore,
                            int hopsAfter, boolean disconnected) {
    }

    /**
     * The impact of one failure.
     *
     * @param subject            the link id or switch id
     * @param worstDropFraction  0 when no pair loses a path
     * @param worstPair          null when no pair loses a path
     */
    public record Item(Kind kind, String subject, double capacityLostGbps, long nicPairsDisconnected,
                       double worstDropFraction, WorstPair worstPair) {
    }

    /** Worst first: most NIC pairs disconnected, then largest drop, then most capacity lost. */
    public static final Comparator<Item> WORST_FIRST = Comparator
            .comparingLong(Item::nicPairsDisconnected).reversed()
            .thenComparing(Comparator.comparingDouble(Item::worstDropFraction).reversed())
            .thenComparing(Comparator.comparingDouble(Item::capacityLostGbps).reversed())
            .thenComparing(Item::kind)
            .thenComparing(Item::subject);

    private final List<Item> items;

    private FailureImpact(List<Item> items) {
        this.items = Collections.unmodifiableList(items);
    }

    /** Every item in fabric order: switch-to-switch links, access links, switches. */
    public List<Item> items() {
        return items;
    }

    /** Every item, worst first. */
    public List<Item> ranked() {
        List<Item> r = new ArrayList<>(items);
        r.sort(WORST_FIRST);
        return r;
    }

    public Item item(Kind kind, String subject) {
        return items.stream().filter(i -> i.kind == kind && i.subject.equals(subject)).findFirst().orElse(null);
    }

    public static FailureImpact analyze(Fabric fabric) {
        return analyze(EcmpPathCounter.of(Routing.compute(fabric)));
    }

    /** All single failures of the fabric the counter was built on (its routing must have no failures). */
    public static FailureImpact analyze(EcmpPathCounter counter) {
        return new Analysis(counter).run();
    }

    // ----- candidate ordering shared by the fast analysis and the detailed one --------------------

    /** A worst-pair candidate; {@link #offer} keeps the worse of two. */
    private static final class Worst {
        double frac;
        boolean disc;
        int hopInc;
        long before = -1;
        long after;
        long key = Long.MAX_VALUE;

        boolean offer(double f, boolean d, int inc, long b, long a, long k) {
            if (f < frac || before >= 0 && f == frac && !better(d, inc, b, k)) {
                return false;
            }
            frac = f;
            disc = d;
            hopInc = inc;
            before = b;
            after = a;
            key = k;
            return true;
        }

        private boolean better(boolean d, int inc, long b, long k) {
            if (d != disc) {
                return d;
            }
            if (inc != hopInc) {
                return inc > hopInc;
            }
            if (b != before) {
                return b > before;
            }
            return k < key;
        }

        void merge(Worst o) {
            if (o.before >= 0) {
                offer(o.frac, o.disc, o.hopInc, o.before, o.after, o.key);
            }
        }
    }

    private static WorstPair worstPair(Worst w, int m, Device[] edges, int[] hopsBefore) {
        if (w.before < 0 || w.frac <= 0) {
            return null;
        }
        int i = (int) (w.key / m);
        int j = (int) (w.key % m);
        int hb = hopsBefore[(int) w.key];
        return new WorstPair(edges[i].id(), edges[j].id(), w.before, w.disc ? 0 : w.after, hb,
                w.disc ? -1 : hb + w.hopInc, w.disc);
    }

    // ----- the fast analysis over all single failures --------------------------------------------

    private static final class Analysis {
        final EcmpPathCounter c;
        final SwitchAdjacency adj;
        final int n;
        final int m;
        final int links;
        final int[] edgeSw;
        final Device[] edgeDev;

        Analysis(EcmpPathCounter c) {
            this.c = c;
            this.adj = c.adjacency();
            this.n = adj.switchCount();
            this.m = c.edgeSwitchCount();
            this.links = adj.linkCount();
            this.edgeSw = new int[m];
            this.edgeDev = new Device[m];
            for (int e = 0; e < m; e++) {
                edgeSw[e] = c.edgeSwitchIndex(e);
                edgeDev[e] = c.edgeSwitch(e);
            }
        }

        /** Per-thread accumulators. */
        final class Acc {
            final double[] linkFrac = new double[links];
            final long[] linkBefore = new long[links];
            final long[] linkAfter = new long[links];
            final long[] linkKey = new long[links];
            final double[] devFrac = new double[n];
            final long[] devBefore = new long[n];
            final long[] devAfter = new long[n];
            final long[] devKey = new long[n];
            final Map<Integer, BitSet> linkFlagged = new HashMap<>();
            final Map<Integer, BitSet> devFlagged = new HashMap<>();

            Acc() {
                java.util.Arrays.fill(linkBefore, -1);
                java.util.Arrays.fill(devBefore, -1);
            }
        }

        FailureImpact run() {
            int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
            int[][] classes = twinClasses();
            int[] classOf = new int[m];
            for (int ci = 0; ci < classes.length; ci++) {
                for (int e : classes[ci]) {
                    classOf[e] = ci;
                }
            }
            List<Acc> accs = IntStream.range(0, threads).parallel()
                    .mapToObj(k -> sweep(k, threads, classes, classOf)).toList();
            Worst[] linkWorst = new Worst[links];
            Worst[] devWorst = new Worst[n];
            Map<Integer, BitSet> linkFlagged = new HashMap<>();
            Map<Integer, BitSet> devFlagged = new HashMap<>();
            for (int l = 0; l < links; l++) {
                linkWorst[l] = new Worst();
            }
            for (int x = 0; x < n; x++) {
                devWorst[x] = new Worst();
            }
            for (Acc a : accs) {
                for (int l = 0; l < links; l++) {
                    if (a.linkBefore[l] >= 0) {
                        linkWorst[l].offer(a.linkFrac[l], false, 0, a.linkBefore[l], a.linkAfter[l], a.linkKey[l]);
                    }
                }
                for (int x = 0; x < n; x++) {
                    if (a.devBefore[x] >= 0) {
                        devWorst[x].offer(a.devFrac[x], false, 0, a.devBefore[x], a.devAfter[x], a.devKey[x]);
                    }
                }
                a.linkFlagged.forEach((k, v) -> linkFlagged.computeIfAbsent(k, z -> new BitSet()).or(v));
                a.devFlagged.forEach((k, v) -> devFlagged.computeIfAbsent(k, z -> new BitSet()).or(v));
            }
            long[] linkDisc = new long[links];
            long[] devDisc = new long[n];
            // Elements that carried every shortest path of some pair: recompute from those sources.
            linkFlagged.entrySet().parallelStream().forEach(en ->
                    linkDisc[en.getKey()] = recompute(en.getValue(), en.getKey(), -1, linkWorst[en.getKey()]));
            devFlagged.entrySet().parallelStream().forEach(en ->
                    devDisc[en.getKey()] = recompute(en.getValue(), -1, en.getKey(), devWorst[en.getKey()]));

            int[] hopsBefore = new int[m * m];
            long[] reachNics = new long[m];
            Worst[] nicLoss = new Worst[m];
            for (int i = 0; i < m; i++) {
                int[] di = c.distances(i);
                nicLoss[i] = new Worst();
                if (c.nicCount(i) >= 2) {
                    nicLoss[i].offer(1, true, 0, 1, 0, (long) i * m + i);
                }
                hopsBefore[i * m + i] = 2;
                for (int j = 0; j < m; j++) {
                    if (j == i) {
                        continue;
                    }
                    int d = di[edgeSw[j]];
                    hopsBefore[Math.min(i, j) * m + Math.max(i, j)] = d == Routing.UNREACHABLE ? -1 : d + 2;
                    if (d != Routing.UNREACHABLE) {
                        reachNics[i] += c.nicCount(j);
                        nicLoss[i].offer(1, true, 0, c.pathCounts(i)[edgeSw[j]], 0,
                                (long) Math.min(i, j) * m + Math.max(i, j));
                    }
                }
            }

            List<Item> out = new ArrayList<>();
            for (int l = 0; l < links; l++) {
                Link link = adj.link(l);
                Worst w = linkWorst[l];
                out.add(new Item(Kind.LINK, link.id(), link.speedGbps(), linkDisc[l], w.before < 0 ? 0 : w.frac,
                        worstPair(w, m, edgeDev, hopsBefore)));
            }
            Routing r = c.routing();
            Map<Device, List<Port>> nics = r.nicsBySwitch();
            for (int e = 0; e < m; e++) {
                for (Port p : nics.get(edgeDev[e])) {
                    Link link = r.accessLink(p);
                    long disc = 2 * ((c.nicCount(e) - 1) + reachNics[e]);
                    out.add(new Item(Kind.ACCESS_LINK, link.id(), link.speedGbps(), disc, disc > 0 ? 1 : 0,
                            worstPair(nicLoss[e], m, edgeDev, hopsBefore)));
                }
            }
            for (int x = 0; x < n; x++) {
                Device d = adj.device(x);
                Worst w = devWorst[x];
                long disc = devDisc[x];
                int e = c.edgeOf(x);
                if (e >= 0) {
                    long ne = c.nicCount(e);
                    disc += ne * (ne - 1) + 2 * ne * reachNics[e];
                    w.merge(nicLoss[e]);
                }
                double cap = r.graph().edgesOf(d).stream().mapToDouble(Link::speedGbps).sum();
                out.add(new Item(Kind.SWITCH, d.id(), cap, disc, w.before < 0 ? 0 : w.frac,
                        worstPair(w, m, edgeDev, hopsBefore)));
            }
            return new FailureImpact(out);
        }

        /**
         * Edge switches grouped into twin classes: switches with the same multiset of neighbour
         * switches. For twins s and s' and any other t, no shortest s-t path visits s' (s would reach
         * the next switch directly), sigma(s, x) = sigma(s', x) for every other switch x, and the
         * s'-t DAG is the s-t DAG with s's first-hop links swapped for s''s. So every link not at s or
         * s' and every transit switch carries the same share of both pairs' paths: one DAG walk per
         * class serves all members, and only the members' own first-hop links are updated one by one.
         */
        int[][] twinClasses() {
            int[] start = adj.arcStart();
            int[] head = adj.arcHead();
            Map<List<Integer>, List<Integer>> byNeighbours = new java.util.LinkedHashMap<>();
            for (int e = 0; e < m; e++) {
                int sw = edgeSw[e];
                int[] nb = java.util.Arrays.copyOfRange(head, start[sw], start[sw + 1]);
                java.util.Arrays.sort(nb);
                List<Integer> key = java.util.Arrays.stream(nb).boxed().toList();
                byNeighbours.computeIfAbsent(key, z -> new ArrayList<>()).add(e);
            }
            return byNeighbours.values().stream().map(l -> l.stream().mapToInt(Integer::intValue).toArray())
                    .toArray(int[][]::new);
        }

        /** Per-thread scratch for walking DAGs toward one destination. */
        final class Walker {
            final int[] start = adj.arcStart();
            final int[] head = adj.arcHead();
            final int[] linkOf = adj.arcLink();
            final int[] nhStart = new int[n + 1];
            final int[] nhArc = new int[adj.arcCount()];
            final int[] stamp = new int[n];
            final int[] queue = new int[n];
            int cur;
            int t;
            long[] st;

            /** Next hops of every switch toward edge switch t. */
            void toward(int t) {
                this.t = t;
                int[] dt = c.distances(t);
                st = c.pathCounts(t);
                int cnt = 0;
                for (int x = 0; x < n; x++) {
                    nhStart[x] = cnt;
                    int dx = dt[x];
                    if (dx == Routing.UNREACHABLE || dx == 0) {
                        continue;
                    }
                    for (int arc = start[x]; arc < start[x + 1]; arc++) {
                        if (dt[head[arc]] == dx - 1) {
                            nhArc[cnt++] = arc;
                        }
                    }
                }
                nhStart[n] = cnt;
            }

            private long key(int s) {
                return (long) Math.min(s, t) * m + Math.max(s, t);
            }

            private void flag(Map<Integer, BitSet> flagged, int element, int[] sources) {
                BitSet b = flagged.computeIfAbsent(element, z -> new BitSet());
                for (int u : sources) {
                    b.set(Math.min(u, t));
                }
            }

            private void offerLink(Acc a, int l, long p, long sigma, double sig, long key, int[] sources) {
                if (p == sigma) {
                    flag(a.linkFlagged, l, sources);
                    return;
                }
                double f = p / sig;
                double bf = a.linkFrac[l];
                if (f > bf || f == bf && (sigma > a.linkBefore[l] || sigma == a.linkBefore[l] && key < a.linkKey[l])) {
                    a.linkFrac[l] = f;
                    a.linkBefore[l] = sigma;
                    a.linkAfter[l] = sigma - p;
                    a.linkKey[l] = key;
                }
            }

            /**
             * Walks the s-t DAG from s along next hops toward t, crediting every link and transit
             * switch with its share of the s-t paths. With {@code skipFirstHop} the links at s are left
             * to the caller; {@code sources} are the pairs' other ends (s, or all of s's twins).
             */
            void walk(Acc a, int s, boolean skipFirstHop, int[] sources) {
                int sSw = edgeSw[s];
                int tSw = edgeSw[t];
                long sigma = st[sSw];
                if (sigma == 0) {
                    return;
                }
                long[] ss = c.pathCounts(s);
                double sig = sigma;
                long key = key(s);
                cur++;
                int qh = 0;
                int qt = 0;
                queue[qt++] = sSw;
                stamp[sSw] = cur;
                while (qh < qt) {
                    int x = queue[qh++];
                    long sx = ss[x];
                    boolean first = x == sSw;
                    if (!first) {
                        long p = sx * st[x];
                        if (p == sigma) {
                            flag(a.devFlagged, x, sources);
                        } else {
                            double f = p / sig;
                            double bf = a.devFrac[x];
                            if (f > bf || f == bf && (sigma > a.devBefore[x]
                                    || sigma == a.devBefore[x] && key < a.devKey[x])) {
                                a.devFrac[x] = f;
                                a.devBefore[x] = sigma;
                                a.devAfter[x] = sigma - p;
                                a.devKey[x] = key;
                            }
                        }
                    }
                    for (int i = nhStart[x]; i < nhStart[x + 1]; i++) {
                        int arc = nhArc[i];
                        int y = head[arc];
                        if (!(first && skipFirstHop)) {
                            offerLink(a, linkOf[arc], sx * st[y], sigma, sig, key, sources);
                        }
                        if (y != tSw && stamp[y] != cur) {
                            stamp[y] = cur;
                            queue[qt++] = y;
                        }
                    }
                }
            }

            /** The first-hop links of twin s: each carries sigma(next, t) of the s-t paths. */
            void firstHops(Acc a, int s) {
                long sigma = st[edgeSw[s]];
                if (sigma == 0) {
                    return;
                }
                int sSw = edgeSw[s];
                int[] self = {s};
                for (int i = nhStart[sSw]; i < nhStart[sSw + 1]; i++) {
                    int arc = nhArc[i];
                    offerLink(a, linkOf[arc], st[head[arc]], sigma, sigma, key(s), self);
                }
            }
        }

        /**
         * Credits every pair (s, t) with t = k mod threads (each unordered pair is seen from both
         * ends, which changes nothing: the shares are symmetric and ties break on the same key).
         */
        Acc sweep(int k, int threads, int[][] classes, int[] classOf) {
            Acc a = new Acc();
            Walker w = new Walker();
            for (int t = k; t < m; t += threads) {
                w.toward(t);
                for (int[] members : classes) {
                    if (classOf[t] == classOf[members[0]]) {
                        for (int s : members) {
                            if (s != t) {
                                w.walk(a, s, false, new int[] {s});
                            }
                        }
                    } else {
                        w.walk(a, members[0], true, members);
                        for (int s : members) {
                            w.firstHops(a, s);
                        }
                    }
                }
            }
            return a;
        }

        /**
         * Exact outcome for the pairs (s, t), s in {@code sources}, t > s, whose every shortest path
         * crossed the failed element: BFS without it. Returns ordered NIC pairs disconnected.
         */
        long recompute(BitSet sources, int failedLink, int failedSwitch, Worst worst) {
            int[] d2 = new int[n];
            long[] s2 = new long[n];
            long disc = 0;
            for (int s = sources.nextSetBit(0); s >= 0; s = sources.nextSetBit(s + 1)) {
                EcmpPathCounter.countFrom(adj, edgeSw[s], failedLink, failedSwitch, d2, s2);
                long[] ss = c.pathCounts(s);
                int[] ds = c.distances(s);
                for (int t = s + 1; t < m; t++) {
                    int tSw = edgeSw[t];
                    if (tSw == failedSwitch || ds[tSw] == Routing.UNREACHABLE || d2[tSw] == ds[tSw]) {
                        continue;
                    }
                    long key = (long) s * m + t;
                    if (d2[tSw] == Routing.UNREACHABLE) {
                        disc += 2L * c.nicCount(s) * c.nicCount(t);
                        worst.offer(1, true, 0, ss[tSw], 0, key);
                    } else {
                        worst.offer(1, false, d2[tSw] - ds[tSw], ss[tSw], s2[tSw], key);
                    }
                }
            }
            return disc;
        }
    }

    // ----- one chosen failure in detail, by full recomputation -----------------------------------

    /**
     * How one pair of edge switches fares: NIC pairs between them (ordered, both directions), path
     * counts and NIC-to-NIC hops before and after ({@code hopsAfter} -1 and {@code pathsAfter} 0 when
     * disconnected), and how many of those NIC pairs lost every path.
     */
    public record PairChange(String fromSwitch, String toSwitch, NicPairClass pairClass, long nicPairs,
                             long pathsBefore, long pathsAfter, int hopsBefore, int hopsAfter,
                             long nicPairsDisconnected) {
        public double dropFraction() {
            if (nicPairsDisconnected > 0 || hopsAfter != hopsBefore) {
                return 1.0;
            }
            return pathsBefore == 0 ? 0 : (double) (pathsBefore - pathsAfter) / pathsBefore;
        }
    }

    /**
     * A failure in detail.
     *
     * @param changedPairs pairs of edge switches whose NICs lost paths or hops changed, worst first
     * @param before       path-count statistics before
     * @param after        path-count statistics after (NICs cut off are no longer counted)
     */
    public record Detail(String failed, double capacityLostGbps, long nicPairsDisconnected, double worstDropFraction,
                         WorstPair worstPair, List<PairChange> changedPairs, EcmpPathCounter.Statistics before,
                         EcmpPathCounter.Statistics after) {
    }

    public static Detail detail(Fabric fabric, Link failed) {
        return detail(fabric, Set.of(), Set.of(failed));
    }

    public static Detail detail(Fabric fabric, Device failed) {
        return detail(fabric, Set.of(failed), Set.of());
    }

    /** The exact impact of failing the given devices and links together, by recomputing routing. */
    public static Detail detail(Fabric fabric, Set<Device> downDevices, Set<Link> downLinks) {
        return detail(EcmpPathCounter.of(Routing.compute(fabric)), downDevices, downLinks);
    }

    /**
     * The same, reusing the counter of the healthy fabric (e.g. when a user tries failure after
     * failure); its routing must have no failures.
     */
    public static Detail detail(EcmpPathCounter before, Set<Device> downDevices, Set<Link> downLinks) {
        Fabric fabric = before.routing().fabric();
        EcmpPathCounter after = EcmpPathCounter.of(Routing.compute(fabric, downDevices, downLinks));
        int m = before.edgeSwitchCount();
        Device[] edges = new Device[m];
        int[] afterEdge = new int[m];
        int[] nicsAfter = new int[m];
        for (int i = 0; i < m; i++) {
            edges[i] = before.edgeSwitch(i);
            int sw = after.routing().indexOf(edges[i]);
            afterEdge[i] = sw < 0 ? -1 : after.edgeOf(sw);
            nicsAfter[i] = afterEdge[i] < 0 ? 0 : after.nicCount(afterEdge[i]);
        }
        int[] hopsBefore = new int[m * m];
        Worst worst = new Worst();
        long disc = 0;
        List<PairChange> changes = new ArrayList<>();
        for (int i = 0; i < m; i++) {
            for (int j = i; j < m; j++) {
                long ni = before.nicCount(i);
                long nj = before.nicCount(j);
                long na = nicsAfter[i];
                long nb = nicsAfter[j];
                long key = (long) i * m + j;
                long sigma;
                int hb;
                long pairsBefore;
                long pairsAfter;
                long sigma2;
                int ha;
                if (i == j) {
                    sigma = 1;
                    hb = 2;
                    pairsBefore = ni * (ni - 1);
                    pairsAfter = na * (na - 1);
                    sigma2 = pairsAfter > 0 ? 1 : 0;
                    ha = 2;
                } else {
                    int d = before.distances(j)[before.edgeSwitchIndex(i)];
                    sigma = before.pathCounts(j)[before.edgeSwitchIndex(i)];
                    hb = d == Routing.UNREACHABLE ? -1 : d + 2;
                    pairsBefore = sigma > 0 ? 2 * ni * nj : 0;
                    if (afterEdge[i] >= 0 && afterEdge[j] >= 0) {
                        int ai = after.edgeSwitchIndex(afterEdge[i]);
                        int d2 = after.distances(afterEdge[j])[ai];
                        sigma2 = after.pathCounts(afterEdge[j])[ai];
                        ha = d2 == Routing.UNREACHABLE ? -1 : d2 + 2;
                    } else {
                        sigma2 = 0;
                        ha = -1;
                    }
                    pairsAfter = sigma2 > 0 ? 2 * na * nb : 0;
                }
                hopsBefore[(int) key] = hb;
                if (pairsBefore == 0) {
                    continue;
                }
                long lost = pairsBefore - pairsAfter;
                disc += lost;
                boolean nicLost = na < ni || nb < nj;
                if (nicLost) {
                    worst.offer(1, true, 0, sigma, 0, key);
                }
                boolean remaining = i == j ? na >= 2 : na > 0 && nb > 0;
                if (remaining) {
                    if (sigma2 == 0) {
                        worst.offer(1, true, 0, sigma, 0, key);
                    } else if (ha != hb) {
                        worst.offer(1, false, ha - hb, sigma, sigma2, key);
                    } else if (sigma2 < sigma) {
                        worst.offer((double) (sigma - sigma2) / sigma, false, 0, sigma, sigma2, key);
                    }
                }
                if (lost > 0 || ha != hb || sigma2 != sigma) {
                    changes.add(new PairChange(edges[i].id(), edges[j].id(), NicPairClass.of(edges[i], edges[j]),
                            pairsBefore, sigma, remaining ? sigma2 : 0, hb, remaining ? ha : -1, lost));
                }
            }
        }
        changes.sort(Comparator.comparingDouble(PairChange::dropFraction).reversed()
                .thenComparing(Comparator.comparingLong(PairChange::nicPairsDisconnected).reversed()));
        Set<Link> failedLinks = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Link l : downLinks) {
            if (l.isUp()) {
                failedLinks.add(l);
            }
        }
        for (Device d : downDevices) {
            for (Link l : fabric.linksOf(d)) {
                if (l.isUp()) {
                    failedLinks.add(l);
                }
            }
        }
        double cap = failedLinks.stream().mapToDouble(Link::speedGbps).sum();
        Set<String> names = new LinkedHashSet<>();
        downDevices.forEach(d -> names.add(d.id()));
        downLinks.forEach(l -> names.add(l.id()));
        return new Detail(String.join(", ", names), cap, disc, worst.before < 0 ? 0 : worst.frac,
                worstPair(worst, m, edges, hopsBefore), Collections.unmodifiableList(changes),
                before.statistics(), after.statistics());
    }
}
