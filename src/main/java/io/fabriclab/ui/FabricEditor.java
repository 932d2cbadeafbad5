package io.fabriclab.ui;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

import org.controlsfx.control.StatusBar;

import io.fabriclab.diagram.DiagramStyle;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.routing.EcmpPaths;
import io.fabriclab.topology.DeadlockCheck;
import io.fabriclab.topology.FailureImpact;
import io.fabriclab.topology.Oversubscription;
import javafx.animation.PauseTransition;
import javafx.beans.binding.Bindings;
import javafx.geometry.Orientation;
import javafx.scene.control.Label;
import javafx.scene.control.MenuBar;
import javafx.scene.control.Separator;
import javafx.scene.control.SplitPane;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.util.Duration;

/**
 * The editor window's content: menu bar and toolbar ({@link EditorMenus}), palette, the fabric
 * canvas, the inspector, a problems panel and the status bar (devices, links, GPUs,
 * oversubscription, zoom, and what the {@link BackgroundTasks} executor is doing). The actions live
 * in services by responsibility: {@link FileActions} (open, save, import, export),
 * {@link EditActions} (clipboard, connect, layout, fold, templates), {@link AnalysisActions}
 * (analysis, deadlock check, failed link, ECMP paths) and {@link AutosaveActions}; this class wires
 * them and keeps the public entry points tests and the live view use.
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
    /** What the background executor runs now (empty when idle); its progress is the status bar's. */
    private final Label busy = new Label();
    private final BackgroundTasks tasks = BackgroundTasks.shared();
    private final ProblemsPane problems;
    private final FileActions files;
    private final EditActions edits;
    private final AnalysisActions analysis;
    private final AutosaveActions autosave;
    private final EditorMenus menus;
    private final PauseTransition oversubscriptionDebounce = new PauseTransition(Duration.millis(400));
    private DialogService dialogs = DialogService.fx(() -> getScene() == null ? null : getScene().getWindow());
    private RecentFiles recent = RecentFiles.user();
    private Fabric shownFabric;
    private DiagramStyle.Theme theme = DiagramStyle.Theme.LIGHT;
    /** The undo stack as {@link #describeChange} last saw it, to tell an edit from an undo or a redo. */
    private int shownUndoDepth;
    private int shownRedoDepth;
    private long shownRevision;
    private String shownRedoDescription;

    // ----- live view (ui.live): a run panel docked beside the canvas ----------------------------
    private SplitPane centre;
    private LiveViewProvider.Panel livePanel;
    /** The centre's dividers before the live panel opened, restored when it closes. */
    private double[] dividersBeforeLive;
    /** Width the docked live panel is given (its fields fit at 1280 px without being cut off). */
    static final double LIVE_PANEL_WIDTH = 400;

    /**
     * Shows or hides the live congestion view's run panel beside the canvas (stopping its run when
     * hidden). While it is shown the inspector is docked away (the panel's Selection section takes
     * its place), so the canvas keeps most of the window: at 1600 px about 1,000 px instead of 700
     * with both side panels; closing the panel brings the inspector and the dividers back.
     */
    public void showLiveView(boolean show) {
        boolean fitted = canvas.isStillFitted();
        if (show && livePanel == null) {
            LiveViewProvider provider = LiveViewProvider.find().orElse(null);
            if (provider == null) {
                message("This build has no live view.");
                return;
            }
            dividersBeforeLive = centre.getDividerPositions();
            livePanel = provider.panel(this);
            centre.getItems().remove(inspector);
            centre.getItems().add(livePanel.node());
            SplitPane.setResizableWithParent(livePanel.node(), false);
            double width = centre.getWidth() > 0 ? centre.getWidth() : 1600;
            double palette = Math.min(dividersBeforeLive.length > 0 ? dividersBeforeLive[0] : 0.11, 0.13);
            centre.setDividerPositions(palette, Math.max(palette + 0.3, 1 - LIVE_PANEL_WIDTH / width));
        } else if (!show && livePanel != null) {
            livePanel.dispose();
            centre.getItems().remove(livePanel.node());
            centre.getItems().add(inspector);
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
    public LiveViewProvider.Panel livePanel() {
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

        files = new FileActions(this);
        edits = new EditActions(this);
        analysis = new AnalysisActions(this);
        autosave = new AutosaveActions(this);
        menus = new EditorMenus(this);
        problems = new ProblemsPane(doc);
        problems.setOnReveal(id -> canvas.reveal(doc.fabric().device(id)));
        VBox bottom = new VBox(problems, status);
        VBox top = new VBox(menus.buildMenus(), menus.buildToolBar());
        setTop(top);
        setCenter(centre);
        setBottom(bottom);

        oversubscription.setId("status-oversubscription");
        counts.setId("status-counts");
        busy.setId("status-busy");
        busy.textProperty().bind(tasks.titleProperty());
        status.progressProperty().bind(tasks.progressProperty());
        status.getRightItems().addAll(busy, new Separator(Orientation.VERTICAL), counts, new Separator(Orientation.VERTICAL), oversubscription,
                new Separator(Orientation.VERTICAL), zoomLabel);
        message("Ready. Drag from the palette to add, shift-drag between devices to link.");
        // The message in full on hover (the status bar cuts a long one short); a click opens the log.
        javafx.scene.control.Tooltip full = new javafx.scene.control.Tooltip();
        full.textProperty().bind(status.textProperty());
        full.setWrapText(true);
        full.setMaxWidth(700);
        full.setShowDelay(Duration.millis(300));
        status.setTooltip(full);
        status.setOnMouseClicked(e -> {
            if (e.getClickCount() == 2) {
                showMessageLog();
            }
        });
        // The right-hand fields keep their full text; the message on the left is what gets cut short.
        for (Label l : List.of(busy, counts, oversubscription, zoomLabel)) {
            l.setMinWidth(Region.USE_PREF_SIZE);
        }
        doc.stack().addSavedStateListener(this::refreshState); // the title shows a save too
        doc.stack().addListener(this::describeChange);
        doc.stack().addListener(oversubscriptionDebounce::playFromStart);
        doc.selection().addListener(this::refreshState);
        doc.selection().addListener(analysis::selectionChanged);
        oversubscriptionDebounce.setOnFinished(e -> refreshOversubscription());
        zoomLabel.textProperty().bind(Bindings.createStringBinding(
                () -> String.format("zoom %.0f %%", canvas.zoomProperty().get() * 100), canvas.zoomProperty()));
        shownFabric = doc.fabric();
        canvas.addNewFabricPaintedListener(this::refreshTitle);
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
        return menus.menuBar();
    }

    public ProblemsPane problems() {
        return problems;
    }

    /** "FabricLab — name" with a star when there are unsaved changes. */
    public String windowTitle() {
        return "FabricLab — " + doc.fabric().name() + (doc.stack().isModified() ? " *" : "");
    }

    /**
     * Asks before unsaved changes are thrown away (closing the window, opening another fabric):
     * Save, Don't Save or Cancel. The future is true when it is fine to go on: at once for no
     * changes or Don't Save, after the background save for Save (a save that fails, a Save As the
     * user cancels, or an edit made while the file was written does not go on: nothing is lost).
     * It completes on the FX thread.
     */
    public CompletableFuture<Boolean> confirmDiscard() {
        if (!doc.stack().isModified()) {
            return CompletableFuture.completedFuture(true);
        }
        return switch (dialogs.askSave("Unsaved changes", doc.fabric().name()
                + " has unsaved changes. Save them first?")) {
            case SAVE -> files.save().thenApply(saved -> saved && !doc.stack().isModified());
            case DISCARD -> CompletableFuture.completedFuture(true);
            case CANCEL -> CompletableFuture.completedFuture(false);
        };
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
        menus.rebuildRecentMenu();
    }

    /** Where autosave writes (tests use a scratch directory). */
    void setRecovery(AutosaveRecovery r) {
        autosave.setRecovery(r);
    }

    /** Shows {@code m} in the status bar, and keeps it in the message log (View > Message Log). */
    public void message(String m) {
        status.setText(m);
        if (m != null && !m.isBlank()) {
            messageLog.add(java.time.LocalTime.now().withNano(0) + "  " + m);
            if (messageLog.size() > MESSAGE_LOG_SIZE) {
                messageLog.remove(0, messageLog.size() - MESSAGE_LOG_SIZE);
            }
        }
    }

    /** Messages the log keeps (the oldest go first). */
    static final int MESSAGE_LOG_SIZE = 500;
    private final javafx.collections.ObservableList<String> messageLog =
            javafx.collections.FXCollections.observableArrayList();

    /** Every status message of this window, oldest first, each with the time it was shown. */
    public javafx.collections.ObservableList<String> messageLog() {
        return messageLog;
    }

    /**
     * View > Message Log (or a click on the status bar): every message of this session in full,
     * newest at the bottom; a long message the status bar cuts short ("…Oversubs…") is read here
     * or in the status bar's tooltip (issue 35 item 5).
     */
    public void showMessageLog() {
        if (getProperties().get("message.log") instanceof javafx.stage.Stage s) {
            s.show();
            s.toFront();
            return;
        }
        javafx.scene.control.ListView<String> list = new javafx.scene.control.ListView<>(messageLog);
        list.setId("message-log");
        list.setCellFactory(v -> {
            javafx.scene.control.ListCell<String> c = new javafx.scene.control.ListCell<>() {
                @Override
                protected void updateItem(String item, boolean empty) {
                    super.updateItem(item, empty);
                    setText(empty ? null : item);
                }
            };
            c.setWrapText(true);
            c.prefWidthProperty().bind(v.widthProperty().subtract(20));
            return c;
        });
        list.scrollTo(Math.max(0, messageLog.size() - 1));
        javafx.stage.Stage s = new javafx.stage.Stage();
        s.setTitle("Message Log");
        if (getScene() != null && getScene().getWindow() != null) {
            s.initOwner(getScene().getWindow());
        }
        s.setScene(new javafx.scene.Scene(list, 760, 360));
        s.setOnHidden(e -> getProperties().remove("message.log"));
        getProperties().put("message.log", s);
        DialogFit.fit(s, s.getOwner());
        s.show();
    }

    /**
     * Every change of the undo stack says what happened in the status bar: the edit's name (a move
     * of a device says nothing else), "Undid …" or "Redid …". An action with more to say (a paste's
     * counts) sets its message after executing, which replaces this one.
     */
    private void describeChange() {
        var stack = doc.stack();
        int undo = stack.undoDepth();
        int redo = stack.redoDepth();
        if (undo == shownUndoDepth - 1 && redo == shownRedoDepth + 1) {
            message("Undid " + stack.redoDescription());
        } else if (undo == shownUndoDepth + 1 && redo == shownRedoDepth - 1
                && java.util.Objects.equals(stack.undoDescription(), shownRedoDescription)) {
            // The stack does not say whether it redid or executed; a new edit after one undo changes the
            // depths the same way, so the description tells them apart (alike only for an edit of the same name).
            message("Redid " + stack.undoDescription());
        } else if (redo == 0 && undo > 0 && stack.revision() != shownRevision
                && (undo != shownUndoDepth || shownRedoDepth != 0 || undo == io.fabriclab.edit.CommandStack.DEFAULT_LIMIT)) {
            // A new edit: it empties the redo stack and adds one (at the depth limit the oldest drops).
            message(stack.undoDescription());
        }
        shownUndoDepth = undo;
        shownRedoDepth = redo;
        shownRevision = stack.revision();
        shownRedoDescription = stack.redoDescription();
    }

    private void refreshState() {
        Fabric f = doc.fabric();
        if (f != shownFabric) {
            // New, New from Template, Import, or undoing one of them: show the whole new picture.
            shownFabric = f;
            analysis.clearPaths();
            canvas.fitToWindow();
        }
        counts.setText(String.format(Locale.ROOT, "%,d devices · %,d links · %,d GPUs", f.devices().size(), f.linkCount(),
                f.gpuCount()));
        menus.refreshUndo();
        refreshTitle();
    }

    /**
     * The window's title names the fabric on screen: a new fabric's name (opened, generated,
     * imported) goes up once the canvas has drawn it, not before (issue 35 item 15: opening a large
     * fabric renamed the window seconds before the drawing changed); a save's star at once.
     */
    void refreshTitle() {
        if (canvas.paintedFabric() != doc.fabric()) {
            return; // the canvas's first frame of this fabric sets it (see the constructor)
        }
        if (getScene() != null && getScene().getWindow() instanceof javafx.stage.Stage st) {
            st.setTitle(windowTitle());
        }
    }

    /**
     * The worst leaf's downlink : uplink capacity (topology.Oversubscription), after each edit
     * settles. It stays on the FX thread on purpose: on the 64-unit rail fabric (3,328 devices,
     * 49,152 links) it takes about 30 ms, less than the {@link Fabric#copy()} (about 85 ms warm,
     * several hundred under load) that background work would need first; see docs/performance.md.
     */
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

    // ----- the services and their entry points ----------------------------------------------------

    FileActions files() {
        return files;
    }

    EditActions edits() {
        return edits;
    }

    AnalysisActions analysis() {
        return analysis;
    }

    AutosaveActions autosave() {
        return autosave;
    }

    EditorMenus menus() {
        return menus;
    }

    RecentFiles recent() {
        return recent;
    }

    AutosaveRecovery recovery() {
        return autosave.recovery();
    }

    /** The files Open Recent lists, newest first. */
    public List<Path> recentFiles() {
        return recent.list();
    }

    /** The About box: the version comes from pom.xml (filtered into version.properties), as for `fabriclab --version`. */
    static String aboutText() {
        return EditorMenus.aboutText();
    }

    /** See {@link FileActions#open}. */
    public CompletableFuture<Fabric> open(Path file) {
        return files.open(file);
    }

    /** See {@link FileActions#importContainerlab}. */
    public CompletableFuture<Fabric> importContainerlab(Path file) {
        return files.importContainerlab(file);
    }

    /** Saves to the document's file, or asks for one; see {@link FileActions#saveTo}. */
    public CompletableFuture<Boolean> save() {
        return files.save();
    }

    public CompletableFuture<Boolean> saveAs() {
        return files.saveAs();
    }

    /** See {@link FileActions#saveTo}. */
    public CompletableFuture<Boolean> saveTo(Path file) {
        return files.saveTo(file);
    }

    /** See {@link FileActions#exportTo}. */
    public CompletableFuture<Boolean> exportTo(Path file) {
        return files.exportTo(file);
    }

    /** See {@link FileActions#exportPng(Path)}. */
    public CompletableFuture<Boolean> exportPng(Path file) {
        return files.exportPng(file);
    }

    public void copySelection() {
        edits.copySelection();
    }

    public void cutSelection() {
        edits.cutSelection();
    }

    public void paste() {
        edits.paste();
    }

    public void duplicate(java.util.Collection<Device> devices, int n) {
        edits.duplicate(devices, n);
    }

    public void connectSelected() {
        edits.connectSelected();
    }

    public void autoLayout() {
        edits.autoLayout();
    }

    public void newBlank() {
        edits.newBlank();
    }

    public void newFromTemplate() {
        edits.newFromTemplate();
    }

    /** Opens the template dialog without blocking (tests drive it). */
    TemplateDialog openTemplateDialog() {
        return new TemplateDialog(getScene() == null ? null : getScene().getWindow());
    }

    void applyTemplate(TemplateDialog.Generated g) {
        edits.applyTemplate(g);
    }

    public void foldSelection(boolean fold) {
        edits.foldSelection(fold);
    }

    /** See {@link AnalysisActions#analyze}. */
    public CompletableFuture<String> analyze() {
        return analysis.analyze();
    }

    /** See {@link AnalysisActions#checkDeadlocks}. */
    public CompletableFuture<DeadlockCheck.Result> checkDeadlocks() {
        return analysis.checkDeadlocks();
    }

    /** See {@link AnalysisActions#failLink}. */
    public CompletableFuture<FailureImpact.Detail> failLink(Link l) {
        return analysis.failLink(l);
    }

    /** See {@link AnalysisActions#showPaths}. */
    public CompletableFuture<EcmpPaths> showPaths(Port a, Port b) {
        return analysis.showPaths(a, b);
    }

    /** The ECMP paths highlighted now, or null. */
    public EcmpPaths shownPaths() {
        return analysis.shownPaths();
    }

    public void clearPaths() {
        analysis.clearPaths();
    }

    /** Writes the recovery file every {@link AutosaveRecovery#intervalSeconds()} while there are unsaved changes. */
    public void startAutosave() {
        autosave.start();
    }

    /** One autosave now (see {@link AutosaveActions#now}); the future ends when the file is written. */
    public CompletableFuture<Path> autosaveNow() {
        return autosave.now();
    }

    /** Stops autosaving and removes the recovery file: the window closes with nothing unsaved to keep. */
    public void shutdown() {
        autosave.shutdown();
    }

    /** See {@link AutosaveActions#offerRecovery}; completes on the FX thread, true when a fabric was restored. */
    public CompletableFuture<Boolean> offerRecovery() {
        return autosave.offerRecovery();
    }
}
