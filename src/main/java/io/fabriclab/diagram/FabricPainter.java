package io.fabriclab.diagram;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;

/**
 * Draws a fabric through a {@link Painter} in screen pixels: unit groups, links (rail-coloured from
 * servers to rail leaves, else by speed; dashed red when down), device boxes, selection, port
 * labels and the legend. Level of detail: when a server box would be narrower than
 * {@link DiagramStyle#FOLD_BELOW_PX}, servers fold into one box per unit or rack and their links into
 * bundles, and below {@link DiagramStyle#BUNDLE_BELOW_SCALE} parallel links merge, so a
 * 16,384-GPU fabric stays readable. Only what intersects the screen is drawn.
 */
public final class FabricPainter {

    public enum FoldMode {
        /** Fold servers when they get too small to read. */
        AUTO,
        ALWAYS,
        NEVER
    }

    /**
     * What to draw besides the fabric itself. Labels means port names and device details. Draft
     * is for frames drawn while the user pans, zooms or drags a big fabric: at most
     * {@link #DRAFT_LINES} lines and no port labels, so the picture keeps up with the hand.
     */
    public record Options(boolean labels, boolean legend, boolean grid, FoldMode fold, boolean draft,
                          boolean speeds) {
        public static final Options DEFAULT = new Options(true, true, true, FoldMode.AUTO, false, true);

        /** Options without speed labels (the form before speed labels existed). */
        public Options(boolean labels, boolean legend, boolean grid, FoldMode fold, boolean draft) {
            this(labels, legend, grid, fold, draft, false);
        }

        public Options withLabels(boolean on) {
            return new Options(on, legend, grid, fold, draft, speeds);
        }

        public Options withLegend(boolean on) {
            return new Options(labels, on, grid, fold, draft, speeds);
        }

        public Options withGrid(boolean on) {
            return new Options(labels, legend, on, fold, draft, speeds);
        }

        public Options withFold(FoldMode mode) {
            return new Options(labels, legend, grid, mode, draft, speeds);
        }

        public Options withDraft(boolean on) {
            return new Options(labels, legend, grid, fold, on, speeds);
        }

        /** Link speed labels ("400G") at the middle of each link. */
        public Options withSpeeds(boolean on) {
            return new Options(labels, legend, grid, fold, draft, on);
        }
    }

    /** Most lines a draft frame draws (an even sample of those on screen). */
    public static final int DRAFT_LINES = 600;

    /**
     * Most link lines a resting frame draws. Beyond this a 1600-pixel-wide view is a haze of
     * translucent lines in which no single link can be followed, so an even, stable sample of this
     * many stands for the rest (links that are selected, hovered or highlighted are always drawn,
     * and the legend says how many are shown). Chosen with `fabriclab bench editor` so that the
     * 64-unit fabric's fitted view stays near the 33 ms frame budget with the software renderer.
     */
    public static final int FULL_LINES = 1500;

    /** World units between a scalable unit's frame and its outermost devices. */
    private static final double UNIT_MARGIN = 22;

    /** What one paint drew (for tests, the status bar and benchmarks). */
    public record Stats(int devicesDrawn, int linesDrawn, int linksRepresented, int foldedGroupsDrawn,
                        boolean serversFolded) {
    }

    /** Above this many lines on screen, links fade (opacity DENSE_LINES / lines, at least 12 %). */
    static final int DENSE_LINES = 300;

    private final DiagramStyle style;
    private LinkLoad linkLoad;
    private java.util.Set<Link> highlightLinks = java.util.Set.of();
    private java.util.Set<Device> highlightDevices = java.util.Set.of();
    private DetailState cachedState;
    private Map<Device, FoldGroup> cachedFolds;
    private List<LinkGroup> cachedGroups;
    /** For each drawn end (a device or a fold group), the places in {@link #cachedGroups} of its groups. */
    private Map<Object, List<Integer>> cachedGroupsByEnd;
    private LegendContent cachedLegend;
    /** The geometry {@link #cachedLegend} was counted for. */
    private DiagramGeometry legendGeometry;
    /** Lines that could have been drawn when the last frame drew a sample (0 when it drew them all). */
    private int sampledOf;
    private int sampledShown;
    /** Widest bundle at the current zoom (set per paint). */
    private double bundleCapPx = 8;
    /**
     * Screen rectangles of every label the last paint drew: device names and details, group
     * labels, unit and tier captions, port and speed labels. Each label is placed only where it
     * meets none placed before it, so no two of these intersect.
     */
    private final List<Bounds> labelBoxes = new ArrayList<>();
    /** Screen boxes of the devices and folded groups the last paint drew (captions keep off them). */
    private final List<Bounds> drawnBoxes = new ArrayList<>();

    public FabricPainter(DiagramStyle style) {
        this.style = style;
    }

    public DiagramStyle style() {
        return style;
    }

    /** True when servers are drawn folded at this scale. */
    public static boolean foldsServersAt(double scale, FoldMode mode) {
        return switch (mode) {
            case ALWAYS -> true;
            case NEVER -> false;
            case AUTO -> DiagramStyle.SERVER_WIDTH * scale < DiagramStyle.FOLD_BELOW_PX;
        };
    }

    /**
     * How a group is named on screen: units numbered from 1, as the generators name them (unit 0
     * of the model is su01) and as the inspector shows them; the key itself ("unit 0", kept in
     * saved layouts) is unchanged.
     */
    public static String groupLabel(String key) {
        if (key.startsWith("unit ")) {
            try {
                return "unit " + (Integer.parseInt(key.substring(5)) + 1);
            } catch (NumberFormatException e) {
                return key;
            }
        }
        return key;
    }

    /**
     * A group's name in the fewest letters, as the generators prefix their ids: "su12" for unit 12
     * on screen, "cg3" for core group 3; other keys as {@link #groupLabel}.
     */
    public static String shortGroupLabel(String key) {
        String name = groupLabel(key);
        if (name.startsWith("unit ")) {
            return "su" + name.substring(5);
        }
        int g = name.indexOf(" group ");
        if (g > 0) {
            return name.charAt(0) + "g" + name.substring(g + 7);
        }
        return name;
    }

    /** The group a server folds into: its unit, else the rack of its first switch (by id). */
    public static String foldKey(Fabric fabric, Device server) {
        if (server.unit() != null) {
            return "unit " + server.unit();
        }
        String first = null;
        for (Link l : fabric.linksOf(server)) {
            Device o = l.other(server);
            if (o.role().isSwitch() && (first == null || NaturalOrder.INSTANCE.compare(o.id(), first) < 0)) {
                first = o.id();
            }
        }
        return first == null ? "unlinked" : "rack " + first;
    }

    /** True when the leaf and rail switches of each unit fold into the unit's box too. */
    public static boolean foldsUnitSwitchesAt(double scale, FoldMode mode) {
        return mode != FoldMode.NEVER && DiagramStyle.SWITCH_WIDTH * scale < DiagramStyle.FOLD_SWITCHES_BELOW_PX;
    }

    /**
     * Fold groups that apply at this scale (all servers when zoomed out, else the user's folded
     * groups). Cached with the link grouping until the geometry or the level of detail changes.
     */
    public Map<Device, FoldGroup> foldGroups(DiagramGeometry g, double scale, FoldMode mode) {
        prepare(g, scale, mode);
        return cachedFolds;
    }

    /** The level of detail a paint depends on; the same state reuses the same fold groups and link groups. */
    private record DetailState(DiagramGeometry geometry, boolean servers, boolean unitSwitches, FoldMode mode,
                               java.util.Set<String> userFolded) {
    }

    /**
     * Fold groups, link groups and the legend for this state. After an edit that moved devices or
     * changed nothing drawn but colours and labels ({@link DiagramGeometry#movedSince}), only the
     * fold groups holding a moved device and the link groups with a moved end get new bounds; the
     * grouping and its order stay, as a full grouping of the new geometry would make them. The
     * legend (roles, speeds, rails, links down) is counted again for each geometry, when it is
     * first drawn ({@link #legend}).
     */
    private void prepare(DiagramGeometry g, double scale, FoldMode mode) {
        DetailState st = new DetailState(g, foldsServersAt(scale, mode), foldsUnitSwitchesAt(scale, mode), mode,
                java.util.Set.copyOf(g.layout().foldedGroups()));
        if (st.equals(cachedState)) {
            return;
        }
        java.util.Set<Device> moved = cachedState == null ? null : g.movedSince(cachedState.geometry());
        if (moved != null && st.equals(new DetailState(g, cachedState.servers(), cachedState.unitSwitches(),
                cachedState.mode(), cachedState.userFolded()))) {
            refit(g, moved);
        } else {
            cachedFolds = computeFoldGroups(g, st.servers(), st.unitSwitches(), mode);
            cachedGroupsByEnd = new IdentityHashMap<>();
            cachedGroups = groupLinks(g, cachedFolds, cachedGroupsByEnd);
        }
        cachedState = st;
    }

