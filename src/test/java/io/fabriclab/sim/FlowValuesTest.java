package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Per-flow values in shared blocks: copy on write, what is shared, and the memory counted for it. */
class FlowValuesTest {
    private static final int B = FlowValues.BLOCK;
    /** Three blocks, the last one partly used. */
    private static final int N = 2 * B + 10;

    @Test
    void aPublishedValueNeverChangesAndOnlyTheWrittenBlockIsCopied() {
        FlowValues.Writer w = new FlowValues.Writer(N);
        FlowValues zero = w.publish();
        w.set(B + 3, 2.5);
        w.set(B + 4, 7);
        FlowValues one = w.publish();
        w.set(B + 3, 3.5);
        w.set(2 * B + 9, 1);
        FlowValues two = w.publish();

        assertEquals(0, zero.get(B + 3));
        assertEquals(2.5, one.get(B + 3));
        assertEquals(3.5, two.get(B + 3));
        assertEquals(7, two.get(B + 4), "a value written before the previous publish carries on");
        assertEquals(1, two.get(2 * B + 9));
        assertEquals(0, one.get(2 * B + 9));
        // zero -> one: only block 1 differs; one -> two: blocks 1 and 2.
        assertEquals(B, one.nextUnshared(zero, 0));
        assertEquals(N, one.nextUnshared(zero, 2 * B));
        assertEquals(B, two.nextUnshared(one, 0));
        assertEquals(2 * B, two.nextUnshared(one, 2 * B));
        assertEquals(0, two.nextUnshared(null, 0), "nothing is shared with no snapshot");
    }

    @Test
    void writingTheValueAlreadyThereCopiesNothing() {
        FlowValues.Writer w = new FlowValues.Writer(N);
        w.set(5, 1);
        FlowValues a = w.publish();
        w.set(5, 1);
        w.set(6, 0);
        FlowValues b = w.publish();
        assertEquals(N, b.nextUnshared(a, 0));
        assertEquals(a, b);
    }

    @Test
    void ofCopiesAndToArrayGivesTheValuesBack() {
        double[] v = new double[N];
        for (int i = 0; i < N; i++) {
            v[i] = i * 0.5;
        }
        FlowValues f = FlowValues.of(v);
        v[3] = -1;
        assertEquals(1.5, f.get(3));
        v[3] = 1.5;
        assertArrayEquals(v, f.toArray());
        assertEquals(N, f.size());
        assertThrows(IndexOutOfBoundsException.class, () -> f.get(N));
        assertThrows(IndexOutOfBoundsException.class, () -> f.get(-1));
        assertEquals(0, FlowValues.of().size());
    }

    @Test
    void readBackValuesShareTheBlocksEqualToTheFrameBefore() {
        FlowValues.Writer w = new FlowValues.Writer(N);
        w.set(1, 4);
        FlowValues a = w.publish();
        w.set(2 * B, 9);
        FlowValues b = w.publish();
        FlowValues a2 = FlowValues.of(a.toArray());
        FlowValues b2 = FlowValues.of(b.toArray()).sharingWith(a2);
        assertEquals(b, b2);
        assertEquals(2 * B, b2.nextUnshared(a2, 0), "blocks 0 and 1 equal the earlier frame's: shared");
    }

    /**
     * Bytes counted for a block: 16 B of array header + 8 B per value = 16 + 8 x 256 = 2,064 B;
     * for the table of three blocks: 16 + 8 x 3 = 40 B. A frame alone counts its table and every
     * place: 40 + 3 x 2,064 = 6,232 B (zeros() repeats one block; counting it at each place errs
     * high). A second frame that wrote one value adds its table and the one fresh block beyond the
     * first: 40 + 2,064 = 2,104 B; a third that wrote nothing, its table only.
     */
    @Test
    void bytesBeyondAnEarlierFrameCountOnlyTheBlocksItDoesNotShare() {
        FlowValues.Writer w = new FlowValues.Writer(N);
        FlowValues a = w.publish();
        w.set(0, 1);
        FlowValues b = w.publish();
        FlowValues c = w.publish();
        assertEquals(6_232, a.bytesBeyond(null));
        assertEquals(2_104, b.bytesBeyond(a));
        assertEquals(40, c.bytesBeyond(b));
        assertEquals(2_104, c.bytesBeyond(a), "against a frame further back: the block that moved since");
        assertNotEquals(a, b);
    }
}
