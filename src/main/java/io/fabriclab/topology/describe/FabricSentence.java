package io.fabriclab.topology.describe;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;
import io.fabriclab.model.Link;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.ScaleUp;
import io.fabriclab.model.Transport;
import io.fabriclab.topology.PriceBook;
import io.fabriclab.model.SwitchLatency;
import io.fabriclab.model.SwitchLatency.SwitchModel;

/**
 * The sentence that makes a fabric again ({@code fabriclab describe}): the generator and its
 * parameters are read off the fabric, written as a description, and the description is checked by
 * building it and comparing the result with the fabric, device by device and link by link. A fabric
 * the generators did not make (or that was edited since) has no such sentence and is refused,
 * naming the first difference.
 */
public final class FabricSentence {
    private FabricSentence() {
    }

    /**
     * The sentence for {@code f}.
     *
     * @param compare how two fabrics are compared (the command line compares their JSON text)
     * @throws IllegalArgumentException when no sentence makes {@code f}
     */
    public static String of(Fabric f, java.util.function.BiFunction<Fabric, Fabric, String> compare) {
        if (f.switches().isEmpty() || f.servers().isEmpty()) {
            throw new IllegalArgumentException("the fabric has no " + (f.switches().isEmpty() ? "switches" : "servers")
                    + "; describe writes sentences for fabrics the generators make (leaf-spine, rail-optimized, fat tree)");
        }
        List<String> tried = new ArrayList<>();
        for (Kind k : candidates(f)) {
            String s;
            try {
                s = sentence(f, k);
            } catch (RuntimeException e) {
                tried.add(k.words() + ": " + e.getMessage());
                continue;
            }
            Understanding u = Descriptions.understand(s);
            if (!u.ok()) {
                tried.add(k.words() + ": " + u.error());
                continue;
            }
            Fabric again = u.blueprint().build();
            if (!again.name().equals(f.name())) {
                // The generator names the fabric after its parameters; another name is said.
                s = s + ", named \"" + f.name().replace("\"", "'") + "\"";
                u = Descriptions.understand(s);
                if (!u.ok()) {
                    tried.add(k.words() + ": the name: " + u.error());
                    continue;
                }
                again.setName(f.name());
            }
            String diff = compare.apply(clean(f), clean(again));
            if (diff == null) {
                return s;
            }
            tried.add(k.words() + ": " + diff);
        }
        throw new IllegalArgumentException("no sentence makes this fabric: it is not one the generators make, or it was "
                + "edited since (" + String.join("; ", tried) + ")");
    }

    /** The sentence for {@code f}, checked with {@link #difference}. */
    public static String of(Fabric f) {
        return of(f, FabricSentence::difference);
    }

    /**
     * The first difference between two fabrics (name, description, MTU, QoS profiles, devices with
     * their ports, models, places, labels and GPUs, links with their speeds, cables and QoS), or
     * null when there is none. Layout is not compared.
     */
    public static String difference(Fabric a, Fabric b) {
        if (!a.name().equals(b.name())) {
            return "name '" + a.name() + "' vs '" + b.name() + "'";
        }
        if (a.mtuBytes() != b.mtuBytes()) {
            return "MTU " + a.mtuBytes() + " vs " + b.mtuBytes();
        }
        if (!a.qosProfiles().equals(b.qosProfiles()) || !java.util.Objects.equals(a.defaultQosProfile(), b.defaultQosProfile())) {
            return "QoS profiles differ";
        }
        if (a.devices().size() != b.devices().size()) {
            return a.devices().size() + " devices vs " + b.devices().size();
        }
        for (Device d : a.devices()) {
            Device e = b.device(d.id());
            if (e == null) {
                return "device " + d.id() + " is not in the generated fabric";
            }
            String why = deviceDifference(d, e);
            if (why != null) {
                return "device " + d.id() + ": " + why;
            }
        }
        if (a.linkCount() != b.linkCount()) {
            return a.linkCount() + " links vs " + b.linkCount();
        }
        for (Link l : a.links()) {
            Link m = b.link(l.id());
            if (m == null) {
                return "link " + l.id() + " is not in the generated fabric";
            }
            if (l.speedGbps() != m.speedGbps() || l.cableLengthM() != m.cableLengthM() || l.cableType() != m.cableType()
                    || l.state() != m.state()) {
                return "link " + l.id() + " differs (speed, cable or state)";
            }
        }
        return null;
    }

