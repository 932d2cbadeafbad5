package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import io.fabriclab.io.FabricFiles;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * The unsaved-changes question offers Save; file choosers start in the last folder used; export
 * names are safe file names.
 */
@ExtendWith(ApplicationExtension.class)
class UnsavedChangesTest {
    /** Scratch files of this test, removed after it (never the system temp directory: issue 35 item 16). */
    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path scratch;

    private FabricEditor editor;
    private FabricDocument doc;

    @Start
    void start(Stage stage) {
        doc = new FabricDocument(DemoFabric.classic(), null);
        editor = new FabricEditor(doc);
        stage.setScene(new Scene(editor, 900, 600));
        stage.show();
    }

    private void answer(DialogService.SaveChoice c) {
        editor.setDialogService(new DialogService() {
            @Override
            public boolean confirm(String header, String text) {
                throw new AssertionError("asked yes/no: " + header);
            }

            @Override
            public SaveChoice askSave(String header, String text) {
                return c;
            }
        });
    }

    @Test
    void saveWritesTheFabricAndGoesOnCancelStaysDontSaveGoesOn(FxRobot robot) throws Exception {
        Path file = java.nio.file.Files.createTempDirectory(scratch, "fabriclab-unsaved").resolve("classic.json");
        robot.interact(() -> {
            doc.setFile(file);
            doc.selection().set(List.of(doc.fabric().device("srv1")), List.of());
            editor.canvas().deleteSelection();
        });
        assertTrue(doc.stack().isModified());
        @SuppressWarnings("unchecked")
        java.util.concurrent.CompletableFuture<Boolean>[] goOn = new java.util.concurrent.CompletableFuture[1];

        answer(DialogService.SaveChoice.CANCEL);
        robot.interact(() -> goOn[0] = editor.confirmDiscard());
        assertFalse(goOn[0].get(1, java.util.concurrent.TimeUnit.MINUTES));
        assertFalse(Files.exists(file));

        answer(DialogService.SaveChoice.SAVE);
        robot.interact(() -> goOn[0] = editor.confirmDiscard());
        assertTrue(goOn[0].get(1, java.util.concurrent.TimeUnit.MINUTES)); // after the background save
        assertFalse(doc.stack().isModified(), "saved");
        assertNull(FabricFiles.load(file).device("srv1"), "the file holds the edited fabric");

        robot.interact(() -> editor.canvas().selectAll());
        robot.interact(() -> editor.canvas().deleteSelection());
        answer(DialogService.SaveChoice.DISCARD);
        robot.interact(() -> goOn[0] = editor.confirmDiscard());
        assertTrue(goOn[0].get(1, java.util.concurrent.TimeUnit.MINUTES)); // after the background save
        assertTrue(doc.stack().isModified(), "Don't Save leaves the changes unsaved");
    }

    @Test
    void fileChoosersStartInTheOpenFilesFolderElseTheNewestRecentOne() throws Exception {
        Path a = java.nio.file.Files.createTempDirectory(scratch, "fabriclab-a");
        Path b = java.nio.file.Files.createTempDirectory(scratch, "fabriclab-b");
        Path gone = Path.of("/nonexistent-fabriclab/x.json");
        assertEquals(a, FileActions.initialDirectory(a.resolve("open.json"), List.of(b.resolve("r.json"))));
        assertEquals(b, FileActions.initialDirectory(null, List.of(gone, b.resolve("r.json"))),
                "a recent file whose folder is gone is skipped");
        assertNull(FileActions.initialDirectory(null, List.of()));
    }

    @Test
    void exportNamesAreSafeFileNames() {
        assertEquals("rail-optimized-64-SU", FileActions.safeFileName("rail-optimized 64 SU"));
        assertEquals("lab-a-b", FileActions.safeFileName("lab: a/b"));
        assertEquals("fabric", FileActions.safeFileName(" :: "));
        assertEquals("my_fabric.v2", FileActions.safeFileName("my_fabric.v2"));
    }
}
