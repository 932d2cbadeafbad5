package io.fabriclab.ui;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.topology.RailOptimizedGenerator;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * {@code tools/bench-ui.sh responsive}: how quickly the FX thread answers while the editor's long
 * actions run on the background executor, on the 64-unit rail fabric (16,384 GPUs). Test code, not
 * shipped. For each action (Analyze, Check Deadlocks, Fail a Link, Export Report, Save, Check in
 * the Problems pane) it reports:
 * <ul>
 * <li><b>start</b>: the time the action's call takes on the FX thread (the copy of the fabric taken
 * there, plus whatever the action does before handing over), during which nothing else runs on it;
 * <li><b>pings</b>: a {@code Platform.runLater} posted every 10 ms from another thread while the work
 * runs; how long each waited to run (worst, 99th percentile, median), the figure the FX thread's
 * responsiveness is judged by (a frame at 60 Hz is 16.7 ms; issue 17 asks for under 100 ms);
 * <li><b>done</b>: the wall time until the result was shown;
 * <li><b>GC</b>: the collector's pauses while the action ran (they stop the FX thread too): how
 * many, and the longest (collectors that also work concurrently, G1 and ZGC, count only their
 * pauses).
 * </ul>
 * Each round ends with the cost of {@link Fabric#copy()} alone on the FX thread (every action
 * above takes one there first): the wall and the FX thread's CPU time, median of 5.
 * An idle line (pings with nothing running) is the floor. Without a display (no {@code DISPLAY}) it
 * runs on Monocle's headless platform, as the UI tests do. Figures depend on the machine and its
 * load: run it at idle, and quote {@code uptime} with them (docs/performance.md).
 */
public final class ResponsivenessBenchmark {
    private static final long PING_EVERY_MS = 10;

