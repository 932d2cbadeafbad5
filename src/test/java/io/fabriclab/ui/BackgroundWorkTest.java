package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.topology.DeadlockCheck;
import io.fabriclab.topology.FailureImpact;
import io.fabriclab.topology.RailOptimizedGenerator;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * On the 64-unit rail fabric (16,384 GPUs; seconds of work per action), analysis, the deadlock
 * check, the impact of a failed link, export and autosave run on the background executor, and the
 * FX thread serves events while they run.
 *
 * <p>What is asserted is what the code decided, not how fast the machine is: each action's work
 * starts on a {@code fabriclab-background} thread, and that work does not go on until the FX thread
 * has answered a ping posted from inside it (work on the FX thread would wait for itself and the
 * ping would never be answered). The latency of pings posted every 10 ms while the work runs is
 * printed (the figure in docs/architecture.md), not asserted.
 */
@ExtendWith(ApplicationExtension.class)
class BackgroundWorkTest {

    private FabricEditor editor;
    private final List<Thread> workers = new CopyOnWriteArrayList<>();
    private final AtomicInteger answeredInsideWork = new AtomicInteger();
    private final AtomicInteger unanswered = new AtomicInteger();
    private final List<String> reports = new CopyOnWriteArrayList<>();

    private Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        stage.show();
    }

    /** The editor on the 64-unit fabric, built with a long wait (a big fabric on a busy machine). */
    private void openRail64() throws Exception {
        Fabric f = RailOptimizedGenerator.generate(64);
        CompletableFuture<Void> shown = new CompletableFuture<>();
        Platform.runLater(() -> {
            try {
                editor = new FabricEditor(new FabricDocument(f, null));
                editor.setDialogService(new DialogService() {
                    @Override
                    public boolean confirm(String header, String text) {
                        return true;
                    }

                    @Override
                    public void showReport(String title, String text) {
                        reports.add(title);
                    }
                });
                stage.setScene(new Scene(editor, 1200, 780));
                shown.complete(null);
            } catch (RuntimeException e) {
                shown.completeExceptionally(e);
            }
        });
        shown.get(5, TimeUnit.MINUTES);
        BackgroundTasks.shared().setProbe(worker -> {
            workers.add(worker);
            // Hold the work until the FX thread answers: proof that it is free while work is under way.
            CountDownLatch answered = new CountDownLatch(1);
            Platform.runLater(answered::countDown);
            try {
                if (answered.await(2, TimeUnit.MINUTES)) {
                    answeredInsideWork.incrementAndGet();
                } else {
                    unanswered.incrementAndGet();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    @AfterEach
    void noProbe() {
        BackgroundTasks.shared().setProbe(null);
    }

    /** Starts an action on the FX thread, pings the FX thread every 10 ms until its work is done. */
    private <T> T whileResponsive(FxRobot robot, String what, Supplier<CompletableFuture<T>> action) throws Exception {
        int workersBefore = workers.size();
        List<CompletableFuture<T>> started = new ArrayList<>();
        long t0 = System.nanoTime();
        CountDownLatch begun = new CountDownLatch(1);
        Platform.runLater(() -> {
            started.add(action.get());
            begun.countDown();
        });
        assertTrue(begun.await(5, TimeUnit.MINUTES), what + " started");
        long startMs = (System.nanoTime() - t0) / 1_000_000;
        CompletableFuture<T> work = started.get(0);
        AtomicLong worstNanos = new AtomicLong();
        AtomicInteger served = new AtomicInteger();
        int posted = 0;
        while (!work.isDone()) {
            long sent = System.nanoTime();
            CountDownLatch back = new CountDownLatch(1);
            Platform.runLater(() -> {
                worstNanos.accumulateAndGet(System.nanoTime() - sent, Math::max);
                served.incrementAndGet();
                back.countDown();
            });
            posted++;
            assertTrue(back.await(5, TimeUnit.MINUTES), "the FX thread is alive");
            Thread.sleep(10);
        }
        T value = work.get(1, TimeUnit.MINUTES);
        System.out.printf(Locale.ROOT, "%s: start on the FX thread %d ms, %d pings served while it ran, worst %.1f ms%n",
                what, startMs, served.get(), worstNanos.get() / 1e6);
        assertTrue(workers.size() > workersBefore, what + ": the work went through the background executor");
        assertEquals(posted, served.get(), what + ": every ping was answered");
        return value;
    }

    @Test
    void analysisDeadlockCheckFailLinkExportAndAutosaveOfThe64UnitFabricRunOffTheFxThread(FxRobot robot)
            throws Exception {
        openRail64();
        Fabric f = editor.document().fabric();
        assertEquals(16_384, f.gpuCount(), "the 64-unit rail fabric");

        String text = whileResponsive(robot, "analyze", editor::analyze);
        assertTrue(text.contains("GPUs"), text);

        DeadlockCheck.Result r = whileResponsive(robot, "deadlock check", editor::checkDeadlocks);
        assertTrue(r.deadlockFree(), "up-down routing on a Clos has no cyclic buffer dependency");

        Link uplink = f.links().stream().filter(l -> l.a().device().role().tier() == 1
                && l.b().device().role().tier() == 2).findFirst().orElseThrow();
        FailureImpact.Detail d = whileResponsive(robot, "fail link", () -> editor.failLink(uplink));
        assertNotNull(d);
        assertFalse(uplink.isUp(), "the link is down in the editor's fabric");
        assertTrue(d.capacityLostGbps() > 0);

        Path dir = Files.createTempDirectory("fabriclab-64");
        Path graphml = dir.resolve("rail64.graphml");
        assertTrue(whileResponsive(robot, "export GraphML", () -> editor.exportTo(graphml)));
        assertTrue(Files.size(graphml) > 1_000_000, "the whole fabric was written");

        Path recovery = dir.resolve("recovery");
        AutosaveRecovery rec = new AutosaveRecovery(recovery, ProcessHandle.current().pid());
        robot.interact(() -> {
            editor.setRecovery(rec);
            editor.shutdown();
        });
        whileResponsive(robot, "autosave", editor::autosaveNow);
        assertTrue(Files.size(rec.jsonFile()) > 1_000_000, "the unsaved fabric was written for recovery");

        for (Thread w : workers) {
            assertTrue(w.getName().startsWith("fabriclab-background-"), w.getName());
        }
        assertEquals(0, unanswered.get(), "the FX thread answered while every piece of work ran");
        assertEquals(workers.size(), answeredInsideWork.get());
        assertTrue(reports.containsAll(List.of("Analysis of " + f.name(), "Deadlock check", "Failure of " + uplink.id())),
                reports.toString());
    }
}
