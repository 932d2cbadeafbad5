package io.fabriclab.ui;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import io.fabriclab.diagram.Bounds;
import io.fabriclab.diagram.DiagramGeometry;
import io.fabriclab.diagram.DiagramStyle;
import io.fabriclab.diagram.FabricPainter;
import io.fabriclab.diagram.FoldGroup;
import io.fabriclab.diagram.Rgba;
import io.fabriclab.diagram.Viewport;
import io.fabriclab.edit.AddDeviceCommand;
import io.fabriclab.edit.AddLinkCommand;
import io.fabriclab.edit.DeleteSelectionCommand;
import io.fabriclab.edit.DeviceTemplate;
import io.fabriclab.edit.MoveDevicesCommand;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import javafx.animation.PauseTransition;
import javafx.application.Platform;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.geometry.Point2D;
import javafx.scene.Cursor;
import javafx.scene.canvas.Canvas;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import javafx.scene.input.ScrollEvent;
import javafx.scene.layout.Region;
import javafx.util.Duration;

/**
 * The fabric drawn on one {@link Canvas} through the diagram's {@link FabricPainter}, with the
 * editing gestures: click / shift-click / rubber-band selection, drag to move (snapped to the
 * grid, Alt for free), shift-drag or the link tool to cable two devices, wheel zoom around the
 * cursor, right/middle drag or space+drag to pan, Delete, tooltips. Every change to the fabric
 * goes through the document's command stack.
 */
public final class FabricCanvas extends Region {
    /** A press that moves less than this many pixels is a click, not a drag. */
    private static final double DRAG_THRESHOLD_PX = 4;
    /** How near (in pixels) a click must be to a link line to pick it. */
    private static final double LINK_PICK_PX = 5;
    /** One wheel notch (40 units of delta) zooms by 10 %. */
    private static final double ZOOM_PER_NOTCH = 1.1;

    private enum Gesture { NONE, MOVE, RUBBER_BAND, PAN, LINK }

    private final FabricDocument doc;
    private final Canvas canvas = new Canvas();
    private final Viewport viewport = new Viewport();
    private FabricPainter painter = new FabricPainter(new DiagramStyle());
    private FabricPainter.Options options = FabricPainter.Options.DEFAULT;
    private final ObjectProperty<EditorTool> tool = new SimpleObjectProperty<>(EditorTool.SELECT);
    private final ReadOnlyDoubleWrapper zoom = new ReadOnlyDoubleWrapper(1);
    private DiagramGeometry geometry;
    private FabricPainter.Stats lastStats;
    /**
     * The view (scale, offsets) Fit made last, null before the first fit: while the viewport still
     * shows exactly it, nobody panned or zoomed since ({@link #isStillFitted}).
     */
    private double[] fittedView;
    private boolean redrawPending;
    private Consumer<String> messages = m -> { };

    // Gesture state.
    private Gesture gesture = Gesture.NONE;
    private boolean dragged;
    private boolean additive;
    private double pressX;
    private double pressY;
    private double lastX;
    private double lastY;
    private Device pressedDevice;
    private final Map<String, Layout.Point> moveStart = new LinkedHashMap<>();
    private Bounds rubberBand;
    private Device linkTarget;
    private boolean spaceDown;
    private Object hover;
    private DeviceTemplate dropPreview;
    private double dropX;
    private double dropY;

    // Minimap: the whole fabric in a corner, re-rendered only when the fabric changes.
    private static final double MINIMAP_W = 220;
    private static final double MINIMAP_H = 140;
    private final Canvas minimap = new Canvas(MINIMAP_W, MINIMAP_H);
    private FabricPainter minimapPainter = new FabricPainter(new DiagramStyle());
    private final Viewport minimapView = new Viewport();
    private javafx.scene.image.WritableImage minimapImage;
    private long minimapRevision = -1;
    /** The part of the world the minimap's rectangle showed when last drawn. */
    private Bounds minimapShows;
    private final javafx.beans.property.BooleanProperty minimapVisible =
            new javafx.beans.property.SimpleBooleanProperty(true);

    /** A paint slower than this during a pan, zoom or drag switches to draft frames until the hand stops. */
    private static final long DRAFT_ABOVE_NANOS = 35_000_000L;
    private long lastPaintNanos;
    private boolean interacting;
    private final PauseTransition interactionEnd = new PauseTransition(Duration.millis(200));

    private final Tooltip tooltip = new Tooltip();
    private final PauseTransition tooltipDelay = new PauseTransition(Duration.millis(450));
    private double tooltipScreenX;
    private double tooltipScreenY;

    public FabricCanvas(FabricDocument doc) {
        this.doc = doc;
        getChildren().addAll(frameView, canvas, minimap);
        frameView.setVisible(renderer == Renderer.JAVA2D);
        canvas.setVisible(renderer == Renderer.FX);
        minimap.setId("minimap");
        minimap.visibleProperty().bind(minimapVisible);
        minimapVisible.addListener((o, a, b) -> requestRedraw());
        minimap.addEventHandler(MouseEvent.MOUSE_PRESSED, this::onMinimapMouse);
        minimap.addEventHandler(MouseEvent.MOUSE_DRAGGED, this::onMinimapMouse);
        minimap.addEventHandler(MouseEvent.MOUSE_RELEASED, MouseEvent::consume);
        minimap.addEventHandler(MouseEvent.MOUSE_MOVED, MouseEvent::consume);
        minimap.addEventHandler(ScrollEvent.SCROLL, ScrollEvent::consume);
        setFocusTraversable(true);
        setMinSize(200, 150);
        setPrefSize(1000, 700);
        doc.stack().addListener(this::modelChanged);
        doc.selection().addListener(this::requestRedraw);
        addEventHandler(MouseEvent.MOUSE_PRESSED, this::onPressed);
        addEventHandler(MouseEvent.MOUSE_DRAGGED, this::onDragged);
        addEventHandler(MouseEvent.MOUSE_RELEASED, this::onReleased);
        addEventHandler(MouseEvent.MOUSE_MOVED, this::onMoved);
        addEventHandler(MouseEvent.MOUSE_EXITED, e -> setHover(null, e));
        addEventHandler(ScrollEvent.SCROLL, this::onScroll);
        addEventHandler(MouseEvent.MOUSE_CLICKED, this::onClicked);
        addEventHandler(KeyEvent.KEY_PRESSED, this::onKeyPressed);
        addEventHandler(KeyEvent.KEY_RELEASED, this::onKeyReleased);
        interactionEnd.setOnFinished(e -> {
            interacting = false;
            requestRedraw();
        });
        tooltip.setWrapText(true);
        tooltip.setMaxWidth(420);
        tooltipDelay.setOnFinished(e -> {
            if (hover != null && getScene() != null && getScene().getWindow() != null) {
                tooltip.show(this, tooltipScreenX + 14, tooltipScreenY + 18);
            }
        });
    }

