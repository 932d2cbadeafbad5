package io.fabriclab.topology;

import java.util.ArrayList;
import java.util.List;

/** An aligned plain-text table for human output: numbers right-aligned, text left-aligned. */
public final class TextTable {
    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    public TextTable(String... headers) {
        this.headers = List.of(headers);
    }

    public TextTable row(Object... cells) {
        if (cells.length != headers.size()) {
            throw new IllegalArgumentException("expected " + headers.size() + " cells, got " + cells.length);
        }
        List<String> r = new ArrayList<>(cells.length);
        for (Object c : cells) {
            r.add(c == null ? "-" : c.toString());
        }
        rows.add(r);
        return this;
    }

    public boolean isEmpty() {
        return rows.isEmpty();
    }

    @Override
    public String toString() {
        int n = headers.size();
        int[] w = new int[n];
        boolean[] numeric = new boolean[n];
        for (int i = 0; i < n; i++) {
            w[i] = headers.get(i).length();
            numeric[i] = !rows.isEmpty();
        }
        for (List<String> r : rows) {
            for (int i = 0; i < n; i++) {
                w[i] = Math.max(w[i], r.get(i).length());
                if (!looksNumeric(r.get(i))) {
                    numeric[i] = false;
                }
            }
        }
        StringBuilder sb = new StringBuilder();
        appendRow(sb, headers, w, numeric);
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : "  ").append("-".repeat(w[i]));
        }
        sb.append('\n');
        for (List<String> r : rows) {
            appendRow(sb, r, w, numeric);
        }
        return sb.toString();
    }

    private static void appendRow(StringBuilder sb, List<String> cells, int[] w, boolean[] numeric) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) {
                line.append("  ");
            }
            String c = cells.get(i);
            String pad = " ".repeat(w[i] - c.length());
            line.append(numeric[i] ? pad + c : c + pad);
        }
        sb.append(line.toString().stripTrailing()).append('\n');
    }

    private static boolean looksNumeric(String s) {
        return s.equals("-") || s.matches("[-+]?[0-9][0-9,._]*(\\.[0-9]+)?\\s?(%|[a-zA-Z/:]{0,6})?(:1)?");
    }
}
