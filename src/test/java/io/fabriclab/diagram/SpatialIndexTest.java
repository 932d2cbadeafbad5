package io.fabriclab.diagram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class SpatialIndexTest {

    @Test
    void aQueryFindsExactlyTheBoxesItTouches() {
        SpatialIndex<String> idx = new SpatialIndex<>(100);
        idx.insert("a", new Bounds(0, 0, 50, 50));
        idx.insert("b", new Bounds(120, 0, 180, 50));
        idx.insert("c", new Bounds(-500, -500, -450, -450));
        assertEquals(List.of("a"), idx.query(new Bounds(10, 10, 20, 20)));
        assertEquals(2, idx.query(new Bounds(40, 10, 130, 20)).size());
        assertEquals(List.of("c"), idx.query(new Bounds(-460, -460, -460, -460)));
        assertTrue(idx.query(new Bounds(60, 60, 110, 110)).isEmpty());
    }

    @Test
    void aBoxSpanningManyCellsIsReportedOnce() {
        SpatialIndex<String> idx = new SpatialIndex<>(10);
        idx.insert("wide", new Bounds(0, 0, 55, 5)); // 6 cells
        assertEquals(List.of("wide"), idx.query(new Bounds(-100, -100, 100, 100)));
    }

    @Test
    void aLongSegmentGoesToTheOverflowListAndIsStillFound() {
        SpatialIndex<String> idx = new SpatialIndex<>(10);
        // 10,000 units wide = 1,000 columns: far beyond the per-item cell budget.
        idx.insertSegment("long", 0, 0, 10_000, 190, 0);
        idx.insertSegment("short", 0, 500, 30, 500, 0);
        assertEquals(1, idx.overflowSize());
        assertTrue(idx.query(new Bounds(5000, 90, 5001, 100)).contains("long"));
        assertEquals(List.of("short"), idx.query(new Bounds(20, 499, 25, 501)));
    }

    @Test
    void aDiagonalSegmentIsFiledOnlyUnderTheCellsItCrosses() {
        SpatialIndex<String> idx = new SpatialIndex<>(10);
        idx.insertSegment("diag", 0, 0, 50, 50, 0);
        // The cell (40..50, 0..10) lies inside the segment's bounding box, but the line y = x never
        // enters it, so nothing is filed there.
        assertTrue(idx.query(new Bounds(41, 1, 49, 9)).isEmpty());
        assertTrue(idx.query(new Bounds(24, 24, 26, 26)).contains("diag"));
    }

    @Test
    void removedItemsAreFoundNoMoreAndTheOthersStay() {
        SpatialIndex<String> idx = new SpatialIndex<>(10);
        idx.insert("a", new Bounds(0, 0, 5, 5));
        idx.insert("b", new Bounds(2, 2, 8, 8));
        idx.insertSegment("long", 0, 0, 1000, 3, 0); // 101 columns: the overflow list
        idx.insertSegment("short", 0, 0, 25, 3, 0);
        assertEquals(4, idx.size());
        idx.removeAll(java.util.Map.of("a", new Bounds(0, 0, 5, 5), "long", Bounds.of(0, 0, 1000, 3),
                "short", Bounds.of(0, 0, 25, 3)));
        assertEquals(1, idx.size());
        assertEquals(0, idx.overflowSize());
        assertEquals(List.of("b"), idx.query(new Bounds(-100, -100, 2000, 100)));
        idx.insert("a", new Bounds(50, 50, 55, 55));
        assertEquals(List.of("a"), idx.query(new Bounds(49, 49, 51, 51)));
        assertTrue(idx.query(new Bounds(0, 0, 1, 1)).isEmpty());
    }
}
