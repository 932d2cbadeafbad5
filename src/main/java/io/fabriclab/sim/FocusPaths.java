package io.fabriclab.sim;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.routing.Routing;
import io.fabriclab.workload.FlowSpec;

/**
 * The link directions a focus run's flows use (docs/model.md, Focus run), each with the flow's
 * share of it and when its first frame gets there, timed as the flow engine times a packet that
 * did not wait: on each wire a full frame's serialization at the link's rate and the propagation,
 * at each switch its port-to-port latency, less, on a cut-through switch, the smaller of the
 * ingress and egress serializations.
 */
final class FocusPaths {
    private final Fabric fabric;
    private final FocusRun.Timing timing;
    private final int frameBytes;
    /** Caches: a results file's port names resolve once; a link's and a switch's figures once. */
    private final Map<String, Port> ports = new HashMap<>();
    private final Map<Port, Link> links = new java.util.IdentityHashMap<>();
    private final Map<Link, long[]> wire = new java.util.IdentityHashMap<>();
    private final Map<Device, long[]> switches = new java.util.IdentityHashMap<>();

    FocusPaths(Fabric fabric, FocusRun.Timing timing) {
        this.fabric = fabric;
        this.timing = timing;
        NicTransport.Framing framing = NicTransport.Framing.of(timing.transport(), fabric.mtuBytes());
        this.frameBytes = framing.maxPayload() + framing.dataHeaderBytes() + framing.wireOverheadBytes();
    }

    /** The port a results file names "device:port" when it has a link, else null. */
    Port port(String ref) {
        Port p = ports.get(ref);
        if (p == null && !ports.containsKey(ref)) {
            p = fabric.port(ref);
            p = p != null && link(p) != null ? p : null;
            ports.put(ref, p);
        }
        return p;
    }

    Link link(Port p) {
        return links.computeIfAbsent(p, fabric::linkAt);
    }

    /**
     * Whether ECMP flow {@code r}'s flow-run path uses a link of {@code anyLink} or a
     * direction of {@code anyDirection} (either may be null).
     */
    boolean crosses(SimResults.FlowResult r, Set<Link> anyLink, Set<Port> anyDirection) {
        for (String ref : r.path()) {
            Port p = port(ref);
            if (p != null && (anyLink != null && anyLink.contains(link(p))
                    || anyDirection != null && anyDirection.contains(p))) {
                return true;
            }
        }
        return false;
    }

    /** A full frame's serialization on {@code l}. */
    private long serPs(Link l) {
        return wire.computeIfAbsent(l, k -> new long[] {
                io.fabriclab.model.Units.serializationPs(frameBytes, k.rateBps()), k.propagationPs()})[0];
    }

    /** Serialization of a full frame into {@code from}'s link and its propagation. */
    long wirePs(Port from) {
        Link l = link(from);
        serPs(l);
        long[] w = wire.get(l);
        return w[0] + w[1];
    }

    /** From a frame's last bit at switch port {@code in} (null: unknown) to its first on {@code out}. */
    long switchPs(Port in, Port out) {
        Device sw = out.device();
        if (!sw.role().isSwitch()) {
            return 0;
        }
        long[] k = switches.computeIfAbsent(sw, d -> new long[] {
                timing.switchLatencyPs() >= 0 ? timing.switchLatencyPs()
                        : io.fabriclab.model.SwitchLatency.portToPortPs(d, timing.transport()),
                timing.switchLatencyPs() != 0 && io.fabriclab.model.SwitchLatency.classOf(d, timing.transport())
                        .forwarding() == io.fabriclab.model.SwitchLatency.Forwarding.CUT_THROUGH ? 1 : 0});
        long latency = k[0];
        if (k[1] == 1 && in != null) {
            latency = Math.max(0, latency - Math.min(serPs(link(in)), serPs(link(out))));
        }
        return latency;
    }

    /** From the first frame's start on {@code before}'s wire to its start on {@code next}'s, one switch between. */
    long hopPs(Port before, Port next) {
        return wirePs(before) + switchPs(link(before).opposite(before), next);
    }

