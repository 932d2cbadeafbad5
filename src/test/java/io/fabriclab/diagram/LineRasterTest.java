package io.fabriclab.diagram;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

/** The editor's line rasteriser: coverage, caps, batches as unions, clipping. */
class LineRasterTest {
    private static final int WHITE = 0xffffffff;
    private static final Rgba BLACK = new Rgba(0, 0, 0, 255);

    private static int[] white(int w, int h) {
        int[] px = new int[w * h];
        Arrays.fill(px, WHITE);
        return px;
    }

    /** Darkness of a pixel of a black-on-white picture: 0 (white) .. 1 (black), from the red channel. */
    private static double ink(int pixel) {
        return (255 - ((pixel >> 16) & 0xff)) / 255.0;
    }

    @Test
    void horizontalLineCoversItsRowAndHalfPixelCaps() {
        // y = 10.5, width 1: the band is y 10..11, one pixel row. Square caps extend the ends by half
        // the width: x 1.5..8.5, so columns 2..7 are covered fully and columns 1 and 8 by half.
        int w = 20;
        int[] px = white(w, 20);
        LineRaster r = new LineRaster(w, 20);
        r.add(2, 10.5, 8, 10.5, 1);
        r.composite(px, BLACK);
        for (int x = 2; x <= 7; x++) {
            assertEquals(1.0, ink(px[10 * w + x]), 0.01, "column " + x);
        }
        assertEquals(0.5, ink(px[10 * w + 1]), 0.01);
        assertEquals(0.5, ink(px[10 * w + 8]), 0.01);
        assertEquals(0.0, ink(px[10 * w]), 0.0);
        assertEquals(0.0, ink(px[10 * w + 9]), 0.0);
        for (int x = 0; x < w; x++) {
            assertEquals(WHITE, px[9 * w + x], "row above untouched");
            assertEquals(WHITE, px[11 * w + x], "row below untouched");
        }
    }

    @Test
    void diagonalLineInksItsArea() {
        // A band of width 2 along (10,10)-(110,110) with square caps is a rectangle of
        // (length + width) x width = (100 sqrt 2 + 2) x 2 = 286.84 px^2: the ink summed over the
        // pixels is that area, up to the 8-bit rounding of each pixel (about 600 pixels, +-0.5/255).
        int w = 130;
        int[] px = white(w, 130);
        LineRaster r = new LineRaster(w, 130);
        r.add(10, 10, 110, 110, 2);
        r.composite(px, BLACK);
        double area = 0;
        for (int p : px) {
            area += ink(p);
        }
        assertEquals((100 * Math.sqrt(2) + 2) * 2, area, 1.5);
    }

    @Test
    void translucentColourScalesCoverageAndKeepsPremultipliedAlpha() {
        // Half-transparent red over opaque white, fully covered: red stays 255, green and blue
        // halve, alpha stays opaque.
        int[] px = white(10, 10);
        LineRaster r = new LineRaster(10, 10);
        r.add(0, 5, 10, 5, 4);
        r.composite(px, new Rgba(255, 0, 0, 128));
        int p = px[5 * 10 + 5];
        assertEquals(0xff, p >>> 24);
        assertEquals(255, (p >> 16) & 0xff, 1);
        assertEquals(127, (p >> 8) & 0xff, 2);
        assertEquals(127, p & 0xff, 2);
    }

    @Test
    void linesOfOneBatchUniteLikeOnePathAndBatchesStack() {
        // Two translucent lines over the same pixels: in one batch the union (as one stroked path),
        // so the same as one line; in two batches each blends over the other, darker.
        Rgba grey = new Rgba(0, 0, 0, 100);
        int[] once = white(40, 10);
        LineRaster r = new LineRaster(40, 10);
        r.add(5, 5, 35, 5, 2);
        r.composite(once, grey);
        int[] sameBatch = white(40, 10);
        r.add(5, 5, 35, 5, 2);
        r.add(5, 5, 35, 5, 2);
        r.composite(sameBatch, grey);
        assertArrayEquals(once, sameBatch);
        int[] twoBatches = white(40, 10);
        r.add(5, 5, 35, 5, 2);
        r.composite(twoBatches, grey);
        r.add(5, 5, 35, 5, 2);
        r.composite(twoBatches, grey);
        assertTrue(ink(twoBatches[5 * 40 + 20]) > ink(once[5 * 40 + 20]) + 0.1);
    }

    @Test
    void linesBeyondTheImageAreClipped() {
        int w = 50;
        int h = 40;
        int[] px = white(w, h);
        LineRaster r = new LineRaster(w, h);
        r.add(-1000, -480, 5000, 2520, 3); // crosses the image: y = 20 + x / 2
        r.add(-500, 100, 500, 100, 3); // entirely below it
        r.add(60, -10, 60, 90, 3); // entirely right of it
        r.add(7, 7, 7, 7, 2); // zero length: a 2 x 2 square
        r.composite(px, BLACK);
        long inked = Arrays.stream(px).filter(p -> p != WHITE).count();
        assertTrue(inked > 40 && inked < 400, "the crossing line and the dot, nothing else: " + inked);
        assertEquals(1.0, ink(px[6 * w + 6]), 0.01);
        assertEquals(1.0, ink(px[7 * w + 7]), 0.01);
        assertEquals(0.0, ink(px[8 * w + 8]), 0.0);
    }

    @Test
    void aClippedRasterGivesThePixelsInsideTheClipExactlyAndLeavesTheRestAlone() {
        // The editor repaints the strips a pan uncovers with a clip: inside, a pixel must get what
        // an unclipped paint gives it, bit for bit, outside nothing. 300 lines of every slope,
        // width and translucency, painted once whole and once as a 3 x 2 grid of clipped tiles.
        int w = 97;
        int h = 61;
        java.util.Random random = new java.util.Random(7);
        double[][] lines = new double[300][];
        for (int i = 0; i < lines.length; i++) {
            lines[i] = new double[] {random.nextDouble() * 140 - 20, random.nextDouble() * 100 - 20,
                random.nextDouble() * 140 - 20, random.nextDouble() * 100 - 20, 0.5 + random.nextDouble() * 4};
        }
        Rgba colour = new Rgba(30, 90, 160, 110);
        int[] whole = white(w, h);
        LineRaster r = new LineRaster(w, h);
        for (double[] l : lines) {
            r.add(l[0], l[1], l[2], l[3], l[4]);
        }
        r.composite(whole, colour);
        int[] tiled = white(w, h);
        int[] xs = {0, 31, 64, w};
        int[] ys = {0, 29, h};
        for (int tx = 0; tx < 3; tx++) {
            for (int ty = 0; ty < 2; ty++) {
                int[] before = tiled.clone();
                r.clip(xs[tx], ys[ty], xs[tx + 1], ys[ty + 1]);
                for (double[] l : lines) {
                    r.add(l[0], l[1], l[2], l[3], l[4]);
                }
                r.composite(tiled, colour);
                for (int y = 0; y < h; y++) {
                    for (int x = 0; x < w; x++) {
                        boolean inside = x >= xs[tx] && x < xs[tx + 1] && y >= ys[ty] && y < ys[ty + 1];
                        if (!inside) {
                            assertEquals(before[y * w + x], tiled[y * w + x], "outside the clip at " + x + "," + y);
                        }
                    }
                }
            }
        }
        r.unclip();
        assertArrayEquals(whole, tiled);
        assertTrue(Arrays.stream(whole).filter(p -> p != WHITE).count() > w * h / 2, "the lines cover the picture");
    }
}
