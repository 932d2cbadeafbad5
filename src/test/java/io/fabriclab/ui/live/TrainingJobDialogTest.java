package io.fabriclab.ui.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.controlsfx.validation.Severity;
import org.controlsfx.validation.ValidationMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.ui.live.TrainingForm.Field;
import io.fabriclab.workload.TrainingJob;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.layout.Pane;
import javafx.stage.Stage;

/**
 * The Training Step dialog as the user types into it (headless): impossible parallelism is shown
 * next to the field it concerns, in words and as a ControlsFX error decoration, with OK disabled
 * until it is put right; the summary and the task count follow the fields; OK hands over the job.
 */
@ExtendWith(ApplicationExtension.class)
class TrainingJobDialogTest {
    private TrainingJobDialog dlg;
    private final AtomicReference<TrainingJob> accepted = new AtomicReference<>();

    @Start
    void start(Stage stage) {
        stage.setScene(new Scene(new Pane(), 300, 200));
        stage.show();
        dlg = new TrainingJobDialog(stage, LiveTrainingTest.fabric(), null);
        dlg.show(accepted::set);
        dlg.preset.setValue("gpt-1.3b");
    }

    private String problem(FxRobot robot, Field f) {
        return robot.lookup("#" + TrainingJobDialog.id(f) + "-problem").queryAs(Label.class).getText();
    }

    private void type(FxRobot robot, Field f, String text) {
        TextField t = robot.lookup("#" + TrainingJobDialog.id(f)).queryAs(TextField.class);
        robot.clickOn(t);
        robot.interact(t::selectAll);
        robot.write(text);
        WaitForAsyncUtils.waitForFxEvents();
    }

    private boolean decorated(FxRobot robot, Field f) {
        AtomicReference<Boolean> out = new AtomicReference<>();
        robot.interact(() -> out.set(dlg.validation().getHighestMessage(dlg.fields.get(f))
                .map(ValidationMessage::getSeverity).filter(s -> s == Severity.ERROR).isPresent()));
        return out.get();
    }

    @Test
    void impossibleParallelismIsShownNextToItsFieldAndOkWaitsUntilItIsRight(FxRobot robot) throws Exception {
        // gpt-1.3b on 2 servers x 4 GPUs: TP 1, PP 1, DP 8 (Megatron's defaults) can run.
        assertEquals("gpt-1.3b", dlg.preset.getValue());
        assertFalse(dlg.okDisabled());
        assertTrue(dlg.summary.getText().contains("GPUs: 8 of the fabric's 8 (TP 1 x PP 1 x DP 8)"), dlg.summary.getText());
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> dlg.tasks.getText().matches("(?s)Tasks the step makes: [0-9,]+\\R  [0-9,]+ network flows .*"));

        // TP 2 x PP 1 x DP 8 = 16 GPUs on 8: on DP (the rest), decorated, OK disabled.
        type(robot, Field.TP, "2");
        assertEquals("2", dlg.form().get(Field.TP));
        assertTrue(problem(robot, Field.DP).startsWith("tp x pp x dp = 2 x 1 x 8 = 16 GPUs, but the fabric has 8"),
                problem(robot, Field.DP));
        assertEquals("", problem(robot, Field.TP));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> decorated(robot, Field.DP));
        assertFalse(decorated(robot, Field.TP));
        assertTrue(dlg.okDisabled());
        assertTrue(dlg.summary.getText().startsWith("Cannot run: Data parallel (DP): tp x pp x dp"), dlg.summary.getText());
        assertEquals("", dlg.tasks.getText());

        type(robot, Field.DP, "4");
        assertEquals("", problem(robot, Field.DP));
        assertFalse(dlg.okDisabled());
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> !decorated(robot, Field.DP));

        // TP larger than a server (4 GPUs).
        type(robot, Field.TP, "8");
        type(robot, Field.DP, "1");
        assertTrue(problem(robot, Field.TP).startsWith("8 is larger than server s0 (4 GPUs)"), problem(robot, Field.TP));
        assertTrue(dlg.okDisabled());
        type(robot, Field.TP, "4");
        type(robot, Field.DP, "2");
        assertFalse(dlg.okDisabled());

        // PP not dividing the 24 layers.
        type(robot, Field.PP, "5");
        assertEquals("5 stages do not divide the model's 24 layers", problem(robot, Field.PP));
        assertTrue(dlg.okDisabled());
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> decorated(robot, Field.PP));
        type(robot, Field.PP, "1");
        assertFalse(dlg.okDisabled());

        // A word where a number goes.
        type(robot, Field.LAYERS, "lots");
        assertEquals("'lots' is not a whole number >= 0", problem(robot, Field.LAYERS));
        assertEquals("custom", dlg.preset.getValue(), "another architecture is a custom model");
        type(robot, Field.LAYERS, "24");
        assertFalse(dlg.okDisabled());
    }

    @Test
    void expertParallelismIsForAMixtureOfExpertsAndMustDivideDataParallel(FxRobot robot) {
        assertTrue(robot.lookup("#" + TrainingJobDialog.id(Field.EP)).queryAs(TextField.class).isDisabled(),
                "a dense model has no EP");
        robot.interact(() -> dlg.preset.setValue("moe-8x7b"));
        TextField ep = robot.lookup("#" + TrainingJobDialog.id(Field.EP)).queryAs(TextField.class);
        assertFalse(ep.isDisabled());
        // 46.7 B parameters on 8 GPUs: TP 4, PP 2, DP 1.
        assertEquals("1", dlg.fields.get(Field.DP).getText());
        type(robot, Field.EP, "2");
        assertTrue(problem(robot, Field.EP).startsWith("2 does not divide dp 1"), problem(robot, Field.EP));
        assertTrue(dlg.okDisabled());
        // Megatron defaults put TP, PP and DP back; EP 1 again divides DP.
        type(robot, Field.EP, "1");
        type(robot, Field.TP, "1");
        assertTrue(dlg.okDisabled());
        robot.interact(() -> dlg.megatron.fire());
        assertEquals("4", dlg.fields.get(Field.TP).getText());
        assertFalse(dlg.okDisabled());
    }

    @Test
    void okHandsOverTheJobAsTyped(FxRobot robot) {
        robot.interact(() -> dlg.byTime.setSelected(true));
        assertFalse(robot.lookup("#" + TrainingJobDialog.id(Field.COMPUTE_US)).queryAs(TextField.class).isDisabled());
        assertTrue(robot.lookup("#" + TrainingJobDialog.id(Field.TFLOPS)).queryAs(TextField.class).isDisabled());
        type(robot, Field.COMPUTE_US, "50");
        type(robot, Field.TP, "4");
        type(robot, Field.DP, "2");
        robot.interact(() -> dlg.distributedOptimizer.setSelected(true));
        assertTrue(dlg.summary.getText().contains("Compute per micro-batch: 50.0 µs on each GPU (given)"),
                dlg.summary.getText());
        assertTrue(dlg.summary.getText().contains("reduce-scatter + all-gather"), dlg.summary.getText());
        robot.interact(() -> ((Button) dlg.dialog().getDialogPane().lookupButton(ButtonType.OK)).fire());
        TrainingJob job = accepted.get();
        assertNotNull(job);
        assertEquals(4, job.tp());
        assertEquals(2, job.dp());
        assertEquals(50_000_000L, job.computePsPerMicroBatch());
        assertTrue(job.distributedOptimizer());
        assertEquals("gpt-1.3b", job.name());
    }
}
