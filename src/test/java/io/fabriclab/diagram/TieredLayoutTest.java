package io.fabriclab.diagram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;
import io.fabriclab.topology.LeafSpineGenerator;
import io.fabriclab.topology.LeafSpineParams;

class TieredLayoutTest {

    private final TieredLayout tiered = new TieredLayout();
    private final DiagramStyle style = new DiagramStyle();

    @Test
    void rowsRunCoreSpineLeafServerFromTopToBottom() {
        Fabric f = TestFabrics.classic();
        f.addDevice("core1", DeviceRole.CORE);
        Layout l = tiered.layout(f);
        double core = l.position("core1").y();
        double spine = l.position("spine1").y();
        double leaf = l.position("leaf1").y();
        double server = l.position("srv1").y();
        assertTrue(core < spine && spine < leaf && leaf < server, core + " " + spine + " " + leaf + " " + server);
        // Every device of one tier shares its row.
        for (Device d : f.devices()) {
            double expected = switch (d.role()) {
                case CORE -> core;
                case SPINE -> spine;
                case LEAF, RAIL -> leaf;
                case SERVER -> server;
            };
            assertEquals(expected, l.position(d.id()).y(), d.id());
        }
    }

    @Test
    void railLeavesStayInRailOrderAndUnitsSitSideBySide() {
        // Devices were added rails 7..0 and units 1..0; the layout must still read rail 0..7, unit 0 then 1.
        Fabric f = TestFabrics.railUnits(2, 4, 2);
        Layout l = tiered.layout(f);
        for (int u = 0; u < 2; u++) {
            for (int k = 1; k < 8; k++) {
                assertTrue(l.position("su" + u + "-rail" + (k - 1)).x() < l.position("su" + u + "-rail" + k).x(),
                        "unit " + u + " rail " + (k - 1) + " left of rail " + k);
            }
        }
        double unit0Right = maxX(f, l, 0);
        double unit1Left = f.devices().stream().filter(d -> Integer.valueOf(1).equals(d.unit()))
                .mapToDouble(d -> l.position(d.id()).x()).min().orElseThrow();
        assertTrue(unit0Right < unit1Left, "unit 0 entirely left of unit 1");
        assertTrue(l.position("su0-srv1").x() < l.position("su0-srv2").x(), "servers in natural id order");
    }

    @Test
    void noTwoDeviceBoxesOverlap() {
        for (Fabric f : List.of(TestFabrics.classic(), TestFabrics.railUnits(3, 16, 4))) {
            Layout l = tiered.layout(f);
            DiagramGeometry g = new DiagramGeometry(f, l, style);
            List<Device> ds = new ArrayList<>(f.devices());
            for (int i = 0; i < ds.size(); i++) {
                for (int j = i + 1; j < ds.size(); j++) {
                    Bounds a = g.box(ds.get(i));
                    Bounds b = g.box(ds.get(j));
                    assertTrue(!a.intersects(b), ds.get(i) + " overlaps " + ds.get(j) + " in " + f.name());
                }
            }
        }
    }

    @Test
    void eachLeafSitsAboveTheServersCabledToIt() {
        Fabric f = TestFabrics.classic();
        Layout l = tiered.layout(f);
        for (int leaf = 1; leaf <= 4; leaf++) {
            // Leaf n serves srv 8(n-1)+1 .. 8n; it must lie between the first and last of them.
            double first = l.position("srv" + (8 * (leaf - 1) + 1)).x();
            double last = l.position("srv" + (8 * leaf)).x();
            double x = l.position("leaf" + leaf).x();
            assertTrue(first <= x && x <= last, "leaf" + leaf + " at " + x + " not over [" + first + ", " + last + "]");
        }
    }

    @Test
    void placeMissingPutsANewDeviceAtTheEndOfItsRowAndMovesNothingElse() {
        Fabric f = TestFabrics.classic();
        Layout l = tiered.layout(f);
        Layout before = l.copy();
        f.addDevice("leaf5", DeviceRole.LEAF);
        assertEquals(1, tiered.placeMissing(f, l));
        double rightmostLeaf = before.positions().entrySet().stream().filter(e -> e.getKey().startsWith("leaf"))
                .mapToDouble(e -> e.getValue().x()).max().orElseThrow();
        assertEquals(rightmostLeaf + TieredLayout.SWITCH_PITCH, l.position("leaf5").x(), 1e-9);
        assertEquals(before.position("leaf1").y(), l.position("leaf5").y(), 1e-9);
        before.positions().forEach((id, p) -> assertEquals(p, l.position(id), id));
    }

    private static double maxX(Fabric f, Layout l, int unit) {
        return f.devices().stream().filter(d -> Integer.valueOf(unit).equals(d.unit()))
                .mapToDouble(d -> l.position(d.id()).x()).max().orElseThrow();
    }