    // ----- live view hooks (ui.live) ------------------------------------------------------------

    /** Drawn over the fabric after each paint (the live view's congestion layer), in screen pixels. */
    @FunctionalInterface
    public interface Layer {
        void paint(io.fabriclab.diagram.Painter p, DiagramGeometry g, Map<Device, FoldGroup> folded, Viewport vp,
                   double w, double h);
    }

    private Layer layer;
    private java.util.function.Predicate<Link> linkClick;

    /** Sets (or with null removes) the layer painted over the fabric. */
    public void setLayer(Layer l) {
        this.layer = l;
        requestRedraw();
    }

    /** A click on a link goes here first; when it returns true the click is consumed (no selection). */
    public void setLinkClickHandler(java.util.function.Predicate<Link> handler) {
        this.linkClick = handler;
    }

    // ----- public API --------------------------------------------------------------------------

    public FabricDocument document() {
        return doc;
    }

    public Viewport viewport() {
        return viewport;
    }

    /**
     * The node that shows the fabric (tests and PNG export snapshot it): the image view of the
     * Java2D frame, or with {@link Renderer#FX} the canvas.
     */
    public javafx.scene.Node canvas() {
        return renderer == Renderer.JAVA2D ? frameView : canvas;
    }

    public ObjectProperty<EditorTool> toolProperty() {
        return tool;
    }

    /** Current zoom (1 = 100 %). */
    public ReadOnlyDoubleProperty zoomProperty() {
        return zoom.getReadOnlyProperty();
    }

    public FabricPainter.Options options() {
        return options;
    }

    public void setOptions(FabricPainter.Options o) {
        options = o;
        requestRedraw();
    }

    /** Draws in the light or dark colours of {@link DiagramStyle.Theme}; the highlight carries over. */
    public void setTheme(DiagramStyle.Theme theme) {
        FabricPainter next = new FabricPainter(new DiagramStyle(theme));
        next.setHighlight(painter.highlightedLinks(), highlightDevices);
        painter = next;
        minimapPainter = new FabricPainter(new DiagramStyle(theme));
        minimapImage = null;
        geometry = null;
        requestRedraw();
    }

    private java.util.Set<Device> highlightDevices = java.util.Set.of();

    /** Links and devices drawn with a highlight halo (ECMP paths, a deadlock cycle); empty sets clear it. */
    public void setHighlight(java.util.Set<Link> links, java.util.Set<Device> devices) {
        highlightDevices = java.util.Set.copyOf(devices);
        painter.setHighlight(links, devices);
        requestRedraw();
    }

    /** The painter (benchmarks and tests read its state). */
    public FabricPainter painter() {
        return painter;
    }

    /** What the last paint drew. */
    public FabricPainter.Stats lastStats() {
        return lastStats;
    }

    /** Where status messages go (link refused, device found...). */
    public void setOnMessage(Consumer<String> c) {
        messages = c;
    }

    /** The geometry of the fabric as drawn now (positions in world units, hit-testing). */
    public DiagramGeometry geometry() {
        if (geometry == null) {
            geometry = new DiagramGeometry(doc.fabric(), doc.fabric().layout(), painter.style());
        }
        return geometry;
    }

    /** Screen point (in this node's coordinates) of a world point. */
    public Point2D toLocal(double worldX, double worldY) {
        return new Point2D(viewport.toScreenX(worldX), viewport.toScreenY(worldY));
    }

    /** Local coordinates of a device's centre. */
    public Point2D centreOf(Device d) {
        Layout.Point p = doc.fabric().layout().position(d.id());
        return toLocal(p.x(), p.y());
    }

    public void zoomIn() {
        zoomAt(getWidth() / 2, getHeight() / 2, 1.25);
    }

    public void zoomOut() {
        zoomAt(getWidth() / 2, getHeight() / 2, 1 / 1.25);
    }

    /** Zooms by a factor keeping the local point (x, y) over the same world point. */
    public void zoomAt(double x, double y, double factor) {
        viewport.zoomAt(x, y, factor);
        viewChanged();
    }

    public void actualSize() {
        zoomAt(getWidth() / 2, getHeight() / 2, 1 / viewport.scale());
    }

    public void fitToWindow() {
        if (getWidth() > 0 && getHeight() > 0) {
            viewport.fit(geometry().extent(), getWidth(), getHeight(), 40);
            fittedView = new double[] {viewport.scale(), viewport.offsetX(), viewport.offsetY()};
            viewChanged();
        }
    }

