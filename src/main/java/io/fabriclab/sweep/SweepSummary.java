package io.fabriclab.sweep;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabriclab.io.AtomicFiles;

/**
 * The summary of a sweep: one row per run and one per design point (mean and 95 % confidence
 * interval over the point's seeds, feasibility under the constraints, Pareto membership under the
 * objectives), written as CSV and JSON (docs/format-sweep.md, "Summary files").
 *
 * <p><b>Determinism.</b> The summary files {@link #RUNS_CSV}, {@link #POINTS_CSV} and
 * {@link #SUMMARY_JSON} depend only on the plan and on the rows without their wall-clock fields:
 * rows are ordered by (point, seed index) whatever order they are given in, numbers are printed the
 * same way on every JVM, and no path, time or host appears in them. Two sweeps of one plan (local,
 * resumed, or run elsewhere) give byte-identical summary files. The wall-clock fields
 * ({@link RunRow#WALL_CLOCK_FIELDS}) go to {@link #WALLCLOCK_CSV} alone.
 */
public final class SweepSummary {
    public static final String RUNS_CSV = "summary-runs.csv";
    public static final String POINTS_CSV = "summary-points.csv";
    public static final String SUMMARY_JSON = "summary.json";
    /** The only summary file with wall-clock fields (run time, which process ran it). */
    public static final String WALLCLOCK_CSV = "wallclock.csv";
    /** The files whose bytes depend on the plan and the runs' results only. */
    public static final List<String> DETERMINISTIC_FILES = List.of(RUNS_CSV, POINTS_CSV, SUMMARY_JSON);

    /** Two-sided confidence level of the intervals. */
    public static final double CONFIDENCE = 0.95;

    /**
     * One metric over a point's seeds: n finite values, their mean and the Student-t 95 %
     * interval {@code mean +- t(0.975, n-1) s / sqrt(n)} (NaN bounds when n < 2).
     */
    public record Stat(int n, double mean, double ciLow, double ciHigh) {
        public double halfWidth() {
            return (ciHigh - ciLow) / 2;
        }

        /**
         * "10,610 +- 15,000" for tables: the mean and the interval's half-width as plain numbers
         * ({@link #plain}), never in exponent notation; an interval of zero (every seed gave the
         * same value, as counts often do) is left out: "0", not "0.000 +- 0.0". "-" with no value.
         */
        public String text() {
            return text("");
        }

        /** As {@link #text()}, with {@code unit} after the numbers ("1,306 +- 12 us"); "" for a count. */
        public String text(String unit) {
            if (n == 0 || Double.isNaN(mean)) {
                return "-";
            }
            String u = unit == null || unit.isEmpty() ? "" : " " + unit;
            double hw = halfWidth();
            return Double.isFinite(hw) && hw > 0 ? plain(mean) + " +- " + plain(hw) + u : plain(mean) + u;
        }
    }

    /**
     * A number as people write it: thousands separated, four significant digits below 1,000, no
     * exponent ("10,610", "130.6", "0.01523", "0"); infinite values as "inf".
     */
    public static String plain(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        if (v == Math.rint(v) || Math.abs(v) >= 1000) {
            return String.format(java.util.Locale.ROOT, "%,.0f", v);
        }
        return new java.math.BigDecimal(v).round(new java.math.MathContext(4)).stripTrailingZeros().toPlainString();
    }

    /**
     * One design point.
     *
     * @param feasible every run of the point finished ok and met every constraint
     * @param pareto   feasible and not dominated on the objectives' means by another feasible point
     *                 (false when the plan has fewer than two objectives)
     */
    public record Point(int point, List<String> values, int runs, int ok, Map<String, Stat> stats, boolean feasible,
                        boolean pareto) {
        public Stat stat(String metric) {
            return stats.get(metric);
        }
    }

    private final SweepPlan plan;
    private final List<RunRow> rows;
    private final List<Point> points;

    private SweepSummary(SweepPlan plan, List<RunRow> rows, List<Point> points) {
        this.plan = plan;
        this.rows = rows;
        this.points = points;
    }

