package io.fabriclab.ui.live;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import javafx.application.Platform;
import javafx.stage.Stage;

import io.fabriclab.app.RunService;
import io.fabriclab.io.FabricReader;
import io.fabriclab.io.Scenario;
import io.fabriclab.io.ScenarioJson;
import io.fabriclab.sim.Engine;
import io.fabriclab.sim.SimResults;

/**
 * Shows the flow-run window of the shipped 32-GPU all-to-all on the 1,024-GPU rail cluster with a
 * busy last hop picked, then the focus run of it, each maximised under whatever window manager
 * runs on the display, so a screen grab can be taken from outside: at each step it writes
 * {@code OUTDIR/ready-N} and waits for {@code OUTDIR/done-N}. Used for docs/user-guide.md's focus
 * run pictures: {@code java -cp ... io.fabriclab.ui.live.FocusRunScreenshots OUTDIR [FOCUS [links]]} (links: the focus
 * run's window on its focus link directions' tab).
 */
public final class FocusRunScreenshots {
    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        String focus = args.length > 1 ? args[1] : "su1-leaf0:eth1 -> su1-srv01:nic0";
        Scenario sc = ScenarioJson.read(Path.of("resources/scenarios/transports-alltoall-rail-4su.json"), FabricReader.FILES);
        SimResults r = RunService.prepare(new RunService.Request("flow", sc, Engine.FLOW)).run(null);
        LiveSession.Finished f = new LiveSession.Finished(sc.fabric().name() + ": " + sc.name(), RunSettings.incast(), r,
                List.of(), null, sc);
        CountDownLatch started = new CountDownLatch(1);
        Platform.startup(started::countDown);
        started.await();
        AtomicReference<FlowRunWindow> window = new AtomicReference<>();
        Platform.runLater(() -> {
            Stage s = FlowRunWindow.show(null, f, sc.fabric().copy());
            s.setMaximized(true);
            FlowRunWindow w = (FlowRunWindow) s.getScene().getRoot();
            w.focusField().getEditor().setText(focus);
            window.set(w);
        });
        while (window.get() == null) {
            Thread.sleep(100);
        }
        step(out, 1);
        Platform.runLater(() -> window.get().lookCloser());
        while (window.get().lastFocus == null) {
            Thread.sleep(100);
        }
        boolean linksTab = args.length > 2 && args[2].equals("links");
        Platform.runLater(() -> {
            window.get().lastFocus.setMaximized(true);
            if (linksTab) {
                ((FocusRunWindow) window.get().lastFocus.getScene().getRoot()).showLinksTab();
            }
        });
        step(out, 2);
        Platform.exit();
        System.exit(0);
    }

    private static void step(Path out, int n) throws Exception {
        Thread.sleep(2500);
        Files.writeString(out.resolve("ready-" + n), "");
        while (!Files.exists(out.resolve("done-" + n))) {
            Thread.sleep(100);
        }
    }
}
