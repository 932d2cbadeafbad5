package io.fabriclab.diagram;

import java.util.Arrays;

/**
 * Antialiased straight lines of any width, drawn into premultiplied ARGB pixels
 * ({@code BufferedImage.TYPE_INT_ARGB_PRE}), source-over, in batches that behave like one stroked
 * path.
 *
 * <p>Why not Java2D's own stroker: a fabric view is a thousand or more long, thin, translucent
 * lines, and a general renderer (Marlin in Java2D, Pisces in JavaFX's software pipeline) turns each
 * into a polygon and scan-converts it with 8 sub-pixel rows per pixel row: measured here, about
 * 70 ns per pixel of line length (1,500 lines of 900 px: 100 ms). A line is a band of constant
 * width, so its coverage of a pixel can be computed directly: walk the major axis one pixel column
 * (or row) at a time and cover each pixel across the band by the length of the band it holds (the
 * box-filtered area at the column's centre, as in Wu's lines, generalised to any width). One pass
 * over the pixels the line touches.
 *
 * <p>Lines added between two {@link #composite} calls form one batch, like the lines of one stroked
 * path in JavaFX or Java2D: where they overlap, a pixel gets the largest coverage, not the sum, so
 * a hundred translucent links meeting at a switch do not pile up into an opaque blot. Ends are
 * square caps (the line extends by half its width), the default of both toolkits.
 */
final class LineRaster {
    private final int width;
    private final int height;
    /** Coverage of the current batch per pixel, 0..255; zero outside the touched pixels. */
    private final byte[] coverage;
    /** Pixels with a non-zero coverage in the current batch. */
    private int[] touched = new int[4096];
    private int touchedCount;
    /** Blend tables of the batch being composited, indexed by coverage. */
    private final int[] inverse = new int[256];
    private final int[] sourceAg = new int[256];
    private final int[] sourceRb = new int[256];

    LineRaster(int width, int height) {
        this.width = width;
        this.height = height;
        this.coverage = new byte[width * height];
    }

    int width() {
        return width;
    }

    int height() {
        return height;
    }

    /** True when no line is pending. */
    boolean isEmpty() {
        return touchedCount == 0;
    }

    /** Adds a line in device pixels to the batch. */
    void add(double x0, double y0, double x1, double y1, double lineWidth) {
        if (lineWidth <= 0) {
            return;
        }
        double dx = x1 - x0;
        double dy = y1 - y0;
        double len = Math.hypot(dx, dy);
        double half = lineWidth / 2;
        if (len == 0) {
            // A zero-length line with square caps is a square of side lineWidth.
            span(true, x0 - half, x0 + half, y0, 0, half);
            return;
        }
        double ux = dx / len;
        double uy = dy / len;
        double ax = x0 - ux * half;
        double ay = y0 - uy * half;
        double bx = x1 + ux * half;
        double by = y1 + uy * half;
        if (Math.abs(dx) >= Math.abs(dy)) {
            double k = dy / dx;
            double lo = Math.min(ax, bx);
            span(true, lo, Math.max(ax, bx), ay + k * (lo - ax), k, half * Math.sqrt(1 + k * k));
        } else {
            double k = dx / dy;
            double lo = Math.min(ay, by);
            span(false, lo, Math.max(ay, by), ax + k * (lo - ay), k, half * Math.sqrt(1 + k * k));
        }
    }

    /**
     * Covers the band along the major axis from {@code lo} to {@code hi}, whose centre on the minor
     * axis is {@code m0} at {@code lo} and moves by {@code k} per unit, half-thickness {@code hm}
     * measured along the minor axis. {@code xMajor}: the major axis is x.
     */
    private void span(boolean xMajor, double lo, double hi, double m0, double k, double hm) {
        int majorSize = xMajor ? width : height;
        int minorSize = xMajor ? height : width;
        int first = Math.max(0, (int) Math.floor(lo));
        int last = Math.min(majorSize - 1, (int) Math.floor(hi));
        int step = xMajor ? width : 1;
        for (int i = first; i <= last; i++) {
            double majorCover = Math.min(i + 1, hi) - Math.max(i, lo);
            if (majorCover <= 0) {
                continue;
            }
            double centre = m0 + k * (i + 0.5 - lo);
            double top = centre - hm;
            double bottom = centre + hm;
            if (bottom <= 0 || top >= minorSize) {
                continue;
            }
            int j0 = Math.max(0, (int) Math.floor(top));
            int j1 = Math.min(minorSize - 1, (int) Math.floor(bottom));
            double scale = 255 * majorCover;
            int base = xMajor ? i : i * width;
            // The first and last pixel across the band are partly covered, those between fully.
            cover(base + j0 * step, (Math.min(j0 + 1, bottom) - Math.max(j0, top)) * scale);
            if (j1 > j0) {
                int inner = (int) (scale + 0.5);
                for (int j = j0 + 1, idx = base + j * step; j < j1; j++, idx += step) {
                    cover(idx, inner);
                }
                cover(base + j1 * step, (Math.min(j1 + 1, bottom) - j1) * scale);
            }
        }
    }

    private void cover(int idx, double c) {
        cover(idx, (int) (c + 0.5));
    }

    private void cover(int idx, int c) {
        if (c <= 0) {
            return;
        }
        int old = coverage[idx] & 0xff;
        if (old == 0) {
            if (touchedCount == touched.length) {
                touched = Arrays.copyOf(touched, touched.length * 2);
            }
            touched[touchedCount++] = idx;
        }
        if (c > old) {
            coverage[idx] = (byte) Math.min(255, c);
        }
    }

    /**
     * Blends the batch onto {@code pixels} (this raster's size, row-major, premultiplied ARGB) in
     * colour {@code c} (not premultiplied; its alpha scales the coverage), and starts a new batch.
     */
    void composite(int[] pixels, Rgba c) {
        int alpha = c.a();
        // Per coverage value: the source's premultiplied contribution and the destination's
        // remaining fraction (255 - source alpha). Divisions by 255 are rounded, so opaque stays
        // exactly opaque; the destination's channels are scaled in pairs (alpha with green, red with
        // blue), one multiply for two, with the same rounding in each 8-bit lane.
        for (int cov = 1; cov < 256; cov++) {
            int sa = div255(cov * alpha);
            inverse[cov] = 255 - sa;
            sourceAg[cov] = sa << 24 | div255(c.g() * sa) << 8;
            sourceRb[cov] = div255(c.r() * sa) << 16 | div255(c.b() * sa);
        }
        int[] inv = inverse;
        int[] sag = sourceAg;
        int[] srb = sourceRb;
        byte[] cv = coverage;
        int[] list = touched;
        for (int t = 0, n = touchedCount; t < n; t++) {
            int idx = list[t];
            int cov = cv[idx] & 0xff;
            cv[idx] = 0;
            int f = inv[cov];
            int d = pixels[idx];
            int ag = ((d >>> 8) & 0x00ff00ff) * f + 0x00800080;
            ag = (ag + ((ag >>> 8) & 0x00ff00ff)) & 0xff00ff00;
            int rb = (d & 0x00ff00ff) * f + 0x00800080;
            rb = ((rb + ((rb >>> 8) & 0x00ff00ff)) >>> 8) & 0x00ff00ff;
            pixels[idx] = (ag + sag[cov]) | (rb + srb[cov]);
        }
        touchedCount = 0;
    }

    /** x / 255 rounded, exact for 0 <= x <= 255 * 255. */
    private static int div255(int x) {
        x += 128;
        return (x + (x >> 8)) >> 8;
    }
}