    /** New bounds for the fold groups and link groups that moved devices belong to (see {@link #prepare}). */
    private void refit(DiagramGeometry g, java.util.Set<Device> moved) {
        java.util.Set<Object> ends = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        for (Device d : moved) {
            FoldGroup fg = cachedFolds.get(d);
            if (fg == null) {
                ends.add(d);
            } else if (ends.add(fg)) {
                fg.refit(g);
            }
        }
        java.util.Set<Integer> changed = new java.util.TreeSet<>();
        for (Object end : ends) {
            changed.addAll(cachedGroupsByEnd.getOrDefault(end, List.of()));
        }
        for (int i : changed) {
            LinkGroup lg = cachedGroups.get(i);
            Bounds bx = endBox(g, lg.first());
            Bounds by = endBox(g, lg.second());
            cachedGroups.set(i, new LinkGroup(lg.first(), lg.second(), bx, by, DiagramGeometry.between(bx, by).bounds(),
                    lg.anyFolded(), lg.links()));
        }
    }

    private static Bounds endBox(DiagramGeometry g, Object end) {
        return end instanceof FoldGroup fg ? fg.bounds() : g.box((Device) end);
    }

    private static Map<Device, FoldGroup> computeFoldGroups(DiagramGeometry g, boolean all, boolean unitSwitches,
                                                            FoldMode mode) {
        java.util.Set<String> userFolded = g.layout().foldedGroups();
        Map<Device, FoldGroup> out = new IdentityHashMap<>();
        if (!all && (userFolded.isEmpty() || mode == FoldMode.NEVER)) {
            return out;
        }
        Map<String, FoldGroup> byKey = new HashMap<>();
        for (Device s : g.fabric().servers()) {
            Bounds b = g.box(s);
            if (b == null) {
                continue;
            }
            String key = foldKey(g.fabric(), s);
            if (all || userFolded.contains(key)) {
                FoldGroup fg = byKey.computeIfAbsent(key, FoldGroup::new);
                fg.add(s, b);
                out.put(s, fg);
            }
        }
        if (unitSwitches) {
            for (Device d : g.fabric().devices()) {
                Bounds b = g.box(d);
                if (d.role().tier() == 1 && d.unit() != null && b != null) {
                    FoldGroup fg = byKey.computeIfAbsent("unit " + d.unit(), FoldGroup::new);
                    fg.add(d, b);
                    out.put(d, fg);
                }
            }
            foldUpperTiers(g, byKey, out);
        }
        return out;
    }

    /**
     * The cluster overview, at the zoom where a unit's leaves fold: the switches above the leaves
     * fold too, so a 16,384-GPU fabric is one box per scalable unit and one per core group, and
     * its 49,152 links become one bundle per pair of boxes. A spine of a unit (three-tier rail
     * fabrics lay each unit's spines out over its leaves) joins its unit's box when the layout put
     * it in the unit's column; a switch without a unit joins its group's box when it has a group
     * label ({@link #UPPER_GROUP_LABELS}, e.g. the generator's {@code coreGroup}: the cores that
     * serve spine j of every unit). Other upper switches stay as they are (a two-tier fabric's
     * shared spines span the whole width; one box for them would say nothing).
     */
    private static void foldUpperTiers(DiagramGeometry g, Map<String, FoldGroup> byKey, Map<Device, FoldGroup> out) {
        // Each unit's box as its servers and leaves make it, before any spine joins.
        Map<String, Bounds> base = new HashMap<>();
        byKey.forEach((k, fg) -> base.put(k, fg.bounds()));
        for (Device d : g.fabric().devices()) {
            Bounds b = g.box(d);
            if (b == null || d.role().tier() < 2 || out.containsKey(d)) {
                continue;
            }
            if (d.unit() != null) {
                FoldGroup unit = byKey.get("unit " + d.unit());
                Bounds ub = base.get("unit " + d.unit());
                if (unit != null && b.minX() >= ub.minX() - TieredLayout.SWITCH_PITCH
                        && b.maxX() <= ub.maxX() + TieredLayout.SWITCH_PITCH
                        && b.maxY() <= ub.minY() && ub.minY() - b.minY() <= 3 * TieredLayout.ROW_GAP) {
                    unit.add(d, b);
                    out.put(d, unit);
                }
                continue;
            }
            for (String label : UPPER_GROUP_LABELS) {
                String v = d.labels().get(label);
                if (v != null) {
                    FoldGroup fg = byKey.computeIfAbsent(upperGroupKey(d.role(), v), FoldGroup::new);
                    fg.add(d, b);
                    out.put(d, fg);
                    break;
                }
            }
        }
    }

    /** Device labels that name the group of an upper-tier switch without a unit (see {@link #foldUpperTiers}). */
    static final List<String> UPPER_GROUP_LABELS = List.of("coreGroup", "spineGroup", "group");

    /** "core group 1" for the label value "0" (groups numbered from 1 on screen, as units are). */
    static String upperGroupKey(DeviceRole role, String value) {
        try {
            return role.jsonName() + " group " + (Integer.parseInt(value.trim()) + 1);
        } catch (NumberFormatException e) {
            return role.jsonName() + " group " + value;
        }
    }

    /** Paints everything onto a screen of w x h pixels. {@code hover} is a Device, a Link or null. */
    public Stats paint(Painter p, DiagramGeometry g, Selection sel, Object hover, Viewport vp, double w, double h,
                       Options o) {
        double s = vp.scale();
        p.save();
        p.setDash();
        p.setFill(style.background());
        p.fillRect(0, 0, w, h);
        if (o.grid()) {
            paintGrid(p, vp, w, h);
        }
        Bounds visible = vp.visibleWorld(w, h).grow(Math.max(DiagramStyle.SWITCH_WIDTH, 24 / s));
        Map<Device, FoldGroup> folded = foldGroups(g, s, o.fold());
        List<LinkGroup> linkGroups = cachedGroups;
        labelBoxes.clear();
        drawnBoxes.clear();
        List<Caption> frames = paintUnits(p, g, vp, visible);
        // Names first: device and group labels claim their place before port and speed labels.
        Map<Device, DeviceText> names = planDeviceLabels(p, g, folded, vp, visible, o);
        java.util.Set<FoldGroup> groups = new java.util.LinkedHashSet<>(folded.values());
        Map<FoldGroup, List<String>> groupNames = new IdentityHashMap<>();
        for (FoldGroup fg : groups) {
            if (fg.bounds().intersects(visible)) {
                List<String> label = planFoldLabel(p, fg, vp);
                if (label != null) {
                    groupNames.put(fg, label);
                }
            }
        }
        int[] counts = paintLinks(p, linkGroups, sel, hover, vp, visible, o);
        int devicesDrawn = 0;
        for (Device d : g.fabric().devices()) {
            if (folded.containsKey(d)) {
                continue;
            }
            Bounds b = g.box(d);
            if (b != null && b.intersects(visible)) {
                paintDevice(p, d, b, vp, sel.contains(d), d == hover, names.get(d));
                devicesDrawn++;
            }
        }
        int groupsDrawn = 0;
        for (FoldGroup fg : groups) {
            if (fg.bounds().intersects(visible)) {
                paintFoldGroup(p, fg, vp, fg.members().stream().anyMatch(sel::contains), groupNames.get(fg));
                groupsDrawn++;
            }
        }
        paintUnitCaptions(p, frames, vp);
        if (o.labels()) {
            paintTierCaptions(p, g, folded, names, vp, w, h, visible);
        }
        if (o.legend()) {
            paintLegend(p, legend(g), h, !folded.isEmpty());
        }
        p.restore();
        return new Stats(devicesDrawn, counts[0], counts[1], groupsDrawn, !folded.isEmpty());
    }

