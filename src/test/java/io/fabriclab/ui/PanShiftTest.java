package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import io.fabriclab.io.FabricFiles;
import io.fabriclab.model.Fabric;
import javafx.scene.Scene;
import javafx.scene.image.Image;
import javafx.scene.image.ImageView;
import javafx.scene.image.PixelFormat;
import javafx.stage.Stage;

/**
 * A pan of a view that shows the whole fabric shifts the previous frame's pixels and paints only
 * the uncovered strips. The picture must be the one a full paint of the new view gives.
 */
@ExtendWith(ApplicationExtension.class)
class PanShiftTest {
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

    /** Pans by (dx, dy), paints, and returns {shifted frame, full paint of the same view, shifts}. */
    private Object[] panAndRepaint(FxRobot robot, double dx, double dy) {
        Object[] out = new Object[3];
        robot.interact(() -> {
            long shifts = canvas.panShifts();
            canvas.viewport().pan(dx, dy);
            canvas.redraw();
            out[0] = pixels();
            out[2] = canvas.panShifts() - shifts;
            canvas.invalidate();
            canvas.redraw();
            out[1] = pixels();
        });
        return out;
    }

    /** Pixels whose channels differ by more than {@code tolerance} (of 255). */
    private static int differing(int[] a, int[] b, int tolerance) {
        int n = 0;
        for (int i = 0; i < a.length; i++) {
            for (int sh = 0; sh < 32; sh += 8) {
                if (Math.abs(((a[i] >> sh) & 0xff) - ((b[i] >> sh) & 0xff)) > tolerance) {
                    n++;
                    break;
                }
            }
        }
        return n;
    }

    @Test
    void panningTheFittedViewShiftsThePictureAndMatchesAFullPaint(FxRobot robot) {
        robot.interact(() -> {
            canvas.fitToWindow();
            canvas.invalidate();
            canvas.redraw();
        });
        // Right and down, then left and up, then one axis at a time: every uncovered strip.
        double[][] steps = {{37, 11}, {-37, -11}, {-5, 0}, {0, 9}, {23, -17}};
        for (double[] s : steps) {
            Object[] r = panAndRepaint(robot, s[0], s[1]);
            assertEquals(1L, r[2], "the pan by " + s[0] + "," + s[1] + " shifted the previous frame");
            int[] shifted = (int[]) r[0];
            int[] full = (int[]) r[1];
            // The same picture; a coordinate computed as (x + a) + b instead of x + (a + b) may
            // round differently in its last bit and move a pixel's 8-bit coverage by one level.
            assertEquals(0, differing(shifted, full, 1), "pan by " + s[0] + "," + s[1]);
            assertTrue(differing(shifted, full, 0) < shifted.length / 1000,
                    "pan by " + s[0] + "," + s[1] + ": " + differing(shifted, full, 0) + " pixels off by one level");
        }
    }

    @Test
    void atRenderScale2APanShiftsTooAndMatchesAFullPaint(FxRobot robot) {
        // HiDPI at 200 %: a whole-pixel pan moves the picture by two device pixels per pixel.
        robot.interact(() -> {
            canvas.forceRenderScale(2);
            canvas.fitToWindow();
            canvas.invalidate();
            canvas.redraw();
        });
        int[] first = robotPixels(robot);
        assertEquals(4L * (long) Math.floor(canvas.getWidth()) * (long) Math.floor(canvas.getHeight()), first.length,
                "the frame has twice the pixels each way");
        double[][] steps = {{37, 11}, {-37, -11}, {0, 9}};
        for (double[] s : steps) {
            Object[] r = panAndRepaint(robot, s[0], s[1]);
            assertEquals(1L, r[2], "the pan by " + s[0] + "," + s[1] + " shifted the previous frame at scale 2");
            assertEquals(0, differing((int[]) r[0], (int[]) r[1], 1), "pan by " + s[0] + "," + s[1] + " at scale 2");
        }
        // A scale that is not whole would move the picture by fractions of a device pixel: painted whole.
        robot.interact(() -> {
            canvas.forceRenderScale(1.5);
            canvas.invalidate();
            canvas.redraw();
        });
        Object[] r = panAndRepaint(robot, 20, 4);
        assertEquals(0L, r[2], "no shift at scale 1.5");
        robot.interact(() -> canvas.forceRenderScale(0));
    }

    @Test
    void aViewThatShowsPartOfTheFabricIsPaintedWholeOnAPan(FxRobot robot) {
        // At 100 % the fabric runs past the window: which links are drawn depends on the offset, so
        // a pan cannot reuse the previous frame.
        robot.interact(() -> {
            canvas.viewport().set(1.0, 0, 0);
            canvas.invalidate();
            canvas.redraw();
        });
        Object[] r = panAndRepaint(robot, 40, 12);
        assertEquals(0L, r[2]);
        assertEquals(0, differing((int[]) r[0], (int[]) r[1], 0));
    }

    @Test
    void aSelectionChangeRepaintsTheFabric(FxRobot robot) {
        robot.interact(() -> {
            canvas.fitToWindow();
            canvas.redraw();
        });
        int[] before = robotPixels(robot);
        robot.interact(() -> {
            editor.canvas().document().selection().set(
                    java.util.List.of(editor.canvas().document().fabric().devices().iterator().next()),
                    java.util.List.of());
            canvas.redraw();
        });
        int[] after = robotPixels(robot);
        assertTrue(differing(before, after, 8) > 50, "the selected device is drawn selected");
    }

    private int[] robotPixels(FxRobot robot) {
        int[][] out = new int[1][];
        robot.interact(() -> out[0] = pixels());
        return out[0];
    }
}
