package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TextInputControl;
import javafx.stage.Stage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;

/** Fabric > QoS Profiles…: open, type (checked as you type), apply as one command, undo. */
@ExtendWith(ApplicationExtension.class)
class QosEditorTest {
    private FabricEditor editor;

    @Start
    void start(Stage stage) {
        editor = new FabricEditor(new FabricDocument(DemoFabric.classic(), null));
        stage.setScene(new Scene(editor, 1000, 700));
        stage.show();
    }

    private QosEditor open(FxRobot robot) {
        Menu fabric = editor.menuBar().getMenus().stream().filter(m -> m.getText().equals("Fabric")).findFirst().orElseThrow();
        MenuItem item = fabric.getItems().stream().filter(i -> "menu-qos-profiles".equals(i.getId())).findFirst().orElseThrow();
        assertEquals("QoS Profiles…", item.getText());
        robot.interact(item::fire);
        WaitForAsyncUtils.waitForFxEvents();
        return robot.lookup("#qos-editor").queryAs(QosEditor.class);
    }

    private static void type(FxRobot robot, QosEditor qos, String key, String text) {
        TextInputControl field = (TextInputControl) qos.control(key);
        assertNotNull(field, key);
        robot.interact(() -> field.setText(text));
    }

    @Test
    void editingAValueIsCheckedAsTypedAppliedAsOneCommandAndUndone(FxRobot robot) {
        QosEditor qos = open(robot);
        Fabric f = editor.document().fabric();
        QosProfile before = f.qosProfile("rdma-lossless"); // the default profile, shown first
        Button apply = robot.lookup("#qos-apply").queryButton();
        assertTrue(apply.isDisabled(), "nothing changed yet");

        type(robot, qos, "pfc.xoffBytes", "900000");
        assertEquals(List.of(), qos.problemLines());
        assertFalse(apply.isDisabled());

        // The 100G profile's class 3 curve is Kmin 400,000 / Kmax 1,600,000 B: Kmin = Kmax is rejected as typed.
        type(robot, qos, "ecn.classes['3'].kminBytes", "1600000");
        assertEquals(1, qos.problemLines().size(), qos.problemLines().toString());
        assertTrue(qos.problemLines().get(0).contains("must be below Kmax"), qos.problemLines().toString());
        assertTrue(apply.isDisabled(), "an invalid profile cannot be applied");
        assertFalse(qos.validation().getValidationResult().getErrors().isEmpty(), "the field is decorated");

        // XOFF + headroom over the 64 MiB buffer, one lossless priority: 67,000,000 + 120,000 = 67,120,000 B > 67,108,864 B.
        type(robot, qos, "ecn.classes['3'].kminBytes", "500000");
        type(robot, qos, "pfc.xoffBytes", "67000000");
        assertTrue(qos.problemLines().stream().anyMatch(l -> l.contains("do not fit in the 67108864 B buffer")),
                qos.problemLines().toString());
        assertTrue(apply.isDisabled());
        type(robot, qos, "pfc.xoffBytes", "900000");
        assertEquals(List.of(), qos.problemLines());

        robot.interact(apply::fire);
        QosProfile after = f.qosProfile("rdma-lossless");
        assertEquals(900_000, after.pfc().xoffBytes());
        assertEquals(500_000, after.ecn().classes().get(3).kminBytes());
        assertEquals(before.dcqcn(), after.dcqcn(), "untouched fields unchanged");
        assertEquals(1, editor.document().stack().undoDepth(), "one undoable command");
        assertEquals("Edit QoS profile rdma-lossless", editor.document().stack().undoDescription());

        robot.interact(editor.document()::undo);
        assertEquals(before, f.qosProfile("rdma-lossless"));
        assertEquals("1000000", ((TextInputControl) qos.control("pfc.xoffBytes")).getText(), "the editor shows the undone value");
        robot.interact(editor.document()::redo);
        assertEquals(after, f.qosProfile("rdma-lossless"));
    }

    @Test
    void assigningToTheSelectedDevicesPortsIsOneUndoableCommand(FxRobot robot) {
        QosEditor qos = open(robot);
        Fabric f = editor.document().fabric();
        Device leaf = f.device("leaf1");
        robot.interact(() -> qos.lookupAll("#qos-profiles").forEach(n ->
                ((javafx.scene.control.ListView<?>) n).getSelectionModel().select(1))); // rdma-lossless-400g
        robot.interact(() -> editor.document().selection().set(List.of(leaf), List.of()));
        Button toPorts = robot.lookup("#qos-assign-ports").queryButton();
        assertFalse(toPorts.isDisabled());
        List<String> old = leaf.ports().stream().map(p -> String.valueOf(p.qosProfile())).toList();
        robot.interact(toPorts::fire);
        leaf.ports().forEach(p -> assertEquals("rdma-lossless-400g", p.qosProfile(), p.ref()));
        assertEquals(1, editor.document().stack().undoDepth());
        robot.interact(editor.document()::undo);
        assertEquals(old, leaf.ports().stream().map(p -> String.valueOf(p.qosProfile())).toList());
    }

    /** Issue 16: enum values read as the fabric file spells them ("drop"), not as Java names ("DROP"). */
    @Test
    void choicesShowTheFileSpelling(FxRobot robot) {
        QosEditor qos = open(robot);
        @SuppressWarnings("unchecked")
        javafx.scene.control.ComboBox<Object> action =
                (javafx.scene.control.ComboBox<Object>) qos.control("pfc.watchdogAction");
        assertNotNull(action);
        List<String> shown = action.getItems().stream().map(v -> action.getConverter().toString(v)).toList();
        assertEquals(List.of("drop", "forward"), shown);
        WaitForAsyncUtils.waitForFxEvents();
        javafx.scene.control.ListCell<?> button = (javafx.scene.control.ListCell<?>) action.getButtonCell();
        String text = button != null ? button.getText() : action.getConverter().toString(action.getValue());
        assertEquals(action.getConverter().toString(action.getValue()), text);
        assertEquals(text.toLowerCase(java.util.Locale.ROOT), text, "shown in lower case: " + text);
        @SuppressWarnings("unchecked")
        javafx.scene.control.ComboBox<Object> mode = (javafx.scene.control.ComboBox<Object>) qos.control("buffer.mode");
        assertEquals(List.of("static", "dynamic"),
                mode.getItems().stream().map(v -> mode.getConverter().toString(v)).toList());
    }
}
