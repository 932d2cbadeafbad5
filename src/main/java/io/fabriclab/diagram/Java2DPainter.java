package io.fabriclab.diagram;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Shape;
import java.awt.font.LineMetrics;
import java.awt.geom.AffineTransform;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.geom.RoundRectangle2D;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * The diagram {@link Painter} over a Java2D {@link Graphics2D}, usually one drawing into an
 * off-screen {@code BufferedImage} that the editor then shows as a single image.
 *
 * <p>Why: JavaFX's software pipeline (the only one on a machine without a GPU) builds an alpha mask
 * over each shape's bounding box, so a long diagonal link costs its whole box and a fabric of a
 * thousand links costs tens of milliseconds. Java2D's Marlin renderer rasterises in 32 x 32 tiles
 * and skips the empty ones, which is several times cheaper for the same picture (measured with
 * {@code fabriclab bench editor}, figures in docs/performance.md).
 *
 * <p>The picture is the one the JavaFX painter draws: antialiased shapes with exact (not pixel-
 * snapped) geometry, square caps and mitre joins, the same colours, widths and dashes, and the
 * platform's sans-serif face for text (DejaVu Sans on Linux, the face JavaFX's "System" font uses
 * there). Consecutive lines of one stroke are batched into one path like the JavaFX painter does,
 * so translucent lines that cross look the same (one path's coverage is a union, not a sum).
 */
public final class Java2DPainter implements Painter {
    /** Lines per batched path, as in the JavaFX painter. */
    static final int MAX_PATH_LINES = 128;
    private static final String FAMILY = Font.SANS_SERIF;
    private static final Map<Rgba, Color> COLOURS = new HashMap<>();
    private static final Map<Long, Font> FONTS = new HashMap<>();
    /** One line raster per thread, reused from frame to frame (its coverage buffer is image-sized). */
    private static final ThreadLocal<LineRaster> RASTERS = new ThreadLocal<>();

    private record State(AffineTransform transform, Rgba fill, Rgba stroke, double width, double[] dash,
                         double fontSize, boolean bold) {
    }

    private final Graphics2D g;
    /** The image's pixels when lines can be drawn straight into them ({@link LineRaster}), else null. */
    private final int[] pixels;
    private final int pixelWidth;
    private final int pixelHeight;
    private final Deque<State> stack = new ArrayDeque<>();
    private Rgba fill = new Rgba(0, 0, 0, 255);
    private Rgba stroke = new Rgba(0, 0, 0, 255);
    private double strokeWidth = 1;
    private double[] dash;
    private BasicStroke basicStroke;
    private double fontSize = 12;
    private boolean bold;
    private Font font;
    private FontMetrics metrics;
    private double baselineShift;
    /** The graphics' transform, read once after each change (getTransform copies). */
    private AffineTransform transform;
    private final Path2D.Double path = new Path2D.Double(Path2D.WIND_NON_ZERO, 4 * MAX_PATH_LINES);
    private int pathLines;

    /** Paints on {@code g} (which this painter configures: antialiasing on, pure strokes). */
    public Java2DPainter(Graphics2D g) {
        this(g, null, 0, 0);
    }

    /**
     * Paints on an image of premultiplied ARGB ints through {@code g} (a graphics of that image,
     * possibly scaled); solid lines go straight into the pixels ({@link LineRaster}), the rest
     * through Java2D.
     */
    public static Java2DPainter onImage(java.awt.image.BufferedImage image, Graphics2D g) {
        if (image.getType() == java.awt.image.BufferedImage.TYPE_INT_ARGB_PRE
                && image.getRaster().getDataBuffer() instanceof java.awt.image.DataBufferInt db) {
            return new Java2DPainter(g, db.getData(), image.getWidth(), image.getHeight());
        }
        return new Java2DPainter(g);
    }

    /**
     * Like {@link #onImage(java.awt.image.BufferedImage, Graphics2D)}, but paints only inside
     * {@code clip} (device pixels): a pixel inside gets exactly what an unclipped paint gives it,
     * the others are left alone. Used to repaint the strips a pan uncovers.
     */
    public static Java2DPainter onImage(java.awt.image.BufferedImage image, Graphics2D g, java.awt.Rectangle clip) {
        AffineTransform t = g.getTransform();
        g.setTransform(new AffineTransform());
        g.setClip(clip);
        g.setTransform(t);
        Java2DPainter p = onImage(image, g);
        p.clip = new java.awt.Rectangle(clip);
        return p;
    }

    /** Device pixels this painter may touch, or null for the whole image. */
    private java.awt.Rectangle clip;

    private Java2DPainter(Graphics2D g, int[] pixels, int pixelWidth, int pixelHeight) {
        this.g = g;
        this.pixels = pixels;
        this.pixelWidth = pixelWidth;
        this.pixelHeight = pixelHeight;
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_FRACTIONALMETRICS, RenderingHints.VALUE_FRACTIONALMETRICS_ON);
        g.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_SPEED);
        setFont(fontSize, false);
    }

    static Color awt(Rgba c) {
        synchronized (COLOURS) {
            return COLOURS.computeIfAbsent(c, k -> new Color(k.r(), k.g(), k.b(), k.a()));
        }
    }

    private static Font font(double size, boolean bold) {
        long key = Math.round(size * 100) * 2 + (bold ? 1 : 0);
        synchronized (FONTS) {
            return FONTS.computeIfAbsent(key, k -> new Font(FAMILY, bold ? Font.BOLD : Font.PLAIN, 1)
                    .deriveFont((float) size));
        }
    }

    /** Strokes the pending lines; call at the end of a frame (every other call does it first). */
    public void flush() {
        if (pathLines > 0) {
            if (path.getCurrentPoint() != null) {
                g.setColor(awt(stroke));
                g.setStroke(basicStroke());
                g.draw(path);
                path.reset();
            }
            if (pixels != null) {
                LineRaster r = RASTERS.get();
                if (r != null && !r.isEmpty()) {
                    r.composite(pixels, stroke);
                }
            }
            pathLines = 0;
        }
    }

    private BasicStroke basicStroke() {
        if (basicStroke == null) {
            float[] d = null;
            if (dash != null) {
                d = new float[dash.length];
                for (int i = 0; i < d.length; i++) {
                    d[i] = (float) dash[i];
                }
            }
            // Square caps and mitre joins (limit 10) are JavaFX's defaults, kept so both look alike.
            basicStroke = new BasicStroke((float) strokeWidth, BasicStroke.CAP_SQUARE, BasicStroke.JOIN_MITER, 10f, d, 0f);
        }
        return basicStroke;
    }

    @Override
    public void save() {
        flush();
        stack.push(new State(g.getTransform(), fill, stroke, strokeWidth, dash, fontSize, bold));
    }

    @Override
    public void restore() {
        flush();
        State s = stack.pop();
        g.setTransform(s.transform());
        transform = null;
        fill = s.fill();
        if (!s.stroke().equals(stroke) || s.width() != strokeWidth || !Arrays.equals(s.dash(), dash)) {
            basicStroke = null;
        }
        stroke = s.stroke();
        strokeWidth = s.width();
        dash = s.dash();
        setFont(s.fontSize(), s.bold());
    }

    @Override
    public void translate(double dx, double dy) {
        flush();
        g.translate(dx, dy);
        transform = null;
    }

    @Override
    public void scale(double factor) {
        flush();
        g.scale(factor, factor);
        transform = null;
    }

    @Override
    public void setFill(Rgba colour) {
        fill = colour;
    }

    @Override
    public void setStroke(Rgba colour, double width) {
        if (!colour.equals(stroke) || width != strokeWidth) {
            flush();
            stroke = colour;
            if (width != strokeWidth) {
                strokeWidth = width;
                basicStroke = null;
            }
        }
    }

    @Override
    public void setDash(double... pattern) {
        double[] d = pattern.length == 0 ? null : pattern.clone();
        if (!Arrays.equals(d, dash)) {
            flush();
            dash = d;
            basicStroke = null;
        }
    }

    @Override
    public void setFont(double size, boolean bold) {
        if (font == null || size != fontSize || bold != this.bold) {
            fontSize = size;
            this.bold = bold;
            font = font(size, bold);
            metrics = null;
            LineMetrics lm = font.getLineMetrics("Hg", g.getFontRenderContext());
            baselineShift = (lm.getAscent() - lm.getDescent()) / 2.0;
        }
    }

    @Override
    public void line(double x1, double y1, double x2, double y2) {
        if (pathLines >= MAX_PATH_LINES) {
            flush();
        }
        if (pixels != null && dash == null) {
            if (transform == null) {
                transform = g.getTransform();
            }
            AffineTransform t = transform;
            int type = t.getType() & ~(AffineTransform.TYPE_TRANSLATION | AffineTransform.TYPE_UNIFORM_SCALE);
            if (type == 0 && t.getScaleX() > 0) {
                double s = t.getScaleX();
                double tx = t.getTranslateX();
                double ty = t.getTranslateY();
                raster().add(x1 * s + tx, y1 * s + ty, x2 * s + tx, y2 * s + ty, strokeWidth * s);
                pathLines++;
                return;
            }
        }
        path.moveTo(x1, y1);
        path.lineTo(x2, y2);
        pathLines++;
    }

    private LineRaster raster() {
        LineRaster r = RASTERS.get();
        if (r == null || r.width() != pixelWidth || r.height() != pixelHeight) {
            r = new LineRaster(pixelWidth, pixelHeight);
            RASTERS.set(r);
        }
        // The raster is shared by the painters of this thread: each sets its own clip.
        if (clip == null) {
            r.unclip();
        } else {
            r.clip(clip.x, clip.y, clip.x + clip.width, clip.y + clip.height);
        }
        return r;
    }

    private void fill(Shape s) {
        flush();
        g.setColor(awt(fill));
        g.fill(s);
    }

    private void draw(Shape s) {
        flush();
        g.setColor(awt(stroke));
        g.setStroke(basicStroke());
        g.draw(s);
    }

    @Override
    public void fillRect(double x, double y, double w, double h) {
        fill(new Rectangle2D.Double(x, y, w, h));
    }

    @Override
    public void strokeRect(double x, double y, double w, double h) {
        draw(new Rectangle2D.Double(x, y, w, h));
    }

    @Override
    public void fillRoundRect(double x, double y, double w, double h, double arc) {
        fill(new RoundRectangle2D.Double(x, y, w, h, 2 * arc, 2 * arc));
    }

    @Override
    public void strokeRoundRect(double x, double y, double w, double h, double arc) {
        draw(new RoundRectangle2D.Double(x, y, w, h, 2 * arc, 2 * arc));
    }

    @Override
    public void fillCircle(double cx, double cy, double r) {
        fill(new Ellipse2D.Double(cx - r, cy - r, 2 * r, 2 * r));
    }

    @Override
    public void strokeCircle(double cx, double cy, double r) {
        draw(new Ellipse2D.Double(cx - r, cy - r, 2 * r, 2 * r));
    }

    private FontMetrics metrics() {
        if (metrics == null) {
            metrics = g.getFontMetrics(font);
        }
        return metrics;
    }

    /** (x, y) is the anchor at the text's vertical middle: the baseline sits half the ascent minus descent below. */
    @Override
    public void text(String text, double x, double y, TextAnchor anchor) {
        flush();
        g.setColor(awt(fill));
        g.setFont(font);
        FontMetrics fm = metrics();
        double w = anchor == TextAnchor.START ? 0 : fm.getStringBounds(text, g).getWidth();
        double left = switch (anchor) {
            case START -> x;
            case MIDDLE -> x - w / 2;
            case END -> x - w;
        };
        g.drawString(text, (float) left, (float) (y + baselineShift));
    }

    @Override
    public double textWidth(String text, double size) {
        FontMetrics fm = size == fontSize ? metrics() : g.getFontMetrics(font(size, bold));
        return fm.getStringBounds(text, g).getWidth();
    }
}
