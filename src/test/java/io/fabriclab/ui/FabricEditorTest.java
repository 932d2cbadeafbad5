package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.diagram.DiagramStyle;
import io.fabriclab.edit.FabricSnapshot;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;
import io.fabriclab.model.Link;
import javafx.geometry.Point2D;
import javafx.geometry.VerticalDirection;
import javafx.scene.Scene;
import javafx.scene.image.WritableImage;
import javafx.scene.input.KeyCode;
import javafx.scene.input.MouseButton;
import javafx.scene.paint.Color;
import javafx.stage.Stage;

@ExtendWith(SharedStageExtension.class)
class FabricEditorTest {
    /** Scratch files of this test, removed after it (never the system temp directory: issue 35 item 16). */
    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path scratch;


    private FabricDocument doc;
    private FabricEditor editor;
    private FabricCanvas canvas;

    @Start
    void start(Stage stage) {
        doc = new FabricDocument(DemoFabric.classic(), null);
        editor = new FabricEditor(doc);
        canvas = editor.canvas();
        stage.setScene(new Scene(editor, 1200, 780));
        stage.show();
    }

    private Fabric fabric() {
        return doc.fabric();
    }

    /** Screen point of a device's centre. */
    private Point2D screenOf(String id) {
        Point2D local = canvas.centreOf(fabric().device(id));
        return canvas.localToScreen(local);
    }

    private Point2D screenOfLocal(double x, double y) {
        return canvas.localToScreen(x, y);
    }

    /** Shows the canvas at 100 % centred on a device, so boxes are big enough to grab. */
    private void zoomTo100On(FxRobot robot, String id) {
        robot.interact(() -> {
            Layout.Point p = fabric().layout().position(id);
            canvas.viewport().set(1.0, 0, 0);
            canvas.viewport().centreOn(p.x(), p.y(), canvas.getWidth(), canvas.getHeight());
            canvas.redraw();
        });
    }

