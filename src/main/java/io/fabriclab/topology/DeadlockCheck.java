package io.fabriclab.topology;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.model.QosProfile;
import io.fabriclab.routing.EcmpPathCounter;
import io.fabriclab.routing.Routing;
import io.fabriclab.routing.SwitchAdjacency;

import org.jgrapht.Graph;
import org.jgrapht.GraphPath;
import org.jgrapht.alg.connectivity.KosarajuStrongConnectivityInspector;
import org.jgrapht.alg.shortestpath.BFSShortestPath;
import org.jgrapht.graph.AsSubgraph;
import org.jgrapht.graph.DefaultEdge;
import org.jgrapht.graph.SimpleDirectedGraph;

/**
 * Static cyclic-buffer-dependency (PFC deadlock) check over the routing, per lossless priority.
 *
 * <p>Vertices are ingress queues: the receiving end of a directed switch-to-switch link, on a
 * priority the receiving port treats as lossless. There is an edge from the ingress queue a packet
 * sits in (link w to x, at x) to the ingress queue of the next hop it may wait on (link x to y, at
 * y) when, for some destination switch t with NICs, the routing forwards t's traffic over w to x and
 * then x to y, and t's traffic can actually reach w (w lies on a shortest path from some NIC-bearing
 * switch to t). A cycle in this graph means packets can pause each other in a ring: a PFC deadlock
 * is possible. Server-facing queues are left out: servers only send and sink, so they close no ring.
 *
 * <p>Cycles are found by peeling away queues with no dependency in or out (they can be on no cycle),
 * then JGraphT's strongly connected components on what remains, and one shortest cycle per
 * component (BFS inside it). Limit: the routing is the shortest-path ECMP of {@link Routing} for
 * the healthy fabric or a given failure; transient states during convergence are not modelled.
 */
public final class DeadlockCheck {

    /** An ingress queue: traffic from {@code fromDevice}:{@code fromPort} received at {@code device}:{@code port}. */
    public record IngressQueue(String device, String port, String fromDevice, String fromPort, String link) {
        @Override
        public String toString() {
            return device + ":" + port + " (from " + fromDevice + ")";
        }
    }

    /**
     * A ring of ingress queues that can pause each other on {@code priority}, in dependency order:
     * packets in queue i wait on queue i+1 (the last on the first). {@code destinations.get(i)} names
     * the destination switches whose traffic creates that wait.
     */
    public record Cycle(int priority, List<IngressQueue> queues, List<List<String>> destinations) {
        /** The switches on the ring, in order. */
        public List<String> switches() {
            return queues.stream().map(IngressQueue::device).toList();
        }
    }

    /**
     * @param failure          what was failed for this check ("" for the fabric as drawn)
     * @param priorities       the lossless priorities checked
     * @param dependencies     number of (queue, next queue) dependencies over all priorities
     * @param cycles           one cycle per strongly connected group of queues
     */
    public record Result(String failure, Set<Integer> priorities, long dependencies, List<Cycle> cycles) {
        public boolean deadlockFree() {
            return cycles.isEmpty();
        }
    }

    private DeadlockCheck() {
    }

    public static Result check(Fabric fabric) {
        return check(Routing.compute(fabric));
    }

    /** The check with the given devices and links failed (routing recomputed without them). */
    public static Result check(Fabric fabric, Set<Device> downDevices, Set<Link> downLinks) {
        return check(Routing.compute(fabric, downDevices, downLinks));
    }

    public static Result check(Routing routing) {
        return check(routing, SwitchAdjacency.of(routing), null);
    }

    /**
     * The check of the counter's routing, reusing its hop distances toward every switch with NICs
     * (the dependencies of a destination follow its next hops; a 65,536-host fat tree has 2,048
     * such switches, each a breadth-first search saved).
     */
    public static Result check(EcmpPathCounter counter) {
        return check(counter.routing(), counter.adjacency(), counter);
    }