    private static String deviceDifference(Device d, Device e) {
        if (d.role() != e.role()) {
            return "role";
        }
        if (!java.util.Objects.equals(d.model(), e.model())) {
            return "model '" + d.model() + "' vs '" + e.model() + "'";
        }
        if (!java.util.Objects.equals(d.unit(), e.unit()) || !java.util.Objects.equals(d.rail(), e.rail())
                || !java.util.Objects.equals(d.pod(), e.pod())) {
            return "unit, rail or pod";
        }
        if (!d.labels().equals(e.labels())) {
            return "labels " + d.labels() + " vs " + e.labels();
        }
        if (!java.util.Objects.equals(d.scaleUp(), e.scaleUp()) || !java.util.Objects.equals(d.gpusOverride(), e.gpusOverride())) {
            return "GPUs";
        }
        if (d.portCount() != e.portCount()) {
            return d.portCount() + " ports vs " + e.portCount();
        }
        for (int i = 0; i < d.portCount(); i++) {
            var p = d.ports().get(i);
            var q = e.ports().get(i);
            if (!p.name().equals(q.name()) || p.speedGbps() != q.speedGbps()
                    || !java.util.Objects.equals(p.qosProfile(), q.qosProfile())) {
                return "port " + p.name();
            }
        }
        return null;
    }

    private static Fabric clean(Fabric f) {
        Fabric c = f.copy();
        c.setLayout(new Layout());
        return c;
    }

    private static List<Kind> candidates(Fabric f) {
        boolean rails = f.devices(DeviceRole.LEAF).stream().allMatch(d -> d.rail() != null);
        boolean cores = !f.devices(DeviceRole.CORE).isEmpty();
        if (rails) {
            return List.of(Kind.RAIL);
        }
        return cores ? List.of(Kind.FAT_TREE) : List.of(Kind.LEAF_SPINE);
    }

    /** "1 SU", "4 SUs". */
    private static String n(int count, String one, String many) {
        return count + " " + (count == 1 ? one : many);
    }

    private static String m(double metres) {
        return PriceBook.formatMetres(metres) + " m";
    }

    private static Link firstLink(Fabric f, DeviceRole a, DeviceRole b) {
        for (Link l : f.links()) {
            DeviceRole x = l.a().device().role();
            DeviceRole y = l.b().device().role();
            if (x == a && y == b || x == b && y == a) {
                return l;
            }
        }
        throw new IllegalArgumentException("no " + a.jsonName() + "-" + b.jsonName() + " link");
    }

    private static String sentence(Fabric f, Kind kind) {
        List<String> parts = new ArrayList<>();
        List<Device> leaves = f.devices(DeviceRole.LEAF);
        List<Device> spines = f.devices(DeviceRole.SPINE);
        List<Device> servers = f.servers();
        Device server = servers.get(0);
        int nics = server.portCount();
        Link serverLink = firstLink(f, DeviceRole.SERVER, DeviceRole.LEAF);
        Link leafSpine = firstLink(f, DeviceRole.LEAF, DeviceRole.SPINE);
        switch (kind) {
            case LEAF_SPINE -> {
                Device leaf = leaves.get(0);
                Device spine = spines.get(0);
                int perPair = f.linksBetween(leaf, spine).size();
                parts.add("leaf-spine");
                parts.add(n(leaves.size(), "leaf", "leaves"));
                parts.add(n(spines.size(), "spine", "spines"));
                parts.add(n(servers.size() / leaves.size(), "server", "servers") + " per leaf with " + nics + " x "
                        + serverLink.speedGbps() + "G " + (nics == 1 ? "NIC" : "NICs"));
                parts.add(perPair + " x " + leafSpine.speedGbps() + "G " + (perPair == 1 ? "link" : "links") + " per leaf-spine pair");
                int leafUsed = f.linksOf(leaf).size();
                int spineUsed = f.linksOf(spine).size();
                if (leaf.portCount() != leafUsed || spine.portCount() != spineUsed) {
                    parts.add("radix " + leaf.portCount());
                }
                parts.add(m(serverLink.cableLengthM()) + " to the servers");
                parts.add(m(leafSpine.cableLengthM()) + " between leaves and spines");
            }
            case RAIL -> {
                Set<Integer> units = new TreeSet<>();
                Set<Integer> pods = new TreeSet<>();
                leaves.forEach(d -> {
                    units.add(d.unit());
                    pods.add(d.pod());
                });
                Device leaf = leaves.get(0);
                int uplinks = (int) f.linksOf(leaf).stream().filter(l -> l.other(leaf).role() == DeviceRole.SPINE).count();
                parts.add("rail-optimized");
                parts.add(n(units.size(), "SU", "SUs") + " of " + n(servers.size() / units.size(), "server", "servers") + " with "
                        + nics + " x " + serverLink.speedGbps() + "G " + (nics == 1 ? "NIC" : "NICs"));
                parts.add("radix " + leaf.portCount());
                parts.add(n(uplinks, "uplink", "uplinks") + " per leaf");
                boolean threeTier = !f.devices(DeviceRole.CORE).isEmpty();
                if (threeTier && pods.size() != units.size()) {
                    parts.add(units.size() / pods.size() + " SUs per spine group");
                }
                parts.add(m(serverLink.cableLengthM()) + " to the servers");
                parts.add(m(leafSpine.cableLengthM()) + " between leaves and spines");
                if (threeTier) {
                    parts.add(m(firstLink(f, DeviceRole.SPINE, DeviceRole.CORE).cableLengthM()) + " to the core");
                }
            }
            case FAT_TREE -> {
                int k = (int) Math.round(Math.sqrt(2.0 * leaves.size()));
                Device edge = leaves.get(0);
                parts.add("fat tree");
                parts.add("k=" + k);
                parts.add(serverLink.speedGbps() + "G links");
                if (edge.portCount() != k) {
                    parts.add("radix " + edge.portCount());
                }
                parts.add(m(serverLink.cableLengthM()) + " to the servers");
                parts.add(m(leafSpine.cableLengthM()) + " between leaves and spines");
                parts.add(m(firstLink(f, DeviceRole.SPINE, DeviceRole.CORE).cableLengthM()) + " to the core");
            }
            default -> throw new IllegalStateException();
        }
        ScaleUp gpu = server.scaleUpOrDefault();
        if (ScaleUp.of(gpu.gpu()) == null || !ScaleUp.of(gpu.gpu()).equals(gpu)) {
            throw new IllegalArgumentException("the servers' scale-up domain (" + gpu.describe() + ") is not a known GPU's");
        }
        parts.add(gpu.gpu() + " GPUs");
        models(f, parts);
        Transport transport = transport(f);
        if (transport != null) {
            parts.add(transport.displayName());
        }
        if (transport != Transport.INFINIBAND) {
            parts.addAll(qos(f));
        }
        return String.join(", ", parts);
    }

