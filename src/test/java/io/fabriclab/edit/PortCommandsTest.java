package io.fabriclab.edit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.diagram.TestFabrics;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.FabricLimits;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.model.QosProfile;

/** Port editing in the inspector (issue 16 item 8): each command done, undone and redone. */
class PortCommandsTest {

    @Test
    void addingPortsToAFullSpineNamesThemAfterItsLastPortAndUndoRemovesExactlyThem() {
        // The classic spine has exactly the 4 ports in use (eth1..eth4, one per leaf).
        Fabric f = TestFabrics.classic();
        Device spine = f.device("spine1");
        assertEquals(4, spine.portCount());
        assertTrue(f.freePorts(spine).isEmpty(), "a template spine starts full");
        List<String> before = FabricSnapshot.of(f);
        CommandStack stack = new CommandStack();
        AddPortsCommand add = new AddPortsCommand(f, spine, 2, 400);
        stack.execute(add);
        assertEquals(List.of("eth5", "eth6"), add.added().stream().map(Port::name).toList());
        assertEquals(2, f.freePorts(spine).size());
        assertEquals(400, spine.port("eth6").speedGbps());
        Port eth5 = spine.port("eth5");
        stack.undo();
        assertEquals(before, FabricSnapshot.of(f), "undo removes exactly the added ports");
        stack.redo();
        assertSame(eth5, spine.port("eth5"), "redo puts the same port object back (later undo steps refer to it)");
        // The grown spine takes a fifth leaf's cable; undoing the add while it is cabled is refused.
        Device leaf5 = f.addDevice("leaf5", io.fabriclab.model.DeviceRole.LEAF);
        leaf5.addPort("eth9", 400);
        f.connect(leaf5.port("eth9"), eth5, 400, 30);
        assertThrows(IllegalStateException.class, stack::undo);
        assertNotNull(spine.port("eth5"));
    }

    @Test
    void aServerGetsNewNicsWithTheNextNicIndex() {
        Fabric f = TestFabrics.classic();
        Device srv = f.device("srv1");
        int gpus = srv.gpus();
        AddPortsCommand add = new AddPortsCommand(f, srv, 1, 100);
        add.execute();
        Port p = add.added().get(0);
        assertEquals("nic1", p.name());
        assertEquals(1, p.nic());
        assertEquals(gpus + 1, srv.gpus(), "one GPU per NIC when the count is not set");
        add.undo();
        assertNull(srv.port("nic1"));
        assertEquals(gpus, srv.gpus());
    }

    @Test
    void addingPortsIsCheckedAgainstTheSpeedsAndTheFabricLimits() {
        Fabric f = TestFabrics.classic();
        Device spine = f.device("spine1");
        assertThrows(IllegalArgumentException.class, () -> new AddPortsCommand(f, spine, 0, 400));
        assertThrows(IllegalArgumentException.class, () -> new AddPortsCommand(f, spine, 1, 300));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new AddPortsCommand(f, spine, FabricLimits.MAX_PORTS_PER_DEVICE - 3, 400));
        assertTrue(e.getMessage().contains("4096"), e.getMessage());
        new AddPortsCommand(f, spine, FabricLimits.MAX_PORTS_PER_DEVICE - 4, 400); // exactly the limit is fine
    }

    @Test
    void removingFreePortsAndUndoPutsThemBackInTheirPlaces() {
        Fabric f = TestFabrics.classic();
        Device spine = f.device("spine1");
        new AddPortsCommand(f, spine, 3, 400).execute(); // eth5, eth6, eth7
        List<String> before = FabricSnapshot.of(f);
        Port eth5 = spine.port("eth5");
        Port eth7 = spine.port("eth7");
        CommandStack stack = new CommandStack();
        stack.execute(new RemovePortsCommand(f, List.of(eth7, eth5)));
        assertEquals(List.of("eth1", "eth2", "eth3", "eth4", "eth6"), spine.ports().stream().map(Port::name).toList());
        stack.undo();
        assertEquals(before, FabricSnapshot.of(f), "same ports, same order");
        assertSame(eth5, spine.port("eth5"));
        stack.redo();
        assertNull(spine.port("eth7"));
    }

    @Test
    void aPortWithALinkIsNotRemovedAndTheMessageNamesTheLink() {
        Fabric f = TestFabrics.classic();
        Port used = f.device("spine1").port("eth1");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new RemovePortsCommand(f, List.of(used)));
        assertTrue(e.getMessage().contains(f.linkAt(used).id()), e.getMessage());
        assertNotNull(f.device("spine1").port("eth1"));
    }

    @Test
    void loweringAPortSpeedLowersItsLinkAndUndoRestoresBoth() {
        Fabric f = TestFabrics.classic();
        Port up = f.device("spine1").port("eth1");
        Link l = f.linkAt(up);
        Port other = l.a() == up ? l.b() : l.a();
        assertEquals(400, l.speedGbps());
        List<String> before = FabricSnapshot.of(f);
        SetPortsCommand c = SetPortsCommand.speed(f, List.of(up), 200);
        c.execute();
        assertEquals(200, up.speedGbps());
        assertEquals(200, l.speedGbps(), "a link never runs faster than its slower port");
        assertEquals(400, other.speedGbps(), "the far port keeps its speed");
        c.undo();
        assertEquals(before, FabricSnapshot.of(f));
        // Raising a port's speed leaves the link as it is (its other end may be slower).
        SetPortsCommand up800 = SetPortsCommand.speed(f, List.of(up), 800);
        up800.execute();
        assertEquals(400, l.speedGbps());
        up800.undo();
        assertEquals(before, FabricSnapshot.of(f));
        assertThrows(IllegalArgumentException.class, () -> SetPortsCommand.speed(f, List.of(up), 123));
    }

    @Test
    void aPerPortQosProfileWinsOverTheDevicesAndUndoGivesTheOldOneBack() {
        Fabric f = TestFabrics.classic();
        f.putQosProfile(QosProfile.roceLossless("uplinks-400g", 400));
        Port up = f.device("spine1").port("eth1");
        QosProfile inherited = f.qosFor(up);
        List<String> before = FabricSnapshot.of(f);
        SetPortsCommand c = SetPortsCommand.qos(f, List.of(up), "uplinks-400g");
        c.execute();
        assertEquals("uplinks-400g", f.qosFor(up).name());
        c.undo();
        assertEquals(before, FabricSnapshot.of(f));
        assertSame(inherited, f.qosFor(up));
        assertTrue(SetPortsCommand.qos(f, List.of(up), null).isNoOp(), "already inherits");
        assertThrows(IllegalArgumentException.class, () -> SetPortsCommand.qos(f, List.of(up), "nope"));
    }
}
