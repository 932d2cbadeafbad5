package io.fabriclab.diagram;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;

/**
 * The automatic tiered layout of a Clos fabric: one row per tier (core on top, then spines, then
 * leaf and rail switches, then servers), device centres in world units. Scalable units (or pods)
 * are groups laid side by side; inside a unit, rail leaves stay in rail order and each server
 * sits under the switches it attaches to. Rows never overlap: neighbours are at least one pitch
 * apart.
 */
public final class TieredLayout {
    /** Centre-to-centre distance of neighbouring servers and switches, in world units. */
    public static final double SERVER_PITCH = DiagramStyle.SERVER_WIDTH + 12;
    public static final double SWITCH_PITCH = DiagramStyle.SWITCH_WIDTH + 24;
    /** Extra space between two bands of units when many units wrap into several bands. */
    public static final double BAND_GAP = 120;
    /** The picture aims at this width : height, a typical window (16:10). */
    public static final double TARGET_ASPECT = 1.6;
    /** Units wrap into bands only when one band would be wider than this many heights. */
    public static final double WRAP_ABOVE_ASPECT = 8;
    /** Space between two units / pods. */
    public static final double GROUP_GAP = 80;
    /** Vertical distance between rows. */
    public static final double ROW_GAP = 250;

    private static final Comparator<String> IDS = NaturalOrder.INSTANCE;

    /** Lays out every device of the fabric; the result has no folded groups. */
    public Layout layout(Fabric fabric) {
        List<Device> servers = new ArrayList<>();
        List<Device> leaves = new ArrayList<>();
        List<Device> spines = new ArrayList<>();
        List<Device> cores = new ArrayList<>();
        for (Device d : fabric.devices()) {
            switch (d.role()) {
                case SERVER -> servers.add(d);
                case LEAF, RAIL -> leaves.add(d);
                case SPINE -> spines.add(d);
                case CORE -> cores.add(d);
            }
        }
        Comparator<Device> switchOrder = Comparator.comparing(TieredLayout::groupKey, GroupKey.ORDER)
                .thenComparing(d -> d.rail() == null ? Integer.MAX_VALUE : d.rail())
                .thenComparing(Device::id, IDS);
        leaves.sort(switchOrder);
        spines.sort(switchOrder);
        cores.sort(switchOrder);
        // A server sits under the first leaf (in leaf order) it is cabled to.
        Map<Device, Integer> leafIndex = new HashMap<>();
        for (int i = 0; i < leaves.size(); i++) {
            leafIndex.put(leaves.get(i), i);
        }
        Map<Device, Integer> serverAnchor = new HashMap<>();
        for (Device s : servers) {
            int best = Integer.MAX_VALUE;
            for (Device n : fabric.neighbors(s)) {
                best = Math.min(best, leafIndex.getOrDefault(n, Integer.MAX_VALUE));
            }
            serverAnchor.put(s, best);
        }
        servers.sort(Comparator.comparing(TieredLayout::groupKey, GroupKey.ORDER)
                .thenComparing(serverAnchor::get).thenComparing(Device::id, IDS));

        // Units (or pods) found in the two lower rows become groups placed left to right.
        Map<GroupKey, List<Device>> groupServers = group(servers);
        Map<GroupKey, List<Device>> groupLeaves = group(leaves);
        boolean spinesGrouped = spines.stream().allMatch(d -> groupKey(d) != GroupKey.NONE
                && (groupServers.containsKey(groupKey(d)) || groupLeaves.containsKey(groupKey(d))));
        Map<GroupKey, List<Device>> groupSpines = spinesGrouped ? group(spines) : Map.of();
        TreeMap<GroupKey, double[]> spans = new TreeMap<>(GroupKey.ORDER);
        double columnWidth = 0;
        for (GroupKey g : union(groupServers.keySet(), groupLeaves.keySet())) {
            double w = Math.max(groupServers.getOrDefault(g, List.of()).size() * SERVER_PITCH,
                    groupLeaves.getOrDefault(g, List.of()).size() * SWITCH_PITCH);
            w = Math.max(w, groupSpines.getOrDefault(g, List.of()).size() * SWITCH_PITCH);
            spans.put(g, new double[] {0, w});
            columnWidth = Math.max(columnWidth, w);
        }
        // Rows above the groups (core, and spines shared by all units) span the whole width; the
        // grouped rows (unit spines, leaves, servers) repeat in each band of units.
        List<List<Device>> topRows = new ArrayList<>();
        List<List<Device>> bandRows = new ArrayList<>();
        for (List<Device> row : List.of(cores, spines, leaves, servers)) {
            if (!row.isEmpty()) {
                (row == cores || (row == spines && !spinesGrouped) ? topRows : bandRows).add(row);
            }
        }
        int columns = columns(spans.size(), columnWidth, topRows.size(), bandRows.size());
        double bandPitch = bandRows.size() * ROW_GAP + BAND_GAP;
        // A single band keeps each group's own width; several bands share one column width so units line up.
        double bandsWidth = 0;
        if (columns >= spans.size()) {
            for (double[] span : spans.values()) {
                bandsWidth += span[1] + (bandsWidth > 0 ? GROUP_GAP : 0);
            }
        } else {
            bandsWidth = columns * columnWidth + (columns - 1) * GROUP_GAP;
        }
        double totalWidth = bandsWidth;
        for (List<Device> row : topRows) {
            totalWidth = Math.max(totalWidth, row.size() * SWITCH_PITCH);
        }
        double x = (totalWidth - bandsWidth) / 2;
        Map<GroupKey, Double> bandY = new HashMap<>();
        int i = 0;
        for (Map.Entry<GroupKey, double[]> e : spans.entrySet()) {
            double[] span = e.getValue();
            int col = i % columns;
            int band = i / columns;
            if (col == 0) {
                x = (totalWidth - bandsWidth) / 2;
            }
            double w = columns >= spans.size() ? span[1] : columnWidth;
            span[0] = x;
            span[1] = x + w;
            x += w + GROUP_GAP;
            bandY.put(e.getKey(), topRows.size() * ROW_GAP + band * bandPitch);
            i++;
        }

        Layout layout = new Layout();
        for (int r = 0; r < topRows.size(); r++) {
            spread(layout, topRows.get(r), 0, totalWidth, r * ROW_GAP, SWITCH_PITCH);
        }
        for (int r = 0; r < bandRows.size(); r++) {
            List<Device> row = bandRows.get(r);
            double pitch = row.get(0).role() == DeviceRole.SERVER ? SERVER_PITCH : SWITCH_PITCH;
            for (Map.Entry<GroupKey, List<Device>> e : group(row).entrySet()) {
                double[] span = spans.get(e.getKey());
                spread(layout, e.getValue(), span[0], span[1], bandY.get(e.getKey()) + r * ROW_GAP, pitch);
            }
        }
        return layout;
    }