    /**
     * True when a paint of this view draws everything: every device, group, unit frame and link
     * lies inside the area {@link #paint} considers visible, so what it draws (which lines, their
     * sample and fading, the labels) does not depend on the view's offset. Two such views of one
     * scale draw the same picture shifted by the difference of their offsets; the editor then
     * shifts the last frame's pixels and paints only the strips a pan uncovers.
     */
    public boolean drawsAll(DiagramGeometry g, Viewport vp, double w, double h) {
        double s = vp.scale();
        Bounds visible = vp.visibleWorld(w, h).grow(Math.max(DiagramStyle.SWITCH_WIDTH, 24 / s));
        // Unit frames reach 22 world units around their devices, plus 16 below for the unit's name.
        return visible.containsAll(g.extent().grow(UNIT_MARGIN + 16));
    }

    /**
     * Paints the legend alone, as {@link #paint} does at its end, for a picture of the fabric
     * painted without it (by a paint of the same view and options with the legend off).
     */
    public void paintLegend(Painter p, DiagramGeometry g, Viewport vp, double h, Options o) {
        if (!o.legend()) {
            return;
        }
        p.save();
        p.setDash();
        paintLegend(p, legend(g), h, !foldGroups(g, vp.scale(), o.fold()).isEmpty());
        p.restore();
    }

    /**
     * Width and height of the legend a paint of this view draws (after a paint of the fabric, which
     * computes its content), or null before the first paint.
     */
    public double[] legendSize(DiagramGeometry g, Viewport vp, Options o) {
        if (cachedState == null) {
            return null;
        }
        boolean folded = !foldGroups(g, vp.scale(), o.fold()).isEmpty();
        return new double[] {LEGEND_WIDTH, 24 + legendRows(legend(g), folded) * LEGEND_ROW};
    }

    /**
     * Paints the legend with its top left corner at (x, y), for the editor, which places it where it
     * covers no device (issue 16 item 11); {@code collapsible} adds the "–" that folds it to a chip.
     */
    public void paintLegendAt(Painter p, DiagramGeometry g, Viewport vp, double x, double y, Options o,
                              boolean collapsible) {
        if (cachedState == null) {
            return;
        }
        p.save();
        p.setDash();
        paintLegendBox(p, legend(g), x, y, !foldGroups(g, vp.scale(), o.fold()).isEmpty());
        if (collapsible) {
            p.setFill(style.textMuted());
            p.setFont(13, true);
            p.text("–", x + LEGEND_WIDTH - 14, y + 12, TextAnchor.MIDDLE);
        }
        p.restore();
    }

    /** A folded overlay: a small labelled box the editor draws in place of the legend ("Legend ▸"). */
    public void paintChip(Painter p, Bounds box, String text) {
        p.save();
        p.setDash();
        p.setFill(style.legendFill());
        p.fillRoundRect(box.minX(), box.minY(), box.width(), box.height(), 8);
        p.setStroke(style.legendStroke(), 1);
        p.strokeRoundRect(box.minX(), box.minY(), box.width(), box.height(), 8);
        p.setFill(style.text());
        p.setFont(11, true);
        p.text(text, box.minX() + 8, box.minY() + box.height() / 2, TextAnchor.START);
        p.restore();
    }

    // ----- background --------------------------------------------------------------------------

    private void paintGrid(Painter p, Viewport vp, double w, double h) {
        double step = DiagramStyle.GRID;
        while (step * vp.scale() < 24) {
            step *= (String.valueOf((long) step).startsWith("1") ? 5 : 2);
        }
        double px = step * vp.scale();
        p.setStroke(style.gridLine(), 1);
        double x0 = vp.toScreenX(Math.floor(vp.toWorldX(0) / step) * step);
        for (double x = x0; x <= w; x += px) {
            p.line(Math.round(x) + 0.5, 0, Math.round(x) + 0.5, h);
        }
        double y0 = vp.toScreenY(Math.floor(vp.toWorldY(0) / step) * step);
        for (double y = y0; y <= h; y += px) {
            p.line(0, Math.round(y) + 0.5, w, Math.round(y) + 0.5);
        }
    }

    /** A caption to place after the devices are drawn: its text, left end and vertical middle. */
    private record Caption(String text, double x, double y, double font) {
    }

    /**
     * Boxes around the switches and servers of each scalable unit; returns their captions ("unit
     * n", bottom left), placed after the devices by {@link #paintUnitCaptions}.
     */
    private List<Caption> paintUnits(Painter p, DiagramGeometry g, Viewport vp, Bounds visible) {
        Map<Integer, Bounds> units = new TreeMap<>();
        for (Device d : g.fabric().devices()) {
            if (d.unit() != null && (d.role() == DeviceRole.SERVER || d.role().tier() == 1)) {
                Bounds b = g.box(d);
                if (b != null) {
                    units.merge(d.unit(), b, Bounds::union);
                }
            }
        }
        double s = vp.scale();
        List<Caption> captions = new ArrayList<>();
        for (Map.Entry<Integer, Bounds> e : units.entrySet()) {
            Bounds b = e.getValue().grow(UNIT_MARGIN);
            if (!b.intersects(visible)) {
                continue;
            }
            double x = vp.toScreenX(b.minX());
            double y = vp.toScreenY(b.minY());
            double bw = b.width() * s;
            double bh = (b.height() + 16) * s;
            p.setFill(style.groupFill());
            p.fillRoundRect(x, y, bw, bh, 12);
            p.setStroke(style.groupStroke(), 1);
            p.setDash(5, 3);
            p.strokeRoundRect(x, y, bw, bh, 12);
            p.setDash();
            double font = clamp(12 * s, 9, 13);
            if (bw > 60) {
                // Bottom left: the top edge is where the uplinks arrive.
                captions.add(new Caption(groupLabel("unit " + e.getKey()), x + 6, y + bh - font * 0.8, font));
            }
        }
        return captions;
    }

    /**
     * The units' captions where they meet no label and no device or group box (at low zoom the
     * unit's folded servers reach over the caption's strip; their own label names the unit).
     */
    private void paintUnitCaptions(Painter p, List<Caption> captions, Viewport vp) {
        for (Caption c : captions) {
            p.setFont(c.font(), true);
            double tw = p.textWidth(c.text(), c.font());
            Bounds r = new Bounds(c.x(), c.y() - c.font() * 0.6, c.x() + tw, c.y() + c.font() * 0.6);
            if (free(r)) {
                p.setFill(style.textMuted());
                p.text(c.text(), c.x(), c.y(), TextAnchor.START);
                labelBoxes.add(r);
            }
        }
    }

    /** True when a label at {@code r} would meet no placed label and no drawn device or group. */
    private boolean free(Bounds r) {
        for (Bounds b : labelBoxes) {
            if (b.intersects(r)) {
                return false;
            }
        }
        for (Bounds b : drawnBoxes) {
            if (b.intersects(r)) {
                return false;
            }
        }
        return true;
    }

    // ----- links ---------------------------------------------------------------------------------

    /** One end of a drawn line: a device or a fold group. */
    private record End(Object what, Bounds box) {
    }

    /** Links drawn together because they share both drawn ends (parallel links, or a bundle to a fold group). */
    private record LinkGroup(Object first, Object second, Bounds firstBox, Bounds secondBox, Bounds extent,
                             boolean anyFolded, List<Link> links) {
    }

    /**
     * Links grouped by their two drawn ends, in the order of each group's first link in the fabric;
     * a group's first end is the drawn end of its first link's {@code a} port. {@code byEnd} gets,
     * for each end, the places of its groups in the list.
     */
    private List<LinkGroup> groupLinks(DiagramGeometry g, Map<Device, FoldGroup> folded, Map<Object, List<Integer>> byEnd) {
        // Two-level map (first end, then second end, both by identity): no key object per link.
        Map<Object, Map<Object, Integer>> index = new IdentityHashMap<>();
        List<Object[]> ends = new ArrayList<>();
        List<List<Link>> members = new ArrayList<>();
        Map<Object, Bounds> boxes = new IdentityHashMap<>();
        for (Link l : g.fabric().links()) {
            End a = end(g, l.a().device(), folded);
            End b = end(g, l.b().device(), folded);
            if (a == null || b == null || a.what() == b.what()) {
                continue;
            }
            boxes.put(a.what(), a.box());
            boxes.put(b.what(), b.box());
            Map<Object, Integer> fromA = index.get(a.what());
            Integer at = fromA == null ? null : fromA.get(b.what());
            if (at == null) {
                Map<Object, Integer> fromB = index.get(b.what());
                at = fromB == null ? null : fromB.get(a.what());
            }
            if (at == null) {
                at = members.size();
                index.computeIfAbsent(a.what(), k -> new IdentityHashMap<>()).put(b.what(), at);
                ends.add(new Object[] {a.what(), b.what()});
                members.add(new ArrayList<>(1));
            }
            members.get(at).add(l);
        }
        List<LinkGroup> out = new ArrayList<>(members.size());
        for (int i = 0; i < members.size(); i++) {
            Object x = ends.get(i)[0];
            Object y = ends.get(i)[1];
            Bounds bx = boxes.get(x);
            Bounds by = boxes.get(y);
            out.add(new LinkGroup(x, y, bx, by, DiagramGeometry.between(bx, by).bounds(),
                    x instanceof FoldGroup || y instanceof FoldGroup, members.get(i)));
            byEnd.computeIfAbsent(x, k -> new ArrayList<>(2)).add(i);
            byEnd.computeIfAbsent(y, k -> new ArrayList<>(2)).add(i);
        }
        return out;
    }

