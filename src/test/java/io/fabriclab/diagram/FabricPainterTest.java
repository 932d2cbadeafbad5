package io.fabriclab.diagram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;
import io.fabriclab.model.Link;
import io.fabriclab.model.LinkState;

class FabricPainterTest {

    private final DiagramStyle style = new DiagramStyle();
    private final FabricPainter painter = new FabricPainter(style);

    private FabricPainter.Stats paintFitted(Fabric f, RecordingPainter rec, double w, double h) {
        Layout l = new TieredLayout().layout(f);
        f.setLayout(l);
        DiagramGeometry g = new DiagramGeometry(f, l, style);
        Viewport vp = new Viewport();
        vp.fit(g.extent(), w, h, 20);
        return painter.paint(rec, g, new Selection(), null, vp, w, h, FabricPainter.Options.DEFAULT);
    }

    @Test
    void atReadableZoomEveryDeviceAndLinkIsDrawnOnce() {
        Fabric f = TestFabrics.classic();
        Layout l = new TieredLayout().layout(f);
        DiagramGeometry g = new DiagramGeometry(f, l, style);
        Viewport vp = new Viewport();
        vp.fit(g.extent(), 3000, 900, 10);
        assertTrue(vp.scale() > 0.5, "the whole classic fabric is readable at " + vp.scale());
        RecordingPainter rec = new RecordingPainter();
        FabricPainter.Stats st = painter.paint(rec, g, new Selection(), null, vp, 3000, 900, FabricPainter.Options.DEFAULT);
        // 2 spines + 4 leaves + 32 servers; 8 uplinks + 32 server links, all distinct device pairs.
        assertEquals(38, st.devicesDrawn());
        assertEquals(40, st.linesDrawn());
        assertFalse(st.serversFolded());
        assertTrue(rec.texts().contains("spine1"));
        assertEquals(0, rec.depth(), "save and restore balance");
    }

    @Test
    void offScreenDevicesAreNotDrawn() {
        Fabric f = TestFabrics.classic();
        Layout l = new TieredLayout().layout(f);
        DiagramGeometry g = new DiagramGeometry(f, l, style);
        Viewport vp = new Viewport();
        Layout.Point p = l.position("srv1");
        vp.set(1.0, 0, 0);
        vp.centreOn(p.x(), p.y(), 400, 300);
        FabricPainter.Stats st = painter.paint(new RecordingPainter(), g, new Selection(), null, vp, 400, 300,
                FabricPainter.Options.DEFAULT);
        // A 400 px window at 100 % shows srv1 and a few neighbours (pitch 60), not 38 devices.
        assertTrue(st.devicesDrawn() > 0 && st.devicesDrawn() < 10, "drew " + st.devicesDrawn());
    }

    @Test
    void aSixteenThousandGpuFabricFoldsIntoUnitsWhenFitted() {
        // 64 units x 32 servers x 8 GPUs = 16,384 GPUs; 512 rail leaves; 4 spines.
        Fabric f = TestFabrics.railUnits(64, 32, 4);
        assertEquals(16_384, f.gpuCount());
        RecordingPainter rec = new RecordingPainter();
        // The tiered layout wraps the 64 units into 6 columns, about 11,900 x 6,700 units; fitted
        // into a 1000 x 700 canvas (20 px margins) the scale is min(960 / 11,900, 660 / 6,700) = 0.08,
        // so a 48-unit server is 4 px wide (< 14: folded) and a 100-unit leaf 8 px (< 12: folded).
        FabricPainter.Stats st = paintFitted(f, rec, 1000, 700);
        assertTrue(st.serversFolded());
        assertEquals(64, st.foldedGroupsDrawn(), "one box per scalable unit");
        // Leaves fold with their unit too, so only the 4 spines remain as devices, and each unit
        // reaches each spine through one bundle: 64 x 4 = 256 lines for 16,384 + 2,048 links.
        assertEquals(4, st.devicesDrawn());
        assertEquals(256, st.linesDrawn());
        assertEquals(2_048, st.linksRepresented());
    }

    @Test
    void serverLinksToARailLeafTakeTheRailColour() {
        Fabric f = TestFabrics.railUnits(1, 2, 1);
        Link l = f.findLink("su0-srv1:nic5");
        assertEquals(style.railColour(5), painter.linkColour(l));
        Link up = f.findLink("su0-rail5--spine1");
        assertEquals(style.linkColour(400), painter.linkColour(up), "uplinks go by speed");
        up.setState(LinkState.DOWN);
        assertEquals(DiagramStyle.LINK_DOWN, painter.linkColour(up));
    }

    @Test
    void theLegendNamesTheRolesPresent() {
        Fabric f = TestFabrics.classic();
        RecordingPainter rec = new RecordingPainter();
        paintFitted(f, rec, 1600, 900);
        List<String> texts = rec.texts();
        assertTrue(texts.contains("Legend"));
        assertTrue(texts.contains(DeviceRole.SPINE.jsonName() + "  ×2"), texts.toString());
        assertTrue(texts.contains("400G link") && texts.contains("100G link"));
    }

    @Test
    void linkWidthGrowsWithSpeed() {
        // 1 px at 100G plus 0.6 px per doubling: 400G is two doublings, 2.2 px.
        assertEquals(1.0, style.linkWidthPx(100), 1e-9);
        assertEquals(2.2, style.linkWidthPx(400), 1e-9);
        assertTrue(style.linkWidthPx(800) > style.linkWidthPx(400));
    }

