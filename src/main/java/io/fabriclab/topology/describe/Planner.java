package io.fabriclab.topology.describe;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.ScaleUp;
import io.fabriclab.model.Transport;
import io.fabriclab.topology.FatTreeParams;
import io.fabriclab.topology.LeafSpineParams;
import io.fabriclab.topology.RailParams;
import io.fabriclab.topology.RailPlan;
import io.fabriclab.model.SwitchLatency.SwitchModel;

/**
 * Turns what a description says into one generator's parameters: every value it does not give is
 * a default (listed with its source), every value that follows from others is checked against
 * them, and a contradiction is a {@link Problem} naming the words and the nearest fabric that fits.
 */
final class Planner {
    /** The defaults of {@code fabriclab generate} (docs/generators.md), the source of every default here. */
    static final String LS = "the leaf-spine generator's default (fabriclab generate leaf-spine)";
    static final String RAIL = "the rail-optimized generator's default (fabriclab generate rail)";
    static final String FT = "the fat-tree generator's default (fabriclab generate fat-tree)";

    private final String text;
    private final Map<Slot, Term> t;
    private final List<Span> dgx;
    final List<Default> defaults = new ArrayList<>();

    Planner(Reader r) {
        this.text = r.text;
        this.t = r.terms;
        this.dgx = r.dgx;
    }

    private boolean has(Slot s) {
        return t.containsKey(s);
    }

    private int i(Slot s) {
        return ((Number) t.get(s).value()).intValue();
    }

    private double d(Slot s) {
        return ((Number) t.get(s).value()).doubleValue();
    }

    private String q(Slot... slots) {
        List<String> out = new ArrayList<>();
        for (Slot s : slots) {
            if (has(s)) {
                out.add(t.get(s).quoted(text));
            }
        }
        return String.join(" and ", out);
    }

    private List<Span> spans(Slot... slots) {
        List<Span> out = new ArrayList<>();
        for (Slot s : slots) {
            if (has(s)) {
                out.addAll(t.get(s).words());
            }
        }
        return out;
    }

    private Problem problem(String msg, Slot... slots) {
        return new Problem(msg, spans(slots));
    }

    private <T> T def(Slot s, T value, String why) {
        defaults.add(new Default(s, Understanding.show(s, value), why));
        return value;
    }

    private int intOr(Slot s, int value, String why) {
        return has(s) ? i(s) : def(s, value, why);
    }

    private double dblOr(Slot s, double value, String why) {
        return has(s) ? d(s) : def(s, value, why);
    }

    /** a / b when it divides, else a Problem naming the words and the nearest whole fits. */
    private int divide(int a, int b, String what, String nearestHint, Slot... slots) {
        if (b <= 0 || a % b != 0) {
            throw problem(q(slots) + ": " + what + " is not a whole number (" + a + " / " + b + ")" + nearestHint, slots);
        }
        return a / b;
    }

    private static String nearestDivisors(int n, int near) {
        int lo = near;
        while (lo > 1 && n % lo != 0) {
            lo--;
        }
        int hi = near;
        while (hi < n && n % hi != 0) {
            hi++;
        }
        return lo == hi || lo < 1 ? Integer.toString(hi) : lo + " or " + hi;
    }

    Blueprint plan() {
        Kind kind = kind();
        ScaleUp gpu = has(Slot.GPU_MODEL) ? (ScaleUp) t.get(Slot.GPU_MODEL).value()
                : def(Slot.GPU_MODEL, ScaleUp.DEFAULT, "the generators' default GPU (DGX H100-class servers)");
        Map<DeviceRole, SwitchModel> models = models(kind);
        Transport transport = transport(models);
        Blueprint.Qos qos = qos(transport);
        String name = has(Slot.NAME) ? (String) t.get(Slot.NAME).value() : null;
        return switch (kind) {
            case LEAF_SPINE -> new Blueprint(kind, leafSpine(gpu), null, null, qos, transport, models, name);
            case RAIL -> new Blueprint(kind, null, rail(gpu), null, qos, transport, models, name);
            case FAT_TREE -> new Blueprint(kind, null, null, fatTree(gpu), qos, transport, models, name);
        };
    }

    private Kind kind() {
        if (has(Slot.KIND)) {
            return (Kind) t.get(Slot.KIND).value();
        }
        if (has(Slot.K)) {
            Kind k = Kind.FAT_TREE;
            defaults.add(new Default(Slot.KIND, k.words(), q(Slot.K) + ": k is a fat tree's parameter"));
            return k;
        }
        if (has(Slot.UNITS) || has(Slot.SERVERS_PER_UNIT) || has(Slot.UNITS_PER_GROUP)) {
            Kind k = Kind.RAIL;
            defaults.add(new Default(Slot.KIND, k.words(), q(Slot.UNITS, Slot.SERVERS_PER_UNIT, Slot.UNITS_PER_GROUP)
                    + ": scalable units are how rail-optimized fabrics grow"));
            return k;
        }
        if (has(Slot.CORES) || has(Slot.SPINE_CORE_CABLE) || has(Slot.CORE_MODEL)
                || (has(Slot.TIERS) && i(Slot.TIERS) == 3)) {
            throw problem(q(Slot.CORES, Slot.SPINE_CORE_CABLE, Slot.CORE_MODEL, Slot.TIERS)
                    + ": a third tier needs 'rail-optimized' or 'fat tree' (a leaf-spine has two tiers)",
                    Slot.CORES, Slot.SPINE_CORE_CABLE, Slot.CORE_MODEL, Slot.TIERS);
        }
        return def(Slot.KIND, Kind.LEAF_SPINE, "no topology named: the classic two-tier Clos");
    }

