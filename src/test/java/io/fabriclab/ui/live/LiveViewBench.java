package io.fabriclab.ui.live;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.fabriclab.io.FabricJson;
import io.fabriclab.model.Fabric;
import io.fabriclab.sim.LiveRun;
import io.fabriclab.sim.SimResults;
import io.fabriclab.ui.FabricCanvas;
import io.fabriclab.ui.FabricDocument;
import io.fabriclab.ui.FabricEditor;
import io.fabriclab.workload.WorkloadPreset;
import javafx.animation.AnimationTimer;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * {@code fabriclab bench live}: the live view's speed (figures go to docs/performance.md, section
 * "Live view"): the 4-unit rail-optimized fabric (the shipped examples/rail-4su.json) running
 * rail-aligned ring all-reduces (the ALL_REDUCE preset: one ring per NIC index), unthrottled.
 * <ol>
 *   <li>headless: the same run through {@link LiveRun} with nobody taking snapshots, events/s from
 *       the simulator thread's CPU time and from wall time;</li>
 *   <li>with the UI: the editor (1280 x 800 window, fitted) with the live panel playing the run at
 *       full speed as a user would (so at most 20 canvas frames a second, see
 *       {@link LiveViewModel#FULL_SPEED_FRAME_NANOS}), in one window reused for every run, after as
 *       many UI warm-up runs as the headless side had; once per renderer asked for, alternating;
 *       per canvas frame the CPU of the FX thread (paint) and of the render thread (JavaFX drawing
 *       the scene, dashboard and charts included, so pulses between canvas frames count too),
 *       frames per second, and the simulator's events/s while the UI runs, against a headless
 *       run just before it.</li>
 * </ol>
 * Every run starts on a collected heap. Each line also gives the collector's pauses, the whole
 * machine's busy CPU (the X server's included) and the busiest threads of the JVM by name, which is
 * where the UI's cost shows: with two cores, what the simulator loses is what the other threads
 * take of the second core and more.
 * Needs a display: {@code xvfb-run -a -s '-screen 0 1600x1000x24' ./fabriclab bench live}.
 */
public final class LiveViewBench {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** UI runs before the measured ones, per renderer (as many as the headless side's warm-ups). */
    static final int UI_WARM_UPS = 2;
    static final String FABRIC = "examples/rail-4su.json";

    private LiveViewBench() {
    }

    /** By hand from the build tree: {@code LiveViewBench [bytes [uiRunsPerRenderer [renderers]]]}. */
    public static void main(String[] args) throws Exception {
        PrintWriter out = new PrintWriter(System.out, true);
        long bytes = args.length > 0 ? Long.parseLong(args[0]) : 4_000_000;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        String[] renderers = args.length > 2 ? args[2].split(",") : new String[] {"java2d", "fx"};
        int rc = run(out, bytes, runs, renderers);
        Platform.exit();
        System.exit(rc);
    }

    /**
     * Entry point for the CLI (called by name: the CLI does not compile against ui). Runs the
     * headless figure (after two warm-up runs), then {@code uiRuns} UI runs per renderer
     * ("java2d", "fx"), renderers alternating. Returns an exit code.
     */
    public static int run(PrintWriter out, long bytes, int uiRuns, String[] rendererNames) throws Exception {
        if (System.getProperty("prism.order") == null) {
            System.setProperty("prism.order", "sw");
        }
        FabricCanvas.Renderer[] renderers = new FabricCanvas.Renderer[rendererNames.length];
        for (int i = 0; i < renderers.length; i++) {
            try {
                renderers[i] = FabricCanvas.Renderer.valueOf(rendererNames[i].trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--renderer: unknown renderer \"" + rendererNames[i]
                        + "\" (allowed: java2d, fx)");
            }
        }
        RunSettings settings = new RunSettings(WorkloadPreset.ALL_REDUCE, null, null, 0, 1, bytes, 8, 5, 50);
        out.printf(Locale.ROOT, "bench live: fabric %s, all-reduce S = %d B per rail ring, unthrottled, prism.order=%s,"
                        + " %d cores, load average %s%n", FABRIC, bytes, System.getProperty("prism.order"),
                Runtime.getRuntime().availableProcessors(), loadAverage());
        out.flush();
        for (int i = 0; i < 2; i++) {
            out.printf(Locale.ROOT, "headless warm-up run %d: %s%n", i, headless(fabric(), settings));
            out.flush();
        }
        Figures headless = headless(fabric(), settings);
        out.printf(Locale.ROOT, "headless: %s%n", headless);
        out.flush();

        CountDownLatch started = new CountDownLatch(1);
        try {
            Platform.startup(started::countDown);
        } catch (IllegalStateException alreadyRunning) {
            started.countDown();
        }
        started.await();
        Platform.setImplicitExit(false);
        // One window for every UI run, as a user presses Play again in the window they have open.
        UiWindow window = UiWindow.open(fabric());
        // This VM's speed drifts by up to 2x within minutes (docs/performance.md), so each UI run is
        // compared with a headless run taken just before it, and the verdict is the median of those
        // paired ratios. Every run starts on a collected heap (settle()), so no run pays for the
        // garbage of the one before it.
        Map<FabricCanvas.Renderer, List<double[]>> paired = new EnumMap<>(FabricCanvas.Renderer.class);
        // The headless side had two warm-up runs; the UI side gets the same before its measured runs.
        // Its first runs have the JIT compiler busy on the UI's code (the C2 threads used 1.7-2.7 s
        // of CPU in each of the first two UI runs, on the second core the simulator shares with the
        // UI), which is start-up, not the steady state.
        for (int i = 0; i < UI_WARM_UPS; i++) {
            for (FabricCanvas.Renderer r : renderers) {
                out.printf(Locale.ROOT, "with UI, %s renderer, warm-up run %d: %s%n",
                        r.name().toLowerCase(Locale.ROOT), i, window.run(settings, r));
                out.flush();
            }
        }
        for (int i = 0; i < uiRuns; i++) {
            for (FabricCanvas.Renderer r : renderers) {
                Figures before = headless(fabric(), settings);
                out.printf(Locale.ROOT, "headless, paired with the next UI run: %s%n", before);
                Figures ui = window.run(settings, r);
                double cpuRatio = ui.eventsPerCpuSecond / before.eventsPerCpuSecond;
                double wallRatio = ui.eventsPerWallSecond / before.eventsPerWallSecond;
                out.printf(Locale.ROOT, "with UI, %s renderer, run %d (load average %s): %s%n",
                        r.name().toLowerCase(Locale.ROOT), i, loadAverage(), ui);
                out.printf(Locale.ROOT, "  events/s with UI vs the headless run before it: CPU %.0f %%, wall %.0f %%%n",
                        100.0 * cpuRatio, 100.0 * wallRatio);
                out.flush();
                paired.computeIfAbsent(r, k -> new ArrayList<>())
                        .add(new double[] {cpuRatio, wallRatio, ui.paintCpuMs + ui.renderCpuMs});
            }
        }
        window.close();
        for (Map.Entry<FabricCanvas.Renderer, List<double[]>> e : paired.entrySet()) {
            List<double[]> rows = e.getValue();
            out.printf(Locale.ROOT, "%s, median of %d measured runs: frame CPU %.2f ms; events/s with UI vs headless:"
                            + " CPU %.0f %%, wall %.0f %%%n", e.getKey().name().toLowerCase(Locale.ROOT), rows.size(),
                    median(rows, 2), 100.0 * median(rows, 0), 100.0 * median(rows, 1));
        }
        out.flush();
        return 0;
    }

    /**
     * {@code fabriclab bench live --fabric FILE}: what live snapshots cost on a large fabric. Plays
     * the incast preset (8 senders x 2 MB, fabric QoS) on {@code fabricFile} at
     * {@code speedPsPerS} for up to {@code seconds} of wall time per run, headless, {@code rounds}
     * times alternating snapshots of the whole fabric (every egress port, as before they were
     * scoped) and of the links traffic reached (SnapshotBuilder); per run the ports a snapshot
     * carried, the snapshots built, their mean build time, the share of the wall time the
     * simulator thread spent building them, and the simulated time reached per wall second
     * against the speed asked for. Routes and flows are built once per run (not timed).
     */
    public static int run(PrintWriter out, String fabricFile, long speedPsPerS, double seconds, int rounds)
            throws Exception {
        Fabric f = FabricJson.read(Files.readString(Path.of(fabricFile)), fabricFile);
        RunSettings settings = RunSettings.incast();
        out.printf(Locale.ROOT, "bench live snapshots: fabric %s (%d links, %d egress ports), incast 8 x 2 MB,"
                        + " asked %s, up to %.0f s of wall a run, %d cores, load average %s%n", fabricFile,
                f.links().size(), 2 * f.links().size(), LiveViewModel.speedText(speedPsPerS), seconds, CORES,
                loadAverage());
        out.flush();
        for (int i = 0; i < rounds; i++) {
            for (boolean whole : new boolean[] {true, false}) {
                LiveSession s = LiveSession.create(f, settings);
                settle();
                LiveRun r = s.run();
                r.setWholeFabricSnapshots(whole);
                r.setSpeed(speedPsPerS);
                long w0 = System.nanoTime();
                r.start(false);
                long last = 0;
                while ((System.nanoTime() - w0) / 1e9 < seconds && !r.result().isDone()) {
                    Thread.sleep(16);
                    if (r.take() != null) {
                        last = r.latest().timePs();
                    }
                }
                double wall = (System.nanoTime() - w0) / 1e9;
                boolean finished = r.result().isDone();
                r.stop();
                r.result().handle((x, e) -> null).get(1, TimeUnit.MINUTES);
                long built = r.snapshotsBuilt();
                double buildMs = built == 0 ? 0 : r.snapshotBuildNanos() / 1e6 / built;
                double simUs = (finished && r.latest() != null ? r.latest().timePs() : last) / 1e6;
                out.printf(Locale.ROOT, "round %d, %s: %d ports carried, %d snapshots built, %.3f ms each, %.0f %% of"
                                + " the wall time; %.1f us simulated in %.1f s = %.2f us/s (%.0f %% of %s)%s, load"
                                + " average %s%n", i, whole ? "whole fabric" : "links traffic reached",
                        r.snapshotPortsCarried(), built, buildMs, 100.0 * r.snapshotBuildNanos() / 1e9 / wall, simUs,
                        wall, simUs / wall, 100.0 * simUs / wall / (speedPsPerS / 1e6),
                        LiveViewModel.speedText(speedPsPerS), finished ? ", run complete" : "", loadAverage());
                out.flush();
            }
        }
        return 0;
    }

    private static double median(List<double[]> rows, int column) {
        double[] v = rows.stream().mapToDouble(r -> r[column]).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static Fabric fabric() throws Exception {
        try (InputStream in = LiveViewBench.class.getResourceAsStream("/fabriclab/" + FABRIC)) {
            if (in == null) {
                throw new IllegalStateException("the shipped example " + FABRIC + " is missing from the classpath");
            }
            return FabricJson.read(new String(in.readAllBytes(), StandardCharsets.UTF_8), FABRIC);
        }
    }

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (Exception e) {
            return "unknown";
        }
    }

    record Figures(long events, long flows, double simulatedUs, double wallS, double cpuS, double eventsPerCpuSecond,
                   double eventsPerWallSecond, long published, long taken, long frames, double meanPaintMs,
                   double worstPaintMs, double fps, double paintCpuMs, double renderCpuMs, double fxCpuS,
                   double jvmCpuS, double gcPauseS, double machineBusyS, String threads) {
        @Override
        public String toString() {
            String sim = String.format(Locale.ROOT, "%d flows, %d events, %.1f us simulated, wall %.2f s, sim CPU"
                            + " %.2f s, %.2f M events/CPU-s, %.2f M events/wall-s, snapshots published %d taken %d,"
                            + " GC pauses %.2f s, machine busy %.2f of %.2f CPU-s",
                    flows, events, simulatedUs, wallS, cpuS, eventsPerCpuSecond / 1e6, eventsPerWallSecond / 1e6,
                    published, taken, gcPauseS, machineBusyS, wallS * CORES);
            if (frames == 0) {
                return sim + (threads.isEmpty() ? "" : "; busiest threads " + threads);
            }
            return sim + String.format(Locale.ROOT, ", frames %d, paint wall mean %.2f ms worst %.2f ms, %.1f fps;"
                            + " per frame CPU: paint (FX thread) %.2f ms + rasterise (render thread) %.2f ms = %.2f ms;"
                            + " over the run the FX thread used %.2f s of CPU (all its work), the whole JVM %.2f s",
                    frames, meanPaintMs, worstPaintMs, fps, paintCpuMs, renderCpuMs, paintCpuMs + renderCpuMs,
                    fxCpuS, jvmCpuS) + (threads.isEmpty() ? "" : "; busiest threads " + threads);
        }
    }

    /** CPU time of JavaFX's render thread (the software rasteriser runs there). */
    private static long renderCpu() {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("QuantumRenderer")) {
                return THREADS.getThreadCpuTime(t.getId());
            }
        }
        return 0;
    }

    private static Thread simulatorThread() {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals("fabriclab-simulator") && t.isAlive()) {
                return t;
            }
        }
        return null;
    }

    /** Samples the simulator thread's CPU time until the run ends (the thread's time is gone once it exits). */
    private static long cpuOfSimulator(LiveRun run) throws Exception {
        Thread t = null;
        for (int i = 0; i < 200 && t == null; i++) {
            t = simulatorThread();
            Thread.sleep(1);
        }
        long last = 0;
        while (!run.result().isDone()) {
            long c = t == null ? -1 : THREADS.getThreadCpuTime(t.getId());
            if (c > 0) {
                last = c;
            }
            Thread.sleep(2);
        }
        return last;
    }

    private static Figures headless(Fabric f, RunSettings settings) throws Exception {
        LiveSession s = LiveSession.create(f, settings);
        settle();
        return Measured.of(s.run(), () -> s.run().start(false)).figures(0, 0, 0, 0, 0, 0, 0, 0);
    }

    /** What every run measures, headless or with the UI, from {@code start} to the run's end. */
    private record Measured(LiveRun run, SimResults results, long simCpuNanos, double wallS, double gcPauseS,
                            double machineBusyS, String threads) {

        static Measured of(LiveRun run, Runnable start) throws Exception {
            long gc0 = gcPauseMillis();
            long busy0 = machineBusyTicks();
            Map<String, Long> threads0 = threadTicks();
            long w0 = System.nanoTime();
            start.run();
            long cpu = cpuOfSimulator(run);
            SimResults r = run.result().get(10, TimeUnit.MINUTES);
            double wall = (System.nanoTime() - w0) / 1e9;
            return new Measured(run, r, cpu, wall, (gcPauseMillis() - gc0) / 1e3, busySeconds(busy0),
                    topThreads(threads0, threadTicks()));
        }

        /** The figures, with the UI's (all 0 for a headless run). */
        Figures figures(long frames, double meanPaintMs, double worstPaintMs, double fps, double paintCpuMs,
                        double renderCpuMs, double fxCpuS, double jvmCpuS) {
            long ev = results.run().events();
            double cpuS = simCpuNanos / 1e9;
            return new Figures(ev, results.run().flows(), results.run().simulatedPs() / 1e6, wallS, cpuS, ev / cpuS,
                    ev / wallS, run.published(), run.taken(), frames, meanPaintMs, worstPaintMs, fps, paintCpuMs,
                    renderCpuMs, fxCpuS, jvmCpuS, gcPauseS, machineBusyS, threads);
        }
    }

    /** The editor window with its live panel open, fitted, reused by every UI run. */
    private record UiWindow(FabricEditor editor, LivePanel panel, Thread fxThread, AnimationTimer fpsCounter,
                          long[] frames) {

        static UiWindow open(Fabric f) throws Exception {
            AtomicReference<UiWindow> w = new AtomicReference<>();
            CountDownLatch shown = new CountDownLatch(1);
            Platform.runLater(() -> {
                FabricEditor e = new FabricEditor(new FabricDocument(f, null));
                Stage st = new Stage();
                st.setScene(new Scene(e, 1280, 800));
                st.show();
                e.showLiveView(true);
                e.canvas().fitToWindow();
                long[] frames = new long[1];
                AnimationTimer fps = new AnimationTimer() {
                    @Override
                    public void handle(long now) {
                        frames[0]++;
                    }
                };
                w.set(new UiWindow(e, LivePanel.of(e), Thread.currentThread(), fps, frames));
                shown.countDown();
            });
            shown.await();
            return w.get();
        }

        /** Plays one run to its end with {@code renderer} drawing the canvas; its figures. */
        Figures run(RunSettings settings, FabricCanvas.Renderer renderer) throws Exception {
            // Weakly: a strong reference here would keep the previous run (its simulator and results,
            // about 540 MB) alive through this one, which the collector then has to trace.
            java.lang.ref.WeakReference<LiveSession> previous = new java.lang.ref.WeakReference<>(panel.session());
            CountDownLatch ready = new CountDownLatch(1);
            Platform.runLater(() -> {
                editor.canvas().setRenderer(renderer);
                panel.model().workload.set(LiveWorkload.of(settings.preset()));
                panel.model().sizeMb.set(String.valueOf(settings.bytes() / 1e6));
                panel.setSpeedPosition(LivePanel.SPEED_MAX_POSITION);
                panel.reset();
                ready.countDown();
            });
            ready.await();
            settle();
            CountDownLatch go = new CountDownLatch(1);
            Platform.runLater(() -> {
                panel.drawStatsAndReset();
                frames[0] = 0;
                fpsCounter.start();
                panel.play();
                go.countDown();
            });
            go.await();
            while (panel.session() == null || panel.session() == previous.get()) {
                Thread.sleep(5);
            }
            long render0 = renderCpu();
            long fx0 = THREADS.getThreadCpuTime(fxThread.getId());
            long jvm0 = processCpu();
            Measured m = Measured.of(panel.session().run(), () -> { });
            AtomicReference<long[]> stats = new AtomicReference<>();
            CountDownLatch done = new CountDownLatch(1);
            Platform.runLater(() -> {
                fpsCounter.stop();
                stats.set(panel.drawStatsAndReset());
                done.countDown();
            });
            done.await();
            long renderNanos = renderCpu() - render0;
            double fxCpu = (THREADS.getThreadCpuTime(fxThread.getId()) - fx0) / 1e9;
            double jvmCpu = (processCpu() - jvm0) / 1e9;
            long[] st = stats.get();
            return m.figures(st[0], st[1] / 1e6, st[2] / 1e6, frames[0] / m.wallS(), st[3] / 1e6,
                    st[0] == 0 ? 0 : renderNanos / 1e6 / st[0], fxCpu, jvmCpu);
        }

        void close() throws InterruptedException {
            CountDownLatch closed = new CountDownLatch(1);
            Platform.runLater(() -> {
                editor.showLiveView(false);
                ((Stage) editor.getScene().getWindow()).close();
                closed.countDown();
            });
            closed.await();
        }
    }

    /**
     * Collects the heap before a run, so a run's collector work is its own: otherwise the young and
     * mixed collections that clear the previous run's hundreds of MB land on whichever run
     * follows, and a headless run measured after a UI run looked up to 0.8 s slower for it.
     */
    private static void settle() throws InterruptedException {
        System.gc();
        Thread.sleep(200);
    }

    private static final int CORES = Runtime.getRuntime().availableProcessors();

    /**
     * CPU time the whole machine spent busy (every process: the X server too), in clock ticks
     * of 10 ms, from the first line of /proc/stat; -1 where there is none. When it nears
     * wall time times the cores, the simulator is competing for a core.
     */
    private static long machineBusyTicks() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busy = 0;
            // user nice system idle iowait irq softirq steal: all but idle and iowait.
            for (int i : new int[] {1, 2, 3, 6, 7, 8}) {
                busy += Long.parseLong(f[i]);
            }
            return busy;
        } catch (Exception e) {
            return -1;
        }
    }

    /**
     * CPU ticks (10 ms) of each of this JVM's threads by name, from /proc/self/task (which, unlike
     * ThreadMXBean, also sees the collector's and the JIT compiler's threads); threads of one name
     * are summed. Empty where there is no /proc.
     */
    private static Map<String, Long> threadTicks() {
        Map<String, Long> ticks = new java.util.HashMap<>();
        try (java.util.stream.Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    int open = stat.indexOf('(');
                    int close = stat.lastIndexOf(')');
                    // Numbered threads of one pool ("GC Thread#0", "C2 CompilerThread1") count as one.
                    String name = stat.substring(open + 1, close).replaceAll("[#]?\\d+$", "");
                    String[] f = stat.substring(close + 2).split(" ");
                    // After the name: state(0) ... utime(11) stime(12).
                    ticks.merge(name, Long.parseLong(f[11]) + Long.parseLong(f[12]), Long::sum);
                } catch (Exception gone) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (Exception e) {
            return Map.of();
        }
        return ticks;
    }

    /** The six threads (by name) that used the most CPU between the two readings, in seconds. */
    private static String topThreads(Map<String, Long> before, Map<String, Long> after) {
        StringBuilder b = new StringBuilder();
        after.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L)))
                .filter(e -> e.getValue() > 0)
                .sorted((x, y) -> Long.compare(y.getValue(), x.getValue()))
                .limit(6)
                .forEach(e -> b.append(b.length() == 0 ? "" : ", ").append(e.getKey())
                        .append(String.format(Locale.ROOT, " %.2f s", e.getValue() / 100.0)));
        return b.toString();
    }

    private static double busySeconds(long ticks0) {
        long now = machineBusyTicks();
        return ticks0 < 0 || now < 0 ? Double.NaN : (now - ticks0) / 100.0;
    }

    /**
     * Milliseconds the collectors have spent so far, summed over all of them. For G1 that is the
     * stop-the-world pauses (the concurrent cycle's threads are not counted), which is the time every
     * application thread, the simulator's included, stands still.
     */
    private static long gcPauseMillis() {
        long ms = 0;
        for (java.lang.management.GarbageCollectorMXBean gc
                : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            ms += Math.max(0, gc.getCollectionTime());
        }
        return ms;
    }

    /** CPU time of the whole JVM (every thread), or 0 where the platform does not say. */
    private static long processCpu() {
        if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os) {
            return Math.max(0, os.getProcessCpuTime());
        }
        return 0;
    }
}