    @Test
    void aDraftFrameDrawsAtMostTheDraftBudgetOfLines() {
        Fabric f = TestFabrics.railUnits(64, 32, 4);
        Layout l = new TieredLayout().layout(f);
        DiagramGeometry g = new DiagramGeometry(f, l, style);
        Viewport vp = new Viewport();
        // Servers folded but leaves shown (scale between 0.12 and 0.29): thousands of lines.
        vp.fit(g.extent(), 1000, 700, 20);
        vp.zoomAt(500, 350, 0.2 / vp.scale());
        FabricPainter.Stats full = painter.paint(new RecordingPainter(), g, new Selection(), null, vp, 1000, 700,
                FabricPainter.Options.DEFAULT);
        FabricPainter.Stats draft = painter.paint(new RecordingPainter(), g, new Selection(), null, vp, 1000, 700,
                FabricPainter.Options.DEFAULT.withDraft(true));
        assertTrue(full.linesDrawn() > FabricPainter.DRAFT_LINES, "full frame drew " + full.linesDrawn());
        assertEquals(FabricPainter.DRAFT_LINES, draft.linesDrawn());
        assertEquals(full.devicesDrawn(), draft.devicesDrawn(), "devices are never dropped");
    }

    @Test
    void aRestingFrameDrawsAnEvenSampleBeyondTheFullBudgetButAlwaysTheSelectedLinks() {
        Fabric f = TestFabrics.railUnits(64, 32, 16);
        Layout l = new TieredLayout().layout(f);
        DiagramGeometry g = new DiagramGeometry(f, l, style);
        Viewport vp = new Viewport();
        vp.fit(g.extent(), 1000, 700, 20);
        vp.zoomAt(500, 350, 0.2 / vp.scale());
        RecordingPainter rp = new RecordingPainter();
        FabricPainter.Stats sampled = painter.paint(rp, g, new Selection(), null, vp, 1000, 700,
                FabricPainter.Options.DEFAULT);
        String note = rp.texts().stream().filter(t -> t.endsWith("lines shown")).findFirst().orElse(null);
        assertTrue(note != null && note.startsWith("1,500 of "), "the legend says a sample is drawn: " + note);
        // With every link selected, no line may be dropped: all candidates are drawn.
        Selection all = new Selection();
        all.set(java.util.List.of(), f.links());
        RecordingPainter rp2 = new RecordingPainter();
        FabricPainter.Stats full = painter.paint(rp2, g, all, null, vp, 1000, 700, FabricPainter.Options.DEFAULT);
        assertTrue(full.linesDrawn() > sampled.linesDrawn(), full + " vs " + sampled);
        assertTrue(rp2.texts().stream().noneMatch(t -> t.endsWith("lines shown")));
    }

    @Test
    void withALoadLinksTakeTheUtilisationColourAndUnknownOnesKeepTheirUsualOne() {
        Fabric f = TestFabrics.railUnits(1, 2, 1);
        Link busy = f.findLink("su0-rail5--spine1");
        Link quiet = f.findLink("su0-srv1:nic5");
        painter.setLinkLoad(l -> l == busy ? 1.0 : Double.NaN);
        // Full load is the red end of the ramp; the quiet link has no figure and stays rail-coloured.
        assertEquals(style.utilisationColour(1.0), painter.linkColour(busy));
        assertEquals(DiagramStyle.LOAD_HIGH, painter.linkColour(busy));
        assertEquals(style.railColour(5), painter.linkColour(quiet));
        painter.setLinkLoad(null);
        assertEquals(style.linkColour(400), painter.linkColour(busy));
    }

    @Test
    void theUtilisationRampRunsLightToDarkBlue() {
        assertEquals(Rgba.hex("#c6dbef"), style.utilisationColour(0));
        assertEquals(Rgba.hex("#4292c6"), style.utilisationColour(0.5));
        assertEquals(Rgba.hex("#08306b"), style.utilisationColour(1.0));
        assertEquals(style.utilisationColour(1.0), style.utilisationColour(3.0), "clamped above full");
    }

    @Test
    void aLabelTooLongForItsBoxShortensButStillSaysWhatTheDeviceIs() {
        // A bare trailing number ("1" for spine01 and for leaf01) said nothing; each shorter form
        // keeps the role's letters.
        assertEquals(List.of("spine01", "spine1", "sp1"), FabricPainter.labelForms("spine01"));
        assertEquals(List.of("su01-leaf3", "su1-leaf3", "leaf3", "lf3"), FabricPainter.labelForms("su01-leaf3"));
        assertEquals(List.of("su01-srv07", "su1-srv7", "srv7", "s7"), FabricPainter.labelForms("su01-srv07"));
        assertEquals(List.of("leaf3"), FabricPainter.labelForms("leaf3").subList(0, 1));
        assertEquals(List.of("42"), FabricPainter.labelForms("42"), "an id that is a number stays one");
        for (String id : List.of("spine01", "leaf12", "cg1-core02", "server007")) {
            for (String form : FabricPainter.labelForms(id)) {
                assertTrue(form.chars().anyMatch(Character::isLetter), id + " -> " + form);
            }
        }
    }

    @Test
    void unitsAreNamedFromOneOnScreenAsTheGeneratorsNameThem() {
        // Unit 0 of the model is su01 in generated names, and the inspector shows it as unit 1.
        assertEquals("unit 1", FabricPainter.groupLabel("unit 0"));
        assertEquals("unit 64", FabricPainter.groupLabel("unit 63"));
        assertEquals("rack leaf1", FabricPainter.groupLabel("rack leaf1"));
    }
}
