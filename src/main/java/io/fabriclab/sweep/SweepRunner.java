package io.fabriclab.sweep;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

import io.fabriclab.app.RunService;
import io.fabriclab.io.AtomicFiles;
import io.fabriclab.io.FabricReader;
import io.fabriclab.io.Scenario;
import io.fabriclab.io.ScenarioException;
import io.fabriclab.io.ScenarioJson;
import io.fabriclab.sim.SimResults;

/**
 * Runs sweep runs: one in the calling thread ({@link #runOne}), or a whole plan on a pool of local
 * worker threads with results kept under a directory ({@link #run}), resumable after a kill.
 *
 * <p><b>Memory.</b> Every run's memory is estimated before it starts ({@link #memoryEstimate}: the
 * port and flow telemetry the run keeps, as {@link Scenario#telemetryProblem} counts it, plus the
 * flows and the fabric). The pool lets runs start only while the estimates of the runs in flight
 * fit in {@link #memoryBudget()} (60 % of the Java heap), so N workers never hold N runs that do
 * not fit together; a run that alone exceeds the budget is refused (status {@link RunRow#REFUSED}).
 */
public final class SweepRunner {
    /** The directory under the output directory holding one file per finished run. */
    public static final String RUNS_DIR = "runs";

    /** Observes a pool run; called from worker threads (implementations synchronize themselves). */
    public interface Listener {
        /**
         * @param done      runs finished (executed or found finished on disk)
         * @param running   runs executing now
         * @param total     runs of the plan
         * @param reused    of {@code done}, runs found finished under the directory (not run again)
         * @param etaSeconds estimated wall time to the end; NaN until a run has finished here
         */
        void progress(int done, int running, int total, int reused, double etaSeconds);

        /**
         * A run file under the directory that does not hold a valid run (edited, foreign, from an
         * older FabricLab): it is not reused, the run is simulated again and the file replaced.
         *
         * @param runFile the file
         * @param why     what is wrong with it (the field and what is allowed)
         */
        default void rejected(Path runFile, String why) {
        }
    }

    /**
     * @param rows     one row per run of the plan, in run order (point, then seed index)
     * @param executed runs simulated by this call
     * @param reused   runs whose result file was already under the directory
     */
    public record Result(List<RunRow> rows, int executed, int reused, List<RunRow> reusedRows) {
        public Result(List<RunRow> rows, int executed, int reused) {
            this(rows, executed, reused, List.of());
        }
    }

    /**
     * Which runs a resumed sweep took from files instead of simulating, for a person: "point 0 seed
     * 1, point 3 seed 2, ... and 40 more" (at most {@code max} named).
     */
    public static String describe(List<RunRow> runs, int max) {
        java.util.StringJoiner j = new java.util.StringJoiner(", ");
        for (RunRow r : runs.subList(0, Math.min(max, runs.size()))) {
            j.add("point " + r.point() + " seed " + r.seed());
        }
        return j + (runs.size() > max ? " and " + (runs.size() - max) + " more" : "");
    }

    /** Test hook: a process stops writing (its workers block) after this many run files, so a test can kill it there. */
    static final String HOLD_PROPERTY = "fabriclab.sweep.holdAfterWrites";

    private SweepRunner() {
    }

    /** The memory the pool lets runs in flight use together: 60 % of the maximum heap. */
    public static long memoryBudget() {
        return RunService.memoryBudget();
    }

    /**
     * A run's memory estimate, bytes: port telemetry (2 directions x 2 series x links x points x 16 B,
     * the count {@link Scenario#telemetryProblem} uses), each flow's rate series (points x 16 B) and
     * record (2 KB), each link's ports and queues (16 KB), and 32 MB for the simulator's pools.
     */
    public static long memoryEstimate(Scenario s) {
        return RunService.memoryEstimate(s);
    }

    /**
     * Runs one simulation in the calling thread and returns its row; never throws for a bad run (a
     * scenario the reader refuses or that would not fit gives a {@link RunRow#REFUSED} row, a
     * simulator failure a {@link RunRow#FAILED} row). Deterministic: the same spec gives the same
     * row apart from the wall-clock fields. The run may use {@link #memoryBudget()}.
     */
    public static RunRow runOne(RunSpec spec) {
        return runOne(spec, memoryBudget());
    }

