package io.fabriclab.ui;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import javax.imageio.ImageIO;

import org.controlsfx.control.StatusBar;

import io.fabriclab.diagram.DiagramStyle;
import io.fabriclab.diagram.FabricPainter;
import io.fabriclab.diagram.FabricSvg;
import io.fabriclab.diagram.TieredLayout;
import io.fabriclab.edit.AddLinkCommand;
import io.fabriclab.edit.CompoundCommand;
import io.fabriclab.edit.FabricCommand;
import io.fabriclab.edit.MoveDevicesCommand;
import io.fabriclab.edit.SetPropertyCommand;
import io.fabriclab.io.FabricFiles;
import io.fabriclab.io.FabricJson;
import io.fabriclab.io.InputException;
import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.LinkState;
import io.fabriclab.model.Port;
import io.fabriclab.routing.EcmpPaths;
import io.fabriclab.routing.Routing;
import io.fabriclab.topology.DeadlockCheck;
import io.fabriclab.topology.FailureImpact;
import io.fabriclab.topology.Oversubscription;
import javafx.animation.KeyFrame;
import javafx.animation.PauseTransition;
import javafx.animation.Timeline;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.concurrent.Task;
import javafx.embed.swing.SwingFXUtils;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.scene.control.Button;
import javafx.scene.control.CheckMenuItem;
import javafx.scene.control.Label;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.control.RadioMenuItem;
import javafx.scene.control.Separator;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.control.ToolBar;
import javafx.scene.control.Tooltip;
import javafx.scene.image.WritableImage;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.util.Duration;

/**
 * The editor window's content: menu bar, toolbar, palette, the fabric canvas, the inspector, a
 * problems panel and the status bar (devices, links, GPUs, oversubscription, zoom). Each menu is
 * built by its own method ({@link #fileMenu()}, {@link #editMenu()}, ...) so features add their
 * items in one place.
 */
public final class FabricEditor extends BorderPane {
    private final FabricDocument doc;
    private final FabricCanvas canvas;
    private final InspectorPane inspector;
    private final PalettePane palette;
    private final StatusBar status = new StatusBar();
    private final Label counts = new Label();
    private final Label oversubscription = new Label();
    private final Label zoomLabel = new Label();
    private final TextField findField = new TextField();
    private final MenuBar menuBar = new MenuBar();
    private final ProblemsPane problems;
    private final MenuItem undoItem = new MenuItem("Undo");
    private final MenuItem redoItem = new MenuItem("Redo");
    private final Menu recentMenu = new Menu("Open Recent");
    private final PauseTransition oversubscriptionDebounce = new PauseTransition(Duration.millis(400));
    private DialogService dialogs = DialogService.fx(() -> getScene() == null ? null : getScene().getWindow());
    private RecentFiles recent = RecentFiles.user();
    private AutosaveRecovery recovery = AutosaveRecovery.forThisProcess();
    private Timeline autosave;
    private long autosavedRevision = -1;
    private Fabric shownFabric;
    private DiagramStyle.Theme theme = DiagramStyle.Theme.LIGHT;
    /** The NIC pair whose ECMP paths are highlighted, or null. */
    private EcmpPaths shownPaths;

    // ----- live view (ui.live): a run panel docked beside the canvas ----------------------------
    private SplitPane centre;
    private io.fabriclab.ui.live.LivePanel livePanel;
    /** The centre's dividers before the live panel opened, restored when it closes. */
    private double[] dividersBeforeLive;

    /** Shows or hides the live congestion view's run panel beside the canvas (stopping its run when hidden). */
    public void showLiveView(boolean show) {
        boolean fitted = canvas.isStillFitted();
        if (show && livePanel == null) {
            dividersBeforeLive = centre.getDividerPositions();
            livePanel = new io.fabriclab.ui.live.LivePanel(canvas);
            centre.getItems().add(2, livePanel);
            centre.setDividerPositions(0.11, 0.55, 0.86);
        } else if (!show && livePanel != null) {
            livePanel.dispose();
            centre.getItems().remove(livePanel);
            livePanel = null;
            if (dividersBeforeLive != null) {
                centre.setDividerPositions(dividersBeforeLive);
            }
            canvas.requestRedraw();
        } else {
            return;
        }
        if (fitted && getScene() != null) {
            // The canvas changed size under a fitted view: fit again at the new size, or the panel
            // would cut the fabric off (a view the user zoomed or panned is kept as it is).
            applyCss();
            layout();
            canvas.fitToWindow();
        }
    }

    /** The live view's panel, or null when hidden. */
    public io.fabriclab.ui.live.LivePanel livePanel() {
        return livePanel;
    }

    public FabricEditor(FabricDocument doc) {
        this.doc = doc;
        this.canvas = new FabricCanvas(doc);
        this.inspector = new InspectorPane(doc);
        this.palette = new PalettePane(canvas);
        canvas.setId("fabric-canvas");
        canvas.setOnMessage(this::message);
        inspector.setOnMessage(this::message);

        StackPane canvasHolder = new StackPane(canvas);
        canvasHolder.setMinSize(0, 0);
        SplitPane centre = new SplitPane(palette, canvasHolder, inspector);
        this.centre = centre;
        centre.setDividerPositions(0.13, 0.80);
        SplitPane.setResizableWithParent(palette, false);
        SplitPane.setResizableWithParent(inspector, false);

        problems = new ProblemsPane(doc);
        problems.setOnReveal(id -> canvas.reveal(doc.fabric().device(id)));
        VBox bottom = new VBox(problems, status);
        VBox top = new VBox(buildMenus(), buildToolBar());
        setTop(top);
        setCenter(centre);
        setBottom(bottom);

        oversubscription.setId("status-oversubscription");
        counts.setId("status-counts");
        status.getRightItems().addAll(counts, new Separator(Orientation.VERTICAL), oversubscription,
                new Separator(Orientation.VERTICAL), zoomLabel);
        status.setText("Ready. Drag from the palette to add, shift-drag between devices to link.");
        doc.stack().addListener(this::refreshState);
        doc.stack().addListener(oversubscriptionDebounce::playFromStart);
        doc.selection().addListener(this::refreshState);
        doc.selection().addListener(this::selectionChanged);
        oversubscriptionDebounce.setOnFinished(e -> refreshOversubscription());
        zoomLabel.textProperty().bind(Bindings.createStringBinding(
                () -> String.format("zoom %.0f %%", canvas.zoomProperty().get() * 100), canvas.zoomProperty()));
        shownFabric = doc.fabric();
        refreshState();
        // Computed just after the first frame, like the problems: opening a big fabric does not wait for it.
        oversubscription.setText("oversubscription …");
        oversubscriptionDebounce.playFromStart();
    }

