package io.fabriclab.edit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fabriclab.diagram.TestFabrics;
import io.fabriclab.diagram.TieredLayout;
import io.fabriclab.model.CableType;
import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;
import io.fabriclab.model.Link;
import io.fabriclab.model.LinkState;
import io.fabriclab.model.Port;

class FabricCommandsTest {

    private static Fabric laidOut(Fabric f) {
        f.setLayout(new TieredLayout().layout(f));
        return f;
    }

    @Test
    void deletingDevicesAndLinksThenUndoingRestoresEveryPortLinkAndPositionExactly() {
        Fabric f = laidOut(TestFabrics.classic());
        Link uplink = f.findLink("leaf1:eth9");
        uplink.setState(LinkState.DOWN); // an attribute that must survive the round trip
        uplink.setCableLengthM(42);
        Port srvPort = f.port("srv9:nic0");
        List<String> before = FabricSnapshot.of(f);
        CommandStack stack = new CommandStack();
        // leaf2 carries 8 server links + 2 uplinks; plus one explicit link elsewhere (srv1's).
        DeleteSelectionCommand del = new DeleteSelectionCommand(f, List.of(f.device("leaf2"), f.device("spine1")),
                List.of(f.findLink("srv1:nic0")));
        stack.execute(del);
        // spine1: its 4 uplinks; leaf2: 8 server links + its spine2 uplink (the spine1 one is counted);
        // plus the explicit srv1 link: 4 + 9 + 1 = 14.
        assertEquals(14, del.removedLinks().size());
        assertNull(f.device("leaf2"));
        assertTrue(f.isFree(srvPort), "srv9 lost its leaf2 link");
        assertEquals(40 - 14, f.linkCount());
        stack.undo();
        assertEquals(before, FabricSnapshot.of(f));
        assertSame(srvPort, f.port("srv9:nic0"));
        assertSame(f.linkAt(srvPort), f.findLink("leaf2:eth1"), "the same link object is back on both ports");
        stack.redo();
        assertEquals(40 - 14, f.linkCount());
        stack.undo();
        assertEquals(before, FabricSnapshot.of(f));
    }

    @Test
    void addLinkTakesTheFirstFreePortsOfEqualSpeed() {
        Fabric f = TestFabrics.classic();
        Device leaf = f.addDevice("leaf5", DeviceRole.LEAF);
        leaf.addPorts("eth", 1, 8, 100);
        leaf.addPorts("eth", 9, 2, 400);
        // spine1 has 4 x 400G, all used by leaf1..4: give it two more.
        f.device("spine1").addPorts("eth", 5, 2, 400);
        CommandStack stack = new CommandStack();
        AddLinkCommand first = new AddLinkCommand(f, leaf, f.device("spine1"));
        stack.execute(first);
        // The first 400G port of leaf5 is eth9 (eth1-8 are 100G); spine1's first free one is eth5.
        assertEquals("leaf5:eth9--spine1:eth5", first.link().id());
        assertEquals(400, first.link().speedGbps());
        assertEquals(CableType.MMF, first.link().cableType(), "30 m between switches needs multimode optics");
        AddLinkCommand second = new AddLinkCommand(f, leaf, f.device("spine1"));
        stack.execute(second);
        assertEquals("leaf5:eth10--spine1:eth6", second.link().id());
        stack.undo();
        stack.undo();
        assertTrue(f.isFree(leaf.port("eth9")));
        assertEquals(40, f.linkCount());
    }

    @Test
    void addLinkFallsBackToTheSlowerPortWhenNoSpeedsMatch() {
        Fabric f = new Fabric("t");
        Device a = f.addDevice("a", DeviceRole.LEAF);
        a.addPorts("eth", 1, 2, 100);
        Device b = f.addDevice("b", DeviceRole.SPINE);
        b.addPorts("eth", 1, 2, 400);
        AddLinkCommand.PortChoice c = AddLinkCommand.choosePorts(f, a, b).orElseThrow();
        assertFalse(c.speedsMatch());
        assertEquals(100, c.speedGbps());
        assertEquals("a:eth1", c.a().ref());
    }

