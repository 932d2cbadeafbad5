package io.fabriclab.ui;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import javax.imageio.ImageIO;

import org.controlsfx.control.StatusBar;

import io.fabriclab.diagram.FabricPainter;
import io.fabriclab.diagram.FabricSvg;
import io.fabriclab.diagram.TieredLayout;
import io.fabriclab.edit.AddLinkCommand;
import io.fabriclab.edit.CompoundCommand;
import io.fabriclab.edit.FabricCommand;
import io.fabriclab.edit.MoveDevicesCommand;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
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

/**
 * The editor window's content: menu bar, toolbar, palette, the fabric canvas, the inspector, a
 * problems panel and the status bar (devices, links, GPUs, zoom).
 */
public final class FabricEditor extends BorderPane {
    private final FabricDocument doc;
    private final FabricCanvas canvas;
    private final InspectorPane inspector;
    private final PalettePane palette;
    private final StatusBar status = new StatusBar();
    private final Label counts = new Label();
    private final Label zoomLabel = new Label();
    private final TextField findField = new TextField();
    private final MenuBar menuBar = new MenuBar();
    private final ProblemsPane problems;
    private final MenuItem undoItem = new MenuItem("Undo");
    private final MenuItem redoItem = new MenuItem("Redo");
    private DialogService dialogs = DialogService.fx(() -> getScene() == null ? null : getScene().getWindow());

    // ----- live view (ui.live): a run panel docked beside the canvas ----------------------------
    private SplitPane centre;
    private io.fabriclab.ui.live.LivePanel livePanel;

