package io.fabriclab.ui;

import java.util.concurrent.CountDownLatch;

import io.fabriclab.diagram.DiagramGeometry;
import io.fabriclab.diagram.DiagramStyle;
import io.fabriclab.diagram.FabricPainter;
import io.fabriclab.diagram.Selection;
import io.fabriclab.diagram.TieredLayout;
import io.fabriclab.diagram.Viewport;
import io.fabriclab.model.Fabric;
import javafx.application.Platform;
import javafx.scene.canvas.Canvas;

/**
 * Measures one full paint of the 16,384-GPU demo fabric on a 1000 x 700 canvas (software
 * pipeline, headless) at three zooms. Run by hand: figures go to docs/editor.md, never into a test.
 * {@code java -Dglass.platform=Monocle -Dmonocle.platform=Headless -Dprism.order=sw -cp ... CanvasPaintBench}
 */
public final class CanvasPaintBench {
    public static void main(String[] args) throws Exception {
        Fabric f = DemoFabric.railOptimized(64, 32, 16);
        f.setLayout(new TieredLayout().layout(f));
        CountDownLatch started = new CountDownLatch(1);
        Platform.startup(started::countDown);
        started.await();
        CountDownLatch done = new CountDownLatch(1);
        Platform.runLater(() -> {
            Canvas canvas = new Canvas(1000, 700);
            FxPainter p = new FxPainter(canvas.getGraphicsContext2D());
            DiagramStyle style = new DiagramStyle();
            FabricPainter painter = new FabricPainter(style);
            DiagramGeometry g = new DiagramGeometry(f, f.layout(), style);
            Viewport vp = new Viewport();
            vp.fit(g.extent(), 1000, 700, 40);
            double fit = vp.scale();
            for (double zoom : new double[] {fit, 0.2, 1.0}) {
                vp.zoomAt(500, 350, zoom / vp.scale());
                FabricPainter.Stats st = null;
                for (int i = 0; i < 5; i++) {
                    st = painter.paint(p, g, new Selection(), null, vp, 1000, 700, FabricPainter.Options.DEFAULT);
                }
                int n = 20;
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    st = painter.paint(p, g, new Selection(), null, vp, 1000, 700, FabricPainter.Options.DEFAULT);
                }
                // Force the canvas to flush its command buffer so the cost of rasterising is counted.
                canvas.snapshot(null, null);
                long t1 = System.nanoTime();
                System.out.printf("zoom %.3f: %.1f ms per paint; %s%n", vp.scale(), (t1 - t0) / 1e6 / n, st);
            }
            // The diagram's own work, without any rasterising: a painter that draws nothing.
            io.fabriclab.diagram.Painter none = (io.fabriclab.diagram.Painter) java.lang.reflect.Proxy.newProxyInstance(
                    CanvasPaintBench.class.getClassLoader(), new Class<?>[] {io.fabriclab.diagram.Painter.class},
                    (proxy, m, a) -> m.getReturnType() == double.class ? 10.0 : null);
            vp.fit(g.extent(), 1000, 700, 40);
            for (double zoom : new double[] {vp.scale(), 0.2, 1.0}) {
                vp.zoomAt(500, 350, zoom / vp.scale());
                for (int i = 0; i < 5; i++) {
                    painter.paint(none, g, new Selection(), null, vp, 1000, 700, FabricPainter.Options.DEFAULT);
                }
                long t0 = System.nanoTime();
                for (int i = 0; i < 20; i++) {
                    painter.paint(none, g, new Selection(), null, vp, 1000, 700, FabricPainter.Options.DEFAULT);
                }
                System.out.printf("zoom %.3f: %.1f ms per paint without rasterising%n", vp.scale(),
                        (System.nanoTime() - t0) / 1e6 / 20);
            }
            for (int i = 0; i < 3; i++) {
                long t0 = System.nanoTime();
                new DiagramGeometry(f, f.layout(), style).deviceAt(0, 0);
                System.out.printf("hit-test index build: %.1f ms for %d devices, %d links%n",
                        (System.nanoTime() - t0) / 1e6, f.devices().size(), f.linkCount());
            }
            done.countDown();
        });
        done.await();
        Platform.exit();
    }
}