    private Map<DeviceRole, SwitchModel> models(Kind kind) {
        Map<DeviceRole, SwitchModel> m = new EnumMap<>(DeviceRole.class);
        if (has(Slot.SWITCH_MODEL)) {
            SwitchModel all = (SwitchModel) t.get(Slot.SWITCH_MODEL).value();
            m.put(DeviceRole.LEAF, all);
            m.put(DeviceRole.SPINE, all);
            m.put(DeviceRole.CORE, all);
        }
        for (Slot s : List.of(Slot.LEAF_MODEL, Slot.SPINE_MODEL, Slot.CORE_MODEL)) {
            if (has(s)) {
                DeviceRole r = s == Slot.LEAF_MODEL ? DeviceRole.LEAF : s == Slot.SPINE_MODEL ? DeviceRole.SPINE : DeviceRole.CORE;
                if (has(Slot.SWITCH_MODEL) && m.get(r) != t.get(s).value()) {
                    throw problem(q(Slot.SWITCH_MODEL, s) + ": two switch models for the " + r.jsonName()
                            + " switches; keep one", Slot.SWITCH_MODEL, s);
                }
                m.put(r, (SwitchModel) t.get(s).value());
            }
        }
        if (kind == Kind.LEAF_SPINE) {
            if (has(Slot.CORE_MODEL)) {
                throw problem(q(Slot.CORE_MODEL) + ": a leaf-spine has no core switches", Slot.CORE_MODEL);
            }
            m.remove(DeviceRole.CORE);
        }
        return m;
    }

    private Transport transport(Map<DeviceRole, SwitchModel> models) {
        Transport said = has(Slot.TRANSPORT) ? (Transport) t.get(Slot.TRANSPORT).value() : null;
        for (Map.Entry<DeviceRole, SwitchModel> e : models.entrySet()) {
            boolean ib = Models.infiniband(e.getValue());
            Slot s = modelSlot(e.getKey());
            if (said != null && ib != (said == Transport.INFINIBAND)) {
                throw problem(q(s, Slot.TRANSPORT) + ": " + Models.words(e.getValue()) + " is "
                        + (ib ? "an InfiniBand" : "an Ethernet") + " switch, not one for " + said.displayName()
                        + "; nearest: " + (ib ? "say InfiniBand, or name an Ethernet switch (Spectrum-4, Tomahawk 5)"
                        : "a Quantum switch (Quantum-2) for InfiniBand, or drop '" + t.get(Slot.TRANSPORT).quoted(text) + "'"),
                        s, Slot.TRANSPORT);
            }
            if (said == null && ib) {
                said = Transport.INFINIBAND;
                defaults.add(new Default(Slot.TRANSPORT, said.displayName(), t.get(s).quoted(text)
                        + " is an InfiniBand switch"));
            }
        }
        if (said == null) {
            defaults.add(new Default(Slot.TRANSPORT, Transport.ROCEV2.displayName(), "FabricLab's default transport"));
        } else {
            for (Map.Entry<DeviceRole, SwitchModel> e : models.entrySet()) {
                if (Models.infiniband(e.getValue()) != (said == Transport.INFINIBAND)) {
                    throw problem(q(modelSlot(e.getKey()), Slot.TRANSPORT) + ": InfiniBand and Ethernet switches in one fabric",
                            modelSlot(e.getKey()), Slot.TRANSPORT);
                }
            }
        }
        return said;
    }

    private Slot modelSlot(DeviceRole r) {
        Slot own = r == DeviceRole.LEAF ? Slot.LEAF_MODEL : r == DeviceRole.SPINE ? Slot.SPINE_MODEL : Slot.CORE_MODEL;
        return has(own) ? own : Slot.SWITCH_MODEL;
    }

    private Blueprint.Qos qos(Transport transport) {
        if (transport == Transport.INFINIBAND) {
            for (Slot s : List.of(Slot.PFC, Slot.ECN, Slot.DCQCN, Slot.PRIORITY, Slot.DSCP)) {
                if (has(s) && !Boolean.FALSE.equals(t.get(s).value())) {
                    throw problem(q(s, Slot.TRANSPORT) + ": " + s.label() + " is an Ethernet setting; InfiniBand has "
                            + "credit-based flow control per virtual lane instead; nearest: drop " + q(s)
                            + " or say RoCEv2", s, Slot.TRANSPORT);
                }
            }
            defaults.add(new Default(Slot.PFC, "not used", "an InfiniBand run uses credit-based flow control; the file keeps "
                    + "the generators' RoCEv2 profile for Ethernet runs"));
            return Blueprint.Qos.DEFAULT;
        }
        boolean pfc = has(Slot.PFC) ? (Boolean) t.get(Slot.PFC).value() : def(Slot.PFC, true, "the generators' lossless profile");
        boolean ecn = has(Slot.ECN) ? (Boolean) t.get(Slot.ECN).value() : def(Slot.ECN, true, "the generators' lossless profile");
        boolean dcqcn;
        if (has(Slot.DCQCN)) {
            dcqcn = (Boolean) t.get(Slot.DCQCN).value();
        } else {
            dcqcn = def(Slot.DCQCN, ecn, ecn ? "the generators' lossless profile" : "DCQCN reacts to ECN marks, and ECN is off");
        }
        if (dcqcn && !ecn) {
            throw problem(q(Slot.DCQCN, Slot.ECN) + ": DCQCN slows senders on the CNPs that ECN marks cause; with ECN off "
                    + "it never acts; nearest: ECN on, or no DCQCN", Slot.DCQCN, Slot.ECN);
        }
        int priority;
        if (has(Slot.DSCP)) {
            int fromDscp = i(Slot.DSCP) >> 3;
            if (has(Slot.PRIORITY) && i(Slot.PRIORITY) != fromDscp) {
                throw problem(q(Slot.DSCP, Slot.PRIORITY) + ": DSCP " + i(Slot.DSCP) + " lands in traffic class " + fromDscp
                        + " (the class is the DSCP's top three bits, as every config export maps it), not " + i(Slot.PRIORITY)
                        + "; nearest: DSCP " + (i(Slot.PRIORITY) * 8 + 2) + " for priority " + i(Slot.PRIORITY)
                        + ", or priority " + fromDscp, Slot.DSCP, Slot.PRIORITY);
            }
            priority = fromDscp;
            if (!has(Slot.PRIORITY)) {
                defaults.add(new Default(Slot.PRIORITY, Integer.toString(priority), q(Slot.DSCP)
                        + ": the class is the DSCP's top three bits (DSCP >> 3), as every config export maps it"));
            }
        } else {
            priority = intOr(Slot.PRIORITY, QosProfile.RDMA_PRIORITY, "the RDMA priority of the field and of the generators' profile");
        }
        if (priority == QosProfile.CNP_PRIORITY && (pfc || ecn)) {
            throw problem(q(Slot.PRIORITY, Slot.DSCP) + ": priority " + priority + " carries the CNPs (strict priority) in "
                    + "FabricLab's profile; nearest: priority 3 (the field's RDMA priority) or 4", Slot.PRIORITY, Slot.DSCP);
        }
        if ((has(Slot.PRIORITY) || has(Slot.DSCP)) && !pfc && !ecn) {
            throw problem(q(Slot.PRIORITY, Slot.DSCP, Slot.PFC) + ": a lossless priority with neither PFC nor ECN on it "
                    + "means nothing; nearest: 'PFC on priority " + priority + "' or drop the priority",
                    Slot.PRIORITY, Slot.DSCP, Slot.PFC, Slot.ECN);
        }
        return new Blueprint.Qos(pfc, ecn, dcqcn, priority);
    }