    /** Selects a device by id (or the first whose id contains the text) and centres on it. */
    public boolean find(String text) {
        String t = text.trim();
        if (t.isEmpty()) {
            return false;
        }
        Device d = doc.fabric().device(t);
        if (d == null) {
            d = doc.fabric().devices().stream().filter(x -> x.id().contains(t)).findFirst().orElse(null);
        }
        if (d == null) {
            messages.accept("No device matches \"" + t + "\"");
            return false;
        }
        doc.selection().set(List.of(d), List.of());
        Layout.Point p = doc.fabric().layout().position(d.id());
        if (viewport.scale() < 0.6) {
            viewport.set(1.0, viewport.offsetX(), viewport.offsetY());
        }
        viewport.centreOn(p.x(), p.y(), getWidth(), getHeight());
        viewChanged();
        messages.accept("Found " + d.id());
        return true;
    }

    /** Centres the view on a device without changing the zoom (unless it is too small to read). */
    public void reveal(Device d) {
        if (d == null) {
            return;
        }
        Layout.Point p = doc.fabric().layout().position(d.id());
        if (p == null) {
            return;
        }
        if (viewport.scale() < 0.6) {
            viewport.set(1.0, viewport.offsetX(), viewport.offsetY());
        }
        viewport.centreOn(p.x(), p.y(), getWidth(), getHeight());
        viewChanged();
    }

    /** Deletes the selected devices (with their links) and links as one undoable step. */
    public void deleteSelection() {
        if (doc.selection().isEmpty()) {
            return;
        }
        DeleteSelectionCommand c = new DeleteSelectionCommand(doc.fabric(), doc.selection().devices(),
                doc.selection().links());
        doc.execute(c);
        messages.accept(c.description() + " (" + c.removedLinks().size() + " links removed)");
    }

    public void selectAll() {
        doc.selection().set(doc.fabric().devices(), doc.fabric().links());
    }

    /** Adds a device from a template at a local (screen) point, snapped to the grid. */
    public Device addDeviceAt(DeviceTemplate t, double x, double y) {
        double wx = snap(viewport.toWorldX(x));
        double wy = snap(viewport.toWorldY(y));
        AddDeviceCommand c = AddDeviceCommand.fromTemplate(doc.fabric(), t, wx, wy);
        doc.execute(c);
        doc.selection().set(List.of(c.device()), List.of());
        messages.accept(c.description());
        return c.device();
    }

    /** Shows where a palette drop would put a device (null template to hide). */
    public void previewDrop(DeviceTemplate t, double x, double y) {
        dropPreview = t;
        dropX = x;
        dropY = y;
        requestRedraw();
    }

    /** Cables two devices through the command stack; reports and returns null when impossible. */
    public Link link(Device a, Device b) {
        try {
            AddLinkCommand c = new AddLinkCommand(doc.fabric(), a, b);
            doc.execute(c);
            doc.selection().set(List.of(), List.of(c.link()));
            Link l = c.link();
            messages.accept("Linked " + l.a().ref() + " to " + l.b().ref() + " at " + FabricPainter.speedText(l.speedGbps())
                    + (l.a().speedGbps() != l.b().speedGbps() ? " (ports differ: runs at the slower speed)" : ""));
            return l;
        } catch (IllegalArgumentException ex) {
            messages.accept("Cannot link " + a.id() + " and " + b.id() + ": " + ex.getMessage());
            return null;
        }
    }

    // ----- painting ------------------------------------------------------------------------------

    @Override
    protected void layoutChildren() {
        double w = Math.floor(getWidth());
        double h = Math.floor(getHeight());
        minimap.relocate(Math.max(0, w - MINIMAP_W - 12), Math.max(0, h - MINIMAP_H - 12));
        if (canvas.getWidth() != w || canvas.getHeight() != h) {
            canvas.setWidth(w);
            canvas.setHeight(h);
            if (fittedView == null) {
                fitToWindow();
            }
            redraw();
        }
    }

    private void modelChanged() {
        geometry = null;
        baseDirty = true;
        requestRedraw();
    }

    /**
     * True when the viewport is still the one Fit made last (no pan or zoom since): the editor then
     * fits again after a change of the canvas's size that the user did not make to look closer,
     * such as the live view's panel opening beside it.
     */
    public boolean isStillFitted() {
        return fittedView != null && viewport.scale() == fittedView[0] && viewport.offsetX() == fittedView[1]
                && viewport.offsetY() == fittedView[2];
    }

    private void viewChanged() {
        zoom.set(viewport.scale());
        schedulePaint();
    }

    /** Coalesces repaint requests into one paint per pulse. */
    public void requestRedraw() {
        baseDirty = true;
        schedulePaint();
    }

    /**
     * A paint at the next pulse, for a change of the view only (pan, zoom): the cached fabric's key
     * holds the view, so it is not marked dirty and a pan can shift it.
     */
    private void schedulePaint() {
        if (!redrawPending) {
            redrawPending = true;
            Platform.runLater(() -> {
                redrawPending = false;
                redraw();
            });
        }
    }

    /**
     * Forgets the cached picture of the fabric, so the next paint draws it whole (what a selection
     * or hover change costs; the benchmark's "redraw" frames and tests use it).
     */
    public void invalidate() {
        baseDirty = true;
    }

    /** Paints now. */
    public void redraw() {
        if (canvas.getWidth() <= 0 || canvas.getHeight() <= 0) {
            return;
        }
        boolean draft = interacting && lastPaintNanos > DRAFT_ABOVE_NANOS;
        long t0 = System.nanoTime();
        paintFrame(options.withDraft(draft));
        if (!draft) {
            lastPaintNanos = System.nanoTime() - t0;
        }
    }

