package io.fabriclab.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Rectangle;
import java.util.Comparator;
import java.util.List;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.svg.SVGGraphics2D;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Port;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.WredEcn;
import io.fabriclab.sim.QosResolver;
import io.fabriclab.sim.SimResults;

/**
 * The report's charts, drawn by JFreeChart into SVG (JFreeSVG) so they stay vectors with real text
 * in the HTML and the PDF. Each chart gets its own id prefix, so clip paths of several charts in one
 * page never collide. Names (ports, labels) reach the SVG only through JFreeSVG, which escapes them.
 */
final class ResultsCharts {
    static final int WIDTH = 680;
    static final int HEIGHT = 300;
    /** Queues, ports and links shown in one chart. */
    static final int TOP = 4;
    static final int TOP_BARS = 10;
    /** Points drawn per series. */
    static final int MAX_POINTS = 300;

    private static final Color[] PALETTE = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
        new Color(0xff7f0e), new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x17becf)};
    private static final Font TITLE = new Font("SansSerif", Font.BOLD, 13);
    private static final Font LABEL = new Font("SansSerif", Font.PLAIN, 11);
    private static final Font TICK = new Font("SansSerif", Font.PLAIN, 10);

    private int counter;
    private final String prefix;

    ResultsCharts(String prefix) {
        this.prefix = prefix;
    }

    /** Egress queue depth over time of the deepest queues, with the ECN Kmin/Kmax and PFC XOFF of the first. */
    String queueDepth(ReportRun run, Fabric fabric) {
        List<SimResults.QueueResult> qs = run.results().queues().stream().filter(q -> q.depthBytes() != null && q.maxBytes() > 0)
                .sorted(Comparator.comparingLong(SimResults.QueueResult::maxBytes).reversed()).limit(TOP).toList();
        if (qs.isEmpty()) {
            return null;
        }
        XYSeriesCollection data = new XYSeriesCollection();
        for (SimResults.QueueResult q : qs) {
            SimResults.Series ser = q.depthBytes();
            data.addSeries(thin(q.port() + " > " + q.peer() + " tc" + q.trafficClass(), ser.timesPs(), ser.values(), 1e-3, true));
        }
        NumberAxis x = new NumberAxis("time (us)");
        NumberAxis y = new NumberAxis("queue depth (KB)");
        XYLineAndShapeRenderer r = pathRenderer();
        XYPlot plot = new XYPlot(data, x, y, r);
        style(plot, r);
        QosResolver qos = run.qos(fabric);
        Port p = fabric.port(qs.get(0).port());
        QosProfile profile = p == null ? null : qos.qosFor(p);
        double maxDepth = qs.get(0).maxBytes() / 1e3;
        if (profile != null) {
            int tc = qs.get(0).trafficClass();
            WredEcn curve = profile.ecn() == null ? null : profile.ecn().forClass(tc);
            if (curve != null) {
                marker(plot, curve.kminBytes() / 1e3, "ECN Kmin " + Fmt.bytes(curve.kminBytes()), new Color(0xb8860b));
                marker(plot, curve.kmaxBytes() / 1e3, "ECN Kmax " + Fmt.bytes(curve.kmaxBytes()), new Color(0x8b4513));
                maxDepth = Math.max(maxDepth, curve.kmaxBytes() / 1e3);
            }
            if (profile.pfc() != null && profile.pfc().isLossless(tc)) {
                ValueMarker xoff = marker(plot, profile.pfc().xoffBytes() / 1e3, "PFC XOFF (ingress) "
                        + Fmt.bytes(profile.pfc().xoffBytes()), new Color(0xcc0000));
                // below its line, so it never sits on the Kmin label just above
                xoff.setLabelAnchor(RectangleAnchor.BOTTOM_LEFT);
                xoff.setLabelTextAnchor(TextAnchor.TOP_LEFT);
                maxDepth = Math.max(maxDepth, profile.pfc().xoffBytes() / 1e3);
            }
        }
        y.setRange(0, Math.max(1, maxDepth * 1.15));
        return svg(chart("Egress queue depth over time, deepest " + qs.size() + " queues", plot), HEIGHT + 40);
    }

    /** PFC paused time of the most-paused egress ports. */
    String pauseTime(ReportRun run) {
        List<SimResults.PfcResult> ps = run.results().pfc().stream().filter(p -> p.pausedPs() > 0)
                .sorted(Comparator.comparingLong(SimResults.PfcResult::pausedPs).reversed()).limit(TOP_BARS).toList();
        if (ps.isEmpty()) {
            return null;
        }
        DefaultCategoryDataset d = new DefaultCategoryDataset();
        for (SimResults.PfcResult p : ps) {
            d.addValue(p.pausedPs() / 1e6, "paused time", p.port() + " p" + p.priority());
        }
        return bars("PFC pause time by egress port (us)", "paused (us)", d, false);
    }

    /** ECN-marked packets per queue and CNPs received per NIC, the most first. */
    String ecnAndCnps(ReportRun run) {
        DefaultCategoryDataset d = new DefaultCategoryDataset();
        run.results().queues().stream().filter(q -> q.ecnMarked() > 0)
                .sorted(Comparator.comparingLong(SimResults.QueueResult::ecnMarked).reversed()).limit(TOP_BARS / 2)
                .forEach(q -> d.addValue(q.ecnMarked(), "ECN-marked packets (egress queue)", q.port() + " tc" + q.trafficClass()));
        run.results().nics().stream().filter(n -> n.cnpsReceived() > 0)
                .sorted(Comparator.comparingLong(SimResults.NicResult::cnpsReceived).reversed()).limit(TOP_BARS / 2)
                .forEach(n -> d.addValue(n.cnpsReceived(), "CNPs received (sender NIC)", n.port()));
        if (d.getColumnCount() == 0) {
            return null;
        }
        return bars("ECN marks and CNPs", "packets", d, true);
    }

    /** Throughput over time of the busiest link directions. */
    String throughput(ReportRun run) {
        List<SimResults.LinkResult> ls = run.results().links().stream().filter(l -> l.utilization() != null)
                .sorted(Comparator.comparingDouble(SimResults.LinkResult::meanUtilization).reversed()).limit(TOP).toList();
        if (ls.isEmpty()) {
            return null;
        }
        XYSeriesCollection data = new XYSeriesCollection();
        for (SimResults.LinkResult l : ls) {
            SimResults.Series ser = l.utilization();
            data.addSeries(thin(l.from() + " > " + l.to() + " (" + l.speedGbps() + "G)", ser.timesPs(), ser.values(),
                    l.speedGbps(), false));
        }
        XYLineAndShapeRenderer r = pathRenderer();
        XYPlot plot = new XYPlot(data, new NumberAxis("time (us)"), new NumberAxis("throughput (Gb/s, on the wire)"), r);
        style(plot, r);
        return svg(chart("Throughput of the busiest link directions", plot), HEIGHT);
    }

    /** Flow completion time distribution (CDF) of one or more runs. */
    String fctCdf(List<ReportRun> runs) {
        XYSeriesCollection data = new XYSeriesCollection();
        double min = Double.MAX_VALUE;
        for (ReportRun run : runs) {
            double[] fct = run.results().flows().stream().filter(f -> f.fctPs() >= 0).mapToDouble(f -> f.fctPs() / 1e6)
                    .sorted().toArray();
            if (fct.length == 0) {
                continue;
            }
            XYSeries s = new XYSeries(run.label(), false, true);
            int step = Math.max(1, fct.length / MAX_POINTS);
            for (int i = 0; i < fct.length; i++) {
                if (i % step != 0 && i != fct.length - 1) {
                    continue;
                }
                if (s.getItemCount() > 0) {
                    s.add(Math.max(fct[i], 0.01), s.getY(s.getItemCount() - 1).doubleValue());
                }
                s.add(Math.max(fct[i], 0.01), (i + 1) / (double) fct.length);
                min = Math.min(min, Math.max(fct[i], 0.01));
            }
            data.addSeries(s);
        }
        if (data.getSeriesCount() == 0) {
            return null;
        }
        LogAxis x = new LogAxis("flow completion time (us, log scale)");
        x.setSmallestValue(0.01);
        NumberAxis y = new NumberAxis("fraction of completed flows");
        y.setRange(0, 1.02);
        XYLineAndShapeRenderer r = pathRenderer();
        XYPlot plot = new XYPlot(data, x, y, r);
        style(plot, r);
        return svg(chart("Flow completion time, cumulative distribution", plot), HEIGHT);
    }

    /** Bus bandwidth of each collective (GB/s, as nccl-tests reports it). */
    String collectives(List<ReportRun> runs) {
        DefaultCategoryDataset d = new DefaultCategoryDataset();
        for (ReportRun run : runs) {
            for (SimResults.CollectiveResult c : run.results().collectives()) {
                d.addValue(c.busbwGBps(), runs.size() > 1 ? run.label() : "bus bandwidth", c.kind() + ":" + c.name());
            }
        }
        if (d.getColumnCount() == 0) {
            return null;
        }
        return bars("Collective bus bandwidth (GB/s)", "busbw (GB/s)", d, runs.size() > 1);
    }

    /** One figure per run, side by side: FCT p50 / p99 / max. */
    String compareFct(List<ReportRun> runs) {
        DefaultCategoryDataset d = new DefaultCategoryDataset();
        for (ReportRun r : runs) {
            if (r.results().run().flowsCompleted() == 0) {
                continue; // no flow completed: its percentiles are not 0 us (the run's table says so)
            }
            SimResults.Summary s = r.results().summary();
            d.addValue(s.fctP50Us(), "p50", shortLabel(r));
            d.addValue(s.fctP99Us(), "p99", shortLabel(r));
            d.addValue(s.fctMaxUs(), "max", shortLabel(r));
        }
        if (d.getColumnCount() == 0) {
            return null;
        }
        return bars("Flow completion time by run (us)", "FCT (us)", d, true);
    }

    /** Paused time, ECN marks and drops per run. */
    String compareCongestion(List<ReportRun> runs) {
        DefaultCategoryDataset d = new DefaultCategoryDataset();
        for (ReportRun r : runs) {
            SimResults.Summary s = r.results().summary();
            d.addValue(s.pauseFramesSent(), "PFC pause frames", shortLabel(r));
            d.addValue(s.ecnMarked(), "ECN-marked packets", shortLabel(r));
            d.addValue(s.cnpsReceived(), "CNPs received", shortLabel(r));
            d.addValue(s.drops(), "drops", shortLabel(r));
        }
        return bars("Congestion signals by run (count)", "count", d, true);
    }

    /** Coordinates to 0.01 px: finer than any printer, and a fifth of the text. */
    static String twoDecimals(double v) {
        long r = Math.round(v * 100);
        if (r % 100 == 0) {
            return Long.toString(r / 100);
        }
        return String.format(java.util.Locale.ROOT, "%.2f", r / 100.0);
    }

    /**
     * A series thinned to at most {@link #MAX_POINTS} points for drawing: each kept point covers a
     * bucket of consecutive samples and takes its maximum ({@code peak}) or mean, so peaks survive.
     */
    static XYSeries thin(String key, long[] timesPs, double[] values, double scale, boolean peak) {
        XYSeries s = new XYSeries(key, false, true);
        int n = timesPs.length;
        int bucket = Math.max(1, (n + MAX_POINTS - 1) / MAX_POINTS);
        for (int i = 0; i < n; i += bucket) {
            int end = Math.min(n, i + bucket);
            double agg = peak ? Double.NEGATIVE_INFINITY : 0;
            for (int j = i; j < end; j++) {
                agg = peak ? Math.max(agg, values[j]) : agg + values[j];
            }
            if (!peak) {
                agg /= end - i;
            }
            if (s.getItemCount() > 0) {
                // a sample holds its value until the next one: draw steps, not slopes
                s.add(timesPs[i] / 1e6, s.getY(s.getItemCount() - 1).doubleValue());
            }
            s.add(timesPs[i] / 1e6, agg * scale);
        }
        return s;
    }

    static String shortLabel(ReportRun r) {
        String l = r.label();
        int colon = l.indexOf(':');
        return colon > 0 && colon < 8 ? l.substring(0, colon) : l.length() > 24 ? l.substring(0, 23) + "..." : l;
    }

    private String bars(String title, String valueLabel, DefaultCategoryDataset d, boolean legend) {
        CategoryAxis cat = new CategoryAxis();
        cat.setCategoryLabelPositions(d.getColumnCount() > 4 ? CategoryLabelPositions.UP_45 : CategoryLabelPositions.STANDARD);
        cat.setTickLabelFont(TICK);
        cat.setMaximumCategoryLabelWidthRatio(0.9f);
        NumberAxis v = new NumberAxis(valueLabel);
        BarRenderer r = new BarRenderer();
        r.setBarPainter(new StandardBarPainter());
        r.setShadowVisible(false);
        r.setItemMargin(0.05);
        for (int i = 0; i < PALETTE.length; i++) {
            r.setSeriesPaint(i, PALETTE[i]);
        }
        CategoryPlot plot = new CategoryPlot(d, cat, v, r);
        plot.setOrientation(PlotOrientation.VERTICAL);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(new Color(0xdddddd));
        v.setTickLabelFont(TICK);
        v.setLabelFont(LABEL);
        JFreeChart c = new JFreeChart(title, TITLE, plot, legend);
        finish(c);
        return svg(c, d.getColumnCount() > 4 ? HEIGHT + 60 : HEIGHT);
    }

    /** Lines without markers, each series one SVG path (not one element per segment). */
    private static XYLineAndShapeRenderer pathRenderer() {
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, false);
        r.setDrawSeriesLineAsPath(true);
        return r;
    }

    private static void style(XYPlot plot, XYLineAndShapeRenderer r) {
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(new Color(0xdddddd));
        plot.setRangeGridlinePaint(new Color(0xdddddd));
        plot.getDomainAxis().setTickLabelFont(TICK);
        plot.getDomainAxis().setLabelFont(LABEL);
        plot.getRangeAxis().setTickLabelFont(TICK);
        plot.getRangeAxis().setLabelFont(LABEL);
        for (int i = 0; i < PALETTE.length; i++) {
            r.setSeriesPaint(i, PALETTE[i]);
            r.setSeriesStroke(i, new BasicStroke(1.4f));
        }
    }

    private static ValueMarker marker(XYPlot plot, double value, String label, Color colour) {
        ValueMarker m = new ValueMarker(value, colour, new BasicStroke(1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER,
                10f, new float[] {6f, 4f}, 0f));
        m.setLabel(label);
        m.setLabelFont(TICK);
        m.setLabelPaint(colour);
        m.setLabelAnchor(RectangleAnchor.TOP_LEFT);
        m.setLabelTextAnchor(TextAnchor.BOTTOM_LEFT);
        m.setLabelBackgroundColor(new Color(255, 255, 255, 0));
        m.setLabelOffset(new RectangleInsets(2, 2, 2, 4));
        plot.addRangeMarker(m);
        return m;
    }

    private static JFreeChart chart(String title, XYPlot plot) {
        JFreeChart c = new JFreeChart(title, TITLE, plot, true);
        finish(c);
        return c;
    }

    private static void finish(JFreeChart c) {
        c.setBackgroundPaint(Color.WHITE);
        c.setBorderVisible(false);
        c.setAntiAlias(true);
        TextTitle t = c.getTitle();
        t.setFont(TITLE);
        if (c.getLegend() != null) {
            c.getLegend().setItemFont(LABEL);
            c.getLegend().setFrame(org.jfree.chart.block.BlockBorder.NONE);
        }
    }

    static {
        // Rotated labels through Graphics2D.drawString, so they stay <text> instead of glyph outlines.
        org.jfree.chart.text.TextUtils.setUseDrawRotatedStringWorkaround(false);
    }

    private String svg(JFreeChart c, int height) {
        SVGGraphics2D g = new SVGGraphics2D(WIDTH, height);
        g.setGeomDoubleConverter(ResultsCharts::twoDecimals);
        g.setTransformDoubleConverter(ResultsCharts::twoDecimals);
        String id = prefix + "c" + (++counter);
        g.setDefsKeyPrefix(id + "-");
        c.draw(g, new Rectangle(0, 0, WIDTH, height));
        return g.getSVGElement(id);
    }
}