    /** Shows or hides the live congestion view's run panel beside the canvas (stopping its run when hidden). */
    public void showLiveView(boolean show) {
        if (show && livePanel == null) {
            livePanel = new io.fabriclab.ui.live.LivePanel(canvas);
            centre.getItems().add(2, livePanel);
            centre.setDividerPositions(0.11, 0.55, 0.86);
        } else if (!show && livePanel != null) {
            livePanel.dispose();
            centre.getItems().remove(livePanel);
            livePanel = null;
            canvas.requestRedraw();
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

        status.getRightItems().addAll(counts, new Separator(Orientation.VERTICAL), zoomLabel);
        status.setText("Ready. Drag from the palette to add, shift-drag between devices to link.");
        doc.stack().addListener(this::refreshState);
        doc.selection().addListener(this::refreshState);
        zoomLabel.textProperty().bind(Bindings.createStringBinding(
                () -> String.format("zoom %.0f %%", canvas.zoomProperty().get() * 100), canvas.zoomProperty()));
        refreshState();
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

    /** Replaces the dialogs (tests answer questions themselves). */
    public void setDialogService(DialogService d) {
        dialogs = d;
    }

    private void message(String m) {
        status.setText(m);
    }

    private void refreshState() {
        Fabric f = doc.fabric();
        counts.setText(f.devices().size() + " devices · " + f.linkCount() + " links · " + f.gpuCount() + " GPUs");
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

    // ----- menus -------------------------------------------------------------------------------

    private MenuBar buildMenus() {
        Menu file = new Menu("File");
        MenuItem newFromTemplate = disabled("New from Template…", "Shortcut+N");
        MenuItem open = new MenuItem("Open…");
        open.setAccelerator(KeyCombination.keyCombination("Shortcut+O"));
        open.setOnAction(e -> openDialog());
        MenuItem save = new MenuItem("Save");
        save.setAccelerator(KeyCombination.keyCombination("Shortcut+S"));
        save.setOnAction(e -> save());
        MenuItem saveAs = new MenuItem("Save As…");
        saveAs.setAccelerator(KeyCombination.keyCombination("Shortcut+Shift+S"));
        saveAs.setOnAction(e -> saveAs());
        MenuItem exportPng = new MenuItem("Export PNG…");
        exportPng.setOnAction(e -> exportPng());
        MenuItem exportSvg = new MenuItem("Export SVG…");
        exportSvg.setOnAction(e -> exportSvg());
        MenuItem exit = new MenuItem("Exit");
        exit.setAccelerator(KeyCombination.keyCombination("Shortcut+Q"));
        exit.setOnAction(e -> {
            if (confirmDiscard()) {
                Platform.exit();
            }
        });
        file.getItems().addAll(newFromTemplate, open, save, saveAs, new SeparatorMenuItem(), exportPng, exportSvg,
                new SeparatorMenuItem(), exit);

        Menu edit = new Menu("Edit");
        undoItem.setAccelerator(KeyCombination.keyCombination("Shortcut+Z"));
        undoItem.setOnAction(e -> doc.undo());
        redoItem.setAccelerator(KeyCombination.keyCombination("Shortcut+Y"));
        redoItem.setOnAction(e -> doc.redo());
        MenuItem redoAlt = new MenuItem("Redo (alternative)");
        redoAlt.setAccelerator(KeyCombination.keyCombination("Shortcut+Shift+Z"));
        redoAlt.setOnAction(e -> doc.redo());
        redoAlt.setVisible(false);
        MenuItem delete = new MenuItem("Delete\t(Del)");
        delete.setOnAction(e -> canvas.deleteSelection());
        MenuItem selectAll = new MenuItem("Select All");
        selectAll.setAccelerator(KeyCombination.keyCombination("Shortcut+A"));
        selectAll.setOnAction(e -> canvas.selectAll());
        MenuItem find = new MenuItem("Find Device…");
        find.setAccelerator(KeyCombination.keyCombination("Shortcut+F"));
        find.setOnAction(e -> findField.requestFocus());
        MenuItem copy = new MenuItem("Copy");
        copy.setAccelerator(KeyCombination.keyCombination("Shortcut+C"));
        copy.setOnAction(e -> copySelection());
        MenuItem paste = new MenuItem("Paste");
        paste.setAccelerator(KeyCombination.keyCombination("Shortcut+V"));
        paste.setOnAction(e -> paste());
        MenuItem duplicate = new MenuItem("Duplicate");
        duplicate.setAccelerator(KeyCombination.keyCombination("Shortcut+D"));
        duplicate.setOnAction(e -> duplicate(doc.selection().devices(), 1));
        edit.getItems().addAll(undoItem, redoItem, redoAlt, new SeparatorMenuItem(), disabled("Cut", "Shortcut+X"),
                copy, paste, duplicate, delete, new SeparatorMenuItem(), selectAll, find);

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
        CheckMenuItem labels = new CheckMenuItem("Port Labels");
        labels.setSelected(true);
        labels.setAccelerator(KeyCombination.keyCombination("Shortcut+L"));
        labels.setOnAction(e -> canvas.setOptions(canvas.options().withLabels(labels.isSelected())));
        CheckMenuItem legend = new CheckMenuItem("Legend");
        legend.setSelected(true);
        legend.setOnAction(e -> canvas.setOptions(canvas.options().withLegend(legend.isSelected())));
        CheckMenuItem grid = new CheckMenuItem("Grid");
        grid.setSelected(true);
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
        view.getItems().addAll(zoomIn, zoomInPlus, zoomOut, fit, actual, new SeparatorMenuItem(), labels, legend, grid,
                fold, minimap);

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
        MenuItem connect = new MenuItem("Connect Selected Devices");
        connect.setAccelerator(KeyCombination.keyCombination("Shortcut+K"));
        connect.setOnAction(e -> connectSelected());
        MenuItem autoLayout = new MenuItem("Auto Layout (Tiered)");
        autoLayout.setOnAction(e -> autoLayout());
        fabric.getItems().addAll(selectTool, linkTool, new SeparatorMenuItem(), connect,
                bulkLinkItem(), autoLayout, new SeparatorMenuItem(),
                disabled("Analyse", null), disabled("Simulate…", null), disabled("QoS Profiles…", null));

        menuBar.getMenus().addAll(file, edit, view, fabric);
        menuBar.getMenus().add(io.fabriclab.ui.live.LiveMenu.create(this));
        return menuBar;
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

    public ProblemsPane problems() {
        return problems;
    }

    // ----- actions -----------------------------------------------------------------------------

    /** Devices copied with Ctrl+C; paste duplicates those still in the fabric, links among them included. */
    private List<Device> clipboard = List.of();
    private int pasteCount;

    public void copySelection() {
        clipboard = List.copyOf(doc.selection().devices());
        pasteCount = 0;
        message(clipboard.isEmpty() ? "Nothing selected to copy" : "Copied " + clipboard.size() + " devices");
    }

    public void paste() {
        List<Device> still = clipboard.stream().filter(d -> doc.fabric().device(d.id()) == d).toList();
        if (still.isEmpty()) {
            message("Nothing to paste");
            return;
        }
        duplicate(still, ++pasteCount);
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

    /**
     * Reads a fabric file off the FX thread, then shows it in this window in place of the current
     * one; a bad file leaves everything as it was and the status bar says what is wrong and where.
     */
    public void open(java.nio.file.Path file) {
        message("Opening " + file.getFileName() + "…");
        javafx.concurrent.Task<Fabric> load = new javafx.concurrent.Task<>() {
            @Override
            protected Fabric call() throws Exception {
                return io.fabriclab.io.FabricFiles.load(file);
            }
        };
        load.setOnSucceeded(e -> {
            FabricEditor next = new FabricEditor(new FabricDocument(load.getValue(), file));
            next.setDialogService(dialogs);
            javafx.scene.Scene scene = getScene();
            scene.setRoot(next);
            if (scene.getWindow() instanceof javafx.stage.Stage st) {
                st.setTitle(next.windowTitle());
            }
            next.message("Opened " + file);
        });
        load.setOnFailed(e -> message("Cannot open " + file.getFileName() + ": "
                + firstLine(load.getException().getMessage())));
        Thread t = new Thread(load, "open " + file.getFileName());
        t.setDaemon(true);
        t.start();
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
    public boolean saveTo(java.nio.file.Path file) {
        try {
            io.fabriclab.io.FabricFiles.save(doc.fabric(), file);
            doc.setFile(file);
            doc.stack().markSaved();
            message("Saved " + file);
            return true;
        } catch (io.fabriclab.io.InputException ex) {
            message("Not saved: " + firstLine(ex.getMessage()));
        } catch (IOException ex) {
            message("Not saved: " + ex.getMessage());
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
            java.nio.file.Path target = f.toPath();
            java.nio.file.Path tmp = java.nio.file.Files.createTempFile(target.toAbsolutePath().getParent(), ".export", ".svg");
            java.nio.file.Files.writeString(tmp, svg);
            java.nio.file.Files.move(tmp, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
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
        if (f == null) {
            return;
        }
        WritableImage img = canvas.canvas().snapshot(null, null);
        try {
            ImageIO.write(SwingFXUtils.fromFXImage(img, null), "png", f);
            message("Exported " + f.getName());
        } catch (IOException ex) {
            message("Export failed: " + ex.getMessage());
        }
    }
}