    /** One whole frame (fabric, overlays, minimap) with the given options; what the benchmark times. */
    public FabricPainter.Stats paintFrame(FabricPainter.Options o) {
        double w = canvas.getWidth();
        double h = canvas.getHeight();
        javafx.scene.canvas.GraphicsContext gc = canvas.getGraphicsContext2D();
        if (renderer == Renderer.JAVA2D) {
            double scale = renderScale();
            java.awt.Graphics2D g2 = offscreen.begin(w, h, scale);
            java.awt.image.BufferedImage image = offscreen.image();
            io.fabriclab.diagram.Java2DPainter p = io.fabriclab.diagram.Java2DPainter.onImage(image, g2);
            paintOverCachedFabric(p, image, o, w, h, scale);
            p.flush();
            javafx.scene.image.Image frame = offscreen.finish(g2);
            // Shown by an image view, not drawn into the canvas: the software pipeline then copies
            // the frame once into the scene instead of twice (into the canvas's texture, then that).
            frameView.setImage(frame);
            // At 1:1 no filtering is needed, and the software pipeline copies unfiltered images faster.
            frameView.setSmooth(scale != 1);
            frameView.setFitWidth(scale == 1 ? 0 : w);
            frameView.setFitHeight(scale == 1 ? 0 : h);
        } else {
            FxPainter p = new FxPainter(gc);
            paintLayers(p, o, w, h);
            p.flush();
        }
        if (minimapVisible.get()) {
            paintMinimap();
        }
        return lastStats;
    }

    /**
     * Everything that decides the fabric's picture besides the selection and highlight (which mark
     * the base dirty through {@link #requestRedraw}): a frame with the same key draws the same base.
     */
    private record BaseKey(DiagramGeometry geometry, long revision, Object hover, double scale, double offsetX,
                           double offsetY, double width, double height, double renderScale,
                           FabricPainter.Options options, FabricPainter painter) {
        /** The same picture seen from another offset (a pan). */
        BaseKey panned(double x, double y) {
            return new BaseKey(geometry, revision, hover, scale, x, y, width, height, renderScale, options, painter);
        }
    }

    /**
     * The fabric as last painted, without the legend and the overlays (premultiplied ARGB device
     * pixels), and what it was painted for. The legend, the layer (the live view's congestion marks,
     * repainted for every snapshot) and the overlays are drawn over a copy of it each frame.
     */
    private java.awt.image.BufferedImage base;
    private BaseKey baseKey;
    /** Whether the view {@link #baseKey} holds showed the whole fabric ({@link FabricPainter#drawsAll}). */
    private boolean baseDrawsAll;
    private FabricPainter.Stats baseStats;
    private boolean baseDirty = true;
    private long baseReuses;
    private long panShifts;

    /** Frames whose fabric was the previous frame's shifted by a pan (tests and the benchmark read it). */
    public long panShifts() {
        return panShifts;
    }

    /**
     * One frame from the cached fabric. While its key holds (the live view between two pans) the
     * fabric is one array copy instead of a thousand links. A pan of a view that shows the whole
     * fabric shifts the cached pixels and paints only the strips it uncovers: the rest of the
     * picture is the same, moved. Any other change paints the whole fabric.
     */
    private void paintOverCachedFabric(io.fabriclab.diagram.Java2DPainter p, java.awt.image.BufferedImage image,
                                       FabricPainter.Options o, double w, double h, double scale) {
        int pw = image.getWidth();
        int ph = image.getHeight();
        if (base == null || base.getWidth() != pw || base.getHeight() != ph) {
            base = new java.awt.image.BufferedImage(pw, ph, java.awt.image.BufferedImage.TYPE_INT_ARGB_PRE);
            baseKey = null;
        }
        int[] basePx = ((java.awt.image.DataBufferInt) base.getRaster().getDataBuffer()).getData();
        FabricPainter.Options fabricOnly = o.withLegend(false);
        BaseKey key = new BaseKey(geometry(), doc.stack().revision(), hover, viewport.scale(), viewport.offsetX(),
                viewport.offsetY(), w, h, scale, fabricOnly, painter);
        boolean drawsAll = painter.drawsAll(geometry(), viewport, w, h);
        BaseKey prev = baseKey;
        double dx = prev == null ? 0 : key.offsetX() - prev.offsetX();
        double dy = prev == null ? 0 : key.offsetY() - prev.offsetY();
        if (!baseDirty && key.equals(prev)) {
            baseReuses++;
        } else if (!baseDirty && prev != null && scale == 1 && baseDrawsAll && drawsAll
                && key.equals(prev.panned(key.offsetX(), key.offsetY()))
                && dx == Math.rint(dx) && dy == Math.rint(dy) && Math.abs(dx) < pw && Math.abs(dy) < ph) {
            int sx = (int) dx;
            int sy = (int) dy;
            shift(basePx, pw, ph, sx, sy);
            // The uncovered strips: columns on the side the picture moved away from, then rows.
            if (sx != 0) {
                paintBase(new java.awt.Rectangle(sx > 0 ? 0 : pw + sx, 0, Math.abs(sx), ph), fabricOnly, w, h, 1);
            }
            if (sy != 0) {
                paintBase(new java.awt.Rectangle(0, sy > 0 ? 0 : ph + sy, pw, Math.abs(sy)), fabricOnly, w, h, 1);
            }
            panShifts++;
        } else {
            paintBase(null, fabricOnly, w, h, scale);
        }
        baseKey = key;
        baseDrawsAll = drawsAll;
        baseDirty = false;
        lastStats = baseStats;
        int[] px = ((java.awt.image.DataBufferInt) image.getRaster().getDataBuffer()).getData();
        System.arraycopy(basePx, 0, px, 0, px.length);
        painter.paintLegend(p, geometry(), viewport, h, o);
        if (layer != null) {
            layer.paint(p, geometry(), painter.foldGroups(geometry(), viewport.scale(), o.fold()), viewport, w, h);
        }
        paintOverlay(p);
    }

