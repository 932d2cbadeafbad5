package io.fabriclab.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jfree.chart.JFreeChart;

import io.fabriclab.sweep.RunRow;
import io.fabriclab.sweep.SweepCharts;
import io.fabriclab.sweep.SweepPlan;
import io.fabriclab.sweep.SweepSummary;

/**
 * The "Sweep" section of a design review: what was varied and how, the points with each metric's
 * mean and 95 % interval, feasibility and Pareto membership, the best feasible points, runs that
 * did not finish, and the sweep's charts inline as SVG. {@link #page} wraps it as a standalone
 * HTML document in the report's style ({@code fabriclab sweep} writes it as DIR/report.html).
 */
public final class SweepSection {
    /** Points listed in the table; the CSV has them all. */
    static final int MAX_POINTS = 60;

    private SweepSection() {
    }

    /** A whole HTML page holding the section. */
    public static String page(SweepSummary s) {
        return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/><title>" + Html.escape("Sweep: " + s.plan().name())
                + "</title><style>" + ReportStyle.CSS + "</style></head><body>\n" + section(s) + "</body></html>\n";
    }

    /** The section's HTML (a div of class "section" with id "sweep"). */
    public static String section(SweepSummary s) {
        return section(s, "sweep", "sweep");
    }

    /**
     * The section's HTML as well-formed XHTML (the PDF renderer parses it as XML), with its own
     * element id and chart id prefix so that several sweeps can share one report.
     */
    public static String section(SweepSummary s, String id, String chartPrefix) {
        SweepPlan plan = s.plan();
        StringBuilder h = new StringBuilder("<div class=\"section\" id=\"").append(Html.escape(id)).append("\">\n<h2>Sweep: ")
                .append(Html.escape(plan.name())).append("</h2>\n");
        if (!plan.description().isBlank()) {
            h.append("<p>").append(Html.escape(plan.description())).append("</p>\n");
        }
        long ok = s.rows().stream().filter(RunRow::ok).count();
        h.append(String.format(Locale.ROOT, "<p>Scenario %s; %s design, %d points x %d seeds (%s) = %d runs, %d ok. "
                        + "Means with Student-t 95 %% intervals over each point's seeds.</p>\n", Html.escape(plan.baseScenarioName()),
                Html.escape(plan.design()), plan.points(), plan.seeds().size(), Html.escape(plan.seeds().toString()),
                s.rows().size(), ok));
        h.append("<h3>Parameters</h3>\n<table class=\"data\"><thead><tr><th>name</th><th>path</th><th>values</th></tr></thead><tbody>\n");
        for (int i = 0; i < plan.parameterPaths().size(); i++) {
            final int k = i;
            List<String> vals = s.points().stream().map(p -> p.values().get(k)).distinct().limit(12).toList();
            h.append("<tr><td>").append(Html.escape(plan.parameterNames().get(i))).append("</td><td>")
                    .append(Html.escape(plan.parameterPaths().get(i))).append("</td><td>")
                    .append(Html.escape(String.join(", ", vals) + (vals.size() == 12 ? ", ..." : ""))).append("</td></tr>\n");
        }
        h.append("</tbody></table>\n");
        if (!plan.constraints().isEmpty()) {
            h.append("<p>Constraints (every seed of a feasible point meets them): ")
                    .append(Html.escape(String.join("; ", plan.constraints().stream().map(Object::toString).toList()))).append("</p>\n");
        }
        h.append("<h3>Points</h3>\n").append(pointsTable(s));
        List<RunRow> bad = s.rows().stream().filter(r -> !r.ok()).toList();
        if (!bad.isEmpty()) {
            h.append("<h3>Runs that did not finish</h3>\n<table class=\"data\"><thead><tr><th>point</th><th>seed</th>"
                    + "<th>status</th><th>why</th></tr></thead><tbody>\n");
            for (RunRow r : bad.subList(0, Math.min(20, bad.size()))) {
                h.append("<tr><td class=\"num\">").append(r.point()).append("</td><td class=\"num\">").append(r.seed())
                        .append("</td><td>").append(Html.escape(r.status())).append("</td><td>").append(Html.escape(r.message()))
                        .append("</td></tr>\n");
            }
            h.append("</tbody></table>\n");
        }
        Map<String, JFreeChart> charts = SweepCharts.charts(s);
        if (!charts.isEmpty()) {
            h.append("<h3>Charts</h3>\n");
            int n = 0;
            for (Map.Entry<String, JFreeChart> e : charts.entrySet()) {
                h.append("<div class=\"figure\">").append(fitted(SweepCharts.svg(e.getValue(), chartPrefix + n++)))
                        .append("</div>\n");
            }
        }
        return h.append("</div>\n").toString();
    }

    /** Display width of a sweep chart: the report's own charts' width, which fits an A4 page. */
    static final int CHART_WIDTH = 680;

    /**
     * A chart's SVG scaled to {@link #CHART_WIDTH} through a viewBox of its drawing size: drawn at
     * 720 px, it was cut off at the page's edge in the PDF.
     */
    static String fitted(String svg) {
        int w = SweepCharts.WIDTH;
        int ht = SweepCharts.HEIGHT;
        return HtmlReport.stripXmlDeclaration(svg).replaceFirst("width='" + w + ".0' height='" + ht + ".0'",
                "width='" + CHART_WIDTH + "' height='" + Math.round((double) ht * CHART_WIDTH / w) + "' viewBox='0 0 " + w + " " + ht + "'");
    }

    private static String pointsTable(SweepSummary s) {
        SweepPlan plan = s.plan();
        List<String> head = new ArrayList<>(List.of("point"));
        head.addAll(plan.parameterNames());
        head.addAll(plan.summaryMetrics());
        head.add("feasible");
        if (plan.objectives().size() >= 2) {
            head.add("Pareto");
        }
        StringBuilder h = new StringBuilder("<table class=\"data sweep\"><thead><tr>");
        head.forEach(c -> h.append("<th>").append(Html.escape(c)).append("</th>"));
        h.append("</tr></thead><tbody>\n");
        for (SweepSummary.Point p : s.points().subList(0, Math.min(MAX_POINTS, s.points().size()))) {
            h.append("<tr><td class=\"num\">").append(p.point()).append("</td>");
            p.values().forEach(v -> h.append("<td class=\"num\">").append(Html.escape(v.replace("\"", ""))).append("</td>"));
            for (String m : plan.summaryMetrics()) {
                SweepSummary.Stat st = p.stat(m);
                // Plain numbers with the metric's unit, never "1.061e+04" or "0.000 +- 0.0" (issue 35 item 11).
                String cell = st.text(io.fabriclab.sweep.SweepMetrics.unit(m)).replace(" +- ", " \u00b1 ");
                h.append("<td class=\"num\">").append(cell).append("</td>");
            }
            h.append("<td>").append(p.feasible() ? "yes" : "no").append("</td>");
            if (plan.objectives().size() >= 2) {
                h.append("<td>").append(p.pareto() ? "yes" : "").append("</td>");
            }
            h.append("</tr>\n");
        }
        h.append("</tbody></table>\n");
        if (s.points().size() > MAX_POINTS) {
            h.append("<p>").append(s.points().size() - MAX_POINTS).append(" more points in summary-points.csv.</p>\n");
        }
        return h.toString();
    }
}
