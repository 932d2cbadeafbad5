package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.edit.SetPropertyCommand;
import io.fabriclab.io.FabricFiles;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.topology.RailOptimizedGenerator;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.DialogPane;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuItem;
import javafx.stage.FileChooser;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * On the 64-unit rail fabric (16,384 GPUs; seconds of work per action), Analyze, Check Deadlocks,
 * Fail a Link, Export Report and Save, started from their menu items, run on the background
 * executor and leave the FX thread free while they run.
 *
 * <p>What is asserted is what the code decided, not how fast the machine is: the executor's gate
 * (a test hook, {@code BackgroundTasks.setGate}) holds each action's work after it is computed and
 * before its result goes to the FX thread. While it is held the test asserts that the work ran on
 * a {@code fabriclab-background} thread (not the FX application thread), that a
 * {@code Platform.runLater} it posts is run (the FX thread is free: were the work on it, the
 * runnable could not run before the work ends, and the work does not end until the test releases
 * it), and that the result is not shown yet; then it releases the gate and waits for the result in
 * the UI. How long the FX thread takes to answer while the work runs un-held is a benchmark
 * ({@code tools/bench-ui.sh responsive}, docs/performance.md), not a test.
 */
@ExtendWith(ApplicationExtension.class)
class BackgroundWorkTest {
    /** Scratch files of this test, removed after it (never the system temp directory: issue 35 item 16). */
    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path scratch;

    /** Generous: a 64-unit analysis on a loaded 2-core machine takes tens of seconds; nothing is timed. */
    private static final long WAIT_MINUTES = 5;

