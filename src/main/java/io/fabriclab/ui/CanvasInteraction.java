package io.fabriclab.ui;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import io.fabriclab.diagram.Bounds;
import io.fabriclab.diagram.DiagramStyle;
import io.fabriclab.diagram.FabricPainter;
import io.fabriclab.diagram.FoldGroup;
import io.fabriclab.diagram.Rgba;
import io.fabriclab.edit.DeviceTemplate;
import io.fabriclab.edit.MoveDevicesCommand;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import javafx.animation.PauseTransition;
import javafx.geometry.Point2D;
import javafx.scene.Cursor;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import javafx.scene.input.ScrollEvent;
import javafx.util.Duration;

/**
 * The canvas's input state machine: click / shift-click / rubber-band selection, drag to move
 * (snapped to the grid, Alt for free), shift-drag or the link tool to cable two devices, wheel zoom
 * around the cursor, right/middle drag or space+drag to pan, double-click into a folded group,
 * keys (Delete, Escape, arrows, +/-, F, L) and tooltips. It changes the fabric only through the
 * document's command stack and the view only through {@link FabricCanvas}; it draws its own
 * feedback ({@link #paintOverlay}) over each frame.
 */
final class CanvasInteraction {
    private final FabricCanvas c;
    private final FabricDocument doc;

    /** A press that moves less than this many pixels is a click, not a drag. */
    private static final double DRAG_THRESHOLD_PX = 4;
    /** How near (in pixels) a click must be to a link line to pick it. */
    private static final double LINK_PICK_PX = 5;
    /** One wheel notch (40 units of delta) zooms by 10 %. */
    private static final double ZOOM_PER_NOTCH = 1.1;

    private enum Gesture { NONE, MOVE, RUBBER_BAND, PAN, LINK }

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

    private boolean interacting;
    private final PauseTransition interactionEnd = new PauseTransition(Duration.millis(200));

    private final Tooltip tooltip = new Tooltip();
    private final PauseTransition tooltipDelay = new PauseTransition(Duration.millis(450));
    private double tooltipScreenX;
    private double tooltipScreenY;

    /** What the hand is doing, drawn over the fabric: the rubber band, the link being drawn, a palette drop. */
    void paintOverlay(io.fabriclab.diagram.Painter p) {
        if (rubberBand != null) {
            double x = c.viewport().toScreenX(rubberBand.minX());
            double y = c.viewport().toScreenY(rubberBand.minY());
            double w = rubberBand.width() * c.viewport().scale();
            double h = rubberBand.height() * c.viewport().scale();
            p.setFill(DiagramStyle.RUBBER_BAND.withAlpha(40));
            p.fillRect(x, y, w, h);
            p.setStroke(DiagramStyle.RUBBER_BAND, 1);
            p.setDash(4, 3);
            p.strokeRect(x + 0.5, y + 0.5, w, h);
            p.setDash();
        }
        if (gesture == Gesture.LINK && dragged && pressedDevice != null) {
            Point2D from = c.centreOf(pressedDevice);
            boolean ok = linkTarget != null && linkTarget != pressedDevice;
            p.setStroke(ok ? DiagramStyle.SELECTION : DiagramStyle.RUBBER_BAND, 2);
            p.setDash(6, 4);
            p.line(from.getX(), from.getY(), lastX, lastY);
            p.setDash();
            if (ok) {
                Bounds b = c.geometry().box(linkTarget);
                p.setStroke(DiagramStyle.SELECTION, 3);
                p.strokeRoundRect(c.viewport().toScreenX(b.minX()) - 3, c.viewport().toScreenY(b.minY()) - 3,
                        b.width() * c.viewport().scale() + 6, b.height() * c.viewport().scale() + 6, 6);
            }
        }
        if (dropPreview != null) {
            DiagramStyle st = c.painter().style();
            double wx = FabricCanvas.snap(c.viewport().toWorldX(dropX));
            double wy = FabricCanvas.snap(c.viewport().toWorldY(dropY));
            double bw = st.width(dropPreview.role()) * c.viewport().scale();
            double bh = st.height(dropPreview.role()) * c.viewport().scale();
            Rgba fill = st.fill(dropPreview.role());
            p.setFill(fill.withAlpha(110));
            p.fillRoundRect(c.viewport().toScreenX(wx) - bw / 2, c.viewport().toScreenY(wy) - bh / 2, bw, bh, 6);
            p.setStroke(fill, 1.5);
            p.setDash(4, 3);
            p.strokeRoundRect(c.viewport().toScreenX(wx) - bw / 2, c.viewport().toScreenY(wy) - bh / 2, bw, bh, 6);
            p.setDash();
        }
    }

