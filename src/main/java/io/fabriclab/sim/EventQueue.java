package io.fabriclab.sim;

import java.util.Arrays;

/**
 * The pending events of a run, ordered by (time, insertion sequence) so that events at the same
 * picosecond run in the order they were scheduled and a run is deterministic.
 *
 * <p>A calendar of 2^15 buckets of 16.384 ns (a horizon of 537 us) holds the near future as
 * unsorted lists; the bucket being consumed is a small binary heap; events beyond the horizon wait
 * in an overflow heap and join when their bucket comes up. Most events of a packet simulation lie
 * within a few microseconds, so push and pop touch a few cache lines instead of a deep heap. No
 * object is allocated per event; slots are recycled.
 */
final class EventQueue {
    private static final int SHIFT = 14;
    private static final int BUCKETS = 1 << 15;
    private static final int MASK = BUCKETS - 1;

    // Event slots.
    private long[] time;
    private long[] seq;
    private int[] type;
    private int[] target;
    private int[] arg;
    private int[] next;
    private int[] freeSlots;
    private int freeCount;
    private int slotsUsed;
    private long nextSeq;

    private final int[] bucketHead = new int[BUCKETS];
    private int wheelCount;
    /** Bucket number (time >> SHIFT) whose events are in the active heap. */
    private long current;
    private int[] active = new int[64];
    private int activeSize;
    private int[] overflow = new int[64];
    private int overflowSize;
    private int size;

    /** The event last removed by {@link #pop()}. */
    long topTime;
    int topType;
    int topTarget;
    int topArg;

    EventQueue(int initialCapacity) {
        int c = Math.max(16, initialCapacity);
        time = new long[c];
        seq = new long[c];
        type = new int[c];
        target = new int[c];
        arg = new int[c];
        next = new int[c];
        freeSlots = new int[c];
        Arrays.fill(bucketHead, -1);
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Time of the earliest event; only valid when not empty. */
    long peekTime() {
        if (activeSize == 0) {
            advance();
        }
        return time[active[0]];
    }

    void push(long t, int eventType, int eventTarget, int eventArg) {
        int slot;
        if (freeCount > 0) {
            slot = freeSlots[--freeCount];
        } else {
            if (slotsUsed == time.length) {
                growSlots();
            }
            slot = slotsUsed++;
        }
        time[slot] = t;
        seq[slot] = nextSeq++;
        type[slot] = eventType;
        target[slot] = eventTarget;
        arg[slot] = eventArg;
        size++;
        long b = t >> SHIFT;
        if (b <= current) {
            active = heapPush(active, activeSize++, slot);
        } else if (b < current + BUCKETS) {
            int i = (int) (b & MASK);
            next[slot] = bucketHead[i];
            bucketHead[i] = slot;
            wheelCount++;
        } else {
            overflow = heapPush(overflow, overflowSize++, slot);
        }
    }

    /** Removes the earliest event into the top* fields. */
    void pop() {
        if (activeSize == 0) {
            advance();
        }
        int slot = active[0];
        heapRemoveTop(active, --activeSize);
        topTime = time[slot];
        topType = type[slot];
        topTarget = target[slot];
        topArg = arg[slot];
        if (freeCount == freeSlots.length) {
            freeSlots = Arrays.copyOf(freeSlots, freeSlots.length * 2);
        }
        freeSlots[freeCount++] = slot;
        size--;
    }

    /** Moves to the next bucket that holds events (calendar or overflow) and makes it active. */
    private void advance() {
        long wheelBucket = Long.MAX_VALUE;
        if (wheelCount > 0) {
            long b = current + 1;
            while (bucketHead[(int) (b & MASK)] < 0) {
                b++;
            }
            wheelBucket = b;
        }
        long overflowBucket = overflowSize > 0 ? time[overflow[0]] >> SHIFT : Long.MAX_VALUE;
        long b = Math.min(wheelBucket, overflowBucket);
        current = b;
        if (b == wheelBucket) {
            int i = (int) (b & MASK);
            int s = bucketHead[i];
            bucketHead[i] = -1;
            while (s >= 0) {
                int nx = next[s];
                active = heapPush(active, activeSize++, s);
                wheelCount--;
                s = nx;
            }
        }
        while (overflowSize > 0 && time[overflow[0]] >> SHIFT == b) {
            int s = overflow[0];
            heapRemoveTop(overflow, --overflowSize);
            active = heapPush(active, activeSize++, s);
        }
    }

    private boolean less(int a, int b) {
        long ta = time[a];
        long tb = time[b];
        return ta < tb || (ta == tb && seq[a] < seq[b]);
    }

    /** Adds slot {@code s} to the binary heap {@code h} of {@code n} entries; returns the (possibly grown) array. */
    private int[] heapPush(int[] h, int n, int s) {
        if (n == h.length) {
            h = Arrays.copyOf(h, n * 2);
        }
        int i = n;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (less(s, h[parent])) {
                h[i] = h[parent];
                i = parent;
            } else {
                break;
            }
        }
        h[i] = s;
        return h;
    }

    /** Removes the top of heap {@code h}, whose new size is {@code n}. */
    private void heapRemoveTop(int[] h, int n) {
        if (n == 0) {
            return;
        }
        int s = h[n];
        int i = 0;
        while (true) {
            int c = 2 * i + 1;
            if (c >= n) {
                break;
            }
            if (c + 1 < n && less(h[c + 1], h[c])) {
                c++;
            }
            if (less(h[c], s)) {
                h[i] = h[c];
                i = c;
            } else {
                break;
            }
        }
        h[i] = s;
    }

    private void growSlots() {
        int c = time.length * 2;
        time = Arrays.copyOf(time, c);
        seq = Arrays.copyOf(seq, c);
        type = Arrays.copyOf(type, c);
        target = Arrays.copyOf(target, c);
        arg = Arrays.copyOf(arg, c);
        next = Arrays.copyOf(next, c);
    }
}
