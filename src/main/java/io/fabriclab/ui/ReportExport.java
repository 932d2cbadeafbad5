package io.fabriclab.ui;

import java.io.File;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import javafx.concurrent.Task;
import javafx.geometry.Insets;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.MenuItem;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.stage.DirectoryChooser;
import javafx.stage.FileChooser;
import javafx.stage.Stage;
import javafx.stage.Window;

import io.fabriclab.io.PriceBookFile;
import io.fabriclab.io.config.ConfigExporter;
import io.fabriclab.io.config.Vendor;
import io.fabriclab.model.Fabric;
import io.fabriclab.report.DesignReview;
import io.fabriclab.report.ReportInput;
import io.fabriclab.report.ReportRun;
import io.fabriclab.report.ReportRuns;
import io.fabriclab.report.ReportFormat;
import io.fabriclab.report.ReportWriter;
import io.fabriclab.topology.FabricAnalysis;

/**
 * File > Export Report… and File > Export Switch Config…: the same services as `fabriclab report`
 * and `fabriclab export-config`, run on a copy of the fabric in a {@link Task} with a progress
 * window, so the editor stays responsive and an edit during the export changes nothing in it.
 */
final class ReportExport {
    private final FabricEditor editor;
    private Stage progressWindow;

    ReportExport(FabricEditor editor) {
        this.editor = editor;
    }

    /** The File menu items (inserted by the editor before Quit). */
    static List<MenuItem> menuItems(FabricEditor editor) {
        ReportExport x = new ReportExport(editor);
        MenuItem report = new MenuItem("Export Report…");
        report.setId("menu-export-report");
        report.setOnAction(e -> x.exportReportDialog());
        MenuItem config = new MenuItem("Export Switch Config…");
        config.setId("menu-export-config");
        config.setOnAction(e -> x.exportConfigDialog());
        return List.of(report, config);
    }

    private Window window() {
        return editor.getScene() == null ? null : editor.getScene().getWindow();
    }

    /** Export Report's first dialog: author, results, format; what it holds once the user has answered. */
    final class ReportDialog {
        final Dialog<ButtonType> dialog = new Dialog<>();
        final TextField author = new TextField(System.getProperty("user.name", ""));
        final ListView<Path> results = new ListView<>();
        final ChoiceBox<ReportFormat> format = new ChoiceBox<>();
        final Button addLive = new Button("Add Last Live Run");
        /** What Add Last Live Run (and Add Results) did, so a click always shows something. */
        final Label added = new Label();

        ReportDialog() {
            dialog.setTitle("Export Report");
            dialog.setHeaderText("Design-review report of " + editor.document().fabric().name());
            dialog.initOwner(window());
            results.setId("report-results");
            // Never squeezed to nothing: at least three rows show, so an added run is seen at once.
            results.setPrefHeight(110);
            results.setMinHeight(84);
            results.setPlaceholder(new Label("No results: the checklist says \"not simulated\"."));
            Button add = new Button("Add Results…");
            add.setOnAction(e -> {
                FileChooser c = new FileChooser();
                c.setTitle("Simulation results or saved live runs to include");
                c.getExtensionFilters().add(new FileChooser.ExtensionFilter(
                        "Results (fabriclab simulate -o) or saved runs (live view)", "*.json", "*.json.gz"));
                List<File> files = c.showOpenMultipleDialog(dialog.getDialogPane().getScene().getWindow());
                if (files != null) {
                    for (File f : files) {
                        if (isSavedRun(f.toPath())) {
                            savedRunResults(f.toPath()).thenAccept(r -> add(r, "Added the results of " + f.getName()));
                        } else {
                            add(f.toPath(), "Added " + f.getName());
                        }
                    }
                }
            });
            // The live view's last finished run (while the live view is open), as a results file.
            addLive.setId("report-add-live-run");
            java.util.Optional<String> live = lastLiveRunName();
            addLive.setDisable(live.isEmpty());
            addLive.setTooltip(new javafx.scene.control.Tooltip(live.map(n -> "Include " + n)
                    .orElse("Run something in Simulate > Live View first (the run must have ended)")));
            addLive.setOnAction(e -> {
                try {
                    lastLiveRunResults().ifPresent(r -> add(r, "Added the live run: " + live.orElse("")));
                } catch (java.io.IOException ex) {
                    editor.dialogs().showErrors("The live run could not be added", String.valueOf(ex.getMessage()));
                }
            });
            Button remove = new Button("Remove");
            remove.setOnAction(e -> results.getItems().removeAll(results.getSelectionModel().getSelectedItems()));
            format.getItems().addAll(ReportFormat.PDF, ReportFormat.HTML);
            format.setValue(ReportFormat.PDF);
            format.setId("report-format");
            added.setId("report-added");
            added.setWrapText(true);
            GridPane g = new GridPane();
            g.setHgap(8);
            g.setVgap(8);
            g.addRow(0, new Label("Author"), author);
            g.addRow(1, new Label("Simulation results"), new VBox(6, results, new HBox(6, add, addLive, remove), added));
            g.addRow(2, new Label("Format"), format);
            Label note = new Label("Without results the checklist says \"not simulated\"; two or more are compared side by side.\n"
                    + "A run of the live view goes in with Add Last Live Run, or as a saved run (.fabriclab-run.json.gz).");
            note.setWrapText(true);
            note.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
            g.add(note, 0, 3, 2, 1);
            g.setPrefWidth(620);
            dialog.getDialogPane().setContent(g);
            dialog.getDialogPane().getButtonTypes().addAll(ButtonType.CANCEL, ButtonType.OK);
            DialogFit.fit(dialog);
        }

