package io.fabriclab.counters;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.fabriclab.io.InputException;

/**
 * Reads the tables SONiC's show commands print (sonic-utilities: pfcstat, queuestat, watermarkstat;
 * "SONiC Command Line Interface Guide"): {@code show pfc counters} (a "Port Rx" and a "Port Tx" table,
 * columns PFC0..PFC7: PFC frames received and sent per priority), {@code show queue counters}
 * (Port, TxQ, Counter/pkts, Counter/bytes, Drop/pkts, Drop/bytes and, where the platform counts
 * them, EcnMarked/pkts), {@code show priority-group watermark shared|headroom} (Port, PG0..PGn,
 * bytes) and {@code show queue watermark unicast|multicast} (Port, UC0..UCn or MCn, bytes). A
 * table is a header line over a rule of dashes; its rows follow until a blank line. Numbers may
 * carry thousands commas; N/A is skipped. Several tables (several commands' output) may follow
 * one another in one file, with the command lines, "For namespace" lines and titles between them.
 * The device is not in the text: it is the caller's ({@code DEVICE=FILE} or the file name).
 */
public final class SonicShow {

    private SonicShow() {
    }

    public static CounterSample parse(String text, String source, String device) throws InputException {
        LineProblems problems = new LineProblems(source);
        List<Reading> readings = new ArrayList<>();
        Set<String> unknown = new LinkedHashSet<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            lines[i] = lines[i].endsWith("\r") ? lines[i].substring(0, lines[i].length() - 1) : lines[i];
        }
        int tables = 0;
        int i = 0;
        while (i < lines.length && !problems.full()) {
            String t = lines[i].strip();
            boolean header = i + 1 < lines.length && lines[i + 1].strip().startsWith("---") && !t.isEmpty()
                    && !t.startsWith("---");
            if (!header) {
                if (!t.isEmpty() && !skippable(t) && !t.startsWith("---")) {
                    problems.add(i + 1, t, "not part of a SONiC counters table (a header over a rule of dashes, then rows)",
                            "the output of show pfc counters, show queue counters, show priority-group watermark or show queue watermark");
                }
                i++;
                continue;
            }
            List<String> cols = columns(lines[i], lines[i + 1]);
            Table kind = Table.of(cols);
            int headerLine = i + 1;
            i += 2;
            tables++;
            if (kind == null) {
                unknown.add(String.join(" | ", cols));
            }
            while (i < lines.length && !lines[i].strip().isEmpty()) {
                String row = lines[i].strip();
                if (i + 1 < lines.length && lines[i + 1].strip().startsWith("---")) {
                    break; // the next table's header
                }
                if (kind != null) {
                    String[] cells = row.split("\\s+");
                    if (cells.length != cols.size()) {
                        problems.add(i + 1, row, "this row has " + cells.length + " columns, the header at line " + headerLine
                                + " has " + cols.size() + " (" + String.join(", ", cols) + ")", null);
                    } else {
                        kind.read(cells, cols, device, i + 1, readings, problems, unknown);
                    }
                }
                i++;
            }
        }
        if (tables == 0 && !problems.full()) {
            problems.add(0, null, "no SONiC counters table found", CountersFormat.SONIC_SHOW.title());
        }
        problems.throwIfAny();
        return new CounterSample(source, CountersFormat.SONIC_SHOW, null, readings, new ArrayList<>(unknown));
    }

    /** Lines between tables: comments, prompts and commands, namespace lines, titles, cache notes. */
    private static boolean skippable(String t) {
        String l = t.toLowerCase(Locale.ROOT);
        return t.startsWith("#") || l.startsWith("for namespace") || t.endsWith(":") || l.contains("$ ")
                || l.startsWith("show ") || l.startsWith("last cached time") || l.startsWith("ingress ")
                || l.startsWith("egress ") || l.startsWith("sudo ");
    }

    /** The header's column names, cut where the rule of dashes has its gaps ("Port Rx" is one column). */
    static List<String> columns(String header, String rule) {
        List<String> out = new ArrayList<>();
        int i = 0;
        int n = rule.length();
        int prevEnd = 0;
        while (i < n) {
            while (i < n && rule.charAt(i) != '-') {
                i++;
            }
            int s = i;
            while (i < n && rule.charAt(i) == '-') {
                i++;
            }
            if (i > s) {
                // Headers are right-aligned over their rule: a column's name lies between the previous rule and the end of its own.
                int to = i < n ? i : Math.max(i, header.length());
                String h = header.length() > prevEnd ? header.substring(prevEnd, Math.min(header.length(), to)) : "";
                out.add(h.strip());
                prevEnd = i;
            }
        }
        return out;
    }

    /** The tables understood, by their header. */
    private enum Table {
        PFC_RX, PFC_TX, QUEUE_COUNTERS, PG_WATERMARK, QUEUE_WATERMARK;

        static Table of(List<String> cols) {
            if (cols.isEmpty()) {
                return null;
            }
            String first = cols.get(0).toLowerCase(Locale.ROOT);
            String second = cols.size() > 1 ? cols.get(1).toUpperCase(Locale.ROOT) : "";
            if (first.equals("port rx") && second.startsWith("PFC")) {
                return PFC_RX;
            }
            if (first.equals("port tx") && second.startsWith("PFC")) {
                return PFC_TX;
            }
            if (first.equals("port") && (second.equals("TXQ") || second.equals("VOQ"))) {
                return QUEUE_COUNTERS;
            }
            if (first.equals("port") && second.startsWith("PG")) {
                return PG_WATERMARK;
            }
            if (first.equals("port") && (second.startsWith("UC") || second.startsWith("MC") || second.startsWith("ALL"))) {
                return QUEUE_WATERMARK;
            }
            return null;
        }

        void read(String[] cells, List<String> cols, String device, int line, List<Reading> out, LineProblems problems,
                  Set<String> unknown) {
            String port = cells[0];
            if (this == QUEUE_COUNTERS) {
                int prio = CounterNames.priorityOf(cells[1]);
                for (int c = 2; c < cols.size(); c++) {
                    CounterKind k = switch (cols.get(c).toLowerCase(Locale.ROOT)) {
                        case "counter/pkts" -> CounterKind.TX_PACKETS;
                        case "counter/bytes" -> CounterKind.TX_BYTES;
                        case "drop/pkts" -> CounterKind.DROPS;
                        case "ecnmarked/pkts" -> CounterKind.ECN_MARKED;
                        default -> null;
                    };
                    if (k == null) {
                        if (!cols.get(c).toLowerCase(Locale.ROOT).endsWith("/bytes")) {
                            unknown.add(cols.get(c)); // drop and ECN bytes repeat the packet counts
                        }
                        continue;
                    }
                    add(out, problems, device, port, prio, k, cells[c], line, cols.get(c));
                }
                return;
            }
            CounterKind k = switch (this) {
                case PFC_RX -> CounterKind.PFC_RX;
                case PFC_TX -> CounterKind.PFC_TX;
                case PG_WATERMARK -> CounterKind.PG_WATERMARK;
                default -> CounterKind.QUEUE_WATERMARK;
            };
            for (int c = 1; c < cols.size(); c++) {
                add(out, problems, device, port, CounterNames.priorityOf(cols.get(c)), k, cells[c], line, cols.get(c));
            }
        }

        private static void add(List<Reading> out, LineProblems problems, String device, String port, int prio, CounterKind k,
                                String cell, int line, String column) {
            if (cell.equalsIgnoreCase("N/A")) {
                return;
            }
            Double v = LineProblems.number(cell);
            if (v == null || v < 0) {
                problems.add(line, cell, "column " + column + " of " + port + " is not a counter value",
                        "a whole number (thousands commas allowed) or N/A");
                return;
            }
            out.add(new Reading(device, port, prio, k, v, line));
        }
    }
}
