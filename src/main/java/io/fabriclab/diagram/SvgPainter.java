package io.fabriclab.diagram;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * A {@link Painter} that writes SVG 1.1 text, so reports and exports carry the same picture as the
 * editor. Transforms are applied to the coordinates (and stroke widths) as they are written, so the
 * output is flat and easy to diff.
 */
public final class SvgPainter implements Painter {
    private record State(Rgba fill, Rgba stroke, double width, double[] dash, double fontSize, boolean bold,
                         double scale, double tx, double ty) {
    }

    private final StringBuilder body = new StringBuilder();
    private final Deque<State> stack = new ArrayDeque<>();
    private final double width;
    private final double height;
    private Rgba fill = new Rgba(0, 0, 0, 255);
    private Rgba stroke = new Rgba(0, 0, 0, 255);
    private double strokeWidth = 1;
    private double[] dash = new double[0];
    private double fontSize = 12;
    private boolean bold;
    private double scale = 1;
    private double tx;
    private double ty;

    public SvgPainter(double width, double height) {
        this.width = width;
        this.height = height;
    }

    /** The complete SVG document. */
    public String toSvg() {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + n(width) + "\" height=\""
                + n(height) + "\" viewBox=\"0 0 " + n(width) + " " + n(height) + "\" font-family=\"sans-serif\">\n"
                + body + "</svg>\n";
    }

    @Override
    public void save() {
        stack.push(new State(fill, stroke, strokeWidth, dash, fontSize, bold, scale, tx, ty));
    }

    @Override
    public void restore() {
        State s = stack.pop();
        fill = s.fill();
        stroke = s.stroke();
        strokeWidth = s.width();
        dash = s.dash();
        fontSize = s.fontSize();
        bold = s.bold();
        scale = s.scale();
        tx = s.tx();
        ty = s.ty();
    }

    @Override
    public void translate(double dx, double dy) {
        tx += dx * scale;
        ty += dy * scale;
    }

    @Override
    public void scale(double factor) {
        scale *= factor;
    }

    @Override
    public void setFill(Rgba colour) {
        fill = colour;
    }

    @Override
    public void setStroke(Rgba colour, double width) {
        stroke = colour;
        strokeWidth = width;
    }

    @Override
    public void setDash(double... pattern) {
        dash = pattern.clone();
    }

    @Override
    public void setFont(double size, boolean bold) {
        fontSize = size;
        this.bold = bold;
    }

    @Override
    public void line(double x1, double y1, double x2, double y2) {
        body.append("<line x1=\"").append(n(x(x1))).append("\" y1=\"").append(n(y(y1))).append("\" x2=\"")
                .append(n(x(x2))).append("\" y2=\"").append(n(y(y2))).append('"').append(strokeAttrs()).append("/>\n");
    }

    @Override
    public void fillRect(double x, double y, double w, double h) {
        rect(x, y, w, h, 0, fillAttrs());
    }

    @Override
    public void strokeRect(double x, double y, double w, double h) {
        rect(x, y, w, h, 0, " fill=\"none\"" + strokeAttrs());
    }

    @Override
    public void fillRoundRect(double x, double y, double w, double h, double arc) {
        rect(x, y, w, h, arc, fillAttrs());
    }

    @Override
    public void strokeRoundRect(double x, double y, double w, double h, double arc) {
        rect(x, y, w, h, arc, " fill=\"none\"" + strokeAttrs());
    }

    @Override
    public void fillCircle(double cx, double cy, double r) {
        circle(cx, cy, r, fillAttrs());
    }

    @Override
    public void strokeCircle(double cx, double cy, double r) {
        circle(cx, cy, r, " fill=\"none\"" + strokeAttrs());
    }

    @Override
    public void text(String text, double x, double y, TextAnchor anchor) {
        String a = switch (anchor) {
            case START -> "start";
            case MIDDLE -> "middle";
            case END -> "end";
        };
        body.append("<text x=\"").append(n(x(x))).append("\" y=\"").append(n(y(y))).append("\" font-size=\"")
                .append(n(fontSize * scale)).append('"').append(bold ? " font-weight=\"bold\"" : "")
                .append(" text-anchor=\"").append(a).append("\" dominant-baseline=\"central\"").append(fillAttrs())
                .append('>').append(escape(text)).append("</text>\n");
    }

    private void rect(double x, double y, double w, double h, double arc, String attrs) {
        body.append("<rect x=\"").append(n(x(x))).append("\" y=\"").append(n(y(y))).append("\" width=\"")
                .append(n(w * scale)).append("\" height=\"").append(n(h * scale)).append('"');
        if (arc > 0) {
            body.append(" rx=\"").append(n(arc * scale)).append('"');
        }
        body.append(attrs).append("/>\n");
    }

    private void circle(double cx, double cy, double r, String attrs) {
        body.append("<circle cx=\"").append(n(x(cx))).append("\" cy=\"").append(n(y(cy))).append("\" r=\"")
                .append(n(r * scale)).append('"').append(attrs).append("/>\n");
    }

    private String fillAttrs() {
        return " fill=\"" + fill.toHexRgb() + "\"" + (fill.a() < 255 ? " fill-opacity=\"" + n(fill.opacity()) + "\"" : "");
    }

    private String strokeAttrs() {
        StringBuilder sb = new StringBuilder(" stroke=\"").append(stroke.toHexRgb()).append("\" stroke-width=\"")
                .append(n(strokeWidth * scale)).append('"');
        if (stroke.a() < 255) {
            sb.append(" stroke-opacity=\"").append(n(stroke.opacity())).append('"');
        }
        if (dash.length > 0) {
            sb.append(" stroke-dasharray=\"");
            for (int i = 0; i < dash.length; i++) {
                sb.append(i > 0 ? "," : "").append(n(dash[i] * scale));
            }
            sb.append('"');
        }
        return sb.toString();
    }

    private double x(double v) {
        return v * scale + tx;
    }

    private double y(double v) {
        return v * scale + ty;
    }

    /** Two decimals, no trailing zeros, never a locale comma. */
    private static String n(double v) {
        String s = String.format(Locale.ROOT, "%.2f", v);
        s = s.replaceAll("0+$", "").replaceAll("\\.$", "");
        return s.equals("-0") ? "0" : s;
    }

    private static String escape(String t) {
        return t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
