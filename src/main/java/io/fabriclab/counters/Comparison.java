package io.fabriclab.counters;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.fabriclab.model.Fabric;

/**
 * Measured against simulated, port by port: PFC frames received and sent, ECN marks, CNPs and drops
 * per second, and which differ most. A difference is scored as |m − s| / max(m, s, 1 per second):
 * relative where the figures are large, and never large for two figures both under one event a
 * second. The flagged rows are the largest scores above {@link #FLAG_SCORE} (half: one figure at
 * most half the other, or off by at least one event a second beside nothing).
 */
public record Comparison(List<Row> rows, List<Row> flagged, boolean simulated) {
    public static final double FLAG_SCORE = 0.5;
    /** Most rows flagged (the largest differences first). */
    public static final int MAX_FLAGGED = 10;

    /** The figures compared. */
    public enum Metric {
        PFC_RX("PFC rx/s"), PFC_TX("PFC tx/s"), ECN("ECN/s"), CNP("CNP/s"), DROPS("drops/s");

        public final String header;

        Metric(String header) {
            this.header = header;
        }

        public double of(PortFigures f) {
            return switch (this) {
                case PFC_RX -> f.pfcRxPerS();
                case PFC_TX -> f.pfcTxPerS();
                case ECN -> f.ecnPerS();
                case CNP -> f.cnpPerS();
                case DROPS -> f.dropsPerS();
            };
        }
    }

    /** One port: measured and simulated figures, and its largest difference (metric and score; null metric: none). */
    public record Row(String port, PortFigures measured, PortFigures simulated, Metric worst, double score) {
    }

    /** Every port with a measured figure, with the simulated one beside it (null {@code sim}: measured only). */
    public static Comparison of(Fabric fabric, Measured m, Map<String, PortFigures> sim) {
        Set<String> ports = new TreeSet<>(Measured.NATURAL);
        ports.addAll(m.ports().keySet());
        List<Row> rows = new ArrayList<>();
        for (String p : ports) {
            PortFigures meas = m.figures(p);
            PortFigures s = sim == null ? PortFigures.NONE : sim.getOrDefault(p, zeroFor(fabric, p));
            Metric worst = null;
            double best = 0;
            for (Metric k : Metric.values()) {
                double a = k.of(meas);
                double b = k.of(s);
                if (Double.isNaN(a) || Double.isNaN(b)) {
                    continue;
                }
                double score = Math.abs(a - b) / Math.max(1, Math.max(Math.abs(a), Math.abs(b)));
                if (score > best) {
                    best = score;
                    worst = k;
                }
            }
            rows.add(new Row(p, meas, s, worst, best));
        }
        List<Row> flagged = rows.stream().filter(r -> r.worst() != null && r.score() >= FLAG_SCORE)
                .sorted(Comparator.comparingDouble(Row::score).reversed().thenComparing(Row::port, Measured.NATURAL))
                .limit(MAX_FLAGGED).toList();
        return new Comparison(rows, flagged, sim != null);
    }

    /** A port the run has no record of: it existed and counted nothing (NaN for a NIC's CNPs on a switch). */
    private static PortFigures zeroFor(Fabric fabric, String port) {
        var p = fabric.port(port);
        boolean nic = p != null && p.device().role() == io.fabriclab.model.DeviceRole.SERVER;
        return new PortFigures(0, 0, 0, nic ? Double.NaN : 0, nic ? 0 : Double.NaN, nic ? 0 : Double.NaN, 0, 0, 0);
    }

    /** A rate for a table: "-" for none, else 3 significant figures. */
    public static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        double a = Math.abs(v);
        if (a == 0) {
            return "0";
        }
        if (a >= 1e6) {
            return String.format(Locale.ROOT, "%.2fM", v / 1e6);
        }
        if (a >= 1e4) {
            return String.format(Locale.ROOT, "%.1fk", v / 1e3);
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        return String.format(Locale.ROOT, a >= 10 ? "%.1f" : "%.2f", v);
    }

    /** The comparison as a text table (the CLI's and the report's plain form). */
    public String table() {
        StringBuilder sb = new StringBuilder();
        List<String> head = new ArrayList<>(List.of("port"));
        for (Metric k : Metric.values()) {
            head.add(k.header + (simulated ? " meas/sim" : ""));
        }
        List<List<String>> body = new ArrayList<>();
        for (Row r : rows) {
            List<String> cells = new ArrayList<>(List.of(r.port()));
            for (Metric k : Metric.values()) {
                cells.add(simulated ? fmt(k.of(r.measured())) + " / " + fmt(k.of(r.simulated())) : fmt(k.of(r.measured())));
            }
            body.add(cells);
        }
        int[] w = new int[head.size()];
        for (int c = 0; c < w.length; c++) {
            w[c] = head.get(c).length();
            for (List<String> row : body) {
                w[c] = Math.max(w[c], row.get(c).length());
            }
        }
        appendRow(sb, head, w);
        for (List<String> row : body) {
            appendRow(sb, row, w);
        }
        return sb.toString();
    }

    private static void appendRow(StringBuilder sb, List<String> cells, int[] w) {
        for (int c = 0; c < cells.size(); c++) {
            String s = cells.get(c);
            if (c == 0) {
                sb.append(s).append(" ".repeat(w[c] - s.length()));
            } else {
                sb.append("  ").append(" ".repeat(w[c] - s.length())).append(s);
            }
        }
        sb.append('\n');
    }

    /** One line per flagged row: the port, the metric, both figures. */
    public List<String> flaggedLines() {
        Set<String> out = new LinkedHashSet<>();
        for (Row r : flagged) {
            out.add(String.format(Locale.ROOT, "%s: %s measured %s, simulated %s", r.port(), r.worst().header,
                    fmt(r.worst().of(r.measured())), fmt(r.worst().of(r.simulated()))));
        }
        return new ArrayList<>(out);
    }
}