    @Test
    void aServerLinksToARailLeafOnTheNicOfThatRail() {
        Fabric f = new Fabric("t");
        Device srv = DeviceTemplate.server8x400().create("srv1");
        f.addDevice(srv);
        Device rail3 = f.addDevice("rail3", DeviceRole.LEAF);
        rail3.setRail(3);
        rail3.addPorts("eth", 1, 4, 400);
        AddLinkCommand c = new AddLinkCommand(f, srv, rail3);
        c.execute();
        assertEquals("srv1:nic3--rail3:eth1", c.link().id());
        assertEquals(CableType.DAC, c.link().cableType(), "3 m in the rack is copper");
    }

    @Test
    void addLinkRefusesDevicesWithoutFreePorts() {
        Fabric f = TestFabrics.classic();
        // srv1 has one NIC and it is cabled to leaf1.
        assertThrows(IllegalArgumentException.class, () -> new AddLinkCommand(f, f.device("srv1"), f.device("leaf2")));
    }

    @Test
    void addDeviceFromATemplateTakesTheNextFreeIdAndUndoRemovesIt() {
        Fabric f = TestFabrics.classic();
        CommandStack stack = new CommandStack();
        AddDeviceCommand add = AddDeviceCommand.fromTemplate(f, DeviceTemplate.switch64x400(DeviceRole.LEAF), 100, 200);
        stack.execute(add);
        assertEquals("leaf5", add.device().id());
        assertEquals(64, add.device().portCount());
        assertEquals(new Layout.Point(100, 200), f.layout().position("leaf5"));
        stack.undo();
        assertNull(f.device("leaf5"));
        assertNull(f.layout().position("leaf5"));
        stack.redo();
        assertSame(add.device(), f.device("leaf5"));
    }

    @Test
    void aDragIsOneMoveAndUndoPutsEveryDeviceBack() {
        Fabric f = laidOut(TestFabrics.classic());
        Layout.Point l1 = f.layout().position("leaf1");
        Layout.Point l2 = f.layout().position("leaf2");
        CommandStack stack = new CommandStack();
        stack.execute(new MoveDevicesCommand(f, "Move 2 devices", Map.of("leaf1", l1, "leaf2", l2),
                Map.of("leaf1", new Layout.Point(l1.x() + 50, l1.y()), "leaf2", new Layout.Point(l2.x() + 50, l2.y()))));
        assertEquals(l1.x() + 50, f.layout().position("leaf1").x());
        assertEquals(1, stack.undoDepth());
        stack.undo();
        assertEquals(l1, f.layout().position("leaf1"));
        assertEquals(l2, f.layout().position("leaf2"));
    }

    @Test
    void setPropertyUndoRestoresTheOldValueEvenNull() {
        Fabric f = TestFabrics.classic();
        Device leaf = f.device("leaf1");
        CommandStack stack = new CommandStack();
        SetPropertyCommand<Integer> c = new SetPropertyCommand<>("Set rail", leaf::rail, leaf::setRail, 2);
        assertFalse(c.isNoOp());
        stack.execute(c);
        assertEquals(2, leaf.rail());
        stack.undo();
        assertNull(leaf.rail());
    }

    @Test
    void aCompoundCommandIsAllOrNothing() {
        Fabric f = TestFabrics.classic();
        List<String> before = FabricSnapshot.of(f);
        Device leaf = f.device("leaf1");
        FabricCommand setModel = new SetPropertyCommand<>("model", leaf::model, leaf::setModel, "TH5");
        // Adding a second device named leaf1 fails, so the model change must be rolled back.
        FabricCommand duplicate = new AddDeviceCommand(f, new Device("leaf1", DeviceRole.LEAF), 0, 0);
        CommandStack stack = new CommandStack();
        assertThrows(IllegalArgumentException.class,
                () -> stack.execute(new CompoundCommand("both", List.of(setModel, duplicate))));
        assertEquals(before, FabricSnapshot.of(f));
        assertFalse(stack.canUndo());

        FabricCommand addLeaf = AddDeviceCommand.fromTemplate(f, DeviceTemplate.switch64x400(DeviceRole.LEAF), 0, 0);
        stack.execute(new CompoundCommand("both", List.of(
                new SetPropertyCommand<>("model", leaf::model, leaf::setModel, "TH5"), addLeaf)));
        assertEquals("TH5", leaf.model());
        stack.undo();
        assertEquals(before, FabricSnapshot.of(f));
    }

