package io.fabriclab.ui.live;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.io.FabricJson;
import io.fabriclab.model.Layout;
import io.fabriclab.ui.FabricDocument;
import io.fabriclab.ui.FabricEditor;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Labeled;
import javafx.scene.control.SplitPane;
import javafx.scene.text.Text;
import javafx.stage.Stage;

/**
 * The live view on a 1280 x 800 window (issue 16 item 10): the inspector docks away while the run
 * panel is open so the canvas keeps most of the width, no field or label of the panel is cut off
 * ("run to comple…"), closing brings the inspector and the dividers back, and the hottest link is
 * named and brought into view when it sits off screen.
 */
@ExtendWith(ApplicationExtension.class)
class LiveLayoutTest {
    private FabricEditor editor;

    @Start
    void start(Stage stage) throws Exception {
        editor = new FabricEditor(new FabricDocument(
                FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json")), null));
        stage.setScene(new Scene(editor, 1280, 800));
        stage.show();
    }

    @org.junit.jupiter.api.AfterEach
    void close(FxRobot robot) {
        robot.interact(() -> editor.showLiveView(false));
    }

    private <T> T fx(FxRobot robot, Callable<T> c) {
        AtomicReference<T> out = new AtomicReference<>();
        robot.interact(() -> {
            try {
                out.set(c.call());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        return out.get();
    }

    private SplitPane centre() {
        return (SplitPane) editor.lookup(".split-pane");
    }

    /** Every text a control of {@code root} draws that is not its whole text (JavaFX ends a cut text with an ellipsis). */
    private static List<String> cutOff(Node root) {
        List<String> out = new ArrayList<>();
        for (Node n : root.lookupAll(".labeled")) {
            if (n instanceof Labeled l && l.isVisible() && l.getText() != null && !l.getText().isEmpty()) {
                for (Node t : l.lookupAll(".text")) {
                    if (t instanceof Text text && text.getParent() == l && !l.getText().equals(text.getText())) {
                        out.add(l.getText() + " drawn as " + text.getText());
                    }
                }
            }
        }
        return out;
    }

    @Test
    void theInspectorDocksAwayTheCanvasKeepsTheRoomNothingIsCutOffAndClosingRestoresTheLayout(FxRobot robot) {
        double[] before = fx(robot, () -> centre().getDividerPositions());
        double canvasBefore = fx(robot, () -> editor.canvas().getWidth());
        robot.interact(() -> editor.showLiveView(true));
        WaitForAsyncUtils.waitForFxEvents();
        LivePanel panel = fx(robot, () -> LivePanel.of(editor));
        assertFalse(fx(robot, () -> centre().getItems().contains(editor.inspector())), "the inspector docks away");
        assertTrue(fx(robot, () -> centre().getItems().contains(panel)));
        double canvas = fx(robot, () -> editor.canvas().getWidth());
        // 1280 px: palette about 140, the panel 400 and two dividers leave the canvas about 730 px.
        assertTrue(canvas >= 0.55 * 1280, "the canvas keeps most of the window: " + canvas);
        assertTrue(canvas >= canvasBefore - 200, "the panel takes about the inspector's room: " + canvasBefore + " -> " + canvas);
        // The longest workload name chosen: the list shows it whole.
        robot.interact(() -> panel.workload.setValue(panel.workload.getItems().stream()
                .max(java.util.Comparator.comparingInt(w -> w.toString().length())).orElseThrow()));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(List.of(), fx(robot, () -> cutOff(panel)), "no label or field of the panel is cut off");
        assertTrue(fx(robot, () -> panel.getWidth()) >= 320);
        robot.interact(() -> editor.showLiveView(false));
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(fx(robot, () -> centre().getItems().contains(editor.inspector())), "the inspector is back");
        assertArrayEquals(before, fx(robot, () -> centre().getDividerPositions()), 1e-9, "the dividers as before");
    }

    /**
     * The view is panned far from the fabric; stepping the PFC-only incast, the panel names the
     * hottest port and, with "keep the hottest link in view" ticked, pans the canvas to its device.
     */
    @Test
    void theHottestLinkIsNamedAndBroughtIntoViewWhenItIsOffScreen(FxRobot robot) throws Exception {
        robot.interact(() -> editor.showLiveView(true));
        LivePanel panel = fx(robot, () -> LivePanel.of(editor));
        robot.interact(() -> {
            editor.canvas().viewport().set(1.0, 50_000, 50_000);
            editor.canvas().requestRedraw();
            panel.model().sizeMb.set("0.5");
            panel.model().profile.set("pfc-only");
            panel.model().step(false);
        });
        assertTrue(fx(robot, () -> panel.followHottest.isSelected()), "on by default");
        for (int k = 1; k <= 8; k++) {
            int step = k;
            long want = k * 5_000_000L;
            try {
                WaitForAsyncUtils.waitFor(300, TimeUnit.SECONDS, () -> fx(robot, () -> panel.model().shownSnapshot() != null
                        && panel.model().shownSnapshot().timePs() == want));
            } catch (java.util.concurrent.TimeoutException e) {
                var at = fx(robot, () -> panel.model().shownSnapshot());
                throw new AssertionError("step " + step + ": shows " + (at == null ? "nothing" : at.timePs() + " ps")
                        + ", status " + fx(robot, () -> panel.model().status()), e);
            }
            WaitForAsyncUtils.waitForFxEvents();
            if (k < 8) {
                robot.interact(() -> panel.model().step(false));
            }
        }
        String text = fx(robot, () -> panel.hottestNow.getText());
        String hottest = fx(robot, () -> RunReview.hottestPort(panel.model().shownSnapshot()));
        assertTrue(hottest != null && text.startsWith("hottest: " + hottest + ","), text);
        assertTrue(text.endsWith("(on screen)"), "brought into view: " + text);
        String device = hottest.substring(0, hottest.indexOf(':'));
        Layout.Point p = fx(robot, () -> editor.document().fabric().layout().position(device));
        double x = fx(robot, () -> editor.canvas().viewport().toScreenX(p.x()));
        double y = fx(robot, () -> editor.canvas().viewport().toScreenY(p.y()));
        assertTrue(x >= 0 && x <= fx(robot, () -> editor.canvas().getWidth()) && y >= 0
                && y <= fx(robot, () -> editor.canvas().getHeight()), device + " at " + x + "," + y);
    }
}
