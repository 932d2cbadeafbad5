package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.diagram.Bounds;
import io.fabriclab.io.FabricJson;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * Issue 35 item 2: with the live view open at 1280x800 the live legend sat in the top right
 * corner over spine sp2 and its pause marks. The canvas now places it like its own legend and the
 * minimap: in a corner crossed by no device and no link (the run's marks sit on links), or folded
 * to a chip.
 */
@ExtendWith(ApplicationExtension.class)
class LiveOverlayPlacementTest {
    private FabricEditor editor;
    private Stage stage;

    @Start
    void start(Stage stage) throws Exception {
        this.stage = stage;
        editor = new FabricEditor(new FabricDocument(
                FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json")), null));
        stage.setScene(new Scene(editor, 1280, 800));
        stage.show();
    }

    private void assertClear(Bounds b, String what) {
        FabricCanvas c = editor.canvas();
        assertFalse(c.coversDrawing(b), what + " at " + b + " covers a device");
        assertFalse(c.coversLink(b), what + " at " + b + " covers a link (and the marks on it)");
    }

    @Test
    void theLiveLegendAndTheMinimapCoverNoDeviceAndNoLink(FxRobot robot) {
        for (double[] size : new double[][] {{1280, 800}, {1024, 700}}) {
            robot.interact(() -> {
                stage.setWidth(size[0]);
                stage.setHeight(size[1]);
            });
            robot.interact(() -> {
                if (editor.livePanel() == null) {
                    editor.showLiveView(true);
                }
                editor.canvas().fitToWindow();
                editor.canvas().redraw();
            });
            WaitForAsyncUtils.waitForFxEvents();
            robot.interact(() -> editor.canvas().redraw());
            FabricCanvas c = editor.canvas();
            String at = size[0] + "x" + size[1];
            Bounds legend = c.layerLegendBox();
            // The fitted drawing leaves the legend a column of its own: at 1280 px it is shown, not folded
            // (a canvas narrower than twice the legend keeps the whole width for the drawing: the chip).
            if (size[0] >= 1280) {
                assertNotNull(legend, at + ": the fitted view leaves the live legend a free corner");
            }
            assertTrue(legend != null || c.layerLegendChip() != null, at + ": the live legend is shown or folded");
            if (legend != null) {
                assertClear(legend, at + ": the live legend");
            } else {
                assertClear(c.layerLegendChip(), at + ": the live legend's chip");
            }
            Bounds map = c.minimapBounds();
            if (map != null) {
                assertClear(map, at + ": the minimap");
                assertFalse(legend != null && legend.intersects(map), at + ": legend and minimap overlap");
            }
        }
        assertNotNull(editor.livePanel());
    }
}
