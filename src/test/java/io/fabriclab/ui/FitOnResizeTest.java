package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.diagram.Bounds;
import javafx.scene.Scene;
import javafx.stage.Stage;

/** A fitted view stays fitted when the canvas changes size, until the user pans or zooms. */
@ExtendWith(ApplicationExtension.class)
class FitOnResizeTest {
    private Stage stage;
    private FabricCanvas canvas;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        FabricEditor editor = new FabricEditor(new FabricDocument(DemoFabric.classic(), null));
        canvas = editor.canvas();
        stage.setScene(new Scene(editor, 1200, 780));
        stage.show();
    }

    /** True when the whole fabric is inside the canvas. */
    private boolean fabricInside() {
        Bounds e = canvas.geometry().extent();
        var vp = canvas.viewport();
        return vp.toScreenX(e.minX()) >= 0 && vp.toScreenY(e.minY()) >= 0
                && vp.toScreenX(e.maxX()) <= canvas.getWidth() && vp.toScreenY(e.maxY()) <= canvas.getHeight();
    }

    private void resize(FxRobot robot, double width) {
        robot.interact(() -> stage.setWidth(width));
        WaitForAsyncUtils.waitForFxEvents();
    }

    @Test
    void aFittedViewIsFittedAgainWhenTheCanvasNarrows(FxRobot robot) {
        robot.interact(canvas::fitToWindow);
        double before = canvas.viewport().scale();
        resize(robot, 800);
        assertTrue(canvas.viewport().scale() < before, "zoomed out to the narrower canvas");
        assertTrue(fabricInside(), "the whole fabric is still on screen");
    }

    @Test
    void aViewTheUserMovedIsKeptOnResize(FxRobot robot) {
        robot.interact(() -> {
            canvas.fitToWindow();
            canvas.zoomAt(100, 100, 1.5); // the user zooms: the view is no longer the fitted one
        });
        double scale = canvas.viewport().scale();
        double offsetX = canvas.viewport().offsetX();
        resize(robot, 800);
        assertEquals(scale, canvas.viewport().scale(), 1e-12);
        assertEquals(offsetX, canvas.viewport().offsetX(), 1e-12);
    }
}