    /** As {@link #runOne(RunSpec)}, refusing a run whose {@link #memoryEstimate} exceeds {@code memoryBytes}. */
    public static RunRow runOne(RunSpec spec, long memoryBytes) {
        long t0 = System.nanoTime();
        Scenario s;
        try {
            s = read(spec);
        } catch (ScenarioException | IllegalArgumentException e) {
            return row(spec, RunRow.REFUSED, "the resolved scenario does not read: " + firstLine(e.getMessage()), Map.of(), t0);
        }
        long need = memoryEstimate(s);
        if (need > memoryBytes) {
            return row(spec, RunRow.REFUSED, tooBig(need, memoryBytes), Map.of(), t0);
        }
        return simulate(spec, s, t0);
    }

    static Scenario read(RunSpec spec) {
        return ScenarioJson.parse(spec.scenarioJson(), "run " + spec.hash().substring(0, 12), null, FabricReader.FILES, null);
    }

    private static String tooBig(long need, long budget) {
        return String.format(Locale.ROOT, "the run would keep about %d MB of telemetry and state, more than the %d MB "
                + "a sweep's runs may use (60 %% of the Java heap): give Java more memory (FABRICLAB_JAVA_OPTS=-Xmx...) "
                + "or sample less (telemetry.sampleIntervalUs, maxPoints)", need >> 20, budget >> 20);
    }

    private static RunRow simulate(RunSpec spec, Scenario s, long t0) {
        try {
            // The one place a run is built: the run service, on the plan's engine.
            SimResults r = RunService.prepare(new RunService.Request("point " + spec.point() + " seed " + spec.seed(),
                    s, spec.engine())).run(null);
            return row(spec, RunRow.OK, "", SweepMetrics.of(r), t0);
        } catch (IllegalArgumentException e) {
            return row(spec, RunRow.REFUSED, firstLine(e.getMessage()), Map.of(), t0);
        } catch (OutOfMemoryError e) {
            return row(spec, RunRow.FAILED, "out of memory (Java heap " + (Runtime.getRuntime().maxMemory() >> 20) + " MB)",
                    Map.of(), t0);
        } catch (RuntimeException | StackOverflowError e) {
            return row(spec, RunRow.FAILED, "simulator error: " + e, Map.of(), t0);
        }
    }

    private static RunRow row(RunSpec spec, String status, String message, Map<String, Double> metrics, long t0) {
        return new RunRow(spec.point(), spec.seedIndex(), spec.seed(), spec.hash(), spec.values(), status, message,
                new TreeMap<>(metrics), (System.nanoTime() - t0) / 1_000_000, RAN_BY);
    }

    private static final String RAN_BY = ProcessHandle.current().pid() + "@" + host();

    private static String host() {
        try {
            String n = ManagementFactory.getRuntimeMXBean().getName();
            int at = n.indexOf('@');
            return at >= 0 ? n.substring(at + 1) : java.net.InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "localhost";
        }
    }

    /** The file of a run under a sweep directory: {@code DIR/runs/<hash>.json}. */
    public static Path runFile(Path dir, String hash) {
        return dir.resolve(RUNS_DIR).resolve(hash + ".json");
    }

    /**
     * A finished run's row from its file, relabelled for {@code spec} (two runs with one hash share
     * a file); null when there is no complete file for it.
     */
    public static RunRow finished(Path dir, RunSpec spec) {
        return finished(dir, spec, null);
    }

    /**
     * As {@link #finished(Path, RunSpec)}; a file that is there but does not hold a valid run of
     * this spec (checked by {@link RunRow#fromJson}) is reported to {@code rejected}, then ignored.
     */
    public static RunRow finished(Path dir, RunSpec spec, Listener rejected) {
        Path f = runFile(dir, spec.hash());
        try {
            if (Files.size(f) > MAX_RUN_FILE_BYTES) {
                throw new IOException("file is " + Files.size(f) + " bytes; a run file is at most " + MAX_RUN_FILE_BYTES);
            }
            RunRow r = RunRow.fromJson(Files.readAllBytes(f));
            if (!r.hash().equals(spec.hash())) {
                throw new IOException("hash: " + r.hash() + " is another run's; allowed: " + spec.hash() + " (the file's name)");
            }
            return new RunRow(spec.point(), spec.seedIndex(), spec.seed(), spec.hash(), spec.values(), r.status(),
                    r.message(), r.metrics(), r.wallMillis(), r.ranBy());
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException | RuntimeException e) {
            if (rejected != null) {
                rejected.rejected(f, String.valueOf(e.getMessage()));
            }
            return null; // not a valid run file: run it again
        }
    }

