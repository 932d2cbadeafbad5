package io.fabriclab.sim;

import java.util.Arrays;
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
    /**
     * The next hops from switch a toward switch b under the routing in force, at [a][b] by the
     * routing's switch indices (rows made on first use), each as the egress port and the next switch.
     */
    private Hops[][] hopTable;
    /** Scratch for the path being built. */
    private int[] scratch = new int[16];

    /** ECMP next hops from one switch toward another: the links, their egress port ids at the switch, their far ends. */
    private record Hops(int[] ports, Device[] next, int[] nextIndex) {
    }

    private static final Hops NO_HOPS = new Hops(new int[0], new Device[0], new int[0]);
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
        if (tables == null) {
            long fromEnds = ends(from, false);
            long toEnds = ends(to, true);
            if (fromEnds < 0 || toEnds < 0) {
                return null;
            }
            int len = pathInto(fromEnds, toEnds, fromAddr, toAddr, udp);
            return len < 0 ? null : Arrays.copyOf(scratch, len);
        }
        // InfiniBand: each switch's forwarding table by destination.
        Link access = routing.accessLink(from);
        Device sw = routing.edgeSwitch(from);
        Device last = routing.edgeSwitch(to);
        if (access == null || sw == null || last == null || routing.accessLink(to) == null) {
            return null;
        }
        int[] out = scratch;
        int size = 0;
        out[size++] = portId(access, from.device());
        int guard = 0;
        int b = routing.indexOf(last);
        while (sw != last) {
            Hops hops = hops(routing.indexOf(sw), b, sw, last);
            if (hops.ports.length == 0 || ++guard > 64) {
                return null;
            }
            if (size + 2 > out.length) {
                out = scratch = Arrays.copyOf(out, out.length * 2);
            }
            Link l = tables.outLink(sw, to);
            if (l == null) {
                return null;
            }
            out[size++] = portId(l, sw);
            sw = l.other(sw);
        }
        out[size++] = portId(routing.accessLink(to), last);
        return Arrays.copyOf(out, size);
    }

    /**
     * The ECMP path (each switch's hash choice) into {@link #scratch} for a flow whose NIC ends are
     * known by number (as {@link #ends} gives them): its length, or -1 if unreachable. No map is
     * read and no array made: the flow engine takes a path for every one of a training step's 1.5
     * million transfers; {@link #path} copies it. Only without InfiniBand tables ({@link #tables} null).
     */
    int pathInto(long fromEnds, long toEnds, int fromAddr, int toAddr, int udp) {
        int[] out = scratch;
        int size = 0;
        out[size++] = (int) (fromEnds >>> 32);
        int a = (int) fromEnds;
        int b = (int) toEnds;
        int guard = 0;
        while (a != b) {
            Hops hops = hops(a, b, routing.switches().get(a), routing.switches().get(b));
            if (hops.ports.length == 0 || ++guard > 64) {
                return -1;
            }
            if (size + 2 > out.length) {
                out = scratch = Arrays.copyOf(out, out.length * 2);
            }
            int k = ecmp.selectRoce(a, fromAddr, toAddr, udp, hops.ports.length);
            out[size++] = hops.ports[k];
            a = hops.nextIndex[k];
            if (a < 0) {
                return -1;
            }
        }
        out[size++] = (int) (toEnds >>> 32);
        return size;
    }

    /** The path {@link #pathInto} wrote last (its first {@code length} entries). */
    int[] scratch() {
        return scratch;
    }

    /**
     * A NIC port's ends under the current routing, for {@link #pathInto}: its access link's egress
     * port id from the NIC side (high 32 bits) and its switch's index (low 32 bits), or -1 if it
     * has no way in. {@code into}: the access link's egress port from the switch side instead (the
     * last hop toward it).
     */
    long ends(Port nic, boolean into) {
        Link access = routing.accessLink(nic);
        Device sw = routing.edgeSwitch(nic);
        if (access == null || sw == null) {
            return -1;
        }
        int port = into ? portId(access, sw) : portId(access, nic.device());
        return ((long) port << 32) | routing.indexOf(sw);
    }

    /** The next hops from switch {@code at} (index a) toward {@code last} (index b), cached until the routing changes. */
    private Hops hops(int a, int b, Device at, Device last) {
        if (a < 0 || b < 0) {
            return NO_HOPS; // a switch that is down: no way through it
        }
        if (hopTable == null) {
            hopTable = new Hops[routing.switches().size()][];
        }
        Hops[] row = hopTable[a];
        if (row == null) {
            row = hopTable[a] = new Hops[hopTable.length];
        }
        Hops h = row[b];
        if (h == null) {
            List<Link> links = routing.nextHops(at, last);
            int[] ports = new int[links.size()];
            Device[] next = new Device[links.size()];
            int[] nextIndex = new int[links.size()];
            for (int k = 0; k < ports.length; k++) {
                ports[k] = portId(links.get(k), at);
                next[k] = links.get(k).other(at);
                nextIndex[k] = routing.indexOf(next[k]);
            }
            h = row[b] = new Hops(ports, next, nextIndex);
        }
        return h;
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
        int b = routing.indexOf(last);
        while (sw != last) {
            Hops hops = hops(routing.indexOf(sw), b, sw, last);
            if (hops.ports.length != 1 || ++guard > 64) {
                return false;
            }
            sw = hops.next[0];
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
        hopTable = null;
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