    /** Returns {lines drawn, links represented}. */
    private int[] paintLinks(Painter p, List<LinkGroup> groups, Selection sel, Object hover, Viewport vp,
                             Bounds visible, Options o) {
        List<LinkGroup> shown = new ArrayList<>();
        for (LinkGroup lg : groups) {
            if (lg.extent().intersects(visible)) {
                shown.add(lg);
            }
        }
        if (shown.size() > DENSE_LINES) {
            // Too many lines: keep those with an end on screen; lines that only pass through say little.
            shown.removeIf(lg -> !lg.firstBox().intersects(visible) && !lg.secondBox().intersects(visible));
        }
        int budget = o.draft() ? DRAFT_LINES : FULL_LINES;
        int candidates = shown.size();
        if (shown.size() > budget) {
            List<LinkGroup> sample = new ArrayList<>(budget + 8);
            double step = shown.size() / (double) budget;
            java.util.Set<Integer> taken = new java.util.HashSet<>();
            for (int i = 0; i < budget; i++) {
                int k = (int) (i * step);
                taken.add(k);
                sample.add(shown.get(k));
            }
            if (!o.draft()) {
                for (int k = 0; k < shown.size(); k++) {
                    LinkGroup lg = shown.get(k);
                    if (!taken.contains(k) && lg.links().stream().anyMatch(l -> sel.contains(l) || l == hover
                            || highlightLinks.contains(l))) {
                        sample.add(lg);
                    }
                }
            }
            shown = sample;
        }
        sampledOf = shown.size() < candidates ? candidates : 0;
        sampledShown = shown.size();
        double s = vp.scale();
        int lines = 0;
        int represented = 0;
        // Thousands of lines on screen at once become a haze: draw them translucent so devices stay readable.
        bundleCapPx = 60 * s;
        int alpha = (int) Math.max(30, Math.min(255, 255.0 * DENSE_LINES / Math.max(1, shown.size())));
        List<Object[]> portLabels = new ArrayList<>();
        List<Object[]> speedLabels = new ArrayList<>();
        List<Object[]> bundleLabels = new ArrayList<>();
        List<LineStroke> strokes = new ArrayList<>(shown.size());
        for (LinkGroup lg : shown) {
            Bounds ba = lg.firstBox();
            Bounds bb = lg.secondBox();
            Segment seg = DiagramGeometry.between(ba, bb);
            double x1 = vp.toScreenX(seg.x1());
            double y1 = vp.toScreenY(seg.y1());
            double x2 = vp.toScreenX(seg.x2());
            double y2 = vp.toScreenY(seg.y2());
            List<Link> ls = lg.links();
            boolean anyFolded = lg.anyFolded();
            represented += ls.size();
            if (ls.size() == 1 || (!anyFolded && s >= DiagramStyle.BUNDLE_BELOW_SCALE)) {
                int n = ls.size();
                // Parallel links fan out across the box edge, at most 6 px apart.
                double spacing = Math.min(6, Math.min(ba.width(), bb.width()) * s * 0.8 / Math.max(1, n));
                boolean vertical = seg.y1() != seg.y2();
                for (int i = 0; i < n; i++) {
                    Link l = ls.get(i);
                    double off = (i - (n - 1) / 2.0) * spacing;
                    double ox = vertical ? off : 0;
                    double oy = vertical ? 0 : off;
                    strokes.add(linkStroke(l, x1 + ox, y1 + oy, x2 + ox, y2 + oy, sel.contains(l), l == hover, alpha));
                    lines++;
                    if (o.labels() && !o.draft() && s >= 0.9 && !anyFolded) {
                        portLabels.add(new Object[] {l, lg.first(), x1 + ox, y1 + oy, x2 + ox, y2 + oy});
                    }
                    if (o.speeds() && !o.draft() && s >= 0.5 && !anyFolded) {
                        speedLabels.add(new Object[] {l, (x1 + x2) / 2 + ox, (y1 + y2) / 2 + oy});
                    }
                }
            } else {
                strokes.add(bundleStroke(ls, x1, y1, x2, y2, ls.stream().anyMatch(sel::contains), alpha));
                lines++;
                if (!o.draft() && o.labels() && anyFolded && Math.hypot(x2 - x1, y2 - y1) >= 90) {
                    bundleLabels.add(new Object[] {ls, (x1 + x2) / 2, (y1 + y2) / 2, lg.first(), lg.second()});
                }
            }
        }
        paintStrokes(p, strokes);
        // Labels never overlap: each one claims its box, and one that would cover a placed one is
        // left out (the tooltip has every port and speed). Device and group names are placed
        // before (planDeviceLabels); then port names, they say more than speeds.
        List<Bounds> placed = labelBoxes;
        for (Object[] pl : portLabels) {
            paintPortLabels(p, (Link) pl[0], pl[1], (double) pl[2], (double) pl[3], (double) pl[4], (double) pl[5],
                    placed);
        }
        if (!speedLabels.isEmpty()) {
            p.setFont(9, false);
            p.setFill(style.textMuted());
            for (Object[] sl : speedLabels) {
                String t = speedText(((Link) sl[0]).speedGbps());
                double tw = p.textWidth(t, 9);
                double x = (double) sl[1] - tw / 2 - 3;
                double y = (double) sl[2];
                // A speed label keeps clear of every other label by a label's width, so a row of
                // crowded links gets a few readable labels rather than a solid band of them.
                Bounds room = new Bounds(x + 2 - tw, y - 12, x + 4 + 2 * tw, y + 12);
                if (placed.stream().noneMatch(room::intersects)) {
                    placeLabel(p, t, x, y, placed);
                }
            }
        }
        // A bundle between folded boxes says how many links it stands for and their summed
        // capacity ("32 × 400G · 12.8T"), where it meets no other label; one label for each box
        // at most (the 64 bundles fanning out of a core group all say the same).
        p.setFont(9, false);
        java.util.Set<Object> labelledEnds = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        for (Object[] bl : bundleLabels) {
            if (labelledEnds.contains(bl[3]) || labelledEnds.contains(bl[4])) {
                continue;
            }
            @SuppressWarnings("unchecked")
            List<Link> ls = (List<Link>) bl[0];
            String t = bundleText(ls);
            double tw = p.textWidth(t, 9);
            Bounds r = new Bounds((double) bl[1] - tw / 2 - 3, (double) bl[2] - 7, (double) bl[1] + tw / 2 + 3,
                    (double) bl[2] + 7);
            if (placed.stream().noneMatch(r::intersects)) {
                p.setFill(style.legendFill());
                p.fillRoundRect(r.minX(), r.minY(), r.width(), r.height(), 5);
                p.setFill(style.textMuted());
                p.text(t, (double) bl[1], (double) bl[2], TextAnchor.MIDDLE);
                placed.add(r);
                labelledEnds.add(bl[3]);
                labelledEnds.add(bl[4]);
            }
        }
        return new int[] {lines, represented};
    }

    /**
     * What a bundle stands for: "32 × 400G · 12.8T" (links of one speed), "40 links · 14T"
     * (mixed speeds); the capacity is the sum of the links' speeds, those down included.
     */
    public static String bundleText(List<Link> links) {
        long total = 0;
        int speed = -1;
        boolean mixed = false;
        for (Link l : links) {
            total += l.speedGbps();
            mixed |= speed >= 0 && speed != l.speedGbps();
            speed = l.speedGbps();
        }
        String sum = capacityText(total);
        return mixed ? links.size() + " links · " + sum : links.size() + " × " + speedText(speed) + " · " + sum;
    }

