package io.fabriclab.ui;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.fabriclab.io.FabricFiles;
import io.fabriclab.model.Fabric;
import io.fabriclab.topology.RailOptimizedGenerator;
import io.fabriclab.topology.RailParams;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * `fabriclab bench editor`: how fast the editor opens and redraws the 4-unit (1,024-GPU) and the
 * 64-unit (16,384-GPU) rail-optimized fabrics, with JavaFX's software renderer. The fabrics are
 * generated and saved to temporary files first; then, per fabric, the file is opened the way
 * File > Open does (read, place, build the editor, show, first paint) and frames are timed for a
 * pan, a zoom and a plain redraw at three zooms (fitted, 25 %, 100 %).
 *
 * <p>A frame is the painter's work on the FX thread (the diagram drawn into the canvas's command
 * buffer) plus rasterising that buffer, forced by a canvas snapshot; the snapshot also copies the
 * pixels back, so the figure is an upper bound of a screen frame. Besides wall time, the CPU time
 * of the FX thread and of the renderer thread is reported, which load from other processes does
 * not inflate. Needs a display (use {@code xvfb-run -a} on a headless machine).
 */
public final class EditorBenchmark {
    private static final int WIDTH = 1600;
    private static final int HEIGHT = 1000;
    private static final int FRAMES = 30;

    private EditorBenchmark() {
    }

    /** Entry point for the CLI (called by name: the CLI does not compile against ui). Returns an exit code. */
    public static int run(PrintWriter out, int[] unitCounts, int frames) throws Exception {
        return run(out, unitCounts, frames, FabricCanvas.Renderer.values());
    }

    /** Entry point for the CLI with renderer names ("java2d", "fx"). */
    public static int run(PrintWriter out, int[] unitCounts, int frames, String[] rendererNames) throws Exception {
        FabricCanvas.Renderer[] rs = new FabricCanvas.Renderer[rendererNames.length];
        for (int i = 0; i < rs.length; i++) {
            try {
                rs[i] = FabricCanvas.Renderer.valueOf(rendererNames[i].trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--renderer: unknown renderer \"" + rendererNames[i]
                        + "\" (allowed: java2d, fx)");
            }
        }
        return run(out, unitCounts, frames, rs);
    }

