package io.fabriclab.ui.live;

import io.fabriclab.ui.FabricEditor;
import javafx.animation.PauseTransition;
import javafx.scene.control.CheckMenuItem;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuItem;
import javafx.scene.input.KeyCombination;
import javafx.util.Duration;

/**
 * The editor's "Simulate" menu: the live congestion view beside the canvas (a checkable item),
 * replay and comparison of saved runs, and the comparison of transports on the open drawing
 * ({@link TransportCompareWindow}). Opening the live view says so in the status bar at once
 * and builds the panel after that message is painted; a second click while it opens does not
 * close it; closing restores the layout the editor had before.
 */
public final class LiveMenu {
    /** Wall time between the "opening" message and building the panel: one or two 60 Hz pulses. */
    static final Duration PAINT_FIRST = Duration.millis(40);

    private LiveMenu() {
    }

    public static Menu create(FabricEditor editor) {
        Menu m = new Menu("Simulate");
        CheckMenuItem live = new CheckMenuItem("Live View");
        live.setId("menu-live-view");
        live.setAccelerator(KeyCombination.keyCombination("Shortcut+R"));
        boolean[] opening = {false};
        live.setOnAction(e -> {
            if (opening[0]) {
                // A second click while the panel is being built: it stays on its way.
                live.setSelected(true);
                return;
            }
            if (!live.isSelected()) {
                editor.showLiveView(false);
                editor.message("Live view closed.");
                return;
            }
            open(editor, live, opening, () -> { });
        });
        MenuItem open = new MenuItem("Open Run…");
        open.setOnAction(e -> open(editor, live, opening, () -> LivePanel.of(editor).openRunDialog()));
        MenuItem compare = new MenuItem("Compare Runs…");
        compare.setOnAction(e -> open(editor, live, opening, () -> LivePanel.of(editor).compareDialog()));
        MenuItem training = new MenuItem("Training Step…");
        training.setId("menu-training-step");
        training.setOnAction(e -> open(editor, live, opening, () -> LivePanel.of(editor).openTrainingDialog()));
        MenuItem transports = new MenuItem("Compare Transports…");
        transports.setId("menu-compare-transports");
        transports.setOnAction(e -> TransportCompareWindow.open(editor));
        // The check mark follows the panel, however it was opened or closed.
        m.setOnShowing(e -> live.setSelected(opening[0] || editor.livePanel() != null));
        m.getItems().addAll(live, training, open, compare, new javafx.scene.control.SeparatorMenuItem(), transports);
        return m;
    }

    private static void open(FabricEditor editor, CheckMenuItem live, boolean[] opening, Runnable then) {
        live.setSelected(true);
        if (editor.livePanel() != null) {
            then.run();
            return;
        }
        if (opening[0]) {
            return;
        }
        opening[0] = true;
        live.setText("Live View (opening…)");
        editor.message("Opening the live view…");
        PauseTransition later = new PauseTransition(PAINT_FIRST);
        later.setOnFinished(e -> {
            try {
                editor.showLiveView(true);
                editor.message("Live view open: choose a workload or a live preset and press Play.");
            } finally {
                opening[0] = false;
                live.setText("Live View");
                live.setSelected(editor.livePanel() != null);
            }
            if (editor.livePanel() != null) {
                then.run();
            }
        });
        later.play();
    }
}