    private static Result check(Routing routing, SwitchAdjacency adj, EcmpPathCounter counter) {
        Fabric fabric = routing.fabric();
        int[] head = adj.arcHead();
        int arcs = adj.arcCount();

        Set<String> failed = new LinkedHashSet<>();
        routing.downDevices().forEach(d -> failed.add(d.id()));
        routing.downLinks().forEach(l -> failed.add(l.id()));
        String failure = String.join(", ", failed);

        // Which priorities are lossless where: the receiving port's QoS profile decides.
        Set<Integer> priorities = new TreeSet<>();
        QosProfile[] arcQos = new QosProfile[arcs];
        for (int a = 0; a < arcs; a++) {
            Link l = adj.link(adj.arcLink()[a]);
            Port receiving = l.portOn(adj.device(head[a]));
            QosProfile q = fabric.qosFor(receiving);
            arcQos[a] = q;
            if (q != null && q.pfc() != null && q.pfc().enabled()) {
                priorities.addAll(q.pfc().priorities());
            }
        }
        if (priorities.isEmpty()) {
            return new Result(failure, Set.of(), 0, List.of());
        }

        long[][] matrix = dependencyMatrix(routing, adj, counter);

        long deps = 0;
        List<int[]> rings = new ArrayList<>();
        List<Integer> ringPriority = new ArrayList<>();
        for (int p : priorities) {
            boolean[] alive = new boolean[arcs];
            for (int a = 0; a < arcs; a++) {
                alive[a] = arcQos[a] != null && arcQos[a].pfc() != null && arcQos[a].pfc().isLossless(p);
            }
            deps += countEdges(adj, matrix, alive);
            boolean[] core = peel(adj, matrix, alive);
            for (int[] ring : cyclesIn(adj, matrix, core)) {
                rings.add(ring);
                ringPriority.add(p);
            }
        }
        List<List<List<String>>> causes = causes(routing, adj, rings);
        List<Cycle> cycles = new ArrayList<>();
        for (int c = 0; c < rings.size(); c++) {
            cycles.add(new Cycle(ringPriority.get(c),
                    Arrays.stream(rings.get(c)).mapToObj(a -> queue(adj, a)).toList(), causes.get(c)));
        }
        return new Result(failure, Collections.unmodifiableSet(priorities), deps, Collections.unmodifiableList(cycles));
    }

    /**
     * Per switch x a bit matrix over its arcs: bit (i, j) says a packet that came in over the link of
     * x's arc i (the reverse arc, into x) may leave over x's arc j.
     */
    private static long[][] dependencyMatrix(Routing routing, SwitchAdjacency adj, EcmpPathCounter counter) {
        int n = adj.switchCount();
        boolean[] hasNics = new boolean[n];
        routing.nicsBySwitch().keySet().forEach(d -> hasNics[routing.indexOf(d)] = true);
        int[] destinations = IntStream.range(0, n).filter(t -> hasNics[t]).toArray();
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        // Each thread ORs the dependencies of its share of destinations into its own matrix.
        List<long[][]> parts = IntStream.range(0, threads).parallel().mapToObj(k -> {
            long[][] m = emptyMatrix(adj);
            for (int i = k; i < destinations.length; i += threads) {
                addDestination(adj, hasNics, destinations[i], m, counter);
            }
            return m;
        }).toList();
        long[][] matrix = parts.get(0);
        for (int k = 1; k < parts.size(); k++) {
            long[][] other = parts.get(k);
            for (int x = 0; x < n; x++) {
                for (int w = 0; w < matrix[x].length; w++) {
                    matrix[x][w] |= other[x][w];
                }
            }
        }
        return matrix;
    }

    private static long[][] emptyMatrix(SwitchAdjacency adj) {
        int[] start = adj.arcStart();
        long[][] m = new long[adj.switchCount()][];
        for (int x = 0; x < m.length; x++) {
            int deg = start[x + 1] - start[x];
            m[x] = new long[deg * ((deg + 63) >>> 6)];
        }
        return m;
    }

    /** Sets the dependencies that traffic toward destination switch {@code t} creates. */
    private static void addDestination(SwitchAdjacency adj, boolean[] hasNics, int t, long[][] matrix,
                                       EcmpPathCounter counter) {
        int n = adj.switchCount();
        int[] start = adj.arcStart();
        int[] head = adj.arcHead();
        int[] dist;
        if (counter != null) {
            dist = counter.distances(counter.edgeOf(t));
        } else {
            dist = new int[n];
            EcmpPathCounter.countFrom(adj, t, -1, -1, dist, new long[n]);
        }
        boolean[] carries = carriers(adj, hasNics, t, dist);
        long[] outMask = new long[1];
        for (int x = 0; x < n; x++) {
            if (!carries[x] || x == t) {
                continue;
            }
            int deg = start[x + 1] - start[x];
            int w = (deg + 63) >>> 6;
            if (outMask.length < w) {
                outMask = new long[w];
            }
            Arrays.fill(outMask, 0, w, 0L);
            for (int j = 0; j < deg; j++) {
                if (dist[head[start[x] + j]] == dist[x] - 1) {
                    outMask[j >>> 6] |= 1L << j;
                }
            }
            long[] mx = matrix[x];
            for (int i = 0; i < deg; i++) {
                int from = head[start[x] + i];
                if (carries[from] && dist[from] == dist[x] + 1) {
                    int row = i * w;
                    for (int k = 0; k < w; k++) {
                        mx[row + k] |= outMask[k];
                    }
                }
            }
        }
    }

