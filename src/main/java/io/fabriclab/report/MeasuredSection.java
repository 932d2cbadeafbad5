package io.fabriclab.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.fabriclab.counters.Comparison;
import io.fabriclab.counters.CounterFindings;
import io.fabriclab.counters.CountersFrame;
import io.fabriclab.counters.Measured;
import io.fabriclab.counters.PortFigures;
import io.fabriclab.counters.SimulatedFigures;
import io.fabriclab.diagram.CongestionFrame;
import io.fabriclab.diagram.CongestionPainter;
import io.fabriclab.diagram.DiagramGeometry;
import io.fabriclab.diagram.DiagramStyle;
import io.fabriclab.diagram.FabricPainter;
import io.fabriclab.diagram.FoldGroup;
import io.fabriclab.diagram.Selection;
import io.fabriclab.diagram.SvgPainter;
import io.fabriclab.diagram.TieredLayout;
import io.fabriclab.diagram.Viewport;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;
import io.fabriclab.topology.Finding;

/**
 * The "Measured vs simulated" section of a design review ({@code fabriclab report --counters}):
 * what was read, what did not map, the measured counters on the topology in the live view's
 * language, the difference from the report's first run beside it, the ports side by side with the
 * largest differences marked, and the findings the counters raise.
 */
public final class MeasuredSection {
    public static final String TITLE = "Measured vs simulated";
    /** Rows of the port table (the busiest and most different first); `fabriclab counters` prints them all. */
    static final int MAX_ROWS = 40;

    /** The counters a report shows: rated and mapped, and the files (or URL) they came from. */
    public record Counters(Measured measured, List<String> sources) {
        public Counters {
            sources = List.copyOf(sources);
        }
    }

    private MeasuredSection() {
    }

    /** The section's XHTML; {@code run} is the run compared against (null: measured only). */
    static String section(Fabric fabric, Counters c, ReportRun run) {
        Measured m = c.measured();
        Map<String, PortFigures> sim = run == null ? null : SimulatedFigures.of(run.results());
        Comparison cmp = Comparison.of(fabric, m, sim);
        List<Finding> findings = CounterFindings.of(fabric, m, sim, CounterFindings.DEFAULT_IMBALANCE);
        StringBuilder h = new StringBuilder("<div class=\"section\" id=\"measured\">\n<h2>").append(TITLE).append("</h2>\n");
        h.append("<p>").append(Html.escape(String.format(Locale.ROOT,
                "%d samples from %d sources, over %.1f s; %d ports of the fabric measured; %d counter resets adjusted for. "
                        + "Cumulative counters are rates from their samples (a value below the one before counts as a reset); "
                        + "watermarks are the largest level read. %s",
                m.samples(), c.sources().size(), m.intervalS(), m.ports().size(), m.resets(),
                run == null ? "No simulation run is in this report: measured figures only."
                        : "Simulated: " + run.label() + ", rates per second of simulated time."))).append("</p>\n");
        List<String> names = c.sources().stream().map(MeasuredSection::fileName).toList();
        h.append("<p class=\"note\">Sources: ").append(Html.escape(String.join(", ", names.stream().limit(12).toList())
                + (names.size() > 12 ? " and " + (names.size() - 12) + " more" : ""))).append("</p>\n");
        for (String n : m.notes()) {
            h.append("<p class=\"note\">").append(Html.escape(n)).append("</p>\n");
        }
        if (!m.unmapped().isEmpty()) {
            h.append("<p class=\"note\">Not mapped to a port (").append(m.unmapped().size()).append("): ")
                    .append(Html.escape(String.join("; ", m.unmapped().stream().limit(10).toList())
                            + (m.unmapped().size() > 10 ? " ..." : ""))).append("</p>\n");
        }
        figure(h, svg(fabric, CountersFrame.frame(fabric, directions(fabric), CountersFrame.figures(CountersFrame.View.MEASURED, m, sim),
                m.intervalS())), "Measured: pause symbols where a port received or sent PFC frames, ECN sparks by marking "
                + "rate, CNPs, drop flashes with the drops counted over the interval, colour by queue watermark against ECN Kmax.");
        if (sim != null) {
            figure(h, svg(fabric, CountersFrame.frame(fabric, directions(fabric), CountersFrame.figures(CountersFrame.View.DIFFERENCE, m, sim),
                    m.intervalS())), "Difference |measured - simulated|: the same marks where the two disagree.");
        }
        List<Comparison.Row> rows = new ArrayList<>(cmp.rows().stream().filter(r -> busy(r.measured()) || busy(r.simulated())).toList());
        rows.sort(Comparator.comparingDouble(Comparison.Row::score).reversed());
        h.append("<table class=\"data\"><thead><tr><th>port</th>");
        for (Comparison.Metric k : Comparison.Metric.values()) {
            h.append("<th class=\"num\">").append(Html.escape(k.header + (sim != null ? " meas / sim" : ""))).append("</th>");
        }
        h.append("</tr></thead><tbody>\n");
        for (Comparison.Row r : rows.subList(0, Math.min(MAX_ROWS, rows.size()))) {
            h.append("<tr><td>").append(Html.escape(r.port())).append("</td>");
            for (Comparison.Metric k : Comparison.Metric.values()) {
                boolean flagged = cmp.flagged().contains(r) && r.worst() == k;
                String text = Comparison.fmt(k.of(r.measured())) + (sim != null ? " / " + Comparison.fmt(k.of(r.simulated())) : "");
                h.append("<td class=\"num").append(flagged ? " status warn" : "").append("\">").append(Html.escape(text)).append("</td>");
            }
            h.append("</tr>\n");
        }
        h.append("</tbody></table>\n");
        h.append("<p class=\"note\">").append(Html.escape(rows.size() > MAX_ROWS ? "The " + MAX_ROWS + " of " + rows.size()
                + " ports with traffic that differ most; fabriclab counters prints them all." : "Every port with a non-zero figure.")
                + (sim != null ? " Marked: the largest differences (|m - s| / max(m, s, 1/s) of at least "
                + Comparison.FLAG_SCORE + ")." : "")).append("</p>\n");
        if (findings.isEmpty()) {
            h.append("<p>The counters raise no finding.</p>\n");
        } else {
            h.append("<h3>Findings from the counters</h3>\n<table class=\"data\"><thead><tr><th>severity</th><th>code</th>"
                    + "<th>what</th><th>fix</th></tr></thead><tbody>\n");
            for (Finding f : findings) {
                String cls = f.severity() == Finding.Severity.ERROR ? "status fail" : f.severity() == Finding.Severity.WARNING
                        ? "status warn" : "";
                h.append("<tr><td class=\"").append(cls).append("\">").append(f.severity()).append("</td><td>")
                        .append(Html.escape(f.code())).append("</td><td>").append(Html.escape(f.subject() + ": " + f.message())).append("</td><td>").append(Html.escape(f.fix())).append("</td></tr>\n");
            }
            h.append("</tbody></table>\n");
        }
        return h.append("</div>\n").toString();
    }