        private void add(Path r, String message) {
            results.getItems().add(r);
            results.scrollTo(r);
            results.getSelectionModel().select(r);
            added.setText(message + " (" + results.getItems().size() + " in the report)");
        }
    }

    private void exportReportDialog() {
        ReportDialog rd = new ReportDialog();
        if (rd.dialog.showAndWait().filter(b -> b == ButtonType.OK).isEmpty()) {
            return;
        }
        FileChooser chooser = saveChooser(editor.document().fabric().name(), rd.format.getValue());
        File f = editor.dialogs().saveFile(chooser, window());
        if (f == null) {
            return;
        }
        Target target = target(chooser.getSelectedExtensionFilter(), f.toPath());
        if (!confirmReplace(f.toPath(), target.path())) {
            return;
        }
        exportReport(target.path(), List.copyOf(rd.results.getItems()), rd.author.getText());
    }

    /**
     * The save dialog for a report in {@code format}: that type only, and a name with its extension.
     * The format is chosen in Export Report's dialog first: a native dialog keeps the typed name when
     * the user switches its file type, so "-review.pdf" stayed after picking HTML (issue 35 item 8).
     */
    static FileChooser saveChooser(String fabricName, ReportFormat format) {
        FileChooser chooser = new FileChooser();
        chooser.setTitle("Export Report (" + format + ")");
        String ext = format == ReportFormat.HTML ? ".html" : ".pdf";
        chooser.setInitialFileName(fabricName.replaceAll("[^A-Za-z0-9._-]+", "-") + "-review" + ext);
        FileChooser.ExtensionFilter filter = format == ReportFormat.HTML ? HTML_FILTER : PDF_FILTER;
        chooser.getExtensionFilters().add(filter);
        chooser.setSelectedExtensionFilter(filter);
        return chooser;
    }

    /** The description of the live view's last finished run, empty when there is none (or no live view open). */
    java.util.Optional<String> lastLiveRunName() {
        LiveViewProvider.Panel p = editor.livePanel();
        return p == null ? java.util.Optional.empty() : p.lastRunName();
    }

    /**
     * The live view's last finished run written as a results file (into a temporary directory)
     * for the report, as Save run… / Results for report… would; empty when there is none.
     */
    java.util.Optional<Path> lastLiveRunResults() throws java.io.IOException {
        LiveViewProvider.Panel p = editor.livePanel();
        if (p == null) {
            return java.util.Optional.empty();
        }
        java.util.Optional<Path> out = p.writeLastRun(runsDir());
        out.ifPresent(f -> f.toFile().deleteOnExit());
        return out;
    }

    /** True for a run saved by the live view (its file name ending), which the report reads through its results. */
    static boolean isSavedRun(Path f) {
        return LiveViewProvider.find().map(p -> f.getFileName().toString().endsWith(p.savedRunExtension()))
                .orElse(false);
    }

