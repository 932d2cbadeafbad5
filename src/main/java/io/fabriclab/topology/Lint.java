package io.fabriclab.topology;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import io.fabriclab.model.BufferConfig;
import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.EcnConfig;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.PfcConfig;
import io.fabriclab.model.Port;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.WredEcn;
import io.fabriclab.topology.Finding.Severity;

/**
 * Design-review checks over a fabric: the field's common mistakes (PFC spread over too many
 * priorities, ECN thresholds that cannot work, too little PFC headroom, oversubscribed GPU-facing
 * leaves, rail cabling errors) and plain drawing errors (duplicates, unconnected ports, unknown
 * profiles). Read-only; findings come worst first, then by code and subject.
 */
public final class Lint {
    /** More lossless priorities than this is the "PFC everywhere" mistake (DOMAIN.md: one or two). */
    public static final int MAX_LOSSLESS_PRIORITIES = 2;

    private Lint() {
    }

    public static List<Finding> check(Fabric fabric) {
        List<Finding> out = new ArrayList<>();
        qosProfiles(fabric, out);
        losslessClass(fabric, out);
        unknownProfiles(fabric, out);
        headroom(fabric, out);
        buffers(fabric, out);
        oversubscription(fabric, out);
        rails(fabric, out);
        servers(fabric, out);
        reachability(fabric, out);
        names(fabric, out);
        linkSpeeds(fabric, out);
        isolated(fabric, out);
        out.sort(Comparator.comparing(Finding::severity).thenComparing(Finding::code).thenComparing(Finding::subject));
        return out;
    }

    private static void add(List<Finding> out, Severity s, String code, String subject, String message, String fix) {
        out.add(new Finding(s, code, subject, message, fix));
    }

    /** Items joined by ", " (not Java's "[a, b]"). */
    private static String list(java.util.Collection<?> items) {
        return String.join(", ", items.stream().map(String::valueOf).toList());
    }

    /** "rail 0: 2, rail 1: 3" (not Java's "{0=2, 1=3}"); a set value as "100G/400G". */
    private static String perRail(Map<Integer, ?> byRail, String unit) {
        List<String> parts = new ArrayList<>();
        byRail.forEach((rail, v) -> parts.add("rail " + rail + ": " + (v instanceof java.util.Collection<?> c
                ? String.join("/", c.stream().map(x -> x + unit).toList()) : v + unit)));
        return String.join(", ", parts);
    }

    private static String kb(long bytes) {
        return String.format(Locale.ROOT, "%,d B", bytes);
    }

    // ----- QoS profiles ------------------------------------------------------------------------

    /**
     * A RoCEv2 GPU fabric (switches and GPU servers; RoCEv2 is FabricLab's default transport)
     * where no switch port has a PFC lossless priority nor ECN marking: RDMA traffic then runs
     * lossy with no congestion signal (go-back-N on every drop; DOMAIN.md). A containerlab import
     * arrives like this, since the lab file holds no QoS (issue 35 item 13).
     */
    private static void losslessClass(Fabric fabric, List<Finding> out) {
        if (fabric.switches().isEmpty() || fabric.gpuCount() == 0) {
            return;
        }
        for (io.fabriclab.model.Device d : fabric.switches()) {
            for (io.fabriclab.model.Port p : d.ports()) {
                QosProfile q = fabric.qosFor(p);
                if (q == null) {
                    continue;
                }
                boolean lossless = q.pfc() != null && q.pfc().enabled() && !q.pfc().priorities().isEmpty();
                boolean ecn = q.ecn() != null && q.ecn().enabled();
                if (lossless || ecn) {
                    return;
                }
            }
        }
        add(out, Severity.WARNING, "NO_LOSSLESS_CLASS", fabric.name(),
                "no switch port has a lossless class (PFC on a priority) or ECN marking: RoCEv2 traffic runs lossy, "
                        + "with no congestion signal, and recovers every drop by go-back-N retransmission",
                "give the switches a QoS profile with PFC and ECN on the RDMA priority " + QosProfile.RDMA_PRIORITY
                        + " (Fabric > QoS Profiles, the roce-lossless template), or run the fabric as InfiniBand or "
                        + "Ultra Ethernet, which need neither");
    }

