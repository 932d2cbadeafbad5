package io.fabriclab.io.config;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;

/**
 * The fabric the export tests read: 2 leaves and 1 spine, 4 servers. Leaves have eth1..eth4 at
 * 400G: eth1/eth2 to servers over 100G links, eth3 to the spine at 400G, eth4 left free. The spine
 * has eth1 to leaf1 and eth2 to leaf2. One profile, {@code QosProfile.roceLossless("roce", 400)}:
 * PFC on priority 3 (XOFF 1 MB, XON 800 kB, headroom 200 kB, watchdog 200 ms, drop), ECN on class
 * 3 with Kmin 800 kB, Kmax 3.2 MB, Pmax 0.2, a 64 MiB dynamic buffer with alpha 1, CNP class 6 in
 * strict priority and DWRR weight 1 for the other classes.
 */
final class ExportFixtures {

    private ExportFixtures() {
    }

    static Fabric lab(QosProfile profile) {
        Fabric f = new Fabric("lab");
        f.putQosProfile(profile);
        Device spine = f.addDevice("spine1", DeviceRole.SPINE);
        spine.addPorts("eth", 1, 2, 400);
        int server = 1;
        for (int l = 1; l <= 2; l++) {
            Device leaf = f.addDevice("leaf" + l, DeviceRole.LEAF);
            leaf.addPorts("eth", 1, 4, 400);
            for (int i = 1; i <= 2; i++) {
                Device s = f.addDevice("srv" + server++, DeviceRole.SERVER);
                s.addPort("eth1", 100, 0);
                f.connect(leaf.port("eth" + i), s.port("eth1"), 100, 2);
            }
            f.connect(leaf.port("eth3"), spine.port("eth" + l), 400, 30);
        }
        return f;
    }

    static Fabric lab() {
        return lab(QosProfile.roceLossless("roce", 400));
    }
}
