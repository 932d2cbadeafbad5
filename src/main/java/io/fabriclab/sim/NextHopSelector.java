package io.fabriclab.sim;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import io.fabriclab.model.Device;
import io.fabriclab.model.Link;
import io.fabriclab.routing.EcmpHash;
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
    /** Egress port ids toward a destination switch, by (routing index x switches + destination routing index). */
    private final Map<Long, int[]> groups = new HashMap<>();
    /**
     * The same groups by (switch index x switches + destination switch index), as the id of the
     * distinct group in {@link #groupById} (0: not looked up yet), so a packet's decision reads a
     * compact table (2 bytes an entry, not a reference) instead of hashing two devices and a boxed
     * key; null when the fabric has more than {@link #MAX_CACHED_SWITCHES} switches (the table
     * would grow as n^2).
     */
    private final char[] byIndex;
    /** The distinct groups, by id from 1 (a switch's uplinks serve every far destination: few distinct groups). */
    private int[][] groupById = new int[64][];
    private int groupCount;
    /** Group ids by content. */
    private final Map<String, Integer> groupIds = new HashMap<>();
    private final int switchCount;
    static final int MAX_CACHED_SWITCHES = 2048;
    /**
     * Per flow: the destination edge switch's port to the NIC (the flow's last hop), and that
     * switch's index; read by flow id, so a packet's decision does not load its flow's object.
     */
    private final int[] lastHopPort;
    private final int[] lastSwitch;
    /** Per switch by routing index: neighbours and the egress ports toward them (built on first use per routing state). */
    private int[][] neighbour;
    private int[][] neighbourPort;
    /** The run's simulator: while no link is down ({@code downLinkCount == 0}) no member needs checking. */
    private final SimContext.Ports sim;
    /** The run's ECMP hash and each flow's NIC addresses, for the entropy choice ({@link #nextByEntropy}). */
    private final EcmpHash hash;
    private final int[] srcAddr;
    private final int[] dstAddr;
    /** Flowlet state per flow and hop: the next hop chosen and when the flow last used it. */
    private int[][] flowletPort;
    private long[][] flowletLastPs;

    NextHopSelector(SimContext.Ports sim, RoutingPolicy policy, EgressPort[] ports, Map<Link, Integer> linkIndex, Routing routing,
                    Flow[] flowList, long seed, int switchCount, EcmpHash hash) {
        int flows = flowList.length;
        this.hash = hash;
        this.srcAddr = new int[flows];
        this.dstAddr = new int[flows];
        for (Flow f : flowList) {
            srcAddr[f.id] = f.srcPort.nic.address;
            dstAddr[f.id] = f.dstPort.nic.address;
        }
        this.sim = sim;
        this.lastHopPort = new int[flows];
        this.lastSwitch = new int[flows];
        for (Flow f : flowList) {
            lastHopPort[f.id] = f.lastHopPort;
            lastSwitch[f.id] = ports[f.lastHopPort].sw.index;
        }
        this.switchCount = switchCount;
        this.byIndex = switchCount <= MAX_CACHED_SWITCHES ? new char[switchCount * switchCount] : null;
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
        groupIds.clear();
        groupCount = 0;
        java.util.Arrays.fill(groupById, null);
        if (byIndex != null) {
            java.util.Arrays.fill(byIndex, (char) 0);
        }
    }

    void routingChanged(Routing r) {
        this.routing = r;
        groups.clear();
        neighbour = null;
        neighbourPort = null;
        groupIds.clear();
        groupCount = 0;
        java.util.Arrays.fill(groupById, null);
        if (byIndex != null) {
            java.util.Arrays.fill(byIndex, (char) 0);
        }
    }

    /**
     * The egress port a data packet of flow {@code flow} takes at the switch that owns ingress
     * {@code in}, {@code hop} hops after its source NIC, toward the edge switch that serves its
     * destination (which owns the flow's last-hop port, its port to the NIC).
     */
    int next(EgressPort in, int flow, int hop, long now) {
        // The switch's index from the port itself: the switch's object is not loaded per packet.
        int here = in.switchIndex;
        int last = lastSwitch[flow];
        if (here == last) {
            return lastHopPort[flow];
        }
        int[] group = groupAt(in, flow, here, last);
        if (group.length == 0) {
            // Unreachable under the current routing: the flow's ECMP path decides (and drops if dead).
            return -1;
        }
        if (group.length == 1) {
            return group[0];
        }
        return switch (policy.mode()) {
            case SPRAY -> pickRandom(group);
            case ADAPTIVE -> leastQueued(group);
            case FLOWLET -> flowlet(group, flow, hop, now);
            case ECMP -> throw new IllegalStateException("ECMP packets follow their flow's path");
        };
    }

    /**
     * Ultra Ethernet spraying: the egress a data packet of {@code flow} carrying entropy value
     * {@code ev} takes at the switch that owns {@code in}: the switch's seeded hash of the
     * packet's 5-tuple with the EV in the UDP source port, over its live equal-cost members, so
     * one EV keeps one path while the routing and the links stay as they are (as csg-htsim's
     * switches hash flow and path id). The hash of the EV is a keyed bijection of the EV space
     * ({@link #permute}) reduced modulo the members: over a sender's whole cycle of EVs every
     * member of a power-of-two group gets exactly its share, and within a cycle the EVs are drawn
     * without replacement; switches hash independently (with per-switch seeds: with one seed for
     * all, the tiers' choices correlate and polarize as ECMP does).
     */
    int nextByEntropy(EgressPort in, int flow, int ev) {
        int here = in.switchIndex;
        int last = lastSwitch[flow];
        if (here == last) {
            return lastHopPort[flow];
        }
        int[] group = groupAt(in, flow, here, last);
        if (group.length == 0) {
            return -1;
        }
        if (group.length == 1) {
            return group[0];
        }
        if (!sim.anyLinkDown()) {
            return group[entropyMember(here, flow, ev, group.length)];
        }
        int live = 0;
        for (int p : group) {
            if (!ports[p].down) {
                live++;
            }
        }
        if (live == 0) {
            return group[0];
        }
        int k = entropyMember(here, flow, ev, live);
        for (int p : group) {
            if (!ports[p].down && k-- == 0) {
                return p;
            }
        }
        throw new IllegalStateException();
    }

    /** Member 0..n-1 of entropy value {@code ev} of {@code flow} at switch {@code here} (see {@link #nextByEntropy}). */
    private int entropyMember(int here, int flow, int ev, int n) {
        long key = hash.hash(here, srcAddr[flow], dstAddr[flow], 0, 0, EcmpHash.PROTO_UDP);
        return permute(ev, entropyBits, key) % n;
    }

    /** log2 of the senders' path entropies (the EV space the switches' hash permutes). */
    private int entropyBits = 8;

    /** Ultra Ethernet: the senders cycle through {@code entropies} EVs (a power of two). */
    void setPathEntropies(int entropies) {
        entropyBits = Integer.numberOfTrailingZeros(entropies);
    }

    /**
     * A bijection of the {@code bits}-bit values keyed by {@code key}: xor-shifts and odd
     * multiplications modulo 2^bits, each invertible. It stands for a switch's seeded hash of the
     * EV: one EV always takes one member, every member gets its share of the EV space (so of each
     * cycle of a sender), and switches with different keys choose independently of one another.
     */
    static int permute(int ev, int bits, long key) {
        if (bits == 0) {
            return 0;
        }
        int mask = (1 << bits) - 1;
        int half = Math.max(1, (bits + 1) / 2);
        int x = (ev ^ (int) key) & mask;
        for (int round = 0; round < 3; round++) {
            int odd = (int) (key >>> (16 + 16 * round % 48)) | 1;
            x = (x * odd) & mask;
            x ^= x >>> half;
        }
        return x;
    }

    /** The equal-cost egress ports toward the flow's destination edge switch {@code last} at switch {@code here}. */
    private int[] groupAt(EgressPort in, int flow, int here, int last) {
        int[] group;
        if (byIndex != null) {
            int k = here * switchCount + last;
            int id = byIndex[k];
            if (id != 0) {
                group = groupById[id];
            } else {
                int gid = idOf(group(in.sw.device, ports[lastHopPort[flow]].sw.device));
                group = groupById[gid];
                if (gid <= Character.MAX_VALUE) {
                    byIndex[k] = (char) gid;
                }
            }
        } else {
            group = group(in.sw.device, ports[lastHopPort[flow]].sw.device);
        }
        return group;
    }

    private int[] group(Device sw, Device dst) {
        int a = routing.indexOf(sw);
        int t = routing.indexOf(dst);
        if (a < 0 || t < 0) {
            return new int[0];
        }
        // a x n + t: distinct keys hash apart (a << 32 | t would fold to a ^ t, a few hundred values).
        long key = (long) a * routing.switches().size() + t;
        int[] g = groups.get(key);
        if (g == null) {
            if (tables != null) {
                List<Link> hops = tables.allowedNextHops(sw, dst);
                g = new int[hops.size()];
                for (int i = 0; i < g.length; i++) {
                    Link l = hops.get(i);
                    int li = linkIndex.get(l);
                    g[i] = l.a().device() == sw ? 2 * li : 2 * li + 1;
                }
            } else {
                g = nextHopPorts(a, t);
            }
            groups.put(key, g);
        }
        return g;
    }

    /**
     * The egress ports of {@link Routing#nextHops}(switch a, switch t), by routing index, in the
     * same order: every up link of a to a neighbour one hop closer to t. Reads the neighbour
     * tables built once per routing state instead of hashing every link of a.
     */
    private int[] nextHopPorts(int a, int t) {
        if (neighbour == null) {
            buildNeighbours();
        }
        int[] d = routing.distancesTo(t);
        if (d[a] == Routing.UNREACHABLE || d[a] == 0) {
            return new int[0];
        }
        int[] nb = neighbour[a];
        int[] out = neighbourPort[a];
        int n = 0;
        for (int v : nb) {
            if (d[v] == d[a] - 1) {
                n++;
            }
        }
        int[] g = new int[n];
        int k = 0;
        for (int i = 0; i < nb.length; i++) {
            if (d[nb[i]] == d[a] - 1) {
                g[k++] = out[i];
            }
        }
        return g;
    }

    /**
     * The id of group {@code g} among the distinct groups (by content), from 1: one array per
     * distinct group, so the few hundred a run reads stay in cache, where tens of thousands of
     * copies (one per switch and destination) would not.
     */
    private int idOf(int[] g) {
        Integer id = groupIds.get(java.util.Arrays.toString(g));
        if (id == null) {
            id = ++groupCount;
            if (id == groupById.length) {
                groupById = java.util.Arrays.copyOf(groupById, id * 2);
            }
            groupById[id] = g;
            groupIds.put(java.util.Arrays.toString(g), id);
        }
        return id;
    }

    /** Per switch (routing index): its up switch links' far ends (routing index) and its egress port ids on them. */
    private void buildNeighbours() {
        List<Device> sws = routing.switches();
        neighbour = new int[sws.size()][];
        neighbourPort = new int[sws.size()][];
        for (int i = 0; i < sws.size(); i++) {
            Device sw = sws.get(i);
            Link[] links = routing.switchLinks(sw);
            neighbour[i] = new int[links.length];
            neighbourPort[i] = new int[links.length];
            for (int j = 0; j < links.length; j++) {
                Link l = links[j];
                neighbour[i][j] = routing.indexOf(l.other(sw));
                int li = linkIndex.get(l);
                neighbourPort[i][j] = l.a().device() == sw ? 2 * li : 2 * li + 1;
            }
        }
    }

    private int pickRandom(int[] group) {
        if (!sim.anyLinkDown()) {
            // Every member is up: the k-th live member is group[k] (the same draw as below).
            return group[random.nextInt(group.length)];
        }
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
    private int leastQueued(int[] group) {
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

    private int flowlet(int[] group, int id, int hop, long now) {
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
