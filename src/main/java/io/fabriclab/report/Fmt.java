package io.fabriclab.report;

import java.util.Locale;

/** Number formats of the report: thousands separators, units spelled out, never a locale comma. */
final class Fmt {
    private Fmt() {
    }

    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** Picoseconds as microseconds, e.g. "1,234.5 us". */
    static String us(long ps) {
        return usValue(ps / 1e6);
    }

    static String usValue(double us) {
        if (Double.isNaN(us)) {
            return "-";
        }
        if (us >= 1000) {
            return String.format(Locale.ROOT, "%,.0f us", us);
        }
        return String.format(Locale.ROOT, "%,.1f us", us);
    }

    static String bytes(long b) {
        if (b >= 10_000_000) {
            return String.format(Locale.ROOT, "%,.1f MB", b / 1e6);
        }
        if (b >= 10_000) {
            return String.format(Locale.ROOT, "%,.1f KB", b / 1e3);
        }
        return String.format(Locale.ROOT, "%,d B", b);
    }

    static String gbps(double g) {
        return String.format(Locale.ROOT, "%,.1f Gb/s", g);
    }

    static String num(double v, int decimals) {
        if (!Double.isFinite(v)) {
            return "-";
        }
        return String.format(Locale.ROOT, "%,." + decimals + "f", v);
    }

    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.0f %%", 100 * fraction);
    }
}
