package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.io.FabricFiles;
import io.fabriclab.model.Fabric;
import io.fabriclab.ui.live.LivePreset;
import javafx.scene.Scene;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCombination;
import javafx.stage.Stage;
import javafx.stage.Window;

/** Help > User Guide, Keyboard Shortcuts and Welcome…: what each window shows and what its buttons do. */
@ExtendWith(ApplicationExtension.class)
class HelpWindowsTest {
    private FabricEditor editor;
    private final List<String> errors = new ArrayList<>();

    @Start
    void start(Stage stage) {
        // An empty fabric to start from, so opening the example visibly replaces it.
        editor = new FabricEditor(new FabricDocument(new Fabric("untitled"), null));
        editor.setDialogService(new DialogService() {
            @Override
            public boolean confirm(String header, String text) {
                return true;
            }

            @Override
            public void showErrors(String header, String details) {
                errors.add(header + ": " + details);
            }
        });
        stage.setScene(new Scene(editor, 900, 600));
        stage.show();
    }

    private MenuItem helpItem(String id) {
        Menu help = editor.menuBar().getMenus().stream().filter(x -> x.getText().equals("Help")).findFirst().orElseThrow();
        return help.getItems().stream().filter(i -> id.equals(i.getId())).findFirst().orElseThrow();
    }

    private static MenuItem find(List<MenuItem> items, String text) {
        for (MenuItem i : items) {
            if (text.equals(i.getText())) {
                return i;
            }
            if (i instanceof Menu m) {
                MenuItem inner = find(m.getItems(), text);
                if (inner != null) {
                    return inner;
                }
            }
        }
        return null;
    }

    private MenuItem menuItem(String menu, String text) {
        Menu m = editor.menuBar().getMenus().stream().filter(x -> x.getText().equals(menu)).findFirst().orElseThrow();
        MenuItem i = find(m.getItems(), text);
        assertNotNull(i, menu + " > " + text);
        return i;
    }

    @SuppressWarnings("unchecked")
    private TableView<HelpWindows.Shortcut> shortcutsTable(FxRobot robot) {
        robot.interact(helpItem("menu-shortcuts")::fire);
        Stage s = (Stage) editor.getProperties().get("help.shortcuts");
        assertNotNull(s, "Help > Keyboard Shortcuts opens a window");
        assertTrue(s.isShowing());
        return (TableView<HelpWindows.Shortcut>) s.getScene().getRoot();
    }

    @Test
    void shortcutsWindowListsTheAcceleratorsOfTheMenus(FxRobot robot) {
        TableView<HelpWindows.Shortcut> table = shortcutsTable(robot);
        List<HelpWindows.Shortcut> rows = List.copyOf(table.getItems());
        // The Save row carries whatever accelerator File > Save has, in this platform's spelling.
        String saveKeys = menuItem("File", "Save").getAccelerator().getDisplayText();
        assertTrue(rows.contains(new HelpWindows.Shortcut("File", "Save", saveKeys)), rows.toString());
        // Menus other than the editor's own are walked too (Simulate > Live View, Ctrl+R).
        String liveKeys = menuItem("Simulate", "Live View").getAccelerator().getDisplayText();
        assertTrue(rows.contains(new HelpWindows.Shortcut("Simulate", "Live View", liveKeys)), rows.toString());
        // Grouped by menu: the rows of one menu are together, in menu-bar order.
        List<String> menus = rows.stream().map(HelpWindows.Shortcut::menu).distinct().toList();
        List<String> barOrder = editor.menuBar().getMenus().stream().map(Menu::getText).filter(menus::contains).toList();
        assertEquals(barOrder, menus);
        assertEquals(menus.size(), rows.stream().map(HelpWindows.Shortcut::menu)
                .reduce(new ArrayList<String>(), (l, m) -> {
                    if (l.isEmpty() || !l.get(l.size() - 1).equals(m)) {
                        l.add(m);
                    }
                    return l;
                }, (a, b) -> a).size(), "each menu's rows are contiguous");
        // Items without an accelerator are not listed.
        assertFalse(rows.stream().anyMatch(r -> r.command().equals("Export PNG…")), rows.toString());
    }

    @Test
    void shortcutsFollowAChangedAccelerator(FxRobot robot) {
        // The list is read from the menus each time: give Export PNG… a shortcut and it appears.
        MenuItem png = menuItem("File", "Export PNG…");
        robot.interact(() -> png.setAccelerator(KeyCombination.keyCombination("Shortcut+Shift+P")));
        List<HelpWindows.Shortcut> rows = List.copyOf(shortcutsTable(robot).getItems());
        assertTrue(rows.contains(new HelpWindows.Shortcut("File", "Export PNG…", png.getAccelerator().getDisplayText())),
                rows.toString());
    }