    @Test
    void duplicatingKeepsTheLinksAmongTheCopiesAndUndoRemovesEverything() {
        Fabric f = laidOut(TestFabrics.classic());
        List<String> before = FabricSnapshot.of(f);
        f.device("leaf1").setModel("TH4");
        List<String> withModel = FabricSnapshot.of(f);
        // leaf1 with its first two servers: 3 devices and the 2 links among them; leaf1's uplinks
        // go to spines outside the selection and are not copied.
        DuplicateCommand dup = new DuplicateCommand(f, List.of(f.device("leaf1"), f.device("srv1"), f.device("srv2")),
                0, 400);
        CommandStack stack = new CommandStack();
        stack.execute(dup);
        assertEquals(List.of("leaf5", "srv33", "srv34"), dup.copies().stream().map(Device::id).toList());
        assertEquals("TH4", f.device("leaf5").model());
        assertEquals(10, f.device("leaf5").portCount());
        assertEquals(List.of("srv33:nic0--leaf5:eth1", "srv34:nic0--leaf5:eth2"),
                dup.copiedLinks().stream().map(Link::id).toList());
        assertEquals(f.layout().position("leaf1").y() + 400, f.layout().position("leaf5").y());
        assertEquals(42, f.linkCount());
        stack.undo();
        assertEquals(withModel, FabricSnapshot.of(f));
        assertEquals(before.size(), withModel.size());
    }

    @Test
    void duplicatingAServerCopiesItsScaleUpDomain() {
        Fabric f = laidOut(TestFabrics.classic());
        io.fabriclab.model.ScaleUp b200 = io.fabriclab.model.ScaleUp.of("B200").withBandwidthGBps(800);
        f.device("srv1").setScaleUp(b200);
        DuplicateCommand dup = new DuplicateCommand(f, List.of(f.device("srv1"), f.device("srv2")), 0, 400);
        new CommandStack().execute(dup);
        assertEquals(b200, dup.copies().get(0).scaleUp(), "the copy of srv1 keeps its B200 domain and figure");
        assertNull(dup.copies().get(1).scaleUp(), "srv2 declared none, nor does its copy");
    }

    @Test
    void bulkLinkingCablesEveryMatchingPairOnFreePorts() {
        Fabric f = TestFabrics.classic();
        // Give each spine 8 more 400G ports and each leaf 2 more, then add a second uplink per pair.
        for (String s : List.of("spine1", "spine2")) {
            f.device(s).addPorts("eth", 5, 8, 400);
        }
        for (int l = 1; l <= 4; l++) {
            f.device("leaf" + l).addPorts("eth", 11, 2, 400);
        }
        List<String> before = FabricSnapshot.of(f);
        BulkLinkCommand bulk = BulkLinkCommand.byPattern(f, "leaf*", "spine?", 1);
        assertEquals(before, FabricSnapshot.of(f), "planning changes nothing");
        CommandStack stack = new CommandStack();
        stack.execute(bulk);
        // 4 leaves x 2 spines x 1 = 8 links; leaf1 takes eth11 (eth9/10 are used) then eth12.
        assertEquals(8, bulk.links().size());
        assertEquals(48, f.linkCount());
        assertEquals("leaf1:eth11--spine1:eth5", bulk.links().get(0).id());
        assertEquals("leaf1:eth12--spine2:eth5", bulk.links().get(1).id());
        stack.undo();
        assertEquals(before, FabricSnapshot.of(f));
    }

    @Test
    void bulkLinkingWithTooFewPortsAddsNothing() {
        Fabric f = TestFabrics.classic();
        List<String> before = FabricSnapshot.of(f);
        // Every leaf 400G port and every spine port is already in use.
        assertThrows(IllegalArgumentException.class, () -> BulkLinkCommand.byPattern(f, "leaf*", "spine*", 1));
        assertEquals(before, FabricSnapshot.of(f));
        assertEquals(List.of("leaf1", "leaf2", "leaf3", "leaf4"),
                BulkLinkCommand.matching(f, "leaf?").stream().map(Device::id).toList());
        assertEquals(List.of("srv1"), BulkLinkCommand.matching(f, "srv1").stream().map(Device::id).toList(),
                "no wildcard: the exact name only");
    }
}
