package io.fabriclab.diagram;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;

/** Small fabrics built with the model API for diagram and edit tests. */
public final class TestFabrics {
    private TestFabrics() {
    }

    /**
     * The classic lab leaf-spine: 4 leaves (8 x 100G down eth1-8, 2 x 400G up eth9-10), 2 spines
     * (4 x 400G), 32 one-NIC servers; server k on leaf k/8 + 1, leaf j eth9 to spine1, eth10 to spine2.
     */
    public static Fabric classic() {
        Fabric f = new Fabric("classic");
        for (int s = 1; s <= 2; s++) {
            f.addDevice("spine" + s, DeviceRole.SPINE).addPorts("eth", 1, 4, 400);
        }
        for (int l = 1; l <= 4; l++) {
            Device leaf = f.addDevice("leaf" + l, DeviceRole.LEAF);
            leaf.addPorts("eth", 1, 8, 100);
            leaf.addPorts("eth", 9, 2, 400);
            f.connect(leaf.port("eth9"), f.port("spine1:eth" + l), 400, 30);
            f.connect(leaf.port("eth10"), f.port("spine2:eth" + l), 400, 30);
        }
        for (int k = 0; k < 32; k++) {
            Device srv = f.addDevice("srv" + (k + 1), DeviceRole.SERVER);
            srv.addPort("nic0", 100, 0);
            f.connect(srv.port("nic0"), f.port("leaf" + (k / 8 + 1) + ":eth" + (k % 8 + 1)), 100, 3);
        }
        return f;
    }

    /**
     * A rail-optimised fabric: {@code units} scalable units of {@code servers} 8-NIC servers and 8
     * rail leaves (rail k, unit u); NIC k of every server to rail leaf k of its unit; every leaf
     * to each of {@code spines} spines. Devices are added in a scrambled order (rails 7..0, units
     * last to first) so layout order cannot come from insertion order.
     */
    public static Fabric railUnits(int units, int servers, int spines) {
        Fabric f = new Fabric("rails");
        for (int s = spines; s >= 1; s--) {
            f.addDevice("spine" + s, DeviceRole.SPINE).addPorts("eth", 1, units * 8, 400);
        }
        for (int u = units - 1; u >= 0; u--) {
            for (int k = 7; k >= 0; k--) {
                Device leaf = f.addDevice("su" + u + "-rail" + k, DeviceRole.LEAF);
                leaf.setUnit(u);
                leaf.setRail(k);
                leaf.addPorts("eth", 1, servers + spines, 400);
                for (int s = 1; s <= spines; s++) {
                    f.connect(leaf.port("eth" + (servers + s)), f.port("spine" + s + ":eth" + (u * 8 + k + 1)), 400, 30);
                }
            }
            for (int i = servers; i >= 1; i--) {
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
