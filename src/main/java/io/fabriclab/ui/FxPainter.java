package io.fabriclab.ui;

import java.util.HashMap;
import java.util.Map;

import io.fabriclab.diagram.Painter;
import io.fabriclab.diagram.Rgba;
import io.fabriclab.diagram.TextAnchor;
import javafx.geometry.VPos;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.Text;
import javafx.scene.text.TextAlignment;

/** The diagram {@link Painter} over a JavaFX canvas. */
final class FxPainter implements Painter {
    private static final String SAMPLE = "0123456789abcdefghijklmnopqrstuvwxyz-_ ";
    private static final Map<Rgba, Color> COLOURS = new HashMap<>();
    private static final Map<Long, Double> CHAR_WIDTH = new HashMap<>();

    private final GraphicsContext gc;
    private double fontSize = 12;
    private boolean bold;
    // Consecutive lines with the same stroke go into one path, stroked once: the software renderer
    // pays per shape (mask and composite over its bounds), so a thousand lines as one path cost
    // about as much as a few separate ones. Any other drawing call strokes the pending path first.
    private boolean pathOpen;
    private Rgba stroke;
    private double strokeWidth = 1;
    private double[] dash;
    private Rgba pathStroke;
    private double pathWidth;
    private double[] pathDash;
    private int pathLines;
    /**
     * Lines per path: beyond a few hundred, every scanline crosses so many edges that sorting
     * them costs more than separate shapes would (measured with `fabriclab bench editor`).
     */
    static final int MAX_PATH_LINES = 128;

    FxPainter(GraphicsContext gc) {
        this.gc = gc;
        gc.setTextBaseline(VPos.CENTER);
        gc.setFont(font(fontSize, false));
    }

    static Color fx(Rgba c) {
        return COLOURS.computeIfAbsent(c, k -> Color.rgb(k.r(), k.g(), k.b(), k.opacity()));
    }

    private static Font font(double size, boolean bold) {
        return Font.font("System", bold ? FontWeight.BOLD : FontWeight.NORMAL, size);
    }

    /** Strokes the pending lines; call at the end of a frame (restore does it too). */
    void flush() {
        if (pathOpen) {
            pathOpen = false;
            gc.stroke();
        }
    }

    @Override
    public void save() {
        flush();
        gc.save();
    }

    @Override
    public void restore() {
        flush();
        gc.restore();
    }

    @Override
    public void translate(double dx, double dy) {
        flush();
        gc.translate(dx, dy);
    }

    @Override
    public void scale(double factor) {
        flush();
        gc.scale(factor, factor);
    }

    @Override
    public void setFill(Rgba colour) {
        gc.setFill(fx(colour));
    }

    @Override
    public void setStroke(Rgba colour, double width) {
        if (pathOpen && (!colour.equals(pathStroke) || width != pathWidth)) {
            flush();
        }
        stroke = colour;
        strokeWidth = width;
        gc.setStroke(fx(colour));
        gc.setLineWidth(width);
    }

    @Override
    public void setDash(double... pattern) {
        double[] d = pattern.length == 0 ? null : pattern.clone();
        if (pathOpen && !java.util.Arrays.equals(d, pathDash)) {
            flush();
        }
        dash = d;
        gc.setLineDashes(d);
    }

    @Override
    public void setFont(double size, boolean bold) {
        if (size != fontSize || bold != this.bold) {
            fontSize = size;
            this.bold = bold;
            gc.setFont(font(size, bold));
        }
    }

    @Override
    public void line(double x1, double y1, double x2, double y2) {
        if (pathOpen && pathLines >= MAX_PATH_LINES) {
            flush();
        }
        if (!pathOpen) {
            pathLines = 0;
            gc.beginPath();
            pathOpen = true;
            pathStroke = stroke;
            pathWidth = strokeWidth;
            pathDash = dash;
        }
        gc.moveTo(x1, y1);
        gc.lineTo(x2, y2);
        pathLines++;
    }

    @Override
    public void fillRect(double x, double y, double w, double h) {
        flush();
        gc.fillRect(x, y, w, h);
    }

    @Override
    public void strokeRect(double x, double y, double w, double h) {
        flush();
        gc.strokeRect(x, y, w, h);
    }

    @Override
    public void fillRoundRect(double x, double y, double w, double h, double arc) {
        flush();
        gc.fillRoundRect(x, y, w, h, 2 * arc, 2 * arc);
    }

    @Override
    public void strokeRoundRect(double x, double y, double w, double h, double arc) {
        flush();
        gc.strokeRoundRect(x, y, w, h, 2 * arc, 2 * arc);
    }

    @Override
    public void fillCircle(double cx, double cy, double r) {
        flush();
        gc.fillOval(cx - r, cy - r, 2 * r, 2 * r);
    }

    @Override
    public void strokeCircle(double cx, double cy, double r) {
        flush();
        gc.strokeOval(cx - r, cy - r, 2 * r, 2 * r);
    }

    @Override
    public void text(String text, double x, double y, TextAnchor anchor) {
        flush();
        gc.setTextAlign(switch (anchor) {
            case START -> TextAlignment.LEFT;
            case MIDDLE -> TextAlignment.CENTER;
            case END -> TextAlignment.RIGHT;
        });
        gc.fillText(text, x, y);
    }

    /** Width from the font's mean character width (measured once per size), cheap enough per label per frame. */
    @Override
    public double textWidth(String text, double size) {
        long key = Math.round(size * 10) * 2 + (bold ? 1 : 0);
        double perChar = CHAR_WIDTH.computeIfAbsent(key, k -> {
            Text t = new Text(SAMPLE);
            t.setFont(font(size, bold));
            return t.getLayoutBounds().getWidth() / SAMPLE.length();
        });
        return text.length() * perChar;
    }
}
