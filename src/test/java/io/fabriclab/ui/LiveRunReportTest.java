package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.io.FabricJson;
import io.fabriclab.io.ResultsFile;
import io.fabriclab.report.DesignReview;
import io.fabriclab.sim.SimResults;
import io.fabriclab.ui.live.LivePanel;
import javafx.concurrent.Task;
import javafx.concurrent.Worker;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * A live run goes into the design-review report (issue 16 item 18): Export Report's "Add Last
 * Live Run" writes the live view's finished run as a results file, and a saved run
 * (.fabriclab-run.json.gz) is read for its results; either one is a run of the report.
 */
@ExtendWith(ApplicationExtension.class)
class LiveRunReportTest {
    private FabricEditor editor;

    @Start
    void start(Stage stage) throws Exception {
        editor = new FabricEditor(new FabricDocument(
                FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json")), null));
        stage.setScene(new Scene(editor, 1280, 800));
        stage.show();
    }

    private <T> T fx(FxRobot robot, Callable<T> c) {
        AtomicReference<T> out = new AtomicReference<>();
        robot.interact(() -> {
            try {
                out.set(c.call());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        return out.get();
    }

    @Test
    void theLastLiveRunAndASavedRunGoIntoTheReport(FxRobot robot, @TempDir Path tmp) throws Exception {
        ReportExport x = new ReportExport(editor);
        assertTrue(fx(robot, x::lastLiveRunName).isEmpty(), "no live view, no run to add");
        robot.interact(() -> editor.showLiveView(true));
        LivePanel panel = fx(robot, () -> LivePanel.of(editor));
        assertTrue(fx(robot, x::lastLiveRunName).isEmpty(), "no run has ended yet");
        robot.interact(() -> {
            panel.model().sizeMb.set("0.5");
            panel.model().profile.set("pfc-only");
            panel.setSpeedPosition(10); // position 10: unthrottled (LivePanel.setSpeedPosition)
            panel.play();
        });
        WaitForAsyncUtils.waitFor(120, TimeUnit.SECONDS, () -> fx(robot, () -> panel.results() != null));
        SimResults live = fx(robot, panel::results);
        String name = fx(robot, x::lastLiveRunName).orElseThrow();
        assertTrue(name.startsWith("incast") && name.contains("classic leaf-spine"), name);

        // Add Last Live Run: a results file Export Report reads like simulate's output.
        Path results = fx(robot, x::lastLiveRunResults).orElseThrow();
        assertEquals(live.run().flows(), ResultsFile.read(results).results().run().flows());
        assertEquals(live.summary().pauseFramesSent(), ResultsFile.read(results).results().summary().pauseFramesSent());
        Path html = tmp.resolve("review.html");
        Task<DesignReview> t = WaitForAsyncUtils.asyncFx(() -> x.exportReport(html, List.of(results), "T")).get();
        WaitForAsyncUtils.waitFor(180, TimeUnit.SECONDS, () -> fx(robot, t::isDone));
        assertEquals(Worker.State.SUCCEEDED, fx(robot, t::getState), String.valueOf(fx(robot, t::getException)));
        String text = Files.readString(html);
        assertTrue(text.contains("R1: classic leaf-spine"), "the live run is the report's run R1");
        // Issue 35 item 20: the report cites a copy kept beside it, not the temporary file that goes at exit.
        Path kept = tmp.resolve("review-" + results.getFileName());
        assertTrue(Files.exists(kept), "kept beside the report: " + kept);
        assertTrue(text.contains(kept.getFileName().toString()), "the report cites " + kept.getFileName());
        assertTrue(!text.contains(results.toString()), "not the temporary " + results);

        // A saved run: its results are read in the background and become a results file too.
        Path run = tmp.resolve("incast" + fx(robot, () -> LiveViewProvider.find().orElseThrow().savedRunExtension()));
        fx(robot, () -> panel.saveRun(run)).get(60, TimeUnit.SECONDS);
        assertTrue(ReportExport.isSavedRun(run));
        assertTrue(!ReportExport.isSavedRun(results));
        Path fromSaved = fx(robot, () -> x.savedRunResults(run)).get(60, TimeUnit.SECONDS);
        assertEquals(live.run().flows(), ResultsFile.read(fromSaved).results().run().flows());
        assertEquals(live.summary().ecnMarked(), ResultsFile.read(fromSaved).results().summary().ecnMarked());
        robot.interact(() -> editor.showLiveView(false));
        assertTrue(fx(robot, x::lastLiveRunName).isEmpty(), "the live view closed: its run went with it");
    }
}