    @Test
    void manyUnitsWrapIntoBandsThatKeepThePictureNearWindowShaped() {
        // 64 units of 32 servers: one band would be 64 x 1,920 + 63 x 80 = 127,920 units wide and
        // 500 high (aspect 256), so the units wrap into a grid.
        Fabric f = TestFabrics.railUnits(64, 32, 4);
        Layout l = tiered.layout(f);
        DiagramGeometry g = new DiagramGeometry(f, l, style);
        Bounds e = g.extent();
        double aspect = e.width() / e.height();
        assertTrue(aspect > 0.8 && aspect < 3.2, "aspect " + aspect);
        // Within every unit the rails still run 0..7 left to right, and the leaves sit above their servers.
        for (int u = 0; u < 64; u++) {
            for (int k = 1; k < 8; k++) {
                assertTrue(l.position("su" + u + "-rail" + (k - 1)).x() < l.position("su" + u + "-rail" + k).x());
            }
            assertTrue(l.position("su" + u + "-rail0").y() < l.position("su" + u + "-srv1").y());
        }
        // Spines stay on top of everything.
        double spineY = l.position("spine1").y();
        assertTrue(f.devices().stream().filter(d -> d.role() != DeviceRole.SPINE)
                .allMatch(d -> l.position(d.id()).y() > spineY));
    }

    @Test
    void twoUnitsStaySideBySide() {
        Fabric f = TestFabrics.railUnits(2, 8, 4);
        Layout l = tiered.layout(f);
        assertEquals(l.position("su0-rail0").y(), l.position("su1-rail0").y());
    }

    @Test
    void aLeafSpineOfEightLeavesKeepsOneSpineRowOverOneLeafRowAndStacksTheRacks() {
        // 8 leaves x 8 servers side by side: 64 x 60 + 7 x 80 = 4,400 wide over 2 x 250 high, an
        // aspect of 8.8 > 8. The old layout wrapped the racks 3 + 3 + 2 into bands, so the lower
        // bands' uplinks crossed the upper bands' servers. Now: one leaf row, racks of 2 rows of 4.
        Fabric f = LeafSpineGenerator.generate(LeafSpineParams.classic().withLeaves(8));
        Layout l = tiered.layout(f);
        double spineY = l.position("spine1").y();
        double leafY = l.position("leaf1").y();
        assertTrue(spineY < leafY);
        double lowestSwitch = Double.NEGATIVE_INFINITY;
        for (Device d : f.devices()) {
            double y = l.position(d.id()).y();
            switch (d.role()) {
                case SPINE -> assertEquals(spineY, y, d.id());
                case LEAF -> assertEquals(leafY, y, d.id() + " in the one leaf row");
                default -> { }
            }
            if (d.role() != DeviceRole.SERVER) {
                lowestSwitch = Math.max(lowestSwitch, y);
            }
        }
        // Every server is below every switch (no uplink crosses a rack) and within its leaf's rack:
        // nearer to its own leaf than to any other leaf.
        for (Device srv : f.devices()) {
            if (srv.role() != DeviceRole.SERVER) {
                continue;
            }
            assertTrue(l.position(srv.id()).y() > lowestSwitch, srv.id());
            Device own = f.neighbors(srv).iterator().next();
            double sx = l.position(srv.id()).x();
            for (Device leaf : f.devices()) {
                if (leaf.role() == DeviceRole.LEAF && leaf != own) {
                    assertTrue(Math.abs(sx - l.position(own.id()).x()) < Math.abs(sx - l.position(leaf.id()).x()),
                            srv.id() + " nearer to " + own.id() + " than to " + leaf.id());
                }
            }
        }
        long serverRows = f.devices().stream().filter(d -> d.role() == DeviceRole.SERVER)
                .mapToDouble(d -> l.position(d.id()).y()).distinct().count();
        assertEquals(2, serverRows, "each rack's 8 servers in 2 rows of 4");
        DiagramGeometry g = new DiagramGeometry(f, l, style);
        List<Device> ds = new ArrayList<>(f.devices());
        for (int i = 0; i < ds.size(); i++) {
            for (int j = i + 1; j < ds.size(); j++) {
                assertTrue(!g.box(ds.get(i)).intersects(g.box(ds.get(j))), ds.get(i) + " overlaps " + ds.get(j));
            }
        }
    }

    @Test
    void aSmallLeafSpineKeepsItsServersInOneRow() {
        // The classic 4 x 8: 32 x 60 + 3 x 80 = 2,160 over 500, aspect 4.3: no stacking.
        Fabric f = LeafSpineGenerator.generate(LeafSpineParams.classic());
        Layout l = tiered.layout(f);
        assertEquals(1, f.devices().stream().filter(d -> d.role() == DeviceRole.SERVER)
                .mapToDouble(d -> l.position(d.id()).y()).distinct().count());
    }
}
