package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.prefs.Preferences;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.diagram.DiagramStyle;
import io.fabriclab.edit.FabricSnapshot;
import io.fabriclab.io.ContainerlabYaml;
import io.fabriclab.io.FabricFiles;
import io.fabriclab.io.FabricJson;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;
import io.fabriclab.model.Link;
import io.fabriclab.routing.EcmpPaths;
import io.fabriclab.topology.DeadlockCheck;
import io.fabriclab.topology.Finding;
import javafx.geometry.Point2D;
import javafx.scene.Scene;
import javafx.scene.control.ListCell;
import javafx.scene.input.KeyCode;
import javafx.scene.input.MouseButton;
import javafx.scene.paint.Color;
import javafx.stage.Stage;

/**
 * The editor's workflows end to end, headless (TestFX on Monocle): templates, drawing, undo/redo
 * across every kind of edit, clipboard, files, broken files, problems, analyses, recovery.
 */
@ExtendWith(SharedStageExtension.class)
class EditorWorkflowTest {
    /** Scratch files of this test, removed after it (never the system temp directory: issue 35 item 16). */
    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path scratch;

    private FabricDocument doc;
    private FabricEditor editor;
    private FabricCanvas canvas;
    /** What the editor showed through its dialog service: "errors:", "report:" and "confirm:" entries. */
    private final List<String> shown = new ArrayList<>();
    private boolean answer = true;

    @Start
    void start(Stage stage) {
        doc = new FabricDocument(DemoFabric.classic(), null);
        editor = new FabricEditor(doc);
        canvas = editor.canvas();
        editor.setDialogService(new DialogService() {
            @Override
            public boolean confirm(String header, String text) {
                shown.add("confirm: " + header + ": " + text);
                return answer;
            }

            @Override
            public void showErrors(String header, String details) {
                shown.add("errors: " + header + "\n" + details);
            }

            @Override
            public void showReport(String title, String text) {
                shown.add("report: " + title + "\n" + text);
            }
        });
        editor.setRecentFiles(new RecentFiles(Preferences.userRoot().node("io/fabriclab/editor-tests/"
                + System.nanoTime())));
        stage.setScene(new Scene(editor, 1200, 780));
        stage.show();
    }

    private Fabric fabric() {
        return doc.fabric();
    }

    private Point2D screenOf(String id) {
        return canvas.localToScreen(canvas.centreOf(fabric().device(id)));
    }

    private void ctrl(FxRobot robot, KeyCode k) {
        robot.press(KeyCode.CONTROL, k).release(k, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
    }

    // ----- New from template ---------------------------------------------------------------------

    @Test
    void newFromTemplatePreviewsTheCountsAndOkReplacesTheFabricAsOneUndoStep(FxRobot robot) throws Exception {
        Fabric classic = fabric();
        List<String> before = FabricSnapshot.of(classic);
        TemplateDialog[] dlg = new TemplateDialog[1];
        robot.interact(() -> {
            dlg[0] = editor.openTemplateDialog();
            dlg[0].show(editor::applyTemplate);
        });
        // Leaf-spine defaults: 4 leaves x 8 servers x one 100G NIC; 2 spines, one 400G uplink per pair.
        // Switches 4 + 2 = 6; cables 32 server + 4 x 2 uplinks = 40; GPUs 32 (one per NIC);
        // each leaf has 8 x 100 = 800G down and 2 x 400 = 800G up: 1:1.
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> dlg[0].current() != null
                && robot.lookup("#template-preview").queryLabeled().getText().startsWith("Switches"));
        String p = robot.lookup("#template-preview").queryLabeled().getText();
        assertTrue(p.contains("Switches: 6 (2 spine, 4 leaf)") || p.contains("Switches: 6 (4 leaf, 2 spine)"), p);
        assertTrue(p.contains("Cables: 40"), p);
        assertTrue(p.contains("GPUs: 32"), p);
        assertTrue(p.contains("worst leaf 1:1"), p);
        assertSame(classic, fabric(), "nothing is created before OK");

        // Rail-optimized, 2 units: 2 x 8 rails = 16 leaves, each with 32 server ports and 32 uplinks
        // (non-blocking); 16 x 32 = 512 uplinks over 64-port spines = 8 spines. Cables: 2 x 32
        // servers x 8 NICs = 512 plus 512 uplinks = 1,024. GPUs 2 x 32 x 8 = 512. Leaves 1:1.
        robot.interact(() -> {
            dlg[0].selectKind(1);
            dlg[0].railUnits.getValueFactory().setValue(2);
        });
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS,
                () -> dlg[0].current() != null && dlg[0].current().kind().equals("rail-optimized 2 units")
                        && robot.lookup("#template-preview").queryLabeled().getText().startsWith("Switches"));
        p = robot.lookup("#template-preview").queryLabeled().getText();
        assertTrue(p.contains("Switches: 24"), p);
        assertTrue(p.contains("Cables: 1,024"), p);
        assertTrue(p.contains("GPUs: 512"), p);
        assertTrue(p.contains("worst leaf 1:1"), p);

