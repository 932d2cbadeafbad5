package io.fabriclab.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

import io.fabriclab.cli.Main;
import io.fabriclab.sweep.RunRow;
import io.fabriclab.sweep.SweepPlan;
import io.fabriclab.sweep.SweepRunner;
import io.fabriclab.sweep.SweepSummary;

/**
 * The shaded job jar in Spark local[2] against the local runner on the same sweep: same run files,
 * same summary bytes, apart from the wall-clock fields. The class path is the shaded jar plus Spark's
 * own (spark/it/pom.xml), as under spark-submit. One SparkContext for the whole module.
 */
class SparkSweepJobTest {
    /** 2 Kmin x 2 incast sizes x 2 seeds = 8 short runs of the shipped ecn-too-high scenario. */
    static final Path SWEEP = Path.of("src/test/sweeps/small-incast.json");

    static JavaSparkContext sc;

    @BeforeAll
    static void startSpark() {
        SparkConf conf = new SparkConf().setMaster("local[2]").setAppName("SparkSweepJobTest")
                .set("spark.ui.enabled", "false")
                // Loopback only: the test talks to nothing but itself.
                .set("spark.driver.host", "127.0.0.1").set("spark.driver.bindAddress", "127.0.0.1");
        sc = new JavaSparkContext(conf);
    }

    @AfterAll
    static void stopSpark() {
        if (sc != null) {
            sc.stop();
        }
    }

    @Test
    void sparkLocal2WritesTheLocalRunnersSummaryByteForByteApartFromWallClock(@TempDir Path tmp) throws Exception {
        SweepPlan plan = SweepPlan.read(SWEEP);
        assertEquals(8, plan.runCount());

        // The local runner: `fabriclab sweep SWEEP -o DIR --workers 2`, the app's own command line, in-process.
        Path local = tmp.resolve("local");
        StringWriter cliOut = new StringWriter();
        StringWriter cliErr = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setOut(new PrintWriter(cliOut, true));
        cli.setErr(new PrintWriter(cliErr, true));
        assertEquals(0, cli.execute("sweep", SWEEP.toString(), "-o", local.toString(), "--workers", "2", "--quiet"),
                cliErr.toString());
        assertTrue(cliOut.toString().contains("8 runs (8 run now, 0 already done, 0 not ok)"), cliOut.toString());

        Path spark = tmp.resolve("spark");
        SparkSweepJob.Result sr = SparkSweepJob.run(sc, plan, spark.toUri().toString());
        // One Spark task per point and seed (8 distinct task partitions came back), every run simulated there.
        assertEquals(8, sr.tasks());
        assertEquals(8, sr.executed());
        assertEquals(0, sr.reused());

        for (RunRow r : sr.rows()) {
            assertEquals(RunRow.OK, r.status(), r.message());
        }
        // Not an empty agreement: Kmin 50 KB (below XOFF 300 KB) marks, Kmin 5 MB never does.
        // Rows 0-3 are Kmin 50 KB (two sizes x two seeds), rows 4-7 Kmin 5 MB. Marking is a random
        // draw per packet (RED: Pmax x (queue - Kmin) / (Kmax - Kmin), Kmax 20 MB), so the test asks
        // for marks on every run of the low Kmin, which Pmax 1 makes likely per run and certain in sum.
        double lowKminMarks = 0;
        for (int i = 0; i < 4; i++) {
            lowKminMarks += sr.rows().get(i).metric("ecnMarked");
            assertEquals(0.0, sr.rows().get(4 + i).metric("ecnMarked"), "Kmin 5 MB above XOFF never marks");
        }
        assertTrue(lowKminMarks > 0, "Kmin 50 KB marks ECN");

        assertTrue(files(spark).stream().anyMatch(f -> f.startsWith("charts/") && f.endsWith(".png")),
                "charts drawn: " + files(spark));
        assertSameSweepDirectory(local, spark);
    }

