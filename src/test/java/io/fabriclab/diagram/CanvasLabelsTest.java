package io.fabriclab.diagram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.fabriclab.io.FabricJson;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;
import io.fabriclab.topology.RailOptimizedGenerator;

/**
 * Issue 35 item 21: labels never overlap, one rule names a row's devices, every tier is named at
 * the fitted zoom. Painted at the editor's canvas sizes under 1600x1000 and 1280x800 screens
 * (1000 x 795 and 831 x 612 px once the palette, inspector and bars take their share; measured on screenshots), and smaller.
 */
class CanvasLabelsTest {

    private final DiagramStyle style = new DiagramStyle();

    private record Painted(FabricPainter painter, RecordingPainter rec) {
    }

    private Painted paintFitted(Fabric f, double w, double h) {
        Layout l = new TieredLayout().layout(f);
        f.setLayout(l);
        DiagramGeometry g = new DiagramGeometry(f, l, style);
        Viewport vp = new Viewport();
        vp.fit(g.extent(), w, h, 40);
        FabricPainter painter = new FabricPainter(style);
        RecordingPainter rec = new RecordingPainter();
        painter.paint(rec, g, new Selection(), null, vp, w, h, FabricPainter.Options.DEFAULT);
        return new Painted(painter, rec);
    }

    private static Fabric example(String name) throws Exception {
        return FabricJson.read(Path.of("resources/examples/" + name));
    }

    private static void assertNoOverlap(List<Bounds> boxes, String what) {
        for (int i = 0; i < boxes.size(); i++) {
            for (int j = i + 1; j < boxes.size(); j++) {
                assertFalse(boxes.get(i).intersects(boxes.get(j)), what + ": label " + boxes.get(i) + " meets "
                        + boxes.get(j));
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"classic-leaf-spine.json, 1000, 795", "classic-leaf-spine.json, 831, 612", "classic-leaf-spine.json, 560, 500",
            "rail-1su.json, 1000, 795", "rail-1su.json, 831, 612", "rail-4su.json, 1000, 795", "rail-4su.json, 831, 612"})
    void noTwoLabelsOfAShippedExampleOverlapAtTheFittedZoom(String file, double w, double h) throws Exception {
        Painted p = paintFitted(example(file), w, h);
        List<Bounds> boxes = p.painter().lastLabelBoxes();
        assertFalse(boxes.isEmpty());
        assertNoOverlap(boxes, file);
        // What is drawn as text is what was claimed: one box per text the painter drew, bar the legend's.
        assertTrue(p.rec().ops("text").size() >= boxes.size());
    }

    @Test
    void theUnitCaptionNoLongerSitsUnderTheFoldedServersLabel() {
        // Four generated units at the fitted zoom: servers fold into "unit n · 32 srv · 256 GPU",
        // which reaches over the frame's caption strip; the caption "unit n" was drawn under it.
        Fabric f = RailOptimizedGenerator.generate(4);
        Painted p = paintFitted(f, 1000, 795);
        assertNoOverlap(p.painter().lastLabelBoxes(), "4 units");
        long unitNames = p.rec().texts().stream().filter(t -> t.equals("unit 1") || t.startsWith("unit 1 ")).count();
        assertEquals(1, unitNames, "unit 1 named once: " + p.rec().texts());
    }

    @ParameterizedTest
    @CsvSource({"1, 1000, 795", "1, 831, 612", "4, 1000, 795", "4, 831, 612", "8, 1000, 795", "8, 831, 612", "8, 560, 500"})
    void everyTierIsNamedAtTheFittedZoom(int units, double w, double h) {
        Fabric f = RailOptimizedGenerator.generate(units);
        Painted p = paintFitted(f, w, h);
        List<String> texts = p.rec().texts();
        assertNoOverlap(p.painter().lastLabelBoxes(), units + " units");
        // Spines: each by name, or the row by its caption.
        boolean spinesNamed = texts.stream().anyMatch(t -> t.startsWith("spine ×") || t.matches("(sp|spine)\\d+"));
        assertTrue(spinesNamed, "spines named at " + units + " units, " + w + " px: " + texts);
        // Leaves: by name, by the row's caption, or in their unit's folded box ("8 leaf · 32 srv").
        boolean leavesNamed = texts.stream().anyMatch(t -> t.startsWith("leaf ×") || t.matches("(lf|leaf)\\d+")
                || t.contains("8 leaf"));
        assertTrue(leavesNamed, "leaves named: " + texts);
    }

    @Test
    void spinesOfFourUnitsGetARowCaptionWhenTheirBoxesAreTooSmallForANameAndARowIsNamedOneWay() {
        Fabric f = RailOptimizedGenerator.generate(4);
        Painted p = paintFitted(f, 1000, 795);
        List<String> texts = p.rec().texts();
        assertTrue(texts.contains("spine ×16"), texts.toString());
        // Leaves: every leaf of the row in the same form ("lf0".."lf7" or "leaf0".."leaf7", never both).
        List<String> leaves = new ArrayList<>(texts.stream().filter(t -> t.matches("(lf|leaf|su\\d+-leaf)\\d+")).toList());
        assertTrue(!leaves.isEmpty() || texts.contains("leaf ×32"), texts.toString());
        assertFalse(!leaves.isEmpty() && texts.contains("leaf ×32"), "names or a caption, not both: " + texts);
        if (leaves.isEmpty()) {
            return;
        }
        String form = leaves.get(0).replaceAll("\\d+$", "");
        assertTrue(leaves.stream().allMatch(t -> t.replaceAll("\\d+$", "").equals(form)), leaves.toString());
    }

    @Test
    void aGeneratedLeafAndAHandMadeLeafReadAlikeWhenShortened() {
        // "su01-leaf1" once jumped from "su1-leaf1" to "su1-lf1": never the "leaf1" a hand-made
        // fabric shows at the same zoom.
        assertEquals("leaf1", FabricPainter.labelForm("su01-leaf1", 2));
        assertEquals("leaf1", FabricPainter.labelForm("leaf1", 2));
        assertEquals("lf1", FabricPainter.labelForm("su01-leaf1", 3));
        assertEquals("lf1", FabricPainter.labelForm("leaf1", 3));
        assertEquals("spine1", FabricPainter.labelForm("spine01", 2));
    }
}