    private void refuse(Kind kind, Slot... slots) {
        for (Slot s : slots) {
            if (has(s)) {
                throw problem(q(s) + ": a " + kind.words() + " fabric has no " + s.label() + (kind == Kind.LEAF_SPINE
                        ? "; say 'rail-optimized' or 'fat tree' for a third tier or scalable units" : ""), s);
            }
        }
    }

    /** One speed for every link, from any of the speed slots, when the generator has only one. */
    private int oneSpeed(Kind kind, int def, String why) {
        List<Slot> given = new ArrayList<>();
        for (Slot s : List.of(Slot.SPEED, Slot.NIC_SPEED, Slot.UPLINK_SPEED)) {
            if (has(s)) {
                given.add(s);
            }
        }
        for (Slot s : given) {
            if (i(s) != i(given.get(0))) {
                throw problem(q(given.get(0), s) + ": a " + kind.words() + " fabric runs every link at one speed; nearest: "
                        + i(given.get(0)) + "G everywhere, or a leaf-spine for different server and uplink speeds",
                        given.get(0), s);
            }
        }
        return given.isEmpty() ? def(Slot.SPEED, def, why) : i(given.get(0));
    }

    /** GPUs (= NICs) per server: the generators give every GPU its own NIC. */
    private int perServer(int def, String why) {
        if (has(Slot.NICS_PER_SERVER) && has(Slot.GPUS_PER_SERVER) && i(Slot.NICS_PER_SERVER) != i(Slot.GPUS_PER_SERVER)) {
            throw problem(q(Slot.NICS_PER_SERVER, Slot.GPUS_PER_SERVER) + ": FabricLab's generators give every GPU its own "
                    + "NIC (one rail each); nearest: " + i(Slot.GPUS_PER_SERVER) + " GPUs with " + i(Slot.GPUS_PER_SERVER)
                    + " NICs", Slot.NICS_PER_SERVER, Slot.GPUS_PER_SERVER);
        }
        if (has(Slot.NICS_PER_SERVER)) {
            return i(Slot.NICS_PER_SERVER);
        }
        if (has(Slot.GPUS_PER_SERVER)) {
            return i(Slot.GPUS_PER_SERVER);
        }
        if (has(Slot.GPUS) && has(Slot.SERVERS) && i(Slot.SERVERS) > 0 && i(Slot.GPUS) % i(Slot.SERVERS) == 0) {
            int g = i(Slot.GPUS) / i(Slot.SERVERS);
            defaults.add(new Default(Slot.GPUS_PER_SERVER, Integer.toString(g), q(Slot.GPUS) + " / " + q(Slot.SERVERS)
                    + ", each GPU with its own NIC"));
            return g;
        }
        if (!dgx.isEmpty()) {
            return def(Slot.NICS_PER_SERVER, 8, Understanding.quote(text, dgx.subList(0, 1))
                    + ": a DGX has 8 GPUs, each with its own 400G NIC (NVIDIA DGX H100/B200 datasheets)");
        }
        return def(Slot.NICS_PER_SERVER, def, why);
    }

    /** Total servers, from servers or from GPUs in total; -1 when neither is said. */
    private int servers(int perServer) {
        if (has(Slot.GPUS)) {
            int s = divide(i(Slot.GPUS), perServer, "GPUs per server", "; nearest: " + (i(Slot.GPUS) / perServer) * perServer
                    + " or " + (i(Slot.GPUS) / perServer + 1) * perServer + " GPUs", Slot.GPUS, Slot.NICS_PER_SERVER,
                    Slot.GPUS_PER_SERVER);
            if (has(Slot.SERVERS) && i(Slot.SERVERS) != s) {
                throw problem(q(Slot.SERVERS, Slot.GPUS, Slot.GPUS_PER_SERVER, Slot.NICS_PER_SERVER) + ": " + i(Slot.SERVERS)
                        + " servers x " + perServer + " GPUs = " + i(Slot.SERVERS) * perServer + " GPUs, not " + i(Slot.GPUS)
                        + "; nearest: " + s + " servers", Slot.SERVERS, Slot.GPUS, Slot.GPUS_PER_SERVER, Slot.NICS_PER_SERVER);
            }
            return s;
        }
        return has(Slot.SERVERS) ? i(Slot.SERVERS) : -1;
    }