    /** An ECMP flow's directions: the egress ports of its flow-run path, each whole, with their first-frame times. */
    Map<Port, double[]> ecmpUse(SimResults.FlowResult r) {
        Map<Port, double[]> u = new LinkedHashMap<>();
        long at = 0;
        Port before = null;
        for (String ref : r.path()) {
            Port p = port(ref);
            if (p == null) {
                continue;
            }
            if (before != null) {
                at += hopPs(before, p);
            }
            u.put(p, new double[] {1.0, at});
            before = p;
        }
        return u;
    }

    /**
     * A sprayed flow's directions as the flow engine splits it: the source's access link whole, at
     * every switch an even split over the next hops toward the destination's switch, the last hop
     * whole (the split cached by the pair of edge switches); each with its first frame's time.
     */
    Map<Port, double[]> sprayUse(Routing routing, FlowSpec s, Map<Long, Map<Port, double[]>> cache) {
        Port src = Simulator.resolveNic(fabric, routing, s.src(), "src", 0);
        Port dst = Simulator.resolveNic(fabric, routing, s.dst(), "dst", 0);
        Device first = routing.edgeSwitch(src);
        Device last = routing.edgeSwitch(dst);
        Port firstIn = routing.accessLink(src).opposite(src);
        long key = ((long) routing.indexOf(first) << 32) | (routing.indexOf(last) & 0xffffffffL);
        Map<Port, double[]> middle = cache.get(key);
        if (middle == null) {
            // Relative to the first switch's ingress; the source's access hop is added below.
            middle = new LinkedHashMap<>();
            Map<Device, double[]> level = new LinkedHashMap<>(); // share, ps at the switch, its ingress as a port id
            Map<Device, Port> ingress = new java.util.IdentityHashMap<>();
            level.put(first, new double[] {1.0, 0});
            ingress.put(first, firstIn);
            int guard = 0;
            while (!(level.size() == 1 && level.containsKey(last)) && ++guard <= 64) {
                Map<Device, double[]> next = new LinkedHashMap<>();
                for (var e : level.entrySet()) {
                    Device sw = e.getKey();
                    if (sw == last) {
                        next.merge(sw, e.getValue().clone(), (x, y) -> new double[] {x[0] + y[0], Math.max(x[1], y[1])});
                        continue;
                    }
                    List<Link> hopsTo = routing.nextHops(sw, last);
                    for (Link l : hopsTo) {
                        double w = e.getValue()[0] / hopsTo.size();
                        Port out = l.portOn(sw);
                        double at = e.getValue()[1] + switchPs(ingress.get(sw), out);
                        middle.merge(out, new double[] {w, at}, (x, y) -> new double[] {x[0] + y[0], Math.max(x[1], y[1])});
                        Device peer = l.other(sw);
                        double atPeer = at + wirePs(out);
                        next.merge(peer, new double[] {w, atPeer}, (x, y) -> new double[] {x[0] + y[0], Math.max(x[1], y[1])});
                        ingress.putIfAbsent(peer, l.opposite(out));
                    }
                }
                level = next;
            }
            cache.put(key, middle);
        }
        Map<Port, double[]> u = new LinkedHashMap<>();
        u.put(src, new double[] {1.0, 0});
        double access = wirePs(src);
        for (var e : middle.entrySet()) {
            u.put(e.getKey(), new double[] {e.getValue()[0], access + e.getValue()[1]});
        }
        Port lastOut = routing.accessLink(dst).opposite(dst);
        double[] lastAt = u.get(lastOut);
        if (lastAt == null) {
            // The destination's own switch: reached when the fluid reached it, plus its latency.
            double at = access;
            for (var e : middle.entrySet()) {
                if (e.getKey().device() != last) {
                    at = Math.max(at, access + e.getValue()[1] + wirePs(e.getKey()));
                }
            }
            u.put(lastOut, new double[] {1.0, at + switchPs(null, lastOut)});
        } else {
            lastAt[0] = 1.0;
        }
        return u;
    }
}
