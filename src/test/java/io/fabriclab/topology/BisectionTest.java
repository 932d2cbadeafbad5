package io.fabriclab.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.LinkState;

import org.junit.jupiter.api.Test;

class BisectionTest {

    @Test
    void kFourFatTreeHasFullBisection() {
        // 16 hosts x 400G; pods 1-2 send to pods 3-4: ideal 8 x 400 = 3200G. The only way out of
        // pods 1-2 is their 2 aggs x 2 core links each = 4 x 400 = 1600G per pod, 3200G in all.
        Bisection b = Bisection.of(FatTreeGenerator.generate(4));
        assertEquals(3200, b.idealGbps());
        assertEquals(3200, b.bandwidthGbps(), 1e-6);
        assertEquals(1.0, b.ratio(), 1e-9);
        assertTrue(b.firstHalf().stream().allMatch(id -> id.startsWith("pod1-") || id.startsWith("pod2-")));
        assertTrue(b.secondHalf().stream().allMatch(id -> id.startsWith("pod3-") || id.startsWith("pod4-")));
    }

    @Test
    void classicLabHasFullBisectionAcrossItsSpines() {
        // servers of leaf1-2 (16 x 100G = 1600G) to those of leaf3-4; leaf1-2 uplinks: 2 x 2 x 400 = 1600G.
        Bisection b = Bisection.of(LeafSpineGenerator.classic());
        assertEquals(1600, b.idealGbps());
        assertEquals(1600, b.bandwidthGbps(), 1e-6);
        assertEquals(List.of("server01", "server16"), List.of(b.firstHalf().get(0), b.firstHalf().get(15)));
    }

    @Test
    void halvingTheLeafUplinksHalvesTheBisection() {
        // 8 SU, 16 uplinks per leaf: SU 1-4 have 4 x 32 x 8 x 400 = 409,600G of NICs but their 32
        // leaves only 32 x 16 x 400 = 204,800G of uplinks: ratio 0.5.
        Fabric f = RailOptimizedGenerator.generate(RailParams.of(8).withLeafUplinks(16));
        Bisection b = Bisection.of(f);
        assertEquals(409_600, b.idealGbps());
        assertEquals(204_800, b.bandwidthGbps(), 1e-6);
        assertEquals(0.5, b.ratio(), 1e-9);
    }

    @Test
    void threeTierRailFabricCutsThroughTheCore() {
        // 16 SU: SU 1-8 to SU 9-16; ideal 8 x 256 x 400 = 819,200G, all of it through the cores.
        Bisection b = Bisection.of(RailOptimizedGenerator.generate(16));
        assertEquals(819_200, b.idealGbps());
        assertEquals(1.0, b.ratio(), 1e-9);
        assertTrue(b.firstHalf().get(b.firstHalf().size() - 1).startsWith("su08-"));
    }

    @Test
    void downUplinksReduceTheBisection() {
        Fabric f = LeafSpineGenerator.classic();
        // leaf1 loses one of its two uplinks: the first half can push 400 + 800 = 1200G.
        f.linksBetween(f.device("leaf1"), f.device("spine1")).get(0).setState(LinkState.DOWN);
        assertEquals(1200, Bisection.of(f).bandwidthGbps(), 1e-6);
        assertEquals(0.75, Bisection.of(f).ratio(), 1e-9);
    }

    @Test
    void serversNeverCarryTransitTraffic() {
        // s1 sits on L1 only; t (same unit) on L1 and L2; s2, s3 on L2. L1 and L2 are not joined.
        // Halves: {s1, t} send to {s2, s3}. Only t's own 100G NIC on L2 crosses; s1 could reach L2
        // only through t, which a server never forwards. Ideal: min(300, 200) = 200G; ratio 0.5.
        Fabric f = new Fabric("transit");
        Device l1 = f.addDevice("L1", DeviceRole.LEAF);
        l1.addPorts("eth", 1, 4, 100);
        Device l2 = f.addDevice("L2", DeviceRole.LEAF);
        l2.addPorts("eth", 1, 4, 100);
        Device s1 = server(f, "s1", 0, 1);
        Device t = server(f, "t", 0, 2);
        Device s2 = server(f, "s2", 1, 1);
        Device s3 = server(f, "s3", 1, 1);
        f.connect(s1.port("nic0"), l1.port("eth1"), 100, 2);
        f.connect(t.port("nic0"), l1.port("eth2"), 100, 2);
        f.connect(t.port("nic1"), l2.port("eth1"), 100, 2);
        f.connect(s2.port("nic0"), l2.port("eth2"), 100, 2);
        f.connect(s3.port("nic0"), l2.port("eth3"), 100, 2);
        Bisection b = Bisection.of(f);
        assertEquals(List.of("s1", "t"), b.firstHalf());
        assertEquals(200, b.idealGbps());
        assertEquals(100, b.bandwidthGbps(), 1e-6);
    }

    @Test
    void parallelLinksAddUp() {
        // 2 leaves x 4 servers x 100G under one spine, 2 parallel 200G links per leaf: leaf1's
        // servers (400G) cross on 2 x 200 = 400G; counting one of the two links would give 200G.
        Fabric f = LeafSpineGenerator.generate(new LeafSpineParams(2, 1, 4, 1, 100, 2, 200, 3, 30, null));
        Bisection b = Bisection.of(f);
        assertEquals(400, b.idealGbps());
        assertEquals(400, b.bandwidthGbps(), 1e-6);
    }

    private static Device server(Fabric f, String id, int unit, int nics) {
        Device s = f.addDevice(id, DeviceRole.SERVER);
        s.setUnit(unit);
        for (int k = 0; k < nics; k++) {
            s.addPort("nic" + k, 100, k);
        }
        return s;
    }

    @Test
    void aChainOfFiveThousandSwitchesDoesNotOverflowTheStack() {
        // A valid but long-diameter fabric: s0 - s1 - ... - s4999, one 100G server at each end.
        // The cut is any single 400G hop or a server link: min(400, 100, 100) = 100G of an ideal 100G.
        Fabric f = new Fabric("chain");
        Device prev = null;
        for (int i = 0; i < 5000; i++) {
            Device s = f.addDevice("s" + i, DeviceRole.LEAF);
            s.addPort("a", 400);
            s.addPort("b", 400);
            s.addPort("h", 100);
            if (prev != null) {
                f.connect(prev.port("b"), s.port("a"), 400, 1);
            }
            prev = s;
        }
        Device h0 = f.addDevice("h0", DeviceRole.SERVER);
        h0.addPort("nic0", 100);
        f.connect(h0.port("nic0"), f.device("s0").port("h"), 100, 1);
        Device h1 = f.addDevice("h1", DeviceRole.SERVER);
        h1.addPort("nic0", 100);
        f.connect(h1.port("nic0"), prev.port("h"), 100, 1);
        Bisection b = Bisection.of(f);
        assertEquals(100, b.idealGbps());
        assertEquals(100, b.bandwidthGbps(), 1e-6);
    }
}
