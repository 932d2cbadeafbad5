package io.fabriclab.topology;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;

import org.jgrapht.Graph;
import org.jgrapht.alg.flow.PushRelabelMFImpl;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.jgrapht.graph.SimpleDirectedWeightedGraph;

/**
 * Bisection bandwidth of a fabric as a maximum flow (push-relabel, JGraphT) between two halves of its
 * servers. The servers are ordered by unit, then pod, then the first switch they attach to (fabric
 * order), then fabric order; the first half (rounded down) sends, the rest receives. Grouping by
 * unit and leaf keeps whole units and racks on one side, so the cut runs through the upper tiers.
 *
 * <p>Capacity graph: each working switch-to-switch link carries its speed in each direction
 * (full duplex); a sending server only sends into the fabric and a receiving server only receives,
 * so servers never transit. Parallel links add up. Links marked DOWN are left out.
 *
 * <p>Push-relabel (FIFO, with global relabelling) works with queues and no recursion, so a fabric
 * of long diameter (a chain of thousands of switches) cannot overflow the stack, as JGraphT's
 * Dinic, whose blocking-flow search recurses once per hop, did.
 *
 * @param bandwidthGbps the maximum flow from the first half to the second
 * @param idealGbps     full bisection: the NIC capacity of the smaller half (half the total when
 *                      the halves are equal)
 * @param ratio         bandwidth / ideal (1.0 = full bisection; NaN when there is nothing to cut)
 * @param firstHalf     ids of the sending servers
 * @param secondHalf    ids of the receiving servers
 */
public record Bisection(double bandwidthGbps, double idealGbps, double ratio, List<String> firstHalf,
                        List<String> secondHalf) {

    public static Bisection of(Fabric fabric) {
        Graph<Device, Link> g = fabric.graph();
        List<Device> switches = fabric.switches();
        Map<Device, Integer> switchOrder = new IdentityHashMap<>();
        for (int i = 0; i < switches.size(); i++) {
            switchOrder.put(switches.get(i), i);
        }
        List<Device> servers = new ArrayList<>(fabric.servers());
        Map<Device, Integer> fabricOrder = new IdentityHashMap<>();
        Map<Device, Integer> firstSwitch = new IdentityHashMap<>();
        for (int i = 0; i < servers.size(); i++) {
            Device s = servers.get(i);
            fabricOrder.put(s, i);
            int first = Integer.MAX_VALUE;
            for (Link l : g.edgesOf(s)) {
                if (!l.isUp()) {
                    continue;
                }
                Integer o = switchOrder.get(l.other(s));
                if (o != null) {
                    first = Math.min(first, o);
                }
            }
            firstSwitch.put(s, first);
        }
        servers.sort(Comparator.<Device>comparingInt(d -> d.unit() == null ? Integer.MAX_VALUE : d.unit())
                .thenComparingInt(d -> d.pod() == null ? Integer.MAX_VALUE : d.pod())
                .thenComparingInt(firstSwitch::get)
                .thenComparingInt(fabricOrder::get));
        int half = servers.size() / 2;
        List<Device> first = servers.subList(0, half);
        List<Device> second = servers.subList(half, servers.size());

        // Vertex numbering: 0 = source, 1 = sink, switches from 2. Every sending server merges into
        // the source and every receiving one into the sink: a server's NIC capacity is exactly the sum
        // of its links, so the merge leaves the maximum flow unchanged and drops most vertices.
        Map<Device, Integer> vertex = new IdentityHashMap<>();
        first.forEach(d -> vertex.put(d, 0));
        second.forEach(d -> vertex.put(d, 1));
        int next = 2;
        for (Device d : switches) {
            vertex.put(d, next++);
        }
        Map<Long, Double> capacity = new HashMap<>();
        double capFirst = 0;
        double capSecond = 0;
        for (Link l : fabric.links()) {
            if (!l.isUp()) {
                continue;
            }
            int x = vertex.get(l.a().device());
            int y = vertex.get(l.b().device());
            double c = l.speedGbps();
            capFirst += (x == 0 ? c : 0) + (y == 0 ? c : 0);
            capSecond += (x == 1 ? c : 0) + (y == 1 ? c : 0);
            if (x == y) {
                continue;
            }
            // Nothing flows into the source or out of the sink.
            if (x != 1 && y != 0) {
                capacity.merge(key(x, y), c, Double::sum);
            }
            if (y != 1 && x != 0) {
                capacity.merge(key(y, x), c, Double::sum);
            }
        }
        SimpleDirectedWeightedGraph<Integer, DefaultWeightedEdge> flow = new SimpleDirectedWeightedGraph<>(
                DefaultWeightedEdge.class);
        for (int v = 0; v < next; v++) {
            flow.addVertex(v);
        }
        capacity.forEach((k, c) -> {
            DefaultWeightedEdge e = flow.addEdge((int) (k >>> 32), (int) (long) k);
            flow.setEdgeWeight(e, c);
        });
        double max = capFirst == 0 || capSecond == 0 ? 0 : new PushRelabelMFImpl<>(flow).getMaximumFlowValue(0, 1);
        double ideal = Math.min(capFirst, capSecond);
        double ratio = ideal == 0 ? Double.NaN : max / ideal;
        return new Bisection(max, ideal, ratio, first.stream().map(Device::id).toList(),
                second.stream().map(Device::id).toList());
    }

    private static long key(int from, int to) {
        return ((long) from << 32) | (to & 0xffffffffL);
    }
}
