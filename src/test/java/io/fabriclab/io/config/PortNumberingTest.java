package io.fabriclab.io.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Port;

class PortNumberingTest {
    private final Device leaf = new Device("leaf1", DeviceRole.LEAF);

    @Test
    void sonicNamesFollowTheFirstLaneOfEachPort() {
        Port eth1 = leaf.addPort("eth1", 400);
        Port eth64 = leaf.addPort("eth64", 400);
        assertEquals("Ethernet0", PortNumbering.sonic(eth1, 8));
        // eth64 on 8 lanes per port: (64 - 1) * 8 = 504.
        assertEquals("Ethernet504", PortNumbering.sonic(eth64, 8));
        assertEquals("Ethernet252", PortNumbering.sonic(eth64, 4));
    }

    @Test
    void eosAndNxosNamesUseTheFrontPanelNumber() {
        Port fast = leaf.addPort("eth7", 400);
        Port slow = leaf.addPort("swp9", 25);
        assertEquals("Ethernet7/1", PortNumbering.eos(fast));
        assertEquals("Ethernet9", PortNumbering.eos(slow));
        assertEquals("Ethernet1/7", PortNumbering.nxos(fast));
    }

    @Test
    void namesWithoutAFrontPanelNumberAreRefused() {
        assertThrows(UnexportableQosException.class, () -> PortNumbering.number(leaf.addPort("mgmt", 1)));
        assertThrows(UnexportableQosException.class, () -> PortNumbering.number(leaf.addPort("eth0", 400)));
        assertThrows(UnexportableQosException.class, () -> PortNumbering.number(leaf.addPort("eth1/2", 400)));
    }
}
