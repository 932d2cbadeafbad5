package io.fabriclab.routing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.IntStream;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Port;

/**
 * Number of equal-cost shortest paths (ECMP paths) between NICs, counted by dynamic programming over
 * the routing DAG toward each destination switch: sigma(dst) = 1, sigma(u) = sum of sigma(v) over
 * u's next-hop links toward dst (parallel links each count). Paths are never enumerated.
 *
 * <p>A NIC-to-NIC path count is the count between the NICs' edge switches (the switches their
 * ports hang off); two NICs on the same switch have one path. Statistics over all NIC pairs are
 * computed per pair of edge switches and weighted by the number of NICs on each, so a
 * 16,384-NIC fabric costs (edge switches)^2 work, not (NICs)^2.
 *
 * <p>NIC pairs are ordered (a to b and b to a are two pairs, as two flows would be) and exclude a NIC
 * with itself. Counts saturate at {@link Long#MAX_VALUE} (far above any real fabric).
 */
public final class EcmpPathCounter {
    private final Routing routing;
    private final SwitchAdjacency adjacency;
    /** Switch indices of the switches with NICs attached, in switch order. */
    private final int[] edgeSwitch;
    private final int[] nicCount;
    private final int[] edgeOfSwitch;
    /** dist[e][sw]: hops from switch sw to edge switch e; sigma[e][sw]: shortest paths between them. */
    private final int[][] dist;
    private final long[][] sigma;

