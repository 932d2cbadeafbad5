package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import io.fabriclab.diagram.DiagramGeometry;
import io.fabriclab.edit.DeleteSelectionCommand;
import io.fabriclab.edit.FabricCommand;
import io.fabriclab.edit.MoveDevicesCommand;
import io.fabriclab.edit.SetPropertyCommand;
import io.fabriclab.io.FabricFiles;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;
import io.fabriclab.model.Link;
import io.fabriclab.model.LinkState;
import javafx.scene.Scene;
import javafx.scene.image.Image;
import javafx.scene.image.ImageView;
import javafx.scene.image.PixelFormat;
import javafx.stage.Stage;

/**
 * After an edit the canvas updates its geometry from the previous one (issue 17): a failed link
 * or a moved device keeps the geometry's index and the painter's groups, any other edit makes them
 * again; either way the frame is, pixel for pixel, the one a canvas that starts afresh paints.
 */
@ExtendWith(ApplicationExtension.class)
class EditRedrawTest {
    private FabricEditor editor;
    private FabricCanvas canvas;

    @Start
    void start(Stage stage) throws Exception {
        Fabric rail = FabricFiles.load(Path.of("resources/examples/rail-4su.json"));
        editor = new FabricEditor(new FabricDocument(rail, null));
        canvas = editor.canvas();
        stage.setScene(new Scene(editor, 1200, 780));
        stage.show();
    }

    private int[] pixels() {
        Image img = ((ImageView) canvas.canvas()).getImage();
        int w = (int) img.getWidth();
        int h = (int) img.getHeight();
        int[] px = new int[w * h];
        img.getPixelReader().getPixels(0, 0, w, h, PixelFormat.getIntArgbInstance(), px, 0, w);
        return px;
    }

    /**
     * Runs the edit and paints; then paints the same view with a new painter and geometry (a theme
     * set again starts both afresh). Returns what {@link DiagramGeometry#movedSince} said.
     */
    private Set<Device> editAndCompare(FxRobot robot, FabricCommand c) {
        Object[] out = new Object[3];
        robot.interact(() -> {
            DiagramGeometry before = canvas.geometry();
            canvas.document().execute(c);
            canvas.redraw();
            out[0] = pixels();
            out[2] = canvas.geometry().movedSince(before);
            DiagramGeometry kept = canvas.geometry();
            canvas.setTheme(canvas.painter().style().theme());
            canvas.redraw();
            assertNotSame(kept, canvas.geometry(), "the comparison frame starts afresh");
            out[1] = pixels();
        });
        assertArrayEquals((int[]) out[1], (int[]) out[0], c.description() + ": the frame a fresh canvas paints");
        @SuppressWarnings("unchecked")
        Set<Device> moved = (Set<Device>) out[2];
        return moved;
    }

    @Test
    void failingALinkOrMovingADeviceKeepsWhatItCanAndDrawsWhatAFreshCanvasDraws(FxRobot robot) {
        Fabric f = canvas.document().fabric();
        Link uplink = f.links().stream().filter(l -> l.a().device().role().tier() == 1
                && l.b().device().role().tier() == 2).findFirst().orElseThrow();
        assertEquals(Set.of(), editAndCompare(robot, new SetPropertyCommand<>("Fail " + uplink.id(), uplink::state,
                uplink::setState, LinkState.DOWN)), "a failed link moves nothing: everything is kept");
        Device leaf = uplink.a().device();
        Layout.Point p = f.layout().position(leaf.id());
        assertEquals(Set.of(leaf), editAndCompare(robot, new MoveDevicesCommand(f, "Move " + leaf.id(),
                Map.of(leaf.id(), p), Map.of(leaf.id(), new Layout.Point(p.x() + 200, p.y() + 40)))),
                "a move refits the moved leaf's groups only");
        assertNull(editAndCompare(robot, new DeleteSelectionCommand(f, Set.of(), Set.of(uplink))),
                "a link removed: the geometry and the groups are made again");
    }

    /**
     * After an edit the FX thread repaints in three turns, each short on a large fabric, with
     * whatever else is queued running between them: the new geometry, then the frame, then the
     * minimap's picture. Probes posted from turn to turn (the FX queue runs in order) see each
     * step land in its own turn.
     */
    @Test
    void theRepaintAfterAnEditComesInTurns(FxRobot robot) throws Exception {
        java.util.List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        failFirstLink(robot, revision -> {
            // The paint is queued by the edit; each probe runs after the turn queued before it.
            javafx.application.Platform.runLater(() -> {
                seen.add(state(revision));
                javafx.application.Platform.runLater(() -> {
                    seen.add(state(revision));
                    javafx.application.Platform.runLater(() -> {
                        seen.add(state(revision));
                        done.countDown();
                    });
                });
            });
        });
        org.junit.jupiter.api.Assertions.assertTrue(done.await(1, java.util.concurrent.TimeUnit.MINUTES));
        assertEquals(java.util.List.of("geometry new, frame old, minimap old", "geometry new, frame new, minimap old",
                "geometry new, frame new, minimap new"), seen);
    }

    /**
     * Work asked for after an edit (Fail a Link's background computation) starts once all three
     * turns of the repaint have run: the frame and the minimap show the edit by then. Asked for
     * with no repaint pending, it runs in the next turn.
     */
    @Test
    void workAskedForAfterAnEditWaitsForTheWholeRepaint(FxRobot robot) throws Exception {
        java.util.List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(2);
        failFirstLink(robot, revision -> canvas.whenPainted().thenRun(() -> {
            seen.add("after the edit: " + state(revision));
            done.countDown();
            // Nothing pending now: the next one completes in the next turn, the picture unchanged.
            canvas.whenPainted().thenRun(() -> {
                seen.add("nothing pending: " + state(revision));
                done.countDown();
            });
        }));
        org.junit.jupiter.api.Assertions.assertTrue(done.await(1, java.util.concurrent.TimeUnit.MINUTES));
        assertEquals(java.util.List.of("after the edit: geometry new, frame new, minimap new",
                "nothing pending: geometry new, frame new, minimap new"), seen);
    }

    /** Fails the fabric's first link on the FX thread and, in the same turn, gives {@code then} the new revision. */
    private void failFirstLink(FxRobot robot, java.util.function.LongConsumer then) {
        Link l = canvas.document().fabric().links().iterator().next();
        robot.interact(() -> { });
        robot.interact(() -> {
            canvas.document().execute(new SetPropertyCommand<>("Fail link", l::state, l::setState, LinkState.DOWN));
            then.accept(canvas.document().stack().revision());
        });
    }

    private String state(long revision) {
        return "geometry " + (canvas.geometryIsCurrent() ? "new" : "old") + ", frame "
                + (canvas.paintedRevision() == revision ? "new" : "old") + ", minimap "
                + (canvas.minimapRevision() == revision ? "new" : "old");
    }
}
