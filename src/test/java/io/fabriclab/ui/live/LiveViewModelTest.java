package io.fabriclab.ui.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.diagram.CongestionFrame;
import io.fabriclab.io.FabricJson;
import io.fabriclab.sim.LiveRun;
import io.fabriclab.sim.SimSnapshot;
import io.fabriclab.ui.FabricDocument;
import io.fabriclab.ui.FabricEditor;
import io.fabriclab.workload.WorkloadPreset;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * The live view's model driven without its widgets (the run state and commands), and what the
 * panel shows of it: speed steps, achieved speed and the behind state, the full-speed pacing,
 * progress by bytes delivered with one clock for the run and the dashboard, the idle timer, the
 * worst moment and run totals after a run, and the fields a workload does not use.
 */
@ExtendWith(ApplicationExtension.class)
class LiveViewModelTest {
    /** Scratch files of this test, removed after it (never the system temp directory: issue 35 item 16). */
    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path scratch;

    private FabricEditor editor;
    private LivePanel panel;
    private LiveViewModel model;

    @Start
    void start(Stage stage) throws Exception {
        editor = new FabricEditor(new FabricDocument(
                FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json")), null));
        stage.setScene(new Scene(editor, 1200, 780));
        stage.show();
        editor.showLiveView(true);
        panel = LivePanel.of(editor);
        model = panel.model();
    }

    @org.junit.jupiter.api.AfterEach
    void dispose(FxRobot robot) {
        robot.interact(() -> editor.showLiveView(false));
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

    /** Arrow keys step 1-2-5 (the slider's own step of 10 positions jumped from 100 µs/s to an end). */
    @Test
    void speedStepsOneTwoFiveAndReachesMaxFromOneMillisecond(FxRobot robot) {
        robot.interact(() -> {
            model.speedPosition.set(8); // 10^8 ps/s = 100 µs/s
            model.stepSpeed(1);
            assertEquals(200_000_000L, model.speed());
            model.stepSpeed(-1);
            model.stepSpeed(-1);
            assertEquals(50_000_000L, model.speed());
            assertEquals("50.0 µs/s", model.speedTextProperty().get());
            model.speedPosition.set(9); // 1 ms/s, the fastest set speed
            model.stepSpeed(1);
            assertEquals(LiveRun.UNTHROTTLED, model.speed());
            assertEquals("max", model.speedTextProperty().get());
            model.stepSpeed(-1);
            assertEquals(1_000_000_000L, model.speed());
            model.speedPosition.set(3);
            model.stepSpeed(-1);
            assertEquals(LiveRun.MIN_SPEED_PS_PER_S, model.speed(), "stays at the slowest");
        });
        // The slider's arrow key goes through the same steps.
        robot.interact(() -> {
            model.speedPosition.set(8);
            panel.reveal(panel.speed);
            panel.speed.requestFocus();
        });
        robot.type(javafx.scene.input.KeyCode.RIGHT);
        assertEquals(200_000_000L, fx(robot, model::speed));
    }

    /** Achieved speed from (wall, simulated) samples; behind below 90 % of the requested speed. */
    @Test
    void theMeterMeasuresAchievedSpeedAndSaysBehind() {
        SpeedMeter m = new SpeedMeter();
        m.sample(0, 0);
        m.sample(500_000_000L, 1_000_000L);
        assertEquals(-1, m.achievedPsPerSecond(), "no figure before a second of running");
        assertFalse(m.behind(100_000_000L));
        // 1.5 s of wall, 3 us simulated: 2 us/s, against 100 us/s asked for.
        m.sample(1_500_000_000L, 3_000_000L);
        assertEquals(2_000_000L, m.achievedPsPerSecond());
        assertTrue(m.behind(100_000_000L));
        assertEquals("achieved 2.00 µs/s", m.achievedText());
        assertFalse(m.behind(2_000_000L), "at the requested speed it is not behind");
        assertFalse(m.behind(LiveRun.UNTHROTTLED), "max speed is never behind");
        m.restart();
        assertEquals(-1, m.achievedPsPerSecond());
    }

    /** At max speed a waiting snapshot is drawn at most every 50 ms; at a set speed at once. */
    @Test
    void fullSpeedPacingDrawsOneSnapshotPerFiftyMilliseconds() {
        long frame = 16_666_667L;
        int drawn = 0;
        long last = -LiveViewModel.FULL_SPEED_FRAME_NANOS;
        for (int i = 0; i < 60; i++) { // one second of 60 Hz frames, a snapshot waiting at each
            long now = i * frame;
            if (LiveViewModel.drawNow(now, last, LiveRun.UNTHROTTLED)) {
                drawn++;
                last = now;
            }
        }
        assertEquals(20, drawn, "every third frame (50 ms is three frames of 16.7 ms): 20 a second");
        assertTrue(LiveViewModel.drawNow(frame, 0, 100_000_000L));
    }

    /**
     * Stepped 5 µs at a time, the clock, the dashboard and the progress show the same snapshot,
     * and progress counts bytes delivered (it moves long before the first flow completes).
     */
    @Test
    void progressCountsBytesDeliveredAndTheClockMatchesTheDashboard(FxRobot robot) throws Exception {
        robot.interact(() -> {
            model.sizeMb.set("0.5");
            model.step(false);
        });
        for (int k = 1; k <= 6; k++) {
            long want = k * 5_000_000L;
            try {
                WaitForAsyncUtils.waitFor(90, TimeUnit.SECONDS, () -> fx(robot, () -> model.shownSnapshot() != null
                        && model.shownSnapshot().timePs() == want));
            } catch (java.util.concurrent.TimeoutException e) {
                SimSnapshot at = fx(robot, model::shownSnapshot);
                throw new AssertionError("step " + k + ": shows " + (at == null ? "nothing" : at.timePs() + " ps")
                        + ", status " + fx(robot, model::status) + ", animating " + fx(robot, panel::animating), e);
            }
            WaitForAsyncUtils.waitForFxEvents();
            if (k < 6) {
                robot.interact(() -> model.step(false));
            }
        }
        SimSnapshot s = fx(robot, model::shownSnapshot);
        String clock = fx(robot, () -> model.clockProperty().get());
        String dash = fx(robot, () -> model.dashboardProperty().get());
        assertEquals("t = 30.000 µs", clock);
        assertTrue(dash.startsWith("t = 30.000 µs"), dash);
        assertEquals(0, s.flowsCompleted(), "no flow has completed yet at 30 us");
        double p = fx(robot, () -> model.progressProperty().get());
        assertTrue(p > 0 && p < 1, "progress by bytes delivered: " + p);
        assertTrue(fx(robot, () -> model.progressTextProperty().get()).contains("MB delivered"));
    }

    /**
     * Issue 35 item 4: a run without congestion looked like the static drawing. A one-to-one
     * permutation at 100G fills no queue, yet its links carry traffic: the frame says how much
     * (carrying), the painter draws moving dots for it, and the view keeps animating.
     */
    @Test
    void aRunWithoutQueuesStillShowsItsTrafficMoving(FxRobot robot) throws Exception {
        robot.interact(() -> {
            model.workload.set(LiveWorkload.of(WorkloadPreset.PERMUTATION));
            model.sizeMb.set("0.5");
            model.step(false);
        });
        WaitForAsyncUtils.waitFor(90, TimeUnit.SECONDS, () -> fx(robot, () -> model.frame() != null));
        // Two interval steps of 5 us show 10 us (the second step's own pause request once reached
        // the simulator after the step had begun and ended it at the next command poll, 7.5 us:
        // LiveRunTest). On a timeout the message says where the run is.
        robot.interact(() -> model.step(false));
        try {
            WaitForAsyncUtils.waitFor(90, TimeUnit.SECONDS, () -> fx(robot, () -> model.shownSnapshot() != null
                    && model.shownSnapshot().timePs() == 10_000_000L));
        } catch (java.util.concurrent.TimeoutException e) {
            SimSnapshot at = fx(robot, model::shownSnapshot);
            throw new AssertionError("two steps of 5 us: the view shows " + (at == null ? "nothing" : at.timePs() + " ps")
                    + ", not 10 us; " + fx(robot, () -> model.session().run().diagnostics()) + "; status "
                    + fx(robot, model::status) + ", animating " + fx(robot, panel::animating), e);
        }
        CongestionFrame f = fx(robot, model::frame);
        int moving = 0;
        for (int d = 0; d < f.carrying.length; d++) {
            if (io.fabriclab.diagram.CongestionPainter.trafficDots(f.carrying[d]) > 0) {
                moving++;
            }
        }
        assertTrue(moving > 0, "directions carrying traffic are drawn moving");
        assertEquals(0, io.fabriclab.diagram.CongestionPainter.trafficDots(0));
        assertEquals(4, io.fabriclab.diagram.CongestionPainter.trafficDots(1.0));
    }

    /**
     * The animation timer runs only while a run is active; after a run the canvas can show its
     * worst moment and its totals, which keep the queues the drained last picture has lost.
     */
    @Test
    void theTimerStopsWhenIdleAndAfterARunTheWorstMomentAndTotalsShowTheStormAndResultsGoToTheReport(FxRobot robot)
            throws Exception {
        assertFalse(fx(robot, panel::animating), "no run: no animation frames");
        robot.interact(() -> {
            model.sizeMb.set("0.5");
            model.profile.set("pfc-only");
            // 100 us/s: a snapshot every 50 ms of wall, so the view takes (and records) them all;
            // at max speed it may take only a few, none of them mid-storm on a fast machine.
            model.speedPosition.set(8);
            model.play();
            assertTrue(panel.animating(), "a run being built animates");
        });
        WaitForAsyncUtils.waitFor(120, TimeUnit.SECONDS, () -> fx(robot, () -> model.results() != null));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> !fx(robot, panel::animating));
        // The incast drained before the end: the last snapshot holds no queue, so the canvas
        // shows the run totals instead of an empty picture.
        SimSnapshot end = fx(robot, model::shownSnapshot);
        long endQueued = 0;
        for (long q : end.queueBytes()) {
            endQueued += q;
        }
        assertEquals(0, endQueued, "the incast drained: the last snapshot is empty");
        CongestionFrame afterRun = fx(robot, model::frame);
        long afterMax = 0;
        for (long q : afterRun.queueBytes) {
            afterMax = Math.max(afterMax, q);
        }
        assertTrue(afterMax > 100_000, "after the run the canvas shows the totals' largest queue: " + afterMax);
        assertTrue(fx(robot, () -> model.clockProperty().get()).startsWith("run totals"));
        assertTrue(fx(robot, model::status).contains("shows the run totals"));
        SimSnapshot worst = fx(robot, model::showWorstMoment);
        assertNotNull(worst);
        long worstQueued = 0;
        for (long q : worst.queueBytes()) {
            worstQueued += q;
        }
        assertTrue(worstQueued > 100_000, "the worst moment holds the incast's queue: " + worstQueued);
        assertTrue(fx(robot, () -> model.clockProperty().get()).contains("worst moment"));
        // The hottest link of that moment: the receiver's access link, selected on the canvas.
        String hottest = fx(robot, () -> panel.showHottest());
        assertEquals("leaf1:eth1", hottest, "the incast's bottleneck: leaf1 toward server01");
        assertTrue(fx(robot, () -> editor.canvas().document().selection().links().size()) == 1);
        CongestionFrame totals = fx(robot, model::showTotals);
        long maxQueue = 0;
        boolean paused = false;
        for (int d = 0; d < totals.queueBytes.length; d++) {
            maxQueue = Math.max(maxQueue, totals.queueBytes[d]);
            paused |= totals.paused[d];
        }
        assertTrue(maxQueue > 100_000, "totals keep the largest queue: " + maxQueue);
        assertTrue(paused, "PFC-only: the totals show the directions that were paused");
        // The run goes into the design-review report through a results file Export Report reads.
        Path results = java.nio.file.Files.createTempDirectory(scratch, "live-report").resolve("live-incast.json");
        assertTrue(fx(robot, () -> model.commands().writeResults(results)));
        io.fabriclab.report.ReportRun run = io.fabriclab.report.ReportRuns.fromResults(results, 1);
        assertEquals(8, run.results().run().flows());
        assertEquals(fx(robot, () -> model.results().summary().pauseFramesSent()),
                run.results().summary().pauseFramesSent());
        robot.interact(model::reset);
        assertFalse(fx(robot, panel::animating));
    }

    /** The all-reduce ignores the incast senders and background load: their fields are disabled. */
    @Test
    void fieldsAWorkloadDoesNotUseAreDisabledAndNoFlowReadsNone(FxRobot robot) {
        assertFalse(fx(robot, () -> panel.fanIn.isDisabled()));
        assertTrue(fx(robot, () -> panel.loadPercent.isDisabled()));
        robot.interact(() -> model.workload.set(LiveWorkload.of(WorkloadPreset.ALL_REDUCE)));
        assertTrue(fx(robot, () -> panel.fanIn.isDisabled()));
        assertTrue(fx(robot, () -> panel.loadPercent.isDisabled()));
        assertEquals(WorkloadPreset.ALL_REDUCE, fx(robot, () -> panel.workload.getValue().preset()));
        robot.interact(() -> model.workload.set(LiveWorkload.of(WorkloadPreset.BACKGROUND)));
        assertFalse(fx(robot, () -> panel.loadPercent.isDisabled()));
        assertEquals("none", fx(robot, () -> panel.selection.flowSelect.getEditor().getText()));
        robot.interact(() -> model.selectedFlow.set(3));
        assertEquals("3", fx(robot, () -> panel.selection.flowSelect.getEditor().getText()));
    }
}
