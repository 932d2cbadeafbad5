package io.fabriclab.ui;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

import io.fabriclab.diagram.Bounds;
import io.fabriclab.diagram.DiagramGeometry;
import io.fabriclab.diagram.DiagramStyle;
import io.fabriclab.diagram.FabricPainter;
import io.fabriclab.diagram.FoldGroup;
import io.fabriclab.diagram.Viewport;
import io.fabriclab.edit.AddDeviceCommand;
import io.fabriclab.edit.AddLinkCommand;
import io.fabriclab.edit.DeleteSelectionCommand;
import io.fabriclab.edit.DeviceTemplate;
import io.fabriclab.model.Device;
import io.fabriclab.model.Layout;
import io.fabriclab.model.Link;
import javafx.application.Platform;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.geometry.Point2D;
import javafx.scene.canvas.Canvas;
import javafx.scene.layout.Region;

/**
 * The fabric drawn through the diagram's {@link FabricPainter}: the view (viewport, zoom, fit), the
 * painting (Java2D off-screen frames with a cached fabric picture that a pan shifts, or the JavaFX
 * canvas; see {@link Renderer}), the {@link Minimap} and the live view's layer. Input is handled by
 * {@link CanvasInteraction}; every change to the fabric goes through the document's command stack.
 * About 970 lines, above the 600 the ui classes aim for: the overlay placement (legend and minimap
 * take a corner free of devices each frame) reads the same view state; the Java2D frame cache and its pan shift
 * share the view state (viewport, geometry, painter, render scale) with the paint, and the
 * {@link Renderer} choice stays here because the benchmarks and the live view name it as
 * {@code FabricCanvas.Renderer}, and the repaint's turns decide when work waiting on them runs
 * ({@code whenPainted}); the next split would be the cache into its own class.
 */
public final class FabricCanvas extends Region {

    private final FabricDocument doc;
    private final CanvasInteraction interaction;
    private final Canvas canvas = new Canvas();
    private final Viewport viewport = new Viewport();
    private FabricPainter painter = new FabricPainter(new DiagramStyle());
    private FabricPainter.Options options = FabricPainter.Options.DEFAULT;
    private final ObjectProperty<EditorTool> tool = new SimpleObjectProperty<>(EditorTool.SELECT);
    private final ReadOnlyDoubleWrapper zoom = new ReadOnlyDoubleWrapper(1);
    private DiagramGeometry geometry;
    /**
     * The fabric changed since {@link #geometry} was made: the next use updates it
     * ({@link DiagramGeometry#update}), which after a move or an edit that changes nothing drawn
     * keeps the hit-test index and lets the painter keep its fold and link groups.
     */
    private boolean geometryStale;
    private FabricPainter.Stats lastStats;
    /**
     * The view (scale, offsets) Fit made last, null before the first fit: while the viewport still
     * shows exactly it, nobody panned or zoomed since ({@link #isStillFitted}).
     */
    private double[] fittedView;
    private boolean redrawPending;
    /** A paint slower than this during a pan, zoom or drag switches to draft frames until the hand stops. */
    private static final long DRAFT_ABOVE_NANOS = 35_000_000L;
    private long lastPaintNanos;
    private Consumer<String> messages = m -> { };

    private final Minimap minimapView = new Minimap(this);
    private final Canvas minimap = minimapView.node();
    private final javafx.beans.property.BooleanProperty minimapVisible =
            new javafx.beans.property.SimpleBooleanProperty(true);

    /**
     * How an overlay (legend, minimap) is shown (issue 16 item 11): AUTO puts it in a corner where it
     * covers no device and folds it to a chip when no corner is free; a click on its "–" folds it
     * (CLOSED), a click on the chip opens it (OPEN, in its corner even over devices).
     */
    enum OverlayMode { AUTO, OPEN, CLOSED }

    static final double OVERLAY_MARGIN = 12;
    private OverlayMode legendMode = OverlayMode.AUTO;
    private OverlayMode minimapMode = OverlayMode.AUTO;
    /** The layer's (live view's) legend: shown where it covers nothing, folded, or opened by the user. */
    private OverlayMode layerLegendMode = OverlayMode.AUTO;
    private Bounds layerLegendBox;
    private Bounds layerLegendChip;
    /** Where the legend was drawn in the last frame (screen), or null when it was folded or off. */
    private Bounds legendBox;
    /** Where the folded legend's chip was drawn, or null. */
    private Bounds legendChip;
    private final javafx.beans.property.BooleanProperty minimapFolded =
            new javafx.beans.property.SimpleBooleanProperty(false);
    private final javafx.scene.control.Label minimapChip = new javafx.scene.control.Label("Map ▸");
    private final javafx.scene.control.Label minimapClose = new javafx.scene.control.Label("–");

