package io.fabriclab.ui.live;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.io.FabricJson;
import io.fabriclab.ui.FabricDocument;
import io.fabriclab.ui.FabricEditor;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * At full speed the view skips frames (at most one per {@link LivePanel#FULL_SPEED_FRAME_NANOS})
 * but records every snapshot it takes; at a set speed it draws each one.
 */
@ExtendWith(ApplicationExtension.class)
class FullSpeedFramesTest {
    private LivePanel panel;

    @Start
    void start(Stage stage) throws Exception {
        FabricEditor editor = new FabricEditor(new FabricDocument(
                FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json")), null));
        stage.setScene(new Scene(editor, 1200, 780));
        stage.show();
        editor.showLiveView(true);
        panel = editor.livePanel();
    }

    @Test
    void atFullSpeedTheViewDrawsAtMostTwentyFramesASecondAndRecordsEverySnapshot(FxRobot robot)
            throws Exception {
        // 8 senders x 200 MB into one 100G NIC: about 130 ms simulated, 26,000 snapshots of 5 us, which
        // the simulator publishes faster than 20 a second of wall time on any machine we run on.
        long[] drawn = new long[1];
        long t0 = System.nanoTime();
        robot.interact(() -> {
            panel.sizeMb.setText("200");
            panel.setSpeedPosition(LivePanel.SPEED_MAX_POSITION);
            panel.drawStatsAndReset();
            panel.play();
        });
        WaitForAsyncUtils.waitFor(120, TimeUnit.SECONDS,
                () -> panel.session() != null && panel.session().run().result().isDone());
        WaitForAsyncUtils.waitForFxEvents();
        robot.interact(() -> drawn[0] = panel.drawStatsAndReset()[0]);
        double wallS = (System.nanoTime() - t0) / 1e9;
        long recorded = panel.session().recording().size();
        long published = panel.session().run().published();
        // Frames: at most one per 50 ms of wall, plus the final picture (and the idle redraws of
        // at most two a second before the run started).
        assertTrue(drawn[0] <= wallS * 20 + 2 + 2 * wallS, drawn[0] + " frames in " + wallS + " s");
        assertTrue(recorded > drawn[0], "recorded " + recorded + " snapshots, drew " + drawn[0]);
        assertTrue(published >= recorded, published + " published, " + recorded + " recorded");
    }

    @Test
    void atASetSpeedEverySnapshotTakenIsDrawn(FxRobot robot) throws Exception {
        // 8 x 4 MB: about 2.7 ms simulated; at 10^9.5 ps/s (3.2 ms a second) about a second.
        long[] drawn = new long[1];
        robot.interact(() -> {
            panel.sizeMb.setText("4");
            panel.setSpeedPosition(9.5);
            panel.drawStatsAndReset();
            panel.play();
        });
        WaitForAsyncUtils.waitFor(120, TimeUnit.SECONDS,
                () -> panel.session() != null && panel.session().run().result().isDone());
        WaitForAsyncUtils.waitForFxEvents();
        robot.interact(() -> drawn[0] = panel.drawStatsAndReset()[0]);
        long recorded = panel.session().recording().size();
        assertTrue(recorded > 20, "recorded " + recorded);
        assertTrue(drawn[0] >= recorded, "drew " + drawn[0] + " frames for " + recorded + " snapshots");
    }
}
