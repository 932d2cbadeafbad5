package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import io.fabriclab.diagram.Bounds;
import io.fabriclab.diagram.DiagramGeometry;
import io.fabriclab.edit.DeviceTemplate;
import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import javafx.scene.Scene;
import javafx.stage.Stage;

/** A palette double-click puts the new device in free space, never on top of another one (issue: it hid one). */
@ExtendWith(ApplicationExtension.class)
class PaletteDropTest {
    private FabricEditor editor;

    @Start
    void start(Stage stage) {
        editor = new FabricEditor(new FabricDocument(DemoFabric.classic(), null));
        stage.setScene(new Scene(editor, 1000, 700));
        stage.show();
    }

    @Test
    void doubleClickedDevicesLandWhereNoOtherDeviceIs(FxRobot robot) {
        List<Device> added = new ArrayList<>();
        robot.interact(() -> {
            editor.canvas().fitToWindow();
            for (int i = 0; i < 3; i++) {
                added.add(editor.canvas().addDeviceInFreeSpace(DeviceTemplate.switch64x400(DeviceRole.LEAF)));
            }
        });
        DiagramGeometry g = editor.canvas().geometry();
        for (Device d : added) {
            Bounds b = g.box(d);
            List<Device> under = g.devicesIntersecting(b);
            assertEquals(List.of(d), under, d.id() + " overlaps " + under);
        }
        assertEquals(3, editor.document().stack().undoDepth(), "each one an undoable add");
        assertTrue(editor.document().selection().contains(added.get(2)), "the new device is selected");
    }
}