    /** Run files are a few KB; anything larger is not one (and is not read into memory). */
    static final long MAX_RUN_FILE_BYTES = 16L * 1024 * 1024;

    /** The finished runs of a plan found under a sweep directory, and how many it still lacks. */
    public record Finished(List<RunRow> rows, int missing, List<String> rejected) {
        public Finished(List<RunRow> rows, int missing) {
            this(rows, missing, List.of());
        }
    }

    /**
     * The rows of the plan's runs already finished under {@code dir} (nothing is run): what
     * {@code fabriclab report --sweep} summarises. Runs that share a hash share a file, as in
     * {@link #run}.
     */
    public static Finished finished(SweepPlan plan, Path dir) {
        List<RunRow> rows = new ArrayList<>(plan.runCount());
        List<String> rejected = new ArrayList<>();
        Listener why = new Listener() {
            @Override
            public void progress(int done, int running, int total, int reused, double etaSeconds) {
            }

            @Override
            public void rejected(Path runFile, String reason) {
                rejected.add(runFile + ": " + reason);
            }
        };
        int missing = 0;
        int nSeeds = plan.seeds().size();
        for (int i = 0; i < plan.runCount(); i++) {
            RunRow r = finished(dir, plan.run(i / nSeeds, i % nSeeds), why);
            if (r == null) {
                missing++;
            } else {
                rows.add(r);
            }
        }
        return new Finished(List.copyOf(rows), missing, List.copyOf(rejected));
    }