    @Test
    void userGuideWindowShowsTheShippedGuide(FxRobot robot) throws Exception {
        String source = Files.readString(Path.of("docs/user-guide.md"));
        // The jar's copy is docs/user-guide.md as written (the pom copies it unfiltered).
        assertEquals(source, HelpWindows.guideText());
        String firstHeading = source.lines().filter(l -> l.startsWith("# ")).findFirst().orElseThrow().substring(2);
        robot.interact(helpItem("menu-user-guide")::fire);
        Stage s = (Stage) editor.getProperties().get("help.guide");
        assertNotNull(s, "Help > User Guide opens a window");
        TextArea text = (TextArea) s.getScene().getRoot();
        assertTrue(text.getText().startsWith(firstHeading + "\n" + "=".repeat(firstHeading.length()) + "\n"),
                text.getText().substring(0, 200));
        // A second-level heading is underlined with dashes, and links keep only their text.
        assertTrue(text.getText().contains("\nThe window\n----------\n"));
        assertFalse(text.getText().contains("](performance.md"));
    }

    @Test
    void welcomePaneButtonsRunTheirActions(FxRobot robot) {
        int[] example = {0};
        int[] template = {0};
        int[] storm = {0};
        WelcomePane[] pane = new WelcomePane[1];
        robot.interact(() -> pane[0] = new WelcomePane(() -> example[0]++, () -> template[0]++, () -> storm[0]++));
        robot.interact(pane[0].openExample::fire);
        assertEquals(List.of(1, 0, 0), List.of(example[0], template[0], storm[0]));
        robot.interact(pane[0].newFromTemplate::fire);
        assertEquals(List.of(1, 1, 0), List.of(example[0], template[0], storm[0]));
        robot.interact(pane[0].watchPauseStorm::fire);
        assertEquals(List.of(1, 1, 1), List.of(example[0], template[0], storm[0]));
    }

    @Test
    void watchAPauseStormOpensTheLiveViewOnThePresetForTheExample(FxRobot robot) throws Exception {
        robot.interact(helpItem("menu-welcome")::fire);
        WelcomePane pane = (WelcomePane) ((Stage) editor.getProperties().get("help.welcome")).getScene().getRoot();
        robot.interact(pane.watchPauseStorm::fire);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> editor.livePanel() != null);
        WaitForAsyncUtils.waitForFxEvents();
        // The preset's scenario names devices of the example it is written for; that example is open.
        LivePreset storm = LivePreset.PFC_SPREADING;
        assertEquals(storm.toString(), HelpWindows.PAUSE_STORM, "the name Help uses is the preset's");
        assertEquals(storm.fabric(), Path.of(Launcher.EXAMPLE).getFileName().toString());
        assertEquals(FabricFiles.load(Path.of(Launcher.EXAMPLE)).name(), editor.document().fabric().name());
        assertEquals(storm, io.fabriclab.ui.live.LivePanel.of(editor).model().workload.get().live());
        assertTrue(errors.isEmpty(), errors.toString());
        robot.interact(() -> editor.showLiveView(false));
    }

    @Test
    void welcomeOpenExampleOpensTheShippedExampleWithoutAnEdit(FxRobot robot) throws Exception {
        Fabric shipped = FabricFiles.load(Path.of(Launcher.EXAMPLE));
        robot.interact(helpItem("menu-welcome")::fire);
        Stage s = (Stage) editor.getProperties().get("help.welcome");
        assertNotNull(s, "Help > Welcome… opens a window");
        WelcomePane pane = (WelcomePane) s.getScene().getRoot();
        assertTrue(pane.lookup("#welcome-live-note") != null);
        robot.interact(pane.openExample::fire);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> editor.document().fabric().devices().size() > 0);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(shipped.name(), editor.document().fabric().name());
        assertEquals(shipped.devices().size(), editor.document().fabric().devices().size());
        assertEquals(null, editor.document().file(), "no file: Save asks where instead of overwriting the example");
        assertTrue(errors.isEmpty(), errors.toString());
        assertFalse(s.isShowing(), "the welcome page closes once the example opens");
        // Issue 35 item 14: opening is not an edit: nothing to undo, nothing unsaved, no star in the title.
        assertEquals(0, editor.document().stack().undoDepth(), "nothing to undo");
        assertFalse(editor.document().stack().isModified(), "the example opens unmodified");
        assertFalse(editor.windowTitle().endsWith("*"), editor.windowTitle());
    }

    @Test
    void welcomeNewFromTemplateOpensTheTemplateDialog(FxRobot robot) {
        robot.interact(helpItem("menu-welcome")::fire);
        WelcomePane pane = (WelcomePane) ((Stage) editor.getProperties().get("help.welcome")).getScene().getRoot();
        robot.interact(pane.newFromTemplate::fire);
        Window dialog = Window.getWindows().stream()
                .filter(w -> w.getScene() != null && w.getScene().lookup("#template-ok") != null).findFirst().orElse(null);
        assertNotNull(dialog, "New from Template… shows the generator dialog");
        robot.interact(dialog::hide);
    }
}
