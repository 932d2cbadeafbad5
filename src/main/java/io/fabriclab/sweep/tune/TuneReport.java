package io.fabriclab.sweep.tune;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabriclab.io.AtomicFiles;
import io.fabriclab.io.FabricJson;
import io.fabriclab.io.FabricReader;
import io.fabriclab.io.JsonInput;
import io.fabriclab.io.Scenario;
import io.fabriclab.io.ScenarioJson;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Port;
import io.fabriclab.model.QosProfile;
import io.fabriclab.sweep.SweepCharts;
import io.fabriclab.sweep.SweepSummary;

/**
 * What the tuner writes (docs/sweep.md, "Tuner output"): the search trace (CSV and chart), the
 * before/after table (JSON), and the recommended QoS as a fabric file (every QoS profile of the
 * scenario's fabric replaced by the profile the best candidate ran with), which
 * {@code fabriclab export-config} turns into SONiC, EOS or NX-OS configuration, plus a scenario
 * that runs it.
 */
public final class TuneReport {
    public static final String TRACE_CSV = "tune-trace.csv";
    public static final String TRACE_CHART = "tune-trace";
    public static final String RESULT_JSON = "tune.json";
    public static final String FABRIC = "recommended-fabric.json";
    public static final String SCENARIO = "recommended-scenario.json";

    private static final ObjectMapper JSON = JsonInput.jsonMapper(64L * 1024 * 1024);

    private TuneReport() {
    }

    /** Writes every file into {@code dir}; the recommended fabric and scenario only when the verdict recommends. */
    public static void write(Tuner.Outcome o, Path scenarioFile, Path dir) throws IOException {
        AtomicFiles.write(dir.resolve(TRACE_CSV), traceCsv(o).getBytes(StandardCharsets.UTF_8));
        SweepCharts.writeChart(traceChart(o), dir, TRACE_CHART);
        AtomicFiles.write(dir.resolve(RESULT_JSON), json(o).getBytes(StandardCharsets.UTF_8));
        if (o.improved()) {
            Fabric f = recommendedFabric(o);
            FabricJson.save(f, dir.resolve(FABRIC));
            ObjectNode sc = (ObjectNode) JSON.readTree(Files.readString(scenarioFile, StandardCharsets.UTF_8));
            sc.put("name", "tuned: " + sc.path("name").asText(scenarioFile.getFileName().toString()));
            sc.put("fabric", FABRIC);
            sc.remove("profile");
            sc.remove("qos");
            AtomicFiles.write(dir.resolve(SCENARIO), (JSON.writerWithDefaultPrettyPrinter().writeValueAsString(sc) + "\n")
                    .getBytes(StandardCharsets.UTF_8));
        } else {
            Files.deleteIfExists(dir.resolve(FABRIC));
            Files.deleteIfExists(dir.resolve(SCENARIO));
        }
    }

    /**
     * The scenario's fabric with each QoS profile replaced by what the best candidate's ports ran
     * with (the scenario's simulation profile and overrides applied, then the tuned values).
     */
    public static Fabric recommendedFabric(Tuner.Outcome o) {
        Scenario best = ScenarioJson.parse(o.bestSpec().scenarioJson(), "best candidate", null, FabricReader.FILES, null);
        Fabric f = best.fabric().copy();
        Map<String, QosProfile> tuned = new LinkedHashMap<>();
        for (Device d : f.devices()) {
            for (Port p : d.ports()) {
                if (f.linkAt(p) == null) {
                    continue;
                }
                String name = f.qosFor(p).name();
                tuned.putIfAbsent(name, best.qos().qosFor(best.fabric().port(p.ref())));
            }
        }
        for (Map.Entry<String, QosProfile> e : tuned.entrySet()) {
            QosProfile q = e.getValue();
            f.putQosProfile(new QosProfile(e.getKey(), "tuned by fabriclab tune: " + q.description(), q.pfc(), q.ecn(),
                    q.dcqcn(), q.buffer(), q.scheduler()));
        }
        return f;
    }