    /** "12.8T", "800G", "1.05P": a capacity in Gb/s, three significant figures at most. */
    static String capacityText(long gbps) {
        if (gbps < 1000) {
            return gbps + "G";
        }
        double v = gbps / 1000.0;
        String unit = "T";
        if (v >= 1000) {
            v /= 1000;
            unit = "P";
        }
        String num = v >= 100 ? String.format(java.util.Locale.ROOT, "%.0f", v)
                : v >= 10 ? String.format(java.util.Locale.ROOT, "%.1f", v) : String.format(java.util.Locale.ROOT, "%.2f", v);
        if (num.contains(".")) {
            num = num.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        return num + unit;
    }

    /**
     * The load of a bundle from its links' loads: the capacity-weighted mean of the fractions the
     * {@link LinkLoad} has a figure for (bits carried over bits the bundle can carry, so a busy
     * 800G link weighs twice a 400G one); NaN when it has a figure for none of them.
     */
    public static double bundleLoad(List<Link> links, LinkLoad load) {
        double carried = 0;
        double capacity = 0;
        for (Link l : links) {
            double u = load.fraction(l);
            if (!Double.isNaN(u)) {
                carried += u * l.speedGbps();
                capacity += l.speedGbps();
            }
        }
        return capacity == 0 ? Double.NaN : carried / capacity;
    }

    private End end(DiagramGeometry g, Device d, Map<Device, FoldGroup> folded) {
        FoldGroup fg = folded.get(d);
        if (fg != null) {
            return new End(fg, fg.bounds());
        }
        Bounds b = g.box(d);
        return b == null ? null : new End(d, b);
    }

    /**
     * Links and devices drawn with a highlight halo (the ECMP paths between two NICs, a deadlock
     * cycle); empty sets for none.
     */
    public void setHighlight(java.util.Set<Link> links, java.util.Set<Device> devices) {
        highlightLinks = java.util.Set.copyOf(links);
        highlightDevices = java.util.Set.copyOf(devices);
    }

    public java.util.Set<Link> highlightedLinks() {
        return highlightLinks;
    }

    /** Colours links by load from now on (null: back to rails and speed). */
    public void setLinkLoad(LinkLoad load) {
        this.linkLoad = load;
    }

    /**
     * The colour a link is drawn in: down red; with a {@link LinkLoad}, its load (green, amber,
     * red); else the rail colour from a server to a rail switch, else by speed.
     */
    public Rgba linkColour(Link l) {
        if (!l.isUp()) {
            return DiagramStyle.LINK_DOWN;
        }
        if (linkLoad != null) {
            double u = linkLoad.fraction(l);
            if (!Double.isNaN(u)) {
                return style.utilisationColour(u);
            }
        }
        Integer rail = railOf(l);
        return rail != null ? style.railColour(rail) : style.linkColour(l.speedGbps());
    }

    /** The rail a server link belongs to: the rail of its switch end, or the NIC index for a rail-only switch. */
    public static Integer railOf(Link l) {
        Port server = l.a().device().role() == DeviceRole.SERVER ? l.a()
                : l.b().device().role() == DeviceRole.SERVER ? l.b() : null;
        if (server == null) {
            return null;
        }
        Device sw = l.opposite(server).device();
        if (sw.rail() != null) {
            return sw.rail();
        }
        return sw.role() == DeviceRole.RAIL ? server.nic() : null;
    }

    /** One line to draw: where, in which colour, and the halo under it (highlight, selection or hover), if any. */
    private record LineStroke(double x1, double y1, double x2, double y2, Rgba colour, double width, boolean dashed,
                              boolean highlight, Rgba halo, double haloWidth) {
    }

    /**
     * Halos first, then the lines grouped by colour, width and dash: a canvas painter can then
     * stroke each group as one path, which the software renderer rasterises far faster than
     * thousands of separate lines (z-order among links of different colours carries no meaning).
     */
    private static void paintStrokes(Painter p, List<LineStroke> strokes) {
        p.setDash();
        for (LineStroke st : strokes) {
            if (st.highlight()) {
                p.setStroke(DiagramStyle.HIGHLIGHT, st.width() + 7);
                p.line(st.x1(), st.y1(), st.x2(), st.y2());
            }
        }
        for (LineStroke st : strokes) {
            if (st.halo() != null) {
                p.setStroke(st.halo(), st.haloWidth());
                p.line(st.x1(), st.y1(), st.x2(), st.y2());
            }
        }
        List<LineStroke> sorted = new ArrayList<>(strokes);
        sorted.sort(java.util.Comparator.comparing(LineStroke::dashed).thenComparingInt(st -> st.colour().hashCode())
                .thenComparingDouble(LineStroke::width));
        Rgba colour = null;
        double width = -1;
        boolean dashed = false;
        for (LineStroke st : sorted) {
            if (!st.colour().equals(colour) || st.width() != width) {
                colour = st.colour();
                width = st.width();
                p.setStroke(colour, width);
            }
            if (st.dashed() != dashed) {
                dashed = st.dashed();
                if (dashed) {
                    p.setDash(6, 4);
                } else {
                    p.setDash();
                }
            }
            p.line(st.x1(), st.y1(), st.x2(), st.y2());
        }
        p.setDash();
    }

    private LineStroke linkStroke(Link l, double x1, double y1, double x2, double y2, boolean selected,
                                  boolean hovered, int alpha) {
        double width = style.linkWidthPx(l.speedGbps());
        Rgba halo = selected ? DiagramStyle.SELECTION : hovered ? DiagramStyle.HOVER : null;
        return new LineStroke(x1, y1, x2, y2, linkColour(l).withAlpha(alpha), width, !l.isUp(),
                highlightLinks.contains(l), halo, width + 4);
    }

    private LineStroke bundleStroke(List<Link> ls, double x1, double y1, double x2, double y2, boolean selected,
                                    int alpha) {
        int maxSpeed = 0;
        Rgba colour = null;
        boolean mixed = false;
        boolean allDown = true;
        for (Link l : ls) {
            maxSpeed = Math.max(maxSpeed, l.speedGbps());
            Rgba c = linkColour(l);
            mixed |= colour != null && !colour.equals(c);
            colour = c;
            allDown &= !l.isUp();
        }
        if (mixed) {
            colour = style.linkColour(maxSpeed);
        }
        if (linkLoad != null) {
            // The bundle's own load (summed over its links), not one of its links' colours.
            double u = bundleLoad(ls, linkLoad);
            if (!Double.isNaN(u)) {
                colour = style.utilisationColour(u);
            }
        }
        // A bundle is never wider than a third of the gap between device boxes would allow at this zoom.
        double width = Math.min(style.bundleWidthPx(maxSpeed, ls.size()), Math.max(1.2, bundleCapPx));
        boolean highlight = !highlightLinks.isEmpty() && ls.stream().anyMatch(highlightLinks::contains);
        return new LineStroke(x1, y1, x2, y2, (allDown ? DiagramStyle.LINK_DOWN : colour).withAlpha(alpha), width,
                allDown, highlight, selected ? DiagramStyle.SELECTION : null, width + 4);
    }

    /**
     * Port names near both ends of a link, 18 px along the line; a label that would overlap one
     * already placed is left out (names stay readable where links crowd, the tooltip has them all).
     */
    private void paintPortLabels(Painter p, Link l, Object startEnd, double x1, double y1, double x2,
                                        double y2, List<Bounds> placed) {
        double len = Math.hypot(x2 - x1, y2 - y1);
        if (len < 80) {
            return;
        }
        double ux = (x2 - x1) / len;
        double uy = (y2 - y1) / len;
        p.setFont(9, false);
        p.setFill(style.textMuted());
        Port first = startEnd == l.a().device() ? l.a() : l.b();
        Port second = l.opposite(first);
        placeLabel(p, first.name(), x1 + ux * 18, y1 + uy * 18, placed);
        placeLabel(p, second.name(), x2 - ux * 18, y2 - uy * 18, placed);
    }

    private static boolean placeLabel(Painter p, String text, double x, double y, List<Bounds> placed) {
        double w = p.textWidth(text, 9);
        Bounds b = new Bounds(x + 2, y - 6, x + 4 + w, y + 6);
        for (Bounds other : placed) {
            if (other.intersects(b)) {
                return false;
            }
        }
        placed.add(b);
        p.text(text, x + 3, y, TextAnchor.START);
        return true;
    }

    // ----- devices -------------------------------------------------------------------------------

    /** A device's text as planned by {@link #planDeviceLabels}: its name, the detail line or null, the font. */
    private record DeviceText(String name, String detail, double font) {
    }

    private static double nameFont(Device d, double s) {
        return d.role() == DeviceRole.SERVER ? clamp(11 * s, 9, 13) : clamp(13 * s, 10, 15);
    }

    /**
     * The name (and detail line) of every device drawn unfolded on screen, their label rectangles
     * claimed in {@link #labelBoxes} and their boxes in {@link #drawnBoxes}. One rule names a
     * role's devices alike: each role takes the longest of the forms of {@link #labelForms} (the
     * model's id first) that every device of that role on screen can show inside its box; when
     * some cannot show even the shortest, none of that role is named and the row gets a caption
     * instead ({@link #paintTierCaptions}), so a row never mixes "leaf1" with "lf2" or with
     * unnamed boxes.
     */
    private Map<Device, DeviceText> planDeviceLabels(Painter p, DiagramGeometry g, Map<Device, FoldGroup> folded,
                                                     Viewport vp, Bounds visible, Options o) {
        double s = vp.scale();
        Map<DeviceRole, Integer> level = new java.util.EnumMap<>(DeviceRole.class);
        List<Device> shown = new ArrayList<>();
        for (Device d : g.fabric().devices()) {
            if (folded.containsKey(d)) {
                continue;
            }
            Bounds b = g.box(d);
            if (b == null || !b.intersects(visible)) {
                continue;
            }
            shown.add(d);
            double bw = b.width() * s;
            drawnBoxes.add(new Bounds(vp.toScreenX(b.minX()), vp.toScreenY(b.minY()), vp.toScreenX(b.maxX()),
                    vp.toScreenY(b.maxY())));
            double font = nameFont(d, s);
            int need = NO_FORM;
            if (bw >= 4) {
                for (int i = 0; i < NO_FORM; i++) {
                    if (p.textWidth(labelForm(d.id(), i), font) <= bw - 6) {
                        need = i;
                        break;
                    }
                }
            }
            level.merge(d.role(), need, Math::max);
        }
        Map<Device, DeviceText> out = new IdentityHashMap<>();
        for (Device d : shown) {
            int lv = level.get(d.role());
            if (lv == NO_FORM) {
                continue;
            }
            Bounds b = g.box(d);
            double x = vp.toScreenX(b.minX());
            double y = vp.toScreenY(b.minY());
            double bw = b.width() * s;
            double bh = b.height() * s;
            double font = nameFont(d, s);
            String name = labelForm(d.id(), lv);
            String detail = o.labels() && bh >= font * 2.6 ? detail(d) : null;
            if (detail != null && p.textWidth(detail, font * 0.8) > bw - 6) {
                detail = null;
            }
            double cx = x + bw / 2;
            double cy = y + bh / 2;
            double nameY = detail == null ? cy : cy - font * 0.5;
            double tw = p.textWidth(name, font);
            labelBoxes.add(new Bounds(cx - tw / 2, nameY - font * 0.6, cx + tw / 2, nameY + font * 0.6));
            if (detail != null) {
                double dw = p.textWidth(detail, font * 0.8);
                double dy = cy + font * 0.6;
                labelBoxes.add(new Bounds(cx - dw / 2, dy - font * 0.45, cx + dw / 2, dy + font * 0.45));
            }
            out.put(d, new DeviceText(name, detail, font));
        }
        return out;
    }

    private void paintDevice(Painter p, Device d, Bounds b, Viewport vp, boolean selected, boolean hovered,
                             DeviceText text) {
        double s = vp.scale();
        double x = vp.toScreenX(b.minX());
        double y = vp.toScreenY(b.minY());
        double bw = b.width() * s;
        double bh = b.height() * s;
        Rgba fill = style.fill(d.role());
        if (bw < 4) {
            p.setFill(selected ? DiagramStyle.SELECTION : fill);
            p.fillRect(x, y, Math.max(1, bw), Math.max(1, bh));
            return;
        }
        double arc = Math.min(DiagramStyle.CORNER_ARC * s, bh / 2);
        if (highlightDevices.contains(d)) {
            p.setStroke(DiagramStyle.HIGHLIGHT, 5);
            p.strokeRoundRect(x - 5, y - 5, bw + 10, bh + 10, arc + 5);
        }
        if (selected || hovered) {
            p.setStroke(selected ? DiagramStyle.SELECTION : DiagramStyle.HOVER, 3);
            p.strokeRoundRect(x - 3, y - 3, bw + 6, bh + 6, arc + 3);
        }
        p.setFill(fill);
        p.fillRoundRect(x, y, bw, bh, arc);
        if (d.rail() != null) {
            // A rail switch carries its rail's colour as a band along its top edge.
            p.setFill(style.railColour(d.rail()));
            p.fillRect(x + arc / 2, y, bw - arc, Math.max(2, bh * 0.18));
        }
        p.setStroke(style.outline(d.role()), 1);
        p.strokeRoundRect(x, y, bw, bh, arc);
        if (text == null) {
            return;
        }
        boolean server = d.role() == DeviceRole.SERVER;
        double font = text.font();
        p.setFill(style.textOn(fill));
        p.setFont(font, !server);
        double cy = y + bh / 2;
        if (text.detail() == null) {
            p.text(text.name(), x + bw / 2, cy, TextAnchor.MIDDLE);
        } else {
            p.text(text.name(), x + bw / 2, cy - font * 0.5, TextAnchor.MIDDLE);
            p.setFont(font * 0.8, false);
            p.text(text.detail(), x + bw / 2, cy + font * 0.6, TextAnchor.MIDDLE);
        }
    }

    /**
     * Captions for the rows of devices that carry no names at this zoom ("spine ×16" beside the
     * row), so every tier is named at any zoom: left of the row's first device, else right of its
     * last, else above its first, else at the screen's left edge above the row; a caption that
     * would meet a label or a device box in all four places is left out.
     */
    private void paintTierCaptions(Painter p, DiagramGeometry g, Map<Device, FoldGroup> folded,
                                   Map<Device, DeviceText> names, Viewport vp, double w, double h, Bounds visible) {
        record Row(DeviceRole role, int[] count, Bounds[] first, Bounds[] last, boolean[] unnamed) {
        }
        Map<String, Row> rows = new LinkedHashMap<>();
        for (Device d : g.fabric().devices()) {
            Bounds b = g.box(d);
            if (b == null || folded.containsKey(d)) {
                continue;
            }
            Row r = rows.computeIfAbsent(d.role().name() + "@" + Math.round(b.centreY()),
                    k -> new Row(d.role(), new int[1], new Bounds[1], new Bounds[1], new boolean[1]));
            r.count()[0]++;
            if (r.first()[0] == null || b.minX() < r.first()[0].minX()) {
                r.first()[0] = b;
            }
            if (r.last()[0] == null || b.maxX() > r.last()[0].maxX()) {
                r.last()[0] = b;
            }
            if (!names.containsKey(d) && b.intersects(visible)) {
                r.unnamed()[0] = true;
            }
        }
        double font = 11;
        for (Row r : rows.values()) {
            if (!r.unnamed()[0]) {
                continue;
            }
            String text = r.role().jsonName() + " ×" + r.count()[0];
            p.setFont(font, true);
            double tw = p.textWidth(text, font);
            double fx = vp.toScreenX(r.first()[0].minX());
            double lx = vp.toScreenX(r.last()[0].maxX());
            double top = vp.toScreenY(r.first()[0].minY());
            double cy = vp.toScreenY(r.first()[0].centreY());
            double bottom = Math.min(cy, top - 4);
            List<Bounds> tries = List.of(
                    new Bounds(fx - 10 - tw, cy - 8, fx - 4, cy + 8),
                    new Bounds(lx + 4, cy - 8, lx + 10 + tw, cy + 8),
                    new Bounds(fx, bottom - 16, fx + tw + 6, bottom),
                    new Bounds(4, bottom - 16, 10 + tw, bottom));
            for (Bounds t : tries) {
                if (t.minX() >= 0 && t.maxX() <= w && t.minY() >= 0 && t.maxY() <= h && free(t)) {
                    p.setFill(style.legendFill());
                    p.fillRoundRect(t.minX(), t.minY(), t.width(), t.height(), 6);
                    p.setFill(style.textMuted());
                    p.text(text, t.minX() + 3, t.centreY(), TextAnchor.START);
                    labelBoxes.add(t);
                    break;
                }
            }
        }
    }

    /** Levels of {@link #labelForm}: 0 the id ... 3 its last part abbreviated; this one means no form fits. */
    private static final int NO_FORM = 4;

    /** Word abbreviations used by {@link #labelForms}: the field's usual short names. */
    private static final Map<String, String> SHORT_WORDS = Map.ofEntries(
            Map.entry("spine", "sp"), Map.entry("leaf", "lf"), Map.entry("rail", "r"),
            Map.entry("core", "c"), Map.entry("server", "s"), Map.entry("srv", "s"),
            Map.entry("host", "h"), Map.entry("gpu", "g"), Map.entry("tor", "t"),
            Map.entry("superspine", "ssp"));

    /**
     * The forms a device label may take, longest first (the distinct ones of {@link #labelForm}'s
     * levels): the id; the id with the leading zeros of its numbers dropped ("su01-leaf3" gives
     * "su1-leaf3"); its last part when the id has several joined by '-', '_' or '.' ("leaf3": the
     * unit frame names the unit); that with the usual words abbreviated ("lf3"). Every form keeps
     * a letter when the id has one, so "leaf3" on a generated fabric and "leaf3" on a hand-made one
     * read alike.
     */
    static List<String> labelForms(String id) {
        List<String> forms = new ArrayList<>(NO_FORM);
        for (int level = 0; level < NO_FORM; level++) {
            addForm(forms, labelForm(id, level));
        }
        return forms;
    }

    /** The label of {@code id} at a level 0-3 of {@link #labelForms} (a level an id lacks gives the one before). */
    static String labelForm(String id, int level) {
        if (level == 0) {
            return id;
        }
        String unpadded = dropLeadingZeros(id);
        if (level == 1) {
            return unpadded;
        }
        int cut = Math.max(unpadded.lastIndexOf('-'), Math.max(unpadded.lastIndexOf('_'), unpadded.lastIndexOf('.')));
        String last = unpadded;
        if (cut > 0 && cut < unpadded.length() - 1) {
            String tail = unpadded.substring(cut + 1);
            if (tail.chars().anyMatch(Character::isLetter)) {
                last = tail;
            }
        }
        return level == 2 ? last : abbreviateWords(last);
    }

    private static void addForm(List<String> forms, String form) {
        if (!form.isEmpty() && !forms.contains(form)) {
            forms.add(form);
        }
    }

    /** "su01-srv007" gives "su1-srv7"; a number made of zeros keeps one. */
    private static String dropLeadingZeros(String id) {
        StringBuilder sb = new StringBuilder(id.length());
        int i = 0;
        while (i < id.length()) {
            char c = id.charAt(i);
            if (Character.isDigit(c) && (i == 0 || !Character.isDigit(id.charAt(i - 1)))) {
                int j = i;
                while (j < id.length() && Character.isDigit(id.charAt(j))) {
                    j++;
                }
                int k = i;
                while (k < j - 1 && id.charAt(k) == '0') {
                    k++;
                }
                sb.append(id, k, j);
                i = j;
            } else {
                sb.append(c);
                i++;
            }
        }
        return sb.toString();
    }

    /** Replaces whole letter runs found in {@link #SHORT_WORDS} (case kept to lower). */
    private static String abbreviateWords(String id) {
        StringBuilder sb = new StringBuilder(id.length());
        int i = 0;
        while (i < id.length()) {
            if (Character.isLetter(id.charAt(i))) {
                int j = i;
                while (j < id.length() && Character.isLetter(id.charAt(j))) {
                    j++;
                }
                String word = id.substring(i, j);
                sb.append(SHORT_WORDS.getOrDefault(word.toLowerCase(java.util.Locale.ROOT), word));
                i = j;
            } else {
                sb.append(id.charAt(i));
                i++;
            }
        }
        return sb.toString();
    }

    /** A second line: "8 GPU" on servers, the main port group ("64x400G") on switches. */
    static String detail(Device d) {
        if (d.role() == DeviceRole.SERVER) {
            return d.gpus() + " GPU";
        }
        Map<Integer, Integer> bySpeed = new TreeMap<>();
        for (Port port : d.ports()) {
            bySpeed.merge(port.speedGbps(), 1, Integer::sum);
        }
        if (bySpeed.isEmpty()) {
            return "no ports";
        }
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<Integer, Integer> e : bySpeed.entrySet()) {
            if (sb.length() > 0) {
                sb.append(" + ");
            }
            sb.append(e.getValue()).append('x').append(speedText(e.getKey()));
        }
        return sb.toString();
    }

