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
        for (int s = 1; s <= 2; s++) {
            Device spine = f.addDevice("spine" + s, DeviceRole.SPINE);
            spine.setModel("32 x 400G");
            spine.addPorts("eth", 1, 32, 400);
        }
        for (int l = 1; l <= 4; l++) {
            Device leaf = f.addDevice("leaf" + l, DeviceRole.LEAF);
            leaf.setModel("48 x 100G + 8 x 400G");
            leaf.addPorts("eth", 1, 48, 100);
            leaf.addPorts("eth", 49, 8, 400);
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
}
