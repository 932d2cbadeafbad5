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
import io.fabriclab.report.ReportFormat;

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
        DesignReview r = onFx(t::getValue);
        // No results were given, so simulation items are open: the old line said "warning: 0 failures,
        // 0 warnings"; the status now uses the cover's words and counts, which agree with each other.
        assertEquals("Report written: review.pdf (" + r.verdictWord() + ": " + r.tally() + ")", status);
        assertTrue(r.count(io.fabriclab.report.Status.WARN) > 0 || !status.contains("warning"), status);
    }

    @Test
    void theChosenFileTypeDecidesTheFormatAndTheExtension(@TempDir Path tmp) {
        // The native dialog keeps the initial "...-review.pdf" when only the type is switched to HTML.
        assertEquals(new ReportExport.Target(tmp.resolve("fab-review.html"), ReportFormat.HTML),
                ReportExport.target(ReportExport.HTML_FILTER, tmp.resolve("fab-review.pdf")));
        assertEquals(new ReportExport.Target(tmp.resolve("fab-review.pdf"), ReportFormat.PDF),
                ReportExport.target(ReportExport.PDF_FILTER, tmp.resolve("fab-review.html")));
        assertEquals(new ReportExport.Target(tmp.resolve("plain.html"), ReportFormat.HTML),
                ReportExport.target(ReportExport.HTML_FILTER, tmp.resolve("plain")));
        assertEquals(new ReportExport.Target(tmp.resolve("plain.v2.pdf"), ReportFormat.PDF),
                ReportExport.target(ReportExport.PDF_FILTER, tmp.resolve("plain.v2")));
        assertEquals(new ReportExport.Target(tmp.resolve("short.htm"), ReportFormat.HTML),
                ReportExport.target(ReportExport.HTML_FILTER, tmp.resolve("short.htm")));
        // No type reported by the dialog: the typed extension decides, PDF without one.
        assertEquals(ReportFormat.HTML, ReportExport.target(null, tmp.resolve("a.html")).format());
        assertEquals(tmp.resolve("a.pdf"), ReportExport.target(null, tmp.resolve("a")).path());
    }

    @Test
    void replacingAskFirstForTheFileActuallyWritten(@TempDir Path tmp) throws Exception {
        Path earlier = Files.writeString(tmp.resolve("fab-review.html"), "an earlier report");
        List<String> asked = new java.util.ArrayList<>();
        ReportExport x = reportExport();
        WaitForAsyncUtils.asyncFx(() -> editor.setDialogService((header, text) -> {
            asked.add(header);
            return false;
        })).get();
        Path typed = tmp.resolve("fab-review.pdf");
        ReportExport.Target t = ReportExport.target(ReportExport.HTML_FILTER, typed);
        assertEquals(false, onFx(() -> x.confirmReplace(typed, t.path())), "declined: nothing is written");
        assertEquals(List.of("Replace fab-review.html?"), asked);
        assertEquals("an earlier report", Files.readString(earlier));
        // The typed name itself was confirmed by the native dialog: no second question.
        asked.clear();
        assertTrue(onFx(() -> x.confirmReplace(earlier, earlier)));
        // A new file: nothing to ask.
        assertTrue(onFx(() -> x.confirmReplace(typed, tmp.resolve("new.html"))));
        assertEquals(List.of(), asked);
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
