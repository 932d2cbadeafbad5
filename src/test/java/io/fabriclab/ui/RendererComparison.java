package io.fabriclab.ui;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import io.fabriclab.io.FabricFiles;
import io.fabriclab.model.Fabric;
import io.fabriclab.topology.RailOptimizedGenerator;
import io.fabriclab.topology.RailParams;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javafx.stage.Stage;

/**
 * Draws the same editor views with both rasterisers ({@link FabricCanvas.Renderer#JAVA2D} and
 * {@link FabricCanvas.Renderer#FX}) and writes each canvas as a PNG, so the two pictures can be
 * compared by eye (docs/rendering.md). Run by hand, not a test:
 * {@code xvfb-run -a -s '-screen 0 1920x1200x24' java -Dprism.order=sw -cp target/classes:target/test-classes:$(cat target/classpath.txt) io.fabriclab.ui.RendererComparison /tmp/render-compare}
 */
public final class RendererComparison {
    private RendererComparison() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "target/render-compare");
        Files.createDirectories(out);
        CountDownLatch started = new CountDownLatch(1);
        Platform.startup(started::countDown);
        started.await();
        Platform.setImplicitExit(false);
        shoot(out, "rail4", FabricFiles.load(Path.of("resources/examples/rail-4su.json")));
        shoot(out, "rail64", RailOptimizedGenerator.generate(RailParams.of(64)));
        Platform.exit();
        System.exit(0);
    }

    private static void shoot(Path out, String name, Fabric f) throws Exception {
        FabricEditor[] ed = new FabricEditor[1];
        Stage[] st = new Stage[1];
        EditorBenchmark.onFx(() -> {
            ed[0] = new FabricEditor(new FabricDocument(f, null));
            st[0] = new Stage();
            st[0].setScene(new Scene(ed[0], 1600, 1000));
            st[0].show();
            return null;
        });
        Thread.sleep(1500);
        FabricCanvas c = ed[0].canvas();
        for (String zoom : List.of("fit", "100")) {
            for (FabricCanvas.Renderer r : FabricCanvas.Renderer.values()) {
                WritableImage shot = EditorBenchmark.onFx(() -> {
                    c.fitToWindow();
                    if (zoom.equals("100")) {
                        c.actualSize();
                    }
                    c.setRenderer(r);
                    c.redraw();
                    return c.canvas().snapshot(null, null);
                });
                Path file = out.resolve(name + "-" + zoom + "-" + r.name().toLowerCase(java.util.Locale.ROOT) + ".png");
                javax.imageio.ImageIO.write(toAwt(shot), "png", file.toFile());
                System.out.println("wrote " + file);
            }
        }
        EditorBenchmark.onFx(() -> {
            st[0].close();
            return null;
        });
    }

    private static BufferedImage toAwt(WritableImage img) {
        int w = (int) img.getWidth();
        int h = (int) img.getHeight();
        BufferedImage b = new BufferedImage(w, h, BufferedImage.TYPE_INT_ARGB);
        PixelReader r = img.getPixelReader();
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                b.setRGB(x, y, r.getArgb(x, y));
            }
        }
        return b;
    }
}
