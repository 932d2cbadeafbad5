package io.fabriclab.topology;

import java.util.IdentityHashMap;
import java.util.Map;

import io.fabriclab.model.CableType;
import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;

/**
 * Cabling helper shared by the generators: hands out switch ports eth1, eth2, ... in order and
 * connects them, without rescanning ports (the 64-unit rail fabric has about 50,000 links).
 */
final class Cabling {
    static final String SWITCH_PORT_PREFIX = "eth";
    static final String NIC_PORT_PREFIX = "nic";

    private final Fabric fabric;
    private final Map<Device, Integer> nextPort = new IdentityHashMap<>();

    Cabling(Fabric fabric) {
        this.fabric = fabric;
    }

    /** Adds a switch with {@code ports} ports eth1..ethN of the given speed. */
    Device addSwitch(String id, DeviceRole role, int ports, int speedGbps) {
        Device d = fabric.addDevice(id, role);
        d.addPorts(SWITCH_PORT_PREFIX, 1, ports, speedGbps);
        return d;
    }

    /** Adds a server with NIC ports nic0..nic(g-1), NIC index set on each. */
    Device addServer(String id, int nics, int speedGbps) {
        Device d = fabric.addDevice(id, DeviceRole.SERVER);
        for (int k = 0; k < nics; k++) {
            d.addPort(NIC_PORT_PREFIX + k, speedGbps, k);
        }
        return d;
    }

    /** The next unused eth port of a switch; fails loudly when the radix is exhausted. */
    Port nextSwitchPort(Device sw) {
        int n = nextPort.merge(sw, 1, Integer::sum);
        Port p = sw.port(SWITCH_PORT_PREFIX + n);
        if (p == null) {
            throw new IllegalStateException("switch " + sw.id() + " has no port " + SWITCH_PORT_PREFIX + n
                    + " (radix " + sw.portCount() + " exhausted)");
        }
        return p;
    }

    /** Ports handed out so far on a switch. */
    int used(Device sw) {
        return nextPort.getOrDefault(sw, 0);
    }

    /** Connects two given ports. */
    Link connect(Port a, Port b, int speedGbps, double lengthM) {
        return fabric.connect(a, b, speedGbps, lengthM, CableType.forLength(lengthM));
    }

    /** Connects a server NIC to the next free port of a switch. */
    Link nicToSwitch(Device server, int nic, Device sw, int speedGbps, double lengthM) {
        Port a = server.port(NIC_PORT_PREFIX + nic);
        return fabric.connect(a, nextSwitchPort(sw), speedGbps, lengthM, CableType.forLength(lengthM));
    }

    /** Connects the next free ports of two switches, {@code lower} first so links read bottom-up. */
    Link switchToSwitch(Device lower, Device upper, int speedGbps, double lengthM) {
        return fabric.connect(nextSwitchPort(lower), nextSwitchPort(upper), speedGbps, lengthM,
                CableType.forLength(lengthM));
    }

    /** Zero-padded decimal of {@code i} to the width of {@code max}: (7, 32) gives "07". */
    static String pad(int i, int max) {
        int width = Integer.toString(max).length();
        String s = Integer.toString(i);
        return "0".repeat(Math.max(0, width - s.length())) + s;
    }
}