    /**
     * The switches that can hold traffic for t, given {@code dist}, every switch's hops to t:
     * NIC-bearing sources that reach t, then every switch downstream of one along next hops.
     */
    private static boolean[] carriers(SwitchAdjacency adj, boolean[] hasNics, int t, int[] dist) {
        int n = adj.switchCount();
        int[] start = adj.arcStart();
        int[] head = adj.arcHead();
        // Switches in order of decreasing distance (counting sort), unreachable ones left out.
        int maxD = 0;
        for (int d : dist) {
            if (d != Routing.UNREACHABLE) {
                maxD = Math.max(maxD, d);
            }
        }
        int[] bucket = new int[maxD + 2];
        for (int d : dist) {
            if (d != Routing.UNREACHABLE) {
                bucket[maxD - d + 1]++;
            }
        }
        for (int i = 1; i < bucket.length; i++) {
            bucket[i] += bucket[i - 1];
        }
        int[] order = new int[bucket[bucket.length - 1]];
        for (int x = 0; x < n; x++) {
            if (dist[x] != Routing.UNREACHABLE) {
                order[bucket[maxD - dist[x]]++] = x;
            }
        }
        // Switches that can hold traffic for t: NIC-bearing sources, then everything downstream.
        boolean[] carries = new boolean[n];
        for (int x = 0; x < n; x++) {
            carries[x] = hasNics[x] && x != t && dist[x] != Routing.UNREACHABLE;
        }
        for (int u : order) {
            if (!carries[u] || dist[u] == 0) {
                continue;
            }
            for (int a = start[u]; a < start[u + 1]; a++) {
                if (dist[head[a]] == dist[u] - 1) {
                    carries[head[a]] = true;
                }
            }
        }
        return carries;
    }

    private static boolean bit(long[] m, int row, int words, int j) {
        return (m[row * words + (j >>> 6)] & (1L << j)) != 0;
    }

    /** Bits j of switch x's arcs whose receiving queue is live. */
    private static long[] liveArcs(int[] start, int x, boolean[] alive) {
        int deg = start[x + 1] - start[x];
        long[] mask = new long[(deg + 63) >>> 6];
        for (int j = 0; j < deg; j++) {
            if (alive[start[x] + j]) {
                mask[j >>> 6] |= 1L << j;
            }
        }
        return mask;
    }

    private static long countEdges(SwitchAdjacency adj, long[][] matrix, boolean[] alive) {
        int[] start = adj.arcStart();
        int[] rev = adj.arcReverse();
        long count = 0;
        for (int x = 0; x < adj.switchCount(); x++) {
            int deg = start[x + 1] - start[x];
            long[] live = liveArcs(start, x, alive);
            int w = live.length;
            for (int i = 0; i < deg; i++) {
                if (alive[rev[start[x] + i]]) {
                    for (int k = 0; k < w; k++) {
                        count += Long.bitCount(matrix[x][i * w + k] & live[k]);
                    }
                }
            }
        }
        return count;
    }

