package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.diagram.Bounds;
import io.fabriclab.model.Device;
import io.fabriclab.topology.RailOptimizedGenerator;
import javafx.scene.Scene;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;

/**
 * Issue 16 item 11: the legend and the minimap never cover a device unless the user asks: each is
 * put in a corner free of devices or folded to a chip, and one click opens or folds it.
 */
@ExtendWith(ApplicationExtension.class)
class OverlayPlacementTest {
    private FabricCanvas canvas;
    private StackPane root;
    private Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        canvas = new FabricCanvas(new FabricDocument(DemoFabric.classic(), null));
        root = new StackPane(canvas);
        stage.setScene(new Scene(root, 1200, 800));
        stage.show();
    }

    /** The device boxes on screen, as the canvas draws them. */
    private boolean coversAnyDevice(Bounds screen) {
        var vp = canvas.viewport();
        for (Device d : canvas.document().fabric().devices()) {
            Bounds b = canvas.geometry().box(d);
            Bounds s = new Bounds(vp.toScreenX(b.minX()), vp.toScreenY(b.minY()), vp.toScreenX(b.maxX()),
                    vp.toScreenY(b.maxY()));
            if (s.intersects(screen)) {
                return true;
            }
        }
        return false;
    }

    private void resize(FxRobot robot, double w, double h) {
        robot.interact(() -> {
            stage.setX(0); // the robot clicks on the screen: keep the window on Monocle's 1280x800 screen
            stage.setY(0);
            stage.setWidth(w);
            stage.setHeight(h);
            root.setPrefSize(w, h);
            canvas.fitToWindow();
            canvas.redraw();
        });
        WaitForAsyncUtils.waitForFxEvents();
        robot.interact(canvas::redraw);
    }

    private void assertNothingCovered(String when) {
        Bounds legend = canvas.legendBox();
        assertTrue(legend != null || canvas.legendChip() != null, when + ": the legend is shown or folded");
        if (legend != null) {
            assertFalse(coversAnyDevice(legend), when + ": the legend at " + legend + " covers a device");
        }
        Bounds map = canvas.minimapBox();
        assertTrue(map != null || canvas.minimapChip().isVisible(), when + ": the minimap is shown or folded");
        if (map != null) {
            assertFalse(coversAnyDevice(map), when + ": the minimap at " + map + " covers a device");
        }
    }

    @Test
    void atEverySizeTheOverlaysCoverNoDeviceOrAreFolded(FxRobot robot) {
        for (double[] size : new double[][] {{1200, 800}, {800, 560}, {520, 380}, {360, 260}}) {
            resize(robot, size[0], size[1]);
            assertNothingCovered(size[0] + "x" + size[1]);
        }
        // A rail fabric fills the canvas to its corners: folded, not drawn over the servers.
        robot.interact(() -> canvas.document().execute(new ReplaceFabricCommand(canvas.document(),
                "rail", RailOptimizedGenerator.generate(2), null)));
        resize(robot, 640, 420);
        assertNothingCovered("rail 2 SU at 640x420");
    }

    @Test
    void oneClickFoldsTheLegendAndOneClickOpensIt(FxRobot robot) {
        resize(robot, 1200, 760);
        Bounds legend = canvas.legendBox();
        assertNotNull(legend, "at 1200x800 the classic fabric leaves a corner free for the legend");
        // The "–" strip at the top of the legend folds it.
        robot.interact(() -> canvas.fireEvent(press(legend.maxX() - 14, legend.minY() + 10)));
        robot.interact(canvas::redraw);
        assertNull(canvas.legendBox());
        Bounds chip = canvas.legendChip();
        assertNotNull(chip);
        robot.interact(() -> canvas.fireEvent(press(chip.minX() + 10, chip.minY() + 8)));
        robot.interact(canvas::redraw);
        assertNotNull(canvas.legendBox(), "the chip opens it again");
        assertTrue(canvas.document().selection().isEmpty(), "clicking an overlay selects nothing");

        // The minimap: its "–" folds it to a chip; the chip opens it.
        robot.clickOn("#minimap-close");
        robot.interact(canvas::redraw);
        assertNull(canvas.minimapBox());
        assertTrue(canvas.minimapChip().isVisible());
        robot.clickOn("#minimap-chip");
        robot.interact(canvas::redraw);
        assertNotNull(canvas.minimapBox());
    }

    private javafx.scene.input.MouseEvent press(double x, double y) {
        return new javafx.scene.input.MouseEvent(javafx.scene.input.MouseEvent.MOUSE_PRESSED, x, y, x, y,
                javafx.scene.input.MouseButton.PRIMARY, 1, false, false, false, false, true, false, false, false,
                false, false, null);
    }
}

