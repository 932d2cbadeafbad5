package io.fabriclab.io.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.SchedulerConfig;

class DwrrSharesTest {

    @Test
    void weightsThatDivideEvenlyGiveExactShares() {
        // Classes 0-5 and 7 weigh 1+1+1+4+1+1+1 = 10: 10 % each, class 3 40 %; class 6 is strict.
        SchedulerConfig s = new SchedulerConfig(Set.of(6), List.of(1, 1, 1, 4, 1, 1, 9, 1));
        assertEquals(Map.of(0, 10, 1, 10, 2, 10, 3, 40, 4, 10, 5, 10, 7, 10), DwrrShares.percents(s, "t"));
    }

    @Test
    void leftoverPointsGoToTheLargestRemainders() {
        // Weights 1, 2, 3 on classes 0-2 (others 0, class 3-7 strict or zero): 100/6 = 16.67 %,
        // 33.33 %, 50 % -> floors 16, 33, 50 = 99; the one point left goes to class 0 (remainder 4/6
        // beats class 1's 2/6).
        SchedulerConfig s = new SchedulerConfig(Set.of(3, 4, 5, 6, 7), List.of(1, 2, 3, 0, 0, 0, 0, 0));
        assertEquals(Map.of(0, 17, 1, 33, 2, 50), DwrrShares.percents(s, "t"));
    }

    @Test
    void sharesAlwaysAddUpToOneHundred() {
        SchedulerConfig s = new SchedulerConfig(Set.of(6), List.of(3, 7, 11, 13, 17, 19, 1, 23));
        assertEquals(100, DwrrShares.percents(s, "t").values().stream().mapToInt(Integer::intValue).sum());
    }

    @Test
    void allZeroWeightsAreRefused() {
        SchedulerConfig s = new SchedulerConfig(Set.of(), List.of(0, 0, 0, 0, 0, 0, 0, 0));
        assertThrows(UnexportableQosException.class, () -> DwrrShares.percents(s, "t"));
    }
}