    @Test
    void aSecondJobReusesFinishedRunsAndRerunsOnlyMissingOrBrokenOnes(@TempDir Path tmp) throws Exception {
        SweepPlan plan = SweepPlan.read(SWEEP);
        Path spark = tmp.resolve("spark");
        String out = spark.toUri().toString();
        SparkSweepJob.Result first = SparkSweepJob.run(sc, plan, out);
        assertEquals(8, first.executed());
        byte[] summary = Files.readAllBytes(spark.resolve(SweepSummary.SUMMARY_JSON));

        SparkSweepJob.Result again = SparkSweepJob.run(sc, plan, out);
        assertEquals(0, again.executed(), "nothing run twice");
        assertEquals(8, again.reused());

        // A missing run file and a truncated one (as a kill in the middle of a non-atomic write would leave):
        // exactly those two are simulated again.
        Files.delete(spark.resolve("runs").resolve(first.rows().get(1).hash() + ".json"));
        Path broken = spark.resolve("runs").resolve(first.rows().get(6).hash() + ".json");
        byte[] whole = Files.readAllBytes(broken);
        Files.write(broken, java.util.Arrays.copyOf(whole, whole.length / 2));
        // Item 13 of issue 31: an edited run (a negative count) parsed, so it was trusted; now it is
        // refused, named, and simulated again.
        Path edited = spark.resolve("runs").resolve(first.rows().get(3).hash() + ".json");
        Files.writeString(edited, Files.readString(edited).replaceFirst("\"drops\" : [0-9.eE+-]+", "\"drops\" : -5"));
        SparkSweepJob.Result third = SparkSweepJob.run(sc, plan, out);
        assertEquals(3, third.executed());
        assertEquals(5, third.reused());
        assertEquals(5, third.reusedRows().size());
        assertTrue(third.rejected().stream().anyMatch(w -> w.contains(edited.getFileName().toString())
                && w.contains("metrics.drops: -5 is not allowed")), third.rejected().toString());
        assertArrayEquals(summary, Files.readAllBytes(spark.resolve(SweepSummary.SUMMARY_JSON)));

        // The local runner finds the Spark job's run files its own: it resumes on them with nothing to run.
        SweepRunner.Result local = SweepRunner.run(plan, spark, 1, null);
        assertEquals(0, local.executed());
        assertEquals(8, local.reused());
    }

    @Test
    void theCommandLineRunsTheJobAndRefusesABadSweepFileWithExit2(@TempDir Path tmp) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Path spark = tmp.resolve("cli");
        int code = SparkSweep.execute(new String[] {SWEEP.toString(), spark.toUri().toString()},
                new PrintWriter(out, true), new PrintWriter(err, true), () -> sc, false);
        assertEquals(0, code, err.toString());
        assertTrue(out.toString().contains("8 runs (8 simulated, 0 already finished or shared) in 8 tasks"), out.toString());
        assertTrue(Files.isRegularFile(spark.resolve(SweepSummary.POINTS_CSV)));

