package io.fabriclab.ui.live;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import javax.imageio.ImageIO;

import io.fabriclab.io.FabricJson;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.sim.SimSnapshot;
import io.fabriclab.ui.FabricDocument;
import io.fabriclab.ui.FabricEditor;
import io.fabriclab.workload.WorkloadPreset;
import javafx.application.Platform;
import javafx.embed.swing.SwingFXUtils;
import javafx.scene.Scene;
import javafx.scene.image.WritableImage;
import javafx.stage.Stage;

/**
 * Screenshots of the live view's selection panels for docs/live-view.md, taken with the real
 * (GTK) toolkit under Xvfb: the flows crossing a link direction during the shipped PFC-only
 * incast with the hurt-most flow picked; a ring all-reduce with its collective selected; a PFC
 * watchdog storm on the dashboard; CNPs going back to the senders of a DCQCN incast. Run:
 * {@code xvfb-run -a -s '-screen 0 1600x1000x24' java -Dprism.order=sw -cp ... LiveSelectionScreenshots OUTDIR}.
 */
public final class LiveSelectionScreenshots {
    private static FabricEditor editor;

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "target");
        CountDownLatch started = new CountDownLatch(1);
        Platform.startup(started::countDown);
        started.await();
        Fabric f = FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json"));
        fx(() -> {
            editor = new FabricEditor(new FabricDocument(f, null));
            Stage st = new Stage();
            st.setScene(new Scene(editor, 1600, 1000));
            st.show();
            editor.showLiveView(true);
            return null;
        });
        Thread.sleep(800);
        LivePanel panel = fx(() -> LivePanel.of(editor));
        fx(() -> {
            javafx.scene.control.SplitPane sp = (javafx.scene.control.SplitPane) editor.lookup(".split-pane");
            sp.setDividerPositions(0.0, 0.62, 0.99);
            editor.applyCss();
            editor.layout();
            editor.canvas().fitToWindow();
            return null;
        });

        // 1. The incast, stepped to 60 us; the spine1 -> leaf1 direction clicked; hurt most first.
        fx(() -> {
            panel.setScenarioFile(Path.of("resources/scenarios/incast-pfc-only.json"));
            panel.start(true);
            return null;
        });
        stepTo(panel, 60);
        Link up = fx(() -> f.linkAt(f.port("spine1:eth1")));
        fx(() -> {
            editor.document().selection().set(List.of(), List.of(up));
            for (LiveSelectionPane.FlowScope s : panel.selection.flowScope.getItems()) {
                if ("spine1:eth1".equals(s.portRef())) {
                    panel.selection.flowScope.getSelectionModel().select(s);
                }
            }
            panel.selection.flowOrder.getSelectionModel().select(CrossingFlows.Order.HURT);
            panel.selection.refreshFlowList();
            panel.selection.flowTable.getSelectionModel().select(0);
            panel.reveal(panel.selection.flowScope);
            return null;
        });
        shot(out, "live-flows-on-link.png");

        // 2. A ring all-reduce of 4 MB over the 32 NICs, its collective selected, at 300 us.
        fx(() -> {
            panel.reset();
            panel.model().workload.set(LiveWorkload.of(WorkloadPreset.ALL_REDUCE));
            panel.model().sizeMb.set("4");
            panel.start(true);
            return null;
        });
        stepTo(panel, 300);
        fx(() -> {
            editor.document().selection().clear();
            panel.selection.collectiveSelect.getSelectionModel().select("allreduce:rail0");
            panel.selection.flowSelect.getValueFactory().setValue(-1);
            panel.reveal(panel.selection.collectiveStatus);
            return null;
        });
        shot(out, "live-collective.png");

        // 3. A PFC watchdog storm (as in LiveViewTest): server01 on 10G, watchdog 4 us, at 15 us.
        Path scenario = Files.createTempFile("storm", ".json");
        Files.writeString(scenario, """
                { "schemaVersion": 1, "name": "watchdog storm", "fabric": "%s", "profile": "pfc-only",
                  "qos": { "pfc": { "xoffBytes": 100000, "xonBytes": 80000, "headroomBytes": 100000,
                                    "watchdogUs": 4, "watchdogAction": "drop" } },
                  "seed": 1, "durationUs": 0, "maxTimeUs": 5000,
                  "workloads": [ { "type": "flows", "flows": [
                      { "src": "server09:nic0", "dst": "server01:nic0", "bytes": 1000000, "priority": 3 } ] } ] }
                """.formatted(Path.of("resources/examples/classic-leaf-spine.json").toAbsolutePath()));
        fx(() -> {
            panel.reset();
            editor.document().selection().clear();
            panel.selection.collectiveSelect.setValue(null);
            f.linkAt(f.port("server01:nic0")).setSpeedGbps(10);
            panel.setScenarioFile(scenario);
            panel.start(true);
            return null;
        });
        stepTo(panel, 15);
        fx(() -> {
            panel.reveal(panel.dashboard);
            return null;
        });
        shot(out, "live-watchdog-storm.png");

        // 4. The incast preset under production ECN + DCQCN at 60 us: ECN sparks going down, CNPs coming back.
        fx(() -> {
            panel.reset();
            f.linkAt(f.port("server01:nic0")).setSpeedGbps(100);
            panel.model().workload.set(LiveWorkload.of(WorkloadPreset.INCAST));
            panel.model().profile.set("production-ecn");
            panel.model().sizeMb.set("2");
            panel.start(true);
            return null;
        });
        stepTo(panel, 60);
        fx(() -> {
            var g = editor.canvas().geometry();
            io.fabriclab.diagram.Bounds b = g.box(f.device("spine1"));
            for (String id : new String[] {"spine2", "leaf1", "leaf2", "server01", "server16"}) {
                b = b.union(g.box(f.device(id)));
            }
            editor.canvas().viewport().fit(b, editor.canvas().getWidth(), editor.canvas().getHeight(), 50);
            editor.canvas().redraw();
            panel.reveal(panel.dashboard);
            return null;
        });
        shot(out, "live-cnps.png");
        Platform.exit();
        System.exit(0);
    }

    private static void stepTo(LivePanel panel, long us) throws Exception {
        while (fx(panel::session) == null) {
            Thread.sleep(50);
        }
        while (true) {
            SimSnapshot s = panel.session().run().latest();
            if (s != null && s.timePs() >= us * 1_000_000L) {
                break;
            }
            panel.session().run().stepInterval().get(60, TimeUnit.SECONDS);
        }
        Thread.sleep(900); // the animation timer takes and draws the newest picture, the dashboard catches up
    }

    private static void shot(Path out, String name) throws Exception {
        Thread.sleep(400);
        WritableImage img = fx(() -> editor.getScene().snapshot(null));
        File file = out.resolve(name).toFile();
        ImageIO.write(SwingFXUtils.fromFXImage(img, null), "png", file);
        System.out.println("wrote " + file);
    }

    private static <T> T fx(Callable<T> c) throws Exception {
        AtomicReference<T> r = new AtomicReference<>();
        AtomicReference<Exception> err = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        Platform.runLater(() -> {
            try {
                r.set(c.call());
            } catch (Exception e) {
                err.set(e);
            } finally {
                done.countDown();
            }
        });
        done.await();
        if (err.get() != null) {
            throw err.get();
        }
        return r.get();
    }
}