    private static void models(Fabric f, List<String> parts) {
        Map<DeviceRole, SwitchModel> byRole = new EnumMap<>(DeviceRole.class);
        Set<DeviceRole> none = new HashSet<>();
        for (Device d : f.switches()) {
            SwitchModel m = SwitchLatency.modelOf(d);
            if (m == null) {
                none.add(d.role());
            } else {
                byRole.put(d.role(), m);
            }
        }
        Set<SwitchModel> distinct = new HashSet<>(byRole.values());
        Set<DeviceRole> roles = new HashSet<>();
        f.switches().forEach(d -> roles.add(d.role()));
        if (none.isEmpty() && distinct.size() == 1 && byRole.size() == roles.size()) {
            parts.add(Models.words(distinct.iterator().next()) + " switches");
            return;
        }
        byRole.forEach((r, m) -> parts.add(Models.words(m) + " " + switch (r) {
            case LEAF -> "leaves";
            case SPINE -> "spines";
            default -> "cores";
        }));
    }

    private static Transport transport(Fabric f) {
        Set<String> labels = new HashSet<>();
        for (Device d : f.switches()) {
            labels.add(d.labels().get(Blueprint.TRANSPORT_LABEL));
        }
        if (labels.size() != 1 || labels.contains(null)) {
            return null;
        }
        return Transport.fromJsonName(labels.iterator().next()).orElse(null);
    }

    private static List<String> qos(Fabric f) {
        QosProfile p = f.qosProfile(f.defaultQosProfile());
        if (p == null) {
            throw new IllegalArgumentException("the fabric has no default QoS profile");
        }
        boolean pfc = p.pfc().enabled();
        boolean ecn = p.ecn().enabled();
        boolean dcqcn = p.dcqcn().enabled();
        Integer priority = pfc && p.pfc().priorities().size() == 1 ? p.pfc().priorities().iterator().next()
                : ecn && p.ecn().classes().size() == 1 ? p.ecn().classes().keySet().iterator().next() : null;
        List<String> out = new ArrayList<>();
        if (pfc && ecn && dcqcn) {
            out.add("PFC, ECN and DCQCN on priority " + priority);
            return out;
        }
        out.add(pfc ? "PFC" : "no PFC");
        out.add(ecn ? "ECN" : "no ECN");
        out.add(dcqcn ? "DCQCN" : "no DCQCN");
        if (priority != null && (pfc || ecn)) {
            out.add("priority " + priority);
        }
        return out;
    }
}
