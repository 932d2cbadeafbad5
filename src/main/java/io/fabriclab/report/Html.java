package io.fabriclab.report;

import java.util.Locale;

/**
 * A small XHTML writer: every text and attribute value goes through {@link #escape}, so a device
 * named {@code <img src=x onerror=alert(1)>} appears as text. Output is well-formed XML, which the
 * PDF renderer needs and browsers accept.
 */
final class Html {
    private final StringBuilder sb = new StringBuilder(1 << 16);

    /** Escapes the five XML specials and drops characters XML 1.0 cannot carry. */
    static String escape(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> {
                    if (c < 0x20 && c != '\n' && c != '\t' && c != '\r' || c == 0xFFFE || c == 0xFFFF) {
                        out.append('\uFFFD');
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }

    /** Opens an element; {@code attrs} are name, value pairs (values escaped). */
    Html open(String tag, String... attrs) {
        sb.append('<').append(tag);
        attributes(attrs);
        sb.append('>');
        return this;
    }

    Html close(String tag) {
        sb.append("</").append(tag).append(">\n");
        return this;
    }

    /** An element holding escaped text. */
    Html el(String tag, String text, String... attrs) {
        open(tag, attrs);
        sb.append(escape(text));
        sb.append("</").append(tag).append('>');
        return this;
    }

    Html text(String text) {
        sb.append(escape(text));
        return this;
    }

    /** Markup FabricLab made itself (SVG from the painter or the charts), never user text unescaped. */
    Html trusted(String markup) {
        sb.append(markup);
        return this;
    }

    Html nl() {
        sb.append('\n');
        return this;
    }

    private void attributes(String[] attrs) {
        for (int i = 0; i + 1 < attrs.length; i += 2) {
            sb.append(' ').append(attrs[i]).append("=\"").append(escape(attrs[i + 1])).append('"');
        }
    }

    /**
     * A table: header cells then rows; a cell is text, or a {@link StatusCell} shown with the colour
     * of its status. {@code numeric} right-aligns those columns. The status travels in its own
     * type, never in the text, so no name from a file can pose as one.
     */
    Html table(String cssClass, String[] head, Iterable<? extends Object[]> rows, boolean... numeric) {
        open("table", "class", cssClass == null ? "data" : "data " + cssClass);
        open("thead").open("tr");
        for (int i = 0; i < head.length; i++) {
            el("th", head[i], "class", isNumeric(numeric, i) ? "num" : "txt");
        }
        close("tr").close("thead");
        open("tbody");
        for (Object[] r : rows) {
            open("tr");
            for (int i = 0; i < r.length; i++) {
                String cls = isNumeric(numeric, i) ? "num" : "txt";
                if (r[i] instanceof StatusCell s) {
                    el("td", s.text(), "class", cls + " status " + s.status().name().toLowerCase(Locale.ROOT));
                } else {
                    el("td", r[i] == null ? "" : r[i].toString(), "class", cls);
                }
            }
            close("tr");
        }
        close("tbody").close("table");
        return this;
    }

    /** A table cell shown with the colour of a status. */
    record StatusCell(Status status, String text) {
    }

    /** A table cell that is shown with the colour of a status. */
    static StatusCell statusCell(Status s, String text) {
        return new StatusCell(s, text);
    }

    private static boolean isNumeric(boolean[] numeric, int i) {
        return numeric != null && i < numeric.length && numeric[i];
    }

    @Override
    public String toString() {
        return sb.toString();
    }
}
