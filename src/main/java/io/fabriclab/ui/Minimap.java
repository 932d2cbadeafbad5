package io.fabriclab.ui;

import io.fabriclab.diagram.Bounds;
import io.fabriclab.diagram.DiagramStyle;
import io.fabriclab.diagram.FabricPainter;
import io.fabriclab.diagram.Viewport;
import javafx.scene.canvas.Canvas;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import javafx.scene.input.ScrollEvent;

/**
 * The whole fabric in a corner of the canvas with the visible part outlined; a click or drag
 * centres the main view there. The fabric's picture is rendered only when the fabric changes.
 */
final class Minimap {
    static final double W = 220;
    static final double H = 140;
    private final FabricCanvas c;
    private final Canvas node = new Canvas(W, H);
    private FabricPainter painter = new FabricPainter(new DiagramStyle());
    private final Viewport view = new Viewport();
    private javafx.scene.image.WritableImage image;
    private long revision = -1;
    /** The part of the world the rectangle showed when last drawn. */
    private Bounds shows;
    /** Set while a new picture of the changed fabric waits for its own turn on the FX thread. */
    private boolean renderPending;

    Minimap(FabricCanvas c) {
        this.c = c;
        node.setId("minimap");
        node.addEventHandler(MouseEvent.MOUSE_PRESSED, this::onMouse);
        node.addEventHandler(MouseEvent.MOUSE_DRAGGED, this::onMouse);
        node.addEventHandler(MouseEvent.MOUSE_RELEASED, MouseEvent::consume);
        node.addEventHandler(MouseEvent.MOUSE_MOVED, MouseEvent::consume);
        node.addEventHandler(ScrollEvent.SCROLL, ScrollEvent::consume);
    }

    Canvas node() {
        return node;
    }

    /** Draws in the theme's colours from the next paint on. */
    void setTheme(DiagramStyle.Theme theme) {
        painter = new FabricPainter(new DiagramStyle(theme));
        image = null;
    }

    /** The command stack's revision the minimap's picture shows (-1 before the first). */
    long renderedRevision() {
        return revision;
    }

    /** Whether a new picture is to be rendered in a turn of its own (asked by {@code paint(true)}). */
    boolean renderPending() {
        return renderPending;
    }

    /**
     * Draws the minimap: the fabric's picture, rendered again when the fabric changed, and the view
     * rectangle on every paint. When the fabric changed since its picture was rendered and {@code later}
     * is true, it shows the picture it has and renders the new one in a turn of its own on the FX
     * thread: after an edit of a large fabric, the main view's frame and the minimap's picture
     * (about 30 and 20 ms of CPU on the 64-unit rail fabric) are two pieces of work with input
     * handled between them, not one.
     */
    void paint(boolean later) {
        javafx.scene.canvas.GraphicsContext gc = node.getGraphicsContext2D();
        long rev = c.document().stack().revision();
        Bounds seen = c.viewport().visibleWorld(c.getWidth(), c.getHeight());
        if (image != null && rev == revision && seen.equals(shows)) {
            // Nothing on it moved: redrawing the canvas would cost the render thread a frame of it
            // for every live-view frame.
            return;
        }
        shows = seen;
        if (later && image != null && rev != revision) {
            if (!renderPending) {
                renderPending = true;
                javafx.application.Platform.runLater(() -> {
                    renderPending = false;
                    paint(false);
                });
            }
        } else if (image == null || rev != revision) {
            image = render();
            revision = rev;
        }
        gc.drawImage(image, 0, 0);
        double x = view.toScreenX(seen.minX());
        double y = view.toScreenY(seen.minY());
        double rw = seen.width() * view.scale();
        double rh = seen.height() * view.scale();
        gc.setFill(FxPainter.fx(DiagramStyle.RUBBER_BAND.withAlpha(30)));
        gc.fillRect(x, y, rw, rh);
        gc.setStroke(FxPainter.fx(DiagramStyle.RUBBER_BAND));
        gc.setLineWidth(1.5);
        gc.setLineDashes((double[]) null);
        gc.strokeRect(x, y, rw, rh);
        gc.setStroke(FxPainter.fx(DiagramStyle.LEGEND_STROKE));
        gc.setLineWidth(1);
        gc.strokeRect(0.5, 0.5, W - 1, H - 1);
    }

    /** Where the fabric's picture is rasterised (two buffers: the render thread may read the last). */
    private final OffscreenFrame frame = new OffscreenFrame();

    /**
     * The fabric's picture, painted on the FX thread off-screen by Java2D ({@link OffscreenFrame},
     * like the canvas's software renderer). Not a snapshot of the canvas: {@code Node.snapshot}
     * waits for the render thread to finish the frame in flight first, which after an edit of the
     * 64-unit rail fabric held the FX thread 40-480 ms.
     */
    private javafx.scene.image.WritableImage render() {
        java.awt.Graphics2D g = frame.begin(W, H, 1);
        io.fabriclab.diagram.Java2DPainter p = io.fabriclab.diagram.Java2DPainter.onImage(frame.image(), g);
        view.fit(c.geometry().extent(), W, H, 8);
        painter.paint(p, c.geometry(), new io.fabriclab.diagram.Selection(), null, view, W, H,
                new FabricPainter.Options(false, false, false, FabricPainter.FoldMode.AUTO, false));
        p.flush();
        return frame.finish(g);
    }

    /** A click or drag in the minimap centres the main view on that point of the fabric. */
    private void onMouse(MouseEvent e) {
        e.consume();
        if (e.getButton() != MouseButton.PRIMARY) {
            return;
        }
        c.viewport().centreOn(view.toWorldX(e.getX()), view.toWorldY(e.getY()), c.getWidth(), c.getHeight());
        c.viewChanged();
    }
}
