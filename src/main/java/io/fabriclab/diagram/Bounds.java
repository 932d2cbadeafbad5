package io.fabriclab.diagram;

/** An axis-aligned rectangle in world units (min corner inclusive, max corner inclusive). */
public record Bounds(double minX, double minY, double maxX, double maxY) {

    public static Bounds of(double x1, double y1, double x2, double y2) {
        return new Bounds(Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2));
    }

    public static Bounds centred(double cx, double cy, double w, double h) {
        return new Bounds(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2);
    }

    public double width() {
        return maxX - minX;
    }

    public double height() {
        return maxY - minY;
    }

    public double centreX() {
        return (minX + maxX) / 2;
    }

    public double centreY() {
        return (minY + maxY) / 2;
    }

    public boolean contains(double x, double y) {
        return x >= minX && x <= maxX && y >= minY && y <= maxY;
    }

    public boolean intersects(Bounds o) {
        return o.minX <= maxX && o.maxX >= minX && o.minY <= maxY && o.maxY >= minY;
    }

    public boolean containsAll(Bounds o) {
        return o.minX >= minX && o.maxX <= maxX && o.minY >= minY && o.maxY <= maxY;
    }

    public Bounds union(Bounds o) {
        return new Bounds(Math.min(minX, o.minX), Math.min(minY, o.minY), Math.max(maxX, o.maxX), Math.max(maxY, o.maxY));
    }

    public Bounds grow(double margin) {
        return new Bounds(minX - margin, minY - margin, maxX + margin, maxY + margin);
    }
}