    /**
     * Runs every run of the plan on {@code workers} threads, keeping each finished run's row in
     * {@code DIR/runs/<hash>.json} (written atomically). Runs whose file is already there are not
     * run again, so a killed sweep resumes where it stopped; refused runs (machine-dependent) are
     * not written and are tried again next time.
     *
     * @param workers  worker threads, at least 1
     * @param listener progress observer, or null
     */
    public static Result run(SweepPlan plan, Path dir, int workers, Listener listener) throws IOException {
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1, was " + workers);
        }
        Files.createDirectories(dir.resolve(RUNS_DIR));
        int total = plan.runCount();
        long budget = memoryBudget();
        // Permits are MB of the budget: a run acquires its estimate before it starts.
        int budgetMb = (int) Math.max(1, Math.min(Integer.MAX_VALUE, budget >> 20));
        Semaphore memory = new Semaphore(budgetMb, true);
        int hold = Integer.getInteger(HOLD_PROPERTY, -1);
        AtomicInteger writeSlots = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        AtomicInteger running = new AtomicInteger();
        AtomicInteger reused = new AtomicInteger();
        List<RunRow> reusedRows = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicInteger executed = new AtomicInteger();
        long start = System.nanoTime();
        Runnable report = () -> {
            if (listener != null) {
                int ex = executed.get();
                int remaining = total - done.get();
                double eta = ex == 0 ? Double.NaN : (System.nanoTime() - start) / 1e9 / ex * remaining;
                listener.progress(done.get(), running.get(), total, reused.get(), eta);
            }
        };
        ExecutorService pool = Executors.newFixedThreadPool(workers, r -> {
            Thread t = new Thread(r, "sweep-worker");
            t.setDaemon(true);
            return t;
        });
        // Runs with one hash (equal resolved scenarios) share one simulation.
        Map<String, CompletableFuture<RunRow>> byHash = new HashMap<>();
        List<CompletableFuture<RunRow>> futures = new ArrayList<>(total);
        // Only the hashes are kept for the whole sweep (a sweep of 10^5 runs must not hold 10^5 scenarios).
        Semaphore queued = new Semaphore(2 * workers);
        List<String> hashes = new ArrayList<>(total);
        int nSeeds = plan.seeds().size();
        try {
            for (int i = 0; i < total; i++) {
                final int point = i / nSeeds;
                final int seedIndex = i % nSeeds;
                // Each run's scenario is resolved and hashed once, here, and handed to its worker; at most
                // two runs per worker wait in the queue, so a sweep of 10^5 runs holds a few scenarios.
                queued.acquire();
                RunSpec spec = plan.run(point, seedIndex);
                String hash = spec.hash();
                hashes.add(hash);
                CompletableFuture<RunRow> shared = byHash.get(hash);
                if (shared != null) {
                    queued.release();
                    futures.add(shared);
                    continue;
                }
                CompletableFuture<RunRow> f = CompletableFuture.supplyAsync(() -> {
                    try {
                        RunRow old = finished(dir, spec, listener);
                        if (old != null) {
                            reusedRows.add(old);
                            reused.incrementAndGet();
                            done.incrementAndGet();
                            report.run();
                            return old;
                        }
                        long t0 = System.nanoTime();
                        Scenario s;
                        try {
                            s = read(spec);
                        } catch (ScenarioException | IllegalArgumentException e) {
                            done.incrementAndGet();
                            report.run();
                            return row(spec, RunRow.REFUSED, "the resolved scenario does not read: " + firstLine(e.getMessage()),
                                    Map.of(), t0);
                        }
                        long need = memoryEstimate(s);
                        if (need > budget) {
                            done.incrementAndGet();
                            report.run();
                            return row(spec, RunRow.REFUSED, tooBig(need, budget), Map.of(), t0);
                        }
                        int mb = (int) Math.max(1, Math.min(budgetMb, need >> 20));
                        memory.acquireUninterruptibly(mb);
                        RunRow r;
                        try {
                            running.incrementAndGet();
                            report.run();
                            r = simulate(spec, s, t0);
                            s = null;
                        } finally {
                            running.decrementAndGet();
                            memory.release(mb);
                        }
                        if (!RunRow.REFUSED.equals(r.status())) {
                            if (hold >= 0 && writeSlots.incrementAndGet() > hold) {
                                holdForever();
                            }
                            try {
                                AtomicFiles.write(runFile(dir, spec.hash()), r.toJson());
                            } catch (IOException e) {
                                throw new java.io.UncheckedIOException(e);
                            }
                        }
                        executed.incrementAndGet();
                        done.incrementAndGet();
                        report.run();
                        return r;
                    } finally {
                        queued.release();
                    }
                }, pool);
                byHash.put(hash, f);
                futures.add(f);
            }
            List<RunRow> rows = new ArrayList<>(total);
            for (int i = 0; i < total; i++) {
                RunRow r = futures.get(i).get();
                int point = i / nSeeds;
                int seedIndex = i % nSeeds;
                if (r.point() != point || r.seedIndex() != seedIndex) {
                    r = new RunRow(point, seedIndex, plan.seeds().get(seedIndex), hashes.get(i), plan.pointValues(point),
                            r.status(), r.message(), r.metrics(), r.wallMillis(), r.ranBy());
                    done.incrementAndGet();
                    reused.incrementAndGet();
                }
                rows.add(r);
            }
            report.run();
            List<RunRow> fromFiles = new ArrayList<>(reusedRows);
            fromFiles.sort(java.util.Comparator.comparingInt(RunRow::point).thenComparingInt(RunRow::seedIndex));
            return new Result(rows, executed.get(), reused.get(), List.copyOf(fromFiles));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("sweep interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof java.io.UncheckedIOException u) {
                throw u.getCause();
            }
            throw new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Runs the given specs on {@code pool}, reusing and keeping run files under {@code dir} like
     * {@link #run}; rows in the order of the specs. For callers that choose runs as they go (the tuner).
     */
    public static List<RunRow> runSpecs(List<RunSpec> specs, Path dir, ExecutorService pool) throws IOException {
        List<CompletableFuture<RunRow>> fs = new ArrayList<>();
        for (RunSpec spec : specs) {
            fs.add(CompletableFuture.supplyAsync(() -> {
                RunRow old = finished(dir, spec);
                if (old != null) {
                    return old;
                }
                RunRow r = runOne(spec);
                if (!RunRow.REFUSED.equals(r.status())) {
                    try {
                        AtomicFiles.write(runFile(dir, spec.hash()), r.toJson());
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }
                return r;
            }, pool));
        }
        List<RunRow> out = new ArrayList<>();
        try {
            for (CompletableFuture<RunRow> f : fs) {
                out.add(f.get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof java.io.UncheckedIOException u) {
                throw u.getCause();
            }
            throw new IllegalStateException(e.getCause());
        }
        return out;
    }

    private static void holdForever() {
        while (true) {
            try {
                Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException e) {
                // A test kills the process here; an interrupt (shutdownNow) must not let the write happen.
            }
        }
    }

    static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int i = s.indexOf('\n');
        return i < 0 ? s : s.substring(0, i) + " ...";
    }
}
