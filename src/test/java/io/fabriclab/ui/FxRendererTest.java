package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import io.fabriclab.diagram.DiagramStyle;
import io.fabriclab.diagram.FabricPainter;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import javafx.geometry.Point2D;
import javafx.scene.Scene;
import javafx.scene.canvas.Canvas;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.RadioMenuItem;
import javafx.scene.image.WritableImage;
import javafx.scene.paint.Color;
import javafx.stage.Stage;

/**
 * The JavaFX canvas renderer (the one a hardware pipeline gets) draws the fabric, and the choice
 * of renderer follows the pipeline and the View > Renderer menu. The tests run on the software
 * pipeline (Monocle), where the automatic choice is Java2D.
 */
@ExtendWith(ApplicationExtension.class)
class FxRendererTest {
    private FabricEditor editor;
    private FabricCanvas canvas;

    @Start
    void start(Stage stage) {
        System.setProperty("fabriclab.prefs", "io/fabriclab/test-" + ProcessHandle.current().pid());
        editor = new FabricEditor(new FabricDocument(DemoFabric.classic(), null));
        canvas = editor.canvas();
        stage.setScene(new Scene(editor, 1000, 700));
        stage.show();
    }

    @org.junit.jupiter.api.AfterEach
    void forgetThePreference() throws Exception {
        java.util.prefs.Preferences.userRoot().node(System.getProperty("fabriclab.prefs")).removeNode();
        System.clearProperty("fabriclab.prefs");
    }

    @Test
    void thePipelineChoosesTheRenderer() {
        assertSame(FabricCanvas.Renderer.FX, FabricCanvas.Renderer.forPipeline(true), "es2 / d3d / metal");
        assertSame(FabricCanvas.Renderer.JAVA2D, FabricCanvas.Renderer.forPipeline(false), "sw");
        assertFalse(FabricCanvas.Renderer.hardwarePipeline(), "Monocle headless renders in software");
        assertSame(FabricCanvas.Renderer.JAVA2D, canvas.renderer(), "so the editor starts with Java2D here");
        assertSame(FabricCanvas.Renderer.FX, FabricCanvas.Renderer.parse(" FX "));
        assertEquals(null, FabricCanvas.Renderer.parse("auto"));
    }

    @Test
    void theFxRendererDrawsTheFabricOnTheCanvas(FxRobot robot) {
        Fabric f = editor.document().fabric();
        Device leaf = f.device("leaf1");
        WritableImage[] img = new WritableImage[1];
        FabricPainter.Stats[] stats = new FabricPainter.Stats[1];
        Point2D[] at = new Point2D[1];
        robot.interact(() -> {
            canvas.setRenderer(FabricCanvas.Renderer.FX);
            canvas.fitToWindow();
            canvas.redraw();
            editor.document().selection().set(List.of(leaf), List.of());
            canvas.redraw();
            stats[0] = canvas.lastStats();
            img[0] = canvas.canvas().snapshot(null, null);
            at[0] = canvas.centreOf(leaf);
        });
        assertTrue(canvas.canvas() instanceof Canvas, "the FX renderer shows the canvas itself");
        assertNotNull(stats[0]);
        assertTrue(stats[0].devicesDrawn() > 0 && stats[0].linesDrawn() > 0, stats[0].toString());
        // The picture is not blank: many pixels differ from the background, and the selected leaf
        // has the selection colour drawn around it.
        Color bg = img[0].getPixelReader().getColor(2, 2);
        int drawn = 0;
        for (int y = 0; y < img[0].getHeight(); y += 3) {
            for (int x = 0; x < img[0].getWidth(); x += 3) {
                if (!img[0].getPixelReader().getColor(x, y).equals(bg)) {
                    drawn++;
                }
            }
        }
        assertTrue(drawn > 1000, drawn + " pixels drawn");
        assertTrue(nearColour(img[0], at[0], DiagramStyle.SELECTION), "the selection halo around leaf1");
    }

    @Test
    void viewRendererSwitchesTheCanvasAndKeepsTheChoice(FxRobot robot) {
        Menu view = editor.menuBar().getMenus().stream().filter(m -> m.getText().equals("View")).findFirst().orElseThrow();
        Menu renderer = (Menu) view.getItems().stream().filter(i -> "menu-renderer".equals(i.getId())).findFirst()
                .orElseThrow();
        MenuItem fx = item(renderer, "renderer-fx");
        MenuItem auto = item(renderer, "renderer-auto");
        assertTrue(((RadioMenuItem) auto).isSelected(), "Automatic until the user chooses");
        robot.interact(fx::fire);
        assertSame(FabricCanvas.Renderer.FX, canvas.renderer());
        assertSame(FabricCanvas.Renderer.FX, FabricCanvas.Renderer.chosen(), "kept for the next window");
        robot.interact(auto::fire);
        assertSame(FabricCanvas.Renderer.JAVA2D, canvas.renderer(), "automatic on the software pipeline");
        assertEquals("auto", RendererPreference.get());
    }

    private static MenuItem item(Menu m, String id) {
        return m.getItems().stream().filter(i -> id.equals(i.getId())).findFirst().orElseThrow();
    }

    /** Whether a pixel within 40 px of a point has (about) the colour given. */
    private static boolean nearColour(WritableImage img, Point2D p, io.fabriclab.diagram.Rgba c) {
        for (int dy = -40; dy <= 40; dy++) {
            for (int dx = -60; dx <= 60; dx++) {
                int x = (int) p.getX() + dx;
                int y = (int) p.getY() + dy;
                if (x < 0 || y < 0 || x >= img.getWidth() || y >= img.getHeight()) {
                    continue;
                }
                Color k = img.getPixelReader().getColor(x, y);
                if (Math.abs(k.getRed() * 255 - c.r()) < 12 && Math.abs(k.getGreen() * 255 - c.g()) < 12
                        && Math.abs(k.getBlue() * 255 - c.b()) < 12) {
                    return true;
                }
            }
        }
        return false;
    }
}
