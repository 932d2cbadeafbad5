package io.fabriclab.sim;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;

/** Small fabrics built with the Fabric API for simulator tests and the benchmark. */
public final class TestFabrics {
    private TestFabrics() {
    }

    /** A server with one NIC port "nic0" (NIC index 0). */
    public static Device server(Fabric f, String id, int gbps) {
        Device s = f.addDevice(id, DeviceRole.SERVER);
        s.addPort("nic0", gbps, 0);
        return s;
    }

    /** {@code servers} servers s0..s(n-1) on one switch "leaf0", every link at {@code gbps} and {@code cableM}. */
    public static Fabric star(int servers, int gbps, double cableM, QosProfile qos) {
        Fabric f = new Fabric("star" + servers);
        if (qos != null) {
            f.putQosProfile(qos);
        }
        Device leaf = f.addDevice("leaf0", DeviceRole.LEAF);
        leaf.addPorts("eth", 0, servers, gbps);
        for (int i = 0; i < servers; i++) {
            Device s = server(f, "s" + i, gbps);
            f.connect(s.port("nic0"), leaf.port("eth" + i), gbps, cableM);
        }
        return f;
    }

    /**
     * A GPU cluster in miniature: {@code servers} servers s0.. with {@code gpus} GPUs and one NIC per
     * GPU (nic0.., NIC index k), NIC k of every server on rail switch "rail{k}"; with
     * {@code spine}, every rail switch also has one uplink per server to spine "spine0" (non-blocking),
     * so GPUs on different rails can reach each other. Servers declare {@code scaleUp}.
     */
    public static Fabric railStar(int servers, int gpus, int gbps, double cableM, QosProfile qos,
                                  io.fabriclab.model.ScaleUp scaleUp, boolean spine) {
        Fabric f = new Fabric("rails" + servers + "x" + gpus);
        if (qos != null) {
            f.putQosProfile(qos);
        }
        Device sp = null;
        if (spine) {
            sp = f.addDevice("spine0", DeviceRole.SPINE);
            sp.addPorts("eth", 0, servers * gpus, gbps);
        }
        for (int k = 0; k < gpus; k++) {
            Device rail = f.addDevice("rail" + k, DeviceRole.LEAF);
            rail.addPorts("eth", 0, servers * (spine ? 2 : 1), gbps);
            if (sp != null) {
                for (int u = 0; u < servers; u++) {
                    f.connect(rail.port("eth" + (servers + u)), sp.port("eth" + (k * servers + u)), gbps, cableM);
                }
            }
        }
        for (int i = 0; i < servers; i++) {
            Device s = f.addDevice("s" + i, DeviceRole.SERVER);
            s.setScaleUp(scaleUp);
            for (int k = 0; k < gpus; k++) {
                s.addPort("nic" + k, gbps, k);
                f.connect(s.port("nic" + k), f.device("rail" + k).port("eth" + i), gbps, cableM);
            }
        }
        return f;
    }

    /**
     * Two-tier leaf-spine: leaves leaf0.., spines spine0.., {@code perLeaf} servers s{leaf}_{i} on
     * each leaf at {@code hostGbps}, one uplink from each leaf to each spine at {@code upGbps}.
     */
    public static Fabric leafSpine(int leaves, int spines, int perLeaf, int hostGbps, int upGbps, double cableM,
                                   QosProfile qos) {
        Fabric f = new Fabric("ls");
        if (qos != null) {
            f.putQosProfile(qos);
        }
        Device[] sp = new Device[spines];
        for (int s = 0; s < spines; s++) {
            sp[s] = f.addDevice("spine" + s, DeviceRole.SPINE);
            sp[s].addPorts("eth", 0, leaves, upGbps);
        }
        for (int l = 0; l < leaves; l++) {
            Device leaf = f.addDevice("leaf" + l, DeviceRole.LEAF);
            leaf.addPorts("down", 0, perLeaf, hostGbps);
            leaf.addPorts("up", 0, spines, upGbps);
            for (int s = 0; s < spines; s++) {
                f.connect(leaf.port("up" + s), sp[s].port("eth" + l), upGbps, cableM);
            }
            for (int i = 0; i < perLeaf; i++) {
                Device srv = server(f, "s" + l + "_" + i, hostGbps);
                f.connect(srv.port("nic0"), leaf.port("down" + i), hostGbps, cableM);
            }
        }
        return f;
    }

    /**
     * {@code n} leaf switches L0..L(n-1) in a ring (L{i}:e1 to L{i+1}:e0), one server h{i} on each
     * (its nic0 on L{i}:e2); every link at {@code gbps} and {@code cableM}.
     */
    public static Fabric ring(int n, int gbps, double cableM) {
        Fabric f = new Fabric("ring" + n);
        Device[] l = new Device[n];
        for (int i = 0; i < n; i++) {
            l[i] = f.addDevice("L" + i, DeviceRole.LEAF);
            l[i].addPorts("e", 0, 3, gbps);
        }
        for (int i = 0; i < n; i++) {
            f.connect(l[i].port("e1"), l[(i + 1) % n].port("e0"), gbps, cableM);
            Device h = server(f, "h" + i, gbps);
            f.connect(h.port("nic0"), l[i].port("e2"), gbps, cableM);
        }
        return f;
    }

    /**
     * The k-ary fat-tree of Al-Fares et al.: k pods of k/2 edge and k/2 aggregation switches,
     * (k/2)^2 core switches, k^3/4 hosts h0..; every link at {@code gbps} with {@code cableM}.
     */
    public static Fabric fatTree(int k, int gbps, double cableM, QosProfile qos) {
        Fabric f = new Fabric("fattree" + k);
        if (qos != null) {
            f.putQosProfile(qos);
        }
        int half = k / 2;
        Device[] core = new Device[half * half];
        for (int c = 0; c < core.length; c++) {
            core[c] = f.addDevice("core" + c, DeviceRole.CORE);
            core[c].addPorts("p", 0, k, gbps);
        }
        int host = 0;
        for (int pod = 0; pod < k; pod++) {
            Device[] agg = new Device[half];
            for (int a = 0; a < half; a++) {
                agg[a] = f.addDevice("agg" + pod + "_" + a, DeviceRole.SPINE);
                agg[a].addPorts("down", 0, half, gbps);
                agg[a].addPorts("up", 0, half, gbps);
                for (int u = 0; u < half; u++) {
                    f.connect(agg[a].port("up" + u), core[a * half + u].port("p" + pod), gbps, cableM);
                }
            }
            for (int e = 0; e < half; e++) {
                Device edge = f.addDevice("edge" + pod + "_" + e, DeviceRole.LEAF);
                edge.addPorts("down", 0, half, gbps);
                edge.addPorts("up", 0, half, gbps);
                for (int a = 0; a < half; a++) {
                    f.connect(edge.port("up" + a), agg[a].port("down" + e), gbps, cableM);
                }
                for (int h = 0; h < half; h++) {
                    Device srv = server(f, "h" + host++, gbps);
                    f.connect(srv.port("nic0"), edge.port("down" + h), gbps, cableM);
                }
            }
        }
        return f;
    }
}
