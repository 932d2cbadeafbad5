package io.fabriclab.topology;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.model.QosProfile;

/** Small hand-drawable fabrics that show one behaviour each, for docs, tests and demos. */
public final class ExampleFabrics {
    /** The link whose failure makes {@link #deadlockProne()} deadlock-prone. */
    public static final String DEADLOCK_TRIGGER_LINK = "leaf3:eth2--spine2:eth3";

    private ExampleFabrics() {
    }

    /**
     * A PFC deadlock waiting for one link failure. Two spines, four leaves, one 100G server per leaf,
     * 400G uplinks, RoCEv2 lossless on priority 3:
     * <pre>
     *   spine1: leaf1 leaf2 leaf3
     *   spine2: leaf1 leaf2 leaf3 leaf4     (leaf4's second uplink is not cabled)
     *   leafN:  serverN
     * </pre>
     * Healthy, every pair of leaves shares a spine, so all shortest paths go up once and down once and
     * the buffer dependencies form no cycle. Fail {@value #DEADLOCK_TRIGGER_LINK} (leaf3's uplink to
     * spine2): leaf3 and leaf4 now share no spine, and their traffic bounces through leaf1 and leaf2
     * (leaf3-spine1-leaf1/leaf2-spine2-leaf4 and back). Together with the ordinary leaf1-leaf2 traffic
     * over both spines, the ingress queues spine1&lt;-leaf1, leaf2&lt;-spine1, spine2&lt;-leaf2,
     * leaf1&lt;-spine2 wait on each other in a ring: a cyclic buffer dependency. By symmetry the
     * spine2 uplink of leaf1 or leaf2 does the same; no other single link failure does.
     */
    public static Fabric deadlockProne() {
        Fabric f = new Fabric("deadlock-prone");
        f.setDescription("Leaf-spine with a single-homed leaf4: failing " + DEADLOCK_TRIGGER_LINK
                + " creates a cyclic buffer dependency");
        f.putQosProfile(QosProfile.roceLossless("rdma", 400));
        Device spine1 = f.addDevice("spine1", DeviceRole.SPINE);
        Device spine2 = f.addDevice("spine2", DeviceRole.SPINE);
        spine1.addPorts("eth", 1, 4, 400);
        spine2.addPorts("eth", 1, 4, 400);
        int[] spine1Port = {1};
        int[] spine2Port = {1};
        for (int i = 1; i <= 4; i++) {
            Device leaf = f.addDevice("leaf" + i, DeviceRole.LEAF);
            leaf.addPorts("eth", 1, 2, 400);
            leaf.addPort("host1", 100);
            Device srv = f.addDevice("server" + i, DeviceRole.SERVER);
            Port nic = srv.addPort("nic0", 100, 0);
            f.connect(nic, leaf.port("host1"), 100, 3);
            if (i <= 3) {
                f.connect(leaf.port("eth1"), spine1.port("eth" + spine1Port[0]++), 400, 20);
            }
            f.connect(leaf.port(i <= 3 ? "eth2" : "eth1"), spine2.port("eth" + spine2Port[0]++), 400, 20);
        }
        return f;
    }

    /** The link of {@link #deadlockProne()} whose failure creates the cycle. */
    public static Link deadlockTrigger(Fabric deadlockProne) {
        return deadlockProne.link(DEADLOCK_TRIGGER_LINK);
    }
}
