package io.fabriclab.diagram;

/**
 * The drawing surface a diagram paints on, small enough to implement over a JavaFX canvas, an SVG
 * writer or a test recorder, so the editor and the report draw the same picture. State (stroke,
 * fill, dash, font, transform) persists until changed, like a canvas graphics context; {@link #save()}
 * and {@link #restore()} nest. Coordinates are in the current user space.
 */
public interface Painter {

    void save();

    void restore();

    void translate(double dx, double dy);

    void scale(double factor);

    void setFill(Rgba colour);

    /** Stroke colour and width (in user-space units). */
    void setStroke(Rgba colour, double width);

    /** Dash pattern (on, off, ...); an empty array draws solid lines. */
    void setDash(double... pattern);

    /** Font size in user-space units; bold or regular of the painter's sans-serif face. */
    void setFont(double size, boolean bold);

    void line(double x1, double y1, double x2, double y2);

    void fillRect(double x, double y, double w, double h);

    void strokeRect(double x, double y, double w, double h);

    /** A rectangle with rounded corners of radius {@code arc}. */
    void fillRoundRect(double x, double y, double w, double h, double arc);

    void strokeRoundRect(double x, double y, double w, double h, double arc);

    void fillCircle(double cx, double cy, double r);

    void strokeCircle(double cx, double cy, double r);

    /** Fills text with the fill colour; (x, y) is the anchor point at the text's vertical middle. */
    void text(String text, double x, double y, TextAnchor anchor);

    /**
     * Width of a text at the current font; the default estimates 0.6 em per character (close for
     * sans-serif digits and lower case), painters that can measure should.
     */
    default double textWidth(String text, double fontSize) {
        return text.length() * fontSize * 0.6;
    }
}
