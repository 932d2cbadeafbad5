package io.fabriclab.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.LinkState;

import org.junit.jupiter.api.Test;

class OversubscriptionTest {

    @Test
    void classicLabIsNonBlocking() {
        // Leaf: 8 servers x 100G = 800G down, 2 spines x 400G = 800G up: 1:1.
        Oversubscription o = Oversubscription.of(LeafSpineGenerator.classic());
        Oversubscription.SwitchRatio leaf1 = o.forSwitch("leaf1").orElseThrow();
        assertEquals(800, leaf1.downGbps());
        assertEquals(800, leaf1.upGbps());
        assertEquals("1:1", leaf1.label());
        assertEquals(1.0, o.findWorstLeaf().orElseThrow().ratio());
        // Tier 1 sums the four leaves: 3200G / 3200G. The spines are the top tier: no ratio.
        assertEquals(3200, o.forTier(1).orElseThrow().downGbps());
        assertTrue(o.forSwitch("spine1").orElseThrow().topTier());
        assertTrue(o.forTier(2).isEmpty());
    }

    @Test
    void defaultRailAndThreeTierFabricsAreOneToOneInEveryTier() {
        Oversubscription o = Oversubscription.of(RailOptimizedGenerator.generate(16));
        // leaf: 32 x 400 down / 32 x 400 up; spine: 32 down / 32 up.
        assertEquals(1.0, o.forTier(1).orElseThrow().ratio());
        assertEquals(1.0, o.forTier(2).orElseThrow().ratio());
        assertEquals(1.0, o.findWorstLeaf().orElseThrow().ratio());
        Oversubscription ft = Oversubscription.of(FatTreeGenerator.generate(4));
        assertEquals(1.0, ft.forTier(1).orElseThrow().ratio());
        assertEquals(1.0, ft.forTier(2).orElseThrow().ratio());
    }

    @Test
    void railLeavesWithHalfTheUplinksAreTwoToOne() {
        // 32 servers x 400G down, 16 x 400G up = 2:1 on every rail leaf; the spines are the top tier.
        Oversubscription o = Oversubscription.of(RailOptimizedGenerator.generate(RailParams.of(2).withLeafUplinks(16)));
        assertEquals("2:1", o.findWorstLeaf().orElseThrow().label());
        assertEquals(2.0, o.forTier(1).orElseThrow().ratio());
        assertEquals(16 * 32 * 400, o.forTier(1).orElseThrow().downGbps());
    }

    @Test
    void handBuiltLeafWithFourServersAndOneUplinkIsTwoToOne() {
        // leafA: 4 x 100G servers = 400G down, 1 x 200G up = 2:1.
        // leafB: 2 x 100G servers = 200G down, 1 x 200G up = 1:1. Tier 1: 600 / 400 = 1.5:1.
        Fabric f = new Fabric("hand");
        Device spine = f.addDevice("spine", DeviceRole.SPINE);
        spine.addPorts("eth", 1, 2, 200);
        Device a = f.addDevice("leafA", DeviceRole.LEAF);
        a.addPorts("eth", 1, 5, 100);
        Device b = f.addDevice("leafB", DeviceRole.LEAF);
        b.addPorts("eth", 1, 3, 100);
        for (int i = 1; i <= 4; i++) {
            Device s = f.addDevice("a" + i, DeviceRole.SERVER);
            s.addPort("nic0", 100, 0);
            f.connect(s.port("nic0"), a.port("eth" + i), 100, 2);
        }
        for (int i = 1; i <= 2; i++) {
            Device s = f.addDevice("b" + i, DeviceRole.SERVER);
            s.addPort("nic0", 100, 0);
            f.connect(s.port("nic0"), b.port("eth" + i), 100, 2);
        }
        f.connect(a.port("eth5"), spine.port("eth1"), 200, 10);
        f.connect(b.port("eth3"), spine.port("eth2"), 200, 10);
        Oversubscription o = Oversubscription.of(f);
        assertEquals(2.0, o.forSwitch("leafA").orElseThrow().ratio());
        assertEquals("2:1", o.forSwitch("leafA").orElseThrow().label());
        assertEquals(1.0, o.forSwitch("leafB").orElseThrow().ratio());
        assertEquals("1.5:1", o.forTier(1).orElseThrow().label());
        assertEquals("leafA", o.findWorstLeaf().orElseThrow().deviceId());
    }

    @Test
    void downLinksAreLeftOutAndALeafWithoutUplinksIsCutOff() {
        Fabric f = LeafSpineGenerator.classic();
        // leaf2 loses one of its two 400G uplinks: 800 / 400 = 2:1.
        f.linksBetween(f.device("leaf2"), f.device("spine1")).get(0).setState(LinkState.DOWN);
        assertEquals(2.0, Oversubscription.of(f).forSwitch("leaf2").orElseThrow().ratio());
        // losing the second leaves it with no way up while spines exist: infinite, the worst leaf.
        f.linksBetween(f.device("leaf2"), f.device("spine2")).get(0).setState(LinkState.DOWN);
        Oversubscription o = Oversubscription.of(f);
        assertEquals("cut off", o.forSwitch("leaf2").orElseThrow().label());
        assertEquals("leaf2", o.findWorstLeaf().orElseThrow().deviceId());
        // one server link down as well: 700G down.
        f.linkAt(f.port("leaf3:eth1")).setState(LinkState.DOWN);
        assertEquals(700, Oversubscription.of(f).forSwitch("leaf3").orElseThrow().downGbps());
    }

    @Test
    void aRailOnlyFabricHasNoTierAboveItsRails() {
        // Two rail switches, no spine: the rails are the top tier, so no leaf ratio exists.
        Fabric f = new Fabric("rail-only");
        Device r0 = f.addDevice("rail0", DeviceRole.RAIL);
        r0.addPorts("eth", 1, 2, 400);
        Device r1 = f.addDevice("rail1", DeviceRole.RAIL);
        r1.addPorts("eth", 1, 2, 400);
        for (int s = 1; s <= 2; s++) {
            Device srv = f.addDevice("srv" + s, DeviceRole.SERVER);
            srv.addPort("nic0", 400, 0);
            srv.addPort("nic1", 400, 1);
            f.connect(srv.port("nic0"), r0.port("eth" + s), 400, 3);
            f.connect(srv.port("nic1"), r1.port("eth" + s), 400, 3);
        }
        Oversubscription o = Oversubscription.of(f);
        assertTrue(o.forSwitch("rail0").orElseThrow().topTier());
        assertEquals(800, o.forSwitch("rail0").orElseThrow().downGbps());
        assertTrue(o.findWorstLeaf().isEmpty());
        assertTrue(o.tiers().isEmpty());
    }

    @Test
    void peerLinksBetweenLeavesCountNeitherWay() {
        Fabric f = LeafSpineGenerator.generate(LeafSpineParams.classic().withSwitchRadix(12));
        f.connect(f.port("leaf1:eth9"), f.port("leaf2:eth9"), 100, 1);
        assertEquals(1.0, Oversubscription.of(f).forSwitch("leaf1").orElseThrow().ratio());
    }
}
