package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import javafx.scene.Scene;
import javafx.stage.Stage;

import io.fabriclab.model.QosProfile;
import io.fabriclab.sweep.SweepSummary;

/**
 * Simulate > Sweep… on the open fabric: two ECN Kmin values on the shipped ecn-too-high incast run
 * through the local pool, the table shows both points, and applying a point sets the profile's
 * class 3 Kmin to that point's value as one undoable command.
 */
@ExtendWith(ApplicationExtension.class)
class SweepWindowTest {
    FabricEditor editor;
    Stage owner;

    @Start
    void start(Stage stage) {
        owner = stage;
        try {
            editor = new FabricEditor(new FabricDocument(io.fabriclab.io.FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json")), null));
        } catch (io.fabriclab.io.InputException e) {
            throw new IllegalStateException(e);
        }
        stage.setScene(new Scene(editor, 1000, 700));
        stage.show();
    }

    @Test
    void sweepsTheOpenFabricAndAppliesAPointAsOneUndoableCommand(FxRobot robot, @TempDir Path dir) throws Exception {
        SweepWindow[] w = new SweepWindow[1];
        robot.interact(() -> {
            w[0] = new SweepWindow(editor, owner);
            w[0].show();
            w[0].scenario.setText(Path.of("resources/scenarios/ecn-too-high.json").toAbsolutePath().toString());
            w[0].path.getEditor().setText("qos.ecn.classes.3.kminBytes");
            w[0].values.setText("20000, 400000");
            w[0].addParameter();
            w[0].seeds.getValueFactory().setValue(1);
            w[0].workers.getValueFactory().setValue(1);
            w[0].output.setText(dir.resolve("sweep").toString());
        });
        assertEquals(1, w[0].parameterList().size(), w[0].status.getText());
        @SuppressWarnings("unchecked")
        CompletableFuture<SweepSummary>[] f = new CompletableFuture[1];
        robot.interact(() -> f[0] = w[0].run());
        SweepSummary s = f[0].get(10, TimeUnit.MINUTES);
        robot.interact(() -> { });
        assertEquals(2, s.points().size());
        assertEquals(2, w[0].table.getItems().size());
        assertTrue(s.points().stream().allMatch(p -> p.ok() == 1), "both runs simulated");
        assertTrue(Files.exists(dir.resolve("sweep").resolve(SweepSummary.SUMMARY_JSON)), "the CLI's summary files");
        assertFalse(w[0].chart.getItems().isEmpty(), "charts offered");
        assertNotNull(w[0].chartView.getImage(), "a chart shown");

        String profileName = editor.document().fabric().defaultQosProfile();
        QosProfile before = editor.document().fabric().qosProfile(profileName);
        robot.interact(() -> {
            w[0].profile.setValue(profileName);
            w[0].table.getSelectionModel().select(0);
        });
        @SuppressWarnings("unchecked")
        CompletableFuture<QosProfile>[] a = new CompletableFuture[1];
        robot.interact(() -> a[0] = w[0].applySelectedPoint());
        a[0].get(2, TimeUnit.MINUTES);
        robot.interact(() -> { });
        io.fabriclab.model.WredEcn c3 = editor.document().fabric().qosProfile(profileName).ecn().classes().get(3);
        assertEquals(20000, c3.kminBytes(), "point 1's Kmin applied: " + w[0].status.getText());
        robot.interact(() -> editor.document().undo());
        assertEquals(before, editor.document().fabric().qosProfile(profileName), "one undo puts the profile back");
    }

    /** The Tune tab: a small budget on the same scenario; the verdict, the hold-out table and the trace are shown. */
    @Test
    void tunesAndShowsTheVerdictAndTrace(FxRobot robot, @TempDir Path dir) throws Exception {
        SweepWindow[] w = new SweepWindow[1];
        robot.interact(() -> {
            w[0] = new SweepWindow(editor, owner);
            w[0].show();
            w[0].scenario.setText(Path.of("resources/scenarios/ecn-too-high.json").toAbsolutePath().toString());
            w[0].budget.getValueFactory().setValue(4);
            w[0].searchSeeds.getValueFactory().setValue(1);
            w[0].holdoutSeeds.getValueFactory().setValue(2);
            w[0].workers.getValueFactory().setValue(1);
            w[0].output.setText(dir.resolve("out").toString());
        });
        @SuppressWarnings("unchecked")
        CompletableFuture<io.fabriclab.sweep.tune.Tuner.Outcome>[] f = new CompletableFuture[1];
        robot.interact(() -> f[0] = w[0].tune());
        io.fabriclab.sweep.tune.Tuner.Outcome o = f[0].get(10, TimeUnit.MINUTES);
        robot.interact(() -> { });
        assertFalse(w[0].verdict.getText().isBlank(), "a verdict");
        assertTrue(w[0].verdict.getText().startsWith(o.verdict()), w[0].verdict.getText());
        // Issue 35 item 10: every metric the recommendation worsens is named with the verdict.
        for (String worse : io.fabriclab.sweep.tune.TuneReport.worsened(o, io.fabriclab.sweep.tune.TuneReport.shownMetrics(o))) {
            assertTrue(w[0].verdict.getText().contains(worse), worse + " in " + w[0].verdict.getText());
        }
        assertEquals(io.fabriclab.sweep.tune.TuneReport.shownMetrics(o).size(), w[0].beforeAfter.getItems().size(),
                "the objective, the constraints' metrics, FCT p99 and p50, paused time, ECN marks, drops, throughput");
        assertNotNull(w[0].traceView.getImage(), "the search trace");
        assertEquals(!o.improved(), w[0].applyTuned.isDisabled(), "apply only a recommendation");
        assertTrue(Files.exists(dir.resolve("out/tune/scenario-on-open-fabric.json")), "the open fabric was tuned");
    }

    /**
     * Issue 35 items 9 and 12: a scenario without a qos block is offered only the paths it has (and
     * told why); unticked, "Run on the open fabric" makes the title and the output folder name the
     * scenario's own fabric (no trailing "-"), and a point of such a sweep is not applied to the open one.
     */
    @Test
    void theFormFollowsTheScenarioAndWhatTheSweepRunsOn(FxRobot robot, @TempDir Path dir) throws Exception {
        SweepWindow[] w = new SweepWindow[1];
        robot.interact(() -> {
            w[0] = new SweepWindow(editor, owner);
            w[0].show();
            w[0].scenario.setText(Path.of("resources/scenarios/transports-incast-rail-4su.json").toAbsolutePath().toString());
        });
        assertTrue(w[0].path.getItems().stream().noneMatch(p -> p.startsWith("qos.")), w[0].path.getItems().toString());
        assertTrue(w[0].path.getItems().contains("workloads[0].bytesPerSender"));
        assertTrue(w[0].pathHint.getText().contains("no \"qos\" block"), w[0].pathHint.getText());
        String open = editor.document().fabric().name();
        assertTrue(w[0].stage.getTitle().contains(open));
        assertFalse(w[0].output.getText().endsWith("-"), w[0].output.getText());

        robot.interact(() -> w[0].onOpenFabric.setSelected(false));
        assertFalse(w[0].stage.getTitle().contains(open), "unticked, the title names the scenario's fabric: " + w[0].stage.getTitle());
        assertTrue(w[0].stage.getTitle().contains("rail-4su"), w[0].stage.getTitle());
        assertTrue(w[0].output.getText().endsWith("rail-4su"), w[0].output.getText());

        // A scenario with a qos block offers the QoS paths again.
        robot.interact(() -> w[0].scenario.setText(Path.of("resources/scenarios/ecn-too-high.json").toAbsolutePath().toString()));
        assertTrue(w[0].path.getItems().contains("qos.ecn.classes.3.kminBytes"));
        assertEquals("", w[0].pathHint.getText());

        // A sweep on the scenario's own fabric: its points are not applied to the open fabric.
        robot.interact(() -> {
            w[0].path.getEditor().setText("qos.ecn.classes.3.kminBytes");
            w[0].values.setText("20000");
            w[0].addParameter();
            w[0].seeds.getValueFactory().setValue(1);
            w[0].workers.getValueFactory().setValue(1);
            w[0].output.setText(dir.resolve("sweep").toString());
        });
        @SuppressWarnings("unchecked")
        CompletableFuture<SweepSummary>[] f = new CompletableFuture[1];
        robot.interact(() -> f[0] = w[0].run());
        f[0].get(10, TimeUnit.MINUTES);
        String profileName = editor.document().fabric().defaultQosProfile();
        QosProfile before = editor.document().fabric().qosProfile(profileName);
        robot.interact(() -> {
            w[0].profile.setValue(profileName);
            w[0].table.getSelectionModel().select(0);
        });
        assertTrue(w[0].apply.isDisabled(), "a point of the scenario's own fabric is not offered for the open one");
        @SuppressWarnings("unchecked")
        CompletableFuture<QosProfile>[] a = new CompletableFuture[1];
        robot.interact(() -> a[0] = w[0].applySelectedPoint());
        assertTrue(a[0].isCompletedExceptionally());
        assertEquals(before, editor.document().fabric().qosProfile(profileName), "the open fabric is unchanged");
        assertTrue(w[0].status.getText().startsWith("Not applied"), w[0].status.getText());
    }
}
