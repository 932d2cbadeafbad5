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
 *
 * <p>A two-tier Clos (leaf-spine: spines shared by every leaf, no core) never wraps its racks
 * into bands, which would send the uplinks of the lower band across the servers of the upper
 * one. It keeps one spine row over one leaf row and, when the racks side by side would be too
 * wide, stacks each rack's servers into a few short rows under its own leaf.
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
    /** Vertical distance between the stacked server rows of one rack (see {@link #layout}). */
    public static final double SERVER_STACK_GAP = DiagramStyle.SERVER_HEIGHT + 22;
    /** At most this many stacked server rows a rack; beyond it racks wrap into bands instead. */
    public static final int MAX_SERVER_STACK = 8;

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
        List<GroupKey> groups = union(groupServers.keySet(), groupLeaves.keySet());
        boolean twoTier = cores.isEmpty() && !spines.isEmpty() && !spinesGrouped && groups.size() > 1;
        int serverStack = twoTier ? serverStack(groups, groupServers, groupLeaves) : 0;
        // When even stacked racks cannot fit (many units, or many leaves a unit), units wrap into bands.
        twoTier = serverStack > 0;
        serverStack = Math.max(1, serverStack);
        TreeMap<GroupKey, double[]> spans = new TreeMap<>(GroupKey.ORDER);
        double columnWidth = 0;
        for (GroupKey g : groups) {
            int perRow = ceilDiv(groupServers.getOrDefault(g, List.of()).size(), serverStack);
            double w = Math.max(perRow * SERVER_PITCH,
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
        int columns = twoTier ? spans.size() : columns(spans.size(), columnWidth, topRows.size(), bandRows.size());
        double bandPitch = bandRows.size() * ROW_GAP + (serverStack - 1) * SERVER_STACK_GAP + BAND_GAP;
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
            boolean stacked = serverStack > 1 && row.get(0).role() == DeviceRole.SERVER;
            for (Map.Entry<GroupKey, List<Device>> e : group(row).entrySet()) {
                double[] span = spans.get(e.getKey());
                double y = bandY.get(e.getKey()) + r * ROW_GAP;
                if (!stacked) {
                    spread(layout, e.getValue(), span[0], span[1], y, pitch);
                    continue;
                }
                List<Device> rack = e.getValue();
                int perRow = ceilDiv(rack.size(), serverStack);
                for (int k = 0, from = 0; from < rack.size(); k++, from += perRow) {
                    List<Device> part = rack.subList(from, Math.min(rack.size(), from + perRow));
                    // Short rows keep the full row's pitch and start at its left, so columns line up.
                    spread(layout, part, span[0], span[0] + (span[1] - span[0]) * part.size() / perRow,
                            y + k * SERVER_STACK_GAP, pitch);
                }
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

    /**
     * How many rows each rack's servers are stacked into in a two-tier Clos: 1 while the racks
     * side by side stay under {@link #WRAP_ABOVE_ASPECT}, else the fewest rows that bring them under
     * it; 0 when no stacking can (the leaf row, one switch pitch a leaf, is a floor that stacking
     * cannot lower), or when it would take more than {@link #MAX_SERVER_STACK} rows.
     */
    static int serverStack(List<GroupKey> groups, Map<GroupKey, List<Device>> servers,
            Map<GroupKey, List<Device>> leaves) {
        int most = 1;
        for (List<Device> rack : servers.values()) {
            most = Math.max(most, rack.size());
        }
        for (int k = 1; k <= Math.min(most, MAX_SERVER_STACK); k++) {
            double width = 0;
            for (GroupKey g : groups) {
                width += Math.max(ceilDiv(servers.getOrDefault(g, List.of()).size(), k) * SERVER_PITCH,
                        leaves.getOrDefault(g, List.of()).size() * SWITCH_PITCH);
            }
            width += (groups.size() - 1) * GROUP_GAP;
            double height = 2 * ROW_GAP + (k - 1) * SERVER_STACK_GAP;
            if (width / height <= WRAP_ABOVE_ASPECT) {
                return k;
            }
        }
        return 0;
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
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