    private static void qosProfiles(Fabric fabric, List<Finding> out) {
        for (QosProfile q : fabric.qosProfiles().values()) {
            PfcConfig pfc = q.pfc();
            EcnConfig ecn = q.ecn();
            if (pfc != null && pfc.enabled()) {
                if (pfc.priorities().size() > MAX_LOSSLESS_PRIORITIES) {
                    add(out, Severity.WARNING, "PFC_TOO_MANY_PRIORITIES", q.name(),
                            "PFC is on for " + pfc.priorities().size() + " priorities (" + list(pfc.priorities()) + ")"
                                    + "; every lossless priority adds head-of-line blocking and pause-storm risk",
                            "keep PFC on the RDMA priority (" + QosProfile.RDMA_PRIORITY + ") and at most one other");
                }
                for (int p : pfc.priorities()) {
                    boolean ecnMarked = ecn != null && ecn.forClass(p) != null;
                    if (!ecnMarked && p != QosProfile.RDMA_PRIORITY) {
                        add(out, Severity.WARNING, "PFC_WITHOUT_ECN", q.name(),
                                "PFC is on for priority " + p + ", which has no ECN marking and is not the RDMA priority",
                                "turn PFC off for priority " + p + " or give it an ECN curve if it carries RDMA");
                    }
                }
            }
            if (ecn != null && ecn.enabled()) {
                BufferConfig buffer = q.buffer();
                for (Map.Entry<Integer, WredEcn> en : ecn.classes().entrySet()) {
                    WredEcn w = en.getValue();
                    String subject = q.name();
                    if (w.kminBytes() >= w.kmaxBytes()) {
                        add(out, Severity.ERROR, "ECN_KMIN_NOT_BELOW_KMAX", subject,
                                "class " + en.getKey() + ": Kmin " + kb(w.kminBytes()) + " >= Kmax " + kb(w.kmaxBytes())
                                        + ", so marking jumps from 0 to 1 with no ramp",
                                "set Kmin below Kmax (e.g. Kmin = Kmax / 4)");
                    }
                    if (buffer != null && w.kmaxBytes() > buffer.maxQueueBytes()) {
                        add(out, Severity.WARNING, "ECN_KMAX_ABOVE_BUFFER", subject,
                                "class " + en.getKey() + ": Kmax " + kb(w.kmaxBytes()) + " is above the largest queue the buffer"
                                        + " allows (" + kb(buffer.maxQueueBytes()) + "), so full marking is never reached",
                                "lower Kmax below " + kb(buffer.maxQueueBytes()) + " or raise the buffer's queue limit");
                    }
                }
            }
        }
    }

    private static void unknownProfiles(Fabric fabric, List<Finding> out) {
        Set<String> known = fabric.qosProfiles().keySet();
        for (Device d : fabric.devices()) {
            if (d.qosProfile() != null && !known.contains(d.qosProfile())) {
                add(out, Severity.ERROR, "UNKNOWN_QOS_PROFILE", d.id(),
                        "device refers to QoS profile '" + d.qosProfile() + "', which the fabric does not define",
                        "define profile '" + d.qosProfile() + "' or pick one of " + list(known));
            }
            for (Port p : d.ports()) {
                if (p.qosProfile() != null && !known.contains(p.qosProfile())) {
                    add(out, Severity.ERROR, "UNKNOWN_QOS_PROFILE", p.ref(),
                            "port refers to QoS profile '" + p.qosProfile() + "', which the fabric does not define",
                            "define profile '" + p.qosProfile() + "' or pick one of " + list(known));
                }
            }
        }
    }

