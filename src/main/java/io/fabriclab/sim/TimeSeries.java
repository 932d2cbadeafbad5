package io.fabriclab.sim;

import java.util.Arrays;

/**
 * A bounded, downsampled time series. Samples arrive at a fixed interval; when the buffer is full,
 * neighbouring points are merged in pairs (by maximum or by mean) and each stored point covers
 * twice as many samples from then on, so a long run keeps its shape without exhausting memory.
 */
public final class TimeSeries {
    /** How merged samples combine. */
    public enum Merge { MAX, MEAN }

    private final Merge merge;
    private final int capacity;
    private long[] timesPs;
    private double[] values;
    private int size;
    /** Raw samples per stored point. */
    private int stride = 1;
    private int pendingCount;
    private long pendingTime;
    private double pendingValue;

    public TimeSeries(int capacity, Merge merge) {
        if (capacity < 2 || (capacity & 1) != 0) {
            throw new IllegalArgumentException("capacity must be even and >= 2: " + capacity);
        }
        this.capacity = capacity;
        this.merge = merge;
        // Storage comes with the first sample and grows on demand up to the capacity: most queues of
        // a large fabric carry little, and most of a collective's quarter-million flows live for a
        // few samples or none.
        timesPs = NO_TIMES;
        values = NO_VALUES;
    }

    private static final long[] NO_TIMES = new long[0];
    private static final double[] NO_VALUES = new double[0];

    public void add(long timePs, double value) {
        if (pendingCount == 0) {
            pendingTime = timePs;
            pendingValue = value;
        } else {
            pendingValue = merge == Merge.MAX ? Math.max(pendingValue, value) : pendingValue + value;
        }
        if (++pendingCount < stride) {
            return;
        }
        double v = merge == Merge.MAX ? pendingValue : pendingValue / pendingCount;
        long t = pendingTime;
        pendingCount = 0;
        if (size == capacity) {
            // Halve the resolution; the new point becomes the first half of the next merged pair.
            compact();
            pendingTime = t;
            pendingValue = v;
            pendingCount = 1;
            return;
        }
        if (size == timesPs.length) {
            int c = Math.min(capacity, Math.max(4, size * 2));
            timesPs = Arrays.copyOf(timesPs, c);
            values = Arrays.copyOf(values, c);
        }
        timesPs[size] = t;
        values[size] = v;
        size++;
    }

    private void compact() {
        for (int i = 0; i < capacity / 2; i++) {
            double a = values[2 * i];
            double b = values[2 * i + 1];
            timesPs[i] = timesPs[2 * i];
            values[i] = merge == Merge.MAX ? Math.max(a, b) : (a + b) / 2;
        }
        size = capacity / 2;
        stride *= 2;
    }

    public int size() {
        return size;
    }

    /** Start time of each stored point, in picoseconds. */
    public long[] timesPs() {
        return Arrays.copyOf(timesPs, size);
    }

    public double[] values() {
        return Arrays.copyOf(values, size);
    }

    /** Raw samples each stored point stands for. */
    public int stride() {
        return stride;
    }

    public Merge merge() {
        return merge;
    }
}
