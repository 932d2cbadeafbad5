package io.fabriclab.diagram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fabriclab.diagram.ColourVision.Vision;

/**
 * Issue 16 item 20: one colour language for the live view, replays, the report and the editor.
 * Load is one blue scale (no red: red means an alarm), and every distinct meaning stays apart for
 * normal, deuteranopic and protanopic vision (Machado et al. 2009 simulation, CIE 1976 ΔE).
 */
class ColourLanguageTest {
    /**
     * The least ΔE*ab two meanings may have, with any of the three visions. 2.3 is a just noticeable
     * difference (Sharma 2003, Digital Color Imaging Handbook, 1.7.2); two marks a reader must tell
     * apart at a glance on thin lines need many times that. The palette reaches 18.4 (protanopia:
     * the watchdog storm's orange against the flow halo's green); the old one had 3.7
     * (deuteranopia: a full link's red against a drop's red).
     */
    static final double MIN_DELTA_E = 15;

    private final DiagramStyle style = new DiagramStyle();

    /** What a reader of the live view must tell apart, each by its colour. */
    private Map<String, Rgba> meanings() {
        Map<String, Rgba> m = new LinkedHashMap<>();
        m.put("background", DiagramStyle.BACKGROUND);
        m.put("load 20 %", style.utilisationColour(0.2));
        m.put("load 50 %", style.utilisationColour(0.5));
        m.put("load 100 %", style.utilisationColour(1.0));
        m.put("PFC pause", DiagramStyle.PFC_PAUSE);
        m.put("PFC watchdog storm", DiagramStyle.PFC_STORM);
        m.put("ECN mark", DiagramStyle.ECN_SPARK);
        m.put("drop / link down", DiagramStyle.DROP);
        m.put("deadlock cycle", DiagramStyle.DEADLOCK);
        m.put("selected flow's path", DiagramStyle.FLOW_PATH);
        m.put("selected collective", DiagramStyle.COLLECTIVE_PATH);
        return m;
    }

    @Test
    void everyMeaningStaysApartForNormalDeuteranopicAndProtanopicVision() {
        Map<String, Rgba> m = meanings();
        List<String> names = List.copyOf(m.keySet());
        double least = Double.MAX_VALUE;
        String worst = "";
        for (Vision v : Vision.values()) {
            for (int i = 0; i < names.size(); i++) {
                for (int j = i + 1; j < names.size(); j++) {
                    double d = ColourVision.deltaE(m.get(names.get(i)), m.get(names.get(j)), v);
                    if (d < least) {
                        least = d;
                        worst = names.get(i) + " vs " + names.get(j) + " (" + v + ")";
                    }
                    assertTrue(d >= MIN_DELTA_E, names.get(i) + " and " + names.get(j) + " are " + d
                            + " apart for " + v + "; at least " + MIN_DELTA_E + " is needed");
                }
            }
        }
        assertEquals(18.4, least, 0.1, "the closest pair: " + worst);
    }

    @Test
    void theOldPaletteFailsTheSameCheck() {
        // The ramp red of a full link (#d7191c) against the drop red (#e00000) under deuteranopia:
        // the check must be able to fail.
        double d = ColourVision.deltaE(Rgba.hex("#d7191c"), DiagramStyle.DROP, Vision.DEUTERANOPIA);
        assertTrue(d < MIN_DELTA_E, "old full-load red vs drop: " + d);
        // Amber at half load (#fdae61) against the watchdog orange under protanopia: close as well.
        assertTrue(ColourVision.deltaE(Rgba.hex("#fdae61"), DiagramStyle.PFC_STORM, Vision.PROTANOPIA) < 25);
    }

    @Test
    void theSimulationMatchesMachadoOnPureColours() {
        // Pure red (linear 1, 0, 0) seen by a deuteranope is the first column of the matrix:
        // (0.367322, 0.280085, -0.011820 -> 0), sRGB-encoded (1.055 c^(1/2.4) - 0.055): 0.367 -> 0.640 x 255 = 163,
        // 0.280 -> 0.566 x 255 = 144, 0.
        assertEquals(new Rgba(163, 144, 0, 255), ColourVision.simulate(Rgba.hex("#ff0000"), Vision.DEUTERANOPIA));
        // White stays white for every vision (each row of the matrices sums to 1; protanopia's first
        // row: 0.152286 + 1.052583 - 0.204868 = 1.000001).
        for (Vision v : Vision.values()) {
            assertEquals(new Rgba(255, 255, 255, 255), ColourVision.simulate(Rgba.hex("#ffffff"), v));
        }
        // CIE Lab of sRGB white is (100, 0, 0); of mid grey #777777, L* = 50.0 (Y = 0.1845).
        double[] white = ColourVision.lab(new double[] {1, 1, 1});
        assertEquals(100, white[0], 0.01);
        assertEquals(0, white[1], 0.01);
        assertEquals(49.98, ColourVision.lab(ColourVision.simulateLinear(Rgba.hex("#777777"), Vision.NORMAL))[0], 0.1);
    }

    @Test
    void loadIsOneBlueScaleDarkerWithMoreLoadAndNeverRed() {
        double last = -1;
        for (int i = 0; i <= 10; i++) {
            Rgba c = style.utilisationColour(i / 10.0);
            assertTrue(c.b() >= c.r(), "blue, not red, at " + i * 10 + " %: " + c);
            double darkness = 1 - c.luma();
            assertTrue(darkness > last, "darker with more load at " + i * 10 + " %");
            last = darkness;
        }
        // On the dark theme the scale runs the other way: more load, more contrast with the dark background.
        DiagramStyle dark = new DiagramStyle(DiagramStyle.Theme.DARK);
        assertTrue(dark.utilisationColour(1.0).luma() > dark.utilisationColour(0.2).luma());
        assertTrue(ColourVision.deltaE(dark.utilisationColour(1.0), dark.background(), Vision.NORMAL) > 50);
    }
}