    /** As {@link #run(PrintWriter, int[], int)} with the renderers to compare (each case runs once per renderer). */
    public static int run(PrintWriter out, int[] unitCounts, int frames, FabricCanvas.Renderer[] renderers)
            throws Exception {
        if (System.getProperty("prism.order") == null) {
            System.setProperty("prism.order", "sw");
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        out.printf(Locale.ROOT, "bench editor: %d x %d canvas window, prism.order=%s, %d cores, %d frames per case%n",
                WIDTH, HEIGHT, System.getProperty("prism.order"), Runtime.getRuntime().availableProcessors(), frames);
        Path dir = Files.createTempDirectory("fabriclab-bench-editor");
        Path[] files = new Path[unitCounts.length];
        for (int i = 0; i < unitCounts.length; i++) {
            Fabric f = RailOptimizedGenerator.generate(RailParams.of(unitCounts[i]));
            files[i] = dir.resolve("rail-" + unitCounts[i] + "su.json");
            FabricFiles.save(f, files[i]);
            out.printf(Locale.ROOT, "  %d units: %,d devices, %,d links, %,d GPUs, file %,d KB%n", unitCounts[i],
                    f.devices().size(), f.linkCount(), f.gpuCount(), Files.size(files[i]) / 1024);
        }
        out.flush();
        CountDownLatch started = new CountDownLatch(1);
        Platform.startup(started::countDown);
        started.await();
        Platform.setImplicitExit(false);
        try {
            for (int i = 0; i < unitCounts.length; i++) {
                benchOne(out, threads, unitCounts[i], files[i], frames, renderers);
            }
        } finally {
            Platform.exit();
            for (Path p : files) {
                Files.deleteIfExists(p);
            }
            Files.deleteIfExists(dir);
        }
        return 0;
    }

    private static void benchOne(PrintWriter out, ThreadMXBean threads, int units, Path file, int frames,
                                 FabricCanvas.Renderer[] renderers)
            throws Exception {
        // Opening: what File > Open does, timed from the click to the first painted frame.
        long t0 = System.nanoTime();
        long c0 = threads.getCurrentThreadCpuTime();
        Fabric loaded = FabricFiles.load(file);
        long read = System.nanoTime() - t0;
        long readCpu = threads.getCurrentThreadCpuTime() - c0;
        CompletableFuture<Object[]> shown = new CompletableFuture<>();
        Platform.runLater(() -> {
            try {
                long s0 = System.nanoTime();
                long sc0 = threads.getCurrentThreadCpuTime();
                FabricEditor editor = new FabricEditor(new FabricDocument(loaded, file));
                Stage stage = new Stage();
                stage.setScene(new Scene(editor, WIDTH, HEIGHT));
                stage.show();
                editor.applyCss();
                editor.layout();
                editor.canvas().redraw();
                editor.canvas().canvas().snapshot(null, null);
                shown.complete(new Object[] {editor, stage, System.nanoTime() - s0,
                        threads.getCurrentThreadCpuTime() - sc0});
            } catch (Throwable e) {
                shown.completeExceptionally(e);
            }
        });
        Object[] r = shown.get(60, TimeUnit.SECONDS);
        FabricEditor editor = (FabricEditor) r[0];
        Stage stage = (Stage) r[1];
        long show = (long) r[2];
        long showCpu = (long) r[3];
        out.printf(Locale.ROOT, "%d units: open %s: read %d ms + editor, layout and first frame %d ms = %d ms wall; "
                        + "CPU: read %d ms (reading thread) + %d ms (FX thread) = %d ms%n", units,
                file.getFileName(), read / 1_000_000, show / 1_000_000, (read + show) / 1_000_000, readCpu / 1_000_000,
                showCpu / 1_000_000, (readCpu + showCpu) / 1_000_000);
        out.flush();
        Thread fx = onFx(Thread::currentThread);
        // Warm-up, not reported: the first frames after opening pay for class loading, the JIT and
        // the first image textures, which would otherwise land on whichever case runs first.
        for (FabricCanvas.Renderer rd : renderers) {
            onFx(() -> {
                editor.canvas().setRenderer(rd);
                return null;
            });
            for (String zoom : new String[] {"fit", "25%", "100%"}) {
                measure(editor, fx, threads, zoom, "pan", false, frames);
            }
        }
        Frames empty = measure(editor, fx, threads, "fit", "empty", false, frames);
        out.printf(Locale.ROOT, "  empty frame (nothing drawn: the cost of the snapshot that forces rasterising and reads the pixels back): "
                + "median %.1f ms, CPU %.1f ms%n", empty.median(), empty.cpuPerFrame());
        for (String zoom : new String[] {"fit", "25%", "100%"}) {
            for (String gesture : new String[] {"pan", "zoom", "redraw"}) {
                for (boolean draft : new boolean[] {false, true}) {
                    if (draft && gesture.equals("redraw")) {
                        continue; // a plain redraw (hover, selection) is never a draft
                    }
                    // The renderers alternate case by case, so both see the same machine load.
                    for (FabricCanvas.Renderer rd : renderers) {
                        onFx(() -> {
                            editor.canvas().setRenderer(rd);
                            return null;
                        });
                        Frames m = measure(editor, fx, threads, zoom, gesture, draft, frames);
                        out.printf(Locale.ROOT,
                                "  %-6s %-4s %-6s %-5s: frame median %5.1f ms, p90 %5.1f ms (paint %4.1f + raster %4.1f);"
                                        + " CPU per frame %5.1f ms; %s%n",
                                rd.name().toLowerCase(Locale.ROOT), zoom, gesture, draft ? "draft" : "full", m.median(),
                                m.p90(), m.paintMedian(), m.rasterMedian(), m.cpuPerFrame(), m.stats());
                        out.flush();
                    }
                }
            }
        }
        // Screen frames: what the user sees. Each pulse (JavaFX's frame tick, at most 60 a second)
        // takes one pan or zoom step and paints, and JavaFX renders the scene and puts it in the X
        // window as it does for any frame: no snapshot, no readback. CPU of the FX thread, the render
        // thread and the X server per frame; the frames per second reached.
        out.printf(Locale.ROOT, "  screen frames (one gesture step per pulse, %d pulses, the window uploaded to the X "
                + "server as usual):%n", 2 * frames);
        for (String zoom : new String[] {"fit", "100%"}) {
            for (String gesture : new String[] {"pan", "zoom"}) {
                for (FabricCanvas.Renderer rd : renderers) {
                    onFx(() -> {
                        editor.canvas().setRenderer(rd);
                        return null;
                    });
                    ScreenFrames sf = measureScreen(editor, fx, threads, zoom, gesture, 2 * frames);
                    out.printf(Locale.ROOT, "  %-6s %-4s %-6s full : %5.1f frames/s; CPU per frame %5.1f ms "
                                    + "(FX %4.1f + render %4.1f + X server %4.1f)%n",
                            rd.name().toLowerCase(Locale.ROOT), zoom, gesture, sf.fps(), sf.cpuPerFrame(),
                            sf.fxMs(), sf.renderMs(), sf.xMs());
                    out.flush();
                }
            }
        }
        onFx(() -> {
            stage.close();
            return null;
        });
    }

    private record ScreenFrames(double fps, double fxMs, double renderMs, double xMs) {
        double cpuPerFrame() {
            return fxMs + renderMs + xMs;
        }
    }

    /**
     * Drives {@code frames} pulses with an AnimationTimer, one gesture step and one full paint per
     * pulse (drafts off, so the figure is the full picture's), and measures per frame the CPU of the
     * FX thread, the render thread and the X server (from /proc, 10 ms ticks, so only the sum over
     * all frames is meaningful).
     */
    private static ScreenFrames measureScreen(FabricEditor editor, Thread fx, ThreadMXBean threads, String zoom,
                                              String gesture, int frames) throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        long[] t = new long[6];
        onFx(() -> {
            FabricCanvas c = editor.canvas();
            double w = c.getWidth();
            double h = c.getHeight();
            c.fitToWindow();
            if (!zoom.equals("fit")) {
                c.zoomAt(w / 2, h / 2, 1.0 / c.viewport().scale());
            }
            io.fabriclab.diagram.FabricPainter.Options opts = c.options().withDraft(false);
            Thread renderer = rendererThread();
            new javafx.animation.AnimationTimer() {
                int i = -10; // warm-up pulses first

                @Override
                public void handle(long now) {
                    if (i == 0) {
                        t[0] = System.nanoTime();
                        t[1] = cpu(threads, fx);
                        t[2] = cpu(threads, renderer);
                        t[3] = xServerCpuNanos();
                    }
                    if (i == frames) {
                        t[0] = System.nanoTime() - t[0];
                        t[1] = cpu(threads, fx) - t[1];
                        t[2] = cpu(threads, renderer) - t[2];
                        t[3] = xServerCpuNanos() - t[3];
                        stop();
                        done.countDown();
                        return;
                    }
                    if (gesture.equals("pan")) {
                        c.viewport().pan(i % 2 == 0 ? 37 : -37, i % 2 == 0 ? 11 : -11);
                    } else {
                        c.viewport().zoomAt(w / 2, h / 2, i % 2 == 0 ? 1.1 : 1 / 1.1);
                    }
                    c.paintFrame(opts);
                    i++;
                }
            }.start();
            return null;
        });
        if (!done.await(10, TimeUnit.MINUTES)) {
            throw new IllegalStateException("screen frames did not finish");
        }
        return new ScreenFrames(frames / (t[0] / 1e9), t[1] / 1e6 / frames, t[2] / 1e6 / frames,
                Math.max(0, t[3]) / 1e6 / frames);
    }

