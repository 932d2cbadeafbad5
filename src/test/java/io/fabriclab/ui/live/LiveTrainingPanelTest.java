package io.fabriclab.ui.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.ui.FabricDocument;
import io.fabriclab.ui.FabricEditor;
import io.fabriclab.ui.live.TrainingForm.Field;
import io.fabriclab.workload.WorkloadPreset;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.stage.Stage;

/**
 * The Training Step dialog from the live view: "training step…" in the workload list opens it and
 * leaves the list as it was; OK runs the step in the live view at full speed; at the end the
 * dashboard opens with the step's analysis and the status line gives its step time and tokens/s;
 * the pictures carry the servers' NVLink activity.
 */
@ExtendWith(ApplicationExtension.class)
class LiveTrainingPanelTest {
    private FabricEditor editor;
    private LivePanel panel;

    @Start
    void start(Stage stage) {
        editor = new FabricEditor(new FabricDocument(LiveTrainingTest.fabric(), null));
        stage.setScene(new Scene(editor, 1200, 780));
        stage.show();
        editor.showLiveView(true);
        panel = LivePanel.of(editor);
    }

    @AfterEach
    void dispose(FxRobot robot) {
        robot.interact(() -> editor.showLiveView(false));
    }

    @Test
    void theWorkloadEntryOpensTheDialogAndOkRunsTheStep(FxRobot robot) throws Exception {
        robot.interact(() -> panel.workload.setValue(LiveWorkload.TRAINING_DIALOG));
        WaitForAsyncUtils.waitForFxEvents();
        // The dialog is up; the list still shows the workload chosen before.
        assertNotNull(robot.lookup("#training-preset").tryQuery().orElse(null), "the Training Step dialog opened");
        assertEquals(LiveWorkload.of(WorkloadPreset.INCAST), panel.workload.getValue());
        robot.interact(() -> robot.lookup("#training-preset").query().getScene().getWindow().hide());

        AtomicReference<TrainingJobDialog> d = new AtomicReference<>();
        robot.interact(() -> d.set(panel.openTrainingDialog()));
        TrainingJobDialog dlg = d.get();
        robot.interact(() -> {
            // A small step: 10 M parameters, TP 4 in each server, DP 2 across them, 20 µs per micro-batch.
            dlg.fields.get(Field.PARAMETERS).setText("0.01");
            dlg.fields.get(Field.LAYERS).setText("4");
            dlg.fields.get(Field.HIDDEN).setText("256");
            dlg.fields.get(Field.SEQUENCE).setText("256");
            dlg.fields.get(Field.GLOBAL_BATCH).setText("8");
            dlg.fields.get(Field.TP).setText("4");
            dlg.fields.get(Field.DP).setText("2");
            dlg.byTime.setSelected(true);
            dlg.fields.get(Field.COMPUTE_US).setText("20");
            dlg.fields.get(Field.BUCKET_MB).setText("5");
            assertFalse(dlg.okDisabled(), dlg.summary.getText());
            ((Button) dlg.dialog().getDialogPane().lookupButton(ButtonType.OK)).fire();
        });
        WaitForAsyncUtils.waitFor(120, TimeUnit.SECONDS, () -> panel.session() != null
                && panel.session().run().result().isDone() && panel.results() != null);
        WaitForAsyncUtils.waitForFxEvents();
        String[] shown = new String[3];
        robot.interact(() -> {
            shown[0] = panel.workload.getValue().toString();
            shown[1] = panel.dashboard.getText();
            shown[2] = panel.model().status();
            assertEquals(LiveViewModel.SPEED_MAX_POSITION, panel.speed.getValue(), 1e-9, "a step runs at full speed");
        });
        assertEquals("training: custom-0.01b (TP 4, PP 1, DP 2)", shown[0]);
        assertTrue(shown[1].startsWith("training step of custom-0.01b: tp 4, pp 1, dp 2, ep 1, 4 micro-batches"), shown[1]);
        assertTrue(shown[1].contains("exposed communication") && shown[1].contains("critical path"), shown[1]);
        assertTrue(shown[2].contains("training step ") && shown[2].contains("tokens/s"), shown[2]);
        // Every recorded picture of the run carries the servers' NVLink bytes.
        assertTrue(panel.session().recording().frames().stream().allMatch(s -> s.scaleUp() != null));
    }

    @Test
    void compareTransportsOpenedOnATrainingStepKeepsItsOwnDefaultWorkload(FxRobot robot) {
        RunSettings training = RunSettings.incast().withTraining(LiveTrainingTest.tinyJob());
        robot.interact(() -> {
            TransportCompareWindow w = new TransportCompareWindow(() -> editor.document().fabric(), training);
            // Not an empty "scenario file…" choice that Compare would refuse.
            assertNotNull(w.workload.getValue().preset(), w.workload.getValue().toString());
            assertEquals(WorkloadPreset.values()[0], w.workload.getValue().preset());
        });
    }
}
