package io.fabriclab.ui.live;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

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
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * A finished run holds its simulator (every flow's state) and its results; for the 4-unit
 * all-reduce that is about 540 MB. Reset, or the next Play, must let it go: the live view keeps
 * one run, not every run since the window opened.
 */
@ExtendWith(ApplicationExtension.class)
class LiveMemoryTest {
    private FabricEditor editor;
    private LivePanel panel;

    @Start
    void start(Stage stage) throws Exception {
        editor = new FabricEditor(new FabricDocument(
                FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json")), null));
        stage.setScene(new Scene(editor, 1200, 780));
        stage.show();
        editor.showLiveView(true);
        panel = editor.livePanel();
    }

    @Test
    void aRunIsReleasedAfterResetAndAfterTheNextPlay(FxRobot robot) throws Exception {
        WeakReference<Object> first = playToTheEnd(robot);
        robot.interact(panel::reset);
        WaitForAsyncUtils.waitForFxEvents();
        assertCollected(first, "after Reset");

        WeakReference<Object> second = playToTheEnd(robot);
        playToTheEnd(robot);
        assertCollected(second, "after the next Play");
    }

    /** Plays the default run to its end; a weak reference to its session. */
    private WeakReference<Object> playToTheEnd(FxRobot robot) throws Exception {
        AtomicReference<LiveSession> before = new AtomicReference<>();
        robot.interact(() -> {
            before.set(panel.session());
            panel.workload.getSelectionModel().select(io.fabriclab.workload.WorkloadPreset.ALL_REDUCE);
            panel.sizeMb.setText("0.4");
            panel.setSpeedPosition(LivePanel.SPEED_MAX_POSITION);
            panel.play();
        });
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS,
                () -> panel.session() != null && panel.session() != before.get()
                        && panel.session().run().result().isDone());
        WaitForAsyncUtils.waitForFxEvents();
        LiveSession s = panel.session();
        Object results = s.run().result().get();
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
