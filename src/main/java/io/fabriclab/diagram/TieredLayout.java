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
    /** Space between two units / pods. */
    public static final double GROUP_GAP = 80;
    /** Vertical distance between rows. */
    public static final double ROW_GAP = 190;

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
        for (GroupKey g : union(groupServers.keySet(), groupLeaves.keySet())) {
            double w = Math.max(groupServers.getOrDefault(g, List.of()).size() * SERVER_PITCH,
                    groupLeaves.getOrDefault(g, List.of()).size() * SWITCH_PITCH);
            w = Math.max(w, groupSpines.getOrDefault(g, List.of()).size() * SWITCH_PITCH);
            spans.put(g, new double[] {0, w});
        }
        double groupsWidth = 0;
        for (double[] span : spans.values()) {
            groupsWidth += span[1] + (groupsWidth > 0 ? GROUP_GAP : 0);
        }
        double totalWidth = Math.max(groupsWidth, Math.max(
                spinesGrouped ? 0 : spines.size() * SWITCH_PITCH, cores.size() * SWITCH_PITCH));
        double x = (totalWidth - groupsWidth) / 2;
        for (double[] span : spans.values()) {
            double w = span[1];
            span[0] = x;
            span[1] = x + w;
            x += w + GROUP_GAP;
        }

        List<List<Device>> rows = new ArrayList<>();
        for (List<Device> row : List.of(cores, spines, leaves, servers)) {
            if (!row.isEmpty()) {
                rows.add(row);
            }
        }
        Layout layout = new Layout();
        for (int r = 0; r < rows.size(); r++) {
            List<Device> row = rows.get(r);
            double y = r * ROW_GAP;
            double pitch = row.get(0).role() == DeviceRole.SERVER ? SERVER_PITCH : SWITCH_PITCH;
            boolean grouped = row != cores && (row != spines || spinesGrouped);
            if (grouped) {
                for (Map.Entry<GroupKey, List<Device>> e : group(row).entrySet()) {
                    double[] span = spans.get(e.getKey());
                    spread(layout, e.getValue(), span[0], span[1], y, pitch);
                }
            } else {
                spread(layout, row, 0, totalWidth, y, pitch);
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
