package io.fabriclab.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;

import io.fabriclab.model.CableType;
import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.model.QosProfile;

import org.junit.jupiter.api.Test;

class LeafSpineGeneratorTest {

    @Test
    void classicLabHasFourLeavesTwoSpinesThirtyTwoServersAndFortyCables() {
        Fabric f = LeafSpineGenerator.classic();
        // 4 leaves x 8 servers = 32 servers; 32 server-leaf cables + 4 leaves x 2 spines x 1 = 8 uplinks.
        assertEquals(4, f.devices(DeviceRole.LEAF).size());
        assertEquals(2, f.devices(DeviceRole.SPINE).size());
        assertEquals(32, f.servers().size());
        assertEquals(32 + 8, f.linkCount());
        assertEquals(32, f.gpuCount());
        long serverLinks = f.links().stream().filter(l -> l.a().device().role() == DeviceRole.SERVER
                || l.b().device().role() == DeviceRole.SERVER).count();
        assertEquals(32, serverLinks);
    }

    @Test
    void classicLabRunsHundredGigToServersAndFourHundredGigUplinksOnDacAndOptics() {
        Fabric f = LeafSpineGenerator.classic();
        for (Link l : f.links()) {
            boolean toServer = l.a().device().role() == DeviceRole.SERVER || l.b().device().role() == DeviceRole.SERVER;
            assertEquals(toServer ? 100 : 400, l.speedGbps(), l.id());
            // 3 m is within DAC reach; 30 m needs multimode optics (CableType.forLength).
            assertEquals(toServer ? CableType.DAC : CableType.MMF, l.cableType(), l.id());
            assertEquals(toServer ? 3.0 : 30.0, l.cableLengthM(), l.id());
        }
    }

    @Test
    void namesAreReadableAndServerPortsCarryTheirNicIndex() {
        Fabric f = LeafSpineGenerator.classic();
        assertNotNull(f.device("leaf1"));
        assertNotNull(f.device("leaf4"));
        assertNotNull(f.device("spine2"));
        assertNotNull(f.device("server01"));
        assertNotNull(f.device("server32"));
        Port nic = f.port("server01:nic0");
        assertEquals(0, nic.nic());
        // server01 is the first server of leaf1, on its first port.
        assertEquals(f.port("leaf1:eth1"), f.linkAt(nic).opposite(nic));
        // server09 is the first server of leaf2; leaf ports eth9, eth10 are the uplinks.
        assertEquals("leaf2", f.linkAt(f.port("server09:nic0")).other(f.device("server09")).id());
        assertEquals(Set.of("spine1", "spine2"), Set.of(
                f.linkAt(f.port("leaf1:eth9")).other(f.device("leaf1")).id(),
                f.linkAt(f.port("leaf1:eth10")).other(f.device("leaf1")).id()));
        assertEquals("2x400G+8x100G", f.device("leaf1").model());
    }

    @Test
    void installsALosslessRoceProfileOnPriorityThreePerPortSpeed() {
        Fabric f = LeafSpineGenerator.classic();
        QosProfile hostSide = f.qosFor(f.port("leaf1:eth1"));
        QosProfile uplink = f.qosFor(f.port("leaf1:eth9"));
        assertTrue(hostSide.pfc().enabled());
        assertTrue(hostSide.pfc().priorities().contains(QosProfile.RDMA_PRIORITY));
        assertTrue(hostSide.ecn().enabled());
        // roceLossless scales ECN thresholds: 100G Kmin 400 KB, 400G Kmin 800 KB.
        assertEquals(400_000, hostSide.ecn().classes().get(3).kminBytes());
        assertEquals(800_000, uplink.ecn().classes().get(3).kminBytes());
    }

    @Test
    void everyLeafReachesEverySpineWithTheRequestedParallelLinks() {
        LeafSpineParams p = new LeafSpineParams(6, 4, 16, 2, 200, 2, 400, 2, 40, 64);
        Fabric f = LeafSpineGenerator.generate(p);
        for (Device leaf : f.devices(DeviceRole.LEAF)) {
            for (Device spine : f.devices(DeviceRole.SPINE)) {
                assertEquals(2, f.linksBetween(leaf, spine).size());
            }
            // radix 64: 64 - 4 x 2 uplinks = 56 server-speed ports, of which 16 x 2 are used.
            assertEquals(64, leaf.portCount());
            assertEquals(32 + 8, f.linksOf(leaf).size());
        }
        for (Device spine : f.devices(DeviceRole.SPINE)) {
            assertEquals(64, spine.portCount());
            assertEquals(6 * 2, f.linksOf(spine).size());
        }
        // 2 NICs per server, both to the server's leaf.
        assertEquals(6 * 16 * 2, f.servers().stream().mapToInt(Device::gpus).sum());
    }

    @Test
    void refusesASwitchRadixTooSmallForTheDesign() {
        // A leaf needs 8 server ports + 2 uplinks = 10 > 8.
        assertThrows(IllegalArgumentException.class, () -> LeafSpineParams.classic().withSwitchRadix(8));
        assertThrows(IllegalArgumentException.class, () -> new LeafSpineParams(4, 2, 8, 1, 123, 1, 400, 3, 30, null));
    }
}