    private EcmpPathCounter(Routing routing) {
        this.routing = routing;
        this.adjacency = SwitchAdjacency.of(routing);
        int n = adjacency.switchCount();
        Map<Device, List<Port>> bySwitch = routing.nicsBySwitch();
        edgeOfSwitch = new int[n];
        Arrays.fill(edgeOfSwitch, -1);
        List<Integer> edges = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (bySwitch.containsKey(adjacency.device(i))) {
                edgeOfSwitch[i] = edges.size();
                edges.add(i);
            }
        }
        edgeSwitch = edges.stream().mapToInt(Integer::intValue).toArray();
        nicCount = new int[edgeSwitch.length];
        for (int e = 0; e < edgeSwitch.length; e++) {
            nicCount[e] = bySwitch.get(adjacency.device(edgeSwitch[e])).size();
        }
        dist = new int[edgeSwitch.length][];
        sigma = new long[edgeSwitch.length][];
        IntStream.range(0, edgeSwitch.length).parallel().forEach(e -> {
            int[] d = new int[n];
            long[] s = new long[n];
            countFrom(adjacency, edgeSwitch[e], -1, -1, d, s);
            dist[e] = d;
            sigma[e] = s;
        });
    }

    public static EcmpPathCounter of(Routing routing) {
        return new EcmpPathCounter(routing);
    }

    public static EcmpPathCounter of(Fabric fabric) {
        return new EcmpPathCounter(Routing.compute(fabric));
    }

    /**
     * Breadth-first distances and shortest-path counts from switch {@code source} to every switch,
     * optionally as if one link (index) or one switch (index) had failed (-1 for none). On return
     * {@code dist[v]} is {@link Routing#UNREACHABLE} and {@code sigma[v]} 0 where v cannot be reached.
     * Because links are undirected, sigma[v] is also the DP count from v toward {@code source}.
     */
    public static void countFrom(SwitchAdjacency adj, int source, int excludedLink, int excludedSwitch,
                                 int[] dist, long[] sigma) {
        Arrays.fill(dist, Routing.UNREACHABLE);
        Arrays.fill(sigma, 0L);
        if (source == excludedSwitch) {
            return;
        }
        int[] start = adj.arcStart();
        int[] head = adj.arcHead();
        int[] linkOf = adj.arcLink();
        int[] queue = new int[dist.length];
        int qh = 0;
        int qt = 0;
        dist[source] = 0;
        sigma[source] = 1;
        queue[qt++] = source;
        while (qh < qt) {
            int u = queue[qh++];
            int du = dist[u] + 1;
            long su = sigma[u];
            for (int a = start[u]; a < start[u + 1]; a++) {
                int v = head[a];
                if (v == excludedSwitch || linkOf[a] == excludedLink) {
                    continue;
                }
                if (dist[v] == Routing.UNREACHABLE) {
                    dist[v] = du;
                    queue[qt++] = v;
                }
                if (dist[v] == du) {
                    long s = sigma[v] + su;
                    sigma[v] = s < 0 ? Long.MAX_VALUE : s;
                }
            }
        }
    }

    public Routing routing() {
        return routing;
    }

    public SwitchAdjacency adjacency() {
        return adjacency;
    }

    /** Number of switches with NICs attached ("edge switches"). */
    public int edgeSwitchCount() {
        return edgeSwitch.length;
    }

    /** The switch index (see {@link Routing#indexOf}) of edge switch number {@code e}. */
    public int edgeSwitchIndex(int e) {
        return edgeSwitch[e];
    }

    public Device edgeSwitch(int e) {
        return adjacency.device(edgeSwitch[e]);
    }

    /** Edge-switch number of a switch index, or -1 when no NIC hangs off it. */
    public int edgeOf(int switchIndex) {
        return edgeOfSwitch[switchIndex];
    }

    /** NICs (connected and up) attached to edge switch {@code e}. */
    public int nicCount(int e) {
        return nicCount[e];
    }

    public long totalNics() {
        long t = 0;
        for (int c : nicCount) {
            t += c;
        }
        return t;
    }

    /** Hops from every switch (by index) to edge switch {@code e}; shared, do not modify. */
    public int[] distances(int e) {
        return dist[e];
    }

    /** Shortest-path counts from every switch (by index) to edge switch {@code e}; shared, do not modify. */
    public long[] pathCounts(int e) {
        return sigma[e];
    }

    /** Equal-cost shortest paths between two switches (0 when unreachable, 1 from a switch to itself). */
    public long paths(Device from, Device to) {
        int f = routing.indexOf(from);
        int t = routing.indexOf(to);
        if (f < 0 || t < 0) {
            return 0;
        }
        if (edgeOfSwitch[t] >= 0) {
            return sigma[edgeOfSwitch[t]][f];
        }
        if (edgeOfSwitch[f] >= 0) {
            return sigma[edgeOfSwitch[f]][t];
        }
        int[] d = new int[adjacency.switchCount()];
        long[] s = new long[adjacency.switchCount()];
        countFrom(adjacency, t, -1, -1, d, s);
        return s[f];
    }

    /** Equal-cost paths between two NIC ports: those between their edge switches (same switch: 1). */
    public long paths(Port nicA, Port nicB) {
        Device a = routing.edgeSwitch(nicA);
        Device b = routing.edgeSwitch(nicB);
        if (a == null || b == null) {
            return 0;
        }
        return paths(a, b);
    }

    /** Path-count distribution over a set of NIC pairs. */
    public record Summary(long nicPairs, long unreachablePairs, long min, long max, double mean,
                          SortedMap<Long, Long> histogram) {
        static Summary of(Map<Long, Long> hist) {
            TreeMap<Long, Long> h = new TreeMap<>(hist);
            long pairs = 0;
            double sum = 0;
            for (Map.Entry<Long, Long> en : h.entrySet()) {
                pairs += en.getValue();
                sum += (double) en.getKey() * en.getValue();
            }
            if (pairs == 0) {
                return new Summary(0, 0, 0, 0, 0, Collections.unmodifiableSortedMap(h));
            }
            return new Summary(pairs, h.getOrDefault(0L, 0L), h.firstKey(), h.lastKey(), sum / pairs,
                    Collections.unmodifiableSortedMap(h));
        }
    }

    /** Path counts over all ordered NIC pairs, and per {@link NicPairClass}. Histogram: paths to NIC pairs. */
    public record Statistics(Summary all, Map<NicPairClass, Summary> byClass) {
    }

    public Statistics statistics() {
        Map<Long, Long> all = new HashMap<>();
        Map<NicPairClass, Map<Long, Long>> byClass = new EnumMap<>(NicPairClass.class);
        int m = edgeSwitch.length;
        for (int i = 0; i < m; i++) {
            Device di = edgeSwitch(i);
            for (int j = 0; j < m; j++) {
                long weight = i == j ? (long) nicCount[i] * (nicCount[i] - 1) : (long) nicCount[i] * nicCount[j];
                if (weight == 0) {
                    continue;
                }
                long count = i == j ? 1 : sigma[j][edgeSwitch[i]];
                all.merge(count, weight, Long::sum);
                byClass.computeIfAbsent(NicPairClass.of(di, edgeSwitch(j)), k -> new HashMap<>())
                        .merge(count, weight, Long::sum);
            }
        }
        Map<NicPairClass, Summary> classes = new EnumMap<>(NicPairClass.class);
        byClass.forEach((k, v) -> classes.put(k, Summary.of(v)));
        return new Statistics(Summary.of(all), Collections.unmodifiableMap(classes));
    }
}
