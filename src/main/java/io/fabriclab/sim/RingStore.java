package io.fabriclab.sim;

import java.util.Arrays;

/**
 * The memory of every egress queue ring of a run: one array of longs cut into segments of a
 * power-of-two number of two-long entries ({@link EgressPort} keeps where its rings are). One
 * array instead of one per queue because an enqueue would otherwise read the ring array's header
 * (its length, for the bounds check) as well as the slot: two cache misses instead of one on a
 * queue untouched for a while. A ring that fills moves to a segment twice as large and its old
 * segment is reused by the next ring of that size, so a run allocates only while its queues reach
 * new maximum lengths.
 */
final class RingStore {
    /** Segments of 2^k entries are at least this large (16 entries, 256 bytes). */
    static final int MIN_LOG = 4;
    long[] slab = new long[1 << 16];
    /** Longs handed out so far; the first 64 are never used, so no segment is at offset 0. */
    private int top = 64;
    /** Head of the free list of segments of 2^k entries (offset, or 0 when empty); a free segment's first long links the next. */
    private final int[] freeHead = new int[31];

    /** A segment of 2^{@code log} entries; returns its offset in {@link #slab}. */
    int allocate(int log) {
        int off = freeHead[log];
        if (off != 0) {
            freeHead[log] = (int) slab[off];
            return off;
        }
        int size = 2 << log;
        if (top + size > slab.length) {
            long n = Math.max(2L * slab.length, (long) top + size);
            if (n > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException("egress queues hold more packets than one array can index");
            }
            slab = Arrays.copyOf(slab, (int) n);
        }
        off = top;
        top += size;
        return off;
    }

    void free(int off, int log) {
        slab[off] = freeHead[log];
        freeHead[log] = off;
    }
}
