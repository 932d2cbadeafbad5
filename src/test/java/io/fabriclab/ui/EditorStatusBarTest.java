package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.edit.AddDeviceCommand;
import io.fabriclab.edit.MoveDevicesCommand;
import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Layout;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.stage.Stage;

/**
 * The status bar (issue 16 item 15): its right-hand fields are not cut off in a narrow window,
 * and every change of the undo stack (a move, an undo, a redo) shows in it.
 */
@ExtendWith(ApplicationExtension.class)
class EditorStatusBarTest {
    private FabricDocument doc;
    private FabricEditor editor;

    @Start
    void start(Stage stage) {
        doc = new FabricDocument(DemoFabric.classic(), null);
        editor = new FabricEditor(doc);
        // Narrow: the long "Ready. Drag from the palette …" message and the four fields do not all fit.
        stage.setScene(new Scene(editor, 760, 600));
        stage.show();
    }

    @Test
    void theRightHandFieldsKeepTheirWholeTextInANarrowWindow(FxRobot robot) {
        WaitForAsyncUtils.waitForFxEvents();
        for (String id : new String[] {"#status-counts", "#status-oversubscription"}) {
            Label l = robot.lookup(id).queryAs(Label.class);
            assertTrue(l.getWidth() >= l.prefWidth(-1) - 0.5, id + " cut off: " + l.getWidth() + " < "
                    + l.prefWidth(-1) + " for \"" + l.getText() + "\"");
        }
    }

    /** Issue 35 item 5: a message the narrow status bar cuts short is whole in its tooltip and in the log. */
    @Test
    void aLongMessageIsWholeOnHoverAndInTheMessageLog(FxRobot robot) {
        String longMessage = "Generated leaf-spine: 4 leaves, 2 spines, 32 servers, 256 GPUs; worst leaf"
                + " oversubscription 2.00:1 (leaf1); 48 links of 400 Gb/s; bisection 12.8 Tb/s";
        robot.interact(() -> editor.message(longMessage));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(longMessage, editor.statusBar().getTooltip().getText(), "the whole message on hover");
        assertTrue(editor.messageLog().get(editor.messageLog().size() - 1).endsWith("  " + longMessage));
        robot.interact(editor::showMessageLog);
        javafx.scene.control.ListView<?> log = robot.lookup("#message-log").queryAs(javafx.scene.control.ListView.class);
        assertTrue(log.getItems().stream().anyMatch(i -> String.valueOf(i).endsWith(longMessage)));
        robot.interact(() -> log.getScene().getWindow().hide());
    }

    @Test
    void aMoveAnUndoAndARedoEachShowInTheStatusBar(FxRobot robot) {
        Layout.Point at = doc.fabric().layout().position("leaf1");
        robot.interact(() -> doc.execute(new MoveDevicesCommand(doc.fabric(), "Move leaf1", Map.of("leaf1", at),
                Map.of("leaf1", new Layout.Point(at.x() + 40, at.y())))));
        assertEquals("Move leaf1", editor.statusBar().getText());
        robot.interact(doc::undo);
        assertEquals("Undid Move leaf1", editor.statusBar().getText());
        robot.interact(doc::redo);
        assertEquals("Redid Move leaf1", editor.statusBar().getText());

        // The counts follow undo and redo too.
        int devices = doc.fabric().devices().size();
        robot.interact(() -> doc.execute(new AddDeviceCommand(doc.fabric(), new Device("srv-x", DeviceRole.SERVER),
                0, 0)));
        Label counts = robot.lookup("#status-counts").queryAs(Label.class);
        assertTrue(counts.getText().startsWith((devices + 1) + " devices"), counts.getText());
        robot.interact(doc::undo);
        assertTrue(counts.getText().startsWith(devices + " devices"), counts.getText());
        assertTrue(editor.statusBar().getText().startsWith("Undid "), editor.statusBar().getText());
        robot.interact(doc::redo);
        assertTrue(counts.getText().startsWith((devices + 1) + " devices"), counts.getText());
    }
}