    /**
     * The way back after a double-click into a folded unit or group (issue 32, "Seeing it"):
     * "Whole fabric › unit 12" at the top left; its link fits the whole fabric again.
     */
    private final javafx.scene.layout.HBox breadcrumb = new javafx.scene.layout.HBox(2);
    private final javafx.scene.control.Hyperlink crumbHome = new javafx.scene.control.Hyperlink("Whole fabric");
    private final javafx.scene.control.Label crumbHere = new javafx.scene.control.Label();

    public FabricCanvas(FabricDocument doc) {
        this.doc = doc;
        getChildren().addAll(frameView, canvas, minimap, minimapClose, minimapChip, breadcrumb);
        breadcrumb.getChildren().addAll(crumbHome, crumbHere);
        breadcrumb.setId("drill-breadcrumb");
        breadcrumb.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        breadcrumb.setStyle("-fx-background-color: rgba(255,255,255,0.92); -fx-border-color: #9aa5b1;"
                + " -fx-border-radius: 6; -fx-background-radius: 6; -fx-padding: 1 8 1 4;");
        crumbHere.setStyle("-fx-font-weight: bold; -fx-text-fill: #1f2933;");
        crumbHome.setTooltip(new javafx.scene.control.Tooltip("back to the whole fabric (Fit)"));
        crumbHome.setOnAction(e -> leaveDrillDown());
        breadcrumb.setVisible(false);
        breadcrumb.setManaged(false);
        frameView.setVisible(renderer == Renderer.JAVA2D);
        canvas.setVisible(renderer == Renderer.FX);
        minimap.visibleProperty().bind(minimapVisible.and(minimapFolded.not()));
        minimapClose.visibleProperty().bind(minimap.visibleProperty());
        minimapChip.visibleProperty().bind(minimapVisible.and(minimapFolded));
        minimapChip.setId("minimap-chip");
        minimapClose.setId("minimap-close");
        minimapChip.setStyle("-fx-background-color: rgba(255,255,255,0.92); -fx-border-color: #9aa5b1;"
                + " -fx-border-radius: 6; -fx-background-radius: 6; -fx-padding: 3 8 3 8; -fx-font-weight: bold;"
                + " -fx-text-fill: #1f2933; -fx-cursor: hand;");
        minimapClose.setStyle("-fx-font-weight: bold; -fx-font-size: 13px; -fx-text-fill: #52606d;"
                + " -fx-padding: 0 5 0 5; -fx-cursor: hand;");
        minimapChip.setTooltip(new javafx.scene.control.Tooltip("show the minimap"));
        minimapClose.setTooltip(new javafx.scene.control.Tooltip("fold the minimap"));
        minimapChip.setOnMousePressed(e -> {
            e.consume();
            minimapMode = OverlayMode.OPEN;
            requestRedraw();
        });
        minimapClose.setOnMousePressed(e -> {
            e.consume();
            minimapMode = OverlayMode.CLOSED;
            requestRedraw();
        });
        addEventFilter(javafx.scene.input.MouseEvent.ANY, this::legendClick);
        minimapVisible.addListener((o, a, b) -> requestRedraw());
        setFocusTraversable(true);
        setMinSize(200, 150);
        setPrefSize(1000, 700);
        doc.stack().addListener(this::modelChanged);
        doc.selection().addListener(this::requestRedraw);
        interaction = new CanvasInteraction(this);
    }

    /** Status messages (link refused, device found...) go to the editor's status bar. */
    void message(String m) {
        messages.accept(m);
    }

    /** The layout moved under the geometry (a drag in progress): updated at the next use. */
    void geometryChanged() {
        geometryStale = true;
        requestRedraw();
    }

    Predicate<Link> linkClickHandler() {
        return linkClick;
    }

    /** The text of the tooltip for a device or link. */
    public String describe(Object o) {
        return interaction.describe(o);
    }

    /** The nearest grid point (world units) to a coordinate. */
    static double snap(double v) {
        return Math.round(v / DiagramStyle.GRID) * DiagramStyle.GRID;
    }

    // ----- live view hooks (ui.live) ------------------------------------------------------------

