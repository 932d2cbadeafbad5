package io.fabriclab.ui.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javafx.stage.Stage;
import javafx.stage.Window;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.app.RunService;
import io.fabriclab.io.FabricJson;
import io.fabriclab.io.Scenario;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Transport;
import io.fabriclab.sim.Engine;
import io.fabriclab.sim.QosResolver;
import io.fabriclab.sim.SimConfig;
import io.fabriclab.sim.SimResults;
import io.fabriclab.workload.FlowSpec;

/**
 * Issue 32, a link or unit sent to the packet engine from the flow-run window: picking a busy link
 * direction names the focus and the action's words follow what it names; the focus run runs off
 * the FX thread and opens its own window with the packet engine named and the focus flows' FCTs
 * in both runs; an unknown name disables the action and says what is allowed.
 */
@ExtendWith(ApplicationExtension.class)
class FocusRunUiTest {
    private FlowRunWindow window;
    private Fabric fabric;

    @Start
    void start(Stage stage) throws Exception {
        fabric = FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json"));
        // Two incasts: three senders to server01, two to server04.
        List<FlowSpec> flows = List.of(new FlowSpec("server02:nic0", "server01:nic0", 200_000, 0, 3),
                new FlowSpec("server03:nic0", "server01:nic0", 200_000, 0, 3),
                new FlowSpec("server05:nic0", "server01:nic0", 200_000, 0, 3),
                new FlowSpec("server06:nic0", "server04:nic0", 400_000, 0, 3),
                new FlowSpec("server07:nic0", "server04:nic0", 400_000, 0, 3));
        Scenario sc = RunService.scenarioOf("two incasts", fabric.copy(), "fabric", QosResolver.of(fabric), flows,
                SimConfig.defaults(), Transport.ROCEV2);
        SimResults r = RunService.prepare(new RunService.Request("flow", sc, Engine.FLOW)).run(null);
        LiveSession.Finished f = new LiveSession.Finished("two incasts", RunSettings.incast(), r, List.of(), null, sc);
        Stage s = FlowRunWindow.show(null, f, fabric);
        window = (FlowRunWindow) s.getScene().getRoot();
    }

    @AfterEach
    void close(FxRobot robot) {
        robot.interact(() -> {
            for (Window w : new java.util.ArrayList<>(Window.getWindows())) {
                if (w instanceof Stage s && s.getScene() != null && (s.getScene().getRoot() instanceof FlowRunWindow
                        || s.getScene().getRoot() instanceof FocusRunWindow)) {
                    s.close();
                }
            }
        });
    }

    @Test
    void aBusyLinkPickedInTheTableRunsAtPacketLevelWithTheRestAsBackground(FxRobot robot) throws Exception {
        robot.interact(() -> {
            assertTrue(window.lookCloserButton().isDisabled(), "nothing named yet");
            // The busiest direction: the last hop into server01 (three senders share it).
            TableViewPick.row(window, "leaf1:eth1 -> server01:nic0");
            assertEquals("leaf1:eth1 -> server01:nic0", window.focusField().getEditor().getText());
            assertFalse(window.lookCloserButton().isDisabled());
            assertEquals("Look at this link at packet level", window.lookCloserButton().getText());
            window.lookCloser();
        });
        WaitForAsyncUtils.waitFor(120, TimeUnit.SECONDS, () -> window.lastFocus != null);
        WaitForAsyncUtils.waitForFxEvents();
        robot.interact(() -> {
            Stage s = window.lastFocus;
            assertTrue(s.getTitle().startsWith("Focus run (packet level): link "), s.getTitle());
            FocusRunWindow w = (FocusRunWindow) s.getScene().getRoot();
            assertEquals(3, w.flowsTable().getItems().size(), "the three flows into server01");
            for (List<String> row : w.flowsTable().getItems()) {
                assertEquals("server01:nic0", row.get(2));
                assertEquals("yes", row.get(7), "on its flow-run path");
            }
        });
    }

    @Test
    void aSwitchOrUnitChangesTheActionAndAnUnknownNameSaysWhatIsAllowed(FxRobot robot) {
        robot.interact(() -> {
            window.focusField().getEditor().setText("spine1");
            assertEquals("Look at this switch at packet level", window.lookCloserButton().getText());
            assertFalse(window.lookCloserButton().isDisabled());
            // A link picked on the drawing names it.
            io.fabriclab.model.Link l = fabric.links().iterator().next();
            window.playback().selection().set(List.of(), List.of(l));
            assertEquals(l.id(), window.focusField().getEditor().getText());
            assertEquals("Look at this link at packet level", window.lookCloserButton().getText());
            window.focusField().getEditor().setText("spine99");
            assertTrue(window.lookCloserButton().isDisabled());
            javafx.scene.control.Label status = (javafx.scene.control.Label) window.lookup("#flow-run-focus-status");
            assertNotNull(status);
            assertTrue(status.getText().contains("allowed: a link id"), status.getText());
        });
    }

    /** Picks the row of {@code direction} in the flow-run window's busiest-links table. */
    private static final class TableViewPick {
        @SuppressWarnings("unchecked")
        static void row(FlowRunWindow w, String direction) {
            javafx.scene.control.TableView<List<String>> t =
                    (javafx.scene.control.TableView<List<String>>) w.lookup("#flow-run-links");
            for (int i = 0; i < t.getItems().size(); i++) {
                if (t.getItems().get(i).get(0).equals(direction)) {
                    t.getSelectionModel().select(i);
                    return;
                }
            }
            throw new AssertionError(direction + " not among " + t.getItems());
        }
    }
}
