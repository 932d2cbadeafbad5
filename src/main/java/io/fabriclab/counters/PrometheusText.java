package io.fabriclab.counters;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.fabriclab.io.InputException;

/**
 * Reads the Prometheus text exposition format (version 0.0.4; prometheus.io, "Exposition formats",
 * "Text format details"): one sample a line, {@code name{label="value",...} value [timestamp_ms]};
 * {@code # HELP} and {@code # TYPE} lines and other comments; label values with the escapes
 * {@code \\}, {@code \"} and {@code \n}; values as Go floats (NaN, +Inf, -Inf); an optional trailing
 * comma in the label set. OpenMetrics' closing {@code # EOF} ends the text. No maintained Java parser
 * of the format is published (the Prometheus Java client writes it, it does not read it), so it is
 * read here against that specification.
 * <p>
 * Which port a sample is about comes from its labels: the device from {@code hostname}, {@code host},
 * {@code switch}, {@code node} or {@code instance} (its {@code :port} dropped), else the caller's
 * hint; the interface from {@code interface}, {@code ifname}, {@code port} or {@code device}; the
 * priority from {@code priority}, {@code prio}, {@code pg}, {@code queue}, {@code tc} or
 * {@code traffic_class}. Histogram and summary series, samples without an interface and metrics
 * {@link CounterNames#metric} does not know are listed as unknown.
 */
public final class PrometheusText {
    static final List<String> HOST_LABELS = List.of("hostname", "host", "switch", "node", "instance");
    static final List<String> IFACE_LABELS = List.of("interface", "ifname", "port", "device");
    static final List<String> PRIORITY_LABELS = List.of("priority", "prio", "pg", "queue", "tc", "traffic_class");

    private PrometheusText() {
    }