    /** "400G", "1.6T". */
    public static String speedText(int gbps) {
        return gbps >= 1000 && gbps % 100 == 0 ? (gbps / 1000.0 + "T").replace(".0T", "T") : gbps + "G";
    }

    /**
     * The label lines of a folded group that fit its box and meet no placed label (claimed in
     * {@link #labelBoxes}), or null. The group names what it holds, tier by tier, so a folded tier
     * is still named: three lines when the box is tall enough ("unit 3", "8 leaf · 32 srv",
     * "256 GPU"), else two, else one line of decreasing length, down to the server count.
     */
    /**
     * Where a folded group is drawn on screen: its members' bounds, at least {@link #MIN_GLYPH_PX}
     * high (a row of 32 cores at the fitted zoom of 16,384 GPUs is a pixel high) and 3 px wide.
     */
    public static Bounds glyphBox(FoldGroup fg, Viewport vp) {
        Bounds b = fg.bounds();
        double x = vp.toScreenX(b.minX());
        double bw = Math.max(3, b.width() * vp.scale());
        double bh = b.height() * vp.scale();
        double h = Math.max(MIN_GLYPH_PX, bh);
        if (fg.serverCount() == 0) {
            // Switches alone (a core group, above everything it serves): grown upwards.
            double bottom = vp.toScreenY(b.maxY());
            return new Bounds(x, bottom - h, x + bw, bottom);
        }
        // A unit (or rack): grown downwards from its top row, away from the tiers above it.
        double top = vp.toScreenY(b.minY());
        return new Bounds(x, top, x + bw, top + h);
    }

