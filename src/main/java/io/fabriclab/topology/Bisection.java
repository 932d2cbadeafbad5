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
import org.jgrapht.alg.flow.DinicMFImpl;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.jgrapht.graph.SimpleDirectedWeightedGraph;

/**
 * Bisection bandwidth of a fabric as a maximum flow (Dinic, JGraphT) between two halves of its
 * servers. The servers are ordered by unit, then pod, then the first switch they attach to (fabric
 * order), then fabric order; the first half (rounded down) sends, the rest receives. Grouping by
 * unit and leaf keeps whole units and racks on one side, so the cut runs through the upper tiers.
 *
 * <p>Capacity graph: each working switch-to-switch link carries its speed in each direction
 * (full duplex); a sending server only sends into the fabric and a receiving server only receives,
 * so servers never transit. Parallel links add up. Links marked DOWN are left out.
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
        Graph<Device, Link> g = fabric.upView();
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

        // Vertex numbering: 0 = source, 1 = sink, devices from 2.
        Map<Device, Integer> vertex = new IdentityHashMap<>();
        Map<Device, Boolean> sends = new IdentityHashMap<>();
        first.forEach(d -> sends.put(d, true));
        second.forEach(d -> sends.put(d, false));
        int next = 2;
        for (Device d : g.vertexSet()) {
            vertex.put(d, next++);
        }
        Map<Long, Double> capacity = new HashMap<>();
        double capFirst = 0;
        double capSecond = 0;
        for (Link l : g.edgeSet()) {
            Device x = l.a().device();
            Device y = l.b().device();
            double c = l.speedGbps();
            if (canSend(x, y, sends)) {
                capacity.merge(key(vertex.get(x), vertex.get(y)), c, Double::sum);
            }
            if (canSend(y, x, sends)) {
                capacity.merge(key(vertex.get(y), vertex.get(x)), c, Double::sum);
            }
            for (Device s : List.of(x, y)) {
                Boolean side = sends.get(s);
                if (side == null) {
                    continue;
                }
                if (side) {
                    capacity.merge(key(0, vertex.get(s)), c, Double::sum);
                    capFirst += c;
                } else {
                    capacity.merge(key(vertex.get(s), 1), c, Double::sum);
                    capSecond += c;
                }
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
        double max = capFirst == 0 || capSecond == 0 ? 0 : new DinicMFImpl<>(flow).getMaximumFlowValue(0, 1);
        double ideal = Math.min(capFirst, capSecond);
        double ratio = ideal == 0 ? Double.NaN : max / ideal;
        return new Bisection(max, ideal, ratio, first.stream().map(Device::id).toList(),
                second.stream().map(Device::id).toList());
    }

    /** Whether traffic may go from {@code x} to {@code y}: receivers never send, senders never receive. */
    private static boolean canSend(Device x, Device y, Map<Device, Boolean> sends) {
        return !Boolean.FALSE.equals(sends.get(x)) && !Boolean.TRUE.equals(sends.get(y));
    }

    private static long key(int from, int to) {
        return ((long) from << 32) | (to & 0xffffffffL);
    }
}
