package io.fabriclab.sim;

import java.util.Arrays;

/**
 * One value per flow of a run (index = flow id), immutable, as a snapshot publishes it: a flow's
 * DCQCN rate, its progress, its receiver's CNP count. Counters are stored exactly (they stay far
 * below 2^53).
 *
 * <p>The values live in blocks of {@value #BLOCK} flows that consecutive snapshots share while none
 * of their flows changes. A run of a quarter of a million flows has a few thousand of them moving
 * at any instant (the rest have not started or are done), so a snapshot costs the blocks of the
 * moving flows instead of a fresh copy of every array: at 260,096 flows that was 8 MB per snapshot
 * (docs/performance.md, "Live view"). Blocks are never written once published.
 */
public final class FlowValues {
    static final int SHIFT = 8;
    /** Flows per storage block. */
    public static final int BLOCK = 1 << SHIFT;
    private static final int MASK = BLOCK - 1;

    /** The block every all-zero place starts from; shared, so never written (writers copy first). */
    private static final double[] ZERO = new double[BLOCK];

    private final double[][] blocks;
    private final int size;

    private FlowValues(double[][] blocks, int size) {
        this.blocks = blocks;
        this.size = size;
    }

    /** A copy of {@code values}. */
    public static FlowValues of(double... values) {
        double[][] b = new double[blockCount(values.length)][];
        for (int i = 0; i < b.length; i++) {
            b[i] = Arrays.copyOfRange(values, i * BLOCK, (i + 1) * BLOCK);
        }
        return new FlowValues(b, values.length);
    }

    /**
     * These values, with every block equal to the one of {@code earlier} at the same place
     * replaced by that one: frames read back from a file share storage as they did when recorded.
     */
    public FlowValues sharingWith(FlowValues earlier) {
        if (earlier == null) {
            return this;
        }
        double[][] b = blocks.clone();
        for (int i = 0; i < b.length && i < earlier.blocks.length; i++) {
            if (Arrays.equals(b[i], earlier.blocks[i])) {
                b[i] = earlier.blocks[i];
            }
        }
        return new FlowValues(b, size);
    }

    /**
     * {@code base} (or zeros when null) with the blocks in {@code replaced} (block index to its
     * values, at most {@link #BLOCK} of them, the rest of the block zero) put in their place; the
     * other blocks are shared with {@code base}. What a saved run's frame reads back from the blocks
     * that changed since the frame before it.
     *
     * @throws IllegalArgumentException when base has another size, a block index is out of range
     *                                  or a block has too many values
     */
    public static FlowValues patched(FlowValues base, int size, java.util.Map<Integer, double[]> replaced) {
        if (size < 0) {
            throw new IllegalArgumentException("size must be >= 0: " + size);
        }
        if (base != null && base.size != size) {
            throw new IllegalArgumentException("size " + size + " differs from the frame before (" + base.size + ")");
        }
        double[][] b = (base != null ? base : zeros(size)).blocks.clone();
        for (java.util.Map.Entry<Integer, double[]> e : replaced.entrySet()) {
            int i = e.getKey();
            if (i < 0 || i >= b.length) {
                throw new IllegalArgumentException("block " + i + " is out of range (0.." + (b.length - 1) + ")");
            }
            if (e.getValue().length > BLOCK) {
                throw new IllegalArgumentException("block " + i + " has " + e.getValue().length
                        + " values (at most " + BLOCK + ")");
            }
            b[i] = Arrays.copyOf(e.getValue(), BLOCK);
        }
        return new FlowValues(b, size);
    }

    /** Number of storage blocks. */
    public int blockCount() {
        return blocks.length;
    }

    /** Whether block {@code b} holds the same values here and in {@code other} (null: all zeros). */
    public boolean sameBlock(FlowValues other, int b) {
        if (other == null) {
            return Arrays.equals(blocks[b], ZERO);
        }
        return b < other.blocks.length && (blocks[b] == other.blocks[b] || Arrays.equals(blocks[b], other.blocks[b]));
    }

    /** {@code size} zeros (one shared block). */
    public static FlowValues zeros(int size) {
        double[][] b = new double[blockCount(size)][];
        Arrays.fill(b, ZERO);
        return new FlowValues(b, size);
    }

    private static int blockCount(int size) {
        return (size + MASK) >>> SHIFT;
    }

    public int size() {
        return size;
    }

    /** The value of flow {@code flow} (0 &lt;= flow &lt; size). */
    public double get(int flow) {
        if (flow < 0 || flow >= size) {
            throw new IndexOutOfBoundsException("flow " + flow + " of " + size);
        }
        return blocks[flow >>> SHIFT][flow & MASK];
    }

    /**
     * The first flow at or after {@code flow} whose value may differ from {@code other}'s: flows in
     * a block both share hold the same values and are skipped, a whole block at a time. Returns
     * {@link #size()} when none is left. Lets a reader of two snapshots visit only what moved.
     */
    public int nextUnshared(FlowValues other, int flow) {
        int f = Math.max(0, flow);
        while (f < size) {
            int b = f >>> SHIFT;
            if (other == null || b >= other.blocks.length || blocks[b] != other.blocks[b]) {
                return f;
            }
            f = (b + 1) << SHIFT;
        }
        return size;
    }

    public double[] toArray() {
        double[] a = new double[size];
        for (int i = 0; i < blocks.length; i++) {
            System.arraycopy(blocks[i], 0, a, i * BLOCK, Math.min(BLOCK, size - i * BLOCK));
        }
        return a;
    }

    /**
     * Heap bytes this holds beyond {@code earlier} (null: all of it): its table of blocks, and the
     * blocks that are not {@code earlier}'s at the same place. A block, once replaced, never comes
     * back, so frames share a block over one unbroken stretch of a recording, and summing this
     * over a recording's frames, each against the one kept before it, counts each block once (the
     * one zero block that {@link #zeros} repeats is counted at every place it fills, which only errs
     * high).
     */
    public long bytesBeyond(FlowValues earlier) {
        long b = 16L + 8L * blocks.length;
        for (int i = 0; i < blocks.length; i++) {
            if (earlier == null || i >= earlier.blocks.length || blocks[i] != earlier.blocks[i]) {
                b += 16L + 8L * blocks[i].length;
            }
        }
        return b;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof FlowValues v) || v.size != size) {
            return false;
        }
        for (int i = 0; i < blocks.length; i++) {
            if (blocks[i] != v.blocks[i] && !Arrays.equals(blocks[i], v.blocks[i])) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(toArray());
    }

    @Override
    public String toString() {
        return "FlowValues" + Arrays.toString(toArray());
    }

    /**
     * The simulator thread's working copy: {@link #set} writes a value, copying its block first
     * if that block was published; {@link #publish} hands out the current values. Writing a value
     * equal to the one there copies nothing.
     */
    static final class Writer {
        private final double[][] blocks;
        private final int size;
        /** Blocks copied since the last publish (so written in place until then). */
        private final boolean[] own;

        Writer(int size) {
            this.size = size;
            this.blocks = zeros(size).blocks;
            this.own = new boolean[blocks.length];
        }

        void set(int flow, double v) {
            int b = flow >>> SHIFT;
            double[] block = blocks[b];
            if (block[flow & MASK] == v) {
                return;
            }
            if (!own[b]) {
                block = block.clone();
                blocks[b] = block;
                own[b] = true;
            }
            block[flow & MASK] = v;
        }

        FlowValues publish() {
            Arrays.fill(own, false);
            return new FlowValues(blocks.clone(), size);
        }
    }
}
