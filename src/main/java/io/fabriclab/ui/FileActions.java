package io.fabriclab.ui;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

import javax.imageio.ImageIO;

import io.fabriclab.diagram.DiagramStyle;
import io.fabriclab.diagram.FabricPainter;
import io.fabriclab.diagram.FabricSvg;
import io.fabriclab.io.FabricFiles;
import io.fabriclab.io.InputException;
import io.fabriclab.model.Fabric;
import javafx.embed.swing.SwingFXUtils;
import javafx.scene.image.WritableImage;
import javafx.stage.FileChooser;

/**
 * File menu actions: open (and Open Recent), import containerlab, save, save as, and the exports
 * (containerlab, GraphML, SVG, PNG). Reading, saving and exporting run on the {@link BackgroundTasks}
 * executor over a copy of the fabric; a failed load leaves the open fabric as it was, a failed save
 * the file on disk and the document.
 */
final class FileActions {
    private final FabricEditor editor;
    private final FabricDocument doc;
    private final FabricCanvas canvas;
    private final BackgroundTasks tasks = BackgroundTasks.shared();

    FileActions(FabricEditor editor) {
        this.editor = editor;
        this.doc = editor.document();
        this.canvas = editor.canvas();
    }

    private FileChooser fabricChooser(String title) {
        FileChooser chooser = new FileChooser();
        chooser.setTitle(title);
        chooser.getExtensionFilters().addAll(
                new FileChooser.ExtensionFilter("FabricLab fabric (*.json)", "*.json"),
                new FileChooser.ExtensionFilter("containerlab topology (*.clab.yml)", "*.clab.yml", "*.clab.yaml"));
        startIn(chooser);
        return chooser;
    }

    void openDialog() {
        editor.confirmDiscard().thenAccept(ok -> {
            if (ok) {
                chooseAndOpen();
            }
        });
    }

    private void chooseAndOpen() {
        File f = fabricChooser("Open fabric").showOpenDialog(editor.getScene().getWindow());
        if (f != null) {
            open(f.toPath());
        }
    }

    /**
     * Reads a fabric file off the FX thread, then shows it in this window in place of the current
     * one. A bad file leaves everything as it was: a dialog lists every problem found (file, JSON
     * path, value, what is allowed) and the status bar names the first.
     */
    public CompletableFuture<Fabric> open(Path file) {
        editor.message("Opening " + file.getFileName() + "…");
        return tasks.run("Opening " + file.getFileName(), () -> FabricFiles.load(file), loaded -> {
            FabricEditor next = new FabricEditor(new FabricDocument(loaded, file));
            next.setDialogService(editor.dialogs());
            next.setRecentFiles(editor.recent());
            next.setRecovery(editor.recovery());
            boolean autosaving = editor.autosave().isRunning();
            editor.autosave().stop();
            editor.recovery().discard();
            javafx.scene.Scene scene = editor.getScene();
            // The title changes when the new editor's canvas has drawn the fabric (FabricEditor.refreshTitle).
            scene.setRoot(next);
            if (editor.theme() != DiagramStyle.Theme.LIGHT) {
                next.setTheme(editor.theme());
            }
            if (autosaving) {
                next.startAutosave();
            }
            editor.recent().add(file);
            next.menus().rebuildRecentMenu();
            next.message("Opened " + file);
        }, ex -> loadFailed(file, ex));
    }

    private void loadFailed(Path file, Throwable ex) {
        String all = ex instanceof InputException ie ? ie.getMessage() : String.valueOf(ex);
        int n = ex instanceof InputException ie ? ie.problems().size() : 1;
        editor.message("Cannot open " + file.getFileName() + ": " + firstLine(all) + (n > 1 ? " (and " + (n - 1)
                + " more problems)" : ""));
        editor.dialogs().showErrors("Cannot open " + file + (n > 1 ? " (" + n + " problems)" : "")
                + ". The fabric you were editing is unchanged.", all);
    }