    public SweepPlan plan() {
        return plan;
    }

    /** The runs, ordered by point then seed index. */
    public List<RunRow> rows() {
        return rows;
    }

    /** Every point of the plan in order (a point with no row has runs 0). */
    public List<Point> points() {
        return points;
    }

    /** The summary of the rows in memory (nothing written). Rows may come in any order. */
    public static SweepSummary of(SweepPlan plan, List<RunRow> rows) {
        List<RunRow> sorted = new ArrayList<>(rows);
        sorted.sort(Comparator.comparingInt(RunRow::point).thenComparingInt(RunRow::seedIndex));
        List<String> metrics = plan.summaryMetrics();
        List<List<RunRow>> byPoint = new ArrayList<>();
        for (int p = 0; p < plan.points(); p++) {
            byPoint.add(new ArrayList<>());
        }
        for (RunRow r : sorted) {
            if (r.point() >= 0 && r.point() < plan.points()) {
                byPoint.get(r.point()).add(r);
            }
        }
        List<Point> pts = new ArrayList<>();
        for (int p = 0; p < plan.points(); p++) {
            List<RunRow> rs = byPoint.get(p);
            Map<String, Stat> stats = new LinkedHashMap<>();
            for (String m : metrics) {
                stats.put(m, stat(rs.stream().filter(RunRow::ok).mapToDouble(r -> r.metric(m)).toArray()));
            }
            int ok = (int) rs.stream().filter(RunRow::ok).count();
            boolean feasible = !rs.isEmpty() && ok == rs.size() && rs.stream().allMatch(r -> meets(plan, r));
            pts.add(new Point(p, plan.pointValues(p), rs.size(), ok, stats, feasible, false));
        }
        if (plan.objectives().size() >= 2) {
            pts = pareto(plan, pts);
        }
        return new SweepSummary(plan, List.copyOf(sorted), List.copyOf(pts));
    }

    /** Whether a run meets every constraint of the plan. */
    public static boolean meets(SweepPlan plan, RunRow r) {
        return r.ok() && plan.constraints().stream().allMatch(c -> c.holds(r.metric(c.metric())));
    }

    /** Mean and Student-t interval of the finite values. */
    public static Stat stat(double[] values) {
        SummaryStatistics s = new SummaryStatistics();
        for (double v : values) {
            if (Double.isFinite(v)) {
                s.addValue(v);
            }
        }
        int n = (int) s.getN();
        if (n == 0) {
            return new Stat(0, Double.NaN, Double.NaN, Double.NaN);
        }
        if (n < 2) {
            return new Stat(n, s.getMean(), Double.NaN, Double.NaN);
        }
        double t = new TDistribution(null, n - 1).inverseCumulativeProbability(1 - (1 - CONFIDENCE) / 2);
        double half = t * s.getStandardDeviation() / Math.sqrt(n);
        return new Stat(n, s.getMean(), s.getMean() - half, s.getMean() + half);
    }

    private static List<Point> pareto(SweepPlan plan, List<Point> pts) {
        List<SweepPlan.Objective> objs = plan.objectives();
        List<Point> out = new ArrayList<>();
        for (Point p : pts) {
            boolean front = p.feasible() && objs.stream().allMatch(o -> Double.isFinite(p.stat(o.metric()).mean()));
            if (front) {
                for (Point q : pts) {
                    if (q != p && q.feasible() && dominates(q, p, objs)) {
                        front = false;
                        break;
                    }
                }
            }
            out.add(new Point(p.point(), p.values(), p.runs(), p.ok(), p.stats(), p.feasible(), front));
        }
        return out;
    }

    /** q is at least as good as p on every objective and better on one. */
    static boolean dominates(Point q, Point p, List<SweepPlan.Objective> objs) {
        boolean better = false;
        for (SweepPlan.Objective o : objs) {
            double a = q.stat(o.metric()).mean();
            double b = p.stat(o.metric()).mean();
            if (!Double.isFinite(a)) {
                return false;
            }
            double d = o.minimize() ? b - a : a - b;
            if (d < 0) {
                return false;
            }
            better |= d > 0;
        }
        return better;
    }