    /** Drawn over the fabric after each paint (the live view's congestion layer), in screen pixels. */
    @FunctionalInterface
    public interface Layer {
        void paint(io.fabriclab.diagram.Painter p, DiagramGeometry g, Map<Device, FoldGroup> folded, Viewport vp,
                   double w, double h);

        /**
         * The layer's legend size in pixels ({width, height}), or null for none. The canvas puts it
         * in a corner where it covers no device and no link (the layer's marks sit on links), or
         * folds it to a chip when no corner is free, as it does its own legend and the minimap.
         */
        default double[] legendSize() {
            return null;
        }

        /** Paints the layer's legend with its top left corner at (x, y), over the layer's marks. */
        default void paintLegend(io.fabriclab.diagram.Painter p, double x, double y) {
        }

        /** The folded legend chip's text. */
        default String legendChipText() {
            return "Live legend ▸";
        }
    }

    private Layer layer;
    private Predicate<Link> linkClick;

    /** The layer painted over the fabric now, or null (the measured layer yields to the live view's). */
    Layer layer() {
        return layer;
    }

    /** Sets (or with null removes) the layer painted over the fabric. */
    public void setLayer(Layer l) {
        boolean fitted = isStillFitted();
        this.layer = l;
        if (fitted) {
            fitToWindow(); // with or without the room the layer's legend takes
        }
        requestRedraw();
    }