    private ResponsivenessBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int units = 64;
        int rounds = 2;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--units" -> units = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "-h", "--help" -> {
                    System.out.println("tools/bench-ui.sh responsive [--units 64] [--rounds 2]: the FX thread's answer "
                            + "latency while analyze, deadlock check, fail-link, report export, save and lint run");
                    return;
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i] + " (allowed: --units N, --rounds N)");
            }
        }
        PrintWriter out = new PrintWriter(System.out, true);
        System.exit(run(out, units, rounds));
    }

    static int run(PrintWriter out, int units, int rounds) throws Exception {
        if (System.getProperty("glass.platform") == null && System.getenv("DISPLAY") == null) {
            System.setProperty("glass.platform", "Monocle");
            System.setProperty("monocle.platform", "Headless");
            System.setProperty("prism.order", "sw");
        }
        String heap = EditorHeap.apply(); // as the editor's launcher does
        Fabric f = RailOptimizedGenerator.generate(units);
        out.printf(Locale.ROOT, "bench responsive: %d units (%,d devices, %,d links, %,d GPUs), %d cores, platform %s, "
                        + "ping every %d ms; %s%n", units, f.devices().size(), f.linkCount(), f.gpuCount(),
                Runtime.getRuntime().availableProcessors(), System.getProperty("glass.platform", "default"), PING_EVERY_MS,
                heap);
        CountDownLatch started = new CountDownLatch(1);
        Platform.startup(started::countDown);
        started.await();
        Platform.setImplicitExit(false);
        Path dir = Files.createTempDirectory("fabriclab-bench-responsive");
        try {
            FabricEditor editor = onFx(() -> {
                FabricEditor e = new FabricEditor(new FabricDocument(f, dir.resolve("rail.json")));
                e.setDialogService((h, t) -> true); // reports are recorded by no one: no window per result
                Stage stage = new Stage();
                stage.setScene(new Scene(e, 1200, 780));
                stage.show();
                return e;
            });
            waitIdle();
            GC.take();
            out.println(line("idle", 0, idle(2000), 0) + gcLine(GC.take()));
            ReportExport report = new ReportExport(editor);
            Link uplink = f.links().stream().filter(l -> l.a().device().role().tier() == 1
                    && l.b().device().role().tier() == 2).findFirst().orElseThrow();
            for (int round = 1; round <= rounds; round++) {
                out.printf(Locale.ROOT, "round %d%s%n", round, round == 1 ? " (JIT warming up)" : "");
                out.println(measure("analyze", editor::analyze));
                out.println(measure("deadlock check", editor::checkDeadlocks));
                // An edit with no background work, for comparison: the redraw and the views' refresh after
                // any edit of this fabric run on the FX thread (pings for 3 s after it).
                io.fabriclab.model.Device leaf = uplink.a().device();
                out.println(measure("edit (rename a model)", () -> {
                    editor.document().execute(new io.fabriclab.edit.SetPropertyCommand<>("Rename model", leaf::model,
                            leaf::setModel, "bench-" + System.nanoTime()));
                    return new CompletableFuture<Void>().completeOnTimeout(null, 3, TimeUnit.SECONDS);
                }));
                out.println(measure("fail a link", () -> editor.failLink(uplink)));
                onFx(() -> {
                    editor.document().undo(); // the link back up for the next round
                    return null;
                });
                out.println(measure("export report (HTML)", () -> report.exportReport(dir.resolve("review.html"),
                        List.of(), "bench")));
                out.println(measure("save", () -> editor.saveTo(dir.resolve("rail.json"))));
                out.println(measure("problems check (lint)", () -> editor.problems().check()));
                out.println(copyCost(editor));
            }
        } finally {
            Platform.exit();
        }
        return 0;
    }

    /** Fabric.copy() of the open fabric on the FX thread, five times: median wall and thread CPU. */
    private static String copyCost(FabricEditor editor) throws Exception {
        waitIdle();
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long[] wall = new long[5];
        long[] cpu = new long[5];
        for (int i = 0; i < wall.length; i++) {
            int n = i;
            onFx(() -> {
                long c0 = mx.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                Fabric copy = editor.document().fabric().copy();
                wall[n] = System.nanoTime() - t0;
                cpu[n] = mx.getCurrentThreadCpuTime() - c0;
                return copy.name();
            });
        }
        java.util.Arrays.sort(wall);
        java.util.Arrays.sort(cpu);
        return String.format(Locale.ROOT, "  %-24s %6.1f ms wall, %5.1f ms CPU on the FX thread (median of %d; %.1f-%.1f ms wall)",
                "Fabric.copy() alone", wall[2] / 1e6, cpu[2] / 1e6, wall.length, wall[0] / 1e6, wall[4] / 1e6);
    }

    /** The collector's pauses, as the platform's GC beans report them (cycles of concurrent collectors left out). */
    private static final class GcPauses implements javax.management.NotificationListener {
        private final List<Long> millis = java.util.Collections.synchronizedList(new ArrayList<>());

        GcPauses() {
            for (java.lang.management.GarbageCollectorMXBean b : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
                // ZGC reports "ZGC Minor Cycles" / "ZGC Major Cycles" beside its "... Pauses" beans, and G1 its
                // "G1 Concurrent GC": concurrent work, during which the other threads run.
                if (!b.getName().contains("Cycles") && !b.getName().contains("Concurrent")) {
                    ((javax.management.NotificationEmitter) b).addNotificationListener(this, null, null);
                }
            }
        }

        @Override
        public void handleNotification(javax.management.Notification n, Object handback) {
            if (com.sun.management.GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
                millis.add(com.sun.management.GarbageCollectionNotificationInfo.from(
                        (javax.management.openmbean.CompositeData) n.getUserData()).getGcInfo().getDuration());
            }
        }

        /** The pauses so far, and forgets them. */
        List<Long> take() {
            synchronized (millis) {
                List<Long> l = List.copyOf(millis);
                millis.clear();
                return l;
            }
        }
    }

    private static final GcPauses GC = new GcPauses();

    private static <T> T onFx(Callable<T> c) throws Exception {
        CompletableFuture<T> r = new CompletableFuture<>();
        Platform.runLater(() -> {
            try {
                r.complete(c.call());
            } catch (Throwable e) {
                r.completeExceptionally(e);
            }
        });
        return r.get(10, TimeUnit.MINUTES);
    }

    private static void waitIdle() throws Exception {
        while (!onFx(() -> BackgroundTasks.shared().running().isEmpty())) {
            Thread.sleep(50);
        }
    }

    /** Starts an action on the FX thread and pings the FX thread until its work is done and shown. */
    private static String measure(String what, Callable<? extends Future<?>> action) throws Exception {
        waitIdle();
        GC.take();
        long t0 = System.nanoTime();
        long[] startNanos = new long[1];
        Future<?> work = onFx(() -> {
            long s = System.nanoTime();
            Future<?> w = action.call();
            startNanos[0] = System.nanoTime() - s;
            return w;
        });
        List<Long> pings = new ArrayList<>();
        while (!work.isDone()) {
            pings.add(ping());
            Thread.sleep(PING_EVERY_MS);
        }
        work.get(10, TimeUnit.MINUTES);
        waitIdle(); // a Task's handlers (the result shown) run after it is done
        return line(what, startNanos[0], pings, System.nanoTime() - t0) + gcLine(GC.take());
    }

    private static List<Long> idle(long millis) throws Exception {
        List<Long> pings = new ArrayList<>();
        long end = System.nanoTime() + millis * 1_000_000;
        while (System.nanoTime() < end) {
            pings.add(ping());
            Thread.sleep(PING_EVERY_MS);
        }
        return pings;
    }

    /** How long a runnable posted now waits before the FX thread runs it, in nanoseconds. */
    private static long ping() throws InterruptedException {
        long sent = System.nanoTime();
        long[] ran = new long[1];
        CountDownLatch back = new CountDownLatch(1);
        Platform.runLater(() -> {
            ran[0] = System.nanoTime();
            back.countDown();
        });
        back.await();
        return ran[0] - sent;
    }

    private static String gcLine(List<Long> pauses) {
        return String.format(Locale.ROOT, " | GC %2d pauses, longest %4d ms", pauses.size(),
                pauses.stream().mapToLong(Long::longValue).max().orElse(0));
    }

    private static String line(String what, long startNanos, List<Long> pings, long doneNanos) {
        long[] p = pings.stream().mapToLong(Long::longValue).sorted().toArray();
        if (p.length == 0) {
            p = new long[] {0};
        }
        return String.format(Locale.ROOT, "  %-24s start %6.1f ms on the FX thread | %4d pings: worst %6.1f ms, p99 %6.1f, "
                        + "median %5.1f | done %7.0f ms", what, startNanos / 1e6, pings.size(), p[p.length - 1] / 1e6,
                p[Math.min(p.length - 1, (int) Math.ceil(p.length * 0.99) - 1)] / 1e6, p[p.length / 2] / 1e6, doneNanos / 1e6);
    }
}
