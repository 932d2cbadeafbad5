package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;

import org.controlsfx.control.PropertySheet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.topology.RailOptimizedGenerator;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.stage.Stage;

/**
 * What the inspector shows of a generated rail fabric (issue 16 item 15): links by their ends with
 * device names, a server's GPUs as the model counts them, units numbered as the generated names.
 */
@ExtendWith(ApplicationExtension.class)
class InspectorPaneTest {
    private FabricDocument doc;
    private InspectorPane pane;

    @Start
    void start(Stage stage) {
        // One scalable unit (names padded to the unit count: su1): su1-srv01.. with 8 NICs each (one GPU per NIC), leaves su1-leaf0..7, unit 0.
        doc = new FabricDocument(RailOptimizedGenerator.generate(1), null);
        pane = new InspectorPane(doc);
        stage.setScene(new Scene(pane, 400, 600));
        stage.show();
    }

    private Object value(String name) {
        return pane.sheet().getItems().stream().filter(i -> i.getName().equals(name)).findFirst()
                .map(PropertySheet.Item::getValue).orElseThrow(() -> new AssertionError("no row " + name + " in "
                        + pane.sheet().getItems().stream().map(PropertySheet.Item::getName).toList()));
    }

    private PropertySheet.Item item(String name) {
        return pane.sheet().getItems().stream().filter(i -> i.getName().equals(name)).findFirst().orElseThrow();
    }

    private String title() {
        return ((Label) pane.getTop()).getText();
    }

    @Test
    void aGeneratedServerShowsItsEightGpusAndTheUnitOfItsName(FxRobot robot) {
        Fabric f = doc.fabric();
        Device srv = f.device("su1-srv01");
        assertNull(srv.gpusOverride(), "generated servers have one GPU per NIC, no explicit count");
        assertEquals(8, srv.gpus());
        assertEquals(0, srv.unit(), "the model stores units 0-based");
        robot.interact(() -> doc.selection().set(List.of(srv), List.of()));
        robot.interact(() -> { });
        assertEquals("Device su1-srv01", title());
        assertEquals("8", value("GPUs"));
        assertEquals("1", value("Unit"), "su1 is unit 1, as its name says");

        // Typing unit 2 stores index 1 (the unit that su02 would be), as one undoable edit.
        robot.interact(() -> item("Unit").setValue("2"));
        assertEquals(1, srv.unit());
        robot.interact(doc::undo);
        assertEquals(0, srv.unit());
        // An explicit GPU count is shown and set; emptying it goes back to one per NIC.
        robot.interact(() -> item("GPUs").setValue("4"));
        robot.interact(() -> { });
        assertEquals("4", value("GPUs"));
        robot.interact(() -> item("GPUs").setValue(""));
        robot.interact(() -> { });
        assertNull(srv.gpusOverride());
        assertEquals("8", value("GPUs"));
    }

