package io.fabriclab.diagram;

import java.util.Locale;

/** A colour with 8-bit red, green, blue and alpha, independent of any toolkit. */
public record Rgba(int r, int g, int b, int a) {

    public Rgba {
        if ((r | g | b | a) >>> 8 != 0) {
            throw new IllegalArgumentException("channels must be 0..255: " + r + "," + g + "," + b + "," + a);
        }
    }

    /** Parses "#rrggbb" or "#rrggbbaa". */
    public static Rgba hex(String hex) {
        String h = hex.startsWith("#") ? hex.substring(1) : hex;
        if (h.length() != 6 && h.length() != 8) {
            throw new IllegalArgumentException("expected #rrggbb or #rrggbbaa: " + hex);
        }
        int r = Integer.parseInt(h.substring(0, 2), 16);
        int g = Integer.parseInt(h.substring(2, 4), 16);
        int b = Integer.parseInt(h.substring(4, 6), 16);
        int a = h.length() == 8 ? Integer.parseInt(h.substring(6, 8), 16) : 255;
        return new Rgba(r, g, b, a);
    }

    public Rgba withAlpha(int alpha) {
        return new Rgba(r, g, b, alpha);
    }

    /** Alpha as a fraction 0..1 (what most toolkits take). */
    public double opacity() {
        return a / 255.0;
    }

    /** Linear mix: t = 0 gives this colour, t = 1 gives {@code other}. */
    public Rgba mix(Rgba other, double t) {
        double u = Math.max(0, Math.min(1, t));
        return new Rgba(lerp(r, other.r, u), lerp(g, other.g, u), lerp(b, other.b, u), lerp(a, other.a, u));
    }

    /** Darker by a fraction (0.2 = 20 % towards black). */
    public Rgba darker(double fraction) {
        return mix(new Rgba(0, 0, 0, a), fraction);
    }

    /** Lighter by a fraction (0.2 = 20 % towards white). */
    public Rgba lighter(double fraction) {
        return mix(new Rgba(255, 255, 255, a), fraction);
    }

    /** Perceived brightness 0..1 (ITU-R BT.601 luma weights), to pick a readable text colour. */
    public double luma() {
        return (0.299 * r + 0.587 * g + 0.114 * b) / 255.0;
    }

    /** "#rrggbb" without alpha (SVG fill / stroke); opacity goes in a separate attribute. */
    public String toHexRgb() {
        return String.format(Locale.ROOT, "#%02x%02x%02x", r, g, b);
    }

    private static int lerp(int x, int y, double t) {
        return (int) Math.round(x + (y - x) * t);
    }
}
