package io.fabriclab.sweep;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Paint;
import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import javax.imageio.ImageIO;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.LookupPaintScale;
import org.jfree.chart.renderer.xy.XYBlockRenderer;
import org.jfree.chart.renderer.xy.XYErrorRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.PaintScaleLegend;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.data.xy.DefaultXYZDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;
import org.jfree.svg.SVGGraphics2D;

import io.fabriclab.io.AtomicFiles;

/**
 * The sweep's charts, drawn by JFreeChart and written as SVG and PNG (docs/sweep.md, "Charts"):
 * each metric over the first parameter (mean and 95 % interval over seeds, one line per value of the
 * second parameter), a heatmap of the first metric over the first two parameters of a grid, and the
 * Pareto front of the first two objectives.
 */
public final class SweepCharts {
    public static final int WIDTH = 720;
    public static final int HEIGHT = 420;
    /** Lines drawn for the second parameter's values; more are left out (the table has them all). */
    static final int MAX_LINES = 8;

    private static final Color[] PALETTE = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
        new Color(0xff7f0e), new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x17becf)};
    private static final Font TITLE = new Font("SansSerif", Font.BOLD, 14);
    private static final Font LABEL = new Font("SansSerif", Font.PLAIN, 12);

    private SweepCharts() {
    }

    /**
     * Draws every chart the summary allows into {@code dir} (created if missing), each as
     * {@code NAME.svg} and {@code NAME.png}; returns the chart names (without extension), in order.
     */
    public static List<String> write(SweepSummary s, Path dir) throws IOException {
        Map<String, JFreeChart> charts = charts(s);
        for (Map.Entry<String, JFreeChart> e : charts.entrySet()) {
            writeChart(e.getValue(), dir, e.getKey());
        }
        return List.copyOf(charts.keySet());
    }

    /** A chart as an SVG document; {@code id} keeps its clip paths apart from other charts on one page. */
    public static String svg(JFreeChart c, String id) {
        SVGGraphics2D g = new SVGGraphics2D(WIDTH, HEIGHT);
        g.setDefsKeyPrefix(id + "-");
        c.draw(g, new Rectangle(0, 0, WIDTH, HEIGHT));
        return g.getSVGElement(id);
    }

    /** Writes one chart as NAME.svg and NAME.png, atomically. */
    public static void writeChart(JFreeChart c, Path dir, String name) throws IOException {
        SVGGraphics2D g = new SVGGraphics2D(WIDTH, HEIGHT);
        g.setDefsKeyPrefix(name + "-");
        c.draw(g, new Rectangle(0, 0, WIDTH, HEIGHT));
        byte[] svg = g.getSVGDocument().getBytes(StandardCharsets.UTF_8);
        BufferedImage img = c.createBufferedImage(WIDTH, HEIGHT);
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        ImageIO.write(img, "png", png);
        AtomicFiles.write(dir.resolve(name + ".svg"), svg);
        AtomicFiles.write(dir.resolve(name + ".png"), png.toByteArray());
    }

    /** The charts by file name. */
    public static Map<String, JFreeChart> charts(SweepSummary s) {
        SweepPlan plan = s.plan();
        Map<String, JFreeChart> out = new LinkedHashMap<>();
        if (plan.parameterPaths().isEmpty() || s.points().isEmpty()) {
            return out;
        }
        for (String m : plan.metrics()) {
            out.put(slug(m) + "-by-" + slug(plan.parameterNames().get(0)), overFirstParameter(s, m));
        }
        if (plan.parameterPaths().size() >= 2 && plan.design().equals("grid")) {
            String m = plan.objectives().isEmpty() ? plan.metrics().get(0) : plan.objectives().get(0).metric();
            out.put("heatmap-" + slug(m), heatmap(s, m));
        }
        if (plan.objectives().size() >= 2) {
            out.put("pareto-" + slug(plan.objectives().get(0).metric()) + "-" + slug(plan.objectives().get(1).metric()),
                    pareto(s));
        }
        return out;
    }

    /** A metric's mean with its interval over the first parameter; one line per value of the second. */
    static JFreeChart overFirstParameter(SweepSummary s, String metric) {
        SweepPlan plan = s.plan();
        Axis x = axis(s, 0);
        Map<String, YIntervalSeries> lines = new LinkedHashMap<>();
        for (SweepSummary.Point p : s.points()) {
            SweepSummary.Stat st = p.stat(metric);
            if (st.n() == 0 || !Double.isFinite(st.mean())) {
                continue;
            }
            String key = p.values().size() >= 2 ? plan.parameterNames().get(1) + " = " + label(p.values().get(1)) : metric;
            if (!lines.containsKey(key) && lines.size() >= MAX_LINES) {
                continue;
            }
            YIntervalSeries ser = lines.computeIfAbsent(key, k -> new YIntervalSeries(k));
            double lo = Double.isFinite(st.ciLow()) ? st.ciLow() : st.mean();
            double hi = Double.isFinite(st.ciHigh()) ? st.ciHigh() : st.mean();
            ser.add(x.value(p.values().get(0)), st.mean(), lo, hi);
        }
        YIntervalSeriesCollection data = new YIntervalSeriesCollection();
        lines.values().forEach(data::addSeries);
        XYErrorRenderer r = new XYErrorRenderer();
        r.setDefaultLinesVisible(true);
        r.setDrawXError(false);
        r.setCapLength(6);
        for (int i = 0; i < PALETTE.length; i++) {
            r.setSeriesPaint(i, PALETTE[i]);
            r.setSeriesStroke(i, new BasicStroke(1.5f));
        }
        NumberAxis y = new NumberAxis(metric + " (mean, 95 % interval over " + plan.seeds().size() + " seeds)");
        y.setAutoRangeIncludesZero(false);
        XYPlot plot = new XYPlot(data, x.axis, y, r);
        return finish(new JFreeChart(metric + " over " + plan.parameterNames().get(0), TITLE, plot, lines.size() > 1));
    }

    /** The first two parameters of a grid as cells coloured by the metric's mean (grey: no ok run). */
    static JFreeChart heatmap(SweepSummary s, String metric) {
        SweepPlan plan = s.plan();
        List<String> xs = distinct(s, 0);
        List<String> ys = distinct(s, 1);
        Map<String, double[]> cell = new LinkedHashMap<>();
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (SweepSummary.Point p : s.points()) {
            double v = p.stat(metric).mean();
            String k = p.values().get(0) + "|" + p.values().get(1);
            double[] acc = cell.computeIfAbsent(k, q -> new double[2]);
            if (Double.isFinite(v)) {
                // Further parameters are averaged over (the table has every point).
                acc[0] += v;
                acc[1]++;
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
        }
        int n = xs.size() * ys.size();
        double[][] xyz = new double[3][n];
        int i = 0;
        for (int a = 0; a < xs.size(); a++) {
            for (int b = 0; b < ys.size(); b++) {
                double[] acc = cell.get(xs.get(a) + "|" + ys.get(b));
                xyz[0][i] = a;
                xyz[1][i] = b;
                xyz[2][i] = acc == null || acc[1] == 0 ? Double.NaN : acc[0] / acc[1];
                i++;
            }
        }
        DefaultXYZDataset data = new DefaultXYZDataset();
        data.addSeries(metric, xyz);
        if (!(min < max)) {
            min = Double.isFinite(min) ? min - 1 : 0;
            max = Double.isFinite(max) ? max + 1 : 1;
        }
        LookupPaintScale scale = new LookupPaintScale(min, max, new Color(0xcccccc));
        int steps = 32;
        for (int k = 0; k < steps; k++) {
            double t = (double) k / (steps - 1);
            scale.add(min + (max - min) * k / steps, viridis(t));
        }
        XYBlockRenderer r = new XYBlockRenderer();
        r.setPaintScale(scale);
        SymbolAxis xa = new SymbolAxis(plan.parameterNames().get(0), xs.stream().map(SweepCharts::label).toArray(String[]::new));
        SymbolAxis ya = new SymbolAxis(plan.parameterNames().get(1), ys.stream().map(SweepCharts::label).toArray(String[]::new));
        xa.setGridBandsVisible(false);
        ya.setGridBandsVisible(false);
        XYPlot plot = new XYPlot(data, xa, ya, r);
        plot.setBackgroundPaint(Color.WHITE);
        JFreeChart c = new JFreeChart(metric + " (mean over seeds) by " + plan.parameterNames().get(0) + " and "
                + plan.parameterNames().get(1), TITLE, plot, false);
        NumberAxis legendAxis = new NumberAxis(metric);
        PaintScaleLegend legend = new PaintScaleLegend(scale, legendAxis);
        legend.setPosition(RectangleEdge.RIGHT);
        legend.setMargin(4, 4, 4, 4);
        legend.setStripWidth(14);
        c.addSubtitle(legend);
        return finish(c);
    }

    /** Every point's means on the first two objectives: infeasible grey, feasible blue, the front red and joined. */
    static JFreeChart pareto(SweepSummary s) {
        SweepPlan plan = s.plan();
        SweepPlan.Objective a = plan.objectives().get(0);
        SweepPlan.Objective b = plan.objectives().get(1);
        XYSeries front = new XYSeries("Pareto front", true, true);
        XYSeries feasible = new XYSeries("feasible", false, true);
        XYSeries infeasible = new XYSeries("violates a constraint", false, true);
        for (SweepSummary.Point p : s.points()) {
            double x = p.stat(a.metric()).mean();
            double y = p.stat(b.metric()).mean();
            if (!Double.isFinite(x) || !Double.isFinite(y)) {
                continue;
            }
            (p.pareto() ? front : p.feasible() ? feasible : infeasible).add(x, y);
        }
        XYSeriesCollection data = new XYSeriesCollection();
        data.addSeries(front);
        data.addSeries(feasible);
        data.addSeries(infeasible);
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer();
        r.setSeriesLinesVisible(0, true);
        r.setSeriesLinesVisible(1, false);
        r.setSeriesLinesVisible(2, false);
        r.setSeriesPaint(0, PALETTE[1]);
        r.setSeriesPaint(1, PALETTE[0]);
        r.setSeriesPaint(2, new Color(0xaaaaaa));
        NumberAxis x = new NumberAxis(a.metric() + " (" + (a.minimize() ? "lower" : "higher") + " is better)");
        NumberAxis y = new NumberAxis(b.metric() + " (" + (b.minimize() ? "lower" : "higher") + " is better)");
        x.setAutoRangeIncludesZero(false);
        y.setAutoRangeIncludesZero(false);
        XYPlot plot = new XYPlot(data, x, y, r);
        return finish(new JFreeChart("Pareto front: " + a.metric() + " vs " + b.metric(), TITLE, plot, true));
    }

    /** The x axis of a parameter: numeric (log when the values span more than 20x), else its values as symbols. */
    private record Axis(ValueAxis axis, List<String> symbols) {
        double value(String literal) {
            if (symbols == null) {
                return Double.parseDouble(literal);
            }
            return symbols.indexOf(literal);
        }
    }

    private static Axis axis(SweepSummary s, int param) {
        String name = s.plan().parameterNames().get(param);
        List<String> vals = distinct(s, param);
        boolean numeric = vals.stream().allMatch(v -> v.matches("-?[0-9.eE+-]+"));
        if (numeric) {
            double lo = vals.stream().mapToDouble(Double::parseDouble).min().orElse(0);
            double hi = vals.stream().mapToDouble(Double::parseDouble).max().orElse(1);
            if (lo > 0 && hi / lo > 20) {
                LogAxis ax = new LogAxis(name + " (log scale)");
                ax.setSmallestValue(lo / 2);
                return new Axis(ax, null);
            }
            NumberAxis ax = new NumberAxis(name);
            ax.setAutoRangeIncludesZero(false);
            return new Axis(ax, null);
        }
        return new Axis(new SymbolAxis(name, vals.stream().map(SweepCharts::label).toArray(String[]::new)), vals);
    }

    private static List<String> distinct(SweepSummary s, int param) {
        List<String> out = new ArrayList<>();
        for (SweepSummary.Point p : s.points()) {
            String v = p.values().get(param);
            if (!out.contains(v)) {
                out.add(v);
            }
        }
        if (out.stream().allMatch(v -> v.matches("-?[0-9.eE+-]+"))) {
            out.sort((u, v) -> Double.compare(Double.parseDouble(u), Double.parseDouble(v)));
        }
        return out;
    }

    private static String label(String literal) {
        return literal.startsWith("\"") && literal.endsWith("\"") && literal.length() >= 2
                ? literal.substring(1, literal.length() - 1) : literal;
    }

    /**
     * A value axis of plain numbers ("1,306", not "1.30603E3") that never zooms into a flat series:
     * at least 10 % of the values' size (or 1) is shown, so all ticks do not read the same number.
     */
    public static void plainAxis(org.jfree.chart.axis.ValueAxis axis) {
        if (axis instanceof NumberAxis a) {
            java.text.DecimalFormat f = new java.text.DecimalFormat("#,##0.###",
                    java.text.DecimalFormatSymbols.getInstance(Locale.ROOT));
            a.setNumberFormatOverride(f);
            org.jfree.data.Range r = a.getRange();
            double size = Math.max(Math.abs(r.getLowerBound()), Math.abs(r.getUpperBound()));
            a.setAutoRangeMinimumSize(Math.max(1e-9, size > 0 ? size * 0.1 : 1));
        }
    }

    private static JFreeChart finish(JFreeChart c) {
        c.setBackgroundPaint(Color.WHITE);
        c.setAntiAlias(true);
        c.setTextAntiAlias(true);
        if (c.getPlot() instanceof XYPlot p) {
            for (int i = 0; i < p.getRangeAxisCount(); i++) {
                if (p.getRangeAxis(i) != null) {
                    plainAxis(p.getRangeAxis(i));
                }
            }
            plainAxis(p.getDomainAxis());
            p.setBackgroundPaint(Color.WHITE);
            p.setDomainGridlinePaint(new Color(0xdddddd));
            p.setRangeGridlinePaint(new Color(0xdddddd));
            p.getDomainAxis().setLabelFont(LABEL);
            p.getRangeAxis().setLabelFont(LABEL);
        }
        return c;
    }

    private static String slug(String s) {
        String t = s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
        return t.isEmpty() ? "x" : t.length() > 40 ? t.substring(0, 40) : t;
    }

    /** A perceptually even dark-blue to yellow scale (viridis, five anchors interpolated). */
    static Paint viridis(double t) {
        int[][] anchors = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
        double x = Math.max(0, Math.min(1, t)) * (anchors.length - 1);
        int i = Math.min(anchors.length - 2, (int) Math.floor(x));
        double f = x - i;
        int[] a = anchors[i];
        int[] b = anchors[i + 1];
        return new Color((int) Math.round(a[0] + f * (b[0] - a[0])), (int) Math.round(a[1] + f * (b[1] - a[1])),
                (int) Math.round(a[2] + f * (b[2] - a[2])));
    }
}
