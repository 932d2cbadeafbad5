package io.fabriclab.counters;

import java.util.Locale;

/** The counters formats FabricLab reads (docs/counters.md describes each, with its source). */
public enum CountersFormat {
    PROMETHEUS("Prometheus text exposition format"),
    SONIC_SHOW("SONiC show pfc counters / show queue counters / show priority-group watermark / show queue watermark"),
    PORTSTAT_JSON("SONiC portstat -j"),
    ETHTOOL("ethtool -S"),
    HW_COUNTERS("/sys/class/infiniband/*/ports/*/hw_counters");

    private final String title;

    CountersFormat(String title) {
        this.title = title;
    }

    public String title() {
        return title;
    }

    /** Every format's title, for "allowed:" in messages. */
    public static String allowed() {
        StringBuilder sb = new StringBuilder();
        for (CountersFormat f : values()) {
            sb.append(sb.isEmpty() ? "" : "; ").append(f.title);
        }
        return sb.toString();
    }

    /**
     * The format of a counters text, judged by its content (not its name): JSON object → portstat;
     * a SONiC table header (a dashed rule under "Port"); "NIC statistics:" or "name: number" lines →
     * ethtool; hw_counters paths → a hw_counters listing; otherwise Prometheus text. Null when the
     * text is empty.
     */
    public static CountersFormat detect(String text) {
        String t = text.strip();
        if (t.isEmpty()) {
            return null;
        }
        if (t.startsWith("{")) {
            return PORTSTAT_JSON;
        }
        String[] lines = t.split("\n", 400);
        for (int i = 0; i < Math.min(lines.length, 399); i++) {
            String l = lines[i].strip();
            if (l.startsWith("# TYPE ") || l.startsWith("# HELP ")) {
                return PROMETHEUS;
            }
            if (l.contains("/hw_counters/")) {
                return HW_COUNTERS;
            }
            if (l.equalsIgnoreCase("NIC statistics:")) {
                return ETHTOOL;
            }
            if (l.startsWith("---") && i > 0 && lines[i - 1].toLowerCase(Locale.ROOT).contains("port")) {
                return SONIC_SHOW;
            }
        }
        for (String line : lines) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            return l.matches("[A-Za-z0-9_.\\-\\[\\] ]+:\\s*-?\\d+") ? ETHTOOL : PROMETHEUS;
        }
        return PROMETHEUS;
    }
}
