package io.fabriclab.diagram;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;
import io.fabriclab.model.Link;

/**
 * Where each device box and link line of a fabric lies in world units, and hit-testing over them.
 * Boxes are centred on the layout positions; a link runs from the bottom edge of its upper device
 * to the top edge of its lower one (side to side when both sit in one row). The spatial index is
 * built on the first query, so a drag that changes positions every frame pays only for painting.
 */
public final class DiagramGeometry {
    /** Cell size of the hit-test grid: a few server pitches, so short links file under two or three cells. */
    private static final double CELL = 240;

    private final Fabric fabric;
    private final Layout layout;
    private final DiagramStyle style;
    private SpatialIndex<Device> deviceIndex;
    private SpatialIndex<Link> linkIndex;
    /** Each device's place in the painter's drawing order (the fabric's order), for {@link #deviceAt}. */
    private java.util.Map<Device, Integer> drawOrder;

    public DiagramGeometry(Fabric fabric, Layout layout, DiagramStyle style) {
        this.fabric = fabric;
        this.layout = layout;
        this.style = style;
    }

    public Fabric fabric() {
        return fabric;
    }

    public Layout layout() {
        return layout;
    }

    public DiagramStyle style() {
        return style;
    }

    /** The device's box in world units, or null when the layout has no position for it. */
    public Bounds box(Device d) {
        Layout.Point p = layout.position(d.id());
        return p == null ? null : Bounds.centred(p.x(), p.y(), style.width(d.role()), style.height(d.role()));
    }

    /** The link's line in world units, or null when an end has no position. */
    public Segment segment(Link l) {
        Bounds a = box(l.a().device());
        Bounds b = box(l.b().device());
        if (a == null || b == null) {
            return null;
        }
        return between(a, b);
    }

    /**
     * The line joining two boxes: bottom edge to top edge when one is above the other, else side
     * to side. Each end leaves its box towards the other box (see {@link #fanOut}), so the links of
     * a leaf spread along its edge and each port label gets its own place.
     */
    public static Segment between(Bounds a, Bounds b) {
        if (a.maxY() < b.minY()) {
            return new Segment(a.centreX() + fanOut(a, b.centreX()), a.maxY(), b.centreX() + fanOut(b, a.centreX()),
                    b.minY());
        }
        if (b.maxY() < a.minY()) {
            return new Segment(a.centreX() + fanOut(a, b.centreX()), a.minY(), b.centreX() + fanOut(b, a.centreX()),
                    b.maxY());
        }
        if (a.centreX() <= b.centreX()) {
            return new Segment(a.maxX(), a.centreY(), b.minX(), b.centreY());
        }
        return new Segment(a.minX(), a.centreY(), b.maxX(), b.centreY());
    }

    /**
     * How far from the box centre a link leaves the box: towards the other end, saturating at the
     * box edge (less a 4-unit corner margin) once the other end is a few box widths away.
     */
    static double fanOut(Bounds box, double otherX) {
        double half = Math.max(0, box.width() / 2 - 4);
        return half * Math.tanh((otherX - box.centreX()) / (2 * Math.max(1, box.width())));
    }

    /** The bounds of every positioned device, or a unit box at the origin when there is none. */
    public Bounds extent() {
        Bounds e = null;
        for (Device d : fabric.devices()) {
            Bounds b = box(d);
            if (b != null) {
                e = e == null ? b : e.union(b);
            }
        }
        return e == null ? new Bounds(0, 0, 1, 1) : e;
    }

    /**
     * The device drawn on top at the point, or null. The painter draws devices in the fabric's
     * order, each over the ones before, so the pick is the last of them whose box contains the
     * point: what a click picks is what the user sees there.
     */
    public Device deviceAt(double x, double y) {
        ensureIndex();
        return deviceIndex.query(new Bounds(x, y, x, y)).stream()
                .filter(d -> box(d).contains(x, y))
                .max(Comparator.comparingInt((Device d) -> drawOrder.getOrDefault(d, -1))).orElse(null);
    }

    /** The link nearest to the point within {@code tolerance} world units, or null. */
    public Link linkAt(double x, double y, double tolerance) {
        ensureIndex();
        Link best = null;
        double bestD = tolerance;
        for (Link l : linkIndex.query(Bounds.centred(x, y, 2 * tolerance, 2 * tolerance))) {
            Segment s = segment(l);
            double dist = s.distanceTo(x, y);
            if (dist <= bestD) {
                bestD = dist;
                best = l;
            }
        }
        return best;
    }

    /** Devices whose box intersects the rectangle. */
    public List<Device> devicesIntersecting(Bounds r) {
        ensureIndex();
        return deviceIndex.query(r);
    }

    /** Devices whose centre lies inside the rectangle (rubber-band selection). */
    public List<Device> devicesWithCentreIn(Bounds r) {
        List<Device> out = new ArrayList<>();
        for (Device d : devicesIntersecting(r)) {
            Bounds b = box(d);
            if (r.contains(b.centreX(), b.centreY())) {
                out.add(d);
            }
        }
        return out;
    }

    /** Links whose bounding box intersects the rectangle (candidates for painting). */
    public List<Link> linksIntersecting(Bounds r) {
        ensureIndex();
        return linkIndex.query(r);
    }

    private void ensureIndex() {
        if (deviceIndex != null) {
            return;
        }
        SpatialIndex<Device> di = new SpatialIndex<>(CELL);
        java.util.Map<Device, Integer> order = new java.util.IdentityHashMap<>();
        for (Device d : fabric.devices()) {
            order.put(d, order.size());
            Bounds b = box(d);
            if (b != null) {
                di.insert(d, b);
            }
        }
        SpatialIndex<Link> li = new SpatialIndex<>(CELL);
        for (Link l : fabric.links()) {
            Segment s = segment(l);
            if (s != null) {
                li.insertSegment(l, s.x1(), s.y1(), s.x2(), s.y2(), 0);
            }
        }
        deviceIndex = di;
        linkIndex = li;
        drawOrder = order;
    }
}