    private void positive(Slot... slots) {
        for (Slot s : slots) {
            if (has(s) && t.get(s).value() instanceof Number n && n.doubleValue() <= 0) {
                throw problem(q(s) + ": " + s.label() + " must be at least 1", s);
            }
        }
    }

    private static final List<Slot> COUNTS = List.of(Slot.LEAVES, Slot.SPINES, Slot.CORES, Slot.SERVERS, Slot.GPUS,
            Slot.SERVERS_PER_LEAF, Slot.SERVERS_PER_UNIT, Slot.GPUS_PER_SERVER, Slot.NICS_PER_SERVER, Slot.UNITS,
            Slot.UNITS_PER_GROUP, Slot.RADIX, Slot.K, Slot.TIERS, Slot.UPLINKS_PER_PAIR, Slot.UPLINKS_PER_LEAF);

    private LeafSpineParams leafSpine(ScaleUp gpu) {
        positive(COUNTS.toArray(Slot[]::new));
        refuse(Kind.LEAF_SPINE, Slot.CORES, Slot.UNITS, Slot.SERVERS_PER_UNIT, Slot.UNITS_PER_GROUP, Slot.K, Slot.SPINE_CORE_CABLE);
        if (has(Slot.TIERS) && i(Slot.TIERS) != 2) {
            throw problem(q(Slot.TIERS, Slot.KIND) + ": a leaf-spine has two switch tiers", Slot.TIERS, Slot.KIND);
        }
        int nics = perServer(1, LS);
        int nicSpeed = has(Slot.NIC_SPEED) ? i(Slot.NIC_SPEED) : has(Slot.SPEED) ? i(Slot.SPEED) : def(Slot.NIC_SPEED, 100, LS);
        int upSpeed = has(Slot.UPLINK_SPEED) ? i(Slot.UPLINK_SPEED) : has(Slot.SPEED) ? i(Slot.SPEED) : def(Slot.UPLINK_SPEED, 400, LS);
        int servers = servers(nics);
        int leaves;
        int spl;
        Slot[] layout = {Slot.SERVERS, Slot.GPUS, Slot.LEAVES, Slot.SERVERS_PER_LEAF};
        if (servers > 0) {
            if (has(Slot.LEAVES)) {
                leaves = i(Slot.LEAVES);
                spl = divide(servers, leaves, "servers per leaf", "; nearest: " + nearestDivisors(servers, leaves)
                        + " leaves, or " + (servers / leaves + 1) * leaves + " servers", layout);
                if (has(Slot.SERVERS_PER_LEAF) && i(Slot.SERVERS_PER_LEAF) != spl) {
                    throw problem(q(layout) + ": " + leaves + " leaves x " + i(Slot.SERVERS_PER_LEAF) + " servers = "
                            + leaves * i(Slot.SERVERS_PER_LEAF) + " servers, not " + servers + "; nearest: " + spl
                            + " servers per leaf", layout);
                }
            } else if (has(Slot.SERVERS_PER_LEAF)) {
                spl = i(Slot.SERVERS_PER_LEAF);
                leaves = divide(servers, spl, "the number of leaves", "; nearest: " + nearestDivisors(servers, spl)
                        + " servers per leaf", layout);
            } else {
                leaves = def(Slot.LEAVES, 4, LS);
                spl = divide(servers, leaves, "servers per leaf", "; say how many leaves (nearest: "
                        + nearestDivisors(servers, 4) + ")", layout);
            }
        } else {
            leaves = intOr(Slot.LEAVES, 4, LS);
            spl = intOr(Slot.SERVERS_PER_LEAF, 8, LS);
        }
        int spines = intOr(Slot.SPINES, 2, LS);
        long down = (long) spl * nics * nicSpeed;
        int perPair;
        Slot[] uplinkWords = {Slot.UPLINKS_PER_PAIR, Slot.UPLINKS_PER_LEAF, Slot.OVERSUBSCRIPTION, Slot.SPINES};
        if (has(Slot.UPLINKS_PER_PAIR)) {
            perPair = i(Slot.UPLINKS_PER_PAIR);
            if (has(Slot.UPLINKS_PER_LEAF) && i(Slot.UPLINKS_PER_LEAF) != perPair * spines) {
                throw problem(q(uplinkWords) + ": " + perPair + " per pair x " + spines + " spines = " + perPair * spines
                        + " uplinks per leaf, not " + i(Slot.UPLINKS_PER_LEAF), uplinkWords);
            }
        } else if (has(Slot.UPLINKS_PER_LEAF)) {
            perPair = divide(i(Slot.UPLINKS_PER_LEAF), spines, "links per leaf-spine pair (every leaf has the same links "
                    + "to every spine)", "; nearest: " + (i(Slot.UPLINKS_PER_LEAF) / spines) * spines + " or "
                    + (i(Slot.UPLINKS_PER_LEAF) / spines + 1) * spines + " uplinks per leaf", uplinkWords);
        } else if (has(Slot.OVERSUBSCRIPTION)) {
            double r = d(Slot.OVERSUBSCRIPTION);
            double exact = down / (r * spines * upSpeed);
            perPair = (int) Math.round(exact);
            if (Math.abs(exact - perPair) > 1e-9 || perPair < 1) {
                int lo = Math.max(1, (int) Math.floor(exact));
                int hi = lo + 1;
                throw problem(q(Slot.OVERSUBSCRIPTION) + ": a leaf has " + Reader.show(down / 1000.0) + " Tb/s down (" + spl
                        + " servers x " + nics + " x " + nicSpeed + "G); " + Reader.show(r) + ":1 needs "
                        + Reader.show(down / r / 1000.0) + " Tb/s up, which " + spines + " spines at " + upSpeed
                        + "G do not give with a whole number of links per pair; nearest: " + ratioText(down, spines, lo, upSpeed)
                        + " (" + lo + " per pair) or " + ratioText(down, spines, hi, upSpeed) + " (" + hi + " per pair)",
                        Slot.OVERSUBSCRIPTION, Slot.SPINES, Slot.NICS_PER_SERVER, Slot.NIC_SPEED, Slot.UPLINK_SPEED,
                        Slot.SERVERS, Slot.LEAVES);
            }
        } else {
            perPair = def(Slot.UPLINKS_PER_PAIR, 1, LS);
        }
        if (has(Slot.OVERSUBSCRIPTION) && (has(Slot.UPLINKS_PER_PAIR) || has(Slot.UPLINKS_PER_LEAF))) {
            double actual = (double) down / ((long) spines * perPair * upSpeed);
            if (Math.abs(actual - d(Slot.OVERSUBSCRIPTION)) > 1e-9) {
                throw problem(q(uplinkWords) + ": these links give " + Reader.show(actual) + ":1, not "
                        + Reader.show(d(Slot.OVERSUBSCRIPTION)) + ":1; keep one", uplinkWords);
            }
        }
        double serverCable = dblOr(Slot.SERVER_CABLE, 3.0, LS);
        double uplinkCable = has(Slot.LEAF_SPINE_CABLE) ? d(Slot.LEAF_SPINE_CABLE)
                : has(Slot.SWITCH_CABLE) ? d(Slot.SWITCH_CABLE) : def(Slot.LEAF_SPINE_CABLE, 30.0, LS);
        Integer radix = has(Slot.RADIX) ? Integer.valueOf(i(Slot.RADIX)) : null;
        if (radix == null) {
            defaults.add(new Default(Slot.RADIX, "exactly the ports used", LS));
        }
        long leafNeeds = (long) spl * nics + (long) spines * perPair;
        long spineNeeds = (long) leaves * perPair;
        if (radix != null && (leafNeeds > radix || spineNeeds > radix)) {
            Slot[] all = {Slot.RADIX, Slot.SERVERS, Slot.GPUS, Slot.SERVERS_PER_LEAF, Slot.NICS_PER_SERVER, Slot.LEAVES,
                    Slot.SPINES, Slot.UPLINKS_PER_PAIR, Slot.OVERSUBSCRIPTION};
            String nearest = "radix " + Math.max(leafNeeds, spineNeeds);
            if (leafNeeds > radix && servers > 0) {
                for (int l = leaves + 1; l <= servers; l++) {
                    if (servers % l == 0 && (long) servers / l * nics + (long) spines * perPair <= radix && (long) l * perPair <= radix) {
                        nearest += ", or " + l + " leaves of " + servers / l + " servers";
                        break;
                    }
                }
            }
            throw problem(q(all) + ": " + (leafNeeds > radix ? "a leaf needs " + (long) spl * nics + " server ports ("
                    + spl + " servers x " + nics + " NICs) + " + (long) spines * perPair + " uplinks = " + leafNeeds
                    : "a spine needs " + spineNeeds + " leaf ports") + ", more than radix " + radix
                    + "; nearest fabric that fits: " + nearest, all);
        }
        try {
            return new LeafSpineParams(leaves, spines, spl, nics, nicSpeed, perPair, upSpeed, serverCable, uplinkCable, radix, gpu);
        } catch (IllegalArgumentException e) {
            throw problem(q(COUNTS.toArray(Slot[]::new)) + ": " + e.getMessage(), COUNTS.toArray(Slot[]::new));
        }
    }