    /** Removes, repeatedly, queues with no live dependency in or out; returns the queues left. */
    private static boolean[] peel(SwitchAdjacency adj, long[][] matrix, boolean[] alive) {
        int[] start = adj.arcStart();
        int[] head = adj.arcHead();
        int[] rev = adj.arcReverse();
        int arcs = adj.arcCount();
        int n = adj.switchCount();
        int[] tail = new int[arcs];
        for (int x = 0; x < n; x++) {
            for (int a = start[x]; a < start[x + 1]; a++) {
                tail[a] = x;
            }
        }
        int[] in = new int[arcs];
        int[] out = new int[arcs];
        for (int x = 0; x < n; x++) {
            int deg = start[x + 1] - start[x];
            long[] live = liveArcs(start, x, alive);
            int w = live.length;
            for (int i = 0; i < deg; i++) {
                int inArc = rev[start[x] + i];
                if (!alive[inArc]) {
                    continue;
                }
                for (int k = 0; k < w; k++) {
                    long bits = matrix[x][i * w + k] & live[k];
                    out[inArc] += Long.bitCount(bits);
                    while (bits != 0) {
                        in[start[x] + (k << 6) + Long.numberOfTrailingZeros(bits)]++;
                        bits &= bits - 1;
                    }
                }
            }
        }
        boolean[] left = alive.clone();
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int a = 0; a < arcs; a++) {
            if (left[a] && (in[a] == 0 || out[a] == 0)) {
                left[a] = false;
                queue.add(a);
            }
        }
        while (!queue.isEmpty()) {
            int a = queue.poll();
            // a is the queue at x = head[a] for traffic from w = tail[a].
            int x = head[a];
            int w = tail[a];
            int degX = start[x + 1] - start[x];
            int wordsX = (degX + 63) >>> 6;
            int i = rev[a] - start[x];
            for (int j = 0; j < degX; j++) {
                int b = start[x] + j;
                if (left[b] && bit(matrix[x], i, wordsX, j) && --in[b] == 0) {
                    left[b] = false;
                    queue.add(b);
                }
            }
            int degW = start[w + 1] - start[w];
            int wordsW = (degW + 63) >>> 6;
            int j = a - start[w];
            for (int r = 0; r < degW; r++) {
                int before = rev[start[w] + r];
                if (left[before] && bit(matrix[w], r, wordsW, j) && --out[before] == 0) {
                    left[before] = false;
                    queue.add(before);
                }
            }
        }
        return left;
    }

    /** For each ring and each of its waits (queue i on queue i+1), the destination switches causing it. */
    private static List<List<List<String>>> causes(Routing routing, SwitchAdjacency adj, List<int[]> rings) {
        List<List<List<String>>> out = new ArrayList<>();
        for (int[] ring : rings) {
            List<List<String>> perWait = new ArrayList<>();
            for (int i = 0; i < ring.length; i++) {
                perWait.add(new ArrayList<>());
            }
            out.add(perWait);
        }
        if (rings.isEmpty()) {
            return out;
        }
        int n = adj.switchCount();
        int[] head = adj.arcHead();
        boolean[] hasNics = new boolean[n];
        routing.nicsBySwitch().keySet().forEach(d -> hasNics[routing.indexOf(d)] = true);
        int[] dist = new int[n];
        for (int t = 0; t < n; t++) {
            if (!hasNics[t]) {
                continue;
            }
            EcmpPathCounter.countFrom(adj, t, -1, -1, dist, new long[n]);
            boolean[] carries = carriers(adj, hasNics, t, dist);
            for (int c = 0; c < rings.size(); c++) {
                int[] ring = rings.get(c);
                for (int i = 0; i < ring.length; i++) {
                    int a = ring[i];
                    int w = adj.arcTail(a);
                    int x = head[a];
                    int y = head[ring[(i + 1) % ring.length]];
                    if (x != t && carries[w] && dist[x] != Routing.UNREACHABLE && dist[w] == dist[x] + 1
                            && dist[y] == dist[x] - 1) {
                        out.get(c).get(i).add(adj.device(t).id());
                    }
                }
            }
        }
        return out;
    }

    private static List<int[]> cyclesIn(SwitchAdjacency adj, long[][] matrix, boolean[] core) {
        int[] start = adj.arcStart();
        int[] head = adj.arcHead();
        int[] rev = adj.arcReverse();
        Graph<Integer, DefaultEdge> g = new SimpleDirectedGraph<>(DefaultEdge.class);
        for (int a = 0; a < core.length; a++) {
            if (core[a]) {
                g.addVertex(a);
            }
        }
        if (g.vertexSet().isEmpty()) {
            return List.of();
        }
        for (int a : g.vertexSet()) {
            int x = head[a];
            int deg = start[x + 1] - start[x];
            int w = (deg + 63) >>> 6;
            int i = rev[a] - start[x];
            for (int j = 0; j < deg; j++) {
                int b = start[x] + j;
                if (core[b] && bit(matrix[x], i, w, j)) {
                    g.addEdge(a, b);
                }
            }
        }
        List<int[]> out = new ArrayList<>();
        for (Set<Integer> scc : new KosarajuStrongConnectivityInspector<>(g).stronglyConnectedSets()) {
            if (scc.size() < 2) {
                continue;
            }
            Graph<Integer, DefaultEdge> sub = new AsSubgraph<>(g, scc);
            int v = Collections.min(scc);
            List<Integer> best = null;
            for (DefaultEdge e : sub.outgoingEdgesOf(v)) {
                GraphPath<Integer, DefaultEdge> path = BFSShortestPath.findPathBetween(sub, sub.getEdgeTarget(e), v);
                if (path != null && (best == null || path.getLength() + 1 < best.size())) {
                    best = new ArrayList<>();
                    best.add(v);
                    List<Integer> vs = path.getVertexList();
                    best.addAll(vs.subList(0, vs.size() - 1));
                }
            }
            if (best != null) {
                out.add(best.stream().mapToInt(Integer::intValue).toArray());
            }
        }
        return out;
    }

    private static IngressQueue queue(SwitchAdjacency adj, int arc) {
        Link l = adj.link(adj.arcLink()[arc]);
        Device to = adj.device(adj.arcHead()[arc]);
        Device from = l.other(to);
        return new IngressQueue(to.id(), l.portOn(to).name(), from.id(), l.portOn(from).name(), l.id());
    }
}
