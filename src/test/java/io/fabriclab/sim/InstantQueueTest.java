package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class InstantQueueTest {
    /**
     * As the flow engine uses it: events scheduled at the instant being handled or later, many at
     * the same instants, some at the instant being handled while it is; against a heap ordered by
     * (time, sequence).
     */
    @Test
    void eventsComeOutByTimeThenInTheOrderScheduled() {
        for (int spread : new int[] {1, 7, 1000, 1_000_000_000}) {
            InstantQueue q = new InstantQueue();
            PriorityQueue<long[]> ref = new PriorityQueue<>(Comparator.<long[]>comparingLong(e -> e[0])
                    .thenComparingLong(e -> e[1]));
            SplittableRandom r = new SplittableRandom(spread);
            long seq = 0;
            long now = 0;
            for (int i = 0; i < 3000; i++) {
                long t = r.nextInt(spread);
                q.push(t, (int) (seq % 9), (int) seq, (int) -seq);
                ref.add(new long[] {t, seq++});
            }
            int popped = 0;
            while (!ref.isEmpty()) {
                long[] want = ref.poll();
                assertEquals(want[0], q.peekTime());
                q.pop();
                popped++;
                assertEquals(want[1], q.topTarget);
                assertEquals((int) -want[1], q.topArg);
                assertEquals(want[1] % 9, q.topType);
                assertTrue(want[0] >= now);
                now = want[0];
                // Handling it schedules 0-2 events: now (a zero delay) or later.
                int k = popped < 200_000 ? r.nextInt(3) : 0;
                for (int j = 0; j < k; j++) {
                    long t = now + (r.nextInt(4) == 0 ? 0 : r.nextInt(spread));
                    q.push(t, (int) (seq % 9), (int) seq, (int) -seq);
                    ref.add(new long[] {t, seq++});
                }
                assertEquals(ref.size(), q.size());
            }
            assertTrue(q.isEmpty());
        }
    }

    @Test
    void theArgumentDefaultsToZero() {
        InstantQueue q = new InstantQueue();
        q.push(5, 2, 3);
        q.pop();
        assertEquals(2, q.topType);
        assertEquals(3, q.topTarget);
        assertEquals(0, q.topArg);
        assertTrue(q.isEmpty());
    }
}
