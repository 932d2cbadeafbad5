package io.fabriclab.ui;

import java.util.function.Consumer;

import io.fabriclab.topology.describe.Descriptions;
import io.fabriclab.topology.describe.Understanding;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The welcome page (shown on the first start, and from Help > Welcome…): describe a fabric in a
 * sentence, open the shipped example, start from a template, watch a pause storm in the live view
 * on a ready preset, and where the other presets are. The actions come from the caller, so the page
 * holds no editor logic of its own.
 */
final class WelcomePane extends VBox {
    final Button openExample = new Button("Open Example");
    final Button newFromTemplate = new Button("New from Template…");
    final Button watchPauseStorm = new Button("Watch a Pause Storm");
    final javafx.scene.control.CheckBox atStart = new javafx.scene.control.CheckBox("Show this page when FabricLab starts");
    /** A fabric in a sentence; Enter or the button opens New from Description with it. */
    final TextField describe = new TextField();
    final Button newFromDescription = new Button("New from Description…");
    /** The sentence word by word as FabricLab reads it, updated as the user types. */
    final FlowPane marks = new FlowPane(2, 4);
    final Label understood = new Label();

    WelcomePane(Runnable onOpenExample, Runnable onNewFromTemplate, Runnable onWatchPauseStorm) {
        this(onOpenExample, onNewFromTemplate, onWatchPauseStorm, text -> { });
    }

    WelcomePane(Runnable onOpenExample, Runnable onNewFromTemplate, Runnable onWatchPauseStorm,
                Consumer<String> onNewFromDescription) {
        super(14);
        setPadding(new Insets(20));
        Label title = new Label("Welcome to FabricLab");
        title.setStyle("-fx-font-size: 20px; -fx-font-weight: bold;");
        Label intro = new Label("Design, analyse and simulate RoCEv2 GPU-cluster fabrics. Describe one in a sentence, start "
                + "from the shipped example (a classic leaf-spine) or generate a fabric from a template.");
        intro.setWrapText(true);
        describe.setId("welcome-describe");
        describe.setPromptText(Descriptions.EXAMPLE);
        describe.setTooltip(new javafx.scene.control.Tooltip("e.g. " + Descriptions.EXAMPLE));
        HBox.setHgrow(describe, Priority.ALWAYS);
        newFromDescription.setId("welcome-new-from-description");
        newFromDescription.setOnAction(e -> onNewFromDescription.accept(describe.getText()));
        describe.setOnAction(e -> onNewFromDescription.accept(describe.getText()));
        marks.setId("welcome-describe-marks");
        understood.setId("welcome-describe-understood");
        understood.setWrapText(true);
        understood.setStyle("-fx-text-fill: #52606d;");
        describe.textProperty().addListener((o, a, b) -> mark(b));
        mark("");
        openExample.setId("welcome-open-example");
        openExample.setOnAction(e -> onOpenExample.run());
        newFromTemplate.setId("welcome-new-from-template");
        newFromTemplate.setOnAction(e -> onNewFromTemplate.run());
        watchPauseStorm.setId("welcome-pause-storm");
        watchPauseStorm.setOnAction(e -> onWatchPauseStorm.run());
        Label live = new Label("Watch a Pause Storm opens the example and the live view on an 8:1 incast under PFC; "
                + "press Play. The other live presets (ECN + DCQCN, a head-of-line victim, a failed link, an ECMP "
                + "collision, a PFC deadlock) are in the workload list of Simulate > Live View (Ctrl+R).");
        live.setId("welcome-live-note");
        live.setWrapText(true);
        Label more = new Label("Help > User Guide explains every part of the editor; Help > Keyboard Shortcuts lists "
                + "every shortcut.");
        more.setWrapText(true);
        atStart.setId("welcome-at-start");
        atStart.setSelected(WelcomePreference.atStart());
        atStart.selectedProperty().addListener((o, a, b) -> WelcomePreference.setAtStart(b));
        getChildren().addAll(title, intro, new HBox(10, describe, newFromDescription), marks, understood,
                new HBox(10, openExample, newFromTemplate, watchPauseStorm), live, more, atStart);
    }

    /** Marks the sentence as it is read (microseconds for the 2,000 characters read at most; building waits for the dialog). */
    private void mark(String text) {
        if (text == null || text.isBlank()) {
            marks.getChildren().clear();
            understood.setText("Type a fabric in plain English, e.g. \"" + Descriptions.EXAMPLE + "\", then press Enter.");
            return;
        }
        Understanding u = Descriptions.understand(text);
        marks.getChildren().setAll(DescriptionDialog.marks(u));
        understood.setText(u.ok() ? String.format(java.util.Locale.ROOT, "%d understood, %d defaults, %d not used: a %s "
                        + "fabric with %,d GPUs. Enter shows the table and the fabric.", u.terms().size(), u.defaults().size(),
                u.unused().size(), u.blueprint().kind().words(), u.blueprint().gpus()) : "Cannot build this: " + u.error());
        understood.setStyle(u.ok() ? "-fx-text-fill: #52606d;" : "-fx-text-fill: #b00020;");
    }
}
