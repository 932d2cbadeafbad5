package io.fabriclab.diagram;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;
import io.fabriclab.model.Link;

/**
 * Where each device box and link line of a fabric lies in world units, and hit-testing over them.
 * Boxes are centred on the layout positions; a link runs from the bottom edge of its upper device
 * to the top edge of its lower one (side to side when both sit in one row). The spatial index is
 * built on the first query.
 *
 * <p>A geometry is a picture of the fabric's shape when it was made: the boxes of the devices then
 * in the fabric (a device added later gets its box from the layout as it is), the devices and links
 * in order, the folded groups. After an edit, {@link #update} makes the geometry of the new state
 * from the previous one: when the edit changed nothing drawn but positions (a move) or not even
 * those (a link failed, a property renamed, a save), the new geometry records which devices moved
 * ({@link #movedSince}) and takes over the previous one's index, refiling only the moved devices and
 * their links; the painter then updates its fold and link groups the same way. Any other edit (a
 * device or link added or removed, a role or unit changed, a group folded) makes a fresh geometry.
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
    /** Each link's place in the fabric's order: of two links at the same distance {@link #linkAt} picks the later. */
    private java.util.Map<Link, Integer> linkOrder;

    // The shape this geometry drew from (see the class comment).
    private final Device[] devices;
    private final java.util.Map<Device, Bounds> boxes;
    private final java.util.Set<Device> unplaced = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    private final DeviceRole[] roles;
    private final Integer[] units;
    private final int[] gpus;
    private final Link[] links;
    private final java.util.Set<String> folded;
    /**
     * The geometries this one was updated from while only positions differed (the latest first, at
     * most {@link #ANCESTORS}), each with the devices whose box differs since it (a superset: a
     * device moved away and back is in it). A painter that last drew one of them updates from it.
     */
    private List<Ancestor> ancestors = List.of();
    private static final int ANCESTORS = 4;

    private record Ancestor(DiagramGeometry geometry, java.util.Set<Device> moved) {
    }

    public DiagramGeometry(Fabric fabric, Layout layout, DiagramStyle style) {
        this.fabric = fabric;
        this.layout = layout;
        this.style = style;
        int n = fabric.devices().size();
        devices = fabric.devices().toArray(new Device[0]);
        boxes = new java.util.IdentityHashMap<>(2 * n);
        roles = new DeviceRole[n];
        units = new Integer[n];
        gpus = new int[n];
        for (int i = 0; i < n; i++) {
            Device d = devices[i];
            roles[i] = d.role();
            units[i] = d.unit();
            gpus[i] = d.gpus();
            Bounds b = liveBox(d);
            if (b != null) {
                boxes.put(d, b);
            } else {
                unplaced.add(d);
            }
        }
        links = fabric.links().toArray(new Link[0]);
        folded = java.util.Set.copyOf(layout.foldedGroups());
    }

    /**
     * The geometry of the fabric as it is now, made from {@code before} (the geometry of an earlier
     * state, or null): see the class comment. What it draws is what a new geometry would draw.
     */
    public static DiagramGeometry update(DiagramGeometry before, Fabric fabric, Layout layout, DiagramStyle style) {
        DiagramGeometry g = new DiagramGeometry(fabric, layout, style);
        if (before == null || before.fabric != fabric || before.layout != layout || before.style != style) {
            return g;
        }
        java.util.Set<Device> moved = before.movedTo(g);
        if (moved == null) {
            return g;
        }
        // Only the latest geometry keeps a way back: a long drag does not chain every frame's geometry.
        List<Ancestor> back = new ArrayList<>(ANCESTORS);
        back.add(new Ancestor(before, moved));
        for (Ancestor a : before.ancestors) {
            if (back.size() == ANCESTORS) {
                break;
            }
            java.util.Set<Device> since = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            since.addAll(a.moved());
            since.addAll(moved);
            back.add(new Ancestor(a.geometry(), since));
        }
        before.ancestors = List.of();
        g.ancestors = back;
        if (before.deviceIndex != null) {
            // Take over the index: refile the moved devices and their links only.
            SpatialIndex<Device> di = before.deviceIndex;
            SpatialIndex<Link> li = before.linkIndex;
            before.deviceIndex = null;
            before.linkIndex = null;
            if (!moved.isEmpty()) {
                // Out at the places they were filed (the earlier geometry's boxes), in at the new ones.
                java.util.Map<Device, Bounds> oldBoxes = new java.util.IdentityHashMap<>();
                for (Device d : moved) {
                    oldBoxes.put(d, before.box(d));
                }
                java.util.Map<Link, Bounds> oldLines = new java.util.IdentityHashMap<>();
                for (Device d : moved) {
                    for (Link l : fabric.linksOf(d)) {
                        Segment s = before.segment(l);
                        if (s != null) {
                            oldLines.put(l, s.bounds());
                        }
                    }
                }
                di.removeAll(oldBoxes);
                li.removeAll(oldLines);
                for (Device d : g.devices) {
                    if (moved.contains(d)) {
                        di.insert(d, g.box(d));
                    }
                }
                for (Link l : g.links) {
                    if (oldLines.containsKey(l)) {
                        g.fileLink(li, l);
                    }
                }
            }
            g.deviceIndex = di;
            g.linkIndex = li;
            g.drawOrder = before.drawOrder;
            g.linkOrder = before.linkOrder;
        }
        return g;
    }

    /**
     * The devices whose box differs in {@code later} when the two geometries draw the same devices
     * and links in the same order with the same roles, units, GPU counts, positioned devices and
     * folded groups; null when they do not (then nothing of this one can be reused).
     */
    private java.util.Set<Device> movedTo(DiagramGeometry later) {
        if (devices.length != later.devices.length || links.length != later.links.length
                || !folded.equals(later.folded) || boxes.size() != later.boxes.size()) {
            return null;
        }
        for (int i = 0; i < links.length; i++) {
            if (links[i] != later.links[i]) {
                return null;
            }
        }
        java.util.Set<Device> out = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (int i = 0; i < devices.length; i++) {
            Device d = devices[i];
            if (d != later.devices[i] || roles[i] != later.roles[i] || !java.util.Objects.equals(units[i], later.units[i])
                    || gpus[i] != later.gpus[i]) {
                return null;
            }
            Bounds a = boxes.get(d);
            Bounds b = later.boxes.get(d);
            if ((a == null) != (b == null)) {
                return null;
            }
            if (a != null && !a.equals(b)) {
                out.add(d);
            }
        }
        return out;
    }

    /**
     * When this geometry was made by {@link #update} from {@code earlier} (directly or through a few
     * updates) and only positions differ: the devices whose box may have changed (empty when none
     * did). Null otherwise.
     */
    public java.util.Set<Device> movedSince(DiagramGeometry earlier) {
        for (Ancestor a : ancestors) {
            if (a.geometry() == earlier) {
                return a.moved();
            }
        }
        return null;
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
        Bounds b = boxes.get(d);
        // A device of the shape without a position has no box; only a device added since is looked up.
        return b != null || unplaced.contains(d) ? b : liveBox(d);
    }

    private Bounds liveBox(Device d) {
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
        for (Device d : devices) {
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
            // At the same distance (parallel links share a line) the later link in the fabric's
            // order wins, whatever order the index returns them in.
            if (dist < bestD || (dist == bestD && (best == null
                    || linkOrder().getOrDefault(l, -1) > linkOrder().getOrDefault(best, -1)))) {
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
        for (Device d : devices) {
            order.put(d, order.size());
            Bounds b = box(d);
            if (b != null) {
                di.insert(d, b);
            }
        }
        SpatialIndex<Link> li = new SpatialIndex<>(CELL);
        for (Link l : links) {
            fileLink(li, l);
        }
        deviceIndex = di;
        linkIndex = li;
        drawOrder = order;
    }

    /** Made on the first tie only: most picks have a single nearest link. */
    private java.util.Map<Link, Integer> linkOrder() {
        if (linkOrder == null) {
            java.util.Map<Link, Integer> order = new java.util.IdentityHashMap<>(2 * links.length);
            for (Link l : links) {
                order.put(l, order.size());
            }
            linkOrder = order;
        }
        return linkOrder;
    }

    private void fileLink(SpatialIndex<Link> li, Link l) {
        Segment s = segment(l);
        if (s != null) {
            li.insertSegment(l, s.x1(), s.y1(), s.x2(), s.y2(), 0);
        }
    }
}