    /**
     * Paints the fabric (no legend) into the cached base: all of it ({@code clip} null, at render
     * scale {@code scale}), or only the part {@code clip} (device pixels) a pan uncovered.
     */
    private void paintBase(java.awt.Rectangle clip, FabricPainter.Options fabricOnly, double w, double h,
                           double scale) {
        java.awt.Graphics2D g = base.createGraphics();
        g.scale(scale, scale);
        io.fabriclab.diagram.Java2DPainter bp = clip == null ? io.fabriclab.diagram.Java2DPainter.onImage(base, g)
                : io.fabriclab.diagram.Java2DPainter.onImage(base, g, clip);
        baseStats = painter.paint(bp, geometry(), doc.selection(), hover, viewport, w, h, fabricOnly);
        bp.flush();
        g.dispose();
    }

    /**
     * Moves the picture in {@code px} (w x h, row-major) by (dx, dy) pixels. One copy of the array:
     * rows move by dy and columns by dx together; what wraps from one row into the next lands in
     * the columns the shift uncovers, which are repainted.
     */
    static void shift(int[] px, int w, int h, int dx, int dy) {
        int off = dy * w + dx;
        int n = w * h;
        if (off > 0) {
            System.arraycopy(px, 0, px, off, n - off);
        } else if (off < 0) {
            System.arraycopy(px, -off, px, 0, n + off);
        }
    }

    /** Frames drawn from the cached fabric picture so far (tests and the live benchmark read it). */
    public long baseReuses() {
        return baseReuses;
    }

    private void paintLayers(io.fabriclab.diagram.Painter p, FabricPainter.Options o, double w, double h) {
        lastStats = painter.paint(p, geometry(), doc.selection(), hover, viewport, w, h, o);
        if (layer != null) {
            layer.paint(p, geometry(), painter.foldGroups(geometry(), viewport.scale(), o.fold()), viewport, w, h);
        }
        paintOverlay(p);
    }

    /** Device pixels per layout pixel of the window the canvas is in (1 unless HiDPI). */
    private double renderScale() {
        if (getScene() != null && getScene().getWindow() != null) {
            return Math.max(1, getScene().getWindow().getOutputScaleX());
        }
        return 1;
    }

    /** Who rasterises the canvas: Java2D off-screen (the default) or JavaFX's own canvas pipeline. */
    public enum Renderer {
        /** The diagram drawn by Java2D (Marlin) into an off-screen image, shown as one image. */
        JAVA2D,
        /** The diagram drawn through the canvas's GraphicsContext, rasterised by Prism. */
        FX
    }

    private Renderer renderer = "fx".equalsIgnoreCase(System.getProperty("fabriclab.renderer"))
            ? Renderer.FX : Renderer.JAVA2D;
    private final OffscreenFrame offscreen = new OffscreenFrame();

    public Renderer renderer() {
        return renderer;
    }

    /** Switches the rasteriser (the benchmark compares both in one run). */
    public void setRenderer(Renderer r) {
        renderer = r;
        frameView.setVisible(r == Renderer.JAVA2D);
        canvas.setVisible(r == Renderer.FX);
        requestRedraw();
    }

    /** Shows the Java2D frames (the canvas stays for the FX renderer and is hidden meanwhile). */
    private final javafx.scene.image.ImageView frameView = new javafx.scene.image.ImageView();

    public javafx.beans.property.BooleanProperty minimapVisibleProperty() {
        return minimapVisible;
    }

    /** The minimap node (tests click it). */
    public Canvas minimap() {
        return minimap;
    }

    /** The fabric picture is re-rendered when the fabric changed; the view rectangle on every paint. */
    private void paintMinimap() {
        javafx.scene.canvas.GraphicsContext gc = minimap.getGraphicsContext2D();
        long rev = doc.stack().revision();
        Bounds seen = viewport.visibleWorld(canvas.getWidth(), canvas.getHeight());
        if (minimapImage != null && rev == minimapRevision && seen.equals(minimapShows)) {
            // Nothing on it moved: redrawing the canvas would cost the render thread a frame of it
            // for every live-view frame.
            return;
        }
        minimapShows = seen;
        if (minimapImage == null || rev != minimapRevision) {
            minimapView.fit(geometry().extent(), MINIMAP_W, MINIMAP_H, 8);
            FxPainter mp = new FxPainter(gc);
            minimapPainter.paint(mp, geometry(), new io.fabriclab.diagram.Selection(), null, minimapView, MINIMAP_W,
                    MINIMAP_H, new FabricPainter.Options(false, false, false, FabricPainter.FoldMode.AUTO, false));
            minimapImage = minimap.snapshot(null, null);
            minimapRevision = rev;
        }
        gc.drawImage(minimapImage, 0, 0);
        double x = minimapView.toScreenX(seen.minX());
        double y = minimapView.toScreenY(seen.minY());
        double rw = seen.width() * minimapView.scale();
        double rh = seen.height() * minimapView.scale();
        gc.setFill(FxPainter.fx(DiagramStyle.RUBBER_BAND.withAlpha(30)));
        gc.fillRect(x, y, rw, rh);
        gc.setStroke(FxPainter.fx(DiagramStyle.RUBBER_BAND));
        gc.setLineWidth(1.5);
        gc.setLineDashes((double[]) null);
        gc.strokeRect(x, y, rw, rh);
        gc.setStroke(FxPainter.fx(DiagramStyle.LEGEND_STROKE));
        gc.setLineWidth(1);
        gc.strokeRect(0.5, 0.5, MINIMAP_W - 1, MINIMAP_H - 1);
    }

    /** A click or drag in the minimap centres the main view on that point of the fabric. */
    private void onMinimapMouse(MouseEvent e) {
        e.consume();
        if (e.getButton() != MouseButton.PRIMARY) {
            return;
        }
        viewport.centreOn(minimapView.toWorldX(e.getX()), minimapView.toWorldY(e.getY()), getWidth(), getHeight());
        viewChanged();
    }

