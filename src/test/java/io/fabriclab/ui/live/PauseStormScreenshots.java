package io.fabriclab.ui.live;

import java.io.File;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import javax.imageio.ImageIO;

import io.fabriclab.io.FabricJson;
import io.fabriclab.model.Fabric;
import io.fabriclab.sim.SimSnapshot;
import io.fabriclab.ui.FabricDocument;
import io.fabriclab.ui.FabricEditor;
import javafx.application.Platform;
import javafx.embed.swing.SwingFXUtils;
import javafx.scene.Scene;
import javafx.scene.image.WritableImage;
import javafx.stage.Stage;

/**
 * Takes the docs' sequence of a pause storm developing (docs/live-view.md): the shipped 8:1
 * incast with PFC only on the classic leaf-spine, stepped in 5 us strides, a window snapshot at
 * chosen instants. Run under Xvfb with the real (GTK) toolkit:
 * {@code xvfb-run -a -s '-screen 0 1600x1000x24' java -Dprism.order=sw -cp ... PauseStormScreenshots OUTDIR t1 t2 ...}
 * (times in microseconds).
 */
public final class PauseStormScreenshots {
    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "docs/screenshots");
        long[] times = new long[Math.max(1, args.length - 1)];
        for (int i = 1; i < args.length; i++) {
            times[i - 1] = Long.parseLong(args[i]);
        }
        if (args.length <= 1) {
            times = new long[] {5, 20, 40, 80};
        }
        Fabric f = FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json"));
        CountDownLatch started = new CountDownLatch(1);
        Platform.startup(started::countDown);
        started.await();
        AtomicReference<FabricEditor> ed = new AtomicReference<>();
        CountDownLatch shown = new CountDownLatch(1);
        Platform.runLater(() -> {
            FabricEditor e = new FabricEditor(new FabricDocument(f, null));
            Stage st = new Stage();
            st.setScene(new Scene(e, 1600, 1000));
            st.show();
            e.showLiveView(true);
            LivePanel.of(e).setScenarioFile(Path.of("resources/scenarios/incast-pfc-only.json"));
            LivePanel.of(e).start(true);
            shown.countDown();
        });
        shown.await();
        Thread.sleep(800);
        Platform.runLater(() -> {
            ed.get();
        });
        FabricEditor editor = null;
        CountDownLatch fit = new CountDownLatch(1);
        AtomicReference<FabricEditor> holder = new AtomicReference<>();
        Platform.runLater(() -> {
            for (javafx.stage.Window w : javafx.stage.Window.getWindows()) {
                if (w.getScene() != null && w.getScene().getRoot() instanceof FabricEditor fe) {
                    holder.set(fe);
                    // A wider canvas, framed on the receiver's leaf, its neighbour and both spines,
                    // so servers unfold and the pause marks are big enough to read.
                    javafx.scene.control.SplitPane sp = (javafx.scene.control.SplitPane) fe.lookup(".split-pane");
                    sp.setDividerPositions(0.0, 0.62, 0.99);
                    // The live thresholds are not part of this story: fold them, so the dashboard
                    // (which names the paused directions) is in view under the run controls.
                    for (javafx.scene.Node n : fe.lookupAll(".titled-pane")) {
                        if (n instanceof javafx.scene.control.TitledPane tp && tp.getText().startsWith("Thresholds")) {
                            tp.setExpanded(false);
                        }
                    }
                    fe.applyCss();
                    fe.layout();
                    var g = fe.canvas().geometry();
                    var fab = fe.document().fabric();
                    io.fabriclab.diagram.Bounds b = g.box(fab.device("spine1"));
                    for (String id : new String[] {"spine2", "leaf1", "leaf2", "server01", "server16"}) {
                        b = b.union(g.box(fab.device(id)));
                    }
                    fe.canvas().viewport().fit(b, fe.canvas().getWidth(), fe.canvas().getHeight(), 50);
                    fe.canvas().redraw();
                }
            }
            fit.countDown();
        });
        fit.await();
        editor = holder.get();
        LivePanel panel = LivePanel.of(editor);
        while (panel.session() == null) {
            Thread.sleep(50);
        }
        int n = 0;
        for (long t : times) {
            while (true) {
                SimSnapshot s = panel.session().run().latest();
                if (s != null && s.timePs() >= t * 1_000_000L) {
                    break;
                }
                panel.session().run().stepInterval().get(60, TimeUnit.SECONDS);
            }
            Thread.sleep(600); // let the animation timer take and draw the newest snapshot
            AtomicReference<WritableImage> img = new AtomicReference<>();
            CountDownLatch snap = new CountDownLatch(1);
            FabricEditor fe = editor;
            Platform.runLater(() -> {
                img.set(fe.getScene().snapshot(null));
                snap.countDown();
            });
            snap.await();
            File file = out.resolve(String.format(Locale.ROOT, "live-storm-%d-%03dus.png", ++n, t)).toFile();
            ImageIO.write(SwingFXUtils.fromFXImage(img.get(), null), "png", file);
            System.out.println("wrote " + file);
        }
        Platform.exit();
        System.exit(0);
    }
}
