package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PfcEventLogTest {
    @Test
    void keepsTheFirstCapFramesAndCountsTheRest() {
        PfcEventLog log = new PfcEventLog(2);
        for (int i = 0; i < PfcEventLog.CAP + 3; i++) {
            // A refresh every microsecond on port 1, priority 3; each replaces the previous.
            log.record(i * 1_000_000L, 1, 3, 65_535, Long.MAX_VALUE);
        }
        assertEquals(3, log.dropped());
        assertEquals(10_000, PfcEventLog.CAP);
    }
}