    public FabricCanvas canvas() {
        return canvas;
    }

    public InspectorPane inspector() {
        return inspector;
    }

    public PalettePane palette() {
        return palette;
    }

    public FabricDocument document() {
        return doc;
    }

    public StatusBar statusBar() {
        return status;
    }

    public MenuBar menuBar() {
        return menuBar;
    }

    public ProblemsPane problems() {
        return problems;
    }

    /** "FabricLab — name" with a star when there are unsaved changes. */
    public String windowTitle() {
        return "FabricLab — " + doc.fabric().name() + (doc.stack().isModified() ? " *" : "");
    }

    /**
     * Asks before unsaved changes are thrown away (closing the window, opening another fabric);
     * true when it is fine to go on.
     */
    public boolean confirmDiscard() {
        return !doc.stack().isModified()
                || dialogs.confirm("Unsaved changes", doc.fabric().name() + " has unsaved changes. Discard them?");
    }

    /** The dialogs in use (the export actions report failures through them). */
    DialogService dialogs() {
        return dialogs;
    }

    /** Replaces the dialogs (tests answer questions themselves). */
    public void setDialogService(DialogService d) {
        dialogs = d;
    }

    /** Where Open Recent keeps its list (tests use a scratch preferences node). */
    void setRecentFiles(RecentFiles r) {
        recent = r;
        rebuildRecentMenu();
    }

    /** Where autosave writes (tests use a scratch directory). */
    void setRecovery(AutosaveRecovery r) {
        recovery = r;
    }

    /** Shows {@code m} in the status bar. */
    public void message(String m) {
        status.setText(m);
    }

    private void refreshState() {
        Fabric f = doc.fabric();
        if (f != shownFabric) {
            // New, New from Template, Import, or undoing one of them: show the whole new picture.
            shownFabric = f;
            clearPaths();
            canvas.fitToWindow();
        }
        counts.setText(String.format(Locale.ROOT, "%,d devices · %,d links · %,d GPUs", f.devices().size(), f.linkCount(),
                f.gpuCount()));
        String u = doc.stack().undoDescription();
        String r = doc.stack().redoDescription();
        undoItem.setText(u == null ? "Undo" : "Undo " + u);
        redoItem.setText(r == null ? "Redo" : "Redo " + r);
        undoItem.setDisable(u == null);
        redoItem.setDisable(r == null);
        if (getScene() != null && getScene().getWindow() instanceof javafx.stage.Stage st) {
            st.setTitle(windowTitle());
        }
    }

    /** The worst leaf's downlink : uplink capacity (topology.Oversubscription), after each edit settles. */
    private void refreshOversubscription() {
        Oversubscription o = Oversubscription.of(doc.fabric());
        Oversubscription.SwitchRatio w = o.worstLeaf();
        oversubscription.setText(w == null ? "oversubscription n/a" : "oversubscription " + w.label() + " (worst leaf "
                + w.deviceId() + ")");
    }

    /** The text of the status bar's oversubscription item. */
    public String oversubscriptionText() {
        return oversubscription.getText();
    }

    // ----- menus -------------------------------------------------------------------------------

    private MenuBar buildMenus() {
        menuBar.getMenus().addAll(fileMenu(), editMenu(), viewMenu(), fabricMenu());
        menuBar.getMenus().add(io.fabriclab.ui.live.LiveMenu.create(this));
        menuBar.getMenus().add(helpMenu()); // Help last, as on every desktop
        return menuBar;
    }

    private Menu helpMenu() {
        Menu help = new Menu("Help");
        MenuItem about = item("About FabricLab", null, () -> dialogs.showReport("About FabricLab", aboutText()));
        about.setId("menu-about");
        help.getItems().add(about);
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
        MenuItem exit = item("Quit", "Shortcut+Q", () -> {
            if (confirmDiscard()) {
                shutdown();
                Platform.exit();
            }
        });
        rebuildRecentMenu();
        file.getItems().addAll(
                item("New", "Shortcut+Shift+N", this::newBlank),
                item("New from Template…", "Shortcut+N", this::newFromTemplate),
                item("Open…", "Shortcut+O", this::openDialog),
                recentMenu,
                new SeparatorMenuItem(),
                item("Save", "Shortcut+S", this::save),
                item("Save As…", "Shortcut+Shift+S", this::saveAs),
                new SeparatorMenuItem(),
                item("Import containerlab…", "Shortcut+I", this::importContainerlabDialog),
                item("Export PNG…", null, this::exportPng),
                item("Export SVG…", null, this::exportSvg),
                item("Export containerlab…", null, () -> exportAs("containerlab topology", "*.clab.yml", ".clab.yml")),
                item("Export GraphML…", null, () -> exportAs("GraphML", "*.graphml", ".graphml")),
                new SeparatorMenuItem(),
                exit);
        // Export Report… and Export Switch Config… (ReportExport), just before the separator above Quit.
        file.getItems().addAll(file.getItems().size() - 2, ReportExport.menuItems(this));
        return file;
    }

