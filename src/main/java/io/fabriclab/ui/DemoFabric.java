package io.fabriclab.ui;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;

/**
 * The classic lab fabric the editor opens with until the generators land: 2 spines, 4 leaves, 32
 * GPU servers with one 100G NIC each; each leaf has 8 x 100G host ports and one 400G uplink to
 * each spine (800G down, 800G up: no oversubscription); PFC + ECN on priority 3.
 */
public final class DemoFabric {
    private DemoFabric() {
    }

    public static Fabric classic() {
        Fabric f = new Fabric("classic-4-leaf-2-spine");
        f.setDescription("4 leaves, 2 spines, 32 GPU servers; 100G host ports, 400G uplinks; PFC + ECN on priority 3");
        f.putQosProfile(QosProfile.roceLossless("rdma-lossless", 100));
        // 400G ports get ECN thresholds for 400G and 256 KB of PFC headroom: topology.HeadroomCalculator needs
        // 83,083 B on a 400G, 30 m link (MTU 4,200 B), so this leaves a wide margin.
        QosProfile fast = QosProfile.roceLossless("rdma-lossless-400g", 400);
        io.fabriclab.model.PfcConfig pfc = fast.pfc();
        f.putQosProfile(fast.withPfc(new io.fabriclab.model.PfcConfig(pfc.enabled(), pfc.priorities(), pfc.xoffBytes(),
                pfc.xonBytes(), 256_000, pfc.watchdogUs(), pfc.watchdogAction())));
        for (int s = 1; s <= 2; s++) {
            Device spine = f.addDevice("spine" + s, DeviceRole.SPINE);
            spine.setModel("32 x 400G");
            spine.addPorts("eth", 1, 32, 400);
            spine.setQosProfile("rdma-lossless-400g");
        }
        for (int l = 1; l <= 4; l++) {
            Device leaf = f.addDevice("leaf" + l, DeviceRole.LEAF);
            leaf.setModel("48 x 100G + 8 x 400G");
            leaf.addPorts("eth", 1, 48, 100);
            leaf.addPorts("eth", 49, 8, 400);
            for (int p = 49; p <= 56; p++) {
                leaf.port("eth" + p).setQosProfile("rdma-lossless-400g");
            }
            f.connect(leaf.port("eth49"), f.port("spine1:eth" + l), 400, 30);
            f.connect(leaf.port("eth50"), f.port("spine2:eth" + l), 400, 30);
        }
        for (int k = 0; k < 32; k++) {
            Device srv = f.addDevice("srv" + (k + 1), DeviceRole.SERVER);
            srv.addPort("nic0", 100, 0);
            f.connect(srv.port("nic0"), f.port("leaf" + (k / 8 + 1) + ":eth" + (k % 8 + 1)), 100, 3);
        }
        return f;
    }

    /**
     * A rail-optimised cluster for trying the editor at scale: {@code units} scalable units of
     * {@code serversPerUnit} servers with 8 GPUs and 8 x 400G NICs; NIC k of every server to rail
     * leaf k of its unit; every rail leaf to each of {@code spines} spines with one 400G uplink.
     * 64 units of 32 servers give 16,384 GPUs.
     */
    public static Fabric railOptimized(int units, int serversPerUnit, int spines) {
        Fabric f = new Fabric("rail-optimized-" + units * serversPerUnit * 8 + "-gpu");
        f.setDescription(units + " scalable units x " + serversPerUnit + " servers x 8 GPUs, 8 rails, " + spines
                + " spines");
        f.putQosProfile(QosProfile.roceLossless("rdma-lossless", 400));
        for (int s = 1; s <= spines; s++) {
            f.addDevice("spine" + s, DeviceRole.SPINE).addPorts("eth", 1, units * 8, 400);
        }
        for (int u = 0; u < units; u++) {
            for (int k = 0; k < 8; k++) {
                Device leaf = f.addDevice("su" + u + "-rail" + k, DeviceRole.LEAF);
                leaf.setUnit(u);
                leaf.setRail(k);
                leaf.addPorts("eth", 1, serversPerUnit + spines, 400);
                for (int s = 1; s <= spines; s++) {
                    f.connect(leaf.port("eth" + (serversPerUnit + s)), f.port("spine" + s + ":eth" + (u * 8 + k + 1)),
                            400, 30);
                }
            }
            for (int i = 1; i <= serversPerUnit; i++) {
                Device srv = f.addDevice("su" + u + "-srv" + i, DeviceRole.SERVER);
                srv.setUnit(u);
                for (int k = 0; k < 8; k++) {
                    srv.addPort("nic" + k, 400, k);
                    f.connect(srv.port("nic" + k), f.port("su" + u + "-rail" + k + ":eth" + i), 400, 3);
                }
            }
        }
        return f;
    }
}