    private void paintOverlay(io.fabriclab.diagram.Painter p) {
        if (rubberBand != null) {
            double x = viewport.toScreenX(rubberBand.minX());
            double y = viewport.toScreenY(rubberBand.minY());
            double w = rubberBand.width() * viewport.scale();
            double h = rubberBand.height() * viewport.scale();
            p.setFill(DiagramStyle.RUBBER_BAND.withAlpha(40));
            p.fillRect(x, y, w, h);
            p.setStroke(DiagramStyle.RUBBER_BAND, 1);
            p.setDash(4, 3);
            p.strokeRect(x + 0.5, y + 0.5, w, h);
            p.setDash();
        }
        if (gesture == Gesture.LINK && dragged && pressedDevice != null) {
            Point2D from = centreOf(pressedDevice);
            boolean ok = linkTarget != null && linkTarget != pressedDevice;
            p.setStroke(ok ? DiagramStyle.SELECTION : DiagramStyle.RUBBER_BAND, 2);
            p.setDash(6, 4);
            p.line(from.getX(), from.getY(), lastX, lastY);
            p.setDash();
            if (ok) {
                Bounds b = geometry().box(linkTarget);
                p.setStroke(DiagramStyle.SELECTION, 3);
                p.strokeRoundRect(viewport.toScreenX(b.minX()) - 3, viewport.toScreenY(b.minY()) - 3,
                        b.width() * viewport.scale() + 6, b.height() * viewport.scale() + 6, 6);
            }
        }
        if (dropPreview != null) {
            DiagramStyle st = painter.style();
            double wx = snap(viewport.toWorldX(dropX));
            double wy = snap(viewport.toWorldY(dropY));
            double bw = st.width(dropPreview.role()) * viewport.scale();
            double bh = st.height(dropPreview.role()) * viewport.scale();
            Rgba fill = st.fill(dropPreview.role());
            p.setFill(fill.withAlpha(110));
            p.fillRoundRect(viewport.toScreenX(wx) - bw / 2, viewport.toScreenY(wy) - bh / 2, bw, bh, 6);
            p.setStroke(fill, 1.5);
            p.setDash(4, 3);
            p.strokeRoundRect(viewport.toScreenX(wx) - bw / 2, viewport.toScreenY(wy) - bh / 2, bw, bh, 6);
            p.setDash();
        }
    }

    // ----- mouse ---------------------------------------------------------------------------------

    private void onPressed(MouseEvent e) {
        requestFocus();
        hideTooltip();
        pressX = lastX = e.getX();
        pressY = lastY = e.getY();
        dragged = false;
        additive = e.isShiftDown() || e.isShortcutDown();
        pressedDevice = null;
        if (e.getButton() == MouseButton.SECONDARY || e.getButton() == MouseButton.MIDDLE
                || (e.getButton() == MouseButton.PRIMARY && spaceDown)) {
            gesture = Gesture.PAN;
            setCursor(Cursor.CLOSED_HAND);
            return;
        }
        if (e.getButton() != MouseButton.PRIMARY) {
            return;
        }
        double wx = viewport.toWorldX(e.getX());
        double wy = viewport.toWorldY(e.getY());
        Device d = pick(wx, wy);
        if (d != null) {
            pressedDevice = d;
            if (tool.get() == EditorTool.LINK || e.isShiftDown()) {
                gesture = Gesture.LINK;
                return;
            }
            if (e.isShortcutDown()) {
                doc.selection().toggle(d);
                gesture = Gesture.NONE;
                return;
            }
            FoldGroup group = foldGroupAt(wx, wy);
            if (group != null && !doc.selection().devices().containsAll(group.members())) {
                // A folded box stands for all its servers: select and move them together.
                doc.selection().set(group.members(), List.of());
            } else if (group == null && !doc.selection().contains(d)) {
                doc.selection().set(List.of(d), List.of());
            }
            gesture = Gesture.MOVE;
            moveStart.clear();
            for (Device s : doc.selection().devices()) {
                Layout.Point p = doc.fabric().layout().position(s.id());
                if (p != null) {
                    moveStart.put(s.id(), p);
                }
            }
            return;
        }
        Link l = geometry().linkAt(wx, wy, LINK_PICK_PX / viewport.scale());
        if (l != null) {
            gesture = Gesture.NONE;
            if (linkClick != null && linkClick.test(l)) {
                return;
            }
            if (additive) {
                doc.selection().toggle(l);
            } else {
                doc.selection().set(List.of(), List.of(l));
            }
            return;
        }
        gesture = Gesture.RUBBER_BAND;
    }

    /** The fold group drawn at a world point, or null. */
    private FoldGroup foldGroupAt(double wx, double wy) {
        for (FoldGroup g : new java.util.LinkedHashSet<>(painter.foldGroups(geometry(), viewport.scale(),
                options.fold()).values())) {
            if (g.bounds().contains(wx, wy) && (geometry().deviceAt(wx, wy) == null
                    || painter.foldGroups(geometry(), viewport.scale(), options.fold())
                    .containsKey(geometry().deviceAt(wx, wy)))) {
                return g;
            }
        }
        return null;
    }

    /** The device under a world point; at low zoom a folded unit box picks its first member. */
    private Device pick(double wx, double wy) {
        Device d = geometry().deviceAt(wx, wy);
        Map<Device, FoldGroup> folded = painter.foldGroups(geometry(), viewport.scale(), options.fold());
        if (folded.isEmpty()) {
            return d;
        }
        if (d != null && !folded.containsKey(d)) {
            return d;
        }
        for (FoldGroup g : new java.util.LinkedHashSet<>(folded.values())) {
            if (g.bounds().contains(wx, wy)) {
                return g.members().get(0);
            }
        }
        return null;
    }

