package io.fabriclab.ui;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.fabriclab.diagram.DiagramStyle;
import io.fabriclab.io.FabricFiles;
import io.fabriclab.model.Fabric;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * Takes the editor screenshots in docs/screenshots under a real X server (Xvfb): the window is
 * shown, put in a state through the same calls the menus make, and the screen is grabbed with
 * ImageMagick's {@code import -window root}. Run by hand (see docs/user-guide.md), not a test:
 * {@code xvfb-run -a -s '-screen 0 1500x940x24' java -Dprism.order=sw -cp target/classes:target/test-classes:$(cat target/classpath.txt) io.fabriclab.ui.EditorScreenshots docs/screenshots}
 */
public final class EditorScreenshots {
    private EditorScreenshots() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "docs/screenshots");
        Files.createDirectories(out);
        CountDownLatch started = new CountDownLatch(1);
        Platform.startup(started::countDown);
        started.await();
        Platform.setImplicitExit(false);
        FabricEditor[] ed = new FabricEditor[1];
        Stage[] st = new Stage[1];
        fx(() -> {
            Fabric f = FabricFiles.load(Path.of("resources/examples/classic-leaf-spine.json"));
            ed[0] = new FabricEditor(new FabricDocument(f, Path.of("resources/examples/classic-leaf-spine.json")));
            ed[0].setRecovery(new AutosaveRecovery(Files.createTempDirectory("shots"), 1));
            st[0] = new Stage();
            st[0].setScene(new Scene(ed[0], 1500, 940));
            st[0].setX(0);
            st[0].setY(0);
            st[0].setTitle(ed[0].windowTitle());
            st[0].show();
            return null;
        });
        FabricEditor e = ed[0];
        pause(1500);
        // 1. The classic fabric: two servers selected, their ECMP paths highlighted, problems open.
        fx(() -> {
            e.canvas().fitToWindow();
            e.document().selection().set(List.of(e.document().fabric().device("server01"),
                    e.document().fabric().device("server09")), List.of());
            e.problems().setExpanded(true);
            return null;
        });
        pause(1500);
        grab(out.resolve("editor.png"));

        // 2. New from template: the rail-optimized tab with its live preview.
        TemplateDialog[] dlg = new TemplateDialog[1];
        fx(() -> {
            e.problems().setExpanded(false);
            dlg[0] = e.openTemplateDialog();
            dlg[0].selectKind(1);
            dlg[0].dialog().setX(420);
            dlg[0].dialog().setY(200);
            dlg[0].show(e::applyTemplate);
            return null;
        });
        pause(5000);
        grab(out.resolve("editor-template.png"));

        // 3. OK: the 4-unit rail-optimized fabric, in the dark theme, zoomed into unit 0 with speed labels.
        fx(() -> {
            e.applyTemplate(dlg[0].current());
            dlg[0].dialog().close();
            e.setTheme(DiagramStyle.Theme.DARK);
            return null;
        });
        pause(1500);
        grab(out.resolve("editor-rail-dark.png"));
        fx(() -> {
            e.canvas().find("su1-leaf3");
            e.canvas().zoomAt(e.canvas().getWidth() / 2, e.canvas().getHeight() / 2, 0.8 / e.canvas().viewport().scale());
            return null;
        });
        pause(1500);
        grab(out.resolve("editor-rail-zoom-dark.png"));
        fx(() -> {
            st[0].close();
            return null;
        });
        Platform.exit();
    }

    private static void grab(Path file) throws Exception {
        Process p = new ProcessBuilder("import", "-window", "root", file.toString()).inheritIO().start();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("import failed for " + file);
        }
        System.out.println("wrote " + file);
    }

    /** Waits, then makes sure the FX thread has run past two pulses, so the screen shows the new state. */
    private static void pause(long ms) throws Exception {
        Thread.sleep(ms);
        for (int i = 0; i < 2; i++) {
            CountDownLatch pulse = new CountDownLatch(1);
            Platform.runLater(() -> javafx.animation.AnimationTimer.class.getName());
            fx(() -> {
                new javafx.animation.AnimationTimer() {
                    @Override
                    public void handle(long now) {
                        stop();
                        pulse.countDown();
                    }
                }.start();
                return null;
            });
            pulse.await(30, TimeUnit.SECONDS);
        }
        Thread.sleep(ms);
    }

    private static <T> T fx(java.util.concurrent.Callable<T> work) throws Exception {
        CompletableFuture<T> f = new CompletableFuture<>();
        Platform.runLater(() -> {
            try {
                f.complete(work.call());
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        });
        return f.get(2, TimeUnit.MINUTES);
    }
}
