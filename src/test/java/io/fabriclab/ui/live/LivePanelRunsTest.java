package io.fabriclab.ui.live;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.io.FabricJson;
import io.fabriclab.ui.FabricDocument;
import io.fabriclab.ui.FabricEditor;
import io.fabriclab.workload.WorkloadPreset;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * Runs played in the live panel, as a user plays them one after another: at full speed the view
 * skips frames (at most one per {@link LivePanel#FULL_SPEED_FRAME_NANOS}) but records every
 * snapshot it takes, at a set speed it draws each one, and a finished run is let go on Reset or
 * on the next Play (a run of the 4-unit all-reduce holds about 540 MB: its simulator and results).
 */
@ExtendWith(ApplicationExtension.class)
class LivePanelRunsTest {
    private LivePanel panel;

    @Start
    void start(Stage stage) throws Exception {
        FabricEditor editor = new FabricEditor(new FabricDocument(
                FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json")), null));
        stage.setScene(new Scene(editor, 1200, 780));
        stage.show();
        editor.showLiveView(true);
        panel = LivePanel.of(editor);
    }

    /** What one run to its end gave: canvas frames drawn, wall seconds, and the session. */
    private record Played(long framesDrawn, double wallS, LiveSession session) {
    }

    private Played play(FxRobot robot, WorkloadPreset workload, String sizeMb, double speedPosition)
            throws Exception {
        AtomicReference<LiveSession> before = new AtomicReference<>();
        long t0 = System.nanoTime();
        robot.interact(() -> {
            before.set(panel.session());
            panel.model().workload.set(LiveWorkload.of(workload));
            panel.model().sizeMb.set(sizeMb);
            panel.setSpeedPosition(speedPosition);
            panel.drawStatsAndReset();
            panel.play();
        });
        WaitForAsyncUtils.waitFor(120, TimeUnit.SECONDS,
                () -> panel.session() != null && panel.session() != before.get()
                        && panel.session().run().result().isDone());
        WaitForAsyncUtils.waitForFxEvents();
        long[] drawn = new long[1];
        robot.interact(() -> drawn[0] = panel.drawStatsAndReset()[0]);
        return new Played(drawn[0], (System.nanoTime() - t0) / 1e9, panel.session());
    }

    @Test
    void atFullSpeedTheViewRecordsEverySnapshotItTakes(FxRobot robot) throws Exception {
        // 8 senders x 20 MB into one 100G NIC: about 13 ms simulated, 2,600 snapshots of 5 us.
        Played p = play(robot, WorkloadPreset.INCAST, "20", LivePanel.SPEED_MAX_POSITION);
        long recorded = p.session().recording().size();
        long taken = p.session().run().taken();
        long published = p.session().run().published();
        // Every snapshot the view took went into the recording (the recording may have thinned
        // itself to stay within its bound, never more), whatever was drawn; how many are drawn is
        // the pacing rule's decision, tested without a clock in LiveViewModelTest.
        assertTrue(recorded <= taken && recorded > 1, "recorded " + recorded + " of " + taken + " taken");
        assertTrue(published >= taken, published + " published, " + taken + " taken");
        // Drawn frames are bounded by the pace (one per 50 ms of wall) plus the final picture.
        assertTrue(p.framesDrawn() <= p.wallS() * 20 + 2 + 2 * p.wallS(),
                p.framesDrawn() + " frames in " + p.wallS() + " s");
    }

    @Test
    void atASetSpeedEverySnapshotTakenIsDrawn(FxRobot robot) throws Exception {
        // 8 x 4 MB: about 2.7 ms simulated; at 10^9.5 ps/s (3.2 ms a second) about a second.
        Played p = play(robot, WorkloadPreset.INCAST, "4", 9.5);
        long recorded = p.session().recording().size();
        assertTrue(recorded > 20, "recorded " + recorded);
        // The last snapshot may still be waiting for its pulse when the run ends: count the frames
        // drawn until every recorded snapshot has been (the wait bounds a broken view, it is not the verdict).
        long[] drawn = {p.framesDrawn()};
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> {
            robot.interact(() -> drawn[0] += panel.drawStatsAndReset()[0]);
            return drawn[0] >= recorded;
        });
        assertTrue(drawn[0] >= recorded, "drew " + drawn[0] + " frames for " + recorded + " snapshots");
    }

    @Test
    void aRunIsReleasedAfterResetAndAfterTheNextPlay(FxRobot robot) throws Exception {
        WeakReference<Object> first = resultsOf(play(robot, WorkloadPreset.ALL_REDUCE, "0.4",
                LivePanel.SPEED_MAX_POSITION));
        robot.interact(panel::reset);
        WaitForAsyncUtils.waitForFxEvents();
        assertCollected(first, "after Reset");

        WeakReference<Object> second = resultsOf(play(robot, WorkloadPreset.ALL_REDUCE, "0.4",
                LivePanel.SPEED_MAX_POSITION));
        play(robot, WorkloadPreset.ALL_REDUCE, "0.4", LivePanel.SPEED_MAX_POSITION);
        assertCollected(second, "after the next Play");
    }

    private static WeakReference<Object> resultsOf(Played p) throws Exception {
        Object results = p.session().run().result().get();
        assertNotNull(results);
        return new WeakReference<>(results);
    }

    private static void assertCollected(WeakReference<Object> ref, String when) throws InterruptedException {
        for (int i = 0; i < 20 && ref.get() != null; i++) {
            System.gc();
            Thread.sleep(50);
            WaitForAsyncUtils.waitForFxEvents();
        }
        assertNull(ref.get(), "the run's results are still reachable " + when);
    }
}
