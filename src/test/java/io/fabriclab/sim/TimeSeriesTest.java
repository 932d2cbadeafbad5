package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TimeSeriesTest {
    @Test
    void aFullSeriesMergesPairsAndKeepsItsBound() {
        TimeSeries s = new TimeSeries(4, TimeSeries.Merge.MAX);
        for (int i = 0; i < 8; i++) {
            s.add(i * 10, i);
        }
        // 0..3 stored; at 4 the pairs merge to (0:1, 20:3) with stride 2; 4,5 -> (40:5); 6,7 -> (60:7).
        assertEquals(4, s.size());
        assertEquals(2, s.stride());
        assertArrayEquals(new long[] {0, 20, 40, 60}, s.timesPs());
        assertArrayEquals(new double[] {1, 3, 5, 7}, s.values());
        TimeSeries m = new TimeSeries(2, TimeSeries.Merge.MEAN);
        for (int i = 0; i < 4; i++) {
            m.add(i, i);
        }
        // (0,1) -> 0.5 and (2,3) -> 2.5 at stride 2.
        assertArrayEquals(new double[] {0.5, 2.5}, m.values());
    }
}