    /** File > Import containerlab: the lab replaces the drawing as one undoable step (Save then writes JSON). */
    void importContainerlabDialog() {
        FileChooser chooser = new FileChooser();
        startIn(chooser);
        chooser.setTitle("Import containerlab topology");
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter("containerlab topology", "*.clab.yml",
                "*.clab.yaml", "*.yml", "*.yaml"));
        File f = chooser.showOpenDialog(editor.getScene().getWindow());
        if (f != null) {
            importContainerlab(f.toPath());
        }
    }

    /** Reads a containerlab topology (with its annotations side file) off the FX thread and puts it in this document. */
    public CompletableFuture<Fabric> importContainerlab(Path file) {
        editor.message("Importing " + file.getFileName() + "…");
        return tasks.run("Importing " + file.getFileName(), () -> io.fabriclab.io.ContainerlabYaml.read(file), f -> {
            doc.execute(new ReplaceFabricCommand(doc, "Import " + file.getFileName(), f, null));
            editor.message(String.format(Locale.ROOT, "Imported %s: %,d devices, %,d links (Ctrl+Z undoes the import)",
                    file.getFileName(), f.devices().size(), f.linkCount()));
        }, ex -> loadFailed(file, ex));
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unknown error";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl) + " …";
    }

    /**
     * Saves to the document's file (atomically, in the format its name selects), or asks for one.
     * The future says whether it was written (false when it failed or the user cancelled).
     */
    public CompletableFuture<Boolean> save() {
        if (doc.file() == null) {
            return saveAs();
        }
        return saveTo(doc.file());
    }

    public CompletableFuture<Boolean> saveAs() {
        FileChooser chooser = fabricChooser("Save fabric as");
        chooser.setInitialFileName(doc.file() != null ? doc.file().getFileName().toString()
                : safeFileName(doc.fabric().name()) + ".json");
        File f = editor.dialogs().saveFile(chooser, editor.getScene().getWindow());
        return f == null ? CompletableFuture.completedFuture(false) : saveTo(f.toPath());
    }

    /** The save being written, or a completed future: saves run one after the other. */
    private CompletableFuture<Boolean> lastSave = CompletableFuture.completedFuture(true);

    /**
     * Writes the fabric in the background: a copy and the undo stack's save point are taken here,
     * on the FX thread that owns the model, so the file never mixes two states; the copy is
     * serialised and written atomically (io.AtomicFiles: a temporary file moved into place) by the
     * {@link BackgroundTasks} executor. When it is written, the state that was copied is marked
     * saved: an edit made while the file was written stays unsaved. A failed save changes nothing
     * (the old file stays whole, the document stays modified) and says why. A save asked for while
     * another is written waits for it, so the newer copy is always the one left on disk. The
     * future completes on the FX thread after the document was updated.
     */
    public CompletableFuture<Boolean> saveTo(Path file) {
        Fabric copy = doc.fabric().copy();
        io.fabriclab.edit.CommandStack.SavePoint point = doc.stack().savePoint();
        editor.message("Saving " + file.getFileName() + "…");
        CompletableFuture<Boolean> previous = lastSave;
        CompletableFuture<Boolean> next = previous.handle((ok, ex) -> null)
                .thenCompose(x -> tasks.run("Saving " + file.getFileName(), () -> {
                    FabricFiles.save(copy, file);
                    return file;
                }, written -> saved(written, point), ex -> saveFailed(file, ex)))
                .handle((written, ex) -> ex == null);
        lastSave = next;
        return next;
    }

    private void saved(Path file, io.fabriclab.edit.CommandStack.SavePoint point) {
        doc.setFile(file);
        doc.stack().markSaved(point);
        boolean editedSince = doc.stack().isModified();
        if (!editedSince) {
            // The recovery file holds unsaved changes; with none left it goes (autosave rewrites it after the next edit).
            editor.recovery().discard();
        }
        editor.recent().add(file);
        editor.menus().rebuildRecentMenu();
        editor.message("Saved " + file + (editedSince ? " (the edits made while it was written are not saved yet)" : ""));
    }

    private void saveFailed(Path file, Throwable ex) {
        String why = ex instanceof InputException ? firstLine(ex.getMessage()) : String.valueOf(ex.getMessage());
        editor.message("Not saved: " + why);
        editor.dialogs().showErrors("Cannot save " + file + ". The file on disk and the fabric you are editing are unchanged.",
                String.valueOf(ex.getMessage()));
    }

    /**
     * File > Export containerlab / GraphML: a copy in another format; the document keeps its own
     * file and stays as modified as it was. containerlab gets its TopoViewer annotations side file
     * ({@code <topo>.clab.yml.annotations.json}) with every position.
     */
    void exportAs(String what, String pattern, String ending) {
        FileChooser chooser = new FileChooser();
        chooser.setTitle("Export " + what);
        chooser.setInitialFileName(safeFileName(doc.fabric().name()) + ending);
        startIn(chooser);
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter(what, pattern));
        File f = editor.dialogs().saveFile(chooser, editor.getScene().getWindow());
        if (f != null) {
            Path p = f.getName().endsWith(ending) ? f.toPath() : f.toPath().resolveSibling(f.getName() + ending);
            exportTo(p);
        }
    }

    /**
     * Writes a copy of the fabric in the format the file name selects (containerlab, GraphML, DOT,
     * JSON), in the background; the future says whether it was written.
     */
    public CompletableFuture<Boolean> exportTo(Path file) {
        Fabric copy = doc.fabric().copy();
        editor.message("Exporting " + file.getFileName() + "…");
        return tasks.run("Exporting " + file.getFileName(), () -> {
            try {
                FabricFiles.save(copy, file);
                return null;
            } catch (InputException ex) {
                return "Not exported: " + firstLine(ex.getMessage());
            } catch (IOException ex) {
                return "Not exported: " + ex.getMessage();
            }
        }, problem -> editor.message(problem != null ? problem : "Exported " + file
                + (file.getFileName().toString().contains(".clab.")
                        ? " and " + io.fabriclab.io.ContainerlabYaml.annotationsPath(file).getFileName() : "")),
                ex -> editor.message("Not exported: " + ex.getMessage()))
                .thenApply(problem -> problem == null);
    }

    /** The whole fabric as SVG (the report's picture), written next to the chosen name and moved into place. */
    void exportSvg() {
        FileChooser chooser = new FileChooser();
        chooser.setTitle("Export SVG");
        chooser.setInitialFileName(safeFileName(doc.fabric().name()) + ".svg");
        startIn(chooser);
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter("SVG image", "*.svg"));
        File f = editor.dialogs().saveFile(chooser, editor.getScene().getWindow());
        if (f == null) {
            return;
        }
        Fabric copy = doc.fabric().copy();
        FabricPainter.Options o = canvas.options();
        tasks.run("Exporting " + f.getName(), () -> {
            String svg = FabricSvg.render(copy, 1600, 1000, o);
            io.fabriclab.io.AtomicFiles.write(f.toPath(), svg.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return f;
        }, done -> editor.message("Exported " + f.getName()), ex -> editor.message("Export failed: " + ex.getMessage()));
    }

    void exportPng() {
        FileChooser chooser = new FileChooser();
        chooser.setTitle("Export PNG");
        chooser.setInitialFileName(safeFileName(doc.fabric().name()) + ".png");
        startIn(chooser);
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter("PNG image", "*.png"));
        File f = editor.dialogs().saveFile(chooser, editor.getScene().getWindow());
        if (f == null) {
            return;
        }
        int choice = editor.dialogs().choose("Export PNG", "What to export:", PNG_CHOICES);
        if (choice < 0) {
            return;
        }
        if (choice < PNG_SCALES.length) {
            exportWholePng(f.toPath(), PNG_SCALES[choice]);
        } else {
            exportPng(f.toPath());
        }
    }

    /** Export PNG's choices: the whole fabric at a scale (as at that zoom), or the visible part. */
    static final double[] PNG_SCALES = {1, 2, 0.5, 0.25};
    static final java.util.List<String> PNG_CHOICES = java.util.List.of("Whole fabric at 100 %", "Whole fabric at 200 %",
            "Whole fabric at 50 %", "Whole fabric at 25 %", "Visible part, as on screen");

    /**
     * The whole fabric at {@code scale} (1 = the editor at 100 % zoom), drawn off-screen on a copy
     * in the background; a scale whose picture would pass {@link io.fabriclab.diagram.FabricPng#MAX_PIXELS}
     * is lowered and the status bar says to what. Completes with the scale used.
     */
    public CompletableFuture<Double> exportWholePng(Path file, double scale) {
        io.fabriclab.model.Fabric copy = doc.fabric().copy();
        DiagramStyle style = new DiagramStyle(editor.theme());
        return tasks.run("Exporting " + file.getFileName(), () -> {
            io.fabriclab.diagram.FabricPng.Picture pic = io.fabriclab.diagram.FabricPng.renderFitted(copy, scale, style,
                    FabricPainter.Options.DEFAULT);
            io.fabriclab.io.AtomicFiles.write(file, pic.png());
            return pic.scale();
        }, used -> editor.message("Exported " + file.getFileName() + " (whole fabric at "
                + Math.round(used * 100) + " %" + (used < scale ? ", lowered from " + Math.round(scale * 100)
                + " % to stay under " + io.fabriclab.diagram.FabricPng.MAX_PIXELS / 1_000_000 + " Mpx" : "") + ")"),
                ex -> editor.message("Export failed: " + ex.getMessage()));
    }

    /** The canvas as drawn now (the visible part, at screen resolution), as a PNG file written in the background. */
    public CompletableFuture<Boolean> exportPng(Path file) {
        WritableImage img = canvas.canvas().snapshot(null, null);
        return tasks.run("Exporting " + file.getFileName(), () -> {
            java.io.ByteArrayOutputStream png = new java.io.ByteArrayOutputStream();
            ImageIO.write(SwingFXUtils.fromFXImage(img, null), "png", png);
            io.fabriclab.io.AtomicFiles.write(file, png.toByteArray());
            return true;
        }, ok -> editor.message("Exported " + file.getFileName()), ex -> editor.message("Export failed: " + ex.getMessage()));
    }


    /** Opens a file chooser in the folder of the open file, else of the newest recent file. */
    private void startIn(FileChooser chooser) {
        Path dir = initialDirectory(doc.file(), editor.recent().list());
        if (dir != null) {
            chooser.setInitialDirectory(dir.toFile());
        }
    }

    /**
     * The folder a file chooser starts in: the open file's, else the newest recent file's that
     * still exists, else null (the system's default). GTK's chooser otherwise opens on an empty
     * "Recent" list.
     */
    static Path initialDirectory(Path openFile, List<Path> recent) {
        List<Path> candidates = new java.util.ArrayList<>();
        if (openFile != null) {
            candidates.add(openFile);
        }
        candidates.addAll(recent);
        for (Path p : candidates) {
            Path dir = p.toAbsolutePath().getParent();
            if (dir != null && java.nio.file.Files.isDirectory(dir)) {
                return dir;
            }
        }
        return null;
    }

    /**
     * A file name made from a fabric's name: letters, digits, '.', '_' and '-' kept, every other run
     * of characters (spaces, ':', '/') one '-'; "fabric" when nothing is left.
     */
    static String safeFileName(String name) {
        String s = name == null ? "" : name.replaceAll("[^A-Za-z0-9._-]+", "-").replaceAll("^[-.]+|-+$", "");
        return s.isEmpty() ? "fabric" : s;
    }
}
