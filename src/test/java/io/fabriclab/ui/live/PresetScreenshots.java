package io.fabriclab.ui.live;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.fabriclab.io.FabricJson;
import io.fabriclab.model.Fabric;
import io.fabriclab.sim.SimSnapshot;
import io.fabriclab.ui.FabricDocument;
import io.fabriclab.ui.FabricEditor;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * Shows a live preset in the real editor window (maximised, under whatever window manager runs on
 * the display) and stops at chosen simulated instants so a screen grab can be taken from outside:
 * at each instant it writes {@code OUTDIR/ready-T} and waits for {@code OUTDIR/done-T}. Used for
 * docs/live-view.md's side-by-side pictures of the PFC-only and DCQCN presets:
 * {@code java -cp ... io.fabriclab.ui.live.PresetScreenshots OUTDIR PRESET T1 T2 ...} (times in
 * microseconds; PRESET a {@link LivePreset} name).
 */
public final class PresetScreenshots {
    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        LivePreset preset = LivePreset.valueOf(args[1]);
        Fabric f = FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json"));
        CountDownLatch started = new CountDownLatch(1);
        Platform.startup(started::countDown);
        started.await();
        AtomicReference<FabricEditor> holder = new AtomicReference<>();
        CountDownLatch shown = new CountDownLatch(1);
        Platform.runLater(() -> {
            FabricEditor e = new FabricEditor(new FabricDocument(f, null));
            Stage st = new Stage();
            st.setTitle("FabricLab - " + preset.label());
            st.setScene(new Scene(e, 1200, 800));
            st.setMaximized(true);
            st.show();
            e.showLiveView(true);
            LivePanel panel = LivePanel.of(e);
            for (LiveWorkload w : panel.workload.getItems()) {
                if (w.toString().equals(LiveWorkload.of(preset).toString())) {
                    panel.workload.setValue(w);
                }
            }
            panel.start(true);
            holder.set(e);
            shown.countDown();
        });
        shown.await();
        LivePanel panel = LivePanel.of(holder.get());
        while (panel.session() == null) {
            Thread.sleep(50);
        }
        Thread.sleep(500);
        CountDownLatch folded = new CountDownLatch(1);
        Platform.runLater(() -> {
            // Fold the live thresholds, so the dashboard (PAUSE frames, CNPs) is in view under the run controls.
            FabricEditor e = holder.get();
            e.applyCss();
            for (javafx.scene.Node n : e.lookupAll(".titled-pane")) {
                if (n instanceof javafx.scene.control.TitledPane tp && (tp.getText().startsWith("Thresholds")
                        || tp.getText().equals("Run") && e.getScene().getHeight() < 900)) {
                    // On a small screen the run controls fold too (the window title names the preset,
                    // the dashboard the time).
                    tp.setExpanded(false);
                }
            }
            // The palette folded and the live panel wider, so the dashboard's counts line is whole.
            javafx.scene.control.SplitPane sp = (javafx.scene.control.SplitPane) e.lookup(".split-pane");
            sp.setDividerPositions(0.0, 0.56, 0.995);
            e.applyCss();
            e.layout();
            var g = e.canvas().geometry();
            var fab = e.document().fabric();
            io.fabriclab.diagram.Bounds b = g.box(fab.device("spine1"));
            for (String id : new String[] {"spine2", "leaf1", "leaf4", "server01", "server32"}) {
                b = b.union(g.box(fab.device(id)));
            }
            e.canvas().viewport().fit(b, e.canvas().getWidth(), e.canvas().getHeight(), 40);
            e.canvas().redraw();
            folded.countDown();
        });
        folded.await();
        for (int i = 2; i < args.length; i++) {
            long t = Long.parseLong(args[i]);
            while (true) {
                SimSnapshot s = panel.session().run().latest();
                if (s != null && s.timePs() >= t * 1_000_000L) {
                    break;
                }
                panel.session().run().stepInterval().get(120, TimeUnit.SECONDS);
            }
            Thread.sleep(1500); // the animation timer takes and draws the newest snapshot
            Files.writeString(out.resolve("ready-" + t), "");
            Path done = out.resolve("done-" + t);
            while (!Files.exists(done)) {
                Thread.sleep(100);
            }
        }
        Platform.exit();
        System.exit(0);
    }
}
