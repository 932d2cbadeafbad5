package io.fabriclab.ui;

import java.io.File;
import java.nio.file.Path;
import java.util.List;

import io.fabriclab.diagram.DiagramStyle;
import io.fabriclab.diagram.FabricPainter;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.CheckMenuItem;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.control.RadioMenuItem;
import javafx.scene.control.Separator;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.control.ToolBar;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;

/**
 * The editor's menu bar and toolbar. Each menu is built by its own method; each item calls one
 * action of {@link FileActions}, {@link EditActions}, {@link AnalysisActions} or the canvas.
 */
final class EditorMenus {
    private final FabricEditor editor;
    private final FabricDocument doc;
    private final FabricCanvas canvas;
    private final BackgroundTasks tasks = BackgroundTasks.shared();
    private final FileActions files;
    private final EditActions edits;
    private final AnalysisActions analysis;
    private final TextField findField = new TextField();
    private final MenuBar menuBar = new MenuBar();
    private final MenuItem undoItem = new MenuItem("Undo");
    private final MenuItem redoItem = new MenuItem("Redo");
    private final Menu recentMenu = new Menu("Open Recent");

    EditorMenus(FabricEditor editor) {
        this.editor = editor;
        this.doc = editor.document();
        this.canvas = editor.canvas();
        this.files = editor.files();
        this.edits = editor.edits();
        this.analysis = editor.analysis();
    }

    MenuBar buildMenus() {
        menuBar.getMenus().addAll(fileMenu(), editMenu(), viewMenu(), fabricMenu());
        // Simulate: the live view (ui.live), reached through its provider so ui does not depend on it;
        // then the sweep and tune window (ui).
        MenuItem sweep = new MenuItem("Sweep…");
        sweep.setId("menu-sweep");
        sweep.setOnAction(e -> new SweepWindow(editor, menuBar.getScene().getWindow()).show());
        Menu simulate = LiveViewProvider.find().map(p -> p.menu(editor)).orElseGet(() -> new Menu("Simulate"));
        if (!simulate.getItems().isEmpty()) {
            simulate.getItems().add(new SeparatorMenuItem());
        }
        simulate.getItems().add(sweep);
        menuBar.getMenus().add(simulate);
        menuBar.getMenus().add(helpMenu()); // Help last, as on every desktop
        return menuBar;
    }

    private Menu helpMenu() {
        Menu help = new Menu("Help");
        MenuItem about = item("About FabricLab", null, () -> editor.dialogs().showReport("About FabricLab", aboutText()));
        about.setId("menu-about");
        MenuItem welcome = item("Welcome…", null, () -> HelpWindows.showWelcome(editor));
        welcome.setId("menu-welcome");
        MenuItem guide = item("User Guide", "F1", () -> HelpWindows.showGuide(editor));
        guide.setId("menu-user-guide");
        MenuItem keys = item("Keyboard Shortcuts", null, () -> HelpWindows.showShortcuts(editor, menuBar));
        keys.setId("menu-shortcuts");
        help.getItems().addAll(welcome, guide, keys, new SeparatorMenuItem(), about);
        return help;
    }

