package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
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

import io.fabriclab.io.FabricJson;
import io.fabriclab.model.Fabric;
import io.fabriclab.topology.LeafSpineGenerator;
import io.fabriclab.ui.live.LivePanel;
import io.fabriclab.workload.WorkloadPreset;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * Issue 35 item 1: replacing the fabric (New from Template, Import, Open example) under the live
 * view drops the previous run's overlay and totals, and a changed setting drops an ended run's
 * picture; Play then runs on the fabric drawn now.
 */
@ExtendWith(ApplicationExtension.class)
class LiveFabricReplacedTest {
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

    private LivePanel playToEnd(FxRobot robot) throws Exception {
        robot.interact(() -> editor.showLiveView(true));
        LivePanel panel = fx(robot, () -> LivePanel.of(editor));
        robot.interact(() -> {
            panel.model().workload.set(io.fabriclab.ui.live.LiveWorkload.of(WorkloadPreset.INCAST));
            panel.model().sizeMb.set("0.5");
            panel.setSpeedPosition(10);
            panel.play();
        });
        WaitForAsyncUtils.waitFor(120, TimeUnit.SECONDS, () -> fx(robot, () -> panel.results() != null));
        WaitForAsyncUtils.waitForFxEvents();
        assertNotNull(fx(robot, panel::frame), "the ended run is on the canvas");
        assertTrue(fx(robot, () -> panel.model().dashboardProperty().get()).contains("PAUSE"));
        return panel;
    }

    @Test
    void newFromTemplateDropsTheOldRunsOverlayAndTotalsAndPlayRunsTheNewFabric(FxRobot robot) throws Exception {
        LivePanel panel = playToEnd(robot);
        Fabric generated = LeafSpineGenerator.classic();
        generated.setName("generated leaf-spine");
        robot.interact(() -> editor.applyTemplate(TemplateDialog.describe("leaf-spine", generated)));
        WaitForAsyncUtils.waitForFxEvents();
        assertSame(generated, fx(robot, () -> editor.document().fabric()));
        assertNull(fx(robot, panel::frame), "no frame of the old run is drawn on the new fabric");
        assertNull(fx(robot, panel::session));
        assertNull(fx(robot, panel::results));
        assertEquals("", fx(robot, () -> panel.model().dashboardProperty().get()));
        assertEquals("", fx(robot, () -> panel.model().progressTextProperty().get()), "no old totals");
        assertEquals("t = 0 µs", fx(robot, () -> panel.model().clockProperty().get()));
        assertTrue(fx(robot, () -> panel.model().status()).contains("replaced"), fx(robot, () -> panel.model().status()));

        robot.interact(panel::play);
        WaitForAsyncUtils.waitFor(120, TimeUnit.SECONDS, () -> fx(robot, () -> panel.results() != null));
        assertSame(generated, fx(robot, () -> panel.session().drawnFabric()), "Play runs on the fabric drawn now");
        assertEquals("generated leaf-spine", fx(robot, () -> panel.session().simulatedFabric().name()));

        // Undo brings the example back: the run of the generated fabric goes too.
        robot.interact(() -> editor.document().undo());
        WaitForAsyncUtils.waitForFxEvents();
        assertNull(fx(robot, panel::frame));
        assertNull(fx(robot, panel::session));
    }

    @Test
    void choosingAnotherWorkloadAfterARunDropsItsPicture(FxRobot robot) throws Exception {
        LivePanel panel = playToEnd(robot);
        robot.interact(() -> panel.model().workload.set(io.fabriclab.ui.live.LiveWorkload.of(WorkloadPreset.ALL_REDUCE)));
        WaitForAsyncUtils.waitForFxEvents();
        assertNull(fx(robot, panel::frame));
        assertNull(fx(robot, panel::results));
        assertEquals("", fx(robot, () -> panel.model().progressTextProperty().get()));
        assertTrue(fx(robot, () -> panel.model().status()).startsWith("Settings changed"),
                fx(robot, () -> panel.model().status()));
    }
}
