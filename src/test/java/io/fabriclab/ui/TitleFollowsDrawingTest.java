package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.model.Fabric;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * Issue 35 item 15: opening a fabric renamed the window before the fabric was drawn (seconds
 * before, on a large one). The title names the fabric the canvas shows: it changes with the first
 * frame that draws the new fabric, never before.
 */
@ExtendWith(ApplicationExtension.class)
class TitleFollowsDrawingTest {
    private Stage stage;
    private FabricEditor editor;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        editor = new FabricEditor(new FabricDocument(DemoFabric.classic(), null));
        stage.setScene(new Scene(editor, 1000, 700));
        stage.show();
    }

    @Test
    void openingAFabricRenamesTheWindowOnceItIsDrawn(FxRobot robot) throws Exception {
        WaitForAsyncUtils.waitForFxEvents();
        List<String> drawnWhenTitled = new ArrayList<>();
        robot.interact(() -> stage.titleProperty().addListener((o, a, b) -> {
            FabricEditor shown = (FabricEditor) stage.getScene().getRoot();
            Fabric painted = shown.canvas().paintedFabric();
            drawnWhenTitled.add(b + " | drawn: " + (painted == null ? "nothing" : painted.name())
                    + " | open: " + shown.document().fabric().name()
                    + (painted == shown.document().fabric() ? "" : " | NOT DRAWN YET"));
        }));
        Path file = Path.of("resources/examples/rail-4su.json");
        robot.interact(() -> editor.open(file));
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS,
                () -> stage.getTitle() != null && !stage.getTitle().contains(DemoFabric.classic().name()));
        WaitForAsyncUtils.waitForFxEvents();
        assertFalse(drawnWhenTitled.isEmpty(), "the title changed");
        for (String t : drawnWhenTitled) {
            assertFalse(t.contains("NOT DRAWN YET"), t);
        }
        FabricEditor shown = (FabricEditor) stage.getScene().getRoot();
        assertEquals(shown.windowTitle(), stage.getTitle());
        assertTrue(stage.getTitle().contains(shown.document().fabric().name()));
    }
}
