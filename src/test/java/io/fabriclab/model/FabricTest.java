package io.fabriclab.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

class FabricTest {

    private static Fabric twoSwitches() {
        Fabric f = new Fabric("t");
        Device a = f.addDevice("leaf1", DeviceRole.LEAF);
        a.addPorts("eth", 1, 4, 400);
        Device b = f.addDevice("spine1", DeviceRole.SPINE);
        b.addPorts("eth", 1, 4, 400);
        return f;
    }

    @Test
    void parallelLinksAreDistinctEdges() {
        Fabric f = twoSwitches();
        Device a = f.device("leaf1");
        Device b = f.device("spine1");
        f.connect(a.port("eth1"), b.port("eth1"), 400, 10);
        f.connect(a.port("eth2"), b.port("eth2"), 400, 10);
        assertEquals(2, f.linksBetween(a, b).size());
        assertEquals(2, f.graph().edgeSet().size());
        assertEquals(List.of(b), f.neighbors(a));
    }

    @Test
    void aPortCarriesOneLinkAndSelfLoopsAreRefused() {
        Fabric f = twoSwitches();
        Device a = f.device("leaf1");
        Device b = f.device("spine1");
        f.connect(a.port("eth1"), b.port("eth1"), 400, 10);
        assertThrows(IllegalArgumentException.class, () -> f.connect(a.port("eth1"), b.port("eth2"), 400, 10));
        assertThrows(IllegalArgumentException.class, () -> f.connect(a.port("eth2"), a.port("eth3"), 400, 10));
    }

    @Test
    void removingADeviceRemovesItsLinksAndFreesPeerPorts() {
        Fabric f = twoSwitches();
        Device a = f.device("leaf1");
        Device b = f.device("spine1");
        f.connect(a.port("eth1"), b.port("eth1"), 400, 10);
        f.removeDevice(a);
        assertEquals(0, f.linkCount());
        assertNull(f.linkAt(b.port("eth1")));
    }

    @Test
    void findLinkAcceptsIdPortOrDevicePair() {
        Fabric f = twoSwitches();
        Link l = f.connect(f.port("leaf1:eth1"), f.port("spine1:eth1"), 400, 10);
        assertSame(l, f.findLink("leaf1:eth1--spine1:eth1"));
        assertSame(l, f.findLink("spine1:eth1"));
        assertSame(l, f.findLink("leaf1-spine1"));
        assertNull(f.findLink("leaf1-spine9"));
    }

    @Test
    void qosResolvesPortThenDeviceThenDefault() {
        Fabric f = twoSwitches();
        f.putQosProfile(QosProfile.roceLossless("rdma", 400));
        f.putQosProfile(QosProfile.bestEffort("be"));
        Port p = f.port("leaf1:eth1");
        assertEquals("rdma", f.qosFor(p).name());
        p.device().setQosProfile("be");
        assertEquals("be", f.qosFor(p).name());
        p.setQosProfile("rdma");
        assertEquals("rdma", f.qosFor(p).name());
    }

    @Test
    void serializationTimeIsBytesTimesEightOverRate() {
        // 4096 B at 100 Gb/s: 32768 bits / 1e11 b/s = 327.68 ns = 327 680 ps exactly.
        assertEquals(327_680L, Units.serializationPs(4096, Units.gbpsToBps(100)));
        // 1 B at 800 Gb/s: 8 / 8e11 s = 10 ps (SIMULATION.md).
        assertEquals(10L, Units.serializationPs(1, Units.gbpsToBps(800)));
        // 1 B at 3 b/s rounds up: 8/3 s = 2.666.. s -> 2 666 666 666 667 ps.
        assertEquals(2_666_666_666_667L, Units.serializationPs(1, 3));
        // 100 MB at 400G takes the BigInteger path: 8e8 bits / 4e11 = 2 ms.
        assertEquals(2_000_000_000L, Units.serializationPs(100_000_000L, Units.gbpsToBps(400)));
    }

    @Test
    void wredCurveFollowsTheFormula() {
        WredEcn w = new WredEcn(100, 300, 0.2);
        assertEquals(0.0, w.markProbability(99));
        assertEquals(0.0, w.markProbability(100));
        // halfway: 0.2 * (200-100)/(300-100) = 0.1
        assertEquals(0.1, w.markProbability(200), 1e-12);
        assertEquals(1.0, w.markProbability(300));
    }

    @Test
    void aServerHasOneGpuPerDistinctNicUnlessSet() {
        Device s = new Device("s1", DeviceRole.SERVER);
        s.addPort("nic0", 400, 0);
        s.addPort("nic0b", 400, 0); // a second port of NIC 0: still one GPU
        s.addPort("nic7", 400, 7);
        s.addPort("mgmt", 1, null); // no NIC: no GPU
        s.addPort("nic63", 400, 63); // the last index of the bit set
        s.addPort("nic64", 400, 64); // past it: counted by the set
        s.addPort("nic64b", 400, 64);
        s.addPort("nic100", 400, 100);
        // Distinct NICs: 0, 7, 63, 64, 100 = 5.
        assertEquals(5, s.gpus());
        s.setGpus(8);
        assertEquals(8, s.gpus()); // set explicitly
        Device leaf = new Device("leaf1", DeviceRole.LEAF);
        leaf.addPort("eth1", 400, 3);
        assertEquals(0, leaf.gpus()); // switches have none
    }
}
