package io.fabriclab.spark;

import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

import io.fabriclab.io.InputException;
import io.fabriclab.io.TerminalText;
import io.fabriclab.sim.Engine;
import io.fabriclab.sweep.SweepPlan;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code spark-submit fabriclab-spark.jar SWEEP.json OUT}: the main class of the shaded jar
 * (docs/spark.md). Exit codes as the fabriclab CLI's: 0 done, 2 bad input (the sweep file, an
 * output that cannot be written), 3 an internal error.
 */
@Command(name = "fabriclab-spark", mixinStandardHelpOptions = true, sortOptions = false,
        versionProvider = SparkSweep.Version.class,
        description = {"Runs a FabricLab sweep file as a Spark job: one task per design point and seed, each run's "
                + "result written under OUT/runs/, the summary (summary-runs.csv, summary-points.csv, summary.json, "
                + "wallclock.csv), charts/ and report.html under OUT, byte for byte the local runner's (fabriclab sweep) apart from "
                + "the wall-clock fields.",
                "Submit it with spark-submit (docs/spark.md); the master, executors and Hadoop settings come from there."})
public final class SparkSweep implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "SWEEP",
            description = "The sweep file (docs/format-sweep.md): a local path on the driver, or a Hadoop URI "
                    + "(hdfs://, s3a://...), whose base scenario is then inline or a path on the driver")
    String sweep;

    @Parameters(index = "1", paramLabel = "OUT",
            description = "Output directory, any Hadoop path: file:///..., hdfs://namenode/..., s3a://bucket/...; "
                    + "a sweep already there resumes (finished runs are not run again)")
    String out;

    @Option(names = "--yes", description = "Run a sweep of more than " + SweepPlan.CONFIRM_RUNS + " runs")
    boolean yes;

    @Option(names = "--no-charts", description = "Write the summary tables only, no charts and no report.html "
            + "(as fabriclab sweep --no-charts)")
    boolean noCharts;

    @Option(names = "--engine", paramLabel = "E", converter = EngineConverter.class,
            description = "packet or flow: the engine of every run, over the sweep file's \"engine\" "
                    + "(as fabriclab sweep --engine; default: the file's, else packet)")
    Engine engine;

    /** "packet" or "flow", any case; anything else an error naming both (as the fabriclab CLI). */
    static final class EngineConverter implements CommandLine.ITypeConverter<Engine> {
        @Override
        public Engine convert(String value) {
            try {
                return Engine.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final PrintWriter stdout;
    /** The Spark context to run on; stopped at the end only when this command started it. */
    private final Supplier<JavaSparkContext> context;
    private final boolean ownsContext;

    SparkSweep(PrintWriter stdout, Supplier<JavaSparkContext> context, boolean ownsContext) {
        this.stdout = stdout;
        this.context = context;
        this.ownsContext = ownsContext;
    }

    public static void main(String[] args) {
        // The charts are drawn off-screen (JFreeChart into SVG and PNG); a driver has no display.
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        // The master, executors and Hadoop settings come from spark-submit (spark.* system properties).
        System.exit(execute(args, out, err, () -> new JavaSparkContext(new SparkConf().setAppName("FabricLab sweep")), true));
    }

    /** Runs the command line and returns its exit code (the tests call this with their own context). */
    static int execute(String[] args, PrintWriter rawOut, PrintWriter rawErr, Supplier<JavaSparkContext> context,
                       boolean ownsContext) {
        // Text from the sweep file (its name, a path, an error's value) cannot drive the terminal: the
        // fabriclab command line's one terminal-safe printer.
        PrintWriter out = TerminalText.safe(rawOut);
        PrintWriter err = TerminalText.safe(rawErr);
        CommandLine cl = new CommandLine(new SparkSweep(out, context, ownsContext));
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            // As the fabriclab CLI: a bad sweep file, or an output that cannot be written, is bad input.
            if (ex instanceof InputException || ex instanceof java.io.IOException) {
                cmd.getErr().println("error: " + ex.getMessage());
                return 2;
            }
            cmd.getErr().println("fabriclab-spark: internal error: " + ex);
            ex.printStackTrace(cmd.getErr());
            return 3;
        });
        // Bad usage (a missing argument) is bad input too: 2, as picocli's default.
        return cl.execute(args);
    }

    @Override
    public Integer call() throws Exception {
        // A local sweep file is read and checked before Spark starts: a bad one fails in a second.
        SweepPlan plan = isLocal(sweep) ? SweepPlan.read(localPath(sweep), yes) : null;
        JavaSparkContext sc = context.get();
        try {
            if (plan == null) {
                plan = readPlan(sc, sweep, yes);
            }
            // Every run on the engine asked for: the runs' keys name it (a flow run is not reused for a packet one).
            plan = plan.withEngine(engine);
            long t0 = System.nanoTime();
            SparkSweepJob.Result r = SparkSweepJob.run(sc, plan, out, !noCharts);
            PrintWriter err = spec == null ? stdout : spec.commandLine().getErr();
            for (String why : r.rejected()) {
                err.println("warning: " + why + "; not a valid run file, the run was simulated again");
            }
            if (!r.reusedRows().isEmpty()) {
                err.printf(Locale.ROOT, "reused %d finished run%s: %s%n", r.reusedRows().size(),
                        r.reusedRows().size() == 1 ? "" : "s", io.fabriclab.sweep.SweepRunner.describe(r.reusedRows(), 10));
            }
            stdout.printf(Locale.ROOT, "%s: %d runs (%d simulated, %d already finished or shared) in %d tasks, %.1f s, "
                            + "%s engine; summary in %s%n", plan.name(), r.rows().size(), r.executed(), r.reused(), r.tasks(),
                    (System.nanoTime() - t0) / 1e9, plan.engine().jsonName(), out);
            return 0;
        } finally {
            if (ownsContext) {
                sc.stop();
            }
        }
    }

    /** A path on the driver's disk: no scheme, a Windows drive letter, or file:. */
    static boolean isLocal(String sweep) {
        String scheme = scheme(sweep);
        return scheme == null || scheme.length() == 1 || "file".equals(scheme);
    }

    private static String scheme(String s) {
        int colon = s.indexOf(':');
        int slash = s.indexOf('/');
        return colon > 0 && (slash < 0 || colon < slash) ? s.substring(0, colon) : null;
    }

    private static Path localPath(String sweep) {
        return "file".equals(scheme(sweep)) ? Path.of(java.net.URI.create(sweep)) : Path.of(sweep);
    }

    /**
     * The plan from a Hadoop URI, read through the Hadoop FileSystem API; a base scenario named by a
     * relative path is looked for in the driver's working directory, where spark-submit --files puts
     * shipped files.
     */
    static SweepPlan readPlan(JavaSparkContext sc, String sweep, boolean confirmLarge) throws Exception {
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(sweep);
        FileSystem fs = p.getFileSystem(sc.hadoopConfiguration());
        String text;
        try (InputStream in = fs.open(p)) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw InputException.of(sweep, "$", null, "cannot read the sweep file: " + e.getMessage(),
                    "a readable sweep file");
        }
        return SweepPlan.parse(text, sweep, Path.of("").toAbsolutePath(), confirmLarge);
    }

    /** The version of the FabricLab app inside the jar and of the Spark it runs on. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String app = io.fabriclab.sweep.SweepPlan.class.getPackage().getImplementationVersion();
            return new String[] {"fabriclab-spark " + (app == null ? "(development build)" : app)
                    + ", running on Spark " + org.apache.spark.package$.MODULE$.SPARK_VERSION()};
        }
    }
}