    /** A click on a link goes here first; when it returns true the click is consumed (no selection). */
    public void setLinkClickHandler(Predicate<Link> handler) {
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
        minimapView.setTheme(theme);
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
        if (geometry == null || geometryStale) {
            geometry = DiagramGeometry.update(geometry, doc.fabric(), doc.fabric().layout(), painter.style());
            geometryStale = false;
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

    /** Shows the breadcrumb after a drill-down into the group {@code name} ("unit 12"). */
    void drilledInto(String name) {
        crumbHere.setText("›  " + name);
        breadcrumb.setVisible(true);
        breadcrumb.autosize();
        breadcrumb.relocate(OVERLAY_MARGIN, OVERLAY_MARGIN);
    }

    /** The breadcrumb's text ("Whole fabric ›  unit 12"), or null when none is shown. */
    public String drillDownPath() {
        return breadcrumb.isVisible() ? crumbHome.getText() + " " + crumbHere.getText() : null;
    }

    /** Back from a drill-down: the whole fabric, fitted. */
    public void leaveDrillDown() {
        fitToWindow();
    }

    public void fitToWindow() {
        breadcrumb.setVisible(false);
        if (getWidth() > 0 && getHeight() > 0) {
            // A layer with a legend (the live view's) gets room of its own: a band above the drawing
            // or a column on its right, whichever shrinks the drawing less, so the fitted view leaves
            // the legend a corner where it hides nothing (issue 35 item 2).
            Bounds extent = geometry().extent();
            double w = getWidth();
            double h = getHeight();
            double[] legend = layer == null ? null : layer.legendSize();
            double full = fitScale(extent, w, h);
            double column = legend == null ? 0 : fitScale(extent, w - legend[0] - OVERLAY_MARGIN, h);
            double band = legend == null ? 0 : fitScale(extent, w, h - legend[1] - OVERLAY_MARGIN);
            if (legend == null || Math.max(column, band) < full / 2) {
                viewport.fit(extent, w, h, 40); // no room to spare: the legend folds to its chip when it must
            } else if (band >= column) {
                double top = legend[1] + OVERLAY_MARGIN;
                viewport.fit(extent, w, h - top, 40);
                viewport.set(viewport.scale(), viewport.offsetX(), viewport.offsetY() + top);
            } else {
                viewport.fit(extent, w - legend[0] - OVERLAY_MARGIN, h, 40);
            }
            fittedView = new double[] {viewport.scale(), viewport.offsetX(), viewport.offsetY()};
            viewChanged();
        }
    }

    /** The scale {@link Viewport#fit} gives {@code world} in a w x h screen with its 40 px margin. */
    private static double fitScale(Bounds world, double w, double h) {
        return Math.min(Math.max(1, w - 80) / Math.max(1, world.width()), Math.max(1, h - 80) / Math.max(1, world.height()));
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

    /**
     * Adds a device from a template at the free place nearest the middle of the view (a palette
     * double-click): grid points are tried in growing square rings around the middle until the new
     * box, with a grid step of margin, touches no device. Never on top of another device.
     */
    public Device addDeviceInFreeSpace(DeviceTemplate t) {
        DiagramStyle st = painter.style();
        double w = st.width(t.role()) + 2 * DiagramStyle.GRID;
        double h = st.height(t.role()) + 2 * DiagramStyle.GRID;
        double cx = snap(viewport.toWorldX(getWidth() / 2));
        double cy = snap(viewport.toWorldY(getHeight() / 2));
        double step = 2 * DiagramStyle.GRID;
        for (int ring = 0; ring < 400; ring++) {
            for (int i = -ring; i <= ring; i++) {
                for (int j = -ring; j <= ring; j++) {
                    if (Math.max(Math.abs(i), Math.abs(j)) != ring) {
                        continue;
                    }
                    double x = cx + i * step;
                    double y = cy + j * step;
                    if (geometry().devicesIntersecting(Bounds.centred(x, y, w, h)).isEmpty()) {
                        return addDeviceAtWorld(t, x, y);
                    }
                }
            }
        }
        return addDeviceAtWorld(t, cx, cy);
    }

    private Device addDeviceAtWorld(DeviceTemplate t, double wx, double wy) {
        AddDeviceCommand c = AddDeviceCommand.fromTemplate(doc.fabric(), t, wx, wy);
        doc.execute(c);
        doc.selection().set(List.of(c.device()), List.of());
        messages.accept(c.description());
        return c.device();
    }

    /** Shows where a palette drop would put a device (null template to hide). */
    public void previewDrop(DeviceTemplate t, double x, double y) {
        interaction.previewDrop(t, x, y);
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
        geometryStale = true;
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

    void viewChanged() {
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
            Platform.runLater(this::scheduledPaint);
        }
    }

    /**
     * The paint {@link #schedulePaint} asked for, in turns of the FX thread that each stay short on
     * a large fabric: after an edit, the new geometry in one turn (about 12 ms of CPU on the 64-unit
     * rail fabric), the frame in the next (about 35 ms), the minimap's new picture in a third
     * (about 20 ms). Input and other work queued meanwhile run between them; requests made
     * meanwhile join the pending paint.
     */
    private void scheduledPaint() {
        if (geometryStale && geometry != null) {
            geometry();
            Platform.runLater(this::scheduledPaint);
            return;
        }
        redrawPending = false;
        redraw(true);
    }

    /** Completed once the pending repaint has run all its turns ({@link #whenPainted}). */
    private final java.util.List<java.util.concurrent.CompletableFuture<Void>> whenPainted = new java.util.ArrayList<>();

    /**
     * Completes on the FX thread once the repaint pending now has run all its turns (the new
     * geometry, the frame, the minimap's picture), or in the next turn when none is pending. An
     * action that edits the fabric and then starts background work (Fail a Link) starts it then,
     * so that on two cores the computation does not share them with the repaint that shows the edit.
     */
    java.util.concurrent.CompletableFuture<Void> whenPainted() {
        java.util.concurrent.CompletableFuture<Void> painted = new java.util.concurrent.CompletableFuture<>();
        whenPainted.add(painted);
        Platform.runLater(() -> completeWhenPainted(0));
        return painted;
    }

    private void completeWhenPainted(int turns) {
        if (whenPainted.isEmpty()) {
            return;
        }
        // Each repaint turn queues the next before this check is queued again, so this runs after
        // the last; the bound only guards against a repaint asked again and again (a drag).
        if (turns < 16 && (redrawPending || minimapView.renderPending())) {
            Platform.runLater(() -> completeWhenPainted(turns + 1));
            return;
        }
        java.util.List<java.util.concurrent.CompletableFuture<Void>> now = java.util.List.copyOf(whenPainted);
        whenPainted.clear();
        now.forEach(f -> f.complete(null));
    }

    /** The command stack's revision of the last frame painted (-1 before the first). */
    private long paintedRevision = -1;

    /** The command stack's revision the last frame showed (tests see when the frame followed an edit). */
    long paintedRevision() {
        return paintedRevision;
    }

    /** Whether the geometry follows the fabric's last edit (no update pending). */
    boolean geometryIsCurrent() {
        return geometry != null && !geometryStale;
    }

    /** The command stack's revision the minimap's picture shows. */
    long minimapRevision() {
        return minimapView.renderedRevision();
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
        redraw(false);
    }

    /** Paints now; {@code minimapLater}: a changed fabric's minimap picture in a turn of its own. */
    private void redraw(boolean minimapLater) {
        if (canvas.getWidth() <= 0 || canvas.getHeight() <= 0) {
            return;
        }
        boolean draft = interaction.isInteracting() && lastPaintNanos > DRAFT_ABOVE_NANOS;
        long t0 = System.nanoTime();
        paintFrame(options.withDraft(draft), minimapLater);
        if (!draft) {
            lastPaintNanos = System.nanoTime() - t0;
        }
    }

    /** One whole frame (fabric, overlays, minimap) with the given options; what the benchmark times. */
    public FabricPainter.Stats paintFrame(FabricPainter.Options o) {
        return paintFrame(o, false);
    }

    private FabricPainter.Stats paintFrame(FabricPainter.Options o, boolean minimapLater) {
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
            minimapView.paint(minimapLater);
        }
        paintedRevision = doc.stack().revision();
        if (paintedFabric != doc.fabric() && w > 0 && h > 0) {
            paintedFabric = doc.fabric();
            for (Runnable r : List.copyOf(onNewFabricPainted)) {
                r.run();
            }
        }
        return lastStats;
    }

    /** The fabric the last frame showed (null before the first frame of a canvas with a size). */
    private io.fabriclab.model.Fabric paintedFabric;
    private final List<Runnable> onNewFabricPainted = new java.util.ArrayList<>();

    /** The fabric object the last frame drew (the window title follows it, not the document). */
    io.fabriclab.model.Fabric paintedFabric() {
        return paintedFabric;
    }

    /** Runs {@code r} after each frame that is the first to show another fabric (opened, generated, imported). */
    void addNewFabricPaintedListener(Runnable r) {
        onNewFabricPainted.add(r);
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
        BaseKey key = new BaseKey(geometry(), doc.stack().revision(), interaction.hover(), viewport.scale(), viewport.offsetX(),
                viewport.offsetY(), w, h, scale, fabricOnly, painter);
        boolean drawsAll = painter.drawsAll(geometry(), viewport, w, h);
        BaseKey prev = baseKey;
        double dx = prev == null ? 0 : key.offsetX() - prev.offsetX();
        double dy = prev == null ? 0 : key.offsetY() - prev.offsetY();
        if (!baseDirty && key.equals(prev)) {
            baseReuses++;
        } else if (!baseDirty && prev != null && scale == Math.rint(scale) && baseDrawsAll && drawsAll
                && key.equals(prev.panned(key.offsetX(), key.offsetY()))
                && dx == Math.rint(dx) && dy == Math.rint(dy) && Math.abs(dx * scale) < pw && Math.abs(dy * scale) < ph) {
            // At an integer render scale (1, 2, 3: HiDPI) a whole-pixel pan moves the picture by a
            // whole number of device pixels, so the shifted pixels are the ones a full paint gives.
            int sx = (int) (dx * scale);
            int sy = (int) (dy * scale);
            shift(basePx, pw, ph, sx, sy);
            // The uncovered strips: columns on the side the picture moved away from, then rows.
            if (sx != 0) {
                paintBase(new java.awt.Rectangle(sx > 0 ? 0 : pw + sx, 0, Math.abs(sx), ph), fabricOnly, w, h, scale);
            }
            if (sy != 0) {
                paintBase(new java.awt.Rectangle(0, sy > 0 ? 0 : ph + sy, pw, Math.abs(sy)), fabricOnly, w, h, scale);
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
        paintLegendOverlay(p, o, w, h);
        if (layer != null) {
            layer.paint(p, geometry(), painter.foldGroups(geometry(), viewport.scale(), o.fold()), viewport, w, h);
            paintLayerLegend(p);
        }
        interaction.paintOverlay(p);
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
        baseStats = painter.paint(bp, geometry(), doc.selection(), interaction.hover(), viewport, w, h, fabricOnly);
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
        lastStats = painter.paint(p, geometry(), doc.selection(), interaction.hover(), viewport, w, h,
                o.withLegend(false));
        paintLegendOverlay(p, o, w, h);
        if (layer != null) {
            layer.paint(p, geometry(), painter.foldGroups(geometry(), viewport.scale(), o.fold()), viewport, w, h);
            paintLayerLegend(p);
        }
        interaction.paintOverlay(p);
    }

    // ----- overlays: legend and minimap (issue 16 item 11) ------------------------------------

    /**
     * Places the overlays for this frame and paints the fabric's legend (or its chip). The layer's
     * legend (the live view's) is placed first, in a corner covering no device and no link, since
     * the run's marks sit on links; then the minimap and the fabric's legend in corners it leaves
     * free. An overlay with no free corner folds to a chip (issue 35 item 2: at 1280x800 the live
     * legend sat on spine sp2 and its pause marks).
     */
    private void paintLegendOverlay(io.fabriclab.diagram.Painter p, FabricPainter.Options o, double w, double h) {
        double m = OVERLAY_MARGIN;
        List<Bounds> taken = new java.util.ArrayList<>();
        taken.add(chipBounds(minimapChip, w, h));
        placeLayerLegend(w, h, taken);
        if (layerLegendBox != null) {
            taken.add(layerLegendBox);
        } else if (layerLegendChip != null) {
            taken.add(layerLegendChip);
        }
        placeMinimap(w, h, taken);
        legendBox = null;
        legendChip = null;
        if (!o.legend()) {
            return;
        }
        double[] size = painter.legendSize(geometry(), viewport, o);
        if (size == null) {
            return;
        }
        if (minimapVisible.get() && !minimapFolded.get()) {
            taken.add(new Bounds(minimap.getLayoutX(), minimap.getLayoutY(), minimap.getLayoutX() + Minimap.W,
                    minimap.getLayoutY() + Minimap.H));
        }
        List<Bounds> corners = List.of(
                new Bounds(m, h - m - size[1], m + size[0], h - m),
                new Bounds(m, m, m + size[0], m + size[1]),
                new Bounds(w - m - size[0], h - m - size[1], w - m, h - m),
                new Bounds(w - m - size[0], m, w - m, m + size[1]));
        Bounds place = choose(corners, taken, legendMode, w, h, layer != null);
        if (place == null) {
            legendChip = new Bounds(m, h - m - 22, m + 78, h - m);
            painter.paintChip(p, legendChip, "Legend ▸");
        } else {
            legendBox = place;
            painter.paintLegendAt(p, geometry(), viewport, place.minX(), place.minY(), o, true);
        }
    }

    /** The layer's legend place this frame (top right first), or its chip, or neither without a layer legend. */
    private void placeLayerLegend(double w, double h, List<Bounds> taken) {
        layerLegendBox = null;
        layerLegendChip = null;
        double[] size = layer == null ? null : layer.legendSize();
        if (size == null) {
            return;
        }
        double m = OVERLAY_MARGIN;
        List<Bounds> corners = List.of(
                new Bounds(w - m - size[0], m, w - m, m + size[1]),
                new Bounds(m, m, m + size[0], m + size[1]),
                new Bounds(m, h - m - size[1], m + size[0], h - m),
                new Bounds(w - m - size[0], h - m - size[1], w - m, h - m));
        layerLegendBox = choose(corners, taken, layerLegendMode, w, h, true);
        if (layerLegendBox == null) {
            layerLegendChip = new Bounds(Math.max(0, w - m - 104), m, w - m, m + 22);
        }
    }

    /** Paints the layer's legend where {@link #placeLayerLegend} put it, or its chip. */
    private void paintLayerLegend(io.fabriclab.diagram.Painter p) {
        if (layerLegendBox != null) {
            layer.paintLegend(p, layerLegendBox.minX(), layerLegendBox.minY());
        } else if (layerLegendChip != null) {
            painter.paintChip(p, layerLegendChip, layer.legendChipText());
        }
    }

    /** The minimap's corner this frame (bottom right, else top right), or folded to its chip (bottom right). */
    private void placeMinimap(double w, double h, List<Bounds> taken) {
        double m = OVERLAY_MARGIN;
        List<Bounds> corners = List.of(new Bounds(w - m - Minimap.W, h - m - Minimap.H, w - m, h - m),
                new Bounds(w - m - Minimap.W, m, w - m, m + Minimap.H));
        // The minimap's own chip sits where it folds to: it does not keep the minimap out.
        List<Bounds> others = taken.subList(1, taken.size());
        Bounds place = minimapVisible.get() ? choose(corners, others, minimapMode, w, h, layer != null) : null;
        minimapFolded.set(place == null);
        if (place != null) {
            minimap.relocate(place.minX(), place.minY());
            minimapClose.autosize();
            minimapClose.relocate(place.maxX() - minimapClose.getWidth() - 2, place.minY() + 1);
        }
        minimapChip.autosize();
        minimapChip.relocate(Math.max(0, w - m - minimapChip.prefWidth(-1)),
                Math.max(0, h - m - minimapChip.prefHeight(-1)));
    }

    private Bounds chipBounds(javafx.scene.Node chip, double w, double h) {
        double cw = chip.prefWidth(-1);
        double ch = chip.prefHeight(-1);
        return new Bounds(w - OVERLAY_MARGIN - cw, h - OVERLAY_MARGIN - ch, w - OVERLAY_MARGIN, h - OVERLAY_MARGIN);
    }

    /**
     * The first corner that fits in the canvas, misses everything in {@code taken} and covers no
     * device (nor, with {@code links}, any link: a live run's marks sit on links); OPEN takes the
     * first corner that fits even over the drawing; CLOSED (or AUTO with no free corner) gives null.
     */
    private Bounds choose(List<Bounds> corners, List<Bounds> taken, OverlayMode mode, double w, double h,
                          boolean links) {
        if (mode == OverlayMode.CLOSED) {
            return null;
        }
        Bounds fallback = null;
        for (Bounds b : corners) {
            if (b.minX() < 0 || b.minY() < 0 || b.maxX() > w || b.maxY() > h
                    || taken.stream().anyMatch(b::intersects)) {
                continue;
            }
            if (fallback == null) {
                fallback = b;
            }
            if (!coversDrawing(b) && !(links && coversLink(b))) {
                return b;
            }
        }
        return mode == OverlayMode.OPEN ? fallback : null;
    }

    /** Whether a screen rectangle covers a device's box or a folded group's box. */
    boolean coversDrawing(Bounds screen) {
        double pad = 4;
        Bounds world = new Bounds(viewport.toWorldX(screen.minX() - pad), viewport.toWorldY(screen.minY() - pad),
                viewport.toWorldX(screen.maxX() + pad), viewport.toWorldY(screen.maxY() + pad));
        if (!geometry().devicesIntersecting(world).isEmpty()) {
            return true;
        }
        for (io.fabriclab.diagram.FoldGroup g : painter.foldGroups(geometry(), viewport.scale(), options.fold()).values()) {
            if (g.bounds().intersects(world)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a screen rectangle (grown by the width of a link's marks) is crossed by a link line:
     * the live view draws its queues, pauses and sparks along links, so its overlays keep off them.
     */
    boolean coversLink(Bounds screen) {
        double pad = 10;
        Bounds world = new Bounds(viewport.toWorldX(screen.minX() - pad), viewport.toWorldY(screen.minY() - pad),
                viewport.toWorldX(screen.maxX() + pad), viewport.toWorldY(screen.maxY() + pad));
        for (Link l : geometry().linksIntersecting(world)) {
            io.fabriclab.diagram.Segment seg = geometry().segment(l);
            if (seg != null && crosses(seg, world)) {
                return true;
            }
        }
        return false;
    }

    /** Whether segment {@code s} has a point inside {@code r} (Liang-Barsky clipping). */
    static boolean crosses(io.fabriclab.diagram.Segment s, Bounds r) {
        double t0 = 0;
        double t1 = 1;
        double dx = s.x2() - s.x1();
        double dy = s.y2() - s.y1();
        double[] pp = {-dx, dx, -dy, dy};
        double[] qq = {s.x1() - r.minX(), r.maxX() - s.x1(), s.y1() - r.minY(), r.maxY() - s.y1()};
        for (int i = 0; i < 4; i++) {
            if (pp[i] == 0) {
                if (qq[i] < 0) {
                    return false;
                }
            } else {
                double t = qq[i] / pp[i];
                if (pp[i] < 0) {
                    t0 = Math.max(t0, t);
                } else {
                    t1 = Math.min(t1, t);
                }
                if (t0 > t1) {
                    return false;
                }
            }
        }
        return true;
    }

    private boolean overlayGesture;

    /** A press on the legend's "–" strip folds it; a press on its chip opens it; neither selects anything. */
    private void legendClick(javafx.scene.input.MouseEvent e) {
        if (e.getEventType() == javafx.scene.input.MouseEvent.MOUSE_PRESSED) {
            overlayGesture = false;
            if (layerLegendBox != null && e.getX() >= layerLegendBox.minX() && e.getX() <= layerLegendBox.maxX()
                    && e.getY() >= layerLegendBox.minY() && e.getY() <= layerLegendBox.minY() + 22) {
                layerLegendMode = OverlayMode.CLOSED;
                overlayGesture = true;
            } else if (layerLegendChip != null && e.getX() >= layerLegendChip.minX() && e.getX() <= layerLegendChip.maxX()
                    && e.getY() >= layerLegendChip.minY() && e.getY() <= layerLegendChip.maxY()) {
                layerLegendMode = OverlayMode.OPEN;
                overlayGesture = true;
            } else if (legendBox != null && e.getX() >= legendBox.minX() && e.getX() <= legendBox.maxX()
                    && e.getY() >= legendBox.minY() && e.getY() <= legendBox.minY() + 22) {
                legendMode = OverlayMode.CLOSED;
                overlayGesture = true;
            } else if (legendChip != null && e.getX() >= legendChip.minX() && e.getX() <= legendChip.maxX()
                    && e.getY() >= legendChip.minY() && e.getY() <= legendChip.maxY()) {
                legendMode = OverlayMode.OPEN;
                overlayGesture = true;
            }
            if (overlayGesture) {
                e.consume();
                requestRedraw();
            }
        } else if (overlayGesture && (e.getEventType() == javafx.scene.input.MouseEvent.MOUSE_DRAGGED
                || e.getEventType() == javafx.scene.input.MouseEvent.MOUSE_RELEASED
                || e.getEventType() == javafx.scene.input.MouseEvent.MOUSE_CLICKED)) {
            e.consume();
        }
    }

    /** Where the legend was drawn in the last frame, or null (folded or off); tests read it. */
    Bounds legendBox() {
        return legendBox;
    }

    Bounds legendChip() {
        return legendChip;
    }

    /** Where the layer's (live view's) legend was drawn in the last frame, or null (folded, or no layer legend). */
    public Bounds layerLegendBox() {
        return layerLegendBox;
    }

    /** Where the layer's folded legend chip was drawn in the last frame, or null. */
    public Bounds layerLegendChip() {
        return layerLegendChip;
    }

    /** The minimap's place in the last frame (screen), or null when folded or off. */
    public Bounds minimapBounds() {
        return minimapBox();
    }

    /** The minimap's place in the last frame, or null when it is folded to its chip or off. */
    Bounds minimapBox() {
        return minimap.isVisible() ? new Bounds(minimap.getLayoutX(), minimap.getLayoutY(),
                minimap.getLayoutX() + Minimap.W, minimap.getLayoutY() + Minimap.H) : null;
    }

    javafx.scene.control.Label minimapChip() {
        return minimapChip;
    }

    /** A render scale set by tests (0: the window's). */
    private double forcedRenderScale;

    /** Paints the Java2D frames at this many device pixels per layout pixel (0: the window's); tests use it. */
    void forceRenderScale(double scale) {
        forcedRenderScale = scale;
        requestRedraw();
    }

    /** Device pixels per layout pixel of the window the canvas is in (1 unless HiDPI). */
    private double renderScale() {
        if (forcedRenderScale > 0) {
            return forcedRenderScale;
        }
        if (getScene() != null && getScene().getWindow() != null) {
            return Math.max(1, getScene().getWindow().getOutputScaleX());
        }
        return 1;
    }

    /**
     * Who rasterises the canvas. Chosen at start-up from JavaFX's pipeline (docs/rendering.md): on
     * a hardware pipeline (es2, d3d, metal) the GPU rasterises the canvas's commands and Java2D
     * would rasterise on the CPU and upload every frame; on the software pipeline ({@code sw}) the
     * Java2D frames are the faster of the two.
     */
    public enum Renderer {
        /** The diagram drawn by Java2D (Marlin) into an off-screen image, shown as one image. */
        JAVA2D,
        /** The diagram drawn through the canvas's GraphicsContext, rasterised by Prism. */
        FX;

        /** The renderer for a pipeline: FX on a hardware one, Java2D on the software one. */
        public static Renderer forPipeline(boolean hardware) {
            return hardware ? FX : JAVA2D;
        }

        /** Whether JavaFX runs on a hardware pipeline: only those support 3D scenes (sw does not). */
        public static boolean hardwarePipeline() {
            return javafx.application.Platform.isSupported(javafx.application.ConditionalFeature.SCENE3D);
        }

        /**
         * The renderer a new canvas uses: {@code -Dfabriclab.renderer=fx|java2d}, else the user's
         * choice in View > Renderer, else the pipeline's ({@link #forPipeline}).
         */
        public static Renderer chosen() {
            Renderer r = parse(System.getProperty("fabriclab.renderer"));
            if (r == null) {
                r = parse(RendererPreference.get());
            }
            return r != null ? r : forPipeline(hardwarePipeline());
        }

        /** "fx" or "java2d" (any case); null for anything else, "auto" included. */
        public static Renderer parse(String s) {
            if (s == null) {
                return null;
            }
            return switch (s.trim().toLowerCase(java.util.Locale.ROOT)) {
                case "fx" -> FX;
                case "java2d" -> JAVA2D;
                default -> null;
            };
        }
    }

    private Renderer renderer = Renderer.chosen();
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

}
