package io.fabriclab.diagram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;
import io.fabriclab.model.Link;
import io.fabriclab.topology.RailOptimizedGenerator;

/**
 * Issue 32, "Seeing it": the 16,384-GPU rail-optimized fabric (64 units, 512 leaves, 512 spines,
 * 256 cores in 8 core groups, 49,152 links) fitted into the editor's canvas is one box per
 * scalable unit and one per core group, joined by one bundle per pair, each saying how many links
 * and how much capacity it stands for; a bundle's load is its links' loads summed.
 */
class ClusterOverviewTest {

    private final DiagramStyle style = new DiagramStyle();
    private static final Fabric SIXTEEN_K = RailOptimizedGenerator.generate(64);

    @Test
    void sixteenThousandGpusFitAsOneBoxPerUnitAndPerCoreGroupJoinedByBundles() {
        Fabric f = SIXTEEN_K;
        assertEquals(16_384, f.gpuCount());
        Layout l = new TieredLayout().layout(f);
        DiagramGeometry g = new DiagramGeometry(f, l, style);
        for (double[] size : List.of(new double[] {1000, 795}, new double[] {831, 612})) {
            Viewport vp = new Viewport();
            vp.fit(g.extent(), size[0], size[1], 40);
            FabricPainter painter = new FabricPainter(style);
            RecordingPainter rec = new RecordingPainter();
            FabricPainter.Stats st = painter.paint(rec, g, new Selection(), null, vp, size[0], size[1],
                    FabricPainter.Options.DEFAULT);
            // 64 units (each its 32 servers, 8 leaves and 8 spines) + 8 core groups of 32 cores.
            assertEquals(72, st.foldedGroupsDrawn(), "boxes at " + size[0]);
            assertEquals(0, st.devicesDrawn(), "no device drawn on its own");
            // Spine j of every unit goes to core group j: 64 x 8 bundles of 32 links each; the
            // 16,384 server and 4,096 x 8 leaf-spine links stay inside their unit's box.
            assertEquals(512, st.linesDrawn());
            assertEquals(16_384, st.linksRepresented());
            List<Bounds> labels = painter.lastLabelBoxes();
            for (int i = 0; i < labels.size(); i++) {
                for (int j = i + 1; j < labels.size(); j++) {
                    assertFalse(labels.get(i).intersects(labels.get(j)), labels.get(i) + " meets " + labels.get(j));
                }
            }
            List<String> texts = rec.texts();
            // One form for all units: never "unit 9" beside "su10".
            boolean full = texts.stream().anyMatch(t -> t.matches("unit \\d+.*"));
            boolean briefForm = texts.stream().anyMatch(t -> t.matches("su\\d+"));
            assertFalse(full && briefForm, "units named one way at " + size[0] + ": " + texts);
            // Every box is named: in full ("core group 1", "unit 64") or as the generator prefixes
            // its ids ("cg1", "su64") when the box is narrow.
            for (String name : List.of("core group 1", "core group 8", "unit 1", "unit 64")) {
                String brief = FabricPainter.shortGroupLabel(name.startsWith("unit") ? "unit " + (Integer.parseInt(
                        name.substring(5)) - 1) : name);
                assertTrue(texts.stream().anyMatch(t -> t.startsWith(name) || t.equals(brief)), name + " / " + brief
                        + " at " + size[0] + ": " + texts);
            }
        }
    }

    @Test
    void aUnitBoxHoldsItsSpinesLeavesAndServersAndACoreGroupItsCores() {
        Layout l = new TieredLayout().layout(SIXTEEN_K);
        DiagramGeometry g = new DiagramGeometry(SIXTEEN_K, l, style);
        Viewport vp = new Viewport();
        vp.fit(g.extent(), 1000, 795, 40);
        Map<Device, FoldGroup> folded = new FabricPainter(style).foldGroups(g, vp.scale(), FabricPainter.FoldMode.AUTO);
        FoldGroup unit = folded.get(SIXTEEN_K.device("su12-spine3"));
        assertEquals("unit 11", unit.key());
        assertEquals("8 spine · 8 leaf · 32 srv", FabricPainter.holds(unit));
        assertEquals(256, unit.gpus());
        FoldGroup cores = folded.get(SIXTEEN_K.device("cg3-core07"));
        assertEquals("core group 3", cores.key());
        assertEquals("32 core", FabricPainter.holds(cores));
    }

    @Test
    void aBundleSaysItsLinksAndSummedCapacity() {
        Fabric f = SIXTEEN_K;
        List<Link> bundle = f.links().stream()
                .filter(k -> k.a().device().id().startsWith("su01-spine1") && k.b().device().id().startsWith("cg1-")
                        || k.b().device().id().startsWith("su01-spine1") && k.a().device().id().startsWith("cg1-"))
                .toList();
        assertEquals(32, bundle.size());
        assertEquals("32 × 400G · 12.8T", FabricPainter.bundleText(bundle));
        assertEquals("1.05P", FabricPainter.capacityText(1_048_576));
        assertEquals("800G", FabricPainter.capacityText(800));
        assertEquals("su12", FabricPainter.shortGroupLabel("unit 11"));
        assertEquals("cg3", FabricPainter.shortGroupLabel("core group 3"));
    }