    private static void headroom(Fabric fabric, List<Finding> out) {
        Map<String, List<HeadroomCalculator.PortHeadroom>> byDevice = new LinkedHashMap<>();
        for (HeadroomCalculator.PortHeadroom h : HeadroomCalculator.shortfalls(fabric)) {
            String device = h.port().substring(0, h.port().lastIndexOf(':'));
            byDevice.computeIfAbsent(device, k -> new ArrayList<>()).add(h);
        }
        byDevice.forEach((device, ports) -> {
            HeadroomCalculator.PortHeadroom worst = ports.stream()
                    .max(Comparator.comparingLong(HeadroomCalculator.PortHeadroom::missingBytes)).orElseThrow();
            HeadroomCalculator.Requirement r = worst.required();
            add(out, Severity.ERROR, "HEADROOM_SHORT", device,
                    ports.size() + " lossless port(s) have less PFC headroom than can arrive after XOFF; worst "
                            + worst.port() + " needs " + kb(r.totalBytes()) + " (" + r.speedGbps() + "G, "
                            + r.cableLengthM() + " m), profile '" + worst.qosProfile() + "' reserves "
                            + kb(worst.configuredBytes()),
                    "raise headroom in profile '" + worst.qosProfile() + "' to at least " + kb(r.totalBytes())
                            + " or use shorter cables");
        });
    }

    /**
     * Per switch, the lossless ingress priority groups (linked port x lossless priority of its profile)
     * against the switch's buffer (the profile of its first linked port, as the simulator takes it):
     * <ul>
     *   <li>POOL_XOFF_OVERCOMMITTED, static thresholds: a group whose XOFF is at or above the shared pool
     *       never reaches XOFF before the pool is full (ERROR); the groups' XOFFs together above the pool
     *       let lossless traffic fill it before any PAUSE when enough of them congest at once, and lossy
     *       traffic, ACKs and CNPs included, is then refused (WARNING). With dynamic thresholds a group
     *       pauses at min(XOFF, alpha x free pool); with all n groups congested that is at most
     *       alpha x pool / (1 + n alpha) each, n of them always leave pool / (1 + n alpha) free, so the
     *       rule does not fire.</li>
     *   <li>HEADROOM_POOL_EXCEEDED: the headroom the groups reserve outside the pool, summed, above the
     *       pool itself (ERROR): the reservation alone is larger than the switch's shared buffer.</li>
     * </ul>
     */
    private static void buffers(Fabric fabric, List<Finding> out) {
        for (Device sw : fabric.switches()) {
            BufferConfig buffer = null;
            int groups = 0;
            long xoffSum = 0;
            long headroomSum = 0;
            long maxXoff = 0;
            for (Port p : sw.ports()) {
                if (fabric.linkAt(p) == null) {
                    continue;
                }
                QosProfile q = fabric.qosFor(p);
                if (q == null) {
                    continue;
                }
                if (buffer == null) {
                    buffer = q.buffer();
                }
                PfcConfig pfc = q.pfc();
                if (pfc == null || !pfc.enabled()) {
                    continue;
                }
                int n = pfc.priorities().size();
                groups += n;
                xoffSum += n * pfc.xoffBytes();
                headroomSum += n * pfc.headroomBytes();
                maxXoff = Math.max(maxXoff, pfc.xoffBytes());
            }
            if (buffer == null || groups == 0) {
                continue;
            }
            long pool = buffer.poolBytes();
            if (buffer.mode() == BufferConfig.ThresholdMode.STATIC) {
                if (maxXoff >= pool) {
                    add(out, Severity.ERROR, "POOL_XOFF_OVERCOMMITTED", sw.id(),
                            "a lossless priority group's XOFF (" + kb(maxXoff) + ") is not below the shared pool ("
                                    + kb(pool) + "): the pool is full before the group pauses its sender",
                            "lower XOFF well below the pool, or use dynamic thresholds");
                } else if (xoffSum > pool) {
                    add(out, Severity.WARNING, "POOL_XOFF_OVERCOMMITTED", sw.id(),
                            groups + " lossless priority groups x XOFF = " + kb(xoffSum) + " exceed the " + kb(pool)
                                    + " shared pool: congested together they fill it before pausing, and lossy traffic"
                                    + " (ACKs, CNPs) is refused",
                            "lower XOFF to at most " + kb(pool / groups) + " or use dynamic thresholds");
                }
            }
            if (headroomSum > pool) {
                add(out, Severity.ERROR, "HEADROOM_POOL_EXCEEDED", sw.id(),
                        groups + " lossless priority groups reserve " + kb(headroomSum) + " of headroom, more than the "
                                + kb(pool) + " shared pool",
                        "use fewer lossless priorities or ports, less headroom per group (see the headroom table), or"
                                + " a larger buffer");
            }
        }
    }

