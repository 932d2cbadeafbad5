package io.fabriclab.diagram;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A uniform grid over world space for hit-testing: each item is filed under the cells its box (or
 * its segment) touches. Items that would cover more than {@link #MAX_CELLS_PER_ITEM} cells (the long
 * spine-to-leaf links of a wide fabric) go to an overflow list checked by box, which keeps memory
 * linear in the item count.
 */
public final class SpatialIndex<T> {
    public static final int MAX_CELLS_PER_ITEM = 16;

    private record Entry<T>(T item, Bounds box) {
    }

    private final double cellSize;
    private final Map<Long, List<Entry<T>>> cells = new HashMap<>();
    private final List<Entry<T>> overflow = new ArrayList<>();
    private int size;

    public SpatialIndex(double cellSize) {
        if (!(cellSize > 0)) {
            throw new IllegalArgumentException("cell size must be > 0: " + cellSize);
        }
        this.cellSize = cellSize;
    }

    public int size() {
        return size;
    }

    public int overflowSize() {
        return overflow.size();
    }

    /** Files an item under every cell its box touches. */
    public void insert(T item, Bounds box) {
        Entry<T> e = new Entry<>(item, box);
        size++;
        long c0 = cell(box.minX());
        long c1 = cell(box.maxX());
        long r0 = cell(box.minY());
        long r1 = cell(box.maxY());
        if ((c1 - c0 + 1) * (r1 - r0 + 1) > MAX_CELLS_PER_ITEM) {
            overflow.add(e);
            return;
        }
        for (long c = c0; c <= c1; c++) {
            for (long r = r0; r <= r1; r++) {
                cells.computeIfAbsent(key(c, r), k -> new ArrayList<>()).add(e);
            }
        }
    }

    /** Files a line segment, widened by {@code pad} on each side, under the cells it crosses. */
    public void insertSegment(T item, double x1, double y1, double x2, double y2, double pad) {
        Bounds box = Bounds.of(x1, y1, x2, y2).grow(pad);
        Entry<T> e = new Entry<>(item, box);
        size++;
        long c0 = cell(box.minX());
        long c1 = cell(box.maxX());
        if (c1 - c0 + 1 > MAX_CELLS_PER_ITEM || cell(box.maxY()) - cell(box.minY()) + 1 > MAX_CELLS_PER_ITEM) {
            overflow.add(e);
            return;
        }
        List<long[]> hits = new ArrayList<>();
        for (long c = c0; c <= c1; c++) {
            // The segment's y range inside this column (clamped to the segment's own x range).
            double cx0 = Math.max(Math.min(x1, x2), c * cellSize);
            double cx1 = Math.min(Math.max(x1, x2), (c + 1) * cellSize);
            double ya;
            double yb;
            if (x1 == x2) {
                ya = y1;
                yb = y2;
            } else {
                ya = y1 + (y2 - y1) * (cx0 - x1) / (x2 - x1);
                yb = y1 + (y2 - y1) * (cx1 - x1) / (x2 - x1);
            }
            long r0 = cell(Math.min(ya, yb) - pad);
            long r1 = cell(Math.max(ya, yb) + pad);
            for (long r = r0; r <= r1; r++) {
                hits.add(new long[] {c, r});
                if (hits.size() > MAX_CELLS_PER_ITEM) {
                    overflow.add(e);
                    return;
                }
            }
        }
        for (long[] h : hits) {
            cells.computeIfAbsent(key(h[0], h[1]), k -> new ArrayList<>()).add(e);
        }
    }

    /**
     * Takes items out (an edit moved them; they are filed again at their new place). {@code filed}
     * gives each item's box as it was filed (for a segment, the box of the segment widened by its
     * pad): only the cells of that box are searched, and the overflow list once.
     */
    public void removeAll(Map<T, Bounds> filed) {
        if (filed.isEmpty()) {
            return;
        }
        Set<T> items = Collections.newSetFromMap(new IdentityHashMap<>());
        items.addAll(filed.keySet());
        java.util.function.Predicate<Entry<T>> gone = e -> items.contains(e.item());
        int before = size;
        for (Bounds box : filed.values()) {
            long c0 = cell(box.minX());
            long c1 = cell(box.maxX());
            long r0 = cell(box.minY());
            long r1 = cell(box.maxY());
            if ((c1 - c0 + 1) * (r1 - r0 + 1) > (long) MAX_CELLS_PER_ITEM * MAX_CELLS_PER_ITEM) {
                continue; // too wide for any cell: it is in the overflow list
            }
            for (long c = c0; c <= c1; c++) {
                for (long r = r0; r <= r1; r++) {
                    List<Entry<T>> list = cells.get(key(c, r));
                    if (list != null && list.removeIf(gone) && list.isEmpty()) {
                        cells.remove(key(c, r));
                    }
                }
            }
        }
        overflow.removeIf(gone);
        size = before - items.size();
    }

    /** Items whose box intersects the query, each once, in no particular order. */
    public List<T> query(Bounds q) {
        Set<T> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<T> out = new ArrayList<>();
        long c0 = cell(q.minX());
        long c1 = cell(q.maxX());
        long r0 = cell(q.minY());
        long r1 = cell(q.maxY());
        long cellCount = (c1 - c0 + 1) * (r1 - r0 + 1);
        if (cellCount > cells.size()) {
            // A query wider than the filled cells: walk the filled cells instead of the empty ones.
            for (Map.Entry<Long, List<Entry<T>>> ce : cells.entrySet()) {
                collect(ce.getValue(), q, seen, out);
            }
        } else {
            for (long c = c0; c <= c1; c++) {
                for (long r = r0; r <= r1; r++) {
                    List<Entry<T>> list = cells.get(key(c, r));
                    if (list != null) {
                        collect(list, q, seen, out);
                    }
                }
            }
        }
        collect(overflow, q, seen, out);
        return out;
    }

    private static <T> void collect(List<Entry<T>> entries, Bounds q, Set<T> seen, List<T> out) {
        for (Entry<T> e : entries) {
            if (e.box().intersects(q) && seen.add(e.item())) {
                out.add(e.item());
            }
        }
    }

    private long cell(double v) {
        return (long) Math.floor(v / cellSize);
    }

    private static long key(long c, long r) {
        return (c << 32) ^ (r & 0xffffffffL);
    }
}