    /**
     * Computes the summary and writes {@link #RUNS_CSV}, {@link #POINTS_CSV}, {@link #SUMMARY_JSON}
     * and {@link #WALLCLOCK_CSV} into {@code dir} (created if missing), each atomically.
     */
    public static SweepSummary write(SweepPlan plan, List<RunRow> rows, Path dir) throws IOException {
        SweepSummary s = of(plan, rows);
        Map<Path, AtomicFiles.Content> files = new LinkedHashMap<>();
        files.put(dir.resolve(RUNS_CSV), bytes(s.runsCsv()));
        files.put(dir.resolve(POINTS_CSV), bytes(s.pointsCsv()));
        files.put(dir.resolve(SUMMARY_JSON), bytes(s.json()));
        files.put(dir.resolve(WALLCLOCK_CSV), bytes(s.wallclockCsv()));
        AtomicFiles.writeAll(files);
        return s;
    }

    private static AtomicFiles.Content bytes(String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        return out -> out.write(b);
    }

    /** One line per run: point, seed index, seed, hash, parameter values, status, metrics, feasible, message. */
    public String runsCsv() {
        StringBuilder sb = new StringBuilder();
        List<String> head = new ArrayList<>(List.of("point", "seedIndex", "seed", "hash"));
        head.addAll(plan.parameterPaths());
        head.add("status");
        head.addAll(plan.summaryMetrics());
        head.add("feasible");
        head.add("message");
        line(sb, head);
        for (RunRow r : rows) {
            List<String> cells = new ArrayList<>(List.of(String.valueOf(r.point()), String.valueOf(r.seedIndex()),
                    String.valueOf(r.seed()), r.hash()));
            r.values().forEach(v -> cells.add(unquote(v)));
            cells.add(r.status());
            for (String m : plan.summaryMetrics()) {
                cells.add(r.ok() ? SweepJson.cell(r.metric(m)) : "");
            }
            cells.add(String.valueOf(meets(plan, r)));
            cells.add(r.message());
            line(sb, cells);
        }
        return sb.toString();
    }

    /** One line per point: values, runs, ok runs, then mean, ciLow, ciHigh of each metric, feasible, pareto. */
    public String pointsCsv() {
        StringBuilder sb = new StringBuilder();
        List<String> head = new ArrayList<>(List.of("point"));
        head.addAll(plan.parameterPaths());
        head.add("runs");
        head.add("ok");
        for (String m : plan.summaryMetrics()) {
            head.add(m + ".mean");
            head.add(m + ".ciLow");
            head.add(m + ".ciHigh");
        }
        head.add("feasible");
        head.add("pareto");
        line(sb, head);
        for (Point p : points) {
            List<String> cells = new ArrayList<>(List.of(String.valueOf(p.point())));
            p.values().forEach(v -> cells.add(unquote(v)));
            cells.add(String.valueOf(p.runs()));
            cells.add(String.valueOf(p.ok()));
            for (String m : plan.summaryMetrics()) {
                Stat st = p.stat(m);
                cells.add(SweepJson.cell(st.mean()));
                cells.add(SweepJson.cell(st.ciLow()));
                cells.add(SweepJson.cell(st.ciHigh()));
            }
            cells.add(String.valueOf(p.feasible()));
            cells.add(String.valueOf(p.pareto()));
            line(sb, cells);
        }
        return sb.toString();
    }

    /** The wall-clock fields of every run: point, seed index, hash, wallMillis, ranBy. */
    public String wallclockCsv() {
        StringBuilder sb = new StringBuilder();
        line(sb, List.of("point", "seedIndex", "hash", "wallMillis", "ranBy"));
        for (RunRow r : rows) {
            line(sb, List.of(String.valueOf(r.point()), String.valueOf(r.seedIndex()), r.hash(),
                    String.valueOf(r.wallMillis()), r.ranBy()));
        }
        return sb.toString();
    }