        Path bad = tmp.resolve("bad.json");
        Files.writeString(bad, Files.readString(SWEEP).replace("qos.ecn.classes.3.kminBytes", "qos.ecn.classes.3.kminBites")
                .replace("../../../../../resources", SWEEP.toAbsolutePath().getParent().resolve("../../../../../resources").normalize().toString()));
        StringWriter err2 = new StringWriter();
        int badCode = SparkSweep.execute(new String[] {bad.toString(), tmp.resolve("never").toUri().toString()},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err2, true), () -> {
                    throw new AssertionError("Spark must not start for a bad local sweep file");
                }, false);
        assertEquals(2, badCode, err2.toString());
        assertTrue(err2.toString().contains(bad.toString()), err2.toString());
        assertTrue(err2.toString().contains("kminBites"), err2.toString());
        assertTrue(Files.notExists(tmp.resolve("never")));
    }

    /** Item 7 of issue 31: the job printed the sweep's name raw (a window title, a clear-screen got through). */
    @Test
    void theJobPrintsTheSweepsNameThroughTheTerminalSafePrinter(@TempDir Path tmp) throws Exception {
        Path hostile = tmp.resolve("hostile.json");
        Files.writeString(hostile, Files.readString(SWEEP)
                .replace("\"name\": \"Spark test: ECN Kmin x incast size\"", "\"name\": \"evil\\u001b]0;owned\\u0007\\u001b[2J\"")
                .replace("[50000, 5000000]", "[50000]").replace("[100000, 200000]", "[100000]")
                .replace("\"count\": 2", "\"count\": 1")
                .replace("../../../../../resources", SWEEP.toAbsolutePath().getParent().resolve("../../../../../resources").normalize().toString()));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = SparkSweep.execute(new String[] {hostile.toString(), tmp.resolve("out").toUri().toString()},
                new PrintWriter(out, true), new PrintWriter(err, true), () -> sc, false);
        assertEquals(0, code, err.toString());
        assertTrue(out.toString().contains("evil\\u001b]0;owned\\u0007\\u001b[2J: 1 runs"), out.toString());
        assertTrue(out.toString().chars().noneMatch(c -> c == 0x1b || c == 0x07), "no raw escape reaches the terminal");
    }

    /**
     * The two sweep directories hold the same files; every summary file is byte-identical, the wall-clock
     * file once its wall-clock columns are dropped, and each run file once its wallClock object is dropped.
     */
    static void assertSameSweepDirectory(Path local, Path spark) throws IOException {
        assertEquals(files(local), files(spark), "the same files, and no .crc or temporary file");
        for (String f : SweepSummary.DETERMINISTIC_FILES) {
            assertArrayEquals(Files.readAllBytes(local.resolve(f)), Files.readAllBytes(spark.resolve(f)), f);
        }
        assertEquals(withoutColumns(Files.readString(local.resolve(SweepSummary.WALLCLOCK_CSV)), RunRow.WALL_CLOCK_FIELDS),
                withoutColumns(Files.readString(spark.resolve(SweepSummary.WALLCLOCK_CSV)), RunRow.WALL_CLOCK_FIELDS));
        for (String f : files(local)) {
            if (f.startsWith(SweepRunner.RUNS_DIR + "/")) {
                assertEquals(RunRow.fromJson(Files.readAllBytes(local.resolve(f))).withoutWallClock(),
                        RunRow.fromJson(Files.readAllBytes(spark.resolve(f))).withoutWallClock(), f);
            }
        }
        for (String f : files(local)) {
            if (!f.startsWith(SweepRunner.RUNS_DIR + "/") && !SweepSummary.DETERMINISTIC_FILES.contains(f)
                    && !f.equals(SweepSummary.WALLCLOCK_CSV)) {
                // The charts (SVG and PNG), and any summary file added later: the same bytes too.
                assertArrayEquals(Files.readAllBytes(local.resolve(f)), Files.readAllBytes(spark.resolve(f)), f);
            }
        }
    }

    static SortedSet<String> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            TreeSet<String> names = new TreeSet<>();
            s.filter(Files::isRegularFile).forEach(p -> names.add(dir.relativize(p).toString().replace('\\', '/')));
            return names;
        }
    }

    /** A CSV (no quoted comma in the named columns) with the named columns removed. */
    static String withoutColumns(String csv, List<String> drop) {
        String[] lines = csv.split("\n", -1);
        List<String> head = List.of(lines[0].split(",", -1));
        StringBuilder sb = new StringBuilder();
        for (String line : lines) {
            if (line.isEmpty()) {
                continue;
            }
            String[] cells = line.split(",", -1);
            List<String> kept = new ArrayList<>();
            for (int i = 0; i < cells.length; i++) {
                if (i >= head.size() || !drop.contains(head.get(i))) {
                    kept.add(cells[i]);
                }
            }
            sb.append(String.join(",", kept)).append('\n');
        }
        assertTrue(drop.stream().allMatch(head::contains), "the wall-clock columns " + drop + " are in " + head);
        return sb.toString();
    }
}