    @Test
    void draggingAPaletteEntryOntoTheCanvasAddsADeviceWhereItIsDropped(FxRobot robot) {
        int before = fabric().devices().size();
        Point2D drop = screenOfLocal(150, 120);
        robot.drag("#palette-leaf", MouseButton.PRIMARY).dropTo(drop);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(before + 1, fabric().devices().size());
        Device added = fabric().device("leaf5");
        assertNotNull(added, "the next free leaf id");
        assertEquals(64, added.portCount());
        // The drop point in world units, snapped to the 10-unit grid.
        Layout.Point p = fabric().layout().position("leaf5");
        double wx = canvas.viewport().toWorldX(150);
        double wy = canvas.viewport().toWorldY(120);
        assertEquals(Math.round(wx / DiagramStyle.GRID) * DiagramStyle.GRID, p.x(), 1e-9);
        assertEquals(Math.round(wy / DiagramStyle.GRID) * DiagramStyle.GRID, p.y(), 1e-9);
        assertEquals(Set.of(added), doc.selection().devices(), "the new device is selected");
        robot.press(KeyCode.CONTROL, KeyCode.Z).release(KeyCode.Z, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertNull(fabric().device("leaf5"), "Ctrl+Z removes it again");
    }

    @Test
    void dragFromOneDeviceToAnotherWithTheLinkToolCablesThem(FxRobot robot) {
        int links = fabric().linkCount();
        robot.clickOn("#tool-link");
        robot.drag(screenOf("leaf1"), MouseButton.PRIMARY).dropTo(screenOf("spine1"));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(links + 1, fabric().linkCount());
        // leaf1's first free 400G port is eth51 (eth49/50 carry the uplinks); spine1's is eth5.
        Link l = fabric().findLink("leaf1:eth51");
        assertNotNull(l);
        assertEquals("spine1:eth5", l.opposite(l.portOn(fabric().device("leaf1"))).ref());
        assertEquals(400, l.speedGbps());
        assertEquals(Set.of(l), doc.selection().links());
    }

    @Test
    void shiftDragBetweenDevicesAlsoLinksThem(FxRobot robot) {
        int links = fabric().linkCount();
        robot.press(KeyCode.SHIFT);
        robot.drag(screenOf("leaf2"), MouseButton.PRIMARY).dropTo(screenOf("spine2"));
        robot.release(KeyCode.SHIFT);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(links + 1, fabric().linkCount());
        assertNotNull(fabric().findLink("leaf2:eth51"));
    }

    @Test
    void draggingADeviceMovesItOnTheGridAsOneUndoableStep(FxRobot robot) {
        zoomTo100On(robot, "leaf1");
        Layout.Point before = fabric().layout().position("leaf1");
        Point2D from = screenOf("leaf1");
        robot.drag(from, MouseButton.PRIMARY).moveBy(20, 0).moveBy(23, 31).drop();
        WaitForAsyncUtils.waitForFxEvents();
        Layout.Point after = fabric().layout().position("leaf1");
        // At 100 % the mouse moved (43, 31) world units; the device snaps to the 10-unit grid.
        assertEquals(Math.round((before.x() + 43) / 10) * 10.0, after.x(), 1e-9);
        assertEquals(Math.round((before.y() + 31) / 10) * 10.0, after.y(), 1e-9);
        assertEquals(1, doc.stack().undoDepth(), "a whole drag is one command");
        robot.press(KeyCode.CONTROL, KeyCode.Z).release(KeyCode.Z, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(before, fabric().layout().position("leaf1"));
    }

    @Test
    void deleteThenUndoRestoresTheFabricExactlyAndRedoDeletesAgain(FxRobot robot) {
        List<String> before = FabricSnapshot.of(fabric());
        robot.clickOn(screenOf("leaf3"));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(Set.of(fabric().device("leaf3")), doc.selection().devices());
        robot.type(KeyCode.DELETE);
        WaitForAsyncUtils.waitForFxEvents();
        assertNull(fabric().device("leaf3"));
        // leaf3 carried 8 server links and 2 uplinks.
        assertEquals(40 - 10, fabric().linkCount());
        assertTrue(doc.stack().isModified());
        robot.press(KeyCode.CONTROL, KeyCode.Z).release(KeyCode.Z, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(before, FabricSnapshot.of(fabric()));
        assertFalse(doc.stack().isModified(), "back to the opened state");
        robot.press(KeyCode.CONTROL, KeyCode.Y).release(KeyCode.Y, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertNull(fabric().device("leaf3"));
        assertEquals(30, fabric().linkCount());
    }

    @Test
    void shiftClickAddsToTheSelection(FxRobot robot) {
        robot.clickOn(screenOf("leaf1"));
        robot.press(KeyCode.SHIFT).clickOn(screenOf("leaf4")).release(KeyCode.SHIFT);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(Set.of("leaf1", "leaf4"), ids(doc.selection().devices()));
    }

    @Test
    void aRubberBandSelectsTheDevicesInsideIt(FxRobot robot) {
        // A band from above-left of leaf1 to below-right of leaf2, above the server row.
        Point2D l1 = canvas.centreOf(fabric().device("leaf1"));
        Point2D l2 = canvas.centreOf(fabric().device("leaf2"));
        double s = canvas.viewport().scale();
        Point2D start = screenOfLocal(l1.getX() - 70 * s, l1.getY() - 40 * s);
        Point2D end = screenOfLocal(l2.getX() + 70 * s, l2.getY() + 40 * s);
        robot.drag(start, MouseButton.PRIMARY).dropTo(end);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(Set.of("leaf1", "leaf2"), ids(doc.selection().devices()));
        assertTrue(doc.selection().links().isEmpty(), "no link joins leaf1 and leaf2");
        // A click on empty space clears it.
        robot.clickOn(start);
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(doc.selection().isEmpty());
    }

    @Test
    void wheelZoomKeepsThePointUnderTheCursorFixed(FxRobot robot) {
        Point2D local = canvas.centreOf(fabric().device("leaf2"));
        double wx = canvas.viewport().toWorldX(local.getX());
        double wy = canvas.viewport().toWorldY(local.getY());
        double scale = canvas.viewport().scale();
        robot.moveTo(canvas.localToScreen(local));
        robot.scroll(3, VerticalDirection.UP);
        WaitForAsyncUtils.waitForFxEvents();
        assertNotEquals(scale, canvas.viewport().scale(), 1e-9);
        // The mouse has not moved, so the world point under it must be the same after zooming
        // (to within the robot's whole-pixel mouse position: 1 px in world units).
        double tolerance = 1.0 / canvas.viewport().scale();
        assertEquals(wx, canvas.viewport().toWorldX(local.getX()), tolerance);
        assertEquals(wy, canvas.viewport().toWorldY(local.getY()), tolerance);
    }

    @Test
    void theCanvasPaintsADeviceAtItsPosition(FxRobot robot) {
        zoomTo100On(robot, "leaf1");
        Point2D c = canvas.centreOf(fabric().device("leaf1"));
        WritableImage[] shot = new WritableImage[1];
        robot.interact(() -> shot[0] = canvas.canvas().snapshot(null, null));
        // A leaf box is 100 x 36 at 100 %: 40 px left of the centre and 12 px down lies inside the
        // box, clear of the centred label.
        Color inside = shot[0].getPixelReader().getColor((int) (c.getX() - 40), (int) (c.getY() + 12));
        Color leafFill = FxPainter.fx(new DiagramStyle().fill(fabric().device("leaf1").role()));
        assertEquals(leafFill.getRed(), inside.getRed(), 0.02, "red of " + inside);
        assertEquals(leafFill.getGreen(), inside.getGreen(), 0.02, "green of " + inside);
        assertEquals(leafFill.getBlue(), inside.getBlue(), 0.02, "blue of " + inside);
        // 60 px above the leaf there is only background (rows are 250 units apart).
        Color above = shot[0].getPixelReader().getColor((int) c.getX() + 3, (int) (c.getY() - 60));
        assertNotEquals(leafFill, above);
    }

    @Test
    void enterInTheFindFieldStepsThroughPartialMatches(FxRobot robot) {
        // "srv3" matches srv3 exactly: found at once, even though srv30..srv32 also contain it.
        robot.clickOn("#find-device").write("srv3").type(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(Set.of("srv3"), ids(doc.selection().devices()));
        // "eaf" matches leaf1..leaf4 and nothing exactly: Enter steps leaf1, then leaf2.
        robot.doubleClickOn("#find-device").eraseText(4).write("eaf").type(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(Set.of("leaf1"), ids(doc.selection().devices()));
        robot.clickOn("#find-device").type(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(Set.of("leaf2"), ids(doc.selection().devices()));
    }

    @Test
    void findSelectsADeviceByNameAndCentresOnIt(FxRobot robot) {
        robot.clickOn("#find-device").write("srv17").type(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(Set.of("srv17"), ids(doc.selection().devices()));
        Point2D c = canvas.centreOf(fabric().device("srv17"));
        assertEquals(canvas.getWidth() / 2, c.getX(), 1.0);
        assertEquals(canvas.getHeight() / 2, c.getY(), 1.0);
    }

    private static Set<String> ids(Set<Device> ds) {
        return ds.stream().map(Device::id).collect(Collectors.toSet());
    }

    @Test
    void anInspectorEditIsOneUndoableCommand(FxRobot robot) {
        robot.clickOn(screenOf("leaf2"));
        WaitForAsyncUtils.waitForFxEvents();
        // The inspector's Rail row: type 3 and press Enter.
        robot.clickOn("#prop-rail").write("3").type(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(3, fabric().device("leaf2").rail());
        assertEquals("Set rail of leaf2", doc.stack().undoDescription());
        robot.interact(doc::undo);
        assertNull(fabric().device("leaf2").rail());
    }

    @Test
    void badInspectorInputChangesNothing(FxRobot robot) {
        robot.interact(() -> doc.selection().set(List.of(), List.of(fabric().findLink("srv1:nic0"))));
        WaitForAsyncUtils.waitForFxEvents();
        javafx.scene.control.TextField speed = robot.lookup("#prop-speed-gb-s").queryAs(
                javafx.scene.control.TextField.class);
        assertEquals("100", speed.getText());
        // 400G does not fit a link between two 100G ports.
        robot.clickOn(speed).eraseText(3).write("400").type(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(100, fabric().findLink("srv1:nic0").speedGbps());
        assertFalse(doc.stack().canUndo());
        assertTrue(speed.getStyle().contains("#d62728"), "the field turns red");
    }

    @Test
    void connectingASelectionCablesEachDeviceToEverySelectedDeviceOneTierUp(FxRobot robot) {
        int links = fabric().linkCount();
        robot.interact(() -> {
            doc.selection().set(List.of(fabric().device("leaf1"), fabric().device("leaf2"), fabric().device("spine1"),
                    fabric().device("spine2")), List.of());
            editor.connectSelected();
        });
        // 2 leaves x 2 spines = 4 new 400G links (each leaf already has one link to each spine).
        assertEquals(links + 4, fabric().linkCount());
        assertEquals(2, fabric().linksBetween(fabric().device("leaf1"), fabric().device("spine1")).size());
        robot.interact(doc::undo);
        assertEquals(links, fabric().linkCount(), "one undo step removes all four");
    }

    @Test
    void theTooltipOfALinkNamesItsPortsSpeedAndCable(FxRobot robot) {
        String text = canvas.describe(fabric().findLink("srv1:nic0"));
        assertEquals("srv1:nic0 ↔ leaf1:eth1\n100G · 3.0 m dac · up\nport speeds: 100G / 100G", text);
    }

    @Test
    void rightDragPansTheView(FxRobot robot) {
        double ox = canvas.viewport().offsetX();
        double oy = canvas.viewport().offsetY();
        Point2D start = screenOfLocal(100, 100);
        robot.drag(start, MouseButton.SECONDARY).moveBy(30, 0).moveBy(30, 20).drop();
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(ox + 60, canvas.viewport().offsetX(), 1.0);
        assertEquals(oy + 20, canvas.viewport().offsetY(), 1.0);
        assertTrue(doc.selection().isEmpty());
    }

    @Test
    void clickingTheMinimapCentresTheViewThere(FxRobot robot) {
        zoomTo100On(robot, "srv1");
        WaitForAsyncUtils.waitForFxEvents();
        // The minimap shows the whole fabric; srv32 is at the right end of the server row.
        Layout.Point target = fabric().layout().position("srv32");
        double[] mapPoint = new double[2];
        robot.interact(() -> {
            io.fabriclab.diagram.Viewport mv = new io.fabriclab.diagram.Viewport();
            mv.fit(canvas.geometry().extent(), canvas.minimap().getWidth(), canvas.minimap().getHeight(), 8);
            mapPoint[0] = mv.toScreenX(target.x());
            mapPoint[1] = mv.toScreenY(target.y());
        });
        robot.clickOn(canvas.minimap().localToScreen(mapPoint[0], mapPoint[1]));
        WaitForAsyncUtils.waitForFxEvents();
        // The view now centres on srv32, to within the minimap's resolution (one minimap pixel is
        // 1 / minimap scale world units; the whole classic fabric is ~1,900 units in 204 px, ~10 units).
        double cx = canvas.viewport().toWorldX(canvas.getWidth() / 2);
        double cy = canvas.viewport().toWorldY(canvas.getHeight() / 2);
        assertEquals(target.x(), cx, 15);
        assertEquals(target.y(), cy, 15);
        assertTrue(doc.selection().isEmpty(), "a minimap click does not select what lies under it on the canvas");
    }

    @Test
    void ctrlDDuplicatesTheSelectionWithTheLinksAmongIt(FxRobot robot) {
        robot.interact(() -> doc.selection().set(List.of(fabric().device("leaf4"), fabric().device("srv32")), List.of()));
        robot.interact(canvas::requestFocus);
        robot.press(KeyCode.CONTROL, KeyCode.D).release(KeyCode.D, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertNotNull(fabric().device("leaf5"));
        assertNotNull(fabric().device("srv33"));
        // srv32 is on leaf4's eth8, so the copy srv33 is on leaf5's eth8.
        assertNotNull(fabric().findLink("srv33:nic0--leaf5:eth8"));
        assertEquals(Set.of("leaf5", "srv33"), ids(doc.selection().devices()));
    }

    @Test
    void doubleClickingAFoldedRackZoomsInUntilItsServersUnfold(FxRobot robot) {
        // Zoom out until the servers fold (a 48-unit server narrower than 14 px: scale < 0.29).
        robot.interact(() -> canvas.zoomAt(canvas.getWidth() / 2, canvas.getHeight() / 2, 0.2 / canvas.viewport().scale()));
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(canvas.lastStats().serversFolded());
        Point2D rack = canvas.centreOf(fabric().device("srv12")); // in leaf2's rack
        // The double click as the canvas receives it (clickCount 2): a robot's two clicks can land
        // further apart than the platform's double-click interval on a loaded machine.
        Point2D screen = canvas.localToScreen(rack);
        Point2D scene = canvas.localToScene(rack); // the event's x/y are scene coordinates until delivered
        robot.interact(() -> javafx.event.Event.fireEvent(canvas, new javafx.scene.input.MouseEvent(
                javafx.scene.input.MouseEvent.MOUSE_CLICKED, scene.getX(), scene.getY(), screen.getX(), screen.getY(),
                MouseButton.PRIMARY, 2, false, false, false, false, false, false, false, false, false, true, null)));
        WaitForAsyncUtils.waitForFxEvents();
        assertFalse(io.fabriclab.diagram.FabricPainter.foldsServersAt(canvas.viewport().scale(),
                io.fabriclab.diagram.FabricPainter.FoldMode.AUTO), "zoomed in to " + canvas.viewport().scale());
        assertEquals(8, doc.selection().devices().size(), "the rack's 8 servers are selected");
        assertTrue(doc.selection().contains(fabric().device("srv12")));
    }

    @Test
    void closingAsksOnlyWhenThereAreUnsavedChanges(FxRobot robot) {
        List<String> asked = new java.util.ArrayList<>();
        boolean[] answer = {false};
        editor.setDialogService((header, text) -> {
            asked.add(header);
            return answer[0];
        });
        assertTrue(editor.confirmDiscard().join(), "nothing changed: no question");
        assertTrue(asked.isEmpty());
        robot.interact(() -> canvas.deleteSelection()); // empty selection: still nothing changed
        robot.interact(() -> doc.selection().set(List.of(fabric().device("srv5")), List.of()));
        robot.interact(() -> canvas.deleteSelection());
        assertFalse(editor.confirmDiscard().join(), "the user said no");
        answer[0] = true;
        assertTrue(editor.confirmDiscard().join());
        assertEquals(List.of("Unsaved changes", "Unsaved changes"), asked);
        robot.interact(doc::undo);
        assertTrue(editor.confirmDiscard().join(), "undone back to the opened state");
        assertEquals(2, asked.size());
    }

    @Test
    void holdingSpaceTurnsALeftDragIntoAPan(FxRobot robot) {
        double ox = canvas.viewport().offsetX();
        Point2D start = canvas.localToScreen(canvas.centreOf(fabric().device("leaf1")));
        Layout.Point leafBefore = fabric().layout().position("leaf1");
        robot.clickOn(screenOfLocal(20, 20)); // focus the canvas on empty space
        robot.press(KeyCode.SPACE);
        robot.drag(start, MouseButton.PRIMARY).moveBy(25, 0).moveBy(25, 0).drop();
        robot.release(KeyCode.SPACE);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(ox + 50, canvas.viewport().offsetX(), 1.0);
        assertEquals(leafBefore, fabric().layout().position("leaf1"), "the device under the cursor did not move");
    }

    @Test
    void saveWritesTheFileMarksTheDocumentCleanAndOpenShowsItAgain(FxRobot robot) throws Exception {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory(scratch, "fabriclab-ui");
        java.nio.file.Path file = dir.resolve("classic.json");
        robot.interact(() -> doc.selection().set(List.of(fabric().device("srv5")), List.of()));
        robot.interact(canvas::deleteSelection);
        assertTrue(doc.stack().isModified());
        List<java.util.concurrent.CompletableFuture<Boolean>> saved = new java.util.ArrayList<>();
        robot.interact(() -> saved.add(editor.saveTo(file))); // written in the background
        assertTrue(saved.get(0).get(1, java.util.concurrent.TimeUnit.MINUTES));
        assertFalse(doc.stack().isModified(), "saved: clean");
        assertEquals(file, doc.file());
        Fabric back = io.fabriclab.io.FabricFiles.load(file);
        assertEquals(37, back.devices().size(), "38 - srv5");
        assertEquals(39, back.linkCount());
        assertEquals(fabric().layout().position("leaf2"), back.layout().position("leaf2"), "positions are saved");

        Scene scene = editor.getScene();
        robot.interact(() -> editor.open(file));
        WaitForAsyncUtils.waitFor(10, java.util.concurrent.TimeUnit.SECONDS, () -> scene.getRoot() != editor);
        FabricEditor reopened = (FabricEditor) scene.getRoot();
        assertEquals(37, reopened.document().fabric().devices().size());
        assertEquals(file, reopened.document().file());
        assertFalse(reopened.document().stack().isModified());
    }

    @Test
    void aBadFileLeavesTheEditorAsItWasAndSaysWhy(FxRobot robot) throws Exception {
        java.nio.file.Path file = java.nio.file.Files.createTempFile(scratch, "broken", ".json");
        java.nio.file.Files.writeString(file, "{ \"schemaVersion\": ");
        Scene scene = editor.getScene();
        robot.interact(() -> editor.open(file));
        WaitForAsyncUtils.waitFor(10, java.util.concurrent.TimeUnit.SECONDS,
                () -> editor.statusBar().getText().startsWith("Cannot open"));
        assertSame(editor, scene.getRoot());
        assertTrue(editor.statusBar().getText().contains(file.getFileName().toString()));
    }

    @Test
    void theProblemsPanelShowsLintFindingsAfterAnEdit(FxRobot robot) throws Exception {
        robot.interact(() -> doc.selection().set(List.of(), List.of(fabric().findLink("leaf1:eth49"))));
        robot.interact(canvas::deleteSelection);
        // Re-checked half a second after the last edit.
        // leaf1 now has 800G down and 400G up: lint warns that it is oversubscribed (it did not before).
        WaitForAsyncUtils.waitFor(5, java.util.concurrent.TimeUnit.SECONDS,
                () -> editor.problems().findings().stream().anyMatch(f -> f.code().equals("OVERSUBSCRIBED")
                        && f.subject().equals("leaf1")));
        assertEquals(io.fabriclab.topology.Lint.check(fabric()), editor.problems().findings());
        assertTrue(editor.problems().getText().startsWith("Problems: "));
    }
}
