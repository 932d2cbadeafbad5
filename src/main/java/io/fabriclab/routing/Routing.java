package io.fabriclab.routing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;

import org.jgrapht.Graph;

/**
 * Shortest-path ECMP forwarding over the switches of a fabric, as a routing protocol (BGP with
 * multipath, as AI fabrics run it) converges to: at every switch, the next hops toward a
 * destination switch are all links to neighbours one hop closer. Servers never forward traffic.
 * In a healthy Clos the shortest paths are exactly the up-down paths; after a failure they may
 * bounce (down-up), which is how cyclic buffer dependencies appear.
 *
 * <p>Immutable once built: a failure is a new {@code Routing} computed without the failed elements.
 */
public final class Routing {
    /** Distance of a switch that cannot reach the destination. */
    public static final int UNREACHABLE = Integer.MAX_VALUE;

    private final Fabric fabric;
    private final Set<Device> downDevices;
    private final Set<Link> downLinks;
    private final Graph<Device, Link> view;
    private final List<Device> switches;
    private final Map<Device, Integer> index = new IdentityHashMap<>();
    /** dist[dst][sw]: hops from sw to dst over switch-to-switch links. */
    private final int[][] dist;
    /** adjacency by switch index: the up switch-to-switch links of each switch. */
    private final Link[][] adjacency;
    /** far[i][k]: the index of the switch at the other end of adjacency[i][k]. */
    private final int[][] far;
    private final Map<Port, Link> nicLink = new IdentityHashMap<>();

    private Routing(Fabric fabric, Set<Device> downDevices, Set<Link> downLinks) {
        this.fabric = fabric;
        this.downDevices = Collections.newSetFromMap(new IdentityHashMap<>());
        this.downDevices.addAll(downDevices);
        this.downLinks = Collections.newSetFromMap(new IdentityHashMap<>());
        this.downLinks.addAll(downLinks);
        this.view = fabric.view(this.downDevices::contains, this.downLinks::contains);
        this.switches = fabric.switches().stream().filter(d -> !this.downDevices.contains(d)).toList();
        for (int i = 0; i < switches.size(); i++) {
            index.put(switches.get(i), i);
        }
        int n = switches.size();
        adjacency = new Link[n][];
        for (int i = 0; i < n; i++) {
            Device sw = switches.get(i);
            List<Link> adj = new ArrayList<>();
            for (Link l : view.edgesOf(sw)) {
                if (index.containsKey(l.other(sw))) {
                    adj.add(l);
                }
            }
            adj.sort((x, y) -> x.id().compareTo(y.id()));
            adjacency[i] = adj.toArray(new Link[0]);
        }
        far = new int[n][];
        for (int i = 0; i < n; i++) {
            Device sw = switches.get(i);
            far[i] = new int[adjacency[i].length];
            for (int k = 0; k < far[i].length; k++) {
                far[i][k] = index.get(adjacency[i][k].other(sw));
            }
        }
        dist = new int[n][];
        for (Device s : fabric.servers()) {
            if (this.downDevices.contains(s)) {
                continue;
            }
            for (Link l : view.edgesOf(s)) {
                nicLink.put(l.portOn(s), l);
            }
        }
    }

    /** Routing of the fabric as drawn (links marked DOWN are excluded). */
    public static Routing compute(Fabric fabric) {
        return compute(fabric, Set.of(), Set.of());
    }

    /** Routing after the given devices and links have failed. */
    public static Routing compute(Fabric fabric, Set<Device> downDevices, Set<Link> downLinks) {
        return new Routing(fabric, downDevices, downLinks);
    }

    public Fabric fabric() {
        return fabric;
    }

    /** The graph this routing sees: the fabric without DOWN or failed links and devices. */
    public Graph<Device, Link> graph() {
        return view;
    }

    public Set<Link> downLinks() {
        return Collections.unmodifiableSet(downLinks);
    }

    public Set<Device> downDevices() {
        return Collections.unmodifiableSet(downDevices);
    }

