package io.fabriclab.diagram;

import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;

import javax.imageio.ImageIO;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;

/**
 * The whole fabric as a PNG picture at a chosen scale (1 = one pixel per world unit, as the editor
 * at 100 % zoom), whatever part of it the editor shows: Export PNG. Drawn off-screen by the same
 * painter as the canvas, so the picture is what the editor would draw at that zoom.
 */
public final class FabricPng {
    /** Margin around the fabric, in pixels. */
    public static final int MARGIN_PX = 24;
    /** Room below the fabric for the legend, which the painter puts at the bottom left: it never covers a device. */
    public static final int LEGEND_PX = 160;
    /** The largest picture written, in pixels (about 400 MB of ARGB while it is drawn). */
    public static final long MAX_PIXELS = 100_000_000L;

    private FabricPng() {
    }

    /** The scale actually used for {@code wanted}: lowered when the picture would exceed {@link #MAX_PIXELS}. */
    public static double fittedScale(Bounds extent, double wanted) {
        double w = extent.width() * wanted + 2 * MARGIN_PX;
        double h = extent.height() * wanted + 2 * MARGIN_PX + LEGEND_PX;
        if (w * h <= MAX_PIXELS) {
            return wanted;
        }
        // (a s + 2m)(b s + 2m) <= P; ignoring the margins gives s <= sqrt(P / ab), then step down until it fits.
        double s = Math.sqrt(MAX_PIXELS / Math.max(1, extent.width() * extent.height()));
        while ((extent.width() * s + 2 * MARGIN_PX) * (extent.height() * s + 2 * MARGIN_PX + LEGEND_PX) > MAX_PIXELS) {
            s *= 0.95;
        }
        return s;
    }

    /** The picture's size in pixels at {@code scale}: {width, height}, the legend's room included. */
    public static int[] size(Bounds extent, double scale) {
        return new int[] {(int) Math.ceil(extent.width() * scale) + 2 * MARGIN_PX,
            (int) Math.ceil(extent.height() * scale) + 2 * MARGIN_PX + LEGEND_PX};
    }

    /** A picture and the scale it was drawn at. */
    public record Picture(byte[] png, double scale) {
    }

    /** Draws the whole fabric at {@code scale} exactly (see {@link #fittedScale}) and returns the PNG bytes. */
    public static byte[] render(Fabric fabric, double scale, DiagramStyle style, FabricPainter.Options options)
            throws IOException {
        DiagramGeometry g = geometry(fabric, style);
        return draw(g, g.extent(), scale, style, options);
    }

    /** Draws the whole fabric at {@code wanted}, or smaller when that would pass {@link #MAX_PIXELS}. */
    public static Picture renderFitted(Fabric fabric, double wanted, DiagramStyle style, FabricPainter.Options options)
            throws IOException {
        DiagramGeometry g = geometry(fabric, style);
        double scale = fittedScale(g.extent(), wanted);
        return new Picture(draw(g, g.extent(), scale, style, options), scale);
    }

    private static DiagramGeometry geometry(Fabric fabric, DiagramStyle style) {
        Layout layout = fabric.layout().copy();
        new TieredLayout().placeMissing(fabric, layout);
        return new DiagramGeometry(fabric, layout, style);
    }

    private static byte[] draw(DiagramGeometry g, Bounds extent, double scale, DiagramStyle style,
            FabricPainter.Options options) throws IOException {
        int[] px = size(extent, scale);
        BufferedImage image = new BufferedImage(px[0], px[1], BufferedImage.TYPE_INT_ARGB_PRE);
        Graphics2D g2 = image.createGraphics();
        try {
            g2.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g2.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            Rgba bg = style.background();
            g2.setColor(new java.awt.Color(bg.r(), bg.g(), bg.b(), bg.a()));
            g2.fillRect(0, 0, px[0], px[1]);
            Viewport vp = new Viewport();
            vp.fit(extent, px[0], px[1] - LEGEND_PX, MARGIN_PX);
            Java2DPainter painter = Java2DPainter.onImage(image, g2);
            new FabricPainter(style).paint(painter, g, new Selection(), null, vp, px[0], px[1], options);
            painter.flush();
        } finally {
            g2.dispose();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(image, "png", out);
        return out.toByteArray();
    }
}
