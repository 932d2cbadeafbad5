package io.fabriclab.ui;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.fabriclab.io.FabricJson;
import io.fabriclab.model.Fabric;
import io.fabriclab.topology.LeafSpineGenerator;
import io.fabriclab.ui.live.LivePanel;
import io.fabriclab.ui.live.LivePreset;
import io.fabriclab.ui.live.LiveWorkload;
import io.fabriclab.workload.WorkloadPreset;
import javafx.application.Platform;
import javafx.geometry.Rectangle2D;
import javafx.scene.Scene;
import javafx.stage.Screen;
import javafx.stage.Stage;

/**
 * The screenshots of issue 35 taken from outside, under a real window manager: run under Xvfb with
 * Openbox (tools/wm-check.sh starts them the same way) and ImageMagick's {@code import}; each step
 * drives the editor as a user would and saves the whole screen as OUTDIR/STEP.png.
 * {@code java -cp ... io.fabriclab.ui.ReviewScreenshots OUTDIR STEP}, STEP one of template, storm,
 * deadlock, faillink, report, sweep. Needs -Dfabriclab.prefs and -Djava.util.prefs.userRoot set to
 * scratch places (it must not touch the user's preferences).
 */
public final class ReviewScreenshots {
    private static FabricEditor editor;
    private static Stage stage;

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        String step = args[1];
        Files.createDirectories(out);
        Fabric f = FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json"));
        CountDownLatch started = new CountDownLatch(1);
        Platform.startup(started::countDown);
        started.await();
        fx(() -> {
            editor = new FabricEditor(new FabricDocument(f, null));
            Rectangle2D vb = Screen.getPrimary().getVisualBounds();
            stage = new Stage();
            stage.setScene(new Scene(editor, FabricLabApp.initialWidth(vb), FabricLabApp.initialHeight(vb)));
            stage.setTitle(editor.windowTitle());
            stage.show();
            stage.centerOnScreen();
            return null;
        });
        Thread.sleep(2500);
        switch (step) {
            case "template" -> template(out);
            case "storm" -> storm(out);
            case "deadlock" -> deadlock(out);
            case "faillink" -> failLink(out);
            case "report" -> report(out);
            case "sweep" -> sweep(out);
            case "quiet" -> quiet(out);
            default -> throw new IllegalArgumentException(step);
        }
        Platform.exit();
        System.exit(0);
    }

    private static <T> T fx(Supplier<T> s) throws Exception {
        CompletableFuture<T> f = new CompletableFuture<>();
        Platform.runLater(() -> {
            try {
                f.complete(s.get());
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        });
        return f.get(120, TimeUnit.SECONDS);
    }

    private static void shot(Path out, String name) throws Exception {
        Thread.sleep(1200);
        Process p = new ProcessBuilder("import", "-window", "root", out.resolve(name + ".png").toString())
                .inheritIO().start();
        p.waitFor(60, TimeUnit.SECONDS);
        System.out.println("shot " + name);
    }

    private static LivePanel live() throws Exception {
        fx(() -> {
            editor.showLiveView(true);
            return null;
        });
        Thread.sleep(800);
        return fx(() -> LivePanel.of(editor));
    }

    private static void playToEnd(LivePanel panel, Runnable settings) throws Exception {
        fx(() -> {
            settings.run();
            panel.setSpeedPosition(10);
            panel.play();
            return null;
        });
        for (int i = 0; i < 600 && fx(() -> panel.results() == null); i++) {
            Thread.sleep(200);
        }
    }

    private static void template(Path out) throws Exception {
        LivePanel panel = live();
        playToEnd(panel, () -> panel.model().sizeMb.set("4"));
        shot(out, "template-0-before");
        fx(() -> {
            Fabric g = LeafSpineGenerator.classic();
            editor.applyTemplate(TemplateDialog.describe("leaf-spine", g));
            return null;
        });
        shot(out, "template-1-replaced");
        fx(() -> {
            panel.model().workload.set(LiveWorkload.of(WorkloadPreset.INCAST));
            panel.model().sizeMb.set("20");
            panel.setSpeedPosition(8.5);
            panel.play();
            return null;
        });
        Thread.sleep(6000);
        shot(out, "template-2-live");
    }

    private static void storm(Path out) throws Exception {
        LivePanel panel = live();
        fx(() -> {
            panel.model().workload.set(LiveWorkload.of(LivePreset.PFC_SPREADING));
            panel.play();
            return null;
        });
        Thread.sleep(9000);
        fx(() -> {
            panel.pauseRun();
            return null;
        });
        shot(out, "storm");
    }

    private static void deadlock(Path out) throws Exception {
        LivePanel panel = live();
        playToEnd(panel, () -> panel.model().workload.set(LiveWorkload.of(LivePreset.DEADLOCK)));
        shot(out, "deadlock");
    }

    private static void quiet(Path out) throws Exception {
        LivePanel panel = live();
        fx(() -> {
            panel.model().workload.set(LiveWorkload.of(WorkloadPreset.PERMUTATION));
            panel.model().sizeMb.set("20");
            panel.setSpeedPosition(8);
            panel.play();
            return null;
        });
        Thread.sleep(6000);
        shot(out, "quiet");
    }

    private static void failLink(Path out) throws Exception {
        fx(() -> editor.failLink(editor.document().fabric().findLink("leaf1:eth9")));
        Thread.sleep(3000);
        shot(out, "faillink");
        fx(() -> {
            for (javafx.stage.Window w : java.util.List.copyOf(javafx.stage.Window.getWindows())) {
                if (w != stage && w.isShowing()) {
                    w.hide();
                }
            }
            editor.document().undo();
            editor.document().selection().clear();
            return null;
        });
        Platform.runLater(() -> editor.analysis().failLinkDialog());
        Thread.sleep(1500);
        fx(() -> {
            for (javafx.stage.Window w : java.util.List.copyOf(javafx.stage.Window.getWindows())) {
                if (w.getScene() != null && w.getScene().lookup("#fail-link-name") instanceof javafx.scene.control.TextField t) {
                    t.setText("leaf1:eth49");
                    ((javafx.scene.control.Button) ((javafx.scene.control.DialogPane) w.getScene().getRoot())
                            .lookupButton(javafx.scene.control.ButtonType.OK)).fire();
                }
            }
            return null;
        });
        shot(out, "faillink-typed");
    }

    private static void report(Path out) throws Exception {
        LivePanel panel = live();
        playToEnd(panel, () -> panel.model().sizeMb.set("2"));
        fx(() -> {
            ReportExport.ReportDialog d = new ReportExport(editor).new ReportDialog();
            d.dialog.show();
            d.addLive.fire();
            return null;
        });
        shot(out, "report");
    }

    private static void sweep(Path out) throws Exception {
        fx(() -> {
            SweepWindow w = new SweepWindow(editor, stage);
            w.show();
            w.scenario.setText(Path.of("resources/scenarios/transports-incast-rail-4su.json").toAbsolutePath().toString());
            w.onOpenFabric.setSelected(false);
            w.path.show();
            return null;
        });
        shot(out, "sweep");
    }
}