    /** Least height of a folded group on screen: one line of its label. */
    static final double MIN_GLYPH_PX = 15;

    private List<String> planFoldLabel(Painter p, FoldGroup fg, Viewport vp) {
        Bounds box = glyphBox(fg, vp);
        double x = box.minX();
        double y = box.minY();
        double bw = box.width();
        double bh = box.height();
        drawnBoxes.add(box);
        if (bh < 10) {
            return null;
        }
        double font = FOLD_FONT;
        String name = groupLabel(fg.key());
        String holds = holds(fg);
        String gpus = String.format(java.util.Locale.ROOT, "%,d GPU", fg.gpus());
        List<List<String>> options = fg.gpus() == 0 ? List.of(
                List.of(name, holds),
                List.of(name + " · " + holds),
                List.of(name),
                List.of(shortGroupLabel(fg.key())),
                List.of(String.valueOf(fg.switchCount()))) : List.of(
                List.of(name, holds, gpus),
                List.of(name + " · " + gpus, holds),
                List.of(name + " · " + holds + " · " + gpus),
                List.of(name + " · " + fg.serverCount() + " srv · " + gpus),
                List.of(name + " · " + gpus),
                List.of(name),
                List.of(shortGroupLabel(fg.key())),
                List.of(String.valueOf(fg.serverCount())));
        for (List<String> lines : options) {
            double lh = font * 1.25;
            if (lines.size() > 1 && lines.size() * lh + 2 > bh) {
                continue;
            }
            boolean fits = true;
            for (String line : lines) {
                fits &= p.textWidth(line, font) <= bw - 6;
            }
            if (!fits) {
                continue;
            }
            List<Bounds> rects = new ArrayList<>();
            double top = y + bh / 2 - lines.size() * lh / 2;
            for (int i = 0; i < lines.size(); i++) {
                double tw = p.textWidth(lines.get(i), font);
                double cy = top + (i + 0.5) * lh;
                rects.add(new Bounds(x + bw / 2 - tw / 2, cy - font * 0.6, x + bw / 2 + tw / 2, cy + font * 0.6));
            }
            if (rects.stream().anyMatch(r -> labelBoxes.stream().anyMatch(r::intersects))) {
                return null;
            }
            labelBoxes.addAll(rects);
            return lines;
        }
        return null;
    }

    private static final double FOLD_FONT = 10;