    // ----- topology ----------------------------------------------------------------------------

    /** GPU-facing leaves: down (to servers) vs up (to higher tiers) capacity, from link speeds. */
    private static void oversubscription(Fabric fabric, List<Finding> out) {
        for (Device d : fabric.switches()) {
            if (d.role().tier() != 1) {
                continue;
            }
            long down = 0;
            long up = 0;
            for (Link l : fabric.linksOf(d)) {
                Device other = l.other(d);
                if (other.role() == DeviceRole.SERVER) {
                    down += l.speedGbps();
                } else if (other.role().tier() > d.role().tier()) {
                    up += l.speedGbps();
                }
            }
            long uplinks = fabric.linksOf(d).stream().filter(l -> l.other(d).role().tier() > d.role().tier()).count();
            if (down > 0 && uplinks == 1) {
                add(out, Severity.WARNING, "SINGLE_UPLINK_LEAF", d.id(),
                        "GPU-facing " + d.role() + " reaches the tier above over one link: losing it cuts its servers off,"
                                + " and leaves that share no spine with it route through other leaves (bounce paths)",
                        "add a second uplink to a different spine");
            }
            if (down > 0 && up > 0 && down > up) {
                add(out, Severity.WARNING, "OVERSUBSCRIBED", d.id(),
                        String.format(Locale.ROOT, "GPU-facing %s has %,d Gb/s down and %,d Gb/s up (%.2f:1)",
                                d.role(), down, up, (double) down / up),
                        "add " + String.format(Locale.ROOT, "%,d", down - up) + " Gb/s of uplinks or move servers off it");
            }
        }
    }

