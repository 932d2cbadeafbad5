package io.fabriclab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.ui.RectangleAnchor;
import org.junit.jupiter.api.Test;

/** Issue 35 item 20: threshold labels close in value (Kmin 800 KB, XOFF 1,000 KB) sit on opposite sides. */
class ChartLabelsTest {

    @Test
    void neighbouringThresholdLabelsAlternateSides() {
        ValueMarker kmin = new ValueMarker(800);
        ValueMarker kmax = new ValueMarker(3200);
        ValueMarker xoff = new ValueMarker(1000);
        ResultsCharts.alternateLabelSides(List.of(kmin, kmax, xoff));
        assertEquals(RectangleAnchor.TOP_LEFT, kmin.getLabelAnchor());
        assertEquals(RectangleAnchor.TOP_RIGHT, xoff.getLabelAnchor(), "XOFF next to Kmin: the other side");
        assertEquals(RectangleAnchor.TOP_LEFT, kmax.getLabelAnchor());
    }
}