    /** The whole summary as JSON (no wall-clock field). */
    public String json() {
        ObjectNode o = SweepJson.MAPPER.createObjectNode();
        o.put("schemaVersion", 1);
        o.put("name", plan.name());
        o.put("design", plan.design());
        o.put("engine", plan.engine().jsonName());
        o.put("scenario", plan.baseScenarioName());
        ArrayNode params = o.putArray("parameters");
        for (int i = 0; i < plan.parameterPaths().size(); i++) {
            params.addObject().put("path", plan.parameterPaths().get(i)).put("name", plan.parameterNames().get(i));
        }
        ArrayNode seeds = o.putArray("seeds");
        plan.seeds().forEach(seeds::add);
        ArrayNode ms = o.putArray("metrics");
        plan.summaryMetrics().forEach(ms::add);
        ArrayNode cs = o.putArray("constraints");
        for (SweepPlan.Constraint c : plan.constraints()) {
            ObjectNode co = cs.addObject().put("metric", c.metric());
            if (c.min() != null) {
                co.put("min", c.min());
            }
            if (c.max() != null) {
                co.put("max", c.max());
            }
        }
        ArrayNode os = o.putArray("objectives");
        plan.objectives().forEach(ob -> os.addObject().put("metric", ob.metric()).put("goal", ob.minimize() ? "min" : "max"));
        o.put("confidence", CONFIDENCE);
        ArrayNode runs = o.putArray("runs");
        for (RunRow r : rows) {
            ObjectNode ro = runs.addObject();
            ro.put("point", r.point()).put("seedIndex", r.seedIndex()).put("seed", r.seed()).put("hash", r.hash());
            ArrayNode vs = ro.putArray("values");
            r.values().forEach(v -> vs.add(literal(v)));
            ro.put("status", r.status());
            ObjectNode mo = ro.putObject("metrics");
            for (String m : plan.summaryMetrics()) {
                num(mo, m, r.ok() ? r.metric(m) : Double.NaN);
            }
            ro.put("feasible", meets(plan, r));
            ro.put("message", r.message());
        }
        ArrayNode pts = o.putArray("points");
        for (Point p : points) {
            ObjectNode po = pts.addObject();
            po.put("point", p.point());
            ArrayNode vs = po.putArray("values");
            p.values().forEach(v -> vs.add(literal(v)));
            po.put("runs", p.runs()).put("ok", p.ok());
            ObjectNode mo = po.putObject("metrics");
            for (String m : plan.summaryMetrics()) {
                Stat st = p.stat(m);
                ObjectNode so = mo.putObject(m);
                so.put("n", st.n());
                num(so, "mean", st.mean());
                num(so, "ciLow", st.ciLow());
                num(so, "ciHigh", st.ciHigh());
            }
            po.put("feasible", p.feasible()).put("pareto", p.pareto());
        }
        try {
            return SweepJson.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(o) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static com.fasterxml.jackson.databind.JsonNode literal(String v) {
        try {
            return SweepJson.MAPPER.readTree(v);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void num(ObjectNode o, String k, double v) {
        if (Double.isFinite(v)) {
            o.put(k, v);
        } else {
            o.putNull(k);
        }
    }

    /** A string value without its JSON quotes, for a CSV cell; other literals as they are. */
    private static String unquote(String literal) {
        if (literal.length() >= 2 && literal.startsWith("\"") && literal.endsWith("\"")) {
            return literal(literal).asText();
        }
        return literal;
    }

    /** RFC 4180: a cell with a comma, quote or line break is quoted, quotes doubled; lines end with CRLF-free \n. */
    private static void line(StringBuilder sb, List<String> cells) {
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            String c = cells.get(i) == null ? "" : cells.get(i);
            if (c.indexOf(',') >= 0 || c.indexOf('"') >= 0 || c.indexOf('\n') >= 0 || c.indexOf('\r') >= 0) {
                sb.append('"').append(c.replace("\"", "\"\"")).append('"');
            } else {
                sb.append(c);
            }
        }
        sb.append('\n');
    }
}
