package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class EventQueueTest {
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
}