    private static void rails(Fabric fabric, List<Finding> out) {
        // Per unit: each rail leaf's servers and server-link speeds.
        Map<Integer, Map<Integer, Set<String>>> serversByUnitRail = new TreeMap<>();
        Map<Integer, Map<Integer, Set<Integer>>> speedsByUnitRail = new TreeMap<>();
        Map<Integer, Set<Integer>> speedsByRail = new TreeMap<>();
        for (Device sw : fabric.switches()) {
            if (sw.rail() == null) {
                continue;
            }
            for (Link l : fabric.linksOf(sw)) {
                Device srv = l.other(sw);
                if (srv.role() != DeviceRole.SERVER) {
                    continue;
                }
                speedsByRail.computeIfAbsent(sw.rail(), k -> new TreeSet<>()).add(l.speedGbps());
                if (sw.unit() != null) {
                    serversByUnitRail.computeIfAbsent(sw.unit(), k -> new TreeMap<>())
                            .computeIfAbsent(sw.rail(), k -> new TreeSet<>()).add(srv.id());
                    speedsByUnitRail.computeIfAbsent(sw.unit(), k -> new TreeMap<>())
                            .computeIfAbsent(sw.rail(), k -> new TreeSet<>()).add(l.speedGbps());
                }
            }
        }
        serversByUnitRail.forEach((unit, rails) -> {
            Map<Integer, Integer> counts = new TreeMap<>();
            rails.forEach((rail, servers) -> counts.put(rail, servers.size()));
            Set<Set<Integer>> speedSets = new java.util.HashSet<>(speedsByUnitRail.get(unit).values());
            if (new TreeSet<>(counts.values()).size() > 1 || speedSets.size() > 1) {
                add(out, Severity.WARNING, "RAIL_ASYMMETRY", "unit " + unit,
                        "rail leaves of unit " + unit + " differ: servers per rail " + perRail(counts, "")
                                + "; server-link speeds per rail " + perRail(speedsByUnitRail.get(unit), "G"),
                        "cable every server of the unit to every rail leaf at the same speed");
            }
        });
        speedsByRail.forEach((rail, speeds) -> {
            if (speeds.size() > 1) {
                add(out, Severity.WARNING, "MIXED_RAIL_SPEEDS", "rail " + rail,
                        "server links on rail " + rail + " run at different speeds (" + list(speeds) + " Gb/s)",
                        "run every NIC of rail " + rail + " at one speed");
            }
        });
        for (Device srv : fabric.servers()) {
            for (Port p : srv.ports()) {
                Link l = fabric.linkAt(p);
                if (l == null || p.nic() == null) {
                    continue;
                }
                Device sw = l.other(srv);
                if (sw.rail() != null && !sw.rail().equals(p.nic())) {
                    add(out, Severity.ERROR, "NIC_RAIL_MISMATCH", p.ref(),
                            "NIC " + p.nic() + " is cabled to " + sw.id() + ", the rail-" + sw.rail() + " leaf",
                            "move the cable to the rail-" + p.nic() + " leaf of the unit");
                }
            }
        }
    }

    private static void servers(Fabric fabric, List<Finding> out) {
        for (Device srv : fabric.servers()) {
            List<Link> links = fabric.linksOf(srv);
            for (Port p : srv.ports()) {
                if (fabric.isFree(p)) {
                    add(out, Severity.WARNING, "UNCONNECTED_SERVER_PORT", p.ref(),
                            "server NIC port is not connected; its GPU has no path into the fabric",
                            "connect " + p.ref() + " to its leaf or remove the port");
                }
            }
            Set<Device> switches = new java.util.HashSet<>();
            links.forEach(l -> switches.add(l.other(srv)));
            if (switches.size() == 1) {
                Device only = switches.iterator().next();
                add(out, links.size() > 1 ? Severity.WARNING : Severity.INFO, "SINGLE_HOMED_SERVER", srv.id(),
                        "all " + links.size() + " link(s) of the server go to " + only.id()
                                + ", which is a single point of failure for it",
                        "spread the server's NICs over two or more switches (rails or a second leaf)");
            }
        }
    }

