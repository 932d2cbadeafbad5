package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import io.fabriclab.edit.AddDeviceCommand;
import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.topology.Finding;
import io.fabriclab.topology.Lint;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.stage.Stage;

/**
 * The problems panel never shows a result for a fabric it did not check (issue: after one slow
 * check, automatic lint stayed off and the panel said "No findings" for an unchecked fabric).
 */
@ExtendWith(ApplicationExtension.class)
class ProblemsPaneTest {
    private FabricDocument doc;
    private ProblemsPane pane;

    /** A fabric just over the automatic-check size: servers without links (each a lint finding). */
    private static Fabric large() {
        Fabric f = new Fabric("large");
        for (int i = 0; i <= ProblemsPane.AUTO_CHECK_MAX_ELEMENTS; i++) {
            f.addDevice("srv" + i, DeviceRole.SERVER);
        }
        return f;
    }

    @Start
    void start(Stage stage) {
        doc = new FabricDocument(large(), null);
        pane = new ProblemsPane(doc);
        pane.setExpanded(true);
        stage.setScene(new Scene(pane, 600, 300));
        stage.show();
    }

    @Test
    void theSizeDecidesWhetherLintRunsAfterEachEditNotTheMachinesSpeed() {
        assertFalse(ProblemsPane.checksAutomatically(large()));
        assertTrue(ProblemsPane.checksAutomatically(DemoFabric.classic()));
    }

    /** Runs Check on the FX thread and waits for its background lint to be shown (or dropped). */
    private List<Finding> check(FxRobot robot) throws Exception {
        List<CompletableFuture<List<Finding>>> f = new ArrayList<>();
        robot.interact(() -> f.add(pane.check()));
        return f.get(0).get(2, TimeUnit.MINUTES);
    }

    @Test
    void anEditThatIsNotRecheckedEmptiesTheListAndSaysSoUntilCheckIsPressed(FxRobot robot) throws Exception {
        check(robot);
        int before = pane.findings().size();
        assertEquals(Lint.check(doc.fabric()).size(), before, "the first check lists lint's findings");
        assertTrue(before > 0, "isolated servers are findings");

        robot.interact(() -> doc.execute(new AddDeviceCommand(doc.fabric(), new Device("srv-new", DeviceRole.SERVER), 0, 0)));
        // Not re-checked (too large to re-check on every edit): the old findings are gone, nothing
        // claims "no findings", and the title says the fabric is not checked.
        assertEquals(0, pane.findings().size());
        assertEquals(ProblemsPane.NOT_CHECKED, ((Label) pane.list().getPlaceholder()).getText());
        assertTrue(pane.getText().startsWith("Problems: not checked since the last edit"), pane.getText());

        check(robot);
        assertEquals(Lint.check(doc.fabric()), pane.findings());
        assertEquals(ProblemsPane.NO_FINDINGS, ((Label) pane.list().getPlaceholder()).getText());
        assertTrue(pane.getText().startsWith("Problems: "), pane.getText());
    }

    /**
     * Lint runs in the background on a copy: a check still running when the fabric is edited never
     * shows its findings (they are of the fabric before the edit). The check is held at the
     * executor's gate until the edit is made, so the order is decided, not raced.
     */
    @Test
    void aCheckOfTheFabricBeforeAnEditIsNotShown(FxRobot robot) throws Exception {
        check(robot);
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<Boolean> onFxThread = new CopyOnWriteArrayList<>();
        BackgroundTasks.shared().setGate(worker -> {
            onFxThread.add(javafx.application.Platform.isFxApplicationThread());
            held.countDown();
            try {
                release.await(2, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            List<CompletableFuture<List<Finding>>> running = new ArrayList<>();
            robot.interact(() -> running.add(pane.check()));
            assertTrue(held.await(2, TimeUnit.MINUTES), "lint ran on the executor");
            assertEquals(List.of(false), onFxThread, "lint ran off the FX thread");
            robot.interact(() -> doc.execute(new AddDeviceCommand(doc.fabric(), new Device("srv-late", DeviceRole.SERVER), 0, 0)));
            release.countDown();
            assertNull(running.get(0).get(2, TimeUnit.MINUTES), "the findings of the fabric before the edit are dropped");
            robot.interact(() -> { });
            assertEquals(0, pane.findings().size());
            assertEquals(ProblemsPane.NOT_CHECKED, ((Label) pane.list().getPlaceholder()).getText());
        } finally {
            release.countDown();
            BackgroundTasks.shared().setGate(null);
        }
        assertEquals(Lint.check(doc.fabric()), check(robot), "a check after the edit is shown");
        assertEquals(Lint.check(doc.fabric()), pane.findings());
    }

    /**
     * A save changes whether the fabric counts as modified, not the fabric: the findings of the
     * last check stay shown (a save used to count as an edit and emptied the list of a fabric too
     * large to re-check on every edit).
     */
    @Test
    void aSaveKeepsTheFindingsShown(FxRobot robot) throws Exception {
        robot.interact(() -> doc.execute(new AddDeviceCommand(doc.fabric(), new Device("srv-saved", DeviceRole.SERVER), 0, 0)));
        check(robot);
        List<Finding> shown = pane.findings();
        assertTrue(shown.size() > 0, "isolated servers are findings");
        assertTrue(doc.stack().isModified());
        robot.interact(() -> doc.stack().markSaved(doc.stack().savePoint()));
        assertFalse(doc.stack().isModified(), "saved");
        assertEquals(shown, pane.findings(), "the findings of the saved fabric stay shown");
        assertFalse(pane.getText().startsWith("Problems: not checked"), pane.getText());
    }
}
