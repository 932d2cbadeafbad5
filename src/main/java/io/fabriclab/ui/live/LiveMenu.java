package io.fabriclab.ui.live;

import io.fabriclab.ui.FabricEditor;
import javafx.scene.control.CheckMenuItem;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuItem;
import javafx.scene.input.KeyCombination;

/** The editor's "Simulate" menu: the live congestion view beside the canvas, replay and comparison of saved runs. */
public final class LiveMenu {
    private LiveMenu() {
    }

    public static Menu create(FabricEditor editor) {
        Menu m = new Menu("Simulate");
        CheckMenuItem live = new CheckMenuItem("Live View");
        live.setId("menu-live-view");
        live.setAccelerator(KeyCombination.keyCombination("Shortcut+R"));
        live.setOnAction(e -> editor.showLiveView(live.isSelected()));
        MenuItem open = new MenuItem("Open Run…");
        open.setOnAction(e -> {
            editor.showLiveView(true);
            live.setSelected(true);
            editor.livePanel().openRun.fire();
        });
        MenuItem compare = new MenuItem("Compare Runs…");
        compare.setOnAction(e -> {
            editor.showLiveView(true);
            live.setSelected(true);
            editor.livePanel().compareRuns.fire();
        });
        m.getItems().addAll(live, open, compare);
        return m;
    }
}