    @Test
    void aBundlesLoadIsItsLinksLoadWeightedByCapacity() {
        Fabric f = TestFabrics.classic();
        List<Link> two = f.links().stream().filter(k -> k.speedGbps() == 400).limit(2).toList();
        Link a = two.get(0);
        Link b = two.get(1);
        // Both 400G: one full, one idle -> half; a link without a figure does not count.
        assertEquals(0.5, FabricPainter.bundleLoad(two, k -> k == a ? 1.0 : 0.0), 1e-12);
        assertEquals(1.0, FabricPainter.bundleLoad(two, k -> k == a ? 1.0 : Double.NaN), 1e-12);
        assertTrue(Double.isNaN(FabricPainter.bundleLoad(two, k -> Double.NaN)));
        // Capacity-weighted: 100G full plus 400G idle carries 100 of 500 Gb/s.
        Link slow = f.links().stream().filter(k -> k.speedGbps() == 100).findFirst().orElseThrow();
        assertEquals(0.2, FabricPainter.bundleLoad(List.of(slow, b), k -> k == slow ? 1.0 : 0.0), 1e-12);
    }

    @Test
    void theLiveViewColoursABundleByItsSummedUtilisationAndByItsDeepestQueue() {
        Layout l = new TieredLayout().layout(SIXTEEN_K);
        DiagramGeometry g = new DiagramGeometry(SIXTEEN_K, l, style);
        Viewport vp = new Viewport();
        vp.fit(g.extent(), 1000, 795, 40);
        Map<Device, FoldGroup> folded = new FabricPainter(style).foldGroups(g, vp.scale(), FabricPainter.FoldMode.AUTO);
        // The 32 links from unit 1's spine 1 to core group 1: one bundle; one of them busy one way.
        List<Link> bundle = SIXTEEN_K.links().stream().filter(k -> k.a().device().id().equals("su01-spine1")
                && k.b().device().id().startsWith("cg1-") || k.b().device().id().equals("su01-spine1")
                && k.a().device().id().startsWith("cg1-")).toList();
        CongestionFrame.Directions dirs = new CongestionFrame.Directions(bundle);
        CongestionFrame f = new CongestionFrame(0, dirs);
        java.util.Arrays.fill(f.load, 0.0);
        f.load[0] = 1.0;
        for (CongestionPainter.ColourBy by : CongestionPainter.ColourBy.values()) {
            RecordingPainter rec = new RecordingPainter();
            new CongestionPainter(style).paint(rec, g, folded, vp, 1000, 795, f, 0, by, CongestionPainter.Legend.NONE);
            Rgba expected = style.utilisationColour(by == CongestionPainter.ColourBy.UTILISATION ? 1.0 / 32 : 1.0);
            assertTrue(rec.ops("line").stream().anyMatch(o -> o.colour().equals(expected)), by + ": a line in "
                    + expected);
            Rgba full = style.utilisationColour(1.0);
            if (by == CongestionPainter.ColourBy.UTILISATION) {
                assertFalse(rec.ops("line").stream().anyMatch(o -> o.colour().equals(full)),
                        "one busy link of 32 does not colour the bundle full");
            }
        }
    }
    @Test
    void aFlowRunsLegendHasTheUtilisationScaleAndNoPacketMarks() {
        // A flow-level run has rates only: its legend says so and lists no PFC pause, ECN mark, drop
        // or deadlock (it can show none); a packet run's legend lists them.
        Fabric f = TestFabrics.classic();
        DiagramGeometry g = new DiagramGeometry(f, new TieredLayout().layout(f), style);
        Viewport vp = new Viewport();
        vp.fit(g.extent(), 1000, 795, 40);
        Map<Device, FoldGroup> folded = new FabricPainter(style).foldGroups(g, vp.scale(), FabricPainter.FoldMode.AUTO);
        CongestionFrame frame = new CongestionFrame(0, new CongestionFrame.Directions(List.copyOf(f.links())));
        RecordingPainter flow = new RecordingPainter();
        new CongestionPainter(style).paint(flow, g, folded, vp, 1000, 795, frame, 0,
                CongestionPainter.ColourBy.UTILISATION, CongestionPainter.Legend.FLOW);
        assertTrue(flow.texts().contains("Utilisation over the run"), flow.texts().toString());
        assertTrue(flow.texts().contains("flow engine: rates only; no queues,"), flow.texts().toString());
        assertTrue(flow.texts().contains("link down (failed)"), flow.texts().toString());
        assertFalse(flow.texts().stream().anyMatch(t -> t.contains("PFC") || t.contains("ECN") || t.startsWith("drops")),
                flow.texts().toString());
        RecordingPainter packets = new RecordingPainter();
        new CongestionPainter(style).paint(packets, g, folded, vp, 1000, 795, frame, 0,
                CongestionPainter.ColourBy.UTILISATION, CongestionPainter.Legend.RESULTS);
        assertTrue(packets.texts().contains("PFC deadlock cycle"), packets.texts().toString());
    }
}