    /**
     * The results held in a saved live run, written as a results file the report reads; read on the
     * application's background executor (a large run takes seconds). The future completes on the FX
     * thread; a file that cannot be read is reported and the future fails.
     */
    java.util.concurrent.CompletableFuture<Path> savedRunResults(Path runFile) {
        return BackgroundTasks.shared().run("Reading " + runFile.getFileName(), () -> LiveViewProvider.find()
                .orElseThrow(() -> new java.io.IOException("this build has no live view")).resultsOfSavedRun(runFile, runsDir()),
                r -> editor.message("Added the results of " + runFile.getFileName()),
                ex -> editor.dialogs().showErrors("Cannot read " + runFile.getFileName(), String.valueOf(ex.getMessage())));
    }

    /** Where live runs are written for a report (deleted when the application exits). */
    private static Path runsDir() throws java.io.IOException {
        Path dir = java.nio.file.Files.createTempDirectory("fabriclab-report-runs");
        dir.toFile().deleteOnExit();
        return dir;
    }

    /** The save dialog's file types; the one chosen decides the format and the file's extension. */
    static final FileChooser.ExtensionFilter PDF_FILTER = new FileChooser.ExtensionFilter("PDF", "*.pdf");
    static final FileChooser.ExtensionFilter HTML_FILTER = new FileChooser.ExtensionFilter("HTML (self-contained)", "*.html");

    /** Where the report goes and in which format. */
    record Target(Path path, ReportFormat format) {
    }

    /**
     * What the save dialog's answer means: the chosen file type decides the format, and the name gets
     * that type's extension (a typed {@code .pdf} becomes {@code .html} when HTML was chosen: a native
     * dialog keeps the initial name when only the type changes). Without a chosen type (a dialog that
     * reports none) the typed extension decides, PDF when there is none.
     */
    static Target target(FileChooser.ExtensionFilter chosen, Path typed) {
        ReportFormat typedFormat = ReportFormat.of(typed);
        ReportFormat format = chosen == HTML_FILTER || chosen != null && chosen.getDescription().startsWith("HTML")
                ? ReportFormat.HTML
                : chosen != null ? ReportFormat.PDF : typedFormat == null ? ReportFormat.PDF : typedFormat;
        if (typedFormat == format) {
            return new Target(typed, format);
        }
        String name = typed.getFileName().toString();
        if (typedFormat != null) {
            name = name.substring(0, name.lastIndexOf('.'));
        }
        String ext = format == ReportFormat.HTML ? ".html" : ".pdf";
        Path parent = typed.getParent();
        return new Target(parent == null ? Path.of(name + ext) : parent.resolve(name + ext), format);
    }

    /**
     * The native dialog asks before replacing the file whose name was typed; when the chosen type
     * changed that name, the file actually written is another one, so the question is asked again for
     * it (only if it exists). True means go on.
     */
    boolean confirmReplace(Path typed, Path out) {
        if (out.equals(typed) || !java.nio.file.Files.exists(out)) {
            return true;
        }
        return editor.dialogs().confirm("Replace " + out.getFileName() + "?",
                out + " already exists. Replace it with the new report?");
    }

    /**
     * Starts the export of the open fabric's report to {@code out} in the background, with a progress
     * window; returns the task (tests wait on it).
     */
    Task<DesignReview> exportReport(Path out, List<Path> resultFiles, String author) {
        Fabric snapshot = copyOfFabric();
        Path source = editor.document().file();
        boolean modified = editor.document().stack().isModified(); // read here: the FX thread owns the document
        Task<DesignReview> t = new BackgroundTasks.Job<>() {
            @Override
            protected DesignReview work() throws Exception {
                updateProgress(0, 1);
                List<ReportRun> runs = new ArrayList<>();
                int n = 1;
                for (Path r : resultFiles) {
                    updateMessage("reading " + r.getFileName());
                    runs.add(ReportRuns.fromResults(r, n++));
                }
                ReportInput in = new ReportInput(snapshot, source == null ? snapshot.name() + " (not saved)" : source.toString(),
                        source == null || modified ? null : sha256(source), null, null,
                        FabricAnalysis.Options.defaults(PriceBookFile.sample()), runs, author, LocalDate.now(),
                        "FabricLab editor: File > Export Report");
                return ReportWriter.write(in, out, (fraction, message) -> {
                    updateProgress(fraction, 1);
                    updateMessage(message);
                });
            }
        };
        showProgress(t, "Exporting report to " + out.getFileName());
        t.setOnSucceeded(e -> {
            closeProgress();
            DesignReview r = t.getValue();
            editor.message(statusLine(out, r));
        });
        t.setOnFailed(e -> {
            closeProgress();
            Throwable ex = t.getException();
            editor.message("Report not written: " + ex.getMessage());
            editor.dialogs().showErrors("The report could not be written", String.valueOf(ex.getMessage()));
        });
        start(t, "Exporting the report");
        return t;
    }

