package io.fabriclab.diagram;

/**
 * Maps world coordinates (where the layout puts devices) to screen pixels:
 * screen = world * scale + offset. Zooming keeps a chosen screen point over the same world point.
 */
public final class Viewport {
    public static final double MIN_SCALE = 0.005;
    public static final double MAX_SCALE = 8.0;

    private double scale = 1.0;
    private double offsetX;
    private double offsetY;

    public double scale() {
        return scale;
    }

    public double offsetX() {
        return offsetX;
    }

    public double offsetY() {
        return offsetY;
    }

    public void set(double scale, double offsetX, double offsetY) {
        this.scale = clampScale(scale);
        this.offsetX = offsetX;
        this.offsetY = offsetY;
    }

    public double toScreenX(double worldX) {
        return worldX * scale + offsetX;
    }

    public double toScreenY(double worldY) {
        return worldY * scale + offsetY;
    }

    public double toWorldX(double screenX) {
        return (screenX - offsetX) / scale;
    }

    public double toWorldY(double screenY) {
        return (screenY - offsetY) / scale;
    }

    /** The world rectangle visible on a screen of the given size. */
    public Bounds visibleWorld(double widthPx, double heightPx) {
        return Bounds.of(toWorldX(0), toWorldY(0), toWorldX(widthPx), toWorldY(heightPx));
    }

    /** Moves the picture by a screen distance. */
    public void pan(double dxPx, double dyPx) {
        offsetX += dxPx;
        offsetY += dyPx;
    }

    /**
     * Multiplies the scale by {@code factor} (clamped to [MIN_SCALE, MAX_SCALE]) so that the world
     * point under screen point (sx, sy) stays under it: offset' = s - (s - offset) * scale'/scale.
     */
    public void zoomAt(double sx, double sy, double factor) {
        double newScale = clampScale(scale * factor);
        double k = newScale / scale;
        offsetX = sx - (sx - offsetX) * k;
        offsetY = sy - (sy - offsetY) * k;
        scale = newScale;
    }

    /** Fits world bounds into a screen of the given size with a margin in pixels, centred. */
    public void fit(Bounds world, double widthPx, double heightPx, double marginPx) {
        double w = Math.max(1, world.width());
        double h = Math.max(1, world.height());
        double availW = Math.max(1, widthPx - 2 * marginPx);
        double availH = Math.max(1, heightPx - 2 * marginPx);
        scale = clampScale(Math.min(availW / w, availH / h));
        offsetX = widthPx / 2 - world.centreX() * scale;
        offsetY = heightPx / 2 - world.centreY() * scale;
    }

    /** Puts a world point at the centre of a screen of the given size, keeping the scale. */
    public void centreOn(double worldX, double worldY, double widthPx, double heightPx) {
        offsetX = widthPx / 2 - worldX * scale;
        offsetY = heightPx / 2 - worldY * scale;
    }

    private static double clampScale(double s) {
        return Math.max(MIN_SCALE, Math.min(MAX_SCALE, s));
    }
}
