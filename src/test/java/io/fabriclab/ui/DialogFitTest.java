package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.io.FabricJson;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.report.ReportFormat;
import io.fabriclab.topology.LeafSpineGenerator;
import javafx.scene.Scene;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.TextArea;
import javafx.stage.FileChooser;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * Issue 35 items 6-8: dialogs at their content's size and centred on their owner; Fail a Link by
 * typing keeps the dialog open on a name that matches nothing and completes names of the open
 * fabric; Export Report's save dialog is for the format chosen first, with that extension.
 */
@ExtendWith(ApplicationExtension.class)
class DialogFitTest {
    private Stage owner;
    private FabricEditor editor;

    @Start
    void start(Stage stage) throws Exception {
        owner = stage;
        editor = new FabricEditor(new FabricDocument(
                FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json")), null));
        stage.setScene(new Scene(editor, 1000, 700));
        stage.setX(40);
        stage.setY(30);
        stage.show();
    }

    private static void assertCentredOn(Window w, Window owner) {
        double dx = Math.abs((w.getX() + w.getWidth() / 2) - (owner.getX() + owner.getWidth() / 2));
        double dy = Math.abs((w.getY() + w.getHeight() / 2) - (owner.getY() + owner.getHeight() / 2));
        assertTrue(dx <= 2 && dy <= 2, "centred on its owner: off by " + dx + ", " + dy);
    }

    @Test
    void aFailureReportShowsEveryLineAtItsSizeCentredOnTheEditor(FxRobot robot) {
        String text = "leaf1--spine1 is down (Ctrl+Z restores it).\n\nCapacity lost: 400 Gb/s\nNIC pairs cut off: 0\n"
                + "Worst switch pair keeps 50 % of its ECMP paths\nSwitch pairs whose paths changed: 6";
        AtomicReference<Alert> a = new AtomicReference<>();
        robot.interact(() -> {
            a.set(DialogService.reportDialog("Failure of leaf1--spine1", text, owner));
            a.get().show();
        });
        WaitForAsyncUtils.waitForFxEvents();
        Alert alert = a.get();
        TextArea area = (TextArea) alert.getDialogPane().getContent();
        assertTrue(area.getPrefRowCount() >= text.split("\n").length, "every line in view: " + area.getPrefRowCount());
        assertTrue(area.getPrefRowCount() < 24, "sized to the text, not to 24 rows");
        Window w = alert.getDialogPane().getScene().getWindow();
        double need = alert.getDialogPane().prefHeight(alert.getDialogPane().getWidth());
        assertTrue(alert.getDialogPane().getHeight() >= need - 1,
                "the dialog is as tall as its content: " + alert.getDialogPane().getHeight() + " < " + need);
        assertCentredOn(w, owner);
        robot.interact(alert::close);
    }

    @Test
    void failALinkByTypingStaysOpenOnANameThatMatchesNothingAndCompletesNames(FxRobot robot) {
        Fabric generated = LeafSpineGenerator.classic();
        String example = FailLinkDialog.example(generated);
        assertNotNull(generated.findLink(example), "the hint's example " + example + " is a link of this fabric");
        assertFalse(FailLinkDialog.suggestions(FailLinkDialog.names(generated), example.substring(0, 3)).isEmpty());
        assertTrue(FailLinkDialog.suggestions(FailLinkDialog.names(generated), example).contains(example));

        AtomicReference<FailLinkDialog> d = new AtomicReference<>();
        robot.interact(() -> {
            d.set(new FailLinkDialog(generated, owner));
            d.get().dialog.show();
        });
        FailLinkDialog dialog = d.get();
        Button ok = (Button) dialog.dialog.getDialogPane().lookupButton(ButtonType.OK);
        robot.interact(() -> {
            dialog.field.setText("leaf1:eth49");
            ok.fire();
        });
        assertTrue(dialog.dialog.isShowing(), "a name that matches nothing keeps the dialog open");
        assertTrue(dialog.error.getText().startsWith("No link matches \"leaf1:eth49\""), dialog.error.getText());
        robot.interact(() -> {
            dialog.field.setText(example);
            ok.fire();
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertFalse(dialog.dialog.isShowing());
        Link chosen = dialog.dialog.getResult();
        assertSame(generated.findLink(example), chosen);
    }

    @Test
    void exportReportsSaveDialogIsForTheFormatChosenWithItsExtension(FxRobot robot) {
        FileChooser html = ReportExport.saveChooser("classic leaf-spine", ReportFormat.HTML);
        assertEquals("classic-leaf-spine-review.html", html.getInitialFileName());
        assertEquals(List.of(ReportExport.HTML_FILTER), html.getExtensionFilters());
        assertSame(ReportExport.HTML_FILTER, html.getSelectedExtensionFilter());
        FileChooser pdf = ReportExport.saveChooser("classic leaf-spine", ReportFormat.PDF);
        assertEquals("classic-leaf-spine-review.pdf", pdf.getInitialFileName());

        AtomicReference<ReportExport.ReportDialog> d = new AtomicReference<>();
        robot.interact(() -> {
            d.set(new ReportExport(editor).new ReportDialog());
            d.get().dialog.show();
        });
        WaitForAsyncUtils.waitForFxEvents();
        ReportExport.ReportDialog rd = d.get();
        assertTrue(rd.results.getHeight() >= 84, "the results list has room: " + rd.results.getHeight());
        assertCentredOn(rd.dialog.getDialogPane().getScene().getWindow(), owner);
        robot.interact(rd.dialog::close);
    }
}
