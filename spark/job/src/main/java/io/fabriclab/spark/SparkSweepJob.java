package io.fabriclab.spark;

import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.stream.Stream;

import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaSparkContext;

import io.fabriclab.io.FabricReader;
import io.fabriclab.report.SweepSection;
import io.fabriclab.io.ScenarioJson;
import io.fabriclab.sweep.RunRow;
import io.fabriclab.sweep.RunSpec;
import io.fabriclab.sweep.SweepCharts;
import io.fabriclab.sweep.SweepPlan;
import io.fabriclab.sweep.SweepRunner;
import io.fabriclab.sweep.SweepSummary;

/**
 * A sweep on a Spark cluster: the same plan, runs, run files and summary as the local runner
 * ({@code fabriclab sweep}), with each run (a design point and one of its seeds) a Spark task.
 *
 * <ol>
 * <li>The driver reads the plan and lists its runs ({@link SweepPlan#runs()}); runs with one hash
 * (equal resolved scenarios) are simulated once, as locally.</li>
 * <li>One task per distinct run: it reuses the run's file under {@code OUT/runs/} when a complete one
 * is there (a job that was killed resumes), otherwise simulates with {@link SweepRunner#runOne} and
 * writes the file atomically through the Hadoop FileSystem API. Refused runs (too big for the
 * executor's heap) are not written, as locally, and are tried again next time.</li>
 * <li>The driver collects the rows in run order and writes the summary, the charts and the report page
 * with the local runner's own code ({@link SweepSummary}, {@link SweepCharts}, {@link SweepSection}),
 * then copies the files to {@code OUT}: the same bytes as a local sweep of the plan, apart from the
 * wall-clock fields.</li>
 * </ol>
 */
public final class SparkSweepJob {
    /** Where the charts go under the output directory, as with {@code fabriclab sweep}. */
    public static final String CHARTS_DIR = "charts";
    /** The sweep's design-review page, as with {@code fabriclab sweep}. */
    public static final String REPORT = "report.html";

    /**
     * @param rows     one row per run of the plan, in run order (point, then seed index)
     * @param executed runs simulated by this job
     * @param reused   runs found finished under the output directory, or sharing another run's hash
     * @param tasks    Spark tasks that returned a run (distinct task partitions seen in the rows: one per
     *                 distinct run)
     * @param reusedRows the runs taken from their files, not simulated (in run order)
     * @param rejected run files found but not valid ("file: why"), whose runs were simulated again
     */
    public record Result(List<RunRow> rows, int executed, int reused, int tasks, List<RunRow> reusedRows,
                         List<String> rejected) {
    }

    /**
     * What one task sends back: the row, whether it was simulated or read from its file, which task
     * it was, and the run file it found but did not reuse ("file: why"; null when none).
     */
    record TaskRow(RunRow row, boolean simulated, boolean fromFile, int partition, String rejected) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    private SparkSweepJob() {
    }

    /**
     * Runs the plan on the cluster behind {@code sc} and writes its run files and summary under
     * {@code outDir}, any Hadoop path ({@code file:///...}, {@code hdfs://nn/...}, {@code s3a://bucket/...};
     * a path without a scheme is on the cluster's default file system).
     */
    public static Result run(JavaSparkContext sc, SweepPlan plan, String outDir) throws IOException {
        return run(sc, plan, outDir, true);
    }

    /**
     * As {@link #run(JavaSparkContext, SweepPlan, String)}; {@code charts} false leaves out the charts
     * (the local runner's {@code --no-charts}).
     */
    public static Result run(JavaSparkContext sc, SweepPlan plan, String outDir, boolean charts) throws IOException {
        RunStore store = new RunStore(outDir, sc.hadoopConfiguration());
        store.mkdirs();

        List<RunSpec> all = plan.runs();
        Map<String, RunSpec> distinct = new LinkedHashMap<>();
        for (RunSpec s : all) {
            distinct.putIfAbsent(s.hash(), s);
        }
        List<RunSpec> specs = new ArrayList<>(distinct.values());
        sc.setJobDescription("FabricLab sweep " + plan.name() + ": " + specs.size() + " runs");
        // One partition per run: each run is one task, scheduled, retried and shown on its own.
        List<TaskRow> done = specs.isEmpty() ? List.of()
                : sc.parallelize(specs, specs.size()).map(spec -> runTask(store, spec)).collect();

        Map<String, TaskRow> byHash = new LinkedHashMap<>();
        for (TaskRow t : done) {
            byHash.put(t.row().hash(), t);
        }
        List<RunRow> rows = new ArrayList<>(all.size());
        int executed = 0;
        int reused = 0;
        List<RunRow> fromFiles = new ArrayList<>();
        List<String> rejected = new ArrayList<>();
        for (TaskRow t : done) {
            executed += t.simulated() ? 1 : 0;
            reused += t.fromFile() ? 1 : 0;
            if (t.fromFile()) {
                fromFiles.add(t.row());
            }
            if (t.rejected() != null) {
                rejected.add(t.rejected());
            }
        }
        fromFiles.sort(java.util.Comparator.comparingInt(RunRow::point).thenComparingInt(RunRow::seedIndex));
        for (RunSpec spec : all) {
            TaskRow t = byHash.get(spec.hash());
            if (t == null) {
                throw new IllegalStateException("no result for run " + spec.hash());
            }
            RunRow r = t.row();
            if (r.point() != spec.point() || r.seedIndex() != spec.seedIndex()) {
                // Another run of the plan with the same resolved scenario: its result, relabelled.
                r = new RunRow(spec.point(), spec.seedIndex(), spec.seed(), spec.hash(), spec.values(), r.status(),
                        r.message(), r.metrics(), r.wallMillis(), r.ranBy());
                reused++;
            }
            rows.add(r);
        }
        writeSummary(plan, rows, store, charts);
        int tasks = (int) done.stream().mapToInt(TaskRow::partition).distinct().count();
        return new Result(rows, executed, reused, tasks, List.copyOf(fromFiles), List.copyOf(rejected));
    }