    /** The samples' latest timestamp (null when none carries one) and the sample itself. */
    public static CounterSample parse(String text, String source, String deviceHint) throws InputException {
        LineProblems problems = new LineProblems(source);
        List<Reading> readings = new ArrayList<>();
        Set<String> unknown = new LinkedHashSet<>();
        Map<String, String> types = new LinkedHashMap<>();
        long latestMs = Long.MIN_VALUE;
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length && !problems.full(); i++) {
            int lineNo = i + 1;
            String line = lines[i].endsWith("\r") ? lines[i].substring(0, lines[i].length() - 1) : lines[i];
            String t = line.strip();
            if (t.isEmpty()) {
                continue;
            }
            if (t.startsWith("#")) {
                if (t.equals("# EOF")) {
                    break;
                }
                String[] parts = t.substring(1).strip().split("\\s+", 3);
                if (parts.length >= 3 && parts[0].equals("TYPE")) {
                    types.put(parts[1], parts[2].strip());
                }
                continue;
            }
            Parsed p;
            try {
                p = sample(t);
            } catch (IllegalArgumentException e) {
                problems.add(lineNo, t, e.getMessage(), "name{label=\"value\",...} value [timestamp in ms] (Prometheus text format 0.0.4)");
                continue;
            }
            if (p.timestampMs != null) {
                latestMs = Math.max(latestMs, p.timestampMs);
            }
            String family = family(p.name, types);
            String type = types.getOrDefault(family, "untyped");
            if (type.equals("histogram") || type.equals("summary") || type.equals("gaugehistogram")) {
                unknown.add(p.name);
                continue;
            }
            CounterNames.Meaning m = CounterNames.metric(p.name);
            String iface = first(p.labels, IFACE_LABELS);
            if (m == null || iface == null || !Double.isFinite(p.value)) {
                unknown.add(p.name);
                continue;
            }
            String host = first(p.labels, HOST_LABELS);
            if (host != null && p.labels.containsKey("instance") && host.equals(p.labels.get("instance"))) {
                host = host.replaceFirst(":\\d+$", ""); // instance is host:port
            }
            String device = host != null ? host : deviceHint == null ? "" : deviceHint;
            int prio = m.priority() >= 0 ? m.priority() : CounterNames.priorityOf(first(p.labels, PRIORITY_LABELS));
            double v = p.value;
            if ((m.kind() == CounterKind.PAUSE_RX_US || m.kind() == CounterKind.PAUSE_TX_US) && CounterNames.inSeconds(p.name)) {
                v *= 1e6;
            }
            readings.add(new Reading(device, iface, prio, m.kind(), v, lineNo));
        }
        problems.throwIfAny();
        Instant time = latestMs == Long.MIN_VALUE ? null : Instant.ofEpochMilli(latestMs);
        return new CounterSample(source, CountersFormat.PROMETHEUS, time, readings, new ArrayList<>(unknown));
    }

    /** The metric family a series belongs to ({@code x_total} → {@code x} when only x is typed). */
    private static String family(String name, Map<String, String> types) {
        if (types.containsKey(name)) {
            return name;
        }
        for (String suffix : List.of("_total", "_bucket", "_sum", "_count", "_created")) {
            if (name.endsWith(suffix) && types.containsKey(name.substring(0, name.length() - suffix.length()))) {
                return name.substring(0, name.length() - suffix.length());
            }
        }
        return name;
    }

    private static String first(Map<String, String> labels, List<String> names) {
        for (String n : names) {
            String v = labels.get(n);
            if (v != null && !v.isEmpty()) {
                return v;
            }
        }
        return null;
    }

    private record Parsed(String name, Map<String, String> labels, double value, Long timestampMs) {
    }

    /** One sample line, by the grammar of the text format; IllegalArgumentException says what is wrong. */
    static Parsed sample(String s) {
        int i = 0;
        int n = s.length();
        int start = i;
        while (i < n && nameChar(s.charAt(i), i == start)) {
            i++;
        }
        if (i == start) {
            throw new IllegalArgumentException("a sample must start with a metric name ([a-zA-Z_:][a-zA-Z0-9_:]*)");
        }
        String name = s.substring(start, i);
        Map<String, String> labels = new LinkedHashMap<>();
        if (i < n && s.charAt(i) == '{') {
            i++;
            while (true) {
                i = skipSpaces(s, i);
                if (i < n && s.charAt(i) == '}') {
                    i++;
                    break;
                }
                int ls = i;
                while (i < n && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_') && (i > ls || !Character.isDigit(s.charAt(i)))) {
                    i++;
                }
                if (i == ls) {
                    throw new IllegalArgumentException("expected a label name at column " + (i + 1));
                }
                String label = s.substring(ls, i);
                i = skipSpaces(s, i);
                if (i >= n || s.charAt(i) != '=') {
                    throw new IllegalArgumentException("expected '=' after label " + label + " at column " + (i + 1));
                }
                i = skipSpaces(s, i + 1);
                if (i >= n || s.charAt(i) != '"') {
                    throw new IllegalArgumentException("expected a quoted value for label " + label + " at column " + (i + 1));
                }
                i++;
                StringBuilder v = new StringBuilder();
                boolean closed = false;
                while (i < n) {
                    char c = s.charAt(i++);
                    if (c == '\\') {
                        if (i >= n) {
                            break;
                        }
                        char e = s.charAt(i++);
                        switch (e) {
                            case '\\' -> v.append('\\');
                            case '"' -> v.append('"');
                            case 'n' -> v.append('\n');
                            default -> throw new IllegalArgumentException("unknown escape \\" + e + " in label " + label
                                    + " (allowed: \\\\, \\\", \\n)");
                        }
                    } else if (c == '"') {
                        closed = true;
                        break;
                    } else {
                        v.append(c);
                    }
                }
                if (!closed) {
                    throw new IllegalArgumentException("label " + label + "'s value is not closed with '\"'");
                }
                if (labels.put(label, v.toString()) != null) {
                    throw new IllegalArgumentException("label " + label + " given twice");
                }
                i = skipSpaces(s, i);
                if (i < n && s.charAt(i) == ',') {
                    i++;
                } else if (i < n && s.charAt(i) == '}') {
                    i++;
                    break;
                } else {
                    throw new IllegalArgumentException("expected ',' or '}' after label " + label + " at column " + (i + 1));
                }
            }
        }
        String rest = s.substring(i).strip();
        if (i < n && !Character.isWhitespace(s.charAt(i))) {
            throw new IllegalArgumentException("expected a space between the metric and its value at column " + (i + 1));
        }
        String[] parts = rest.isEmpty() ? new String[0] : rest.split("\\s+");
        if (parts.length == 0 || parts.length > 2) {
            throw new IllegalArgumentException(parts.length == 0 ? "the sample has no value" : "expected a value and at most a timestamp after " + name);
        }
        double value = value(parts[0]);
        Long ts = null;
        if (parts.length == 2) {
            try {
                ts = Long.parseLong(parts[1]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("timestamp " + parts[1] + " is not an integer (milliseconds since the epoch)");
            }
        }
        return new Parsed(name, labels, value, ts);
    }

    private static double value(String v) {
        switch (v) {
            case "NaN":
                return Double.NaN;
            case "+Inf", "Inf":
                return Double.POSITIVE_INFINITY;
            case "-Inf":
                return Double.NEGATIVE_INFINITY;
            default:
                try {
                    return Double.parseDouble(v);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("value " + v + " is not a number (a float, NaN, +Inf or -Inf)");
                }
        }
    }

    private static boolean nameChar(char c, boolean first) {
        return c == '_' || c == ':' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (!first && c >= '0' && c <= '9');
    }

    private static int skipSpaces(String s, int i) {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }
}
