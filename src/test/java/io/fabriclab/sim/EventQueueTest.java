package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class EventQueueTest {
    @Test
    void theEventsPendingAtTheCurrentTimeCanBeReadAndCancelledInPlace() {
        // Five events at 1,000 ps and one at 1,001 (the arbiter of Simulator reads the instant's
        // arrivals ahead and runs a tie's rival in the current event).
        EventQueue q = new EventQueue(4);
        for (int i = 0; i < 5; i++) {
            q.push(1_000, 1, i, 10 + i);
        }
        q.push(1_001, 2, 9, 0);
        q.pop();
        assertEquals(0, q.topTarget);
        assertTrue(q.hasPendingAt(1_000));
        int first = q.firstPending();
        int n = 0;
        for (int pos = first; pos < q.endPending() && q.timeAt(pos) == 1_000; pos++) {
            assertEquals(1, q.typeAt(pos));
            assertEquals(n + 1, q.targetAt(pos));
            assertEquals(11 + n, q.argAt(pos));
            n++;
        }
        assertEquals(4, n);
        // Cancel the third pending one: it keeps its place and comes out as a NOP.
        q.cancelAt(first + 2);
        int[] types = new int[5];
        int[] targets = new int[5];
        for (int k = 0; k < 5; k++) {
            q.pop();
            types[k] = q.topType;
            targets[k] = q.topTarget;
        }
        assertArrayEquals(new int[] {1, 1, EventQueue.NOP, 1, 2}, types);
        assertArrayEquals(new int[] {1, 2, 3, 4, 9}, targets);
        assertFalse(q.hasPendingAt(1_001));
        assertTrue(q.isEmpty());
    }

    @Test
    void eventsComeOutByTimeAndEqualTimesInInsertionOrder() {
        EventQueue q = new EventQueue(4);
        SplittableRandom r = new SplittableRandom(7);
        List<long[]> pushed = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            long t = r.nextInt(500); // many ties
            q.push(t, i % 5, i, -i);
            pushed.add(new long[] {t, i});
            if (i % 3 == 0) {
                q.pop(); // interleave removals: the survivors must still come out in order
                pushed.removeIf(p -> p[1] == q.topTarget);
            }
        }
        pushed.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        for (long[] p : pushed) {
            q.pop();
            assertEquals(p[0], q.topTime);
            assertEquals(p[1], q.topTarget);
            assertEquals(-p[1], q.topArg);
            assertEquals(p[1] % 5, q.topType);
        }
        assertEquals(0, q.size());
    }

    @Test
    void orderHoldsAcrossCalendarBucketsAndBeyondItsHorizon() {
        // Times from picoseconds to milliseconds ahead of "now", as a simulation schedules them
        // (never before the event being handled), against a sorted reference.
        EventQueue q = new EventQueue(4);
        SplittableRandom r = new SplittableRandom(11);
        java.util.TreeMap<Long, long[]> ref = new java.util.TreeMap<>();
        int seq = 0;
        long now = 0;
        for (int i = 0; i < 200_000; i++) {
            int pushes = r.nextInt(3);
            for (int k = 0; k < pushes; k++) {
                long dt = switch (r.nextInt(4)) {
                    case 0 -> r.nextInt(3);                   // ties and same bucket
                    case 1 -> r.nextInt(2_000_000);           // within a few us
                    case 2 -> r.nextLong(600_000_000L);       // around the calendar's horizon
                    default -> r.nextLong(5_000_000_000L);    // far beyond it
                };
                schedule(q, ref, now + dt, seq++);
            }
            if (!ref.isEmpty() && r.nextInt(3) > 0) {
                now = popNext(q, ref)[0];
            }
        }
        while (!ref.isEmpty()) {
            popNext(q, ref);
        }
        assertEquals(0, q.size());
    }

    @Test
    void aLargeBucketIsSortedWhenTakenUpAndTakesInsertionsWhileConsumed() {
        // 3,000 events within one future 2 ns bucket, in random order with ties (the active
        // bucket's array grows), then events scheduled into the bucket being consumed (it compacts).
        EventQueue q = new EventQueue(4);
        SplittableRandom r = new SplittableRandom(13);
        java.util.TreeMap<Long, long[]> ref = new java.util.TreeMap<>();
        long base = 1_000_000;
        int seq = 0;
        for (; seq < 3_000; seq++) {
            schedule(q, ref, base + r.nextInt(64) * 32, seq);
        }
        while (!ref.isEmpty()) {
            long[] e = popNext(q, ref);
            if (seq < 6_000 && r.nextInt(2) == 0) {
                schedule(q, ref, e[0] + r.nextInt(3) * 8, seq++);
            }
        }
        assertEquals(0, q.size());
    }

    /** Schedules event {@code seq} at {@code t} in the queue and in the sorted reference. */
    private static void schedule(EventQueue q, java.util.TreeMap<Long, long[]> ref, long t, int seq) {
        q.push(t, 1, seq, seq);
        ref.put(t * 1_000_000L + seq, new long[] {t, seq});
    }

    /** Pops the queue's next event and checks it is the reference's first {time, target}; returns it. */
    private static long[] popNext(EventQueue q, java.util.TreeMap<Long, long[]> ref) {
        long[] e = ref.pollFirstEntry().getValue();
        assertEquals(e[0], q.peekTime());
        q.pop();
        assertEquals(e[0], q.topTime);
        assertEquals(e[1], q.topTarget);
        return e;
    }
}
