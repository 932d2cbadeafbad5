package io.fabriclab.topology;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Port;
import io.fabriclab.model.QosProfile;

/**
 * Builds a two-tier leaf-spine fabric. Names: leaf1..leafN, spine1..spineM, servers server01..
 * (zero-padded to the server count so they sort), switch ports eth1.. (on a leaf the server ports
 * come first, then the uplinks), server ports nic0..nic(G-1). A leaf and its servers share
 * {@code unit} = leaf index (a rack); every device has {@code pod} 0.
 */
public final class LeafSpineGenerator {
    /** Name of the default QoS profile every generator installs. */
    public static final String QOS_PROFILE = "roce-lossless";

    private LeafSpineGenerator() {
    }

    public static Fabric classic() {
        return generate(LeafSpineParams.classic());
    }

    public static Fabric generate(LeafSpineParams p) {
        Fabric f = new Fabric("leaf-spine " + p.leaves() + "x" + p.spines());
        f.setDescription(p.leaves() + " leaves, " + p.spines() + " spines, " + p.serverCount() + " servers x "
                + p.nicsPerServer() + " x " + p.nicSpeedGbps() + "G NICs, " + p.uplinksPerLeafSpinePair() + " x "
                + p.uplinkSpeedGbps() + "G per leaf-spine pair");
        f.putQosProfile(QosProfile.roceLossless(QOS_PROFILE, p.nicSpeedGbps()));
        String uplinkQos = null;
        if (p.uplinkSpeedGbps() != p.nicSpeedGbps()) {
            uplinkQos = QOS_PROFILE + "-" + p.uplinkSpeedGbps() + "g";
            f.putQosProfile(QosProfile.roceLossless(uplinkQos, p.uplinkSpeedGbps()));
        }
        Cabling c = new Cabling(f);

        int down = p.leafDownPorts();
        int up = p.leafUpPorts();
        int leafDownPorts = p.switchRadix() == null ? down : p.switchRadix() - up;
        int spinePorts = p.switchRadix() == null ? p.spinePortsUsed() : p.switchRadix();

        Device[] spines = new Device[p.spines()];
        for (int s = 0; s < p.spines(); s++) {
            spines[s] = c.addSwitch("spine" + Cabling.pad(s + 1, p.spines()), DeviceRole.SPINE, spinePorts,
                    p.uplinkSpeedGbps());
            spines[s].setPod(0);
            spines[s].setModel(SwitchSku.of(spines[s]));
        }
        int serverNo = 0;
        for (int l = 0; l < p.leaves(); l++) {
            Device leaf = f.addDevice("leaf" + Cabling.pad(l + 1, p.leaves()), DeviceRole.LEAF);
            leaf.addPorts(Cabling.SWITCH_PORT_PREFIX, 1, leafDownPorts, p.nicSpeedGbps());
            leaf.addPorts(Cabling.SWITCH_PORT_PREFIX, leafDownPorts + 1, up, p.uplinkSpeedGbps());
            leaf.setModel(SwitchSku.of(leaf));
            leaf.setUnit(l);
            leaf.setPod(0);
            int port = 1;
            for (int s = 0; s < p.serversPerLeaf(); s++) {
                serverNo++;
                Device srv = c.addServer("server" + Cabling.pad(serverNo, p.serverCount()), p.nicsPerServer(),
                        p.nicSpeedGbps());
                srv.setUnit(l);
                srv.setPod(0);
                srv.setScaleUp(p.scaleUp());
                for (int k = 0; k < p.nicsPerServer(); k++) {
                    c.connect(srv.port(Cabling.NIC_PORT_PREFIX + k), leaf.port(Cabling.SWITCH_PORT_PREFIX + port++),
                            p.nicSpeedGbps(), p.serverCableM());
                }
            }
            port = leafDownPorts + 1;
            for (Device spine : spines) {
                for (int m = 0; m < p.uplinksPerLeafSpinePair(); m++) {
                    Port a = leaf.port(Cabling.SWITCH_PORT_PREFIX + port++);
                    Port b = c.nextSwitchPort(spine);
                    c.connect(a, b, p.uplinkSpeedGbps(), p.leafSpineCableM());
                    if (uplinkQos != null) {
                        a.setQosProfile(uplinkQos);
                        b.setQosProfile(uplinkQos);
                    }
                }
            }
        }
        return f;
    }
}
