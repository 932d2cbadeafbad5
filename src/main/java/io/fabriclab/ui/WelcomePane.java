package io.fabriclab.ui;

import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;

/**
 * The welcome page (shown on the first start, and from Help > Welcome…): open the shipped example, start from a template, watch a
 * pause storm in the live view on a ready preset, and where the other presets are. The actions come from the caller, so the page holds no
 * editor logic of its own.
 */
final class WelcomePane extends VBox {
    final Button openExample = new Button("Open Example");
    final Button newFromTemplate = new Button("New from Template…");
    final Button watchPauseStorm = new Button("Watch a Pause Storm");
    final javafx.scene.control.CheckBox atStart = new javafx.scene.control.CheckBox("Show this page when FabricLab starts");

    WelcomePane(Runnable onOpenExample, Runnable onNewFromTemplate, Runnable onWatchPauseStorm) {
        super(14);
        setPadding(new Insets(20));
        Label title = new Label("Welcome to FabricLab");
        title.setStyle("-fx-font-size: 20px; -fx-font-weight: bold;");
        Label intro = new Label("Design, analyse and simulate RoCEv2 GPU-cluster fabrics. Start from the shipped example "
                + "(a classic leaf-spine) or generate a fabric from a template.");
        intro.setWrapText(true);
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
        getChildren().addAll(title, intro, new HBox(10, openExample, newFromTemplate, watchPauseStorm), live, more,
                atStart);
    }
}
