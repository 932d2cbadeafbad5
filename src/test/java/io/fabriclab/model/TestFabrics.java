package io.fabriclab.model;

/**
 * Hand-built fabrics for tests (independent of the topology generators, so analyses are tested
 * against fabrics whose shape the test itself states). Every fabric gets the RoCEv2 lossless
 * profile as its default QoS profile.
 */
public final class TestFabrics {
    private TestFabrics() {
    }

    /** A new port on {@code d} named eth1, eth2, ... in order. */
    public static Port nextPort(Device d, int speedGbps) {
        return d.addPort("eth" + (d.portCount() + 1), speedGbps);
    }

    /** Connects the next free port of each device. */
    public static Link connect(Fabric f, Device a, Device b, int speedGbps, double lengthM) {
        return f.connect(nextPort(a, speedGbps), nextPort(b, speedGbps), speedGbps, lengthM);
    }

    /** A server with {@code nics} NIC ports nic0..nic(n-1). */
    public static Device server(Fabric f, String id, int nics, int speedGbps) {
        Device s = f.addDevice(id, DeviceRole.SERVER);
        for (int k = 0; k < nics; k++) {
            s.addPort("nic" + k, speedGbps, k);
        }
        return s;
    }

    private static Fabric newFabric(String name, int speedGbps) {
        Fabric f = new Fabric(name);
        f.putQosProfile(QosProfile.roceLossless("rdma", speedGbps));
        return f;
    }

    /**
     * Two-tier leaf-spine: every leaf has {@code linksPerSpine} links to every spine; each leaf has
     * {@code serversPerLeaf} single-NIC servers. Leaves are leaf0.., spines spine0.., servers
     * srv{leaf}_{k}.
     */
    public static Fabric leafSpine(int leaves, int spines, int serversPerLeaf, int linksPerSpine) {
        Fabric f = newFabric("leaf-spine", 400);
        Device[] spine = new Device[spines];
        for (int s = 0; s < spines; s++) {
            spine[s] = f.addDevice("spine" + s, DeviceRole.SPINE);
        }
        for (int l = 0; l < leaves; l++) {
            Device leaf = f.addDevice("leaf" + l, DeviceRole.LEAF);
            for (int k = 0; k < serversPerLeaf; k++) {
                Device srv = server(f, "srv" + l + "_" + k, 1, 400);
                f.connect(srv.port("nic0"), nextPort(leaf, 400), 400, 3);
            }
            for (int s = 0; s < spines; s++) {
                for (int p = 0; p < linksPerSpine; p++) {
                    connect(f, leaf, spine[s], 400, 30);
                }
            }
        }
        return f;
    }

    /**
     * The k-ary fat tree (Al-Fares et al., SIGCOMM 2008): k pods of k/2 edge (LEAF) and k/2
     * aggregation (SPINE) switches, (k/2)^2 core switches, k/2 single-NIC hosts per edge switch.
     * Core switch (i, j) connects to aggregation switch i of every pod.
     */
    public static Fabric fatTree(int k) {
        int h = k / 2;
        Fabric f = newFabric("fat-tree-k" + k, 400);
        Device[][] core = new Device[h][h];
        for (int i = 0; i < h; i++) {
            for (int j = 0; j < h; j++) {
                core[i][j] = f.addDevice("core" + i + "_" + j, DeviceRole.CORE);
            }
        }
        for (int p = 0; p < k; p++) {
            Device[] agg = new Device[h];
            for (int i = 0; i < h; i++) {
                agg[i] = f.addDevice("agg" + p + "_" + i, DeviceRole.SPINE);
                agg[i].setPod(p);
                for (int j = 0; j < h; j++) {
                    connect(f, agg[i], core[i][j], 400, 100);
                }
            }
            for (int e = 0; e < h; e++) {
                Device edge = f.addDevice("edge" + p + "_" + e, DeviceRole.LEAF);
                edge.setPod(p);
                for (int i = 0; i < h; i++) {
                    connect(f, edge, agg[i], 400, 30);
                }
                for (int s = 0; s < h; s++) {
                    Device srv = server(f, "host" + p + "_" + e + "_" + s, 1, 400);
                    f.connect(srv.port("nic0"), nextPort(edge, 400), 400, 3);
                }
            }
        }
        return f;
    }

    /**
     * A rail-optimized three-tier Clos. Each unit u has {@code serversPerUnit} servers of
     * {@code rails} NICs; NIC k of every server goes to the unit's rail-k leaf ("leaf{u}_r{k}").
     * Units are grouped {@code unitsPerPod} to a pod; every leaf of a pod has one link to each of the
     * pod's {@code spinesPerPod} spines. Spine j of every pod belongs to plane j, which has
     * {@code coresPerPlane} cores; each spine has {@code spineCoreLinks} parallel links to each core
     * of its plane.
     *
     * <p>{@code railThreeTier(64, 32, 8, 4, 32, 8, 4)} is the 16,384-GPU benchmark fabric: 512 leaves
     * (32 down, 32 up), 512 spines (32 down, 32 up), 256 cores (64 down), 49,152 links.
     */
    public static Fabric railThreeTier(int units, int serversPerUnit, int rails, int unitsPerPod, int spinesPerPod,
                                       int coresPerPlane, int spineCoreLinks) {
        Fabric f = newFabric("rail-3tier-" + units, 400);
        int pods = (units + unitsPerPod - 1) / unitsPerPod;
        Device[][] core = new Device[spinesPerPod][coresPerPlane];
        for (int j = 0; j < spinesPerPod; j++) {
            for (int c = 0; c < coresPerPlane; c++) {
                core[j][c] = f.addDevice("core" + j + "_" + c, DeviceRole.CORE);
            }
        }
        Device[][] spine = new Device[pods][spinesPerPod];
        for (int p = 0; p < pods; p++) {
            for (int j = 0; j < spinesPerPod; j++) {
                Device s = f.addDevice("spine" + p + "_" + j, DeviceRole.SPINE);
                s.setPod(p);
                spine[p][j] = s;
                for (int c = 0; c < coresPerPlane; c++) {
                    for (int x = 0; x < spineCoreLinks; x++) {
                        connect(f, s, core[j][c], 400, 200);
                    }
                }
            }
        }
        for (int u = 0; u < units; u++) {
            int p = u / unitsPerPod;
            Device[] leaf = new Device[rails];
            for (int r = 0; r < rails; r++) {
                leaf[r] = f.addDevice("leaf" + u + "_r" + r, DeviceRole.LEAF);
                leaf[r].setUnit(u);
                leaf[r].setRail(r);
                leaf[r].setPod(p);
                for (int j = 0; j < spinesPerPod; j++) {
                    connect(f, leaf[r], spine[p][j], 400, 50);
                }
            }
            for (int s = 0; s < serversPerUnit; s++) {
                Device srv = server(f, "gpu" + u + "_" + s, rails, 400);
                srv.setUnit(u);
                for (int r = 0; r < rails; r++) {
                    f.connect(srv.port("nic" + r), nextPort(leaf[r], 400), 400, 3);
                }
            }
        }
        return f;
    }
}
