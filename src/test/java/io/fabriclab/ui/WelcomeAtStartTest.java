package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import javafx.scene.Scene;
import javafx.stage.Stage;

/** Issue 16: the welcome page opens on the first start, then only when asked for. */
@ExtendWith(ApplicationExtension.class)
class WelcomeAtStartTest {
    private FabricEditor editor;
    private String previousNode;

    @Start
    void start(Stage stage) {
        editor = new FabricEditor(new FabricDocument(DemoFabric.classic(), null));
        stage.setScene(new Scene(editor, 1000, 700));
        stage.show();
    }

    @BeforeEach
    void freshPreferences() {
        // A preferences node of this test alone: "first start" is a start with nothing stored.
        previousNode = System.getProperty("fabriclab.prefs");
        System.setProperty("fabriclab.prefs", "io/fabriclab/welcome-test-" + ProcessHandle.current().pid());
    }

    @AfterEach
    void dropPreferences() throws Exception {
        java.util.prefs.Preferences.userRoot().node(System.getProperty("fabriclab.prefs")).removeNode();
        if (previousNode == null) {
            System.clearProperty("fabriclab.prefs");
        } else {
            System.setProperty("fabriclab.prefs", previousNode);
        }
    }

    @Test
    void theFirstStartShowsTheWelcomePageAndTheNextOnesDoNot(FxRobot robot) {
        Stage[] shown = new Stage[1];
        // Started with a file: the page waits for a plain start.
        robot.interact(() -> shown[0] = HelpWindows.welcomeOnStart(editor, true));
        assertNull(shown[0]);
        robot.interact(() -> shown[0] = HelpWindows.welcomeOnStart(editor, false));
        assertNotNull(shown[0], "first plain start: the welcome page opens");
        assertTrue(shown[0].isShowing());
        WelcomePane pane = (WelcomePane) shown[0].getScene().getRoot();
        assertFalse(pane.atStart.isSelected());
        robot.interact(shown[0]::close);
        robot.interact(() -> shown[0] = HelpWindows.welcomeOnStart(editor, false));
        assertNull(shown[0], "second start: straight to the editor");

        // Ticking "Show this page when FabricLab starts" brings it back at every start.
        robot.interact(() -> {
            Stage s = HelpWindows.showWelcome(editor);
            ((WelcomePane) s.getScene().getRoot()).atStart.setSelected(true);
            s.close();
        });
        robot.interact(() -> shown[0] = HelpWindows.welcomeOnStart(editor, false));
        assertNotNull(shown[0]);
        assertTrue(((WelcomePane) shown[0].getScene().getRoot()).atStart.isSelected());
        robot.interact(shown[0]::close);
    }
}