    private Stage stage;
    private FabricEditor editor;
    private final List<String> reports = new CopyOnWriteArrayList<>();
    private final List<String> errors = new CopyOnWriteArrayList<>();
    /** The file the report's save dialog answers. */
    private volatile File reportFile;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        stage.show();
    }

    @AfterEach
    void noGate() {
        BackgroundTasks.shared().setGate(null);
        BackgroundTasks.shared().setProbe(null);
    }

    /** Holds every task that reaches it until released; records where each ran. */
    private static final class Gate implements Consumer<Thread> {
        final CountDownLatch arrived = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final List<String> threads = new CopyOnWriteArrayList<>();
        final List<Boolean> onFxThread = new CopyOnWriteArrayList<>();

        @Override
        public void accept(Thread worker) {
            threads.add(Thread.currentThread().getName());
            onFxThread.add(Platform.isFxApplicationThread());
            arrived.countDown();
            try {
                release.await(WAIT_MINUTES, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void openEditor(Fabric f, Path file) throws Exception {
        CompletableFuture<Void> shown = new CompletableFuture<>();
        Platform.runLater(() -> {
            try {
                editor = new FabricEditor(new FabricDocument(f, file));
                editor.setDialogService(new DialogService() {
                    @Override
                    public boolean confirm(String header, String text) {
                        return true;
                    }

                    @Override
                    public void showReport(String title, String text) {
                        reports.add(title);
                    }

                    @Override
                    public void showErrors(String header, String details) {
                        errors.add(header);
                    }

                    @Override
                    public File saveFile(FileChooser chooser, Window owner) {
                        // The report in HTML (the chooser's second type), as a user picking it would.
                        chooser.setSelectedExtensionFilter(chooser.getExtensionFilters().get(
                                chooser.getExtensionFilters().size() - 1));
                        return reportFile;
                    }
                });
                stage.setScene(new Scene(editor, 1200, 780));
                shown.complete(null);
            } catch (RuntimeException e) {
                shown.completeExceptionally(e);
            }
        });
        shown.get(WAIT_MINUTES, TimeUnit.MINUTES);
        // The Problems pane's first lint runs in the background after the first frame: let it end, so
        // the only work the gate sees is the action's.
        waitUntil("idle after opening", () -> fx(() -> BackgroundTasks.shared().running().isEmpty()));
    }

    private static boolean fx(java.util.concurrent.Callable<Boolean> c) {
        try {
            return WaitForAsyncUtils.asyncFx(c).get(WAIT_MINUTES, TimeUnit.MINUTES);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static void waitUntil(String what, BooleanSupplier condition) throws Exception {
        try {
            WaitForAsyncUtils.waitFor(WAIT_MINUTES, TimeUnit.MINUTES, condition::getAsBoolean);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("waited " + WAIT_MINUTES + " minutes for: " + what, e);
        }
    }

    /** The menu item with this text in the editor's menu bar (searched through sub-menus). */
    private MenuItem menuItem(String text) {
        List<MenuItem> all = new ArrayList<>();
        for (Menu m : editor.menuBar().getMenus()) {
            collect(m, all);
        }
        return all.stream().filter(i -> text.equals(i.getText())).findFirst()
                .orElseThrow(() -> new AssertionError("no menu item " + text));
    }

    private static void collect(Menu m, List<MenuItem> into) {
        for (MenuItem i : m.getItems()) {
            into.add(i);
            if (i instanceof Menu sub) {
                collect(sub, into);
            }
        }
    }

    /**
     * Chooses a menu item (posted to the FX thread, as a click is) with the gate set, and waits until
     * the work it started is held there; asserts it ran off the FX thread and that the FX thread
     * runs a runnable posted while the work is held. The caller checks what it wants while held,
     * then calls {@link #release}.
     */
    private Gate chooseAndHold(String item, Runnable whileDialogsOpen) throws Exception {
        return chooseAndHold(item, whileDialogsOpen, false);
    }

    /** As above; {@code beforeTheWork} holds the task before its work starts (the executor's probe) instead of after. */
    private Gate chooseAndHold(String item, Runnable whileDialogsOpen, boolean beforeTheWork) throws Exception {
        Gate gate = new Gate();
        if (beforeTheWork) {
            BackgroundTasks.shared().setProbe(gate);
        } else {
            BackgroundTasks.shared().setGate(gate);
        }
        MenuItem m = menuItem(item);
        Platform.runLater(m::fire);
        if (whileDialogsOpen != null) {
            whileDialogsOpen.run();
        }
        assertTrue(gate.arrived.await(WAIT_MINUTES, TimeUnit.MINUTES), item + ": its work reached the executor");
        assertEquals(List.of(false), gate.onFxThread, item + ": the work ran off the FX application thread");
        assertTrue(gate.threads.get(0).startsWith("fabriclab-background-"), gate.threads.toString());

        CountDownLatch answered = new CountDownLatch(1);
        Platform.runLater(answered::countDown);
        assertTrue(answered.await(WAIT_MINUTES, TimeUnit.MINUTES), item + ": the FX thread ran a runnable while the work was held");
        assertEquals(1, gate.release.getCount(), "still held");
        String busy = fxText(() -> ((javafx.scene.control.Label) editor.lookup("#status-busy")).getText());
        assertFalse(busy.isEmpty(), item + ": the status bar names the work while it runs");
        return gate;
    }

    private static String fxText(java.util.concurrent.Callable<String> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(WAIT_MINUTES, TimeUnit.MINUTES);
    }

    private static void release(Gate gate) {
        BackgroundTasks.shared().setGate(null);
        BackgroundTasks.shared().setProbe(null);
        gate.release.countDown();
    }

    @Test
    void analyzeDeadlockCheckFailLinkReportExportAndSaveOfThe64UnitFabricLeaveTheFxThreadFree(FxRobot robot)
            throws Exception {
        Path dir = java.nio.file.Files.createTempDirectory(scratch, "fabriclab-64");
        Path file = dir.resolve("rail64.json");
        openEditor(RailOptimizedGenerator.generate(64), file);
        Fabric f = editor.document().fabric();
        assertEquals(16_384, f.gpuCount(), "the 64-unit rail fabric");

        // Fabric > Analyze
        Gate g = chooseAndHold("Analyze", null);
        assertFalse(reports.contains("Analysis of " + f.name()), "not shown before the work is released");
        release(g);
        waitUntil("the analysis window", () -> reports.contains("Analysis of " + f.name()));

        // Fabric > Check Deadlocks
        g = chooseAndHold("Check Deadlocks", null);
        assertFalse(reports.contains("Deadlock check"));
        release(g);
        waitUntil("the deadlock report", () -> reports.contains("Deadlock check"));
        assertTrue(fxText(() -> editor.statusBar().getText()).startsWith("Deadlock check: no cyclic buffer dependency"),
                "up-down routing on a Clos has no cyclic buffer dependency");

        // Fabric > Fail a Link… with an uplink selected: the link goes down at once (an edit), its
        // impact is computed in the background.
        Link uplink = f.links().stream().filter(l -> l.a().device().role().tier() == 1
                && l.b().device().role().tier() == 2).findFirst().orElseThrow();
        robot.interact(() -> editor.document().selection().set(List.of(), List.of(uplink)));
        g = chooseAndHold("Fail a Link…", null);
        assertFalse(uplink.isUp(), "the link is down in the editor's fabric while its impact is computed");
        assertFalse(reports.contains("Failure of " + uplink.id()));
        release(g);
        waitUntil("the failure report", () -> reports.contains("Failure of " + uplink.id()));

        // Two servers selected: the routing behind their ECMP paths (about 75 ms warm on this
        // fabric) is computed in the background; the paths are highlighted when it is done.
        Gate paths = new Gate();
        BackgroundTasks.shared().setGate(paths);
        List<Device> servers = f.servers();
        Device first = servers.get(0);
        Device last = servers.get(servers.size() - 1);
        robot.interact(() -> editor.document().selection().set(List.of(first, last), List.of()));
        assertTrue(paths.arrived.await(WAIT_MINUTES, TimeUnit.MINUTES), "the paths' routing reached the executor");
        assertEquals(List.of(false), paths.onFxThread, "the paths' routing ran off the FX application thread");
        assertTrue(fx(() -> editor.shownPaths() == null), "not shown before the work is released");
        release(paths);
        waitUntil("the ECMP paths", () -> fx(() -> editor.shownPaths() != null));
        assertTrue(fx(() -> editor.shownPaths().count() > 0 && editor.shownPaths().from().device() == first));
        robot.interact(() -> editor.document().selection().clear());
        assertTrue(fx(() -> editor.shownPaths() == null));

        // File > Export Report…: its dialog is answered (OK), the save dialog by the test's service.
        reportFile = dir.resolve("rail64-review.html").toFile();
        g = chooseAndHold("Export Report…", () -> pressOk(robot, "Export Report"));
        assertFalse(statusText().startsWith("Report written"), "not reported before the work is released");
        release(g);
        waitUntil("the report's status line", () -> {
            String s = statusText();
            return s.startsWith("Report written: ") || s.startsWith("Report not written");
        });
        assertTrue(statusText().startsWith("Report written: rail64-review.html"), statusText());
        assertTrue(reportFile.length() > 10_000, "the report was written");

        // File > Save, held before the file is written, with an edit made meanwhile: the copy
        // taken when Save was chosen is written and is the state marked clean; the edit stays unsaved.
        assertTrue(editor.document().stack().isModified(), "the failed link is unsaved");
        g = chooseAndHold("Save", null, true);
        Device leaf = uplink.a().device(); // a leaf (tier 1)
        String model = leaf.model();
        robot.interact(() -> editor.document().execute(new SetPropertyCommand<>("Rename model", leaf::model, leaf::setModel,
                "edited-while-saving")));
        assertFalse(Files.exists(file), "not written before the work is released");
        assertTrue(fx(() -> editor.document().stack().isModified()));
        release(g);
        waitUntil("the save's status line", () -> statusText().startsWith("Saved ") || statusText().startsWith("Not saved"));
        assertTrue(statusText().startsWith("Saved " + file), statusText());
        Fabric back = FabricFiles.load(file);
        assertFalse(back.link(uplink.id()).isUp(), "the file holds the fabric as it was when Save was chosen");
        assertEquals(model, back.device(leaf.id()).model(), "the edit made while it was written is not in the file");
        assertTrue(fx(() -> editor.document().stack().isModified()), "that edit is still unsaved");
        robot.interact(() -> editor.document().undo());
        assertFalse(fx(() -> editor.document().stack().isModified()), "undone back to the saved state: clean");
        assertEquals(List.of(), errors);
    }

    private String statusText() {
        try {
            return fxText(() -> editor.statusBar().getText());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Waits for the dialog whose header starts with {@code header} and presses its OK button. */
    private void pressOk(FxRobot robot, String header) {
        try {
            waitUntil("the " + header + " dialog", () -> fx(() -> dialog(header) != null));
            robot.interact(() -> ((Button) dialog(header).lookupButton(ButtonType.OK)).fire());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static DialogPane dialog(String header) {
        for (Window w : Window.getWindows()) {
            if (w.isShowing() && w.getScene() != null && w.getScene().getRoot() instanceof DialogPane p
                    && p.getHeaderText() != null && p.getHeaderText().startsWith("Design-review report")
                    && header.equals("Export Report")) {
                return p;
            }
        }
        return null;
    }

    /**
     * A save that fails (a file stands where its folder should be) loses nothing: the document
     * stays modified with its file, the failure is reported, and Save once the way is clear writes
     * the fabric.
     */
    @Test
    void aFailedSaveLosesNothing(FxRobot robot) throws Exception {
        Path dir = java.nio.file.Files.createTempDirectory(scratch, "fabriclab-save").resolve("blocked");
        Files.writeString(dir, "a file, not a folder");
        Path file = dir.resolve("classic.json");
        openEditor(DemoFabric.classic(), file);
        Device srv = editor.document().fabric().device("srv1");
        assertNotNull(srv);
        robot.interact(() -> editor.document().execute(new SetPropertyCommand<>("Rename model", srv::model, srv::setModel,
                "edited")));
        List<CompletableFuture<Boolean>> saved = new ArrayList<>();
        robot.interact(() -> saved.add(editor.save()));
        assertFalse(saved.get(0).get(WAIT_MINUTES, TimeUnit.MINUTES), "the folder cannot be made");
        assertTrue(fx(() -> editor.document().stack().isModified()), "still unsaved");
        assertEquals(file, editor.document().file());
        assertFalse(Files.exists(file));
        assertTrue(statusText().startsWith("Not saved"), statusText());
        assertEquals(1, errors.size(), errors.toString());

        assertEquals("a file, not a folder", Files.readString(dir), "the file in the way is untouched");
        Files.delete(dir);
        Files.createDirectories(dir);
        robot.interact(() -> saved.add(editor.save()));
        assertTrue(saved.get(1).get(WAIT_MINUTES, TimeUnit.MINUTES));
        assertFalse(fx(() -> editor.document().stack().isModified()));
        assertEquals("edited", FabricFiles.load(file).device("srv1").model());
    }
}