    private static String ratioText(long down, int spines, int perPair, int upSpeed) {
        return Reader.show((double) down / ((long) spines * perPair * upSpeed)) + ":1";
    }

    private RailParams rail(ScaleUp gpu) {
        positive(COUNTS.toArray(Slot[]::new));
        refuse(Kind.RAIL, Slot.K, Slot.UPLINKS_PER_PAIR);
        int g = perServer(-1, RAIL);
        int speed = oneSpeed(Kind.RAIL, RailParams.DEFAULT_SPEED_GBPS, RAIL);
        int radix = intOr(Slot.RADIX, RailParams.DEFAULT_RADIX, RAIL);
        int servers;
        Slot[] sizing = {Slot.SERVERS, Slot.GPUS, Slot.UNITS, Slot.SERVERS_PER_UNIT, Slot.LEAVES, Slot.NICS_PER_SERVER,
                Slot.GPUS_PER_SERVER};
        if (g < 0) {
            defaults.remove(defaults.size() - 1);
            if (has(Slot.LEAVES) && has(Slot.UNITS)) {
                g = divide(i(Slot.LEAVES), i(Slot.UNITS), "rails per unit (one leaf per rail)", "", Slot.LEAVES, Slot.UNITS);
                defaults.add(new Default(Slot.GPUS_PER_SERVER, Integer.toString(g), q(Slot.LEAVES, Slot.UNITS)
                        + ": one rail leaf per GPU in each unit"));
            } else {
                g = def(Slot.GPUS_PER_SERVER, RailParams.DEFAULT_GPUS_PER_SERVER, RAIL);
            }
        }
        servers = servers(g);
        int units;
        int spu;
        if (has(Slot.LEAVES) && !has(Slot.UNITS)) {
            if (i(Slot.LEAVES) % g != 0) {
                throw problem(q(Slot.LEAVES, Slot.KIND, Slot.NICS_PER_SERVER, Slot.GPUS_PER_SERVER) + ": a rail-optimized "
                        + "unit has one leaf per rail, and " + g + " NICs per server make " + g + " rails, so the leaves "
                        + "come in multiples of " + g + "; nearest fabric that fits: " + Math.max(g, i(Slot.LEAVES) / g * g)
                        + " leaves (rail-optimized), or a leaf-spine with " + i(Slot.LEAVES) + " leaves (drop '"
                        + t.get(Slot.KIND).quoted(text).replace("'", "") + "')",
                        Slot.LEAVES, Slot.KIND, Slot.NICS_PER_SERVER, Slot.GPUS_PER_SERVER);
            }
        }
        Integer unitsFromLeaves = has(Slot.LEAVES) ? i(Slot.LEAVES) / g : null;
        if (has(Slot.UNITS) && has(Slot.SERVERS_PER_UNIT)) {
            units = i(Slot.UNITS);
            spu = i(Slot.SERVERS_PER_UNIT);
            if (servers > 0 && servers != units * spu) {
                throw problem(q(sizing) + ": " + units + " units x " + spu + " servers = " + units * spu + " servers, not "
                        + servers + "; keep one", sizing);
            }
        } else if (has(Slot.UNITS) || unitsFromLeaves != null) {
            units = has(Slot.UNITS) ? i(Slot.UNITS) : unitsFromLeaves;
            if (servers > 0) {
                spu = divide(servers, units, "servers per unit", "; nearest: " + nearestDivisors(servers, units) + " units",
                        sizing);
            } else {
                spu = has(Slot.SERVERS_PER_UNIT) ? i(Slot.SERVERS_PER_UNIT)
                        : def(Slot.SERVERS_PER_UNIT, RailParams.DEFAULT_SERVERS_PER_UNIT, RAIL);
            }
        } else if (has(Slot.SERVERS_PER_UNIT)) {
            spu = i(Slot.SERVERS_PER_UNIT);
            units = servers > 0 ? divide(servers, spu, "the number of scalable units", "; nearest: "
                    + (servers / spu) * spu + " or " + (servers / spu + 1) * spu + " servers", sizing) : def(Slot.UNITS, 1, RAIL);
        } else if (servers > 0) {
            int su = RailParams.DEFAULT_SERVERS_PER_UNIT;
            if (servers <= su) {
                units = def(Slot.UNITS, 1, "all " + servers + " servers fit one scalable unit");
                spu = servers;
            } else {
                units = divide(servers, su, "the number of scalable units of " + su + " servers (the generator's unit size)",
                        "; nearest: " + (servers / su) * su + " or " + (servers / su + 1) * su
                                + " servers, or say the units ('in 3 SUs')", sizing);
                spu = def(Slot.SERVERS_PER_UNIT, su, RAIL);
                defaults.add(new Default(Slot.UNITS, Integer.toString(units), servers + " servers / " + su + " per unit"));
            }
        } else {
            units = def(Slot.UNITS, 1, RAIL);
            spu = def(Slot.SERVERS_PER_UNIT, RailParams.DEFAULT_SERVERS_PER_UNIT, RAIL);
        }
        if (has(Slot.LEAVES) && i(Slot.LEAVES) != units * g) {
            throw problem(q(Slot.LEAVES, Slot.UNITS, Slot.SERVERS, Slot.GPUS) + ": " + units + " units x " + g
                    + " rails = " + units * g + " rail leaves, not " + i(Slot.LEAVES) + "; nearest fabric that fits: "
                    + units * g + " leaves", Slot.LEAVES, Slot.UNITS, Slot.SERVERS, Slot.GPUS, Slot.NICS_PER_SERVER);
        }
        if (has(Slot.SERVERS_PER_LEAF) && i(Slot.SERVERS_PER_LEAF) != spu) {
            throw problem(q(Slot.SERVERS_PER_LEAF) + ": a rail leaf serves every server of its unit (" + spu + ")",
                    Slot.SERVERS_PER_LEAF, Slot.SERVERS_PER_UNIT);
        }
        int uplinks;
        if (has(Slot.UPLINKS_PER_LEAF)) {
            uplinks = i(Slot.UPLINKS_PER_LEAF);
            if (has(Slot.OVERSUBSCRIPTION) && Math.abs((double) spu / uplinks - d(Slot.OVERSUBSCRIPTION)) > 1e-9) {
                throw problem(q(Slot.UPLINKS_PER_LEAF, Slot.OVERSUBSCRIPTION) + ": " + spu + " server ports over " + uplinks
                        + " uplinks is " + Reader.show((double) spu / uplinks) + ":1; keep one",
                        Slot.UPLINKS_PER_LEAF, Slot.OVERSUBSCRIPTION);
            }
        } else if (has(Slot.OVERSUBSCRIPTION)) {
            double exact = spu / d(Slot.OVERSUBSCRIPTION);
            uplinks = (int) Math.round(exact);
            if (Math.abs(exact - uplinks) > 1e-9 || uplinks < 1) {
                int lo = Math.max(1, (int) Math.floor(exact));
                throw problem(q(Slot.OVERSUBSCRIPTION) + ": a rail leaf has " + spu + " server ports; "
                        + Reader.show(d(Slot.OVERSUBSCRIPTION)) + ":1 needs " + Reader.show(exact)
                        + " uplinks, not a whole number; nearest: " + Reader.show((double) spu / lo) + ":1 (" + lo
                        + " uplinks) or " + Reader.show((double) spu / (lo + 1)) + ":1 (" + (lo + 1) + " uplinks)",
                        Slot.OVERSUBSCRIPTION, Slot.SERVERS_PER_UNIT, Slot.SERVERS, Slot.UNITS);
            }
        } else {
            uplinks = def(Slot.UPLINKS_PER_LEAF, spu, "non-blocking (1:1), " + RAIL);
        }
        if ((long) spu + uplinks > radix) {
            Slot[] all = {Slot.RADIX, Slot.SERVERS_PER_UNIT, Slot.SERVERS, Slot.GPUS, Slot.UNITS, Slot.UPLINKS_PER_LEAF,
                    Slot.OVERSUBSCRIPTION};
            throw problem(q(all) + ": a rail leaf needs " + spu + " server ports + " + uplinks + " uplinks = "
                    + (spu + uplinks) + ", more than radix " + radix + "; nearest fabric that fits: radix " + (spu + uplinks)
                    + ", or units of " + radix / 2 + " servers", all);
        }
        double serverCable = dblOr(Slot.SERVER_CABLE, RailParams.DEFAULT_SERVER_CABLE_M, RAIL);
        double leafSpine = has(Slot.LEAF_SPINE_CABLE) ? d(Slot.LEAF_SPINE_CABLE) : has(Slot.SWITCH_CABLE)
                ? d(Slot.SWITCH_CABLE) : def(Slot.LEAF_SPINE_CABLE, RailParams.DEFAULT_LEAF_SPINE_CABLE_M, RAIL);
        double spineCore = has(Slot.SPINE_CORE_CABLE) ? d(Slot.SPINE_CORE_CABLE) : has(Slot.SWITCH_CABLE)
                ? d(Slot.SWITCH_CABLE) : RailParams.DEFAULT_SPINE_CORE_CABLE_M;
        int perGroup = has(Slot.UNITS_PER_GROUP) ? i(Slot.UNITS_PER_GROUP) : 1;
        RailParams p;
        try {
            p = new RailParams(units, spu, g, radix, speed, serverCable, leafSpine, spineCore, uplinks, perGroup, gpu);
        } catch (IllegalArgumentException e) {
            throw problem(q(sizing) + ": " + e.getMessage(), sizing);
        }
        RailPlan plan;
        try {
            plan = RailPlan.of(p);
        } catch (IllegalArgumentException e) {
            Slot[] all = {Slot.UNITS, Slot.UNITS_PER_GROUP, Slot.RADIX, Slot.SERVERS, Slot.GPUS, Slot.UPLINKS_PER_LEAF,
                    Slot.OVERSUBSCRIPTION};
            throw problem(q(all) + ": " + e.getMessage(), all);
        }
        if (plan.threeTier() && !has(Slot.SPINE_CORE_CABLE) && !has(Slot.SWITCH_CABLE)) {
            def(Slot.SPINE_CORE_CABLE, spineCore, RAIL);
        }
        if (!plan.threeTier() && has(Slot.UNITS_PER_GROUP)) {
            throw problem(q(Slot.UNITS_PER_GROUP) + ": this fabric has two tiers (every leaf reaches every spine), so "
                    + "there are no spine groups", Slot.UNITS_PER_GROUP);
        }
        if (has(Slot.SPINES) && i(Slot.SPINES) != plan.spines()) {
            throw problem(q(Slot.SPINES) + ": " + units + " units of " + g + " rail leaves with " + uplinks + " uplinks each on "
                    + radix + "-port switches take " + plan.spines() + " spines; nearest fabric that fits: " + plan.spines()
                    + " spines", Slot.SPINES, Slot.RADIX, Slot.UPLINKS_PER_LEAF, Slot.OVERSUBSCRIPTION, Slot.UNITS);
        }
        if (has(Slot.CORES) && i(Slot.CORES) != plan.cores()) {
            throw problem(q(Slot.CORES) + ": this rail-optimized fabric takes " + plan.cores() + " cores"
                    + (plan.threeTier() ? "" : " (two tiers reach every leaf)") + "; nearest fabric that fits: "
                    + plan.cores() + " cores", Slot.CORES, Slot.RADIX, Slot.UNITS);
        }
        int tiers = plan.threeTier() ? 3 : 2;
        if (has(Slot.TIERS) && i(Slot.TIERS) != tiers) {
            throw problem(q(Slot.TIERS) + ": this rail-optimized fabric has " + tiers + " switch tiers", Slot.TIERS, Slot.RADIX, Slot.UNITS);
        }
        if (has(Slot.CORE_MODEL) && !plan.threeTier()) {
            throw problem(q(Slot.CORE_MODEL) + ": this rail-optimized fabric has no core switches (two tiers)", Slot.CORE_MODEL);
        }
        return p;
    }

