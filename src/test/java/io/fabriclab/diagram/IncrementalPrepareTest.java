package io.fabriclab.diagram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.fabriclab.edit.AddLinkCommand;
import io.fabriclab.edit.CommandStack;
import io.fabriclab.edit.DeleteSelectionCommand;
import io.fabriclab.edit.FabricCommand;
import io.fabriclab.edit.MoveDevicesCommand;
import io.fabriclab.edit.SetPropertyCommand;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;
import io.fabriclab.model.Link;
import io.fabriclab.model.LinkState;

/**
 * After each kind of edit the editor makes, the geometry updated from the previous one
 * ({@link DiagramGeometry#update}) and a painter that keeps its fold and link groups across edits
 * draw exactly what a new geometry and a new painter draw (every draw call, in order), and
 * hit-testing answers the same. Three views: fitted (servers and unit switches folded), a readable
 * zoom (every link its own line, port and speed labels) and servers folded at a middle zoom.
 */
class IncrementalPrepareTest {
    private static final double W = 1400;
    private static final double H = 900;

    private final DiagramStyle style = new DiagramStyle();
    private Fabric f;
    private final CommandStack stack = new CommandStack();
    private DiagramGeometry g;
    private final List<View> views = new ArrayList<>();

    /** A view that keeps its painter across edits, as the editor's canvas and minimap do. */
    private record View(String name, Viewport vp, FabricPainter painter, FabricPainter.Options options) {
    }

    @BeforeEach
    void setUp() {
        f = TestFabrics.railUnits(6, 8, 4);
        f.setLayout(new TieredLayout().layout(f));
        g = new DiagramGeometry(f, f.layout(), style);
        Viewport fitted = new Viewport();
        fitted.fit(g.extent(), W, H, 20);
        assertTrue(FabricPainter.foldsServersAt(fitted.scale(), FabricPainter.FoldMode.AUTO),
                "the fitted view folds servers at " + fitted.scale());
        views.add(new View("fitted", fitted, new FabricPainter(style), FabricPainter.Options.DEFAULT));
        Viewport readable = new Viewport();
        Layout.Point p = f.layout().position("su2-srv4");
        readable.set(1.0, 0, 0);
        readable.centreOn(p.x(), p.y() - 150, W, H);
        views.add(new View("readable", readable, new FabricPainter(style), FabricPainter.Options.DEFAULT));
        Viewport middle = new Viewport();
        middle.set(0.5, 0, 0);
        middle.centreOn(p.x(), p.y() - 150, W, H);
        views.add(new View("middle, folded", middle, new FabricPainter(style),
                FabricPainter.Options.DEFAULT.withFold(FabricPainter.FoldMode.ALWAYS)));
        assertSameAsFullRebuild("the opened fabric");
    }

    /** Runs the edit, updates the geometry from the last one and compares every view with a full rebuild. */
    private DiagramGeometry edit(String what, FabricCommand c) {
        stack.execute(c);
        return updated(what);
    }

    private DiagramGeometry undo(String what) {
        assertTrue(stack.undo());
        return updated("undo " + what);
    }

    private DiagramGeometry updated(String what) {
        DiagramGeometry before = g;
        g = DiagramGeometry.update(before, f, f.layout(), style);
        assertSameAsFullRebuild(what);
        return before;
    }

    private void assertSameAsFullRebuild(String what) {
        DiagramGeometry fresh = new DiagramGeometry(f, f.layout(), style);
        Selection sel = new Selection();
        for (View v : views) {
            RecordingPainter incremental = new RecordingPainter();
            FabricPainter.Stats a = v.painter().paint(incremental, g, sel, null, v.vp(), W, H, v.options());
            RecordingPainter full = new RecordingPainter();
            FabricPainter.Stats b = new FabricPainter(style).paint(full, fresh, sel, null, v.vp(), W, H, v.options());
            assertEquals(b, a, what + ", " + v.name() + ": stats");
            assertTrue(b.linesDrawn() > 20, v.name() + " draws links: " + b);
            assertEquals(full.ops.size(), incremental.ops.size(), what + ", " + v.name() + ": number of draw calls");
            for (int i = 0; i < full.ops.size(); i++) {
                assertEquals(full.ops.get(i), incremental.ops.get(i), what + ", " + v.name() + ": draw call " + i);
            }
        }
        // Hit-testing on a grid of 100 x 60 points over the whole fabric (links within 3 units).
        Bounds e = fresh.extent().grow(30);
        for (double x = e.minX(); x <= e.maxX(); x += e.width() / 100) {
            for (double y = e.minY(); y <= e.maxY(); y += e.height() / 60) {
                assertSame(fresh.deviceAt(x, y), g.deviceAt(x, y), what + ": device at " + x + ", " + y);
                assertSame(fresh.linkAt(x, y, 3), g.linkAt(x, y, 3), what + ": link at " + x + ", " + y);
            }
        }
        Bounds band = Bounds.centred(e.centreX(), e.centreY(), e.width() / 3, e.height() / 2);
        assertEquals(new HashSet<>(fresh.devicesIntersecting(band)), new HashSet<>(g.devicesIntersecting(band)), what);
        assertEquals(new HashSet<>(fresh.linksIntersecting(band)), new HashSet<>(g.linksIntersecting(band)), what);
    }