        robot.clickOn("#template-ok");
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(24 + 64, fabric().devices().size());
        assertEquals(1024, fabric().linkCount());
        assertEquals(512, fabric().gpuCount());
        assertTrue(doc.stack().isModified());
        assertEquals(fabric().devices().size(), fabric().layout().positions().size(), "every device is placed");

        ctrl(robot, KeyCode.Z);
        assertSame(classic, fabric(), "undo brings back the very fabric that was there");
        assertEquals(before, FabricSnapshot.of(fabric()));
        assertFalse(doc.stack().isModified());
        ctrl(robot, KeyCode.Y);
        assertEquals(512, fabric().gpuCount(), "redo generates nothing new: the same fabric comes back");
    }

    // ----- drawing, undo and redo across everything ---------------------------------------------

    @Test
    void addLinkMoveDeleteAndATemplateRunUndoAndRedoStepByStep(FxRobot robot) {
        List<List<String>> states = new ArrayList<>();
        states.add(FabricSnapshot.of(fabric()));

        // 1. A generator run: a small leaf-spine (2 leaves, 1 spine, 2 servers per leaf) on 8-port
        // switches, so each leaf keeps 5 free 100G ports.
        robot.interact(() -> editor.applyTemplate(TemplateDialog.describe("leaf-spine 2x1",
                io.fabriclab.topology.LeafSpineGenerator.generate(new io.fabriclab.topology.LeafSpineParams(2, 1, 2, 1,
                        100, 1, 400, 3.0, 30.0, 8)))));
        states.add(FabricSnapshot.of(fabric()));
        assertEquals(2 + 1 + 4, fabric().devices().size());

        // 2. Add a spine from the palette, dropped on empty canvas.
        // The top-left corner is empty: a fitted view keeps 40 px of margin round the fabric.
        robot.drag("#palette-spine", MouseButton.PRIMARY).dropTo(canvas.localToScreen(25, 25));
        WaitForAsyncUtils.waitForFxEvents();
        Device added = doc.selection().devices().iterator().next();
        assertEquals("spine2", added.id());
        states.add(FabricSnapshot.of(fabric()));

        // 3. Link it to leaf1 with the link tool: leaf1's free ports are 100G, the new spine's 400G, so the
        // link takes the first free port of each and runs at 100G.
        String leaf = "leaf1";
        robot.clickOn("#tool-link");
        robot.drag(screenOf(leaf), MouseButton.PRIMARY).dropTo(screenOf("spine2"));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(1, fabric().linksBetween(fabric().device(leaf), added).size(), "one new link");
        assertEquals(100, fabric().linksBetween(fabric().device(leaf), added).get(0).speedGbps());
        states.add(FabricSnapshot.of(fabric()));
        robot.interact(() -> canvas.toolProperty().set(EditorTool.SELECT));

        // 4. Move the new spine by dragging it.
        Layout.Point was = fabric().layout().position("spine2");
        robot.drag(screenOf("spine2"), MouseButton.PRIMARY).moveBy(30, 0).moveBy(30, 40).drop();
        WaitForAsyncUtils.waitForFxEvents();
        assertNotEquals(was, fabric().layout().position("spine2"));
        states.add(FabricSnapshot.of(fabric()));

        // 5. Delete it (it takes its link along).
        robot.interact(() -> doc.selection().set(List.of(added), List.of()));
        robot.interact(canvas::requestFocus);
        robot.type(KeyCode.DELETE);
        WaitForAsyncUtils.waitForFxEvents();
        assertNull(fabric().device("spine2"));
        states.add(FabricSnapshot.of(fabric()));

        // Undo walks back through every state, redo forward again.
        for (int i = states.size() - 2; i >= 0; i--) {
            ctrl(robot, KeyCode.Z);
            assertEquals(states.get(i), FabricSnapshot.of(fabric()), "after undo to state " + i);
        }
        assertFalse(doc.stack().canUndo());
        for (int i = 1; i < states.size(); i++) {
            ctrl(robot, KeyCode.Y);
            assertEquals(states.get(i), FabricSnapshot.of(fabric()), "after redo to state " + i);
        }
    }

    // ----- clipboard -----------------------------------------------------------------------------

    @Test
    void copyPasteKeepsTheLinksInsideTheSelectionAndCutThenPasteBringsDevicesBack(FxRobot robot) {
        robot.interact(() -> doc.selection().set(List.of(fabric().device("leaf4"), fabric().device("srv31"),
                fabric().device("srv32")), List.of()));
        robot.interact(canvas::requestFocus);
        ctrl(robot, KeyCode.C);
        ctrl(robot, KeyCode.V);
        // Copies: leaf5, srv33, srv34; srv31/srv32 hang off leaf4's eth7/eth8, so the copies hang off
        // leaf5's eth7/eth8. leaf4's uplinks go to spines outside the selection: not copied.
        assertNotNull(fabric().findLink("srv33:nic0--leaf5:eth7"));
        assertNotNull(fabric().findLink("srv34:nic0--leaf5:eth8"));
        assertEquals(2, fabric().linksOf(fabric().device("leaf5")).size());
        Layout.Point l4 = fabric().layout().position("leaf4");
        assertEquals(new Layout.Point(l4.x() + 40, l4.y() + 40), fabric().layout().position("leaf5"),
                "the first paste sits 4 grid steps down-right");
        assertEquals(Set.of("leaf5", "srv33", "srv34"), ids(doc.selection().devices()));

        // Cut the copies, then paste: they come back with their link, in their old place.
        List<String> withCopies = FabricSnapshot.of(fabric());
        ctrl(robot, KeyCode.X);
        assertNull(fabric().device("leaf5"));
        ctrl(robot, KeyCode.V);
        assertEquals(withCopies, FabricSnapshot.of(fabric()), "cut + paste restores ids, ports, links and positions");
        ctrl(robot, KeyCode.Z);
        assertNull(fabric().device("leaf5"), "undo of the paste");
        ctrl(robot, KeyCode.Z);
        assertEquals(withCopies, FabricSnapshot.of(fabric()), "undo of the cut");
    }

    // ----- files -------------------------------------------------------------------------------

    @Test
    void saveAndReopenGiveIdenticalContentAndTheFileIsInOpenRecent(FxRobot robot) throws Exception {
        Path dir = java.nio.file.Files.createTempDirectory(scratch, "fabriclab-editor");
        Path file = dir.resolve("classic.json");
        // Some edits the file must keep: a move, a folded rack and a renamed fabric.
        robot.interact(() -> {
            doc.selection().set(List.of(fabric().device("srv1")), List.of());
            editor.foldSelection(true);
            fabric().layout().setPosition("spine1", 123, 45);
        });
        assertEquals(Set.of("rack leaf1"), fabric().layout().foldedGroups());
        List<String> snapshot = FabricSnapshot.of(fabric());
        String json = FabricJson.write(fabric());
        List<java.util.concurrent.CompletableFuture<Boolean>> ok = new java.util.ArrayList<>();
        robot.interact(() -> ok.add(editor.saveTo(file))); // written in the background
        assertTrue(ok.get(0).get(1, TimeUnit.MINUTES));
        assertEquals(List.of(file.toAbsolutePath().normalize()), editor.recentFiles());

        Scene scene = editor.getScene();
        robot.interact(() -> editor.open(file));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> scene.getRoot() != editor);
        FabricEditor reopened = (FabricEditor) scene.getRoot();
        Fabric back = reopened.document().fabric();
        assertEquals(snapshot, FabricSnapshot.of(back), "devices, ports, links and positions");
        assertEquals(json, FabricJson.write(back), "the whole file, layout and folded groups included");
        assertEquals(Set.of("rack leaf1"), back.layout().foldedGroups());
        assertFalse(reopened.document().stack().isModified());
    }

    @Test
    void exportContainerlabWritesTheTopologyAndTheAnnotationsSideFileWithPositions(FxRobot robot) throws Exception {
        Path dir = java.nio.file.Files.createTempDirectory(scratch, "fabriclab-clab");
        Path lab = dir.resolve("classic.clab.yml");
        assertTrue(fx(robot, () -> editor.exportTo(lab)).get(30, TimeUnit.SECONDS));
        Path ann = dir.resolve("classic.clab.yml.annotations.json");
        assertTrue(Files.isRegularFile(ann), "the TopoViewer side file");
        Fabric back = ContainerlabYaml.read(lab);
        assertEquals(fabric().layout().position("leaf3"), back.layout().position("leaf3"));
        assertEquals(fabric().linkCount(), back.linkCount());
        assertFalse(doc.stack().isModified(), "an export is not a save");

        // Importing it is one undoable step in this window.
        Fabric classic = fabric();
        robot.interact(() -> editor.importContainerlab(lab));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fabric() != classic);
        assertEquals(classic.devices().size(), fabric().devices().size());
        assertNull(doc.file(), "an import has no file of its own yet: Save asks where");
        ctrl(robot, KeyCode.Z);
        assertSame(classic, fabric());

        Path graphml = dir.resolve("classic.graphml");
        assertTrue(fx(robot, () -> editor.exportTo(graphml)).get(30, TimeUnit.SECONDS));
        assertTrue(Files.readString(graphml).contains("<graphml"));
    }

    @Test
    void aBrokenFileShowsEveryErrorAndThePreviousFabricSurvives(FxRobot robot) throws Exception {
        List<String> before = FabricSnapshot.of(fabric());
        // Two mistakes in one file: a device with an unknown role and a link at an impossible speed.
        Path bad = java.nio.file.Files.createTempFile(scratch, "broken", ".json");
        String text = FabricJson.write(DemoFabric.classic()).replaceFirst("\"role\": \"spine\"", "\"role\": \"spline\"")
                .replaceFirst("\"speedGbps\": 400", "\"speedGbps\": 123");
        Files.writeString(bad, text);
        int problems = 0;
        try {
            FabricFiles.load(bad);
        } catch (io.fabriclab.io.InputException e) {
            problems = e.problems().size();
        }
        assertTrue(problems >= 2, "the reader collects both problems, found " + problems);

        Scene scene = editor.getScene();
        robot.interact(() -> editor.open(bad));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> shown.stream().anyMatch(s -> s.startsWith("errors:")));
        String dialog = shown.stream().filter(s -> s.startsWith("errors:")).findFirst().orElseThrow();
        assertTrue(dialog.contains(bad.toString()), dialog);
        assertTrue(dialog.contains("spline"), "the bad role is named: " + dialog);
        assertTrue(dialog.contains("123"), "the bad speed is named: " + dialog);
        assertTrue(dialog.contains("$.devices["), "with its JSON path: " + dialog);
        assertTrue(dialog.contains("unchanged"), dialog);
        assertSame(editor, scene.getRoot(), "the window still shows the same editor");
        assertEquals(before, FabricSnapshot.of(fabric()), "and the same fabric");
        assertTrue(editor.statusBar().getText().startsWith("Cannot open"));
    }

    // ----- problems, status, analyses ---------------------------------------------------------

    @Test
    void clickingAProblemSelectsAndCentresTheCulprit(FxRobot robot) throws Exception {
        // Without leaf2's uplink to spine1, leaf2 has 800G down and 400G up: lint says OVERSUBSCRIBED leaf2.
        robot.interact(() -> doc.selection().set(List.of(), List.of(fabric().findLink("leaf2:eth49"))));
        robot.interact(canvas::deleteSelection);
        robot.interact(() -> doc.selection().clear());
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> editor.problems().findings().stream()
                .anyMatch(f -> f.code().equals("OVERSUBSCRIBED") && f.subject().equals("leaf2")));
        robot.interact(() -> {
            editor.problems().setExpanded(true);
            Finding culprit = editor.problems().findings().stream().filter(f -> f.subject().equals("leaf2")
                    && f.code().equals("OVERSUBSCRIBED")).findFirst().orElseThrow();
            editor.problems().list().scrollTo(editor.problems().rowOf(culprit));
        });
        WaitForAsyncUtils.waitForFxEvents();
        @SuppressWarnings("unchecked")
        ListCell<Finding.Group> cell = robot.lookup(".list-cell").match(n -> n instanceof ListCell<?> c
                && c.getItem() instanceof Finding.Group g && g.subjects().get(0).equals("leaf2")
                && g.code().equals("OVERSUBSCRIBED")).queryAs(ListCell.class);
        robot.clickOn(cell);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(Set.of("leaf2"), ids(doc.selection().devices()));
        Point2D c = canvas.centreOf(fabric().device("leaf2"));
        assertEquals(canvas.getWidth() / 2, c.getX(), 1.0, "centred");
        assertEquals(canvas.getHeight() / 2, c.getY(), 1.0, "centred");
        // The status bar's oversubscription follows the same edit: 800G down / 400G up.
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> editor.oversubscriptionText().equals(
                "oversubscription 2:1 (worst leaf leaf2)"));
    }

    @Test
    void selectingTwoServersHighlightsEveryEcmpPathBetweenTheirNics(FxRobot robot) throws Exception {
        // srv1 hangs off leaf1, srv9 off leaf2; leaf1 and leaf2 each have one uplink to each of the 2
        // spines, so there are 2 equal-cost paths: nic0 - leaf1 - spine{1,2} - leaf2 - nic0, 4 links long.
        robot.clickOn(screenOf("srv1"));
        robot.press(KeyCode.SHIFT).clickOn(screenOf("srv9")).release(KeyCode.SHIFT);
        // The routing is computed in the background on a copy: the paths show when it is done.
        WaitForAsyncUtils.waitFor(1, TimeUnit.MINUTES, () -> editor.shownPaths() != null);
        EcmpPaths p = editor.shownPaths();
        assertNotNull(p);
        assertEquals(2, p.count());
        assertEquals(4, p.hops());
        assertEquals(Set.of("srv1:nic0--leaf1:eth1", "leaf1:eth49--spine1:eth1", "leaf1:eth50--spine2:eth1",
                "leaf2:eth49--spine1:eth2", "leaf2:eth50--spine2:eth2", "srv9:nic0--leaf2:eth1"),
                p.links().stream().map(Link::id).collect(Collectors.toSet()));
        assertEquals(p.links(), canvas.painter().highlightedLinks(), "and they are what the canvas highlights");
        assertTrue(editor.statusBar().getText().contains("2 ECMP paths"), editor.statusBar().getText());
        // srv1 and srv2 share leaf1: one path of two links.
        robot.interact(() -> doc.selection().set(List.of(fabric().device("srv1"), fabric().device("srv2")), List.of()));
        WaitForAsyncUtils.waitFor(1, TimeUnit.MINUTES,
                () -> editor.shownPaths() != null && editor.shownPaths().to().device() == fabric().device("srv2"));
        assertEquals(1, editor.shownPaths().count());
        assertEquals(2, editor.shownPaths().hops());
        robot.interact(() -> doc.selection().clear());
        assertNull(editor.shownPaths());
        assertTrue(canvas.painter().highlightedLinks().isEmpty());
    }

    @Test
    void failingALinkIsUndoableAndTheDeadlockCheckHighlightsTheCycleItCreates(FxRobot robot) throws Exception {
        Path example = Path.of("resources/examples/deadlock-after-failure.json");
        Scene scene = editor.getScene();
        robot.interact(() -> editor.open(example));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> scene.getRoot() != editor);
        FabricEditor ed = (FabricEditor) scene.getRoot();
        List<String> reports = new ArrayList<>();
        ed.setDialogService(new DialogService() {
            @Override
            public boolean confirm(String header, String text) {
                return true;
            }

            @Override
            public void showReport(String title, String text) {
                reports.add(title + "\n" + text);
            }
        });
        Fabric f = ed.document().fabric();
        DeadlockCheck.Result[] r = new DeadlockCheck.Result[1];
        r[0] = fx(robot, ed::checkDeadlocks).get(30, TimeUnit.SECONDS);
        assertTrue(r[0].deadlockFree(), "as drawn, up-down routing has no cycle");
        // The file's own description: failing leaf3:eth2--spine2:eth3 creates a cyclic buffer dependency.
        Link l = f.link("leaf3:eth2--spine2:eth3");
        assertNotNull(l);
        fx(robot, () -> ed.failLink(l)).get(30, TimeUnit.SECONDS);
        assertFalse(l.isUp());
        assertTrue(reports.get(reports.size() - 1).startsWith("Failure of leaf3:eth2--spine2:eth3"));
        r[0] = fx(robot, ed::checkDeadlocks).get(30, TimeUnit.SECONDS);
        assertFalse(r[0].deadlockFree());
        assertFalse(ed.canvas().painter().highlightedLinks().isEmpty(), "the cycle's links are highlighted");
        assertTrue(reports.get(reports.size() - 1).contains("PFC can deadlock"));
        robot.interact(ed.document()::undo);
        assertTrue(l.isUp(), "undo restores the link");
        r[0] = fx(robot, ed::checkDeadlocks).get(30, TimeUnit.SECONDS);
        assertTrue(r[0].deadlockFree());
    }

    @Test
    void multiEditSetsAPropertyOnEverySelectedDeviceInOneUndoStep(FxRobot robot) {
        robot.interact(() -> doc.selection().set(List.of(fabric().device("leaf1"), fabric().device("leaf2"),
                fabric().device("leaf3")), List.of()));
        WaitForAsyncUtils.waitForFxEvents();
        // All three share the model "48 x 100G + 8 x 400G", so the row shows it.
        javafx.scene.control.TextField model = robot.lookup("#prop-model").queryAs(javafx.scene.control.TextField.class);
        assertEquals("48 x 100G + 8 x 400G", model.getText());
        robot.doubleClickOn(model).press(KeyCode.CONTROL, KeyCode.A).release(KeyCode.A, KeyCode.CONTROL)
                .write("Tomahawk-5").type(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
        for (String id : List.of("leaf1", "leaf2", "leaf3")) {
            assertEquals("Tomahawk-5", fabric().device(id).model());
        }
        assertEquals("48 x 100G + 8 x 400G", fabric().device("leaf4").model(), "not selected: unchanged");
        assertEquals(1, doc.stack().undoDepth());
        robot.interact(doc::undo);
        for (String id : List.of("leaf1", "leaf2", "leaf3")) {
            assertEquals("48 x 100G + 8 x 400G", fabric().device(id).model());
        }
    }

    @Test
    void aLinksPortIsEditableAfterDrawingAndOnlyAFreePortIsAccepted(FxRobot robot) {
        // srv1:nic0 is on leaf1:eth1; leaf1's eth1..eth8 carry servers, eth9..eth48 are free 100G ports.
        Link l = fabric().findLink("srv1:nic0");
        robot.interact(() -> doc.selection().set(List.of(), List.of(l)));
        WaitForAsyncUtils.waitForFxEvents();
        javafx.scene.control.TextField portB = robot.lookup("#prop-port-b").queryAs(javafx.scene.control.TextField.class);
        assertEquals("eth1", portB.getText());
        robot.doubleClickOn(portB).press(KeyCode.CONTROL, KeyCode.A).release(KeyCode.A, KeyCode.CONTROL)
                .write("eth2").type(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
        assertNotNull(fabric().findLink("srv1:nic0--leaf1:eth1"), "eth2 carries srv2: refused, nothing changed");
        assertEquals(0, doc.stack().undoDepth());
        portB = robot.lookup("#prop-port-b").queryAs(javafx.scene.control.TextField.class);
        robot.doubleClickOn(portB).press(KeyCode.CONTROL, KeyCode.A).release(KeyCode.A, KeyCode.CONTROL)
                .write("eth40").type(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
        Link moved = fabric().findLink("srv1:nic0");
        assertEquals("leaf1:eth40", moved.opposite(moved.a().device() == fabric().device("srv1") ? moved.a() : moved.b())
                .ref());
        assertEquals(100, moved.speedGbps());
        assertTrue(fabric().isFree(fabric().port("leaf1:eth1")));
        robot.interact(doc::undo);
        assertEquals("srv1:nic0--leaf1:eth1", fabric().findLink("srv1:nic0").id());
    }

    // ----- recovery, theme ---------------------------------------------------------------------

    @Test
    void autosaveWritesARecoveryFileThatANewSessionOffersToRestore(FxRobot robot) throws Exception {
        Path dir = java.nio.file.Files.createTempDirectory(scratch, "fabriclab-recovery");
        // A process that has finished stands for the session that crashed.
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        AutosaveRecovery crashed = new AutosaveRecovery(dir, gone.pid());
        robot.interact(() -> editor.setRecovery(crashed));
        robot.interact(editor::autosaveNow);
        assertFalse(Files.exists(crashed.jsonFile()), "nothing unsaved: nothing written");
        robot.interact(() -> doc.selection().set(List.of(fabric().device("srv7")), List.of()));
        robot.interact(canvas::deleteSelection);
        robot.interact(editor::autosaveNow);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> Files.exists(crashed.jsonFile()));
        List<String> edited = FabricSnapshot.of(fabric());

        // The next session (this process) finds the orphan and, told yes, restores it as one undo step.
        FabricDocument fresh = new FabricDocument(DemoFabric.classic(), null);
        FabricEditor next = new FabricEditor(fresh);
        next.setDialogService((header, text) -> {
            shown.add("confirm: " + header);
            return true;
        });
        AutosaveRecovery mine = new AutosaveRecovery(dir, ProcessHandle.current().pid());
        next.setRecovery(mine);
        List<java.util.concurrent.CompletableFuture<Boolean>> restored = new ArrayList<>();
        robot.interact(() -> restored.add(next.offerRecovery())); // the autosave is read in the background
        assertTrue(restored.get(0).get(1, TimeUnit.MINUTES));
        assertTrue(shown.contains("confirm: Restore unsaved work?"));
        assertEquals(edited, FabricSnapshot.of(fresh.fabric()));
        assertTrue(fresh.stack().isModified(), "restored work is unsaved until saved");
        assertFalse(Files.exists(crashed.jsonFile()), "offered once");
        // Kept (as this session's recovery file) until the restored fabric is safely saved.
        assertTrue(Files.exists(mine.jsonFile()), "the autosave survives until the save");
        Path saved = dir.resolve("restored.json");
        List<java.util.concurrent.CompletableFuture<Boolean>> ok = new java.util.ArrayList<>();
        robot.interact(() -> ok.add(next.saveTo(saved))); // written in the background
        assertTrue(ok.get(0).get(1, TimeUnit.MINUTES));
        assertFalse(Files.exists(mine.jsonFile()), "saved: the autosave goes");
    }

    @Test
    void theDarkThemeRepaintsTheCanvasBackground(FxRobot robot) {
        Color light = pixel(robot, 5, 5);
        robot.interact(() -> editor.setTheme(DiagramStyle.Theme.DARK));
        WaitForAsyncUtils.waitForFxEvents();
        Color dark = pixel(robot, 5, 5);
        // #f6f7f9 light, #1e2227 dark (a grid line may cross the corner: compare brightness only).
        assertTrue(light.getBrightness() > 0.85, "light " + light);
        assertTrue(dark.getBrightness() < 0.3, "dark " + dark);
    }

    private Color pixel(FxRobot robot, int x, int y) {
        Color[] c = new Color[1];
        robot.interact(() -> {
            canvas.redraw();
            c[0] = canvas.canvas().snapshot(null, null).getPixelReader().getColor(x, y);
        });
        return c[0];
    }

    private static Set<String> ids(Set<Device> ds) {
        return ds.stream().map(Device::id).collect(Collectors.toSet());
    }

    /** Starts background work on the FX thread and hands back its future (waited on outside it). */
    private static <T> java.util.concurrent.CompletableFuture<T> fx(FxRobot robot,
            java.util.function.Supplier<java.util.concurrent.CompletableFuture<T>> start) {
        List<java.util.concurrent.CompletableFuture<T>> f = new ArrayList<>();
        robot.interact(() -> f.add(start.get()));
        return f.get(0);
    }
}
