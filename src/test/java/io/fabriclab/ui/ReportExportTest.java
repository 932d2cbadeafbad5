package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javafx.concurrent.Task;
import javafx.concurrent.Worker;
import javafx.scene.Scene;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuItem;
import javafx.stage.Stage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.io.config.Vendor;
import io.fabriclab.report.DesignReview;

/** File > Export Report… and File > Export Switch Config…: reachable, in the background, with progress. */
@ExtendWith(ApplicationExtension.class)
class ReportExportTest {
    private FabricEditor editor;

    @Start
    void start(Stage stage) {
        editor = new FabricEditor(new FabricDocument(DemoFabric.classic(), null));
        stage.setScene(new Scene(editor, 1000, 700));
        stage.show();
    }

    @Test
    void theFileMenuOffersBothExportsBeforeQuit() {
        Menu file = editor.menuBar().getMenus().stream().filter(m -> m.getText().equals("File")).findFirst().orElseThrow();
        List<String> items = file.getItems().stream().map(MenuItem::getText).toList();
        int report = items.indexOf("Export Report…");
        int config = items.indexOf("Export Switch Config…");
        assertTrue(report > 0 && config == report + 1, items.toString());
        assertTrue(report < items.indexOf("Quit"), items.toString());
    }

    @Test
    void exportReportWritesThePdfInABackgroundTaskWithProgress(FxRobot robot, @TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("review.pdf");
        ReportExport x = reportExport();
        Task<DesignReview> t = WaitForAsyncUtils.asyncFx(() -> x.exportReport(out, List.of(), "Editor Test")).get();
        WaitForAsyncUtils.waitFor(180, TimeUnit.SECONDS, () -> onFx(t::isDone));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(Worker.State.SUCCEEDED, onFx(t::getState), String.valueOf(onFx(t::getException)));
        assertEquals(1.0, onFx(t::getProgress), 1e-9, "progress reached the end");
        byte[] pdf = Files.readAllBytes(out);
        assertTrue(new String(pdf, 0, 5, java.nio.charset.StandardCharsets.ISO_8859_1).equals("%PDF-"));
        String status = onFx(() -> editor.statusBar().getText());
        assertTrue(status.startsWith("Report written: review.pdf"), status);
    }

    @Test
    void exportSwitchConfigWritesOneFilePerSwitch(@TempDir Path tmp) throws Exception {
        ReportExport x = reportExport();
        Task<Integer> t = WaitForAsyncUtils.asyncFx(() -> x.exportConfig(tmp, Vendor.SONIC)).get();
        WaitForAsyncUtils.waitFor(120, TimeUnit.SECONDS, () -> onFx(t::isDone));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(Worker.State.SUCCEEDED, onFx(t::getState), String.valueOf(onFx(t::getException)));
        try (var files = Files.list(tmp)) {
            assertEquals((long) editor.document().fabric().switches().size(),
                    files.filter(p -> p.toString().endsWith(".config_db.json")).count());
        }
    }

    /** Task state is read on the FX thread, as javafx.concurrent requires. */
    private static <T> T onFx(java.util.concurrent.Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get();
    }

    private ReportExport reportExport() throws Exception {
        return WaitForAsyncUtils.asyncFx(() -> new ReportExport(editor)).get();
    }
}