    /** The status bar after an export: the cover's verdict words and counts, which never contradict each other. */
    static String statusLine(Path out, DesignReview r) {
        return "Report written: " + out.getFileName() + " (" + r.verdictWord() + ": " + r.tally() + ")";
    }

    private void exportConfigDialog() {
        Dialog<ButtonType> d = new Dialog<>();
        d.setTitle("Export Switch Config");
        d.setHeaderText("QoS configuration of every switch, one file per switch");
        d.initOwner(window());
        ChoiceBox<Vendor> vendor = new ChoiceBox<>();
        vendor.getItems().addAll(Vendor.values());
        vendor.setValue(Vendor.values()[0]);
        GridPane g = new GridPane();
        g.setHgap(8);
        g.addRow(0, new Label("Switch OS"), vendor);
        d.getDialogPane().setContent(g);
        d.getDialogPane().getButtonTypes().addAll(ButtonType.CANCEL, ButtonType.OK);
        DialogFit.fit(d);
        if (d.showAndWait().filter(b -> b == ButtonType.OK).isEmpty()) {
            return;
        }
        DirectoryChooser c = new DirectoryChooser();
        c.setTitle("Directory for the configuration files");
        File dir = c.showDialog(window());
        if (dir != null) {
            exportConfig(dir.toPath(), vendor.getValue());
        }
    }

    /** Writes every switch's configuration for {@code vendor} into {@code dir} in the background. */
    Task<Integer> exportConfig(Path dir, Vendor vendor) {
        Fabric snapshot = copyOfFabric();
        Task<Integer> t = new BackgroundTasks.Job<>() {
            @Override
            protected Integer work() throws Exception {
                updateMessage("rendering " + snapshot.switches().size() + " switches");
                new ConfigExporter().exportAll(snapshot, dir, vendor);
                return snapshot.switches().size();
            }
        };
        showProgress(t, "Exporting " + vendor + " configuration");
        t.setOnSucceeded(e -> {
            closeProgress();
            editor.message("Exported " + t.getValue() + " switch configurations to " + dir);
        });
        t.setOnFailed(e -> {
            closeProgress();
            editor.message("Not exported: " + t.getException().getMessage());
            editor.dialogs().showErrors("The configuration could not be exported", String.valueOf(t.getException().getMessage()));
        });
        start(t, "Exporting switch configuration");
        return t;
    }

    private void showProgress(Task<?> t, String title) {
        ProgressBar bar = new ProgressBar();
        bar.setId("report-progress");
        bar.setPrefWidth(360);
        bar.progressProperty().bind(t.progressProperty());
        Label what = new Label();
        what.textProperty().bind(t.messageProperty());
        VBox box = new VBox(8, new Label(title), bar, what);
        box.setPadding(new Insets(12));
        progressWindow = new Stage();
        progressWindow.setTitle(title);
        if (window() != null) {
            progressWindow.initOwner(window());
        }
        progressWindow.setScene(new Scene(box));
        DialogFit.fit(progressWindow, window());
        progressWindow.show();
    }

    private void closeProgress() {
        if (progressWindow != null) {
            progressWindow.close();
            progressWindow = null;
        }
    }

    /** On the application's background executor (shown in the status bar too). */
    private static void start(Task<?> t, String name) {
        BackgroundTasks.shared().execute(t, name);
    }

    /** A deep copy: the export never reads a fabric being edited. */
    private Fabric copyOfFabric() {
        return editor.document().fabric().copy();
    }

    private static String sha256(Path file) {
        try {
            return io.fabriclab.io.ScenarioJson.sha256(java.nio.file.Files.readAllBytes(file));
        } catch (java.io.IOException e) {
            return null;
        }
    }
}
