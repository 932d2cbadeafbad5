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
 *   <li>with the UI: the editor (1280 x 800 window, fitted) with the live panel animating every
 *       snapshot, once per renderer asked for, alternating; per canvas frame the CPU of the FX
 *       thread (paint) and of the render thread (JavaFX drawing the scene, charts included),
 *       frames per second, and the simulator's events/s while the UI runs, against headless.</li>
 * </ol>
 * Needs a display: {@code xvfb-run -a -s '-screen 0 1600x1000x24' ./fabriclab bench live}.
 */
public final class LiveViewBench {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
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
        Platform.setImplicitExit(false); // each UI run closes its window; the next opens another
        // This VM's speed drifts by up to 2x within minutes (docs/performance.md), so each UI run is
        // compared with a headless run taken just before it, and the verdict is the median of those
        // paired ratios over the runs after the first (which warms the UI up).
        Map<FabricCanvas.Renderer, List<double[]>> paired = new EnumMap<>(FabricCanvas.Renderer.class);
        for (int i = 0; i < uiRuns; i++) {
            for (FabricCanvas.Renderer r : renderers) {
                Figures before = i == 0 ? headless : headless(fabric(), settings);
                if (i > 0) {
                    out.printf(Locale.ROOT, "headless, paired with the next UI run: %s%n", before);
                }
                Figures ui = withUi(fabric(), settings, r);
                double cpuRatio = ui.eventsPerCpuSecond / before.eventsPerCpuSecond;
                double wallRatio = ui.eventsPerWallSecond / before.eventsPerWallSecond;
                out.printf(Locale.ROOT, "with UI, %s renderer, run %d (load average %s): %s%n",
                        r.name().toLowerCase(Locale.ROOT), i, loadAverage(), ui);
                out.printf(Locale.ROOT, "  events/s with UI vs the headless run before it: CPU %.0f %%, wall %.0f %%%n",
                        100.0 * cpuRatio, 100.0 * wallRatio);
                out.flush();
                if (i > 0) {
                    paired.computeIfAbsent(r, k -> new ArrayList<>())
                            .add(new double[] {cpuRatio, wallRatio, ui.paintCpuMs + ui.renderCpuMs});
                }
            }
        }
        for (Map.Entry<FabricCanvas.Renderer, List<double[]>> e : paired.entrySet()) {
            List<double[]> rows = e.getValue();
            out.printf(Locale.ROOT, "%s, median of %d measured runs: frame CPU %.2f ms; events/s with UI vs headless:"
                            + " CPU %.0f %%, wall %.0f %%%n", e.getKey().name().toLowerCase(Locale.ROOT), rows.size(),
                    median(rows, 2), 100.0 * median(rows, 0), 100.0 * median(rows, 1));
        }
        out.flush();
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
                   double jvmCpuS) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%d flows, %d events, %.1f us simulated, wall %.2f s, sim CPU %.2f s,"
                            + " %.2f M events/CPU-s, %.2f M events/wall-s, snapshots published %d taken %d%s",
                    flows, events, simulatedUs, wallS, cpuS, eventsPerCpuSecond / 1e6, eventsPerWallSecond / 1e6,
                    published, taken, frames == 0 ? "" : String.format(Locale.ROOT,
                            ", frames %d, paint wall mean %.2f ms worst %.2f ms, %.1f fps; per frame CPU: paint"
                                    + " (FX thread) %.2f ms + rasterise (render thread) %.2f ms = %.2f ms",
                            frames, meanPaintMs, worstPaintMs, fps, paintCpuMs, renderCpuMs,
                            paintCpuMs + renderCpuMs)
                            + String.format(Locale.ROOT, "; over the run the FX thread used %.2f s of CPU (all its"
                                    + " work), the whole JVM %.2f s", fxCpuS, jvmCpuS));
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
        long w0 = System.nanoTime();
        s.run().start(false);
        long cpu = cpuOfSimulator(s.run());
        SimResults r = s.run().result().get(10, TimeUnit.MINUTES);
        double wall = (System.nanoTime() - w0) / 1e9;
        long ev = r.run().events();
        return new Figures(ev, r.run().flows(), r.run().simulatedPs() / 1e6, wall, cpu / 1e9, ev / (cpu / 1e9),
                ev / wall, s.run().published(), s.run().taken(), 0, 0, 0, 0, 0, 0, 0, 0);
    }

    private static Figures withUi(Fabric f, RunSettings settings, FabricCanvas.Renderer renderer) throws Exception {
        AtomicReference<FabricEditor> editor = new AtomicReference<>();
        AtomicReference<Thread> fxThread = new AtomicReference<>();
        CountDownLatch shown = new CountDownLatch(1);
        Platform.runLater(() -> {
            fxThread.set(Thread.currentThread());
            FabricEditor e = new FabricEditor(new FabricDocument(f, null));
            Stage st = new Stage();
            st.setScene(new Scene(e, 1280, 800));
            st.show();
            e.canvas().setRenderer(renderer);
            e.showLiveView(true);
            e.canvas().fitToWindow();
            editor.set(e);
            shown.countDown();
        });
        shown.await();
        LivePanel panel = editor.get().livePanel();
        CountDownLatch go = new CountDownLatch(1);
        long[] frameStart = new long[2];
        AnimationTimer fpsCounter = new AnimationTimer() {
            @Override
            public void handle(long now) {
                if (frameStart[0] == 0) {
                    frameStart[0] = now;
                }
                frameStart[1]++;
            }
        };
        Platform.runLater(() -> {
            panel.workload.getSelectionModel().select(settings.preset());
            panel.sizeMb.setText(String.valueOf(settings.bytes() / 1e6));
            panel.setSpeedPosition(LivePanel.SPEED_MAX_POSITION);
            panel.drawStatsAndReset();
            fpsCounter.start();
            panel.play();
            go.countDown();
        });
        go.await();
        while (panel.session() == null) {
            Thread.sleep(5);
        }
        long render0 = renderCpu();
        long fx0 = THREADS.getThreadCpuTime(fxThread.get().getId());
        long jvm0 = processCpu();
        long w0 = System.nanoTime();
        LiveRun run = panel.session().run();
        long cpu = cpuOfSimulator(run);
        SimResults r = run.result().get(10, TimeUnit.MINUTES);
        double wall = (System.nanoTime() - w0) / 1e9;
        AtomicReference<long[]> stats = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        Platform.runLater(() -> {
            fpsCounter.stop();
            stats.set(panel.drawStatsAndReset());
            ((Stage) editor.get().getScene().getWindow()).close();
            editor.get().showLiveView(false);
            done.countDown();
        });
        done.await();
        long renderNanos = renderCpu() - render0;
        double fxCpu = (THREADS.getThreadCpuTime(fxThread.get().getId()) - fx0) / 1e9;
        double jvmCpu = (processCpu() - jvm0) / 1e9;
        long ev = r.run().events();
        long[] st = stats.get();
        double fps = frameStart[1] / wall;
        return new Figures(ev, r.run().flows(), r.run().simulatedPs() / 1e6, wall, cpu / 1e9, ev / (cpu / 1e9),
                ev / wall, run.published(), run.taken(), st[0], st[1] / 1e6, st[2] / 1e6, fps, st[3] / 1e6,
                st[0] == 0 ? 0 : renderNanos / 1e6 / st[0], fxCpu, jvmCpu);
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
