package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.diagram.Bounds;
import io.fabriclab.diagram.FabricPainter;
import io.fabriclab.diagram.FoldGroup;
import io.fabriclab.model.Device;
import io.fabriclab.topology.RailOptimizedGenerator;
import javafx.geometry.Point2D;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * Issue 32, "Seeing it": a three-tier rail fabric fitted in the editor is one box per unit and
 * per core group; a double-click on a unit's box drills into it (its servers unfold, a breadcrumb
 * "Whole fabric › unit n" appears) and the breadcrumb's link brings the whole fabric back.
 */
@ExtendWith(SharedStageExtension.class)
class DrillDownTest {

    private FabricCanvas canvas;

    @Start
    void start(Stage stage) {
        // 16 units: three tiers (8 spines per unit, 8 core groups), 4,096 GPUs.
        FabricDocument doc = new FabricDocument(RailOptimizedGenerator.generate(16), null);
        FabricEditor editor = new FabricEditor(doc);
        canvas = editor.canvas();
        stage.setScene(new Scene(editor, 1200, 780));
        stage.show();
    }

    @Test
    void aDoubleClickOnAUnitDrillsInAndTheBreadcrumbLeadsBack(FxRobot robot) {
        robot.interact(() -> canvas.fitToWindow());
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(FabricPainter.foldsUnitSwitchesAt(canvas.viewport().scale(), canvas.options().fold()),
                "fitted: the overview at scale " + canvas.viewport().scale());
        Device spine = canvas.geometry().fabric().device("su12-spine3");
        Map<Device, FoldGroup> folded = canvas.painter().foldGroups(canvas.geometry(), canvas.viewport().scale(),
                canvas.options().fold());
        FoldGroup unit = folded.get(spine);
        assertNotNull(unit, "unit 12's spines fold into its box");
        assertEquals(folded.get(canvas.geometry().fabric().device("su12-srv01")), unit);
        assertNull(canvas.drillDownPath());

        Bounds box = FabricPainter.glyphBox(unit, canvas.viewport());
        Point2D at = canvas.localToScreen(box.centreX(), box.centreY());
        Point2D scene = canvas.localToScene(box.centreX(), box.centreY());
        // The double-click as the canvas receives it (clicked, click count 2). The robot's own two
        // clicks arrive as two single clicks here: the first one's selection of the unit's 48
        // devices redraws the 4,096-GPU fabric before the second is read.
        robot.interact(() -> javafx.event.Event.fireEvent(canvas, new javafx.scene.input.MouseEvent(
                javafx.scene.input.MouseEvent.MOUSE_CLICKED, scene.getX(), scene.getY(), at.getX(), at.getY(),
                javafx.scene.input.MouseButton.PRIMARY, 2, false, false, false, false, true, false, false, true,
                false, true, null)));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals("Whole fabric ›  unit 12", canvas.drillDownPath());
        assertFalse(FabricPainter.foldsServersAt(canvas.viewport().scale(), canvas.options().fold()),
                "inside the unit its servers unfold at scale " + canvas.viewport().scale());
        assertFalse(canvas.isStillFitted());

        robot.clickOn("Whole fabric");
        WaitForAsyncUtils.waitForFxEvents();
        assertNull(canvas.drillDownPath());
        assertTrue(canvas.isStillFitted(), "back to the fitted whole fabric");
    }
}