    private void onDragged(MouseEvent e) {
        double dx = e.getX() - lastX;
        double dy = e.getY() - lastY;
        if (!dragged && Math.hypot(e.getX() - pressX, e.getY() - pressY) >= DRAG_THRESHOLD_PX) {
            dragged = true;
        }
        lastX = e.getX();
        lastY = e.getY();
        switch (gesture) {
            case PAN -> {
                markInteracting();
                viewport.pan(dx, dy);
                viewChanged();
            }
            case MOVE -> {
                if (dragged) {
                    markInteracting();
                    moveSelection(e.getX(), e.getY(), !e.isAltDown());
                }
            }
            case RUBBER_BAND -> {
                if (dragged) {
                    rubberBand = Bounds.of(viewport.toWorldX(pressX), viewport.toWorldY(pressY),
                            viewport.toWorldX(e.getX()), viewport.toWorldY(e.getY()));
                    requestRedraw();
                }
            }
            case LINK -> {
                if (dragged) {
                    linkTarget = pick(viewport.toWorldX(e.getX()), viewport.toWorldY(e.getY()));
                    requestRedraw();
                }
            }
            default -> {
            }
        }
    }

    /** Moves the selection live; the pressed device snaps to the grid and the others keep their offsets. */
    private void moveSelection(double x, double y, boolean snapToGrid) {
        Layout.Point anchor = moveStart.get(pressedDevice.id());
        double ddx = (x - pressX) / viewport.scale();
        double ddy = (y - pressY) / viewport.scale();
        if (snapToGrid && anchor != null) {
            ddx = snap(anchor.x() + ddx) - anchor.x();
            ddy = snap(anchor.y() + ddy) - anchor.y();
        }
        Layout layout = doc.fabric().layout();
        for (Map.Entry<String, Layout.Point> s : moveStart.entrySet()) {
            layout.setPosition(s.getKey(), s.getValue().x() + ddx, s.getValue().y() + ddy);
        }
        geometry = null;
        requestRedraw();
    }

    /** Frames drawn from now until 200 ms after the last pan, zoom or drag step may be drafts. */
    private void markInteracting() {
        interacting = true;
        interactionEnd.playFromStart();
    }

    private void onReleased(MouseEvent e) {
        Gesture g = gesture;
        gesture = Gesture.NONE;
        setCursor(spaceDown ? Cursor.OPEN_HAND : Cursor.DEFAULT);
        switch (g) {
            case MOVE -> {
                if (dragged) {
                    finishMove();
                } else if (!additive && doc.selection().size() > 1
                        && foldGroupAt(viewport.toWorldX(pressX), viewport.toWorldY(pressY)) == null) {
                    doc.selection().set(List.of(pressedDevice), List.of());
                }
            }
            case RUBBER_BAND -> {
                if (dragged && rubberBand != null) {
                    List<Device> inside = geometry().devicesWithCentreIn(rubberBand);
                    Set<Device> set = new java.util.HashSet<>(inside);
                    if (additive) {
                        set.addAll(doc.selection().devices());
                    }
                    List<Link> links = new ArrayList<>();
                    for (Link l : doc.fabric().links()) {
                        if (set.contains(l.a().device()) && set.contains(l.b().device())) {
                            links.add(l);
                        }
                    }
                    if (additive) {
                        doc.selection().add(inside, links);
                    } else {
                        doc.selection().set(inside, links);
                    }
                } else if (!additive) {
                    doc.selection().clear();
                }
                rubberBand = null;
                requestRedraw();
            }
            case LINK -> {
                if (dragged) {
                    Device target = pick(viewport.toWorldX(e.getX()), viewport.toWorldY(e.getY()));
                    if (target != null && target != pressedDevice) {
                        link(pressedDevice, target);
                    }
                } else if (e.isShiftDown()) {
                    doc.selection().toggle(pressedDevice);
                } else {
                    doc.selection().set(List.of(pressedDevice), List.of());
                }
                linkTarget = null;
                requestRedraw();
            }
            default -> {
            }
        }
    }

    private void finishMove() {
        Map<String, Layout.Point> to = new HashMap<>();
        for (String id : moveStart.keySet()) {
            to.put(id, doc.fabric().layout().position(id));
        }
        if (!to.equals(moveStart)) {
            int n = to.size();
            doc.execute(new MoveDevicesCommand(doc.fabric(), n == 1 ? "Move " + pressedDevice.id() : "Move " + n
                    + " devices", moveStart, to));
        }
        moveStart.clear();
    }

    /** Double-click on a folded unit or rack zooms in until its servers unfold. */
    private void onClicked(MouseEvent e) {
        if (e.getButton() != MouseButton.PRIMARY || e.getClickCount() != 2) {
            return;
        }
        double wx = viewport.toWorldX(e.getX());
        double wy = viewport.toWorldY(e.getY());
        for (FoldGroup g : new java.util.LinkedHashSet<>(painter.foldGroups(geometry(), viewport.scale(),
                options.fold()).values())) {
            if (g.bounds().contains(wx, wy)) {
                viewport.fit(g.bounds().grow(40), getWidth(), getHeight(), 40);
                if (FabricPainter.foldsServersAt(viewport.scale(), options.fold())) {
                    viewport.zoomAt(getWidth() / 2, getHeight() / 2,
                            DiagramStyle.FOLD_BELOW_PX / DiagramStyle.SERVER_WIDTH * 1.05 / viewport.scale());
                }
                doc.selection().set(g.members(), List.of());
                messages.accept(g.key() + ": " + g.serverCount() + " servers, " + g.gpus() + " GPUs");
                viewChanged();
                return;
            }
        }
    }

    private void onMoved(MouseEvent e) {
        double wx = viewport.toWorldX(e.getX());
        double wy = viewport.toWorldY(e.getY());
        Object h = pick(wx, wy);
        if (h == null) {
            h = geometry().linkAt(wx, wy, LINK_PICK_PX / viewport.scale());
        }
        setHover(h, e);
    }