    /**
     * CPU time (user + system) of the X server this JVM draws to, read from /proc: the Xvfb (or Xorg)
     * process whose command line names our DISPLAY. 0 when it cannot be found (not Linux, remote X).
     */
    static long xServerCpuNanos() {
        String display = System.getenv("DISPLAY");
        if (display == null || display.isEmpty()) {
            return 0;
        }
        String number = display.substring(display.indexOf(':'));
        int dot = number.indexOf('.');
        if (dot > 0) {
            number = number.substring(0, dot);
        }
        java.io.File[] procs = new java.io.File("/proc").listFiles((d, n) -> n.chars().allMatch(Character::isDigit));
        if (procs == null) {
            return 0;
        }
        for (java.io.File p : procs) {
            try {
                String comm = Files.readString(p.toPath().resolve("comm")).trim();
                if (!comm.equals("Xvfb") && !comm.equals("Xorg")) {
                    continue;
                }
                String cmd = Files.readString(p.toPath().resolve("cmdline")).replace('\0', ' ');
                if (!(cmd + " ").contains(" " + number + " ")) {
                    continue;
                }
                String stat = Files.readString(p.toPath().resolve("stat"));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14, 15)
                return ticks * 10_000_000L; // USER_HZ is 100 on Linux
            } catch (java.io.IOException | RuntimeException e) {
                // a process that went away, or not readable: try the next
            }
        }
        return 0;
    }

    private record Frames(double[] wallMs, double[] paintMs, double[] rasterMs, double cpuPerFrame, String stats) {
        double median() {
            return pct(wallMs, 0.5);
        }

        double p90() {
            return pct(wallMs, 0.9);
        }

        double paintMedian() {
            return pct(paintMs, 0.5);
        }

        double rasterMedian() {
            return pct(rasterMs, 0.5);
        }

        private static double pct(double[] v, double q) {
            double[] s = v.clone();
            Arrays.sort(s);
            return s[Math.min(s.length - 1, (int) Math.floor(q * s.length))];
        }
    }

    private static Frames measure(FabricEditor editor, Thread fx, ThreadMXBean threads, String zoom, String gesture,
                                  boolean draft, int frames) throws Exception {
        return onFx(() -> {
            FabricCanvas c = editor.canvas();
            double w = c.getWidth();
            double h = c.getHeight();
            c.fitToWindow();
            if (!zoom.equals("fit")) {
                double target = zoom.equals("25%") ? 0.25 : 1.0;
                c.zoomAt(w / 2, h / 2, target / c.viewport().scale());
            }
            io.fabriclab.diagram.FabricPainter.Options opts = c.options().withDraft(draft);
            Thread renderer = rendererThread();
            double[] wall = new double[frames];
            double[] paint = new double[frames];
            double[] raster = new double[frames];
            io.fabriclab.diagram.FabricPainter.Stats stats = null;
            // Warm-up frames first, then the measured ones.
            long cpu0 = 0;
            long shifts0 = 0;
            for (int i = -5; i < frames; i++) {
                if (i == 0) {
                    cpu0 = cpu(threads, fx) + cpu(threads, renderer);
                    shifts0 = c.panShifts();
                }
                switch (gesture) {
                    case "pan" -> c.viewport().pan(i % 2 == 0 ? 37 : -37, i % 2 == 0 ? 11 : -11);
                    case "zoom" -> c.viewport().zoomAt(w / 2, h / 2, i % 2 == 0 ? 1.1 : 1 / 1.1);
                    default -> {
                    }
                }
                if (gesture.equals("redraw")) {
                    // What a selection or hover change costs: the fabric is painted whole, not
                    // taken from the previous frame.
                    c.invalidate();
                }
                long a = System.nanoTime();
                if (gesture.equals("empty")) {
                    stats = new io.fabriclab.diagram.FabricPainter.Stats(0, 0, 0, 0, false); // snapshot only
                } else {
                    stats = c.paintFrame(opts);
                }
                long b = System.nanoTime();
                c.canvas().snapshot(null, null);
                long e = System.nanoTime();
                if (i >= 0) {
                    paint[i] = (b - a) / 1e6;
                    raster[i] = (e - b) / 1e6;
                    wall[i] = (e - a) / 1e6;
                }
            }
            double cpu = (cpu(threads, fx) + cpu(threads, renderer) - cpu0) / 1e6 / frames;
            long shifted = c.panShifts() - shifts0;
            return new Frames(wall, paint, raster, cpu, stats.linesDrawn() + " lines, " + stats.devicesDrawn()
                    + " devices, " + stats.foldedGroupsDrawn() + " folded groups"
                    + (gesture.equals("pan") ? ", " + shifted + " of " + frames + " frames shifted" : ""));
        });
    }

    private static long cpu(ThreadMXBean threads, Thread t) {
        if (t == null) {
            return 0;
        }
        long v = threads.getThreadCpuTime(t.getId());
        return Math.max(0, v);
    }

    /** Prism's render thread, where the software pipeline rasterises. */
    private static Thread rendererThread() {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("QuantumRenderer")) {
                return t;
            }
        }
        return null;
    }

    /** Runs {@code work} on the FX thread and waits for its result (also used by RendererComparison). */
    static <T> T onFx(java.util.concurrent.Callable<T> work) throws Exception {
        CompletableFuture<T> f = new CompletableFuture<>();
        Platform.runLater(() -> {
            try {
                f.complete(work.call());
            } catch (Throwable e) {
                f.completeExceptionally(e);
            }
        });
        return f.get(10, TimeUnit.MINUTES);
    }
}
