package io.fabriclab.diagram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;
import io.fabriclab.model.Link;

class DiagramGeometryTest {

    private final DiagramStyle style = new DiagramStyle();

    @Test
    void aPointInsideABoxHitsThatDeviceAndEmptySpaceHitsNothing() {
        Fabric f = TestFabrics.classic();
        Layout l = new TieredLayout().layout(f);
        DiagramGeometry g = new DiagramGeometry(f, l, style);
        Layout.Point p = l.position("leaf3");
        // A switch box is 100 x 36: 45 units right of the centre is still inside, 55 is outside.
        assertSame(f.device("leaf3"), g.deviceAt(p.x() + 45, p.y() + 10));
        assertNull(g.deviceAt(p.x() + 55, p.y() + 10));
        assertNull(g.deviceAt(p.x(), p.y() - 100));
    }

    @Test
    void aClickPicksTheDeviceDrawnOnTopWhereBoxesOverlap() {
        // Devices are painted in the fabric's order, each over the ones before. A server added
        // later on top of a leaf is what the user sees there, so it is what a click picks (the old
        // rule, "switches win", picked the leaf hidden under it).
        Fabric f = TestFabrics.classic();
        Layout l = new TieredLayout().layout(f);
        Layout.Point p = l.position("leaf3");
        f.addDevice("late-server", io.fabriclab.model.DeviceRole.SERVER);
        l.setPosition("late-server", p.x(), p.y());
        DiagramGeometry g = new DiagramGeometry(f, l, style);
        assertSame(f.device("late-server"), g.deviceAt(p.x(), p.y()));
        // Outside the server's box (48 x 28) but inside the leaf's (100 x 36): the leaf.
        assertSame(f.device("leaf3"), g.deviceAt(p.x() + 40, p.y()));
        // And a switch added later over a server wins there.
        Layout.Point s = l.position("srv1");
        f.addDevice("late-leaf", io.fabriclab.model.DeviceRole.LEAF);
        l.setPosition("late-leaf", s.x(), s.y());
        DiagramGeometry g2 = new DiagramGeometry(f, l, style);
        assertSame(f.device("late-leaf"), g2.deviceAt(s.x(), s.y()));
    }

    @Test
    void aPointNearALinkLineHitsThatLink() {
        Fabric f = TestFabrics.classic();
        Layout l = new TieredLayout().layout(f);
        DiagramGeometry g = new DiagramGeometry(f, l, style);
        Link link = f.findLink("srv5:nic0");
        Segment s = g.segment(link);
        double mx = (s.x1() + s.x2()) / 2;
        double my = (s.y1() + s.y2()) / 2;
        assertSame(link, g.linkAt(mx + 2, my, 4));
        // Below the server row there are no links at all.
        assertNull(g.linkAt(mx, my + 200, 4));
    }

    @Test
    void rubberBandTakesDevicesWhoseCentreIsInside() {
        Fabric f = TestFabrics.classic();
        Layout l = new TieredLayout().layout(f);
        DiagramGeometry g = new DiagramGeometry(f, l, style);
        // A band around the leaf row only, from leaf1's centre to leaf2's centre (inclusive).
        Layout.Point a = l.position("leaf1");
        Layout.Point b = l.position("leaf2");
        Set<String> ids = g.devicesWithCentreIn(Bounds.of(a.x(), a.y() - 5, b.x(), b.y() + 5)).stream()
                .map(Device::id).collect(Collectors.toSet());
        assertEquals(Set.of("leaf1", "leaf2"), ids);
    }
}