    /** The About box: the version comes from pom.xml (filtered into version.properties), as for `fabriclab --version`. */
    static String aboutText() {
        return "FabricLab " + io.fabriclab.model.Version.get() + "\n"
                + "Design, analyse and simulate RoCEv2 GPU-cluster fabrics.\n\n"
                + "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + "), JavaFX "
                + System.getProperty("javafx.runtime.version", "?") + "\n"
                + "Command line: fabriclab --help";
    }

    private static MenuItem item(String text, String accelerator, Runnable action) {
        MenuItem m = new MenuItem(text);
        if (accelerator != null) {
            m.setAccelerator(KeyCombination.keyCombination(accelerator));
        }
        m.setOnAction(e -> action.run());
        return m;
    }

    private Menu fileMenu() {
        Menu file = new Menu("File");
        file.setId("menu-file");
        MenuItem exit = item("Quit", "Shortcut+Q", () -> editor.confirmDiscard().thenAccept(ok -> {
            if (ok) {
                editor.shutdown();
                Platform.exit();
            }
        }));
        rebuildRecentMenu();
        file.getItems().addAll(
                item("New", "Shortcut+Shift+N", edits::newBlank),
                item("New from Template…", "Shortcut+N", edits::newFromTemplate),
                item("New from Description…", "Shortcut+Alt+N", () -> DescriptionDialog.open(editor, "")),
                item("Open…", "Shortcut+O", files::openDialog),
                recentMenu,
                new SeparatorMenuItem(),
                item("Save", "Shortcut+S", files::save),
                item("Save As…", "Shortcut+Shift+S", files::saveAs),
                item("Recover Autosaves…", null, () -> editor.autosave().chooseDeclined()),
                new SeparatorMenuItem(),
                item("Import containerlab…", "Shortcut+I", files::importContainerlabDialog),
                item("Export PNG…", null, files::exportPng),
                item("Export SVG…", null, files::exportSvg),
                item("Export containerlab…", null, () -> files.exportAs("containerlab topology", "*.clab.yml", ".clab.yml")),
                item("Export GraphML…", null, () -> files.exportAs("GraphML", "*.graphml", ".graphml")),
                new SeparatorMenuItem(),
                exit);
        // Open Counters… and Scrape Counters URL… (CountersActions, the measured layer), after Open Recent.
        file.getItems().addAll(file.getItems().indexOf(recentMenu) + 1, CountersActions.menuItems(editor));
        // Export Report… and Export Switch Config… (ReportExport), just before the separator above Quit.
        file.getItems().addAll(file.getItems().size() - 2, ReportExport.menuItems(editor));
        return file;
    }

    void rebuildRecentMenu() {
        recentMenu.getItems().clear();
        List<Path> listed = editor.recent().list();
        for (Path p : listed) {
            MenuItem m = new MenuItem(p.getFileName() + "  —  " + (p.getParent() == null ? "" : p.getParent()));
            m.setMnemonicParsing(false);
            m.setOnAction(e -> editor.confirmDiscard().thenAccept(ok -> {
                if (ok) {
                    files.open(p);
                }
            }));
            recentMenu.getItems().add(m);
        }
        if (listed.isEmpty()) {
            MenuItem none = new MenuItem("(none yet)");
            none.setDisable(true);
            recentMenu.getItems().add(none);
        } else {
            recentMenu.getItems().addAll(new SeparatorMenuItem(), item("Clear List", null, () -> {
                editor.recent().clear();
                rebuildRecentMenu();
            }));
        }
    }

    private Menu editMenu() {
        Menu edit = new Menu("Edit");
        undoItem.setAccelerator(KeyCombination.keyCombination("Shortcut+Z"));
        undoItem.setOnAction(e -> doc.undo());
        redoItem.setAccelerator(KeyCombination.keyCombination("Shortcut+Y"));
        redoItem.setOnAction(e -> doc.redo());
        MenuItem redoAlt = item("Redo (alternative)", "Shortcut+Shift+Z", doc::redo);
        redoAlt.setVisible(false);
        MenuItem delete = item("Delete\t(Del)", null, canvas::deleteSelection);
        MenuItem find = item("Find Device…", "Shortcut+F", findField::requestFocus);
        edit.getItems().addAll(undoItem, redoItem, redoAlt, new SeparatorMenuItem(),
                item("Cut", "Shortcut+X", edits::cutSelection),
                item("Copy", "Shortcut+C", edits::copySelection),
                item("Paste", "Shortcut+V", edits::paste),
                item("Duplicate", "Shortcut+D", () -> edits.duplicate(doc.selection().devices(), 1)),
                delete, new SeparatorMenuItem(),
                item("Select All", "Shortcut+A", canvas::selectAll), find);
        return edit;
    }

    private Menu viewMenu() {
        Menu view = new Menu("View");
        MenuItem zoomIn = new MenuItem("Zoom In");
        zoomIn.setAccelerator(new KeyCodeCombination(KeyCode.EQUALS, KeyCombination.SHORTCUT_DOWN));
        zoomIn.setOnAction(e -> canvas.zoomIn());
        MenuItem zoomInPlus = new MenuItem("Zoom In (+)");
        zoomInPlus.setAccelerator(new KeyCodeCombination(KeyCode.ADD, KeyCombination.SHORTCUT_DOWN));
        zoomInPlus.setOnAction(e -> canvas.zoomIn());
        zoomInPlus.setVisible(false);
        MenuItem zoomOut = new MenuItem("Zoom Out");
        zoomOut.setAccelerator(new KeyCodeCombination(KeyCode.MINUS, KeyCombination.SHORTCUT_DOWN));
        zoomOut.setOnAction(e -> canvas.zoomOut());
        MenuItem fit = new MenuItem("Fit to Window");
        fit.setAccelerator(new KeyCodeCombination(KeyCode.DIGIT0, KeyCombination.SHORTCUT_DOWN));
        fit.setOnAction(e -> canvas.fitToWindow());
        MenuItem actual = new MenuItem("Actual Size");
        actual.setAccelerator(new KeyCodeCombination(KeyCode.DIGIT1, KeyCombination.SHORTCUT_DOWN));
        actual.setOnAction(e -> canvas.actualSize());
        CheckMenuItem labels = new CheckMenuItem("Interface Labels");
        labels.setSelected(true);
        labels.setAccelerator(KeyCombination.keyCombination("Shortcut+L"));
        labels.setOnAction(e -> canvas.setOptions(canvas.options().withLabels(labels.isSelected())));
        CheckMenuItem speeds = new CheckMenuItem("Speed Labels");
        speeds.setSelected(canvas.options().speeds());
        speeds.setAccelerator(KeyCombination.keyCombination("Shortcut+Shift+L"));
        speeds.setOnAction(e -> canvas.setOptions(canvas.options().withSpeeds(speeds.isSelected())));
        CheckMenuItem legend = new CheckMenuItem("Legend");
        legend.setSelected(true);
        legend.setOnAction(e -> canvas.setOptions(canvas.options().withLegend(legend.isSelected())));
        CheckMenuItem grid = new CheckMenuItem("Grid");
        grid.setSelected(true);
        grid.setAccelerator(KeyCombination.keyCombination("Shortcut+Alt+G"));
        grid.setOnAction(e -> canvas.setOptions(canvas.options().withGrid(grid.isSelected())));
        Menu fold = new Menu("Fold Servers");
        ToggleGroup foldGroup = new ToggleGroup();
        for (FabricPainter.FoldMode m : FabricPainter.FoldMode.values()) {
            RadioMenuItem item = new RadioMenuItem(switch (m) {
                case AUTO -> "When Zoomed Out";
                case ALWAYS -> "Always";
                case NEVER -> "Never";
            });
            item.setToggleGroup(foldGroup);
            item.setSelected(m == FabricPainter.FoldMode.AUTO);
            item.setOnAction(e -> canvas.setOptions(canvas.options().withFold(m)));
            fold.getItems().add(item);
        }
        CheckMenuItem minimap = new CheckMenuItem("Minimap");
        minimap.setSelected(true);
        minimap.setAccelerator(KeyCombination.keyCombination("Shortcut+M"));
        minimap.selectedProperty().bindBidirectional(canvas.minimapVisibleProperty());
        Menu themes = new Menu("Theme");
        ToggleGroup themeGroup = new ToggleGroup();
        for (DiagramStyle.Theme t : DiagramStyle.Theme.values()) {
            RadioMenuItem item = new RadioMenuItem(t == DiagramStyle.Theme.LIGHT ? "Light" : "Dark");
            item.setToggleGroup(themeGroup);
            item.setSelected(t == editor.theme());
            item.setOnAction(e -> editor.setTheme(t));
            themes.getItems().add(item);
        }
        MenuItem messages = item("Message Log", null, editor::showMessageLog);
        messages.setId("menu-message-log");
        view.getItems().addAll(zoomIn, zoomInPlus, zoomOut, fit, actual, new SeparatorMenuItem(), labels, speeds, legend,
                grid, fold, minimap, new SeparatorMenuItem(), themes, rendererMenu(), new SeparatorMenuItem(), messages);
        return view;
    }

    private Menu fabricMenu() {
        Menu fabric = new Menu("Fabric");
        ToggleGroup tools = new ToggleGroup();
        RadioMenuItem selectTool = new RadioMenuItem("Select Tool");
        RadioMenuItem linkTool = new RadioMenuItem("Link Tool\t(L)");
        selectTool.setToggleGroup(tools);
        linkTool.setToggleGroup(tools);
        selectTool.setSelected(true);
        selectTool.setOnAction(e -> canvas.toolProperty().set(EditorTool.SELECT));
        linkTool.setOnAction(e -> canvas.toolProperty().set(EditorTool.LINK));
        canvas.toolProperty().addListener((o, a, b) -> (b == EditorTool.LINK ? linkTool : selectTool).setSelected(true));
        fabric.getItems().addAll(selectTool, linkTool, new SeparatorMenuItem(),
                item("Connect Selected Devices", "Shortcut+K", edits::connectSelected),
                bulkLinkItem(),
                item("Auto Layout (Tiered)", null, edits::autoLayout),
                item("Fold Selected Groups", "Shortcut+G", () -> edits.foldSelection(true)),
                item("Unfold Selected Groups", "Shortcut+Shift+G", () -> edits.foldSelection(false)),
                QosEditor.menuItem(editor),
                new SeparatorMenuItem(),
                item("Analyze", "Shortcut+Shift+A", analysis::analyze),
                item("Check Deadlocks", "Shortcut+Shift+D", analysis::checkDeadlocks),
                item("Fail a Link…", "Shortcut+Shift+F", analysis::failLinkDialog),
                item("Show ECMP Paths…", "Shortcut+E", analysis::ecmpPathsDialog),
                item("Clear Highlight", null, analysis::clearPaths));
        return fabric;
    }
    private MenuItem bulkLinkItem() {
        MenuItem m = new MenuItem("Bulk Link by Name Pattern…");
        m.setAccelerator(KeyCombination.keyCombination("Shortcut+Shift+K"));
        m.setOnAction(e -> edits.bulkLinkDialog());
        return m;
    }

    /** Two name patterns and a count; the dialog says how many links that makes before anything changes. */
    private static MenuItem disabled(String text, String accelerator) {
        MenuItem m = new MenuItem(text);
        if (accelerator != null) {
            m.setAccelerator(KeyCombination.keyCombination(accelerator));
        }
        m.setDisable(true);
        return m;
    }

    ToolBar buildToolBar() {
        Button undo = button("Undo", "Undo (Ctrl+Z)", doc::undo);
        undo.disableProperty().bind(undoItem.disableProperty());
        Button redo = button("Redo", "Redo (Ctrl+Y)", doc::redo);
        redo.disableProperty().bind(redoItem.disableProperty());
        ToggleGroup tools = new ToggleGroup();
        ToggleButton select = new ToggleButton("Select");
        select.setTooltip(new Tooltip("Select and move; shift-drag from a device to link"));
        ToggleButton link = new ToggleButton("Link");
        link.setId("tool-link");
        link.setTooltip(new Tooltip("Drag from one device to another to cable them (L)"));
        select.setToggleGroup(tools);
        link.setToggleGroup(tools);
        select.setSelected(true);
        select.setOnAction(e -> canvas.toolProperty().set(EditorTool.SELECT));
        link.setOnAction(e -> canvas.toolProperty().set(link.isSelected() ? EditorTool.LINK : EditorTool.SELECT));
        canvas.toolProperty().addListener((o, a, b) -> (b == EditorTool.LINK ? link : select).setSelected(true));
        Button delete = button("Delete", "Delete the selection (Del)", canvas::deleteSelection);
        Button zoomIn = button("+", "Zoom in (Ctrl +)", canvas::zoomIn);
        Button zoomOut = button("−", "Zoom out (Ctrl −)", canvas::zoomOut);
        Button fit = button("Fit", "Fit to window (Ctrl+0)", canvas::fitToWindow);
        Button layout = button("Auto Layout", "Tiered layout: core, spine, leaf, servers", edits::autoLayout);
        findField.setPromptText("Find device (Ctrl+F)");
        findField.setId("find-device");
        findField.setPrefColumnCount(14);
        // Typing lists the matches in the status bar; Enter jumps to the exact name, else to the
        // next match (press again for the one after), so a long list needs no popup.
        int[] nextMatch = {0};
        findField.textProperty().addListener((o, was, now) -> {
            nextMatch[0] = 0;
            List<String> m = matches(now);
            if (!now.isBlank()) {
                editor.message(m.isEmpty() ? "No device matches \"" + now.trim() + "\"" : m.size() + " match"
                        + (m.size() == 1 ? "" : "es") + ": " + String.join(", ", m.subList(0, Math.min(8, m.size())))
                        + (m.size() > 8 ? ", …" : ""));
            }
        });
        findField.setOnAction(e -> {
            String t = findField.getText().trim();
            List<String> m = matches(t);
            String target = doc.fabric().device(t) != null ? t : m.isEmpty() ? t : m.get(nextMatch[0]++ % m.size());
            canvas.find(target);
        });
        ToolBar bar = new ToolBar(undo, redo, new Separator(), select, link, delete, new Separator(), zoomIn, zoomOut, fit,
                layout, new Separator(), findField);
        bar.setPadding(new Insets(4, 8, 4, 8));
        return bar;
    }

    /** Device ids containing the text, in natural order ("srv2" before "srv10"). */
    private List<String> matches(String text) {
        String t = text.trim();
        if (t.isEmpty()) {
            return List.of();
        }
        return doc.fabric().devices().stream().map(Device::id).filter(id -> id.contains(t))
                .sorted(io.fabriclab.diagram.NaturalOrder.INSTANCE).toList();
    }

    private static Button button(String text, String tip, Runnable action) {
        Button b = new Button(text);
        b.setTooltip(new Tooltip(tip));
        b.setOnAction(e -> action.run());
        b.setFocusTraversable(false);
        return b;
    }

    /** Undo and Redo name what they undo (and are disabled when there is nothing). */
    void refreshUndo() {
        String u = doc.stack().undoDescription();
        String r = doc.stack().redoDescription();
        undoItem.setText(u == null ? "Undo" : "Undo " + u);
        redoItem.setText(r == null ? "Redo" : "Redo " + r);
        undoItem.setDisable(u == null);
        redoItem.setDisable(r == null);
    }

    /**
     * View > Renderer: Automatic (the JavaFX canvas on a hardware pipeline, Java2D on the software
     * one), or either renderer by hand; the choice applies at once and is kept for the next session.
     */
    Menu rendererMenu() {
        Menu m = new Menu("Renderer");
        m.setId("menu-renderer");
        ToggleGroup group = new ToggleGroup();
        boolean hardware = FabricCanvas.Renderer.hardwarePipeline();
        String stored = RendererPreference.get();
        String[][] choices = {
            {"auto", "Automatic (" + (hardware ? "hardware pipeline: JavaFX canvas" : "software pipeline: Java2D") + ")"},
            {"fx", "JavaFX Canvas (GPU)"},
            {"java2d", "Java2D Off-screen (CPU)"}};
        for (String[] c : choices) {
            RadioMenuItem item = new RadioMenuItem(c[1]);
            item.setId("renderer-" + c[0]);
            item.setToggleGroup(group);
            item.setSelected(c[0].equals(FabricCanvas.Renderer.parse(stored) == null ? "auto" : stored));
            item.setOnAction(e -> {
                RendererPreference.set(c[0]);
                FabricCanvas.Renderer r = FabricCanvas.Renderer.parse(c[0]);
                canvas.setRenderer(r != null ? r : FabricCanvas.Renderer.forPipeline(hardware));
                editor.message("Renderer: " + (canvas.renderer() == FabricCanvas.Renderer.FX ? "JavaFX canvas" : "Java2D")
                        + (r == null ? " (chosen for this pipeline)" : ""));
            });
            m.getItems().add(item);
        }
        return m;
    }

    MenuBar menuBar() {
        return menuBar;
    }

}