    /** One Spark task: the run's finished file if there is one, else the simulation, written atomically. */
    static TaskRow runTask(RunStore store, RunSpec spec) throws IOException {
        TaskContext tc = TaskContext.get();
        int partition = tc == null ? -1 : tc.partitionId();
        String[] rejected = new String[1];
        RunRow old = store.finished(spec, why -> rejected[0] = why);
        if (old != null) {
            return new TaskRow(old, false, true, partition, null);
        }
        RunRow r = ExecutorMemory.run(spec);
        if (!RunRow.REFUSED.equals(r.status())) {
            String attempt = tc == null ? "driver" : Long.toString(tc.taskAttemptId());
            store.writeAtomically(store.runFile(spec.hash()), r.toJson(), attempt, false);
        }
        return new TaskRow(r, !RunRow.REFUSED.equals(r.status()), false, partition, rejected[0]);
    }

    /**
     * The summary and its charts as the local runner writes them ({@link SweepSummary#write}, then
     * {@link SweepCharts#write} into {@code charts/}), into a local scratch directory on the driver,
     * each file then copied to the output directory atomically.
     */
    static void writeSummary(SweepPlan plan, List<RunRow> rows, RunStore store, boolean charts) throws IOException {
        Path scratch = Files.createTempDirectory("fabriclab-sweep-summary");
        try {
            SweepSummary summary = SweepSummary.write(plan, rows, scratch);
            if (charts) {
                // As `fabriclab sweep` (SweepCommand) does without --no-charts: the charts, and the
                // design review's sweep section as a page of its own.
                SweepCharts.write(summary, scratch.resolve(CHARTS_DIR));
                Files.writeString(scratch.resolve(REPORT), SweepSection.page(summary), StandardCharsets.UTF_8);
            }
            List<Path> files;
            try (Stream<Path> s = Files.walk(scratch)) {
                files = s.filter(Files::isRegularFile).sorted().toList();
            }
            for (Path f : files) {
                // The same relative path under OUT (a summary with a sub-folder, e.g. charts, keeps it).
                String rel = scratch.relativize(f).toString().replace(java.io.File.separatorChar, '/');
                store.writeAtomically(new org.apache.hadoop.fs.Path(store.root(), rel), Files.readAllBytes(f), "driver", true);
            }
        } finally {
            try (Stream<Path> s = Files.walk(scratch)) {
                for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /**
     * Bounds the memory of the runs an executor holds at once, as the local runner bounds its
     * workers': Spark starts as many tasks in an executor as it has cores, and each run first takes
     * its memory estimate ({@link SweepRunner#memoryEstimate}) from a budget of 60 % of the executor's
     * heap ({@link SweepRunner#memoryBudget()}), waiting while the runs in flight hold too much. A run
     * whose estimate alone exceeds the budget is refused by {@link SweepRunner#runOne(RunSpec, long)}
     * with the local runner's message.
     */
    static final class ExecutorMemory {
        private static final long BUDGET = SweepRunner.memoryBudget();
        private static final int BUDGET_MB = (int) Math.max(1, Math.min(Integer.MAX_VALUE, BUDGET >> 20));
        private static final Semaphore MB = new Semaphore(BUDGET_MB, true);

        private ExecutorMemory() {
        }

        static RunRow run(RunSpec spec) {
            long need;
            try {
                need = SweepRunner.memoryEstimate(ScenarioJson.parse(spec.scenarioJson(),
                        "run " + spec.hash().substring(0, Math.min(12, spec.hash().length())), null, FabricReader.FILES, null));
            } catch (RuntimeException e) {
                return SweepRunner.runOne(spec, BUDGET); // refused with the reader's message
            }
            if (need > BUDGET) {
                return SweepRunner.runOne(spec, BUDGET); // refused: too big for this executor alone
            }
            int mb = (int) Math.max(1, Math.min(BUDGET_MB, need >> 20));
            MB.acquireUninterruptibly(mb);
            try {
                return SweepRunner.runOne(spec, BUDGET);
            } finally {
                MB.release(mb);
            }
        }
    }
}
