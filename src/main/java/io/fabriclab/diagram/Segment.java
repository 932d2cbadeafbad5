package io.fabriclab.diagram;

/** A straight line between two world points (a link as drawn). */
public record Segment(double x1, double y1, double x2, double y2) {

    public Bounds bounds() {
        return Bounds.of(x1, y1, x2, y2);
    }

    /** Distance from a point to the nearest point of the segment. */
    public double distanceTo(double px, double py) {
        double dx = x2 - x1;
        double dy = y2 - y1;
        double len2 = dx * dx + dy * dy;
        double t = len2 == 0 ? 0 : ((px - x1) * dx + (py - y1) * dy) / len2;
        t = Math.max(0, Math.min(1, t));
        double cx = x1 + t * dx;
        double cy = y1 + t * dy;
        return Math.hypot(px - cx, py - cy);
    }
}