    private void rebuildRecentMenu() {
        recentMenu.getItems().clear();
        List<Path> files = recent.list();
        for (Path p : files) {
            MenuItem m = new MenuItem(p.getFileName() + "  —  " + (p.getParent() == null ? "" : p.getParent()));
            m.setMnemonicParsing(false);
            m.setOnAction(e -> {
                if (confirmDiscard()) {
                    open(p);
                }
            });
            recentMenu.getItems().add(m);
        }
        if (files.isEmpty()) {
            MenuItem none = new MenuItem("(none yet)");
            none.setDisable(true);
            recentMenu.getItems().add(none);
        } else {
            recentMenu.getItems().addAll(new SeparatorMenuItem(), item("Clear List", null, () -> {
                recent.clear();
                rebuildRecentMenu();
            }));
        }
    }

    /** The files Open Recent lists, newest first. */
    public List<Path> recentFiles() {
        return recent.list();
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
                item("Cut", "Shortcut+X", this::cutSelection),
                item("Copy", "Shortcut+C", this::copySelection),
                item("Paste", "Shortcut+V", this::paste),
                item("Duplicate", "Shortcut+D", () -> duplicate(doc.selection().devices(), 1)),
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
            item.setSelected(t == theme);
            item.setOnAction(e -> setTheme(t));
            themes.getItems().add(item);
        }
        view.getItems().addAll(zoomIn, zoomInPlus, zoomOut, fit, actual, new SeparatorMenuItem(), labels, speeds, legend,
                grid, fold, minimap, new SeparatorMenuItem(), themes);
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
                item("Connect Selected Devices", "Shortcut+K", this::connectSelected),
                bulkLinkItem(),
                item("Auto Layout (Tiered)", null, this::autoLayout),
                item("Fold Selected Groups", "Shortcut+G", () -> foldSelection(true)),
                item("Unfold Selected Groups", "Shortcut+Shift+G", () -> foldSelection(false)),
                new SeparatorMenuItem(),
                item("Analyze", "Shortcut+Shift+A", this::analyze),
                item("Check Deadlocks", "Shortcut+Shift+D", this::checkDeadlocks),
                item("Fail a Link…", "Shortcut+Shift+F", this::failLinkDialog),
                item("Show ECMP Paths…", "Shortcut+E", this::ecmpPathsDialog),
                item("Clear Highlight", null, this::clearPaths));
        return fabric;
    }
    private MenuItem bulkLinkItem() {
        MenuItem m = new MenuItem("Bulk Link by Name Pattern…");
        m.setAccelerator(KeyCombination.keyCombination("Shortcut+Shift+K"));
        m.setOnAction(e -> bulkLinkDialog());
        return m;
    }

    /** Two name patterns and a count; the dialog says how many links that makes before anything changes. */
    private void bulkLinkDialog() {
        javafx.scene.control.Dialog<javafx.scene.control.ButtonType> d = new javafx.scene.control.Dialog<>();
        d.setTitle("Bulk link by name pattern");
        d.setHeaderText("Cable every device matching the first pattern to every device matching the second\n"
                + "(* any characters, ? one character), on the first free ports of equal speed.");
        d.initOwner(getScene().getWindow());
        TextField from = new TextField("leaf*");
        TextField to = new TextField("spine*");
        javafx.scene.control.Spinner<Integer> perPair = new javafx.scene.control.Spinner<>(1, 64, 1);
        Label count = new Label();
        Runnable update = () -> {
            int a = io.fabriclab.edit.BulkLinkCommand.matching(doc.fabric(), from.getText()).size();
            int b = io.fabriclab.edit.BulkLinkCommand.matching(doc.fabric(), to.getText()).size();
            count.setText(a + " × " + b + " devices × " + perPair.getValue() + " = " + a * b * perPair.getValue()
                    + " links");
        };
        from.textProperty().addListener((o, x, y) -> update.run());
        to.textProperty().addListener((o, x, y) -> update.run());
        perPair.valueProperty().addListener((o, x, y) -> update.run());
        update.run();
        javafx.scene.layout.GridPane grid = new javafx.scene.layout.GridPane();
        grid.setHgap(8);
        grid.setVgap(8);
        grid.addRow(0, new Label("From"), from);
        grid.addRow(1, new Label("To"), to);
        grid.addRow(2, new Label("Links per pair"), perPair);
        grid.add(count, 1, 3);
        d.getDialogPane().setContent(grid);
        d.getDialogPane().getButtonTypes().addAll(javafx.scene.control.ButtonType.CANCEL,
                javafx.scene.control.ButtonType.OK);
        d.showAndWait().filter(b -> b == javafx.scene.control.ButtonType.OK).ifPresent(b -> {
            try {
                io.fabriclab.edit.BulkLinkCommand c = io.fabriclab.edit.BulkLinkCommand.byPattern(doc.fabric(),
                        from.getText(), to.getText(), perPair.getValue());
                doc.execute(c);
                doc.selection().set(List.of(), c.links());
                message(c.description());
            } catch (IllegalArgumentException ex) {
                message("Nothing linked: " + ex.getMessage());
            }
        });
    }

    private static MenuItem disabled(String text, String accelerator) {
        MenuItem m = new MenuItem(text);
        if (accelerator != null) {
            m.setAccelerator(KeyCombination.keyCombination(accelerator));
        }
        m.setDisable(true);
        return m;
    }

    private ToolBar buildToolBar() {
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
        Button layout = button("Auto Layout", "Tiered layout: core, spine, leaf, servers", this::autoLayout);
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
                message(m.isEmpty() ? "No device matches \"" + now.trim() + "\"" : m.size() + " match"
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

    // ----- actions -----------------------------------------------------------------------------

    /**
     * What Copy and Cut took: a small fabric of its own holding copies of the devices and the
     * links among them, so Paste works after the originals were cut or deleted.
     */
    private Fabric clipboard;
    private int pasteCount;

    public void copySelection() {
        List<Device> sel = List.copyOf(doc.selection().devices());
        if (sel.isEmpty()) {
            message("Nothing selected to copy");
            return;
        }
        Fabric clip = new Fabric("clipboard");
        new io.fabriclab.edit.DuplicateCommand(doc.fabric(), clip, sel, 0, 0).execute();
        clipboard = clip;
        pasteCount = 0;
        message("Copied " + sel.size() + " devices and " + clip.linkCount() + " links among them");
    }

    /** Copy, then delete the selection (one undo step for the delete). */
    public void cutSelection() {
        if (doc.selection().devices().isEmpty()) {
            message("Nothing selected to cut");
            return;
        }
        copySelection();
        canvas.deleteSelection();
        pasteCount = -1; // the first paste lands where the cut devices were
    }

    public void paste() {
        if (clipboard == null || clipboard.devices().isEmpty()) {
            message("Nothing to paste");
            return;
        }
        double off = 4 * io.fabriclab.diagram.DiagramStyle.GRID * ++pasteCount;
        io.fabriclab.edit.DuplicateCommand c = new io.fabriclab.edit.DuplicateCommand(clipboard, doc.fabric(),
                clipboard.devices(), off, off);
        doc.execute(c);
        doc.selection().set(c.copies(), c.copiedLinks());
        message("Pasted " + c.copies().size() + " devices and " + c.copiedLinks().size() + " links");
    }

    /** Copies devices and the links among them, offset down-right by n grid steps of 4. */
    public void duplicate(java.util.Collection<Device> devices, int n) {
        if (devices.isEmpty()) {
            message("Select devices to duplicate");
            return;
        }
        double off = 4 * io.fabriclab.diagram.DiagramStyle.GRID * n;
        io.fabriclab.edit.DuplicateCommand c = new io.fabriclab.edit.DuplicateCommand(doc.fabric(), devices, off, off);
        doc.execute(c);
        doc.selection().set(c.copies(), c.copiedLinks());
        message(c.description() + " (" + c.copiedLinks().size() + " links kept)");
    }

    /** Two devices: one link. More: every selected device cabled to every selected device one tier up. */
    public void connectSelected() {
        List<Device> sel = new ArrayList<>(doc.selection().devices());
        if (sel.size() < 2) {
            message("Select two or more devices to connect");
            return;
        }
        if (sel.size() == 2) {
            canvas.link(sel.get(0), sel.get(1));
            return;
        }
        sel.sort(Comparator.comparingInt(d -> d.role().tier()));
        List<FabricCommand> links = new ArrayList<>();
        Fabric f = doc.fabric();
        try {
            // Build the commands one by one against a scratch copy of port use: execute as we go
            // inside a compound so each choice sees the ports the previous ones took.
            for (Device low : sel) {
                for (Device high : sel) {
                    if (high.role().tier() == low.role().tier() + 1) {
                        AddLinkCommand c = new AddLinkCommand(f, low, high);
                        c.execute();
                        links.add(c);
                    }
                }
            }
        } catch (IllegalArgumentException ex) {
            for (int i = links.size() - 1; i >= 0; i--) {
                links.get(i).undo();
            }
            message("Cannot connect: " + ex.getMessage());
            return;
        }
        for (int i = links.size() - 1; i >= 0; i--) {
            links.get(i).undo();
        }
        if (links.isEmpty()) {
            message("No pair of selected devices sits in adjacent tiers");
            return;
        }
        doc.execute(new CompoundCommand("Connect " + links.size() + " links", links));
        message("Added " + links.size() + " links between adjacent tiers");
    }

    public void autoLayout() {
        doc.execute(MoveDevicesCommand.toLayout(doc.fabric(), "Auto layout",
                new TieredLayout().layout(doc.fabric())));
        canvas.fitToWindow();
    }

    // ----- new, templates, folding -------------------------------------------------------------

    /** File > New: an empty fabric in this window, undoable (Ctrl+Z brings the previous one back). */
    public void newBlank() {
        Fabric f = new Fabric("untitled");
        doc.execute(new ReplaceFabricCommand(doc, "New fabric", f, null));
        message("New empty fabric: drag devices from the palette (Ctrl+Z brings the previous fabric back)");
    }

    /** File > New from Template: the generator dialog; OK replaces the fabric as one undoable step. */
    public void newFromTemplate() {
        openTemplateDialog().show(this::applyTemplate);
    }

    /** Opens the template dialog without blocking (tests drive it). */
    TemplateDialog openTemplateDialog() {
        return new TemplateDialog(getScene() == null ? null : getScene().getWindow());
    }

    void applyTemplate(TemplateDialog.Generated g) {
        doc.execute(new ReplaceFabricCommand(doc, "New from template (" + g.kind() + ")", g.fabric(), null));
        message("Generated " + g.kind() + ": " + TemplateDialog.previewText(g).replace('\n', ' ')
                + " (Ctrl+Z undoes it)");
    }

    /**
     * Folds (or unfolds) the scalable units or racks of the selected devices into one box: a layout
     * change saved with the file, and undoable.
     */
    public void foldSelection(boolean fold) {
        Fabric f = doc.fabric();
        java.util.Set<String> keys = new java.util.TreeSet<>();
        for (Device d : doc.selection().devices()) {
            if (d.role() == DeviceRole.SERVER) {
                keys.add(FabricPainter.foldKey(f, d));
            } else if (d.unit() != null && d.role().tier() == 1) {
                keys.add("unit " + d.unit());
            } else {
                // A switch stands for the rack of servers under it.
                keys.add("rack " + d.id());
            }
        }
        java.util.Set<String> before = java.util.Set.copyOf(f.layout().foldedGroups());
        java.util.Set<String> after = new java.util.TreeSet<>(before);
        if (fold) {
            after.addAll(keys);
        } else if (keys.isEmpty()) {
            after.clear();
        } else {
            after.removeAll(keys);
        }
        if (after.equals(before)) {
            message(fold ? "Select servers (or their unit's leaves) to fold their group" : "Nothing folded there");
            return;
        }
        java.util.Set<String> target = java.util.Set.copyOf(after);
        doc.execute(new SetPropertyCommand<java.util.Set<String>>((fold ? "Fold " : "Unfold ") + String.join(", ",
                fold ? keys : before.stream().filter(k -> !after.contains(k)).toList()),
                () -> java.util.Set.copyOf(f.layout().foldedGroups()), v -> {
                    f.layout().foldedGroups().clear();
                    f.layout().foldedGroups().addAll(v);
                }, target));
        if (fold) {
            doc.selection().clear();
        }
    }

    // ----- analysis ------------------------------------------------------------------------------

    /**
     * Fabric > Analyze: every static analysis (as `fabriclab analyze` prints it) of a copy of the
     * fabric, on a background thread; the result opens in a window you can keep beside the canvas.
     */
    public void analyze() {
        Fabric snapshot = copyOfFabric();
        String name = doc.file() == null ? doc.fabric().name() : doc.file().toString();
        message("Analyzing " + doc.fabric().name() + "…");
        Task<String> t = new Task<>() {
            @Override
            protected String call() throws Exception {
                io.fabriclab.topology.FabricAnalysis a = io.fabriclab.topology.FabricAnalysis.run(snapshot,
                        io.fabriclab.topology.FabricAnalysis.Options.defaults(
                                io.fabriclab.io.PriceBookFile.sample()));
                return io.fabriclab.cli.AnalyzeCommand.text(snapshot, name, a, 10);
            }
        };
        t.setOnSucceeded(e -> {
            message("Analysis done");
            dialogs.showReport("Analysis of " + snapshot.name(), t.getValue());
        });
        t.setOnFailed(e -> message("Analysis failed: " + t.getException().getMessage()));
        background(t, "analyze");
    }

    /** A deep copy through the file format, so background work never reads a fabric being edited. */
    private Fabric copyOfFabric() {
        try {
            return FabricJson.read(FabricJson.write(doc.fabric()), doc.fabric().name());
        } catch (InputException e) {
            throw new IllegalStateException("the fabric does not read back: " + e.getMessage(), e);
        }
    }

    /**
     * Fabric > Check Deadlocks: the cyclic-buffer-dependency check (topology.DeadlockCheck) on the
     * routing as drawn; the switches and links of every cycle are highlighted and selected.
     */
    public DeadlockCheck.Result checkDeadlocks() {
        Fabric f = doc.fabric();
        DeadlockCheck.Result r = DeadlockCheck.check(f);
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%,d buffer dependencies on lossless priorities %s%n", r.dependencies(),
                r.priorities()));
        Set<Device> devices = new java.util.LinkedHashSet<>();
        Set<Link> links = new java.util.LinkedHashSet<>();
        if (r.deadlockFree()) {
            sb.append("No cyclic buffer dependency: PFC cannot deadlock with this routing.\n");
        } else {
            sb.append(r.cycles().size()).append(" cycle(s) of buffer dependencies: PFC can deadlock.\n");
            for (DeadlockCheck.Cycle c : r.cycles()) {
                sb.append("  priority ").append(c.priority()).append(": ").append(String.join(" -> ", c.switches()))
                        .append('\n');
                for (DeadlockCheck.IngressQueue q : c.queues()) {
                    Device d = f.device(q.device());
                    if (d != null) {
                        devices.add(d);
                    }
                    Link l = f.link(q.link());
                    if (l != null) {
                        links.add(l);
                    }
                }
            }
        }
        shownPaths = null;
        canvas.setHighlight(links, devices);
        if (!devices.isEmpty()) {
            doc.selection().set(devices, links);
        }
        message(r.deadlockFree() ? "Deadlock check: no cyclic buffer dependency"
                : "Deadlock check: " + r.cycles().size() + " cycle(s), highlighted");
        dialogs.showReport("Deadlock check", sb.toString());
        return r;
    }

    /**
     * Fabric > Fail a Link…: the selected link (or one named by id or port, e.g. leaf1:eth49) is
     * set down as an undoable edit, and what its loss costs is reported (topology.FailureImpact).
     */
    public void failLinkDialog() {
        Link l = doc.selection().links().size() == 1 ? doc.selection().links().iterator().next() : null;
        if (l == null) {
            javafx.scene.control.TextInputDialog d = new javafx.scene.control.TextInputDialog();
            d.setTitle("Fail a link");
            d.setHeaderText("Which link? Give its id or one of its ports (leaf1:eth49), or select it first.");
            d.initOwner(getScene().getWindow());
            String spec = d.showAndWait().orElse(null);
            if (spec == null || spec.isBlank()) {
                return;
            }
            l = doc.fabric().findLink(spec.trim());
            if (l == null) {
                message("No link matches \"" + spec.trim() + "\"");
                return;
            }
        }
        failLink(l);
    }

    /** Sets a link down (one undo step) and reports the impact of losing it. */
    public FailureImpact.Detail failLink(Link l) {
        if (!l.isUp()) {
            message(l.id() + " is already down");
            return null;
        }
        FailureImpact.Detail d = FailureImpact.detail(doc.fabric(), l);
        doc.execute(new SetPropertyCommand<>("Fail " + l.id(), l::state, l::setState, LinkState.DOWN));
        doc.selection().set(List.of(), List.of(l));
        String text = String.format(Locale.ROOT,
                "%s is down (Ctrl+Z restores it).%n%nCapacity lost: %,.0f Gb/s%nNIC pairs cut off: %,d%n"
                        + "Worst switch pair keeps %.0f %% of its ECMP paths%nSwitch pairs whose paths changed: %,d",
                l.id(), d.capacityLostGbps(), d.nicPairsDisconnected(), 100 * (1 - d.worstDropFraction()),
                d.changedPairs().size());
        message(String.format(Locale.ROOT, "Failed %s: %,.0f Gb/s lost, %,d NIC pairs cut off", l.id(),
                d.capacityLostGbps(), d.nicPairsDisconnected()));
        dialogs.showReport("Failure of " + l.id(), text);
        return d;
    }

    // ----- ECMP paths ----------------------------------------------------------------------------

    /**
     * Two servers selected: the ECMP paths between their first NICs that share a rail (NIC k to
     * NIC k, else the first NIC of each) are highlighted; anything else clears the highlight.
     */
    private void selectionChanged() {
        List<Device> sel = List.copyOf(doc.selection().devices());
        if (sel.size() == 2 && doc.selection().links().isEmpty() && sel.get(0).role() == DeviceRole.SERVER
                && sel.get(1).role() == DeviceRole.SERVER) {
            List<Port> a = nics(sel.get(0));
            List<Port> b = nics(sel.get(1));
            if (!a.isEmpty() && !b.isEmpty()) {
                Port pb = b.stream().filter(p -> java.util.Objects.equals(p.nic(), a.get(0).nic())).findFirst()
                        .orElse(b.get(0));
                showPaths(a.get(0), pb);
                return;
            }
        }
        if (shownPaths != null && !(sel.size() == 2 && sel.contains(shownPaths.from().device())
                && sel.contains(shownPaths.to().device()))) {
            clearPaths();
        }
    }

    private static List<Port> nics(Device server) {
        return server.ports().stream().filter(p -> p.nic() != null).toList();
    }

    /** Highlights every ECMP path between two NIC ports and says how many there are. */
    public EcmpPaths showPaths(Port a, Port b) {
        EcmpPaths p = EcmpPaths.between(Routing.compute(doc.fabric()), a, b);
        shownPaths = p;
        canvas.setHighlight(p.links(), p.devices());
        message(p.count() == 0 ? "No path from " + a.ref() + " to " + b.ref()
                : String.format(Locale.ROOT, "%s → %s: %,d ECMP path%s of %d links, highlighted (Fabric > Show ECMP Paths picks other NICs)",
                        a.ref(), b.ref(), p.count(), p.count() == 1 ? "" : "s", p.hops()));
        return p;
    }

    /** The ECMP paths highlighted now, or null. */
    public EcmpPaths shownPaths() {
        return shownPaths;
    }

    public void clearPaths() {
        shownPaths = null;
        canvas.setHighlight(Set.of(), Set.of());
    }

    /** Fabric > Show ECMP Paths…: pick the two NICs (pre-filled from two selected servers). */
    public void ecmpPathsDialog() {
        List<Port> all = new ArrayList<>();
        for (Device s : doc.fabric().servers()) {
            all.addAll(nics(s));
        }
        if (all.size() < 2) {
            message("The fabric needs two servers with NICs");
            return;
        }
        List<Device> sel = doc.selection().devices().stream().filter(d -> d.role() == DeviceRole.SERVER).toList();
        javafx.scene.control.ComboBox<String> from = new javafx.scene.control.ComboBox<>();
        javafx.scene.control.ComboBox<String> to = new javafx.scene.control.ComboBox<>();
        for (javafx.scene.control.ComboBox<String> c : List.of(from, to)) {
            c.setEditable(true);
            c.getItems().setAll(all.stream().limit(5000).map(Port::ref).toList());
        }
        from.setValue(sel.size() >= 1 ? nics(sel.get(0)).get(0).ref() : all.get(0).ref());
        to.setValue(sel.size() >= 2 ? nics(sel.get(1)).get(0).ref() : all.get(all.size() - 1).ref());
        javafx.scene.control.Dialog<javafx.scene.control.ButtonType> d = new javafx.scene.control.Dialog<>();
        d.setTitle("ECMP paths");
        d.setHeaderText("Highlight every equal-cost path between two NICs (server:port)");
        d.initOwner(getScene().getWindow());
        javafx.scene.layout.GridPane g = new javafx.scene.layout.GridPane();
        g.setHgap(8);
        g.setVgap(8);
        g.addRow(0, new Label("From NIC"), from);
        g.addRow(1, new Label("To NIC"), to);
        d.getDialogPane().setContent(g);
        d.getDialogPane().getButtonTypes().addAll(javafx.scene.control.ButtonType.CANCEL,
                javafx.scene.control.ButtonType.OK);
        d.showAndWait().filter(b -> b == javafx.scene.control.ButtonType.OK).ifPresent(b -> {
            Port a = doc.fabric().port(from.getValue().trim());
            Port c = doc.fabric().port(to.getValue().trim());
            if (a == null || c == null) {
                message("No such NIC: " + (a == null ? from.getValue() : to.getValue()));
                return;
            }
            showPaths(a, c);
        });
    }

    // ----- theme -------------------------------------------------------------------------------

    /** View > Theme: the canvas colours (diagram.DiagramStyle) and the window's controls. */
    public void setTheme(DiagramStyle.Theme t) {
        theme = t;
        canvas.setTheme(t);
        palette.setDark(t == DiagramStyle.Theme.DARK);
        getStylesheets().removeIf(s -> s.startsWith("data:text/css"));
        if (t == DiagramStyle.Theme.DARK) {
            String css = ".root { -fx-base: #2f353d; -fx-background: #23272e; -fx-control-inner-background: #1e2227;"
                    + " -fx-accent: #3d7bc4; -fx-focus-color: #3d7bc4; }"
                    + " .menu-bar, .tool-bar, .status-bar { -fx-background-color: #2a2f36; }"
                    + " .text-field { -fx-prompt-text-fill: #8a939e; }";
            getStylesheets().add("data:text/css;base64," + java.util.Base64.getEncoder().encodeToString(
                    css.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        }
    }

    public DiagramStyle.Theme theme() {
        return theme;
    }

    // ----- files -------------------------------------------------------------------------------

    private FileChooser fabricChooser(String title) {
        FileChooser chooser = new FileChooser();
        chooser.setTitle(title);
        chooser.getExtensionFilters().addAll(
                new FileChooser.ExtensionFilter("FabricLab fabric (*.json)", "*.json"),
                new FileChooser.ExtensionFilter("containerlab topology (*.clab.yml)", "*.clab.yml", "*.clab.yaml"));
        if (doc.file() != null && doc.file().toAbsolutePath().getParent() != null) {
            chooser.setInitialDirectory(doc.file().toAbsolutePath().getParent().toFile());
        }
        return chooser;
    }

    private void openDialog() {
        if (!confirmDiscard()) {
            return;
        }
        File f = fabricChooser("Open fabric").showOpenDialog(getScene().getWindow());
        if (f != null) {
            open(f.toPath());
        }
    }

    private static void background(Task<?> t, String name) {
        Thread th = new Thread(t, name);
        th.setDaemon(true);
        th.start();
    }

    /**
     * Reads a fabric file off the FX thread, then shows it in this window in place of the current
     * one. A bad file leaves everything as it was: a dialog lists every problem found (file, JSON
     * path, value, what is allowed) and the status bar names the first.
     */
    public void open(Path file) {
        message("Opening " + file.getFileName() + "…");
        Task<Fabric> load = new Task<>() {
            @Override
            protected Fabric call() throws Exception {
                return FabricFiles.load(file);
            }
        };
        load.setOnSucceeded(e -> {
            FabricEditor next = new FabricEditor(new FabricDocument(load.getValue(), file));
            next.setDialogService(dialogs);
            next.recent = recent;
            next.recovery = recovery;
            boolean autosaving = autosave != null;
            stopAutosave();
            recovery.discard();
            javafx.scene.Scene scene = getScene();
            scene.setRoot(next);
            if (scene.getWindow() instanceof javafx.stage.Stage st) {
                st.setTitle(next.windowTitle());
            }
            if (theme != DiagramStyle.Theme.LIGHT) {
                next.setTheme(theme);
            }
            if (autosaving) {
                next.startAutosave();
            }
            recent.add(file);
            next.rebuildRecentMenu();
            next.message("Opened " + file);
        });
        load.setOnFailed(e -> loadFailed(file, load.getException()));
        background(load, "open " + file.getFileName());
    }

    private void loadFailed(Path file, Throwable ex) {
        String all = ex instanceof InputException ie ? ie.getMessage() : String.valueOf(ex);
        int n = ex instanceof InputException ie ? ie.problems().size() : 1;
        message("Cannot open " + file.getFileName() + ": " + firstLine(all) + (n > 1 ? " (and " + (n - 1)
                + " more problems)" : ""));
        dialogs.showErrors("Cannot open " + file + (n > 1 ? " (" + n + " problems)" : "")
                + ". The fabric you were editing is unchanged.", all);
    }

    /** File > Import containerlab: the lab replaces the drawing as one undoable step (Save then writes JSON). */
    private void importContainerlabDialog() {
        FileChooser chooser = new FileChooser();
        chooser.setTitle("Import containerlab topology");
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter("containerlab topology", "*.clab.yml",
                "*.clab.yaml", "*.yml", "*.yaml"));
        File f = chooser.showOpenDialog(getScene().getWindow());
        if (f != null) {
            importContainerlab(f.toPath());
        }
    }

    /** Reads a containerlab topology (with its annotations side file) off the FX thread and puts it in this document. */
    public void importContainerlab(Path file) {
        message("Importing " + file.getFileName() + "…");
        Task<Fabric> load = new Task<>() {
            @Override
            protected Fabric call() throws Exception {
                return io.fabriclab.io.ContainerlabYaml.read(file);
            }
        };
        load.setOnSucceeded(e -> {
            Fabric f = load.getValue();
            doc.execute(new ReplaceFabricCommand(doc, "Import " + file.getFileName(), f, null));
            message(String.format(Locale.ROOT, "Imported %s: %,d devices, %,d links (Ctrl+Z undoes the import)",
                    file.getFileName(), f.devices().size(), f.linkCount()));
        });
        load.setOnFailed(e -> loadFailed(file, load.getException()));
        background(load, "import " + file.getFileName());
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unknown error";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl) + " …";
    }

    /** Saves to the document's file (atomically, in the format its name selects), or asks for one. */
    public boolean save() {
        if (doc.file() == null) {
            return saveAs();
        }
        return saveTo(doc.file());
    }

    public boolean saveAs() {
        FileChooser chooser = fabricChooser("Save fabric as");
        chooser.setInitialFileName(doc.file() != null ? doc.file().getFileName().toString() : doc.fabric().name() + ".json");
        File f = chooser.showSaveDialog(getScene().getWindow());
        return f != null && saveTo(f.toPath());
    }

    /**
     * Writes the fabric on the FX thread: the model is edited on this thread, so writing here
     * means the file never mixes two states. Returns false (and says why) when it fails.
     */
    public boolean saveTo(Path file) {
        try {
            FabricFiles.save(doc.fabric(), file);
            doc.setFile(file);
            doc.stack().markSaved();
            recovery.discard();
            recent.add(file);
            rebuildRecentMenu();
            message("Saved " + file);
            return true;
        } catch (InputException ex) {
            message("Not saved: " + firstLine(ex.getMessage()));
        } catch (IOException ex) {
            message("Not saved: " + ex.getMessage());
        }
        return false;
    }

    /**
     * File > Export containerlab / GraphML: a copy in another format; the document keeps its own
     * file and stays as modified as it was. containerlab gets its TopoViewer annotations side file
     * ({@code <topo>.clab.yml.annotations.json}) with every position.
     */
    private void exportAs(String what, String pattern, String ending) {
        FileChooser chooser = new FileChooser();
        chooser.setTitle("Export " + what);
        chooser.setInitialFileName(doc.fabric().name().replaceAll("[^A-Za-z0-9._-]+", "-") + ending);
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter(what, pattern));
        File f = chooser.showSaveDialog(getScene().getWindow());
        if (f != null) {
            Path p = f.getName().endsWith(ending) ? f.toPath() : f.toPath().resolveSibling(f.getName() + ending);
            exportTo(p);
        }
    }

    /** Writes a copy of the fabric in the format the file name selects (containerlab, GraphML, DOT, JSON). */
    public boolean exportTo(Path file) {
        try {
            FabricFiles.save(doc.fabric(), file);
            message("Exported " + file + (file.getFileName().toString().contains(".clab.")
                    ? " and " + io.fabriclab.io.ContainerlabYaml.annotationsPath(file).getFileName() : ""));
            return true;
        } catch (InputException ex) {
            message("Not exported: " + firstLine(ex.getMessage()));
        } catch (IOException ex) {
            message("Not exported: " + ex.getMessage());
        }
        return false;
    }

    /** The whole fabric as SVG (the report's picture), written next to the chosen name and moved into place. */
    private void exportSvg() {
        FileChooser chooser = new FileChooser();
        chooser.setTitle("Export SVG");
        chooser.setInitialFileName(doc.fabric().name() + ".svg");
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter("SVG image", "*.svg"));
        File f = chooser.showSaveDialog(getScene().getWindow());
        if (f == null) {
            return;
        }
        try {
            String svg = FabricSvg.render(doc.fabric(), 1600, 1000, canvas.options());
            io.fabriclab.io.AtomicFiles.write(f.toPath(), svg.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            message("Exported " + f.getName());
        } catch (IOException ex) {
            message("Export failed: " + ex.getMessage());
        }
    }

    private void exportPng() {
        FileChooser chooser = new FileChooser();
        chooser.setTitle("Export PNG");
        chooser.setInitialFileName(doc.fabric().name() + ".png");
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter("PNG image", "*.png"));
        File f = chooser.showSaveDialog(getScene().getWindow());
        if (f != null) {
            exportPng(f.toPath());
        }
    }

    /** The canvas as drawn now (the visible part, at screen resolution), as a PNG file. */
    public boolean exportPng(Path file) {
        WritableImage img = canvas.canvas().snapshot(null, null);
        try {
            ImageIO.write(SwingFXUtils.fromFXImage(img, null), "png", file.toFile());
            message("Exported " + file.getFileName());
            return true;
        } catch (IOException ex) {
            message("Export failed: " + ex.getMessage());
            return false;
        }
    }

    // ----- autosave and recovery -----------------------------------------------------------------

    /** Writes the recovery file every {@link AutosaveRecovery#intervalSeconds()} while there are unsaved changes. */
    public void startAutosave() {
        stopAutosave();
        autosave = new Timeline(new KeyFrame(Duration.seconds(AutosaveRecovery.intervalSeconds()), e -> autosaveNow()));
        autosave.setCycleCount(Timeline.INDEFINITE);
        autosave.play();
    }

    private void stopAutosave() {
        if (autosave != null) {
            autosave.stop();
            autosave = null;
        }
    }

    /**
     * One autosave: with unsaved changes the fabric is serialised here (the FX thread owns it) and
     * written by a background thread; without, the recovery file goes.
     */
    public void autosaveNow() {
        if (!doc.stack().isModified()) {
            recovery.discard();
            autosavedRevision = doc.stack().revision();
            return;
        }
        if (autosavedRevision == doc.stack().revision()) {
            return;
        }
        autosavedRevision = doc.stack().revision();
        String json = FabricJson.write(doc.fabric());
        Path original = doc.file();
        AutosaveRecovery r = recovery;
        Task<Void> t = new Task<>() {
            @Override
            protected Void call() throws IOException {
                r.write(json, original);
                return null;
            }
        };
        t.setOnFailed(e -> message("Autosave failed: " + t.getException().getMessage()));
        background(t, "autosave");
    }

    /** Stops autosaving and removes the recovery file: the window closes with nothing unsaved to keep. */
    public void shutdown() {
        stopAutosave();
        recovery.discard();
    }

    /**
     * After a crash: a recovery file of a FabricLab that is no longer running is offered for
     * restore; yes puts it in this window as one undoable step, marked unsaved, with the file it
     * belonged to so Save writes there. Either way the orphan is removed.
     */
    public boolean offerRecovery() {
        for (AutosaveRecovery.Orphan o : recovery.orphans()) {
            Fabric f;
            try {
                f = o.load();
            } catch (InputException e) {
                o.delete();
                continue;
            }
            String when;
            try {
                when = java.nio.file.Files.getLastModifiedTime(o.json()).toString();
            } catch (IOException e) {
                when = "an earlier session";
            }
            boolean yes = dialogs.confirm("Restore unsaved work?", "FabricLab did not close properly. Restore \""
                    + f.name() + "\" as autosaved at " + when
                    + (o.originalFile() == null ? "" : " (from " + o.originalFile() + ")") + "?");
            o.delete();
            if (yes) {
                doc.execute(new ReplaceFabricCommand(doc, "Restore autosaved " + f.name(), f, o.originalFile()));
                message("Restored the autosaved fabric: save it to keep it");
                return true;
            }
        }
        return false;
    }
}