    /**
     * NICs that cannot reach the rest: switches joined by up switch-to-switch links form islands; the
     * island with the most connected NIC ports is the fabric, every other island with NICs is cut off
     * from it (a leaf with no uplinks, a pod whose spines are not cabled to the cores). One ERROR per
     * cut-off island: no traffic between its NICs and the rest can be routed.
     */
    private static void reachability(Fabric fabric, List<Finding> out) {
        List<Device> switches = fabric.switches();
        Map<Device, Integer> index = new java.util.HashMap<>();
        for (Device d : switches) {
            index.put(d, index.size());
        }
        int[] parent = new int[switches.size()];
        for (int i = 0; i < parent.length; i++) {
            parent[i] = i;
        }
        int[] nics = new int[switches.size()];
        for (Link l : fabric.links()) {
            if (!l.isUp()) {
                continue;
            }
            Integer a = index.get(l.a().device());
            Integer b = index.get(l.b().device());
            if (a != null && b != null) {
                parent[root(parent, a)] = root(parent, b);
            } else if (a != null ^ b != null) {
                // An access link: the server's port is a NIC port attached to this switch.
                nics[a != null ? a : b]++;
            }
        }
        Map<Integer, List<Device>> islands = new LinkedHashMap<>();
        Map<Integer, Integer> nicsByIsland = new LinkedHashMap<>();
        for (Device d : switches) {
            int r = root(parent, index.get(d));
            islands.computeIfAbsent(r, k -> new ArrayList<>()).add(d);
            nicsByIsland.merge(r, nics[index.get(d)], Integer::sum);
        }
        nicsByIsland.values().removeIf(n -> n == 0);
        if (nicsByIsland.size() < 2) {
            return;
        }
        int main = nicsByIsland.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        int total = nicsByIsland.values().stream().mapToInt(Integer::intValue).sum();
        nicsByIsland.forEach((r, n) -> {
            if (r == main) {
                return;
            }
            List<Device> island = islands.get(r);
            String names = island.size() == 1 ? island.get(0).id()
                    : island.get(0).id() + " and " + (island.size() - 1) + " more switch(es)";
            add(out, Severity.ERROR, "NICS_CUT_OFF", island.get(0).id(),
                    String.format(Locale.ROOT, "%s with %,d NIC port(s) has no path to the other %,d NIC port(s):"
                            + " no up link joins %s to the rest of the fabric", names, n, total - n,
                            island.size() == 1 ? "it" : "them"),
                    "cable " + island.get(0).id() + " to the tier above (or to the switches the rest hangs off)");
        });
    }

    private static int root(int[] parent, int i) {
        while (parent[i] != i) {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    }

    private static void names(Fabric fabric, List<Finding> out) {
        Map<String, List<String>> ids = new TreeMap<>();
        for (Device d : fabric.devices()) {
            ids.computeIfAbsent(d.id().toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(d.id());
        }
        ids.values().stream().filter(v -> v.size() > 1).forEach(v -> add(out, Severity.WARNING, "DUPLICATE_DEVICE_NAME",
                v.get(0), "device ids " + list(v) + " differ only in letter case", "rename all but one of " + list(v)));
        for (Device d : fabric.devices()) {
            Map<String, List<String>> ports = new TreeMap<>();
            d.ports().forEach(p -> ports.computeIfAbsent(p.name().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                    .add(p.name()));
            ports.values().stream().filter(v -> v.size() > 1).forEach(v -> add(out, Severity.WARNING,
                    "DUPLICATE_PORT_NAME", d.id() + ":" + v.get(0),
                    "ports " + list(v) + " of " + d.id() + " differ only in letter case", "rename all but one of " + list(v)));
        }
    }

    private static void linkSpeeds(Fabric fabric, List<Finding> out) {
        for (Link l : fabric.links()) {
            int slowestPort = Math.min(l.a().speedGbps(), l.b().speedGbps());
            if (l.speedGbps() > slowestPort) {
                add(out, Severity.ERROR, "LINK_FASTER_THAN_PORT", l.id(),
                        "link is set to " + l.speedGbps() + "G but a port at its end only does " + slowestPort + "G",
                        "set the link to " + slowestPort + "G or use faster ports");
            } else if (l.speedGbps() < slowestPort) {
                add(out, Severity.WARNING, "LINK_SLOWER_THAN_PORTS", l.id(),
                        "link runs at " + l.speedGbps() + "G on ports that do " + slowestPort + "G",
                        "set the link to " + slowestPort + "G (or use " + l.speedGbps() + "G ports / breakouts)");
            }
        }
    }

    private static void isolated(Fabric fabric, List<Finding> out) {
        for (Device d : fabric.devices()) {
            if (fabric.linksOf(d).isEmpty()) {
                add(out, Severity.WARNING, "ISOLATED_DEVICE", d.id(), d.role() + " has no links",
                        "connect " + d.id() + " or delete it");
            }
        }
    }
}