    /** What a folded group holds, tier by tier from the top: "8 spine · 8 leaf · 32 srv". */
    public static String holds(FoldGroup fg) {
        Map<DeviceRole, Integer> byRole = new TreeMap<>((r1, r2) -> r2.tier() != r1.tier()
                ? Integer.compare(r2.tier(), r1.tier()) : r1.compareTo(r2));
        for (Device d : fg.members()) {
            byRole.merge(d.role(), 1, Integer::sum);
        }
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<DeviceRole, Integer> e : byRole.entrySet()) {
            if (sb.length() > 0) {
                sb.append(" · ");
            }
            sb.append(e.getValue()).append(' ').append(e.getKey() == DeviceRole.SERVER ? "srv" : e.getKey().jsonName());
        }
        return sb.toString();
    }

    private void paintFoldGroup(Painter p, FoldGroup fg, Viewport vp, boolean selected, List<String> label) {
        Bounds box = glyphBox(fg, vp);
        double x = box.minX();
        double y = box.minY();
        double bw = box.width();
        double bh = box.height();
        // A group of servers (with their unit's switches) in the servers' colour; a group of
        // switches alone (a core group) in its switches' colour.
        DeviceRole role = fg.serverCount() > 0 || fg.members().isEmpty() ? DeviceRole.SERVER : fg.members().get(0).role();
        Rgba fill = style.fill(role);
        if (selected) {
            p.setStroke(DiagramStyle.SELECTION, 3);
            p.strokeRoundRect(x - 3, y - 3, bw + 6, bh + 6, 6);
        }
        p.setFill(fill);
        p.fillRoundRect(x, y, bw, bh, Math.min(6, bh / 2));
        p.setStroke(style.outline(role), 1);
        p.strokeRoundRect(x, y, bw, bh, Math.min(6, bh / 2));
        if (label != null) {
            p.setFill(style.textOn(fill));
            double lh = FOLD_FONT * 1.25;
            double top = y + bh / 2 - label.size() * lh / 2;
            for (int i = 0; i < label.size(); i++) {
                p.setFont(FOLD_FONT, i == 0 && label.size() > 1);
                p.text(label.get(i), x + bw / 2, top + (i + 0.5) * lh, TextAnchor.MIDDLE);
            }
        }
    }

    /** Screen rectangles of the labels the last paint drew (see {@link #labelBoxes}); no two intersect. */
    public List<Bounds> lastLabelBoxes() {
        return List.copyOf(labelBoxes);
    }

    // ----- legend ------------------------------------------------------------------------------

    /** What the legend lists: roles with counts, link speeds, rails, whether any link is down. */
    private record LegendContent(Map<DeviceRole, Integer> roles, TreeSet<Integer> speeds, TreeSet<Integer> rails,
                                 boolean anyDown) {
    }

    /** The legend's content for this geometry's fabric, counted once per geometry (a picture without a legend never counts it). */
    private LegendContent legend(DiagramGeometry g) {
        if (legendGeometry != g) {
            cachedLegend = legendContent(g.fabric());
            legendGeometry = g;
        }
        return cachedLegend;
    }

    private static LegendContent legendContent(Fabric f) {
        Map<DeviceRole, Integer> roles = new TreeMap<>((a, b) -> Integer.compare(b.tier() * 10 + b.ordinal(),
                a.tier() * 10 + a.ordinal()));
        for (Device d : f.devices()) {
            roles.merge(d.role(), 1, Integer::sum);
        }
        TreeSet<Integer> speeds = new TreeSet<>();
        TreeSet<Integer> rails = new TreeSet<>();
        boolean anyDown = false;
        // The last speed added: the links of one tier come one after the other, so most are skipped.
        int lastSpeed = -1;
        for (Link l : f.links()) {
            Integer r = railOf(l);
            if (r != null) {
                rails.add(r);
            } else if (l.speedGbps() != lastSpeed) {
                lastSpeed = l.speedGbps();
                speeds.add(lastSpeed);
            }
            anyDown |= !l.isUp();
        }
        return new LegendContent(roles, speeds, rails, anyDown);
    }

    static final double LEGEND_WIDTH = 178;
    static final double LEGEND_ROW = 17;

    private int legendRows(LegendContent c, boolean folded) {
        return c.roles().size() + c.speeds().size() + (c.rails().isEmpty() ? 0 : 1) + (c.anyDown() ? 1 : 0)
                + (folded ? 1 : 0) + (linkLoad != null ? 2 : 0) + (sampledOf > 0 ? 1 : 0);
    }

    /** The legend in the bottom left corner (exported pictures, and the painter's own paint). */
    private void paintLegend(Painter p, LegendContent c, double h, boolean folded) {
        paintLegendBox(p, c, 12, h - 12 - (24 + legendRows(c, folded) * LEGEND_ROW), folded);
    }

    private void paintLegendBox(Painter p, LegendContent c, double x, double y, boolean folded) {
        Map<DeviceRole, Integer> roles = c.roles();
        TreeSet<Integer> speeds = c.speeds();
        TreeSet<Integer> rails = c.rails();
        boolean anyDown = c.anyDown();
        double row = LEGEND_ROW;
        double lw = LEGEND_WIDTH;
        double lh = 24 + legendRows(c, folded) * row;
        p.setFill(style.legendFill());
        p.fillRoundRect(x, y, lw, lh, 8);
        p.setStroke(style.legendStroke(), 1);
        p.strokeRoundRect(x, y, lw, lh, 8);
        p.setFill(style.text());
        p.setFont(11, true);
        p.text("Legend", x + 10, y + 12, TextAnchor.START);
        double cy = y + 12 + row;
        p.setFont(11, false);
        for (Map.Entry<DeviceRole, Integer> e : roles.entrySet()) {
            p.setFill(style.fill(e.getKey()));
            p.fillRoundRect(x + 10, cy - 6, 26, 12, 4);
            p.setFill(style.text());
            p.text(e.getKey().jsonName() + "  ×" + e.getValue(), x + 44, cy, TextAnchor.START);
            cy += row;
        }
        for (int speed : speeds.descendingSet()) {
            p.setStroke(style.linkColour(speed), style.linkWidthPx(speed));
            p.line(x + 10, cy, x + 36, cy);
            p.setFill(style.text());
            p.text(speedText(speed) + " link", x + 44, cy, TextAnchor.START);
            cy += row;
        }
        if (!rails.isEmpty()) {
            double rx = x + 10;
            int shown = 0;
            for (int r : rails) {
                if (shown == 8) {
                    p.setFill(style.text());
                    p.text("…", rx, cy, TextAnchor.START);
                    break;
                }
                p.setStroke(style.railColour(r), 3);
                p.line(rx, cy, rx + 8, cy);
                rx += 10;
                shown++;
            }
            p.setFill(style.text());
            p.text("rails " + rails.first() + "–" + rails.last(), x + 100, cy, TextAnchor.START);
            cy += row;
        }
        if (linkLoad != null) {
            // The load scale with its numbers (0, 50, 100 %), the same blues as the live view's.
            for (int i = 0; i < 24; i++) {
                p.setStroke(style.utilisationColour((i + 0.5) / 24), 3);
                p.line(x + 10 + i * 3, cy, x + 13 + i * 3, cy);
            }
            p.setFill(style.text());
            p.setFont(9.5, false);
            p.text("0", x + 10, cy + 9, TextAnchor.START);
            p.text("50", x + 46, cy + 9, TextAnchor.MIDDLE);
            p.text("100 %", x + 82, cy + 9, TextAnchor.START);
            p.setFont(11, false);
            p.text("load", x + 120, cy, TextAnchor.START);
            cy += 2 * row;
        }
        if (anyDown) {
            p.setStroke(DiagramStyle.LINK_DOWN, 2);
            p.setDash(6, 4);
            p.line(x + 10, cy, x + 36, cy);
            p.setDash();
            p.setFill(style.text());
            p.text("link down", x + 44, cy, TextAnchor.START);
            cy += row;
        }
        if (folded) {
            p.setFill(style.textMuted());
            p.text("servers folded: zoom in", x + 10, cy, TextAnchor.START);
            cy += row;
        }
        if (sampledOf > 0) {
            p.setFill(style.textMuted());
            p.text(String.format(java.util.Locale.ROOT, "%,d of %,d lines shown", sampledShown, sampledOf), x + 10, cy,
                    TextAnchor.START);
        }
    }

    private static double clamp(double v, double lo, double hi) {
        return Math.max(lo, Math.min(hi, v));
    }
}
