package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import io.fabriclab.diagram.Bounds;
import io.fabriclab.diagram.FabricPng;
import javafx.scene.Scene;
import javafx.stage.Stage;

/** Export PNG writes the whole fabric at the chosen scale, not only the part on screen (issue: the viewport only). */
@ExtendWith(ApplicationExtension.class)
class ExportPngTest {
    private FabricEditor editor;

    @Start
    void start(Stage stage) {
        editor = new FabricEditor(new FabricDocument(DemoFabric.classic(), null));
        stage.setScene(new Scene(editor, 800, 600));
        stage.show();
    }

    @Test
    void theWholeFabricIsExportedAtTheChosenScaleWhateverTheZoom(FxRobot robot, @TempDir Path dir) throws Exception {
        // Zoomed in on a corner: the canvas shows a small part of the fabric.
        robot.interact(() -> {
            editor.canvas().fitToWindow();
            editor.canvas().viewport().zoomAt(0, 0, 4);
        });
        Bounds[] extent = new Bounds[1];
        Path out = dir.resolve("fabric.png");
        @SuppressWarnings("unchecked")
        java.util.concurrent.CompletableFuture<Double>[] done = new java.util.concurrent.CompletableFuture[1];
        robot.interact(() -> {
            extent[0] = editor.canvas().geometry().extent();
            done[0] = editor.files().exportWholePng(out, 1);
        });
        double used = done[0].get(60, TimeUnit.SECONDS);
        assertEquals(1.0, used, 0);
        BufferedImage img = ImageIO.read(out.toFile());
        int[] px = FabricPng.size(extent[0], 1);
        assertEquals(px[0], img.getWidth());
        assertEquals(px[1], img.getHeight());
        assertTrue(img.getWidth() > 800, "wider than the window: the whole fabric at 100 %");
    }
}