    private MoveDevicesCommand move(String id, double dx, double dy) {
        Layout.Point p = f.layout().position(id);
        return new MoveDevicesCommand(f, "Move " + id, Map.of(id, p), Map.of(id, new Layout.Point(p.x() + dx, p.y() + dy)));
    }

    /** The painter's fold groups of a view (the same objects while the painter only updates them). */
    private Set<FoldGroup> folds(View v) {
        Set<FoldGroup> out = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        out.addAll(v.painter().foldGroups(g, v.vp().scale(), v.options().fold()).values());
        return out;
    }

    @Test
    void movingADeviceUpdatesOnlyItsGroupsAndDrawsWhatAFullRebuildDraws() {
        Set<FoldGroup> before = folds(views.get(0));
        DiagramGeometry old = edit("move a server", move("su2-srv4", 60, 40));
        assertEquals(Set.of(f.device("su2-srv4")), g.movedSince(old), "only the server moved");
        assertEquals(before, folds(views.get(0)), "the fold groups were updated, not made again");
        edit("move a rail leaf", move("su3-rail5", -120, 10));
        edit("move a spine", move("spine2", 300, -20));
        undo("move a spine");
        undo("move a rail leaf");
        undo("move a server");
    }

    @Test
    void aDragOfManyFramesUpdatesThroughGeometriesNoPainterSaw() {
        // A drag moves the layout and asks for the geometry several times between two paints.
        Layout.Point p = f.layout().position("su1-srv2");
        for (int step = 1; step <= 6; step++) {
            f.layout().setPosition("su1-srv2", p.x() + 13 * step, p.y() + 7 * step);
            g = DiagramGeometry.update(g, f, f.layout(), style);
            if (step % 3 == 0) {
                assertSameAsFullRebuild("drag step " + step);
            }
        }
        f.layout().setPosition("su1-srv2", p.x(), p.y());
        updated("drag back to the start");
    }

    @Test
    void failingAndRestoringALinkKeepsTheShapeAndRedrawsItsColour() {
        Link uplink = f.findLink("su0-rail0:eth9");
        assertNotNull(uplink);
        DiagramGeometry old = edit("fail a link", new SetPropertyCommand<>("Fail", uplink::state, uplink::setState,
                LinkState.DOWN));
        assertEquals(Set.of(), g.movedSince(old), "nothing drawn moved: the geometry and the groups are kept");
        Link serverLink = f.findLink("su4-srv3:nic6");
        edit("fail a server link", new SetPropertyCommand<>("Fail", serverLink::state, serverLink::setState,
                LinkState.DOWN));
        undo("fail a server link");
        undo("fail a link");
    }

    @Test
    void renamingAModelOrChangingAServersGpuCount() {
        Device leaf = f.device("su1-rail3");
        edit("rename a model", new SetPropertyCommand<>("Rename model", leaf::model, leaf::setModel, "bench-model"));
        Device srv = f.device("su2-srv5");
        DiagramGeometry old = edit("set a server's GPU count", new SetPropertyCommand<>("GPUs", srv::gpusOverride,
                srv::setGpus, 4));
        assertNull(g.movedSince(old), "a GPU count changes the fold group's label: the groups are made again");
        undo("set a server's GPU count");
        undo("rename a model");
    }

    @Test
    void addingAndRemovingLinksAndDevices() {
        Link l = f.findLink("su3-srv2:nic1");
        Device a = l.a().device();
        Device b = l.b().device();
        DiagramGeometry old = edit("remove a link", new DeleteSelectionCommand(f, List.of(), List.of(l)));
        assertNull(g.movedSince(old), "a link fewer: made again");
        edit("add a link", new AddLinkCommand(f, a, b));
        undo("add a link");
        undo("remove a link");
        edit("delete a device", new DeleteSelectionCommand(f, List.of(f.device("su5-srv8")), List.of()));
        edit("move after a delete", move("su5-srv7", 20, 20));
        undo("move after a delete");
        undo("delete a device");
    }

    @Test
    void foldingAndUnfoldingAUnit() {
        Set<String> folded = new HashSet<>(f.layout().foldedGroups());
        folded.add("unit 2");
        DiagramGeometry old = edit("fold unit 2", foldTo(folded));
        assertNull(g.movedSince(old));
        edit("move a server of the folded unit", move("su2-srv1", 0, 30));
        edit("move a server of another unit", move("su4-srv1", 0, 30));
        undo("move a server of another unit");
        undo("move a server of the folded unit");
        undo("fold unit 2");
    }

    private FabricCommand foldTo(Set<String> groups) {
        return new SetPropertyCommand<Set<String>>("Fold", () -> Set.copyOf(f.layout().foldedGroups()), v -> {
            f.layout().foldedGroups().clear();
            f.layout().foldedGroups().addAll(v);
        }, Set.copyOf(groups));
    }
}
