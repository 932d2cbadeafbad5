package io.fabriclab.diagram;

import java.util.ArrayList;
import java.util.List;

/** A painter that records what was drawn, for tests of the diagram without a toolkit. */
public final class RecordingPainter implements Painter {
    /** One drawing call: kind ("line", "fillRoundRect", "text"...), coordinates, colour and text. */
    public record Op(String kind, double x1, double y1, double x2, double y2, Rgba colour, String text) {
    }

    public final List<Op> ops = new ArrayList<>();
    private Rgba fill = new Rgba(0, 0, 0, 255);
    private Rgba stroke = new Rgba(0, 0, 0, 255);
    private int depth;

    public List<Op> ops(String kind) {
        return ops.stream().filter(o -> o.kind().equals(kind)).toList();
    }

    public List<String> texts() {
        return ops("text").stream().map(Op::text).toList();
    }

    public int depth() {
        return depth;
    }

    @Override
    public void save() {
        depth++;
    }

    @Override
    public void restore() {
        depth--;
    }

    @Override
    public void translate(double dx, double dy) {
    }

    @Override
    public void scale(double factor) {
    }

    @Override
    public void setFill(Rgba colour) {
        fill = colour;
    }

    @Override
    public void setStroke(Rgba colour, double width) {
        stroke = colour;
    }

    @Override
    public void setDash(double... pattern) {
    }

    @Override
    public void setFont(double size, boolean bold) {
    }

    @Override
    public void line(double x1, double y1, double x2, double y2) {
        ops.add(new Op("line", x1, y1, x2, y2, stroke, null));
    }

    @Override
    public void fillRect(double x, double y, double w, double h) {
        ops.add(new Op("fillRect", x, y, x + w, y + h, fill, null));
    }

    @Override
    public void strokeRect(double x, double y, double w, double h) {
        ops.add(new Op("strokeRect", x, y, x + w, y + h, stroke, null));
    }

    @Override
    public void fillRoundRect(double x, double y, double w, double h, double arc) {
        ops.add(new Op("fillRoundRect", x, y, x + w, y + h, fill, null));
    }

    @Override
    public void strokeRoundRect(double x, double y, double w, double h, double arc) {
        ops.add(new Op("strokeRoundRect", x, y, x + w, y + h, stroke, null));
    }

    @Override
    public void fillCircle(double cx, double cy, double r) {
        ops.add(new Op("fillCircle", cx - r, cy - r, cx + r, cy + r, fill, null));
    }

    @Override
    public void strokeCircle(double cx, double cy, double r) {
        ops.add(new Op("strokeCircle", cx - r, cy - r, cx + r, cy + r, stroke, null));
    }

    @Override
    public void text(String text, double x, double y, TextAnchor anchor) {
        ops.add(new Op("text", x, y, x, y, fill, text));
    }
}
