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

    /** Pixels outside [clipX0, clipX1) x [clipY0, clipY1) are left alone (the whole raster by default). */
    private int clipX0;
    private int clipY0;
    private int clipX1;
    private int clipY1;

    LineRaster(int width, int height) {
        this.width = width;
        this.height = height;
        this.clipX1 = width;
        this.clipY1 = height;
        this.coverage = new byte[width * height];
    }

    int width() {
        return width;
    }

    int height() {
        return height;
    }

    /**
     * Lines added from now on cover only the pixels in [x0, x1) x [y0, y1) (clamped to the raster);
     * a pixel inside gets exactly the coverage it gets without a clip.
     */
    void clip(int x0, int y0, int x1, int y1) {
        clipX0 = Math.max(0, x0);
        clipY0 = Math.max(0, y0);
        clipX1 = Math.min(width, x1);
        clipY1 = Math.min(height, y1);
    }

    /** Removes the clip. */
    void unclip() {
        clip(0, 0, width, height);
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
        // The clip (by default the whole raster) along the major and the minor axis.
        int majorLo = xMajor ? clipX0 : clipY0;
        int majorHi = xMajor ? clipX1 : clipY1;
        int minorLo = xMajor ? clipY0 : clipX0;
        int minorHi = xMajor ? clipY1 : clipX1;
        int first = Math.max(majorLo, (int) Math.floor(lo));
        int last = Math.min(majorHi - 1, (int) Math.floor(hi));
        int step = xMajor ? width : 1;
        int majorStep = xMajor ? 1 : width;
        int maxMinor = minorHi - 1;
        // One pass per column (or row) of the major axis. The arithmetic is the plain definition,
        // written with comparisons instead of Math.min / max / floor (which guard NaN and -0, and
        // cost more than the pixels here); every value involved is finite.
        for (int i = first; i <= last; i++) {
            double end = i + 1 < hi ? i + 1 : hi;
            double start = i > lo ? i : lo;
            double majorCover = end - start;
            if (majorCover <= 0) {
                continue;
            }
            double centre = m0 + k * (i + 0.5 - lo);
            double top = centre - hm;
            double bottom = centre + hm;
            if (bottom <= minorLo || top >= minorHi) {
                continue;
            }
            // floor(top) clamped at the clip, floor(bottom) (bottom > minorLo >= 0 here) clamped at
            // the clip's last pixel.
            int j0 = top <= minorLo ? minorLo : (int) top;
            int j1 = (int) bottom;
            if (j1 > maxMinor) {
                j1 = maxMinor;
            }
            double scale = 255 * majorCover;
            int base = i * majorStep;
            ensureRoom(j1 - j0 + 1);
            // The first and last pixel across the band are partly covered, those between fully.
            double firstEnd = j0 + 1 < bottom ? j0 + 1 : bottom;
            double firstStart = top > j0 ? top : j0;
            int c0 = (int) ((firstEnd - firstStart) * scale + 0.5);
            if (c0 > 0) {
                cover(base + j0 * step, c0);
            }
            if (j1 > j0) {
                int inner = (int) (scale + 0.5);
                int idx = base + (j0 + 1) * step;
                if (inner > 0) {
                    for (int j = j0 + 1; j < j1; j++, idx += step) {
                        cover(idx, inner);
                    }
                } else {
                    idx += (j1 - j0 - 1) * step;
                }
                double lastEnd = j1 + 1 < bottom ? j1 + 1 : bottom;
                int c1 = (int) ((lastEnd - j1) * scale + 0.5);
                if (c1 > 0) {
                    cover(idx, c1);
                }
            }
        }
    }

    /** Makes room in the touched list for {@code n} more pixels. */
    private void ensureRoom(int n) {
        if (touchedCount + n > touched.length) {
            touched = Arrays.copyOf(touched, Math.max(touched.length * 2, touchedCount + n));
        }
    }

    /**
     * Raises the batch's coverage of pixel {@code idx} to {@code c} (1..255); room is ensured.
     * Without branches on the old coverage: overlapping translucent lines make them unpredictable,
     * and a mispredicted branch costs more than the pixel.
     */
    private void cover(int idx, int c) {
        int old = coverage[idx] & 0xff;
        touched[touchedCount] = idx;
        touchedCount += (old - 1) >>> 31; // listed once: when it had no coverage yet
        coverage[idx] = (byte) Math.max(old, c);
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
