package io.fabriclab.topology.describe;

import java.util.HashMap;
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
import io.fabriclab.topology.SwitchLatency.SwitchModel;
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

    /** Switches, servers and GPUs the fabric will have, without building it. */
    public long gpus() {
        return switch (kind) {
            case LEAF_SPINE -> (long) leafSpine.serverCount() * leafSpine.nicsPerServer();
            case RAIL -> (long) rail.gpus();
            case FAT_TREE -> fatTree.hosts();
        };
    }
}
