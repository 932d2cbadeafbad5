package io.fabriclab.counters;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Port;

/**
 * Measured counters mapped onto a fabric's ports, as rates. Cumulative counters become rates from
 * their samples in time order: the increase between consecutive samples, where a value lower than
 * the one before counts as a reset (the device restarted or someone cleared the counters) and
 * the new value is the increase since it, as Prometheus' rate() does (prometheus.io, "Query
 * functions", rate: "breaks in monotonicity (such as counter resets due to target restarts) are
 * automatically adjusted for"); divided by the time from the first sample to the last. Gauges
 * (watermarks) are their largest value seen. A counter seen once has no rate (its total is kept).
 *
 * @param ports     per fabric port ("device:port"), its counters
 * @param unmapped  what no port took: source, device, interface and why, one line each
 * @param unknown   names no kind matched, each once
 * @param samples   samples read
 * @param intervalS the longest time between a counter's first and last sample, seconds (0: one sample)
 * @param resets    counter resets seen (a value below the one before)
 * @param notes     what the reader had to assume (no time, one sample only)
 */
public record Measured(Map<String, PortCounters> ports, List<String> unmapped, List<String> unknown, int samples,
                       double intervalS, int resets, List<String> notes) {

    /** One port's measured counters: rates per second and gauge levels, by kind and priority (-1: the whole port). */
    public record PortCounters(Map<CounterKind, Map<Integer, Double>> rates, Map<CounterKind, Map<Integer, Double>> levels,
                               Map<CounterKind, Map<Integer, Double>> increase) {

        /** The port's rate of a kind: the whole-port figure if the source gives one, else the sum over priorities; NaN if none. */
        public double rate(CounterKind k) {
            return total(rates.get(k));
        }

        /** The kind's rate on one priority, NaN if not measured (a whole-port figure does not count). */
        public double rate(CounterKind k, int priority) {
            Map<Integer, Double> m = rates.get(k);
            Double v = m == null ? null : m.get(priority);
            return v == null ? Double.NaN : v;
        }

        public double level(CounterKind k) {
            Map<Integer, Double> m = levels.get(k);
            return m == null || m.isEmpty() ? Double.NaN : m.values().stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        }

        /** How much the counter grew over the samples (resets adjusted), whole port. */
        public double increase(CounterKind k) {
            return total(increase.get(k));
        }

        private static double total(Map<Integer, Double> m) {
            if (m == null || m.isEmpty()) {
                return Double.NaN;
            }
            Double whole = m.get(-1);
            return whole != null ? whole : m.values().stream().mapToDouble(Double::doubleValue).sum();
        }

        /** The figures the comparison and the layer use. */
        public PortFigures figures() {
            double pausedUs = rate(CounterKind.PAUSE_RX_US);
            double tx = rate(CounterKind.TX_BYTES);
            return new PortFigures(rate(CounterKind.PFC_RX), rate(CounterKind.PFC_TX),
                    Double.isNaN(pausedUs) ? Double.NaN : Math.min(1, pausedUs / 1e6),
                    PortFigures.nanSum(rate(CounterKind.ECN_MARKED), rate(CounterKind.ECN_RECEIVED)),
                    rate(CounterKind.CNP_SENT), rate(CounterKind.CNP_HANDLED), rate(CounterKind.DROPS), tx,
                    level(CounterKind.QUEUE_WATERMARK));
        }
    }

    /** The fabric port's figures, {@link PortFigures#NONE} when nothing was measured on it. */
    public PortFigures figures(String port) {
        PortCounters c = ports.get(port);
        return c == null ? PortFigures.NONE : c.figures();
    }

    /**
     * Maps and rates {@code samples}. Samples without a time of their own are placed
     * {@code intervalS} apart in the order given (per counter), when an interval is given; otherwise
     * at their {@code fallback} time (a file's modification time; null: not placed).
     */
    public static Measured of(Fabric fabric, PortMap map, List<CounterSample> samples, Double intervalS,
                              Map<CounterSample, Instant> fallback) {
        Set<String> unmapped = new LinkedHashSet<>();
        Set<String> unknown = new LinkedHashSet<>();
        List<String> notes = new ArrayList<>();
        Map<Reading.Key, Port> where = new HashMap<>();
        // Per counter, its (seconds, value) points in sample order.
        Map<Reading.Key, List<double[]>> series = new LinkedHashMap<>();
        Instant epoch = null;
        for (CounterSample s : samples) {
            Instant t = s.time() != null ? s.time() : fallback == null ? null : fallback.get(s);
            if (t != null && (epoch == null || t.isBefore(epoch))) {
                epoch = t;
            }
        }
        boolean untimed = false;
        Set<Reading.Key> byModificationTime = new java.util.HashSet<>();
        for (CounterSample s : samples) {
            unknown.addAll(s.unknown());
            Instant t = s.time() != null ? s.time() : intervalS == null && fallback != null ? fallback.get(s) : null;
            boolean mtime = s.time() == null && t != null;
            for (Map.Entry<Reading.Key, Double> e : s.values().entrySet()) {
                Reading.Key k = e.getKey();
                if (!where.containsKey(k)) {
                    String[] why = new String[1];
                    Port p = map.resolve(fabric, k.device(), k.iface(), why);
                    where.put(k, p);
                    if (p == null) {
                        unmapped.add(s.source() + ": " + (k.device().isEmpty() ? "?" : k.device()) + " "
                                + (k.iface().isEmpty() ? "(no interface)" : k.iface()) + ": " + why[0]);
                    }
                }
                if (where.get(k) == null) {
                    continue;
                }
                List<double[]> pts = series.computeIfAbsent(k, x -> new ArrayList<>());
                if (mtime) {
                    byModificationTime.add(k);
                }
                double sec;
                if (t != null && epoch != null) {
                    sec = (t.toEpochMilli() - epoch.toEpochMilli()) / 1000.0;
                } else if (intervalS != null) {
                    sec = pts.size() * intervalS;
                } else {
                    sec = Double.NaN;
                    untimed = true;
                }
                pts.add(new double[] {sec, e.getValue()});
            }
        }
        Map<String, Map<CounterKind, Map<Integer, Double>>> rates = new TreeMap<>(NATURAL);
        Map<String, Map<CounterKind, Map<Integer, Double>>> levels = new TreeMap<>(NATURAL);
        Map<String, Map<CounterKind, Map<Integer, Double>>> increases = new TreeMap<>(NATURAL);
        int resets = 0;
        double interval = 0;
        boolean single = false;
        boolean closeTimes = false;
        Set<String> duplicates = new LinkedHashSet<>();
        for (Map.Entry<Reading.Key, List<double[]>> e : series.entrySet()) {
            Reading.Key k = e.getKey();
            String port = where.get(k).ref();
            List<double[]> pts = new ArrayList<>(e.getValue());
            if (!k.kind().cumulative()) {
                double max = pts.stream().mapToDouble(p -> p[1]).max().orElse(Double.NaN);
                levels.computeIfAbsent(port, x -> new EnumMap<>(CounterKind.class))
                        .computeIfAbsent(k.kind(), x -> new TreeMap<>()).merge(k.priority(), max, Math::max);
                continue;
            }
            rates.computeIfAbsent(port, x -> new EnumMap<>(CounterKind.class));
            if (pts.size() < 2 || pts.stream().anyMatch(p -> Double.isNaN(p[0]))) {
                single = true;
                continue;
            }
            pts.sort(Comparator.comparingDouble(p -> p[0]));
            double grew = 0;
            for (int i = 1; i < pts.size(); i++) {
                double d = pts.get(i)[1] - pts.get(i - 1)[1];
                if (d < 0) {
                    resets++;
                    d = pts.get(i)[1];
                }
                grew += d;
            }
            double span = pts.get(pts.size() - 1)[0] - pts.get(0)[0];
            if (byModificationTime.contains(k) && span < MIN_MTIME_SPAN_S) {
                // Files copied or checked out together share their modification time: no interval can be read from it.
                closeTimes = true;
                continue;
            }
            if (!(span > 0)) {
                single = true;
                continue;
            }
            interval = Math.max(interval, span);
            // Two sources of one port's counter (ethtool and hw_counters of one NIC): the first one read counts.
            Map<Integer, Double> kindRates = rates.get(port).computeIfAbsent(k.kind(), x -> new TreeMap<>());
            if (kindRates.containsKey(k.priority())) {
                duplicates.add(port + " " + k.kind().meaning());
                continue;
            }
            kindRates.put(k.priority(), grew / span);
            increases.computeIfAbsent(port, x -> new EnumMap<>(CounterKind.class))
                    .computeIfAbsent(k.kind(), x -> new TreeMap<>()).put(k.priority(), grew);
        }
        if (untimed) {
            notes.add("some samples carry no time: give the interval between them (--interval) or a \"# time:\" line");
        }
        if (closeTimes) {
            notes.add("some files carry no time and were modified within " + MIN_MTIME_SPAN_S
                    + " s of one another: give the interval between them (--interval) or a \"# time:\" line");
        }
        if (!duplicates.isEmpty()) {
            notes.add("counted by two sources, the first file's used: " + String.join("; ", duplicates));
        }
        if (single) {
            notes.add("some counters were read once (or at one time): they have no rate; read them twice, some seconds apart");
        }
        Map<String, PortCounters> ports = new TreeMap<>(NATURAL);
        Set<String> all = new LinkedHashSet<>(rates.keySet());
        all.addAll(levels.keySet());
        for (String p : all) {
            ports.put(p, new PortCounters(rates.getOrDefault(p, Map.of()), levels.getOrDefault(p, Map.of()),
                    increases.getOrDefault(p, Map.of())));
        }
        return new Measured(ports, new ArrayList<>(unmapped), new ArrayList<>(unknown), samples.size(), interval, resets, notes);
    }

    /** A span of modification times shorter than this is not taken as the time between two samples. */
    public static final double MIN_MTIME_SPAN_S = 1.0;

    /** Port names in the order people read them (leaf2:eth10 after leaf2:eth9). */
    static final Comparator<String> NATURAL = (a, b) -> {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            char x = a.charAt(i);
            char y = b.charAt(j);
            if (Character.isDigit(x) && Character.isDigit(y)) {
                int si = i;
                int sj = j;
                while (i < a.length() && Character.isDigit(a.charAt(i))) {
                    i++;
                }
                while (j < b.length() && Character.isDigit(b.charAt(j))) {
                    j++;
                }
                int c = new java.math.BigInteger(a.substring(si, i)).compareTo(new java.math.BigInteger(b.substring(sj, j)));
                if (c != 0) {
                    return c;
                }
            } else {
                if (x != y) {
                    return Character.compare(x, y);
                }
                i++;
                j++;
            }
        }
        return Integer.compare(a.length() - i, b.length() - j);
    };
}
