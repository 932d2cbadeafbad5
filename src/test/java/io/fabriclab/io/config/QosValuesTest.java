package io.fabriclab.io.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.PfcConfig;

class QosValuesTest {

    @Test
    void dynamicThresholdIsTheBaseTwoLogarithmOfAlpha() {
        assertEquals(0, QosValues.dynamicThreshold(1.0, "t"));
        assertEquals(-3, QosValues.dynamicThreshold(0.125, "t"));
        assertEquals(3, QosValues.dynamicThreshold(8, "t"));
        assertThrows(UnexportableQosException.class, () -> QosValues.dynamicThreshold(0.75, "t"));
        assertThrows(UnexportableQosException.class, () -> QosValues.dynamicThreshold(0, "t"));
        assertThrows(UnexportableQosException.class, () -> QosValues.dynamicThreshold(256, "t"));
    }

    @Test
    void markProbabilityRoundsToWholePercentAndNeverToZero() {
        assertEquals(20, QosValues.percent(0.2, "t"));
        assertEquals(100, QosValues.percent(1.0, "t"));
        // 0.7 % rounds to 1 %; 0.4 % would round to 0 % and switch marking off.
        assertEquals(1, QosValues.percent(0.007, "t"));
        assertThrows(UnexportableQosException.class, () -> QosValues.percent(0.004, "t"));
    }

    @Test
    void watchdogMustBeWholeMilliseconds() {
        assertEquals(200, QosValues.watchdogMs(new PfcConfig(true, Set.of(3), 1, 0, 0, 200_000, null), "t"));
        assertThrows(UnexportableQosException.class,
                () -> QosValues.watchdogMs(new PfcConfig(true, Set.of(3), 1, 0, 0, 200_500, null), "t"));
    }

    @Test
    void ipMtuLeavesOutEthernetHeaderAndFcs() {
        // 9216 B jumbo frames: 9216 - 14 - 4 = 9198 B of IP packet.
        assertEquals(9198, QosValues.ipMtu(9216));
    }

    @Test
    void rangesCollapseConsecutiveValues() {
        assertEquals(List.of("3-4"), ConfigNames.ranges(Set.of(4, 3)));
        assertEquals(List.of("0-2", "5", "7"), ConfigNames.ranges(Set.of(0, 1, 2, 5, 7)));
        assertEquals(List.of(), ConfigNames.ranges(Set.of()));
    }

    @Test
    void namesKeepOnlySafeCharacters() {
        assertEquals("roce-400G_v2", ConfigNames.token("roce-400G_v2"));
        assertEquals("RoCE_lossless__prio_3_", ConfigNames.token("RoCE lossless (prio 3)"));
        assertEquals("P_x", ConfigNames.token("_x"));
    }
}
