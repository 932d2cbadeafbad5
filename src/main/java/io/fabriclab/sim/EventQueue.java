package io.fabriclab.sim;

import java.util.Arrays;

/**
 * The pending events of a run: a 4-ary min-heap keyed by (time, insertion sequence), so events at
 * the same picosecond run in the order they were scheduled and a run is deterministic. A heap
 * entry is two longs side by side (time; sequence << 24 | slot), so the four children of a node
 * share about one cache line; the event's type, target and argument sit in a slot array that does
 * not move. No object is allocated per event.
 */
final class EventQueue {
    private static final int SLOT_BITS = 24;
    private static final long SLOT_MASK = (1L << SLOT_BITS) - 1;

    /** heap[2i] = time, heap[2i+1] = seq << SLOT_BITS | slot. */
    private long[] heap;
    private int size;
    private long nextSeq;

    private int[] type;
    private int[] target;
    private int[] arg;
    private int[] freeSlots;
    private int freeCount;
    private int slotsUsed;

    /** The event last removed by {@link #pop()}. */
    long topTime;
    int topType;
    int topTarget;
    int topArg;

    EventQueue(int initialCapacity) {
        int c = Math.max(16, initialCapacity);
        heap = new long[2 * c];
        type = new int[c];
        target = new int[c];
        arg = new int[c];
        freeSlots = new int[c];
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Time of the earliest event; only valid when not empty. */
    long peekTime() {
        return heap[0];
    }

    void push(long t, int eventType, int eventTarget, int eventArg) {
        int slot;
        if (freeCount > 0) {
            slot = freeSlots[--freeCount];
        } else {
            if (slotsUsed == type.length) {
                growSlots();
            }
            slot = slotsUsed++;
        }
        type[slot] = eventType;
        target[slot] = eventTarget;
        arg[slot] = eventArg;
        long key = (nextSeq++ << SLOT_BITS) | slot;
        if (2 * size == heap.length) {
            heap = Arrays.copyOf(heap, heap.length * 2);
        }
        long[] h = heap;
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 2;
            long pt = h[2 * parent];
            if (t < pt || (t == pt && key < h[2 * parent + 1])) {
                h[2 * i] = pt;
                h[2 * i + 1] = h[2 * parent + 1];
                i = parent;
            } else {
                break;
            }
        }
        h[2 * i] = t;
        h[2 * i + 1] = key;
    }

    /** Removes the earliest event into the top* fields. */
    void pop() {
        long[] h = heap;
        topTime = h[0];
        int slot = (int) (h[1] & SLOT_MASK);
        topType = type[slot];
        topTarget = target[slot];
        topArg = arg[slot];
        if (freeCount == freeSlots.length) {
            freeSlots = Arrays.copyOf(freeSlots, freeSlots.length * 2);
        }
        freeSlots[freeCount++] = slot;
        int last = --size;
        if (last == 0) {
            return;
        }
        long t = h[2 * last];
        long k = h[2 * last + 1];
        int i = 0;
        while (true) {
            int first = (i << 2) + 1;
            if (first >= last) {
                break;
            }
            int best = first;
            long bt = h[2 * first];
            long bk = h[2 * first + 1];
            int end = Math.min(first + 4, last);
            for (int c = first + 1; c < end; c++) {
                long ct = h[2 * c];
                if (ct < bt || (ct == bt && h[2 * c + 1] < bk)) {
                    best = c;
                    bt = ct;
                    bk = h[2 * c + 1];
                }
            }
            if (bt < t || (bt == t && bk < k)) {
                h[2 * i] = bt;
                h[2 * i + 1] = bk;
                i = best;
            } else {
                break;
            }
        }
        h[2 * i] = t;
        h[2 * i + 1] = k;
    }

    private void growSlots() {
        int c = type.length * 2;
        if (c > (1 << SLOT_BITS)) {
            throw new IllegalStateException("more than " + (1 << SLOT_BITS) + " pending events");
        }
        type = Arrays.copyOf(type, c);
        target = Arrays.copyOf(target, c);
        arg = Arrays.copyOf(arg, c);
    }
}
