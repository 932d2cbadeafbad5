package io.fabriclab.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.routing.EcmpHash;
import io.fabriclab.routing.IbRoutingEngine;
import io.fabriclab.routing.LinearForwardingTables;
import io.fabriclab.routing.Routing;

/**
 * The routes of a run: the routing in force (recomputed when links fail or come back) and every
 * flow's ECMP path as egress port ids, back to back in one store. A packet carries the offset of
 * its path in the store and the index of its hop, so forwarding a packet reads one int
 * ({@link Simulator#forward}) and touches no flow object.
 */
final class FlowPaths {
    Routing routing;
    private final EcmpHash ecmp;
    private final Map<Link, Integer> linkIndex;
    private final Map<Long, List<Link>> hopCache = new HashMap<>();
    /** Every path of every flow, back to back; a packet holds the offset of its path. */
    int[] store = new int[1024];
    int size;
    /**
     * InfiniBand: the subnet manager's engine and the forwarding tables it computed over the
     * current routing; paths follow the tables instead of the ECMP hash. Null otherwise.
     */
    IbRoutingEngine engine;
    LinearForwardingTables tables;

    FlowPaths(Routing routing, EcmpHash ecmp, Map<Link, Integer> linkIndex) {
        this.routing = routing;
        this.ecmp = ecmp;
        this.linkIndex = linkIndex;
    }

    /** Egress ports from NIC {@code from} to NIC {@code to} under the current routing (each switch's ECMP choice), or null if unreachable. */
    int[] path(Port from, Port to, int fromAddr, int toAddr, int udp) {
        List<Integer> out = new ArrayList<>();
        Link access = routing.accessLink(from);
        Device sw = routing.edgeSwitch(from);
        Device last = routing.edgeSwitch(to);
        if (access == null || sw == null || last == null || routing.accessLink(to) == null) {
            return null;
        }
        out.add(portId(access, from.device()));
        int guard = 0;
        while (sw != last) {
            int a = routing.indexOf(sw);
            int b = routing.indexOf(last);
            Device at = sw;
            List<Link> hops = hopCache.computeIfAbsent(((long) a << 32) | b, k -> routing.nextHops(at, last));
            if (hops.isEmpty() || ++guard > 64) {
                return null;
            }
            Link l = tables != null ? tables.outLink(sw, to) : hops.get(ecmp.selectRoce(a, fromAddr, toAddr, udp, hops.size()));
            if (l == null) {
                return null;
            }
            out.add(portId(l, sw));
            sw = l.other(sw);
        }
        out.add(portId(routing.accessLink(to), last));
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * Whether every flow from NIC {@code from} to NIC {@code to} takes the same path under the
     * current routing: one next hop at every switch on the way (or an InfiniBand table, which
     * chooses by destination alone). Then the path does not depend on the flow's UDP port.
     */
    boolean onePath(Port from, Port to) {
        if (tables != null) {
            return true;
        }
        Device sw = routing.edgeSwitch(from);
        Device last = routing.edgeSwitch(to);
        if (sw == null || last == null) {
            return false;
        }
        int guard = 0;
        while (sw != last) {
            int a = routing.indexOf(sw);
            int b = routing.indexOf(last);
            Device at = sw;
            List<Link> hops = hopCache.computeIfAbsent(((long) a << 32) | b, k -> routing.nextHops(at, last));
            if (hops.size() != 1 || ++guard > 64) {
                return false;
            }
            sw = hops.get(0).other(sw);
        }
        return true;
    }

    /** Appends a path to the store; returns its offset. */
    int store(int[] path) {
        if (size + path.length > store.length) {
            store = Arrays.copyOf(store, Math.max(store.length * 2, size + path.length));
        }
        System.arraycopy(path, 0, store, size, path.length);
        int base = size;
        size += path.length;
        return base;
    }

    /** Routing reconverges around the failed links: new next hops from now on. */
    void recompute(Fabric fabric, Set<Link> downLinks) {
        routing = Routing.compute(fabric, Set.of(), downLinks);
        hopCache.clear();
        if (engine != null) {
            // The subnet manager sweeps again and recomputes every table.
            tables = LinearForwardingTables.compute(routing, engine);
        }
    }

    /** InfiniBand: paths from now on follow the tables {@code e} computes. */
    void useEngine(IbRoutingEngine e) {
        engine = e;
        tables = LinearForwardingTables.compute(routing, e);
    }

    /** The egress port by which {@code from} sends into link {@code l}: 2i from its a end, 2i+1 from its b end. */
    int portId(Link l, Device from) {
        int i = linkIndex.get(l);
        return l.a().device() == from ? 2 * i : 2 * i + 1;
    }
}
