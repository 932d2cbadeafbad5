package io.fabriclab.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.jfree.chart.axis.NumberAxis;
import org.junit.jupiter.api.Test;

/** Issue 35 item 11: sweep and tuner tables and chart axes in plain numbers with units. */
class PlainNumbersTest {

    @Test
    void statsArePlainNumbersWithUnitsAndNoZeroInterval() {
        assertEquals("10,610 +- 15,000 us", new SweepSummary.Stat(3, 10610.4, 10610.4 - 15000, 10610.4 + 15000).text("us"));
        assertEquals("0", new SweepSummary.Stat(3, 0, 0, 0).text(), "a count that is 0 on every seed");
        assertEquals("130.6 +- 1.5 us", new SweepSummary.Stat(2, 130.6, 129.1, 132.1).text("us"));
        assertEquals("0.01523", SweepSummary.plain(0.01523));
        assertEquals("1,306", SweepSummary.plain(1306.03));
        assertEquals("us", SweepMetrics.unit("fctP99Us"));
        assertEquals("", SweepMetrics.unit("drops"));
        assertEquals("Gb/s", SweepMetrics.unit("meanThroughputGbps"));
    }

    @Test
    void aFlatSeriesGetsAReadableAxis() {
        NumberAxis a = new NumberAxis("fctP99Us");
        a.setAutoRangeIncludesZero(false);
        a.setRange(1306.03, 1306.03 + 1e-9);
        SweepCharts.plainAxis(a);
        a.setAutoRange(true);
        assertEquals(130.603, a.getAutoRangeMinimumSize(), 1e-3, "at least 10 % of the value is shown");
        String tick = a.getNumberFormatOverride().format(1306.03);
        assertEquals("1,306.03", tick);
        assertFalse(tick.contains("E"));
    }
}
