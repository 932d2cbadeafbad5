package io.fabriclab.ui.live;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.io.FabricJson;
import io.fabriclab.ui.FabricDocument;
import io.fabriclab.ui.FabricEditor;
import javafx.scene.Scene;
import javafx.scene.control.CheckMenuItem;
import javafx.scene.control.Menu;
import javafx.scene.control.SplitPane;
import javafx.stage.Stage;

/**
 * Simulate > Live View: says it is opening at once, a second click while it opens does not close
 * it, the item is checked while the panel is open, and closing restores the editor's layout.
 */
@ExtendWith(ApplicationExtension.class)
class LiveMenuTest {
    private FabricEditor editor;
    private Menu menu;
    private CheckMenuItem live;

    @Start
    void start(Stage stage) throws Exception {
        editor = new FabricEditor(new FabricDocument(
                FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json")), null));
        stage.setScene(new Scene(editor, 1200, 780));
        stage.show();
        menu = LiveMenu.create(editor);
        live = (CheckMenuItem) menu.getItems().get(0);
    }

    private SplitPane centre() {
        return (SplitPane) editor.lookup(".split-pane");
    }

    /** What a click on a checkable menu item does: toggles the check mark, then fires the action. */
    private void click() {
        live.setSelected(!live.isSelected());
        live.fire();
    }

    @Test
    void aSecondClickWhileOpeningKeepsItOpeningAndClosingRestoresTheLayout(FxRobot robot) throws Exception {
        double[][] layout = new double[1][];
        robot.interact(() -> layout[0] = centre().getDividerPositions());
        robot.interact(() -> {
            click(); // checks the item and opens the live view
            assertTrue(live.isSelected());
            assertTrue(live.getText().contains("opening"), "says at once that it opens: " + live.getText());
            click(); // a second click before the panel is built: unchecks, which must not close it
            assertTrue(live.isSelected(), "a second click while opening keeps it checked");
        });
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> editor.livePanel() != null);
        WaitForAsyncUtils.waitForFxEvents();
        robot.interact(() -> {
            assertTrue(live.isSelected());
            assertEquals("Live View", live.getText());
        });
        robot.interact(this::click); // close
        robot.interact(() -> {
            assertNull(editor.livePanel());
            assertTrue(!live.isSelected());
            assertArrayEquals(layout[0], centre().getDividerPositions(), 1e-9, "the layout before the live view");
        });
    }
}