    @Test
    void aServerShowsItsScaleUpDomainAndEditsItAsUndoableSteps(FxRobot robot) {
        Device srv = doc.fabric().device("su1-srv01");
        io.fabriclab.model.ScaleUp h100 = io.fabriclab.model.ScaleUp.of("H100");
        assertEquals(h100, srv.scaleUp(), "the generator writes H100's domain");
        robot.interact(() -> doc.selection().set(List.of(srv), List.of()));
        robot.interact(() -> { });
        assertEquals("H100", value("GPU"));
        assertEquals("450", value("NVLink GB/s"));
        assertEquals("470", value("NVLink ns"));
        // Choosing B200 takes its datasheet figures; undo brings H100 back.
        io.fabriclab.model.ScaleUp b200 = io.fabriclab.model.ScaleUp.of("B200");
        robot.interact(() -> item("GPU").setValue(b200));
        robot.interact(() -> { });
        assertEquals(b200, srv.scaleUp());
        assertEquals("900", value("NVLink GB/s"));
        assertEquals("Set GPU of su1-srv01 to B200", doc.stack().undoDescription());
        robot.interact(doc::undo);
        robot.interact(() -> { });
        assertEquals(h100, srv.scaleUp());
        // A figure typed over a known GPU overrides that figure alone, as in the file; bad figures are refused.
        robot.interact(() -> item("NVLink ns").setValue("600"));
        robot.interact(() -> { });
        assertEquals(h100.withLatencyNs(600), srv.scaleUp());
        assertEquals("H100*", value("GPU"), "figures of its own");
        robot.interact(() -> item("NVLink GB/s").setValue("400.5"));
        assertEquals(new io.fabriclab.model.ScaleUp("H100", "NVLink 4 / NVSwitch", 400.5, 600), srv.scaleUp());
        for (String bad : List.of("0", "-1", "100001", "x")) {
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> item("NVLink GB/s").setValue(bad), bad);
        }
        for (String bad : List.of("0", "1000001", "1.5")) {
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> item("NVLink ns").setValue(bad), bad);
        }
        robot.interact(doc::undo);
        robot.interact(doc::undo);
        assertEquals(h100, srv.scaleUp(), "two undos: both figures back");
        // Several servers at once: one step.
        Device other = doc.fabric().device("su1-srv02");
        robot.interact(() -> doc.selection().set(List.of(srv, other), List.of()));
        robot.interact(() -> { });
        robot.interact(() -> item("GPU").setValue(io.fabriclab.model.ScaleUp.of("A100")));
        assertEquals(io.fabriclab.model.ScaleUp.of("A100"), srv.scaleUp());
        assertEquals(io.fabriclab.model.ScaleUp.of("A100"), other.scaleUp());
        robot.interact(doc::undo);
        assertEquals(h100, srv.scaleUp());
        assertEquals(h100, other.scaleUp());
    }

    @Test
    void unitNumbersAreCheckedAndShownFromOne() {
        assertEquals(0, InspectorPane.ordinal("1"));
        assertNull(InspectorPane.ordinal(" "));
        assertEquals("1", InspectorPane.ordinalText(0));
        assertEquals("", InspectorPane.ordinalText(null));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> InspectorPane.ordinal("0"));
    }

    @Test
    void aLinkShowsTheDevicesAtItsEnds(FxRobot robot) {
        Device srv = doc.fabric().device("su1-srv01");
        Link l = doc.fabric().linkAt(srv.port("nic0"));
        robot.interact(() -> doc.selection().set(List.of(), List.of(l)));
        robot.interact(() -> { });
        String ends = l.a().ref() + " — " + l.b().ref();
        assertEquals(java.util.Set.of("su1-srv01:nic0", "su1-leaf0:eth1"), java.util.Set.of(l.a().ref(), l.b().ref()));
        assertEquals("Link " + ends, title());
        assertEquals(ends, value("Ends"));
        assertEquals(l.a().name(), value("Port A (" + l.a().device().id() + ")"));
    }

    /**
     * Issue 16 item 8: a generated rail leaf has every one of its 64 ports in use (32 servers + 32
     * uplinks); the inspector's port table adds two, changes a speed and a QoS profile and removes a
     * free port, each one undo step; a cabled port is not removed and the reason is shown.
     */
    @Test
    void theInspectorAddsRemovesAndChangesPortsAsUndoableSteps(FxRobot robot) {
        Fabric f = doc.fabric();
        Device leaf = f.device("su1-leaf0");
        assertEquals(64, leaf.portCount());
        assertEquals(0, f.freePorts(leaf).size(), "a generated rail leaf starts full");
        robot.interact(() -> doc.selection().set(List.of(leaf), List.of()));
        robot.interact(() -> { });
        PortTable t = pane.ports();
        assertEquals(64, t.table().getItems().size());
        robot.interact(() -> {
            t.addCount.getValueFactory().setValue(2);
            t.addSpeed.setValue(800);
        });
        robot.clickOn("#port-add");
        robot.interact(() -> { });
        assertEquals(66, leaf.portCount());
        assertEquals(800, leaf.port("eth66").speedGbps());
        assertEquals(66, t.table().getItems().size(), "the table follows the model");

        // Speed and per-port QoS of the new port, then undo them one by one.
        io.fabriclab.model.Port eth65 = leaf.port("eth65");
        robot.interact(() -> t.setSpeed(eth65, 400));
        assertEquals(400, eth65.speedGbps());
        String profile = f.qosProfiles().keySet().iterator().next();
        robot.interact(() -> t.setQos(eth65, profile));
        assertEquals(profile, eth65.qosProfile());
        robot.interact(doc::undo);
        assertNull(eth65.qosProfile());
        robot.interact(doc::undo);
        assertEquals(800, eth65.speedGbps());

        // Removing a cabled port is refused with the link's name; the free one goes.
        robot.interact(() -> t.table().getSelectionModel().select(0));
        robot.clickOn("#port-remove");
        assertEquals(66, leaf.portCount());
        robot.interact(() -> {
            t.table().getSelectionModel().clearSelection();
            t.table().getSelectionModel().select(leaf.indexOfPort(eth65));
        });
        robot.clickOn("#port-remove");
        robot.interact(() -> { });
        assertNull(leaf.port("eth65"));
        robot.interact(doc::undo);
        assertEquals(eth65, leaf.port("eth65"));
        robot.interact(doc::undo);
        robot.interact(() -> { });
        assertEquals(64, leaf.portCount(), "undo takes the added ports away again");
        assertEquals(64, t.table().getItems().size());
    }
}
