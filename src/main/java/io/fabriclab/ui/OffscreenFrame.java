package io.fabriclab.ui;

import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;
import java.nio.IntBuffer;

import javafx.scene.image.PixelBuffer;
import javafx.scene.image.PixelFormat;
import javafx.scene.image.WritableImage;

/**
 * A frame rasterised off-screen by Java2D and shown by JavaFX as one image.
 *
 * <p>The diagram is drawn into a {@link BufferedImage} of premultiplied ARGB ints (Java2D's Marlin
 * renderer, tile-based, so long diagonal links do not cost their bounding box as they do in
 * JavaFX's software pipeline). JavaFX reads the same ints through a {@link PixelBuffer}, so no
 * copy is made on the FX thread; the render thread uploads them when it draws the image.
 *
 * <p>Two buffers alternate: the render thread may still be reading the previous frame while the FX
 * thread draws the next one, and it must never see a half-drawn picture.
 *
 * <p>HiDPI: the buffers are {@code width x scale} by {@code height x scale} device pixels and the
 * painter works in layout pixels through a scale transform, so the picture is as sharp as JavaFX's
 * own canvas would be.
 */
final class OffscreenFrame {
    private final Buffer[] buffers = new Buffer[2];
    private int next;

    private static final class Buffer {
        final BufferedImage image;
        final PixelBuffer<IntBuffer> pixels;
        final WritableImage fx;

        Buffer(int w, int h) {
            image = new BufferedImage(w, h, BufferedImage.TYPE_INT_ARGB_PRE);
            int[] data = ((DataBufferInt) image.getRaster().getDataBuffer()).getData();
            pixels = new PixelBuffer<>(w, h, IntBuffer.wrap(data), PixelFormat.getIntArgbPreInstance());
            fx = new WritableImage(pixels);
        }
    }

    private Buffer current;

    /**
     * Starts a frame of {@code width x height} layout pixels at a render scale: returns a graphics
     * drawing into the next buffer in layout pixels. Call {@link #finish} when done.
     */
    Graphics2D begin(double width, double height, double scale) {
        int w = Math.max(1, (int) Math.ceil(width * scale));
        int h = Math.max(1, (int) Math.ceil(height * scale));
        Buffer b = buffers[next];
        if (b == null || b.image.getWidth() != w || b.image.getHeight() != h) {
            b = new Buffer(w, h);
            buffers[next] = b;
        }
        next = 1 - next;
        current = b;
        Graphics2D g = b.image.createGraphics();
        g.scale(scale, scale);
        return g;
    }

    /** The image of the frame being drawn (between begin and finish). */
    BufferedImage image() {
        return current.image;
    }

    /** Ends the frame started by {@link #begin}: the image JavaFX draws, marked changed. */
    WritableImage finish(Graphics2D g) {
        g.dispose();
        Buffer b = current;
        b.pixels.updateBuffer(p -> null); // null: the whole buffer changed
        return b.fx;
    }
}