    /**
     * Gives a position to every device that has none: all of them when the layout is empty, else
     * each missing one at the right end of its tier's row. Returns the number placed.
     */
    public int placeMissing(Fabric fabric, Layout layout) {
        if (layout.positions().isEmpty()) {
            Layout fresh = layout(fabric);
            layout.positions().putAll(fresh.positions());
            return fresh.positions().size();
        }
        Map<Integer, double[]> rowExtent = new HashMap<>(); // tier -> {maxX, y}
        for (Device d : fabric.devices()) {
            Layout.Point p = layout.position(d.id());
            if (p != null) {
                rowExtent.merge(d.role().tier(), new double[] {p.x(), p.y()},
                        (a, b) -> a[0] >= b[0] ? a : b);
            }
        }
        int placed = 0;
        for (Device d : fabric.devices()) {
            if (layout.position(d.id()) == null) {
                int tier = d.role().tier();
                double[] ext = rowExtent.get(tier);
                double pitch = d.role() == DeviceRole.SERVER ? SERVER_PITCH : SWITCH_PITCH;
                double nx = ext == null ? 0 : ext[0] + pitch;
                double ny = ext == null ? (3 - tier) * ROW_GAP : ext[1];
                layout.setPosition(d.id(), nx, ny);
                rowExtent.put(tier, new double[] {nx, ny});
                placed++;
            }
        }
        return placed;
    }

    /**
     * How many units go side by side before wrapping to a new band: all of them while the picture
     * stays under {@link #WRAP_ABOVE_ASPECT}, else the count whose picture comes closest to {@link #TARGET_ASPECT}, so a 64-unit fabric is a grid, not a 150,000-unit-wide strip.
     */
    static int columns(int groups, double columnWidth, int topRows, int bandRows) {
        if (groups <= 1) {
            return 1;
        }
        double oneBand = (groups * columnWidth + (groups - 1) * GROUP_GAP)
                / (Math.max(1, topRows + bandRows - 1) * ROW_GAP);
        if (oneBand <= WRAP_ABOVE_ASPECT) {
            // Side by side reads best (links to shared spines never cross another unit) until it gets very wide.
            return groups;
        }
        int best = groups;
        double bestError = Double.MAX_VALUE;
        for (int c = 1; c <= groups; c++) {
            int bands = (groups + c - 1) / c;
            double width = c * columnWidth + (c - 1) * GROUP_GAP;
            double height = Math.max(1, topRows + bands * bandRows - 1) * ROW_GAP + (bands - 1) * BAND_GAP;
            double error = Math.abs(Math.log(width / height / TARGET_ASPECT));
            if (error < bestError - 1e-9) {
                bestError = error;
                best = c;
            }
        }
        return best;
    }

    /** Spreads devices evenly over [x0, x1] when they fit at {@code pitch}, else at pitch, centred. */
    private static void spread(Layout layout, List<Device> devices, double x0, double x1, double y, double pitch) {
        int n = devices.size();
        double step = Math.max(pitch, (x1 - x0) / n);
        double start = (x0 + x1) / 2 - step * n / 2;
        for (int i = 0; i < n; i++) {
            layout.setPosition(devices.get(i).id(), start + (i + 0.5) * step, y);
        }
    }

    private static Map<GroupKey, List<Device>> group(List<Device> sorted) {
        Map<GroupKey, List<Device>> m = new LinkedHashMap<>();
        for (Device d : sorted) {
            m.computeIfAbsent(groupKey(d), k -> new ArrayList<>()).add(d);
        }
        return m;
    }

    private static List<GroupKey> union(java.util.Set<GroupKey> a, java.util.Set<GroupKey> b) {
        java.util.TreeSet<GroupKey> s = new java.util.TreeSet<>(GroupKey.ORDER);
        s.addAll(a);
        s.addAll(b);
        return new ArrayList<>(s);
    }

    /** The unit a device is grouped under (its scalable unit, else its pod, else none). */
    static GroupKey groupKey(Device d) {
        if (d.unit() != null) {
            return new GroupKey(0, d.unit());
        }
        if (d.pod() != null) {
            return new GroupKey(1, d.pod());
        }
        return GroupKey.NONE;
    }

    /** A unit (kind 0) or pod (kind 1) number; NONE sorts last. */
    record GroupKey(int kind, int index) {
        static final GroupKey NONE = new GroupKey(2, 0);
        static final Comparator<GroupKey> ORDER = Comparator.comparingInt(GroupKey::kind)
                .thenComparingInt(GroupKey::index);
    }
}
