package io.fabriclab.sim;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import io.fabriclab.model.Device;
import io.fabriclab.model.Link;
import io.fabriclab.routing.Routing;

/**
 * Per-packet next-hop choice of the routing modes other than ECMP ({@link RoutingMode}): packet
 * spraying, flowlet switching and adaptive routing, over the equal-cost next hops of the current
 * {@link Routing}. A member whose link is down is skipped at once (the switch sees its own port
 * go down); the rest of the fabric learns of a failure when routing reconverges.
 */
final class NextHopSelector {
    private final RoutingPolicy policy;
    private final EgressPort[] ports;
    private final Map<Link, Integer> linkIndex;
    private final SplittableRandom random;
    private Routing routing;
    /** InfiniBand under a subnet manager's engine: the next hops it allows; null otherwise. */
    private io.fabriclab.routing.LinearForwardingTables tables;
    /** Egress port ids toward a destination switch, by (switch index << 32 | destination index). */
    private final Map<Long, int[]> groups = new HashMap<>();
    /**
     * The same groups by (switch index x switches + destination switch index), so a packet's
     * decision reads an array instead of hashing two devices and a boxed key; null when the
     * fabric has more than {@link #MAX_CACHED_SWITCHES} switches (the table would grow as n^2).
     */
    private final int[][] byIndex;
    private final int switchCount;
    static final int MAX_CACHED_SWITCHES = 2048;
    /** Flowlet state per flow and hop: the next hop chosen and when the flow last used it. */
    private int[][] flowletPort;
    private long[][] flowletLastPs;

    NextHopSelector(RoutingPolicy policy, EgressPort[] ports, Map<Link, Integer> linkIndex, Routing routing,
                    int flows, long seed, int switchCount) {
        this.switchCount = switchCount;
        this.byIndex = switchCount <= MAX_CACHED_SWITCHES ? new int[switchCount * switchCount][] : null;
        this.policy = policy;
        this.ports = ports;
        this.linkIndex = linkIndex;
        this.routing = routing;
        // A stream of its own, so the ECN marking draws of a run are those of an ECMP run.
        this.random = new SplittableRandom(seed ^ 0x5DEECE66DL);
        if (policy.mode() == RoutingMode.FLOWLET) {
            flowletPort = new int[flows][];
            flowletLastPs = new long[flows][];
        }
    }

    /** The next hops come from the subnet manager's tables ({@code t}) instead of the routing's shortest paths. */
    void tablesChanged(io.fabriclab.routing.LinearForwardingTables t) {
        this.tables = t;
        groups.clear();
        if (byIndex != null) {
            java.util.Arrays.fill(byIndex, null);
        }
    }

    void routingChanged(Routing r) {
        this.routing = r;
        groups.clear();
        if (byIndex != null) {
            java.util.Arrays.fill(byIndex, null);
        }
    }

    /**
     * The egress port a data packet of {@code flow} takes at the switch that owns ingress
     * {@code in}, {@code hop} hops after its source NIC, toward the switch {@code dstEdge} that
     * serves its destination ({@code lastHop} is that switch's port to the NIC).
     */
    int next(EgressPort in, Flow flow, int hop, long now) {
        SwitchState here = in.sw;
        // The destination's edge switch owns the flow's last-hop port.
        SwitchState last = ports[flow.lastHopPort].sw;
        if (here == last) {
            return flow.lastHopPort;
        }
        int[] group;
        if (byIndex != null) {
            int k = here.index * switchCount + last.index;
            group = byIndex[k];
            if (group == null) {
                group = group(here.device, last.device);
                byIndex[k] = group;
            }
        } else {
            group = group(here.device, last.device);
        }
        if (group.length == 0) {
            // Unreachable under the current routing: the flow's ECMP path decides (and drops if dead).
            return -1;
        }
        if (group.length == 1) {
            return group[0];
        }
        return switch (policy.mode()) {
            case SPRAY -> pickRandom(group);
            case ADAPTIVE -> leastQueued(group, flow.priority);
            case FLOWLET -> flowlet(group, flow, hop, now);
            case ECMP -> throw new IllegalStateException("ECMP packets follow their flow's path");
        };
    }

    private int[] group(Device sw, Device dst) {
        long key = ((long) routing.indexOf(sw) << 32) | routing.indexOf(dst);
        int[] g = groups.get(key);
        if (g == null) {
            List<Link> hops = tables != null ? tables.allowedNextHops(sw, dst) : routing.nextHops(sw, dst);
            g = new int[hops.size()];
            for (int i = 0; i < g.length; i++) {
                Link l = hops.get(i);
                int li = linkIndex.get(l);
                g[i] = l.a().device() == sw ? 2 * li : 2 * li + 1;
            }
            groups.put(key, g);
        }
        return g;
    }

    private int pickRandom(int[] group) {
        int live = 0;
        for (int p : group) {
            if (!ports[p].down) {
                live++;
            }
        }
        if (live == 0) {
            return group[random.nextInt(group.length)];
        }
        int k = random.nextInt(live);
        for (int p : group) {
            if (!ports[p].down && k-- == 0) {
                return p;
            }
        }
        throw new IllegalStateException();
    }

    /** The member whose egress queues hold the fewest bytes (data classes); ties at random. */
    private int leastQueued(int[] group, int priority) {
        int best = -1;
        long bestBytes = Long.MAX_VALUE;
        int ties = 0;
        for (int p : group) {
            EgressPort e = ports[p];
            if (e.down) {
                continue;
            }
            long q = 0;
            for (int c = 0; c < EgressPort.CLASSES; c++) {
                q += e.cls(c, EgressPort.QUEUE_BYTES);
            }
            if (q < bestBytes) {
                bestBytes = q;
                best = p;
                ties = 1;
            } else if (q == bestBytes && random.nextInt(++ties) == 0) {
                best = p;
            }
        }
        return best >= 0 ? best : group[0];
    }

    private int flowlet(int[] group, Flow flow, int hop, long now) {
        int id = flow.id;
        if (flowletPort[id] == null || hop >= flowletPort[id].length) {
            int old = flowletPort[id] == null ? 0 : flowletPort[id].length;
            int n = Math.max(8, hop + 1);
            flowletPort[id] = old == 0 ? new int[n] : java.util.Arrays.copyOf(flowletPort[id], n);
            flowletLastPs[id] = old == 0 ? new long[n] : java.util.Arrays.copyOf(flowletLastPs[id], n);
            // No packet yet at these hops: the first one starts a flowlet.
            java.util.Arrays.fill(flowletLastPs[id], old, n, Long.MIN_VALUE / 2);
        }
        int chosen = flowletPort[id][hop];
        boolean member = false;
        for (int p : group) {
            if (p == chosen) {
                member = true;
                break;
            }
        }
        if (!member || ports[chosen].down || now - flowletLastPs[id][hop] > policy.flowletGapPs()) {
            chosen = pickRandom(group);
            flowletPort[id][hop] = chosen;
        }
        flowletLastPs[id][hop] = now;
        return chosen;
    }
}
