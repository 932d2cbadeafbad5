package io.fabriclab.topology.describe;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.EcnConfig;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.PfcConfig;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.Transport;
import io.fabriclab.model.WredEcn;
import io.fabriclab.topology.FatTreeGenerator;
import io.fabriclab.topology.FatTreeParams;
import io.fabriclab.topology.LeafSpineGenerator;
import io.fabriclab.topology.LeafSpineParams;
import io.fabriclab.topology.RailOptimizedGenerator;
import io.fabriclab.topology.RailParams;
import io.fabriclab.model.SwitchLatency.SwitchModel;
import io.fabriclab.topology.SwitchSku;

/**
 * What a description asks for, as one generator's parameters plus what the generators do not set:
 * the QoS of the lossless priority, switch products by role, the transport and a name. Exactly one
 * of {@code leafSpine}, {@code rail}, {@code fatTree} is set, as {@code kind} says.
 *
 * @param transport the transport the description names (or a Quantum switch implies), null when it names none
 * @param name      the fabric's name, null for the generator's
 */
public record Blueprint(Kind kind, LeafSpineParams leafSpine, RailParams rail, FatTreeParams fatTree, Qos qos,
                        Transport transport, Map<DeviceRole, SwitchModel> models, String name) {
    /** The label every switch carries with the transport a description named (the fabric file has no transport field). */
    public static final String TRANSPORT_LABEL = "transport";

    public Blueprint {
        models = Map.copyOf(models);
    }

    /**
     * Lossless RDMA traffic's QoS: PFC, ECN and DCQCN on or off, and the priority (traffic class)
     * they act on.
     */
    public record Qos(boolean pfc, boolean ecn, boolean dcqcn, int priority) {
        /** The generators' profile: PFC, ECN and DCQCN on priority 3 ({@link QosProfile#roceLossless}). */
        public static final Qos DEFAULT = new Qos(true, true, true, QosProfile.RDMA_PRIORITY);

        /** {@code p} (a generator's lossless profile) changed to this QoS. */
        QosProfile apply(QosProfile p) {
            if (equals(DEFAULT)) {
                return p;
            }
            PfcConfig pfcCfg = pfc ? new PfcConfig(true, Set.of(priority), p.pfc().xoffBytes(), p.pfc().xonBytes(),
                    p.pfc().headroomBytes(), p.pfc().watchdogUs(), p.pfc().watchdogAction()) : PfcConfig.off();
            WredEcn curve = p.ecn().classes().get(QosProfile.RDMA_PRIORITY);
            EcnConfig ecnCfg = ecn ? new EcnConfig(true, Map.of(priority, curve), p.ecn().markAt()) : EcnConfig.off();
            return new QosProfile(p.name(), text(), pfcCfg, ecnCfg, p.dcqcn().withEnabled(dcqcn), p.buffer(), p.scheduler());
        }

        /** "RoCEv2: PFC and ECN on priority 4, DCQCN" and the like. */
        String text() {
            if (!pfc && !ecn) {
                return "best effort: no PFC, no ECN" + (dcqcn ? "" : ", no DCQCN");
            }
            return "RoCEv2: " + (pfc ? "PFC" : "no PFC") + ", " + (ecn ? "ECN" : "no ECN") + ", " + (dcqcn ? "DCQCN" : "no DCQCN")
                    + " on priority " + priority;
        }
    }

    /** The fabric: the generator's, then the switch products, the QoS, the transport label and the name. */
    public Fabric build() {
        Fabric f = switch (kind) {
            case LEAF_SPINE -> LeafSpineGenerator.generate(leafSpine);
            case RAIL -> RailOptimizedGenerator.generate(rail);
            case FAT_TREE -> FatTreeGenerator.generate(fatTree);
        };
        if (name != null) {
            f.setName(name);
        }
        for (Device d : f.switches()) {
            SwitchModel m = models.get(d.role());
            if (m != null) {
                d.setModel(SwitchSku.of(d) + " " + Models.words(m));
            }
            if (transport != null) {
                d.labels().put(TRANSPORT_LABEL, transport.jsonName());
            }
        }
        Map<String, QosProfile> changed = new HashMap<>();
        for (QosProfile p : f.qosProfiles().values()) {
            changed.put(p.name(), qos.apply(p));
        }
        changed.values().forEach(f::putQosProfile);
        return f;
    }

    /**
     * The parameters as short key=value pairs (the test corpus and docs/describe.md use these keys):
     * kind, the generator's parameters, gpu, the QoS, the transport, switch models by role, name.
     */
    public java.util.Map<String, String> params() {
        java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
        m.put("kind", kind.words().replace(' ', '-'));
        switch (kind) {
            case LEAF_SPINE -> {
                LeafSpineParams p = leafSpine;
                m.put("leaves", Integer.toString(p.leaves()));
                m.put("spines", Integer.toString(p.spines()));
                m.put("spl", Integer.toString(p.serversPerLeaf()));
                m.put("nics", Integer.toString(p.nicsPerServer()));
                m.put("nicG", Integer.toString(p.nicSpeedGbps()));
                m.put("upG", Integer.toString(p.uplinkSpeedGbps()));
                m.put("pair", Integer.toString(p.uplinksPerLeafSpinePair()));
                m.put("scable", metres(p.serverCableM()));
                m.put("ucable", metres(p.leafSpineCableM()));
                m.put("radix", p.switchRadix() == null ? "used" : Integer.toString(p.switchRadix()));
                m.put("servers", Integer.toString(p.serverCount()));
                m.put("gpu", p.scaleUp().gpu());
            }
            case RAIL -> {
                RailParams p = rail;
                m.put("units", Integer.toString(p.units()));
                m.put("spu", Integer.toString(p.serversPerUnit()));
                m.put("gps", Integer.toString(p.gpusPerServer()));
                m.put("radix", Integer.toString(p.radix()));
                m.put("speed", Integer.toString(p.speedGbps()));
                m.put("lup", Integer.toString(p.leafUplinks()));
                m.put("scable", metres(p.serverCableM()));
                m.put("ucable", metres(p.leafSpineCableM()));
                m.put("ccable", metres(p.spineCoreCableM()));
                m.put("upg", Integer.toString(p.unitsPerSpineGroup()));
                m.put("servers", Integer.toString(p.servers()));
                m.put("gpu", p.scaleUp().gpu());
            }
            case FAT_TREE -> {
                FatTreeParams p = fatTree;
                m.put("k", Integer.toString(p.k()));
                m.put("speed", Integer.toString(p.speedGbps()));
                m.put("spare", Integer.toString(p.sparePorts()));
                m.put("scable", metres(p.hostCableM()));
                m.put("ucable", metres(p.edgeAggCableM()));
                m.put("ccable", metres(p.aggCoreCableM()));
                m.put("servers", Integer.toString(p.hosts()));
                m.put("gpu", p.scaleUp().gpu());
            }
            default -> throw new IllegalStateException();
        }
        m.put("gpus", Long.toString(gpus()));
        m.put("pfc", qos.pfc() ? "on" : "off");
        m.put("ecn", qos.ecn() ? "on" : "off");
        m.put("dcqcn", qos.dcqcn() ? "on" : "off");
        m.put("prio", Integer.toString(qos.priority()));
        m.put("transport", transport == null ? "-" : transport.jsonName());
        for (DeviceRole r : List.of(DeviceRole.LEAF, DeviceRole.SPINE, DeviceRole.CORE)) {
            SwitchModel sm = models.get(r);
            m.put(r.jsonName() + "Model", sm == null ? "-" : Models.words(sm).replace(' ', '_'));
        }
        m.put("name", name == null ? "-" : name.replace(' ', '_'));
        return m;
    }

    private static String metres(double m) {
        return io.fabriclab.topology.PriceBook.formatMetres(m);
    }

    /** Switches, servers and GPUs the fabric will have, without building it. */
    public long gpus() {
        return switch (kind) {
            case LEAF_SPINE -> (long) leafSpine.serverCount() * leafSpine.nicsPerServer();
            case RAIL -> (long) rail.gpus();
            case FAT_TREE -> fatTree.hosts();
        };
    }
}