    static String traceCsv(Tuner.Outcome o) {
        StringBuilder sb = new StringBuilder("evaluation");
        for (String p : o.paths()) {
            sb.append(',').append(p);
        }
        String m = o.settings().objective();
        sb.append(',').append(m).append(".mean,").append(m).append(".ciLow,").append(m).append(".ciHigh,feasible,score,bestSoFar\n");
        double best = Double.POSITIVE_INFINITY;
        for (Tuner.Evaluation e : o.trace()) {
            if (e.feasible()) {
                best = Math.min(best, e.score());
            }
            sb.append(e.index());
            for (String v : Tuner.values(o, e)) {
                sb.append(',').append(v);
            }
            sb.append(',').append(cell(e.objective().mean())).append(',').append(cell(e.objective().ciLow())).append(',')
                    .append(cell(e.objective().ciHigh())).append(',').append(e.feasible()).append(',').append(cell(e.score()))
                    .append(',').append(cell(o.settings().minimize() ? best : -best)).append('\n');
        }
        return sb.toString();
    }

    private static String cell(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.6g", v) : "";
    }

    static JFreeChart traceChart(Tuner.Outcome o) {
        String m = o.settings().objective();
        XYSeries ok = new XYSeries("candidate (feasible)", false, true);
        XYSeries bad = new XYSeries("candidate (breaks a constraint)", false, true);
        XYSeries best = new XYSeries("best feasible so far", false, true);
        double b = Double.NaN;
        for (Tuner.Evaluation e : o.trace()) {
            double y = e.objective().mean();
            if (Double.isFinite(y)) {
                (e.feasible() ? ok : bad).add(e.index(), y);
            }
            if (e.feasible() && (Double.isNaN(b) || (o.settings().minimize() ? y < b : y > b))) {
                b = y;
            }
            if (!Double.isNaN(b)) {
                best.add(e.index(), b);
            }
        }
        XYSeriesCollection data = new XYSeriesCollection();
        data.addSeries(best);
        data.addSeries(ok);
        data.addSeries(bad);
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer();
        r.setSeriesLinesVisible(0, true);
        r.setSeriesShapesVisible(0, false);
        r.setSeriesLinesVisible(1, false);
        r.setSeriesLinesVisible(2, false);
        r.setSeriesPaint(0, new Color(0xd62728));
        r.setSeriesStroke(0, new BasicStroke(2f));
        r.setSeriesPaint(1, new Color(0x1f77b4));
        r.setSeriesPaint(2, new Color(0xaaaaaa));
        NumberAxis x = new NumberAxis("evaluation (each over " + o.settings().searchSeeds().size() + " search seeds)");
        x.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        NumberAxis y = new NumberAxis(m + " mean (" + (o.settings().minimize() ? "lower" : "higher") + " is better)");
        y.setAutoRangeIncludesZero(false);
        XYPlot plot = new XYPlot(data, x, y, r);
        io.fabriclab.sweep.SweepCharts.plainAxis(y);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(new Color(0xdddddd));
        plot.setRangeGridlinePaint(new Color(0xdddddd));
        ValueMarker start = new ValueMarker(o.start().objective().mean(), new Color(0x555555), new BasicStroke(1.2f,
                BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
        start.setLabel("start (the scenario's thresholds)");
        start.setLabelAnchor(org.jfree.chart.ui.RectangleAnchor.TOP_RIGHT);
        start.setLabelTextAnchor(org.jfree.chart.ui.TextAnchor.BOTTOM_RIGHT);
        plot.addRangeMarker(start);
        JFreeChart c = new JFreeChart("Tuner trace: " + m + " (BOBYQA, " + o.trace().size() + " evaluations)",
                JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        c.setBackgroundPaint(Color.WHITE);
        return c;
    }

    static String json(Tuner.Outcome o) throws IOException {
        ObjectNode j = JSON.createObjectNode();
        j.put("objective", o.settings().objective()).put("goal", o.settings().minimize() ? "min" : "max");
        ArrayNode cs = j.putArray("constraints");
        o.settings().constraints().forEach(c -> cs.add(c.toString()));
        ArrayNode ss = j.putArray("searchSeeds");
        o.settings().searchSeeds().forEach(ss::add);
        ArrayNode hs = j.putArray("holdoutSeeds");
        o.settings().holdoutSeeds().forEach(hs::add);
        j.put("evaluations", o.trace().size()).put("budget", o.settings().budget());
        ArrayNode ks = j.putArray("knobs");
        List<String> sv = Tuner.values(o, o.start());
        List<String> bv = Tuner.values(o, o.best());
        for (int i = 0; i < o.knobs().size(); i++) {
            Tuner.Knob k = o.knobs().get(i);
            ks.addObject().put("name", k.name()).put("path", k.path()).put("range", k.why())
                    .put("start", sv.get(i)).put("recommended", bv.get(i));
        }
        j.set("startHoldout", holdout(o.startHoldout()));
        j.set("bestHoldout", holdout(o.bestHoldout()));
        if (Double.isFinite(o.pValue())) {
            j.put("pValue", o.pValue());
        }
        j.put("improved", o.improved()).put("verdict", o.verdict());
        ArrayNode worse = j.putArray("worsened");
        worsened(o, shownMetrics(o)).forEach(worse::add);
        ArrayNode notes = j.putArray("notes");
        o.notes().forEach(notes::add);
        return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(j) + "\n";
    }

    private static ObjectNode holdout(Tuner.Holdout h) {
        ObjectNode n = JSON.createObjectNode();
        SweepSummary.Stat s = h.objective();
        n.put("n", s.n());
        put(n, "mean", s.mean());
        put(n, "ciLow", s.ciLow());
        put(n, "ciHigh", s.ciHigh());
        n.put("feasible", h.feasible());
        ArrayNode runs = n.putArray("runs");
        h.rows().forEach(r -> {
            ObjectNode ro = runs.addObject().put("seed", r.seed()).put("status", r.status());
            r.metrics().forEach((k, v) -> put(ro, k, v));
        });
        return n;
    }

    private static void put(ObjectNode n, String k, double v) {
        if (Double.isFinite(v)) {
            n.put(k, v);
        } else {
            n.putNull(k);
        }
    }

    /** Rows of the before/after table: metric, start mean +- half, best mean +- half (hold-out seeds). */
    public static List<String[]> beforeAfter(Tuner.Outcome o, List<String> metrics) {
        List<String[]> rows = new ArrayList<>();
        for (String m : metrics) {
            String unit = io.fabriclab.sweep.SweepMetrics.unit(m);
            rows.add(new String[] {m, holdout(o.startHoldout(), m).text(unit), holdout(o.bestHoldout(), m).text(unit)});
        }
        return rows;
    }

    private static SweepSummary.Stat holdout(Tuner.Holdout h, String m) {
        return SweepSummary.stat(h.rows().stream().filter(r -> r.ok()).mapToDouble(r -> r.metric(m)).toArray());
    }

    /** A metric that got worse by more than this share of the start's value is flagged. */
    public static final double WORSE_SHARE = 0.05;

    /**
     * Every metric of {@code metrics} the recommendation makes worse on the hold-out seeds, by more
     * than {@link #WORSE_SHARE} of the start's mean: "fctP99Us 120 -> 217 us (+81 %)". A tuner that
     * removes pauses while the tail FCT rises says so next to its verdict (issue 35 item 10).
     */
    public static List<String> worsened(Tuner.Outcome o, List<String> metrics) {
        List<String> out = new ArrayList<>();
        if (o.best() == o.start()) {
            return out;
        }
        for (String m : metrics) {
            SweepSummary.Stat a = holdout(o.startHoldout(), m);
            SweepSummary.Stat b = holdout(o.bestHoldout(), m);
            if (a.n() == 0 || b.n() == 0 || !Double.isFinite(a.mean()) || !Double.isFinite(b.mean())) {
                continue;
            }
            double change = b.mean() - a.mean();
            boolean worse = io.fabriclab.sweep.SweepMetrics.higherIsBetter(m) ? change < 0 : change > 0;
            double share = a.mean() == 0 ? Double.POSITIVE_INFINITY : Math.abs(change) / Math.abs(a.mean());
            if (worse && share > WORSE_SHARE) {
                String unit = io.fabriclab.sweep.SweepMetrics.unit(m);
                out.add(m + " " + SweepSummary.plain(a.mean()) + " -> " + SweepSummary.plain(b.mean())
                        + (unit.isEmpty() ? "" : " " + unit)
                        + (Double.isInfinite(share) ? " (from 0)" : String.format(java.util.Locale.ROOT, " (%+.0f %%)",
                        100 * change / Math.abs(a.mean()))));
            }
        }
        return out;
    }

    /** The metrics a tune's result is shown with: the objective, the constraints', then the usual four. */
    public static List<String> shownMetrics(Tuner.Outcome o) {
        List<String> ms = new ArrayList<>(List.of(o.settings().objective()));
        o.settings().constraints().forEach(c -> ms.add(c.metric()));
        ms.addAll(List.of("fctP99Us", "fctP50Us", "pausedUs", "ecnMarked", "drops", "meanThroughputGbps"));
        return ms.stream().distinct().toList();
    }

}