    // ----- mouse ---------------------------------------------------------------------------------

    private void onPressed(MouseEvent e) {
        c.requestFocus();
        hideTooltip();
        pressX = lastX = e.getX();
        pressY = lastY = e.getY();
        dragged = false;
        additive = e.isShiftDown() || e.isShortcutDown();
        pressedDevice = null;
        if (e.getButton() == MouseButton.SECONDARY || e.getButton() == MouseButton.MIDDLE
                || (e.getButton() == MouseButton.PRIMARY && spaceDown)) {
            gesture = Gesture.PAN;
            c.setCursor(Cursor.CLOSED_HAND);
            return;
        }
        if (e.getButton() != MouseButton.PRIMARY) {
            return;
        }
        double wx = c.viewport().toWorldX(e.getX());
        double wy = c.viewport().toWorldY(e.getY());
        Device d = pick(wx, wy);
        if (d != null) {
            pressedDevice = d;
            if (c.toolProperty().get() == EditorTool.LINK || e.isShiftDown()) {
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
        Link l = c.geometry().linkAt(wx, wy, LINK_PICK_PX / c.viewport().scale());
        if (l != null) {
            gesture = Gesture.NONE;
            if (c.linkClickHandler() != null && c.linkClickHandler().test(l)) {
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
        for (FoldGroup g : new java.util.LinkedHashSet<>(c.painter().foldGroups(c.geometry(), c.viewport().scale(),
                c.options().fold()).values())) {
            if (g.bounds().contains(wx, wy) && (c.geometry().deviceAt(wx, wy) == null
                    || c.painter().foldGroups(c.geometry(), c.viewport().scale(), c.options().fold())
                    .containsKey(c.geometry().deviceAt(wx, wy)))) {
                return g;
            }
        }
        return null;
    }

    /** The device under a world point; at low zoom a folded unit box picks its first member. */
    private Device pick(double wx, double wy) {
        Device d = c.geometry().deviceAt(wx, wy);
        Map<Device, FoldGroup> folded = c.painter().foldGroups(c.geometry(), c.viewport().scale(), c.options().fold());
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
                c.viewport().pan(dx, dy);
                c.viewChanged();
            }
            case MOVE -> {
                if (dragged) {
                    markInteracting();
                    moveSelection(e.getX(), e.getY(), !e.isAltDown());
                }
            }
            case RUBBER_BAND -> {
                if (dragged) {
                    rubberBand = Bounds.of(c.viewport().toWorldX(pressX), c.viewport().toWorldY(pressY),
                            c.viewport().toWorldX(e.getX()), c.viewport().toWorldY(e.getY()));
                    c.requestRedraw();
                }
            }
            case LINK -> {
                if (dragged) {
                    linkTarget = pick(c.viewport().toWorldX(e.getX()), c.viewport().toWorldY(e.getY()));
                    c.requestRedraw();
                }
            }
            default -> {
            }
        }
    }

    /** Moves the selection live; the pressed device snaps to the grid and the others keep their offsets. */
    private void moveSelection(double x, double y, boolean snapToGrid) {
        Layout.Point anchor = moveStart.get(pressedDevice.id());
        double ddx = (x - pressX) / c.viewport().scale();
        double ddy = (y - pressY) / c.viewport().scale();
        if (snapToGrid && anchor != null) {
            ddx = FabricCanvas.snap(anchor.x() + ddx) - anchor.x();
            ddy = FabricCanvas.snap(anchor.y() + ddy) - anchor.y();
        }
        Layout layout = doc.fabric().layout();
        for (Map.Entry<String, Layout.Point> s : moveStart.entrySet()) {
            layout.setPosition(s.getKey(), s.getValue().x() + ddx, s.getValue().y() + ddy);
        }
        c.geometryChanged();
        c.requestRedraw();
    }

    /** Frames drawn from now until 200 ms after the last pan, zoom or drag step may be drafts. */
    private void markInteracting() {
        interacting = true;
        interactionEnd.playFromStart();
    }

    private void onReleased(MouseEvent e) {
        Gesture g = gesture;
        gesture = Gesture.NONE;
        c.setCursor(spaceDown ? Cursor.OPEN_HAND : Cursor.DEFAULT);
        switch (g) {
            case MOVE -> {
                if (dragged) {
                    finishMove();
                } else if (!additive && doc.selection().size() > 1
                        && foldGroupAt(c.viewport().toWorldX(pressX), c.viewport().toWorldY(pressY)) == null) {
                    doc.selection().set(List.of(pressedDevice), List.of());
                }
            }
            case RUBBER_BAND -> {
                if (dragged && rubberBand != null) {
                    List<Device> inside = c.geometry().devicesWithCentreIn(rubberBand);
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
                c.requestRedraw();
            }
            case LINK -> {
                if (dragged) {
                    Device target = pick(c.viewport().toWorldX(e.getX()), c.viewport().toWorldY(e.getY()));
                    if (target != null && target != pressedDevice) {
                        c.link(pressedDevice, target);
                    }
                } else if (e.isShiftDown()) {
                    doc.selection().toggle(pressedDevice);
                } else {
                    doc.selection().set(List.of(pressedDevice), List.of());
                }
                linkTarget = null;
                c.requestRedraw();
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
        drillInto(e.getX(), e.getY());
    }

    /**
     * Drills into the folded unit or group drawn at the screen point (x, y), if any: the view
     * fits it, zoomed in until its servers unfold, its members are selected and the canvas shows
     * the breadcrumb back to the whole fabric. The group is found by the box the painter draws
     * ({@link FabricPainter#glyphBox}, at least a label's height), not its members' bounds, so a
     * one-pixel row of cores can be hit. Returns the group's name, or null.
     */
    String drillInto(double x, double y) {
        for (FoldGroup g : new java.util.LinkedHashSet<>(c.painter().foldGroups(c.geometry(), c.viewport().scale(),
                c.options().fold()).values())) {
            if (FabricPainter.glyphBox(g, c.viewport()).contains(x, y)) {
                c.viewport().fit(g.bounds().grow(40), c.getWidth(), c.getHeight(), 40);
                if (FabricPainter.foldsServersAt(c.viewport().scale(), c.options().fold())) {
                    c.viewport().zoomAt(c.getWidth() / 2, c.getHeight() / 2,
                            DiagramStyle.FOLD_BELOW_PX / DiagramStyle.SERVER_WIDTH * 1.05 / c.viewport().scale());
                }
                doc.selection().set(g.members(), List.of());
                String name = FabricPainter.groupLabel(g.key());
                c.message(name + ": " + FabricPainter.holds(g) + (g.gpus() > 0 ? ", " + g.gpus() + " GPUs" : "")
                        + ". Whole fabric (top left) or Fit to go back.");
                c.viewChanged();
                c.drilledInto(name);
                return name;
            }
        }
        return null;
    }

    private void onMoved(MouseEvent e) {
        double wx = c.viewport().toWorldX(e.getX());
        double wy = c.viewport().toWorldY(e.getY());
        Object h = pick(wx, wy);
        if (h == null) {
            h = c.geometry().linkAt(wx, wy, LINK_PICK_PX / c.viewport().scale());
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
        c.requestRedraw();
    }

    private void hideTooltip() {
        tooltipDelay.stop();
        tooltip.hide();
    }

    /** The text of the tooltip for a device or link. */
    String describe(Object o) {
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
        c.zoomAt(e.getX(), e.getY(), Math.pow(ZOOM_PER_NOTCH, e.getDeltaY() / 40.0));
        e.consume();
    }

    // ----- keys --------------------------------------------------------------------------------

    private void onKeyPressed(KeyEvent e) {
        KeyCode k = e.getCode();
        if (k == KeyCode.DELETE || k == KeyCode.BACK_SPACE) {
            c.deleteSelection();
            e.consume();
        } else if (k == KeyCode.SPACE) {
            if (!spaceDown) {
                spaceDown = true;
                c.setCursor(Cursor.OPEN_HAND);
            }
            e.consume();
        } else if (k == KeyCode.ESCAPE) {
            if (gesture == Gesture.MOVE && dragged) {
                moveStart.forEach((id, p) -> doc.fabric().layout().setPosition(id, p.x(), p.y()));
                c.geometryChanged();
            }
            gesture = Gesture.NONE;
            rubberBand = null;
            linkTarget = null;
            doc.selection().clear();
            c.requestRedraw();
            e.consume();
        } else if (!e.isShortcutDown() && (k == KeyCode.PLUS || k == KeyCode.ADD || k == KeyCode.EQUALS)) {
            c.zoomIn();
            e.consume();
        } else if (!e.isShortcutDown() && (k == KeyCode.MINUS || k == KeyCode.SUBTRACT)) {
            c.zoomOut();
            e.consume();
        } else if (!e.isShortcutDown() && k == KeyCode.F) {
            c.fitToWindow();
            e.consume();
        } else if (!e.isShortcutDown() && k == KeyCode.L) {
            c.toolProperty().set(c.toolProperty().get() == EditorTool.LINK ? EditorTool.SELECT : EditorTool.LINK);
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
            c.setCursor(Cursor.DEFAULT);
            e.consume();
        }
    }

    CanvasInteraction(FabricCanvas c) {
        this.c = c;
        this.doc = c.document();
        c.addEventHandler(MouseEvent.MOUSE_PRESSED, this::onPressed);
        c.addEventHandler(MouseEvent.MOUSE_DRAGGED, this::onDragged);
        c.addEventHandler(MouseEvent.MOUSE_RELEASED, this::onReleased);
        c.addEventHandler(MouseEvent.MOUSE_MOVED, this::onMoved);
        c.addEventHandler(MouseEvent.MOUSE_EXITED, e -> setHover(null, e));
        c.addEventHandler(ScrollEvent.SCROLL, this::onScroll);
        c.addEventHandler(MouseEvent.MOUSE_CLICKED, this::onClicked);
        c.addEventHandler(KeyEvent.KEY_PRESSED, this::onKeyPressed);
        c.addEventHandler(KeyEvent.KEY_RELEASED, this::onKeyReleased);
        interactionEnd.setOnFinished(e -> {
            interacting = false;
            c.requestRedraw();
        });
        tooltip.setWrapText(true);
        tooltip.setMaxWidth(420);
        tooltipDelay.setOnFinished(e -> {
            if (hover != null && c.getScene() != null && c.getScene().getWindow() != null) {
                tooltip.show(c, tooltipScreenX + 14, tooltipScreenY + 18);
            }
        });
    }

    /** The device or link under the pointer, or null (drawn with a hover mark). */
    Object hover() {
        return hover;
    }

    /** True from a pan, zoom or drag step until 200 ms after the last one (frames may be drafts). */
    boolean isInteracting() {
        return interacting;
    }

    /** Shows where a palette drop would put a device (null template to hide). */
    void previewDrop(DeviceTemplate t, double x, double y) {
        dropPreview = t;
        dropX = x;
        dropY = y;
        c.requestRedraw();
    }
}
