package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import io.fabriclab.diagram.Bounds;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * Opening the live view's panel narrows the canvas: a fitted view is fitted again, so the panel
 * does not cut the fabric off; a view the user zoomed or panned is kept.
 */
@ExtendWith(ApplicationExtension.class)
class FitOnResizeTest {
    private FabricEditor editor;
    private FabricCanvas canvas;

    @Start
    void start(Stage stage) {
        editor = new FabricEditor(new FabricDocument(DemoFabric.classic(), null));
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

    @Test
    void aFittedViewIsFittedAgainWhenTheLiveViewsPanelOpensAndCloses(FxRobot robot) {
        robot.interact(canvas::fitToWindow);
        double width = canvas.getWidth();
        double before = canvas.viewport().scale();
        robot.interact(() -> editor.showLiveView(true));
        assertTrue(canvas.getWidth() < width - 100, "the panel takes room from the canvas");
        assertTrue(canvas.viewport().scale() < before, "zoomed out to the narrower canvas");
        assertTrue(fabricInside(), "the whole fabric is still on screen");
        assertTrue(canvas.isStillFitted());
        robot.interact(() -> editor.showLiveView(false));
        assertTrue(canvas.isStillFitted());
        double closed = canvas.viewport().scale();
        robot.interact(canvas::fitToWindow);
        assertEquals(canvas.viewport().scale(), closed, 1e-12, "fitted to the canvas as it is after closing");
    }

    @Test
    void aViewTheUserZoomedIsKeptWhenThePanelOpens(FxRobot robot) {
        robot.interact(() -> {
            canvas.fitToWindow();
            canvas.zoomAt(100, 100, 1.5); // the user zooms: the view is no longer the fitted one
        });
        assertFalse(canvas.isStillFitted());
        double scale = canvas.viewport().scale();
        double offsetX = canvas.viewport().offsetX();
        robot.interact(() -> editor.showLiveView(true));
        assertEquals(scale, canvas.viewport().scale(), 1e-12);
        assertEquals(offsetX, canvas.viewport().offsetX(), 1e-12);
        robot.interact(() -> editor.showLiveView(false));
    }
}
