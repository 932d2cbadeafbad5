package io.fabriclab.ui.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import javafx.scene.Scene;
import javafx.stage.Stage;
import javafx.stage.Window;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.io.FabricJson;
import io.fabriclab.sim.Engine;
import io.fabriclab.ui.FabricDocument;
import io.fabriclab.ui.FabricEditor;
import io.fabriclab.workload.WorkloadPreset;

/**
 * Issue 32, one choice of engine in the app: the run panel's Engine box. Packet (the default) is
 * animated as before; flow runs the settings to their end through the run service, off the FX
 * thread, and shows the finished run in its own window with the engine named; the Compare
 * Transports window runs its transports on the engine chosen and names it in its title.
 */
@ExtendWith(ApplicationExtension.class)
class LiveEngineTest {
    private FabricEditor editor;
    private LivePanel panel;

    @Start
    void start(Stage stage) throws Exception {
        editor = new FabricEditor(new FabricDocument(
                FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json")), null));
        stage.setScene(new Scene(editor, 1200, 780));
        stage.show();
        editor.showLiveView(true);
        panel = LivePanel.of(editor);
    }

    @org.junit.jupiter.api.AfterEach
    void dispose(FxRobot robot) {
        robot.interact(() -> {
            editor.showLiveView(false);
            for (Window w : new java.util.ArrayList<>(Window.getWindows())) {
                if (w instanceof Stage s && s.getScene() != null && s.getScene().getRoot() instanceof FlowRunWindow) {
                    s.close();
                }
            }
        });
    }

    @Test
    void theFlowEngineRunsToItsEndAndShowsTheFinishedRunNamingTheEngine(FxRobot robot) throws Exception {
        robot.interact(() -> {
            assertEquals(Engine.PACKET, panel.engine.getValue(), "packet by default");
            panel.model().workload.set(LiveWorkload.of(WorkloadPreset.INCAST));
            panel.model().sizeMb.set("0.2");
            panel.model().fanIn.set("4");
            panel.engine.setValue(Engine.FLOW);
            assertEquals(Engine.FLOW, panel.model().settings().engine());
            assertTrue(panel.model().settings().describe().endsWith("flow engine"));
            panel.play();
        });
        WaitForAsyncUtils.waitFor(120, TimeUnit.SECONDS, () -> panel.model().flowResult.get() != null);
        WaitForAsyncUtils.waitForFxEvents();
        LiveSession.Finished f = panel.model().flowResult.get();
        assertEquals("flow", f.results().run().engine());
        assertEquals(f.results().run().flows(), f.results().run().flowsCompleted(), "the incast completes");
        assertNull(panel.session(), "no packet-level session was started");
        robot.interact(() -> {
            assertTrue(panel.model().statusProperty().get().startsWith("Flow engine:"), panel.model().statusProperty().get());
            FlowRunWindow w = Window.getWindows().stream().filter(x -> x instanceof Stage s && s.getScene() != null
                    && s.getScene().getRoot() instanceof FlowRunWindow).map(x -> (FlowRunWindow) ((Stage) x).getScene().getRoot())
                    .findFirst().orElse(null);
            assertNotNull(w, "the finished run's window is open");
            assertTrue(((Stage) w.getScene().getWindow()).getTitle().startsWith("Flow-level run: "));
            assertEquals("engine", FlowRunWindow.figures(f).get(0)[0]);
            assertEquals("flow", FlowRunWindow.figures(f).get(0)[1]);
        });
    }

    @Test
    void compareTransportsRunsOnTheEngineChosenAndNamesIt(FxRobot robot) throws Exception {
        TransportCompareWindow[] w = new TransportCompareWindow[1];
        robot.interact(() -> {
            w[0] = new TransportCompareWindow(() -> editor.document().fabric(),
                    RunSettings.incast().withBytes(200_000).withFanIn(4).withEngine(Engine.FLOW));
            assertEquals(Engine.FLOW, w[0].engine.getValue(), "the live view's engine is the window's first choice");
        });
        java.util.concurrent.CompletableFuture<io.fabriclab.report.TransportComparison>[] done =
                new java.util.concurrent.CompletableFuture[1];
        robot.interact(() -> done[0] = w[0].compare());
        io.fabriclab.report.TransportComparison cmp = done[0].get(120, TimeUnit.SECONDS);
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(cmp.rows().stream().filter(r -> r.results() != null).allMatch(r -> "flow".equals(r.results().run().engine())));
        assertTrue(w[0].titleProperty().get().endsWith("(flow engine)"), w[0].titleProperty().get());
    }
}