    /** Switches that are up, in a fixed order; {@link #indexOf} gives a switch's position. */
    public List<Device> switches() {
        return switches;
    }

    /** Index of a switch in {@link #switches()}, or -1 if it is down or not a switch. */
    public int indexOf(Device sw) {
        Integer i = index.get(sw);
        return i == null ? -1 : i;
    }

    /** The up switch-to-switch links of a switch, sorted by id. */
    public Link[] switchLinks(Device sw) {
        return adjacency[index.get(sw)];
    }

    /** The link from a server's NIC port to its switch, or null if the port is not connected or down. */
    public Link accessLink(Port nicPort) {
        return nicLink.get(nicPort);
    }

    /** The switch a server NIC port is attached to, or null. */
    public Device edgeSwitch(Port nicPort) {
        Link l = nicLink.get(nicPort);
        if (l == null) {
            return null;
        }
        Device sw = l.other(nicPort.device());
        return index.containsKey(sw) ? sw : null;
    }

    /** All NIC ports that are connected and up, in fabric order. */
    public List<Port> nicPorts() {
        List<Port> out = new ArrayList<>();
        for (Device s : fabric.servers()) {
            for (Port p : s.ports()) {
                if (nicLink.containsKey(p)) {
                    out.add(p);
                }
            }
        }
        return out;
    }

    /** Hops from switch {@code from} to switch {@code to}, or {@link #UNREACHABLE}. */
    public int distance(Device from, Device to) {
        Integer f = index.get(from);
        Integer t = index.get(to);
        if (f == null || t == null) {
            return UNREACHABLE;
        }
        return distancesTo(t)[f];
    }

    /** Hop distances of every switch (by index) to the destination switch with index {@code dst}. */
    public int[] distancesTo(int dst) {
        int[] d = dist[dst];
        if (d == null) {
            d = bfs(dst);
            dist[dst] = d;
        }
        return d;
    }

    /**
     * ECMP next hops at switch {@code at} toward destination switch {@code dst}: every up link to a
     * neighbour one hop closer (parallel links each count). Empty at the destination itself or when
     * unreachable.
     */
    public List<Link> nextHops(Device at, Device dst) {
        Integer a = index.get(at);
        Integer t = index.get(dst);
        if (a == null || t == null) {
            return List.of();
        }
        int[] d = distancesTo(t);
        if (d[a] == UNREACHABLE || d[a] == 0) {
            return List.of();
        }
        List<Link> out = new ArrayList<>(4);
        Link[] links = adjacency[a];
        int[] ends = far[a];
        for (int k = 0; k < links.length; k++) {
            if (d[ends[k]] == d[a] - 1) {
                out.add(links[k]);
            }
        }
        return out;
    }

    /** Next hops from {@code at} toward the switch a destination NIC port hangs off. */
    public List<Link> nextHopsToNic(Device at, Port dstNic) {
        Device dst = edgeSwitch(dstNic);
        return dst == null ? List.of() : nextHops(at, dst);
    }

    private int[] bfs(int dst) {
        int n = switches.size();
        int[] d = new int[n];
        Arrays.fill(d, UNREACHABLE);
        d[dst] = 0;
        int[] queue = new int[n];
        int head = 0;
        int tail = 0;
        queue[tail++] = dst;
        while (head < tail) {
            int u = queue[head++];
            for (int v : far[u]) {
                if (d[v] == UNREACHABLE) {
                    d[v] = d[u] + 1;
                    queue[tail++] = v;
                }
            }
        }
        return d;
    }

    /** Groups NIC ports by the switch they attach to (handy for path statistics). */
    public Map<Device, List<Port>> nicsBySwitch() {
        Map<Device, List<Port>> m = new HashMap<>();
        for (Port p : nicPorts()) {
            Device sw = edgeSwitch(p);
            if (sw != null) {
                m.computeIfAbsent(sw, k -> new ArrayList<>()).add(p);
            }
        }
        return m;
    }
}
