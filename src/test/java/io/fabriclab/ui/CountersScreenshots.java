package io.fabriclab.ui;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.fabriclab.counters.CountersFrame;
import io.fabriclab.io.FabricJson;
import io.fabriclab.model.Fabric;
import javafx.application.Platform;
import javafx.geometry.Rectangle2D;
import javafx.scene.Scene;
import javafx.stage.Screen;
import javafx.stage.Stage;

/**
 * Screenshots of the measured layer (issue 34) taken from outside under a real window manager, as
 * {@link ReviewScreenshots}: the shipped example with its sample counters (SONiC show tables and
 * ethtool, with the port map) in the measured view, then against a results file in the difference
 * view. {@code java -cp ... io.fabriclab.ui.CountersScreenshots OUTDIR RESULTS} under Xvfb + Openbox
 * with ImageMagick's {@code import}; -Dfabriclab.prefs and -Djava.util.prefs.userRoot set to scratch places.
 */
public final class CountersScreenshots {
    private static FabricEditor editor;

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        Path results = Path.of(args[1]);
        Files.createDirectories(out);
        Fabric f = FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json"));
        CountDownLatch started = new CountDownLatch(1);
        Platform.startup(started::countDown);
        started.await();
        fx(() -> {
            editor = new FabricEditor(new FabricDocument(f, null));
            Rectangle2D vb = Screen.getPrimary().getVisualBounds();
            Stage stage = new Stage();
            stage.setScene(new Scene(editor, FabricLabApp.initialWidth(vb), FabricLabApp.initialHeight(vb)));
            stage.setTitle(editor.windowTitle());
            stage.show();
            stage.centerOnScreen();
            return null;
        });
        Thread.sleep(2500);
        Path samples = Path.of("resources/counters/classic-leaf-spine");
        List<String> files = new ArrayList<>();
        for (String folder : List.of("sonic-show", "ethtool")) {
            try (var s = Files.list(samples.resolve(folder))) {
                s.sorted().forEach(p -> files.add(p.toString()));
            }
        }
        fx(() -> CountersActions.of(editor).open(files, samples.resolve("port-map.json"), null)).get(120, TimeUnit.SECONDS);
        fx(() -> {
            editor.problems().setExpanded(true);
            return null;
        });
        Thread.sleep(500);
        fx(() -> {
            editor.canvas().fitToWindow();
            return null;
        });
        shot(out, "counters-measured");
        fx(() -> CountersActions.of(editor).compareWith(results)).get(120, TimeUnit.SECONDS);
        fx(() -> {
            CountersActions.of(editor).layer().showView(CountersFrame.View.DIFFERENCE);
            return null;
        });
        shot(out, "counters-difference");
        // The two dialogs as they open (not answered: the shot is all that is wanted).
        Platform.runLater(() -> CountersActions.of(editor).openDialog());
        shot(out, "counters-open-dialog");
        new ProcessBuilder("xdotool", "key", "Escape").inheritIO().start().waitFor(10, TimeUnit.SECONDS);
        Platform.runLater(() -> CountersActions.of(editor).scrapeDialog());
        shot(out, "counters-scrape-dialog");
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
        Thread.sleep(1500);
        Process p = new ProcessBuilder("import", "-window", "root", out.resolve(name + ".png").toString()).inheritIO().start();
        p.waitFor(60, TimeUnit.SECONDS);
        System.out.println("shot " + name);
    }
}