    /** A source as its file name ({@code DEVICE=} kept), or a URL whole. */
    private static String fileName(String source) {
        if (source.contains("://")) {
            return source;
        }
        int eq = source.indexOf('=');
        String prefix = eq > 0 && source.substring(0, eq).indexOf('/') < 0 ? source.substring(0, eq + 1) : "";
        java.nio.file.Path p = java.nio.file.Path.of(source.substring(prefix.length()));
        return prefix + (p.getFileName() == null ? source : p.getFileName().toString());
    }

    private static boolean busy(PortFigures f) {
        for (Comparison.Metric k : Comparison.Metric.values()) {
            double v = k.of(f);
            if (v > 0) {
                return true;
            }
        }
        return false;
    }

    private static CongestionFrame.Directions directions(Fabric fabric) {
        return new CongestionFrame.Directions(new ArrayList<>(fabric.links()));
    }

    private static void figure(StringBuilder h, String svg, String caption) {
        h.append("<div class=\"figure\">").append(HtmlReport.displaySize(HtmlReport.stripXmlDeclaration(svg), ResultsCharts.WIDTH,
                ResultsCharts.WIDTH * RunMap.H / RunMap.W)).append("\n<p class=\"caption\">").append(Html.escape(caption))
                .append("</p></div>\n");
    }

    /** The topology with {@code f} drawn over it, as the report's run map draws a run. */
    static String svg(Fabric fabric, CongestionFrame f) {
        int w = RunMap.W;
        int ht = RunMap.H;
        Layout layout = fabric.layout().copy();
        new TieredLayout().placeMissing(fabric, layout);
        DiagramStyle style = new DiagramStyle();
        DiagramGeometry g = new DiagramGeometry(fabric, layout, style);
        Viewport vp = new Viewport();
        vp.fit(g.extent(), w, ht, 24);
        FabricPainter.Options options = FabricPainter.Options.DEFAULT.withGrid(false).withLegend(false)
                .withLabels(fabric.devices().size() <= 80);
        SvgPainter svg = new SvgPainter(w, ht);
        FabricPainter fp = new FabricPainter(style);
        fp.paint(svg, g, new Selection(), null, vp, w, ht, options);
        Map<Device, FoldGroup> folded = fp.foldGroups(g, vp.scale(), options.fold());
        new CongestionPainter(style).paint(svg, g, folded, vp, w, ht, f, 0, CongestionPainter.ColourBy.QUEUE,
                CongestionPainter.Legend.RESULTS);
        return svg.toSvg();
    }
}