    private void setHover(Object h, MouseEvent e) {
        if (h == hover) {
            return;
        }
        hover = h;
        hideTooltip();
        if (h != null) {
            tooltip.setText(describe(h));
            tooltipScreenX = e.getScreenX();
            tooltipScreenY = e.getScreenY();
            tooltipDelay.playFromStart();
        }
        requestRedraw();
    }

    private void hideTooltip() {
        tooltipDelay.stop();
        tooltip.hide();
    }

    /** The text of the tooltip for a device or link. */
    public String describe(Object o) {
        Fabric f = doc.fabric();
        if (o instanceof Device d) {
            int free = f.freePorts(d).size();
            StringBuilder sb = new StringBuilder(d.id() + " (" + d.role() + ")");
            if (d.model() != null) {
                sb.append(" · ").append(d.model());
            }
            sb.append("\nports: ").append(d.portCount()).append(" (").append(d.portCount() - free).append(" used, ")
                    .append(free).append(" free)");
            if (d.gpus() > 0) {
                sb.append("\nGPUs: ").append(d.gpus());
            }
            if (d.unit() != null) {
                sb.append("\nunit ").append(d.unit());
            }
            if (d.rail() != null) {
                sb.append(d.unit() != null ? ", rail " : "\nrail ").append(d.rail());
            }
            List<Link> links = f.linksOf(d);
            int shown = 0;
            for (Link l : links) {
                if (shown++ == 8) {
                    sb.append("\n… ").append(links.size() - 8).append(" more links");
                    break;
                }
                Port mine = l.portOn(d);
                Port peer = l.opposite(mine);
                sb.append("\n").append(mine.name()).append(" → ").append(peer.ref()).append("  ")
                        .append(FabricPainter.speedText(l.speedGbps())).append(l.isUp() ? "" : " DOWN");
            }
            return sb.toString();
        }
        if (o instanceof Link l) {
            return l.a().ref() + " ↔ " + l.b().ref() + "\n" + FabricPainter.speedText(l.speedGbps()) + " · "
                    + l.cableLengthM() + " m " + l.cableType() + " · " + l.state().jsonName()
                    + "\nport speeds: " + FabricPainter.speedText(l.a().speedGbps()) + " / "
                    + FabricPainter.speedText(l.b().speedGbps());
        }
        return "";
    }

    private void onScroll(ScrollEvent e) {
        if (e.getDeltaY() == 0) {
            return;
        }
        markInteracting();
        zoomAt(e.getX(), e.getY(), Math.pow(ZOOM_PER_NOTCH, e.getDeltaY() / 40.0));
        e.consume();
    }

    // ----- keys --------------------------------------------------------------------------------

    private void onKeyPressed(KeyEvent e) {
        KeyCode k = e.getCode();
        if (k == KeyCode.DELETE || k == KeyCode.BACK_SPACE) {
            deleteSelection();
            e.consume();
        } else if (k == KeyCode.SPACE) {
            if (!spaceDown) {
                spaceDown = true;
                setCursor(Cursor.OPEN_HAND);
            }
            e.consume();
        } else if (k == KeyCode.ESCAPE) {
            if (gesture == Gesture.MOVE && dragged) {
                moveStart.forEach((id, p) -> doc.fabric().layout().setPosition(id, p.x(), p.y()));
                geometry = null;
            }
            gesture = Gesture.NONE;
            rubberBand = null;
            linkTarget = null;
            doc.selection().clear();
            requestRedraw();
            e.consume();
        } else if (!e.isShortcutDown() && (k == KeyCode.PLUS || k == KeyCode.ADD || k == KeyCode.EQUALS)) {
            zoomIn();
            e.consume();
        } else if (!e.isShortcutDown() && (k == KeyCode.MINUS || k == KeyCode.SUBTRACT)) {
            zoomOut();
            e.consume();
        } else if (!e.isShortcutDown() && k == KeyCode.F) {
            fitToWindow();
            e.consume();
        } else if (!e.isShortcutDown() && k == KeyCode.L) {
            tool.set(tool.get() == EditorTool.LINK ? EditorTool.SELECT : EditorTool.LINK);
            e.consume();
        } else if (isArrow(k) && !doc.selection().devices().isEmpty()) {
            nudge(k, e.isShiftDown() ? 5 * DiagramStyle.GRID : DiagramStyle.GRID);
            e.consume();
        }
    }

    private static boolean isArrow(KeyCode k) {
        return k == KeyCode.LEFT || k == KeyCode.RIGHT || k == KeyCode.UP || k == KeyCode.DOWN;
    }

    /** Moves the selected devices by one grid step (shift: five) as one undoable move. */
    private void nudge(KeyCode k, double step) {
        double dx = k == KeyCode.LEFT ? -step : k == KeyCode.RIGHT ? step : 0;
        double dy = k == KeyCode.UP ? -step : k == KeyCode.DOWN ? step : 0;
        Map<String, Layout.Point> from = new HashMap<>();
        Map<String, Layout.Point> to = new HashMap<>();
        for (Device d : doc.selection().devices()) {
            Layout.Point p = doc.fabric().layout().position(d.id());
            from.put(d.id(), p);
            to.put(d.id(), new Layout.Point(p.x() + dx, p.y() + dy));
        }
        doc.execute(new MoveDevicesCommand(doc.fabric(), "Nudge " + to.size() + " devices", from, to));
    }

    private void onKeyReleased(KeyEvent e) {
        if (e.getCode() == KeyCode.SPACE) {
            spaceDown = false;
            setCursor(Cursor.DEFAULT);
            e.consume();
        }
    }

    private static double snap(double v) {
        return Math.round(v / DiagramStyle.GRID) * DiagramStyle.GRID;
    }
}