    private FatTreeParams fatTree(ScaleUp gpu) {
        positive(COUNTS.toArray(Slot[]::new));
        refuse(Kind.FAT_TREE, Slot.UPLINKS_PER_PAIR, Slot.UPLINKS_PER_LEAF, Slot.SERVERS_PER_UNIT, Slot.UNITS_PER_GROUP);
        if (has(Slot.OVERSUBSCRIPTION) && d(Slot.OVERSUBSCRIPTION) != 1.0) {
            throw problem(q(Slot.OVERSUBSCRIPTION, Slot.KIND) + ": a k-ary fat tree is non-blocking (1:1); nearest: drop "
                    + q(Slot.OVERSUBSCRIPTION) + ", or a leaf-spine or rail-optimized fabric for "
                    + Reader.show(d(Slot.OVERSUBSCRIPTION)) + ":1", Slot.OVERSUBSCRIPTION, Slot.KIND);
        }
        if (has(Slot.NICS_PER_SERVER) && i(Slot.NICS_PER_SERVER) != 1 || has(Slot.GPUS_PER_SERVER) && i(Slot.GPUS_PER_SERVER) != 1) {
            throw problem(q(Slot.NICS_PER_SERVER, Slot.GPUS_PER_SERVER, Slot.KIND) + ": a fat tree's hosts have one NIC each "
                    + "(Al-Fares et al.); nearest: a rail-optimized fabric for multi-NIC servers",
                    Slot.NICS_PER_SERVER, Slot.GPUS_PER_SERVER, Slot.KIND);
        }
        if (has(Slot.TIERS) && i(Slot.TIERS) != 3) {
            throw problem(q(Slot.TIERS, Slot.KIND) + ": a k-ary fat tree has three switch tiers", Slot.TIERS, Slot.KIND);
        }
        // k from whatever gives it; every other count must agree.
        Integer k = has(Slot.K) ? i(Slot.K) : null;
        Slot from = Slot.K;
        List<Object[]> checks = new ArrayList<>();
        int hosts = servers(1);
        if (hosts > 0) {
            checks.add(new Object[] {has(Slot.GPUS) ? Slot.GPUS : Slot.SERVERS, hosts, 3});
        }
        if (has(Slot.UNITS)) {
            checks.add(new Object[] {Slot.UNITS, i(Slot.UNITS), 1});
        }
        if (has(Slot.LEAVES)) {
            checks.add(new Object[] {Slot.LEAVES, i(Slot.LEAVES), 2});
        }
        if (has(Slot.SPINES)) {
            checks.add(new Object[] {Slot.SPINES, i(Slot.SPINES), 2});
        }
        if (has(Slot.CORES)) {
            checks.add(new Object[] {Slot.CORES, i(Slot.CORES), 4});
        }
        for (Object[] c : checks) {
            Slot s = (Slot) c[0];
            int v = (Integer) c[1];
            int kind = (Integer) c[2];
            int kk = kFor(kind, v);
            if (kk < 0) {
                throw problem(q(s) + ": no k-ary fat tree has " + v + " " + s.label() + " (" + formula(kind)
                        + "); nearest: " + nearestK(kind, v), s);
            }
            if (k == null) {
                k = kk;
                from = s;
            } else if (k != kk) {
                throw problem(q(from, s) + ": " + (from == Slot.K ? "k=" + k : "that is k=" + k) + ", which has "
                        + countFor(kind, k) + " " + s.label() + " (" + formula(kind) + "), not " + v, from, s);
            }
        }
        if (k == null && has(Slot.RADIX)) {
            k = i(Slot.RADIX);
            from = Slot.RADIX;
        }
        if (k == null) {
            k = def(Slot.K, 4, FT);
        } else if (from != Slot.K) {
            defaults.add(new Default(Slot.K, Integer.toString(k), q(from) + " make k=" + k));
        }
        if (k < 2 || k % 2 != 0) {
            throw problem(q(Slot.K, Slot.RADIX) + ": k must be even and at least 2; nearest: k=" + Math.max(2, k + (k % 2)),
                    Slot.K, Slot.RADIX);
        }
        int spare = 0;
        if (has(Slot.RADIX)) {
            if (i(Slot.RADIX) < k) {
                throw problem(q(Slot.RADIX, Slot.K) + ": a k=" + k + " fat tree uses " + k + " ports per switch, more than "
                        + "radix " + i(Slot.RADIX) + "; nearest: radix " + k, Slot.RADIX, Slot.K);
            }
            spare = i(Slot.RADIX) - k;
        }
        int speed = oneSpeed(Kind.FAT_TREE, 100, FT);
        double host = dblOr(Slot.SERVER_CABLE, 3.0, FT);
        double edgeAgg = has(Slot.LEAF_SPINE_CABLE) ? d(Slot.LEAF_SPINE_CABLE) : has(Slot.SWITCH_CABLE)
                ? d(Slot.SWITCH_CABLE) : def(Slot.LEAF_SPINE_CABLE, 30.0, FT);
        double aggCore = has(Slot.SPINE_CORE_CABLE) ? d(Slot.SPINE_CORE_CABLE) : has(Slot.SWITCH_CABLE)
                ? d(Slot.SWITCH_CABLE) : def(Slot.SPINE_CORE_CABLE, 150.0, FT);
        try {
            return new FatTreeParams(k, speed, host, edgeAgg, aggCore, spare, gpu);
        } catch (IllegalArgumentException e) {
            throw problem(q(Slot.K, Slot.SERVERS, Slot.GPUS, Slot.RADIX) + ": " + e.getMessage(), Slot.K, Slot.SERVERS,
                    Slot.GPUS, Slot.RADIX);
        }
    }

    /** k^3/4 hosts (kind 3), k pods (1), k^2/2 edge or aggregation switches (2), k^2/4 cores (4). */
    private static long countFor(int kind, long k) {
        return switch (kind) {
            case 3 -> k * k * k / 4;
            case 2 -> k * k / 2;
            case 4 -> k * k / 4;
            default -> k;
        };
    }

    private static String formula(int kind) {
        return switch (kind) {
            case 3 -> "k^3/4";
            case 2 -> "k^2/2";
            case 4 -> "k^2/4";
            default -> "k";
        };
    }

    private static int kFor(int kind, int v) {
        for (int k = 2; k <= 512; k += 2) {
            if (countFor(kind, k) == v) {
                return k;
            }
            if (countFor(kind, k) > v) {
                break;
            }
        }
        return -1;
    }

    private static String nearestK(int kind, int v) {
        int lo = 2;
        while (countFor(kind, lo + 2) <= v && lo < 512) {
            lo += 2;
        }
        return "k=" + lo + " (" + countFor(kind, lo) + ") or k=" + (lo + 2) + " (" + countFor(kind, lo + 2) + ")";
    }
}
