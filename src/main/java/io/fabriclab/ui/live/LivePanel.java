package io.fabriclab.ui.live;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

import io.fabriclab.diagram.CongestionFrame;
import io.fabriclab.diagram.CongestionPainter;
import io.fabriclab.diagram.DiagramStyle;
import io.fabriclab.model.Device;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.WredEcn;
import io.fabriclab.sim.LiveRun;
import io.fabriclab.sim.SimProfiles;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.SimSnapshot;
import io.fabriclab.ui.FabricCanvas;
import io.fabriclab.workload.WorkloadPreset;
import javafx.animation.AnimationTimer;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.RadioButton;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.Slider;
import javafx.scene.control.Spinner;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.TitledPane;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;

/**
 * The live congestion view's run panel, docked beside the canvas: choose a workload (or a
 * scenario file), QoS profile, duration or run to completion, seed; Play, Pause, Step, Reset;
 * speed in simulated time per wall second; the simulated clock and progress. During a run a click
 * on a link fails or restores it, the threshold editor changes ECN and PFC thresholds of a port or
 * profile, the dashboard and the selection charts follow the newest snapshot. After the run the
 * timeline scrubs the recorded snapshots; the run can be saved, reopened and compared.
 *
 * <p>Threading (docs/architecture.md): the simulator runs on its own thread inside
 * {@link LiveRun}; this panel's {@link AnimationTimer} takes the newest snapshot each frame
 * (never waits), draws it through {@link CongestionPainter} as a layer of the canvas, and sends
 * user actions as commands. An engine error ends the run and shows a dialog with its cause.
 */
public final class LivePanel extends ScrollPane {
    /** Speed slider: log10 of simulated ps per wall second, 3 (1 ns/s) to 9 (1 ms/s); 10 = unthrottled. */
    static final double SPEED_MAX_POSITION = 10;

    private final FabricCanvas canvas;
    private final CongestionPainter congestionPainter = new CongestionPainter(new DiagramStyle());
    private final FrameBuilder frames;

    // Run settings.
    final ComboBox<Object> workload = new ComboBox<>();
    final ComboBox<String> profile = new ComboBox<>();
    final TextField sizeMb = new TextField("2");
    final TextField fanIn = new TextField("8");
    final TextField loadPercent = new TextField("50");
    final CheckBox toCompletion = new CheckBox("run to completion");
    final TextField durationUs = new TextField("500");
    final TextField seed = new TextField("1");
    private Path scenarioFile;

    // Run control.
    final Button play = new Button("Play");
    final Button pause = new Button("Pause");
    final Button stepEvent = new Button("Step event");
    final Button stepInterval = new Button("Step 5 µs");
    final Button reset = new Button("Reset");
    final Slider speed = new Slider(3, SPEED_MAX_POSITION, 8);
    private final Label speedLabel = new Label();
    final Label clock = new Label("t = 0 µs");
    final ProgressBar progress = new ProgressBar(0);
    final Label status = new Label("Choose a workload and press Play.");
    final RadioButton byQueue = new RadioButton("queue depth");
    final RadioButton byUtilisation = new RadioButton("utilisation");
    final CheckBox clickFails = new CheckBox("click a link to fail / restore it (else a click selects)");

    // Thresholds.
    final ComboBox<String> thresholdTarget = new ComboBox<>();
    final TextField kminKb = new TextField();
    final TextField kmaxKb = new TextField();
    final TextField pmax = new TextField();
    final TextField xoffKb = new TextField();
    final TextField xonKb = new TextField();
    final Button applyEcn = new Button("Apply ECN");
    final Button applyPfc = new Button("Apply PFC");
    final Label thresholdStatus = new Label();

    // Dashboard, selection, recording.
    final TextArea dashboard = new TextArea();
    final ComboBox<String> chartPort = new ComboBox<>();
    final Spinner<Integer> flowSelect = new Spinner<>(-1, Integer.MAX_VALUE, -1);
    /** What the flow list lists: a link direction, or what a device sends / receives / carries. */
    final ComboBox<FlowScope> flowScope = new ComboBox<>();
    final ComboBox<CrossingFlows.Order> flowOrder = new ComboBox<>();
    final TableView<CrossingFlows.Row> flowTable = new TableView<>();
    final Label flowPath = new Label();
    /** Says when the run routes per packet, so a flow's published path is one of several. */
    final Label flowNote = new Label();
    final ComboBox<String> collectiveSelect = new ComboBox<>();
    final Label collectiveStatus = new Label();
    private boolean updatingFlowTable;
    private double pressX = Double.NaN;
    private double pressY = Double.NaN;
    /** The link last clicked (to select it) and whether the click was on its a → b side. */
    private Link clickedLink;
    private boolean clickedFromA = true;
    final LiveCharts charts = new LiveCharts();
    final Slider timeline = new Slider(0, 1, 1);
    final Label timelineLabel = new Label("timeline: after the run");
    final Button saveRun = new Button("Save run…");
    final Button openRun = new Button("Open run…");
    final Button compareRuns = new Button("Compare runs…");

    private LiveSession session;
    private boolean preparing;
    private final List<Consumer<LiveRun>> whenReady = new ArrayList<>();
    private long lastDrawNanos;
    private long lastDashboardNanos;
    private SimSnapshot shown;
    /** Taken and recorded but not drawn yet (at full speed the view skips frames). */
    private SimSnapshot undrawn;
    private SimSnapshot previousShown;
    private SimSnapshot dashboardShows;
    private CongestionFrame frame;
    private SimResults results;
    private boolean errorShown;
    private boolean scrubbing;
    private long lastChartNanos;
    private long framesDrawn;
    private long drawNanosTotal;
    private long drawNanosMax;
    private long drawCpuNanosTotal;
    private Consumer<Throwable> errorHandler = this::showErrorDialog;
    private ChoosePath chooser = new ChoosePath() {
    };

    /**
     * What the flow list shows: flows leaving through egress port {@code portRef} (a link
     * direction), or flows device {@code device} sends and/or receives (a server) or carries (a
     * switch: both flags set).
     */
    record FlowScope(String text, String portRef, String device, boolean sends, boolean receives) {
        @Override
        public String toString() {
            return text;
        }
    }

    /** Throughput in the flow list is measured over this much simulated time. */
    static final long ACHIEVED_WINDOW_PS = 20_000_000L;

    /** Where files come from (tests answer instead of a file dialog). */
    public interface ChoosePath {
        default Path open(String title, String extension) {
            FileChooser fc = new FileChooser();
            fc.setTitle(title);
            fc.getExtensionFilters().add(new FileChooser.ExtensionFilter(extension, "*" + extension));
            java.io.File f = fc.showOpenDialog(null);
            return f == null ? null : f.toPath();
        }

        default Path save(String title, String extension) {
            FileChooser fc = new FileChooser();
            fc.setTitle(title);
            fc.getExtensionFilters().add(new FileChooser.ExtensionFilter(extension, "*" + extension));
            java.io.File f = fc.showSaveDialog(null);
            return f == null ? null : f.toPath();
        }
    }

    private final AnimationTimer timer = new AnimationTimer() {
        @Override
        public void handle(long now) {
            onFrame(now);
        }
    };

    public LivePanel(FabricCanvas canvas) {
        this.canvas = canvas;
        this.frames = new FrameBuilder(canvas.document().fabric());
        setId("live-panel");
        setFitToWidth(true);
        setPrefWidth(380);
        setMinWidth(300);
        setContent(build());
        canvas.setLayer(this::paintLayer);
        canvas.setLinkClickHandler(this::onLinkClicked);
        // Where the last press landed, so a click on a link selects the direction on that side.
        canvas.addEventFilter(javafx.scene.input.MouseEvent.MOUSE_PRESSED, e -> {
            pressX = e.getX();
            pressY = e.getY();
        });
        canvas.document().selection().addListener(this::selectionChanged);
        refreshButtons();
        timer.start();
        // File > Open replaces the editor: a panel that leaves its scene stops its run and timer.
        sceneProperty().addListener((o, a, b) -> {
            if (b == null) {
                timer.stop();
                stopRun();
            } else {
                timer.start();
            }
        });
    }

    // ----- layout ----------------------------------------------------------------------------------

    private VBox build() {
        workload.getItems().addAll(WorkloadPreset.values());
        workload.getItems().add("scenario file…");
        workload.getSelectionModel().select(WorkloadPreset.INCAST);
        workload.setOnAction(e -> {
            if ("scenario file…".equals(workload.getValue())) {
                Path p = chooser.open("Scenario", ".json");
                if (p != null) {
                    setScenarioFile(p);
                } else {
                    workload.getSelectionModel().select(WorkloadPreset.INCAST);
                }
            }
        });
        profile.getItems().add("fabric QoS");
        profile.getItems().addAll(SimProfiles.NAMES);
        profile.getSelectionModel().select(0);
        toCompletion.setSelected(true);
        durationUs.disableProperty().bind(toCompletion.selectedProperty());

        GridPane settings = grid();
        int r = 0;
        settings.addRow(r++, new Label("Workload"), workload);
        settings.addRow(r++, new Label("QoS profile"), profile);
        settings.addRow(r++, new Label("Size (MB)"), sizeMb);
        settings.addRow(r++, new Label("Incast senders"), fanIn);
        settings.addRow(r++, new Label("Background load (%)"), loadPercent);
        settings.addRow(r++, new Label("Duration (µs)"), new HBox(6, durationUs, toCompletion));
        settings.addRow(r, new Label("Seed"), seed);

        play.setId("live-play");
        pause.setId("live-pause");
        stepEvent.setId("live-step-event");
        stepInterval.setId("live-step");
        reset.setId("live-reset");
        play.setOnAction(e -> play());
        pause.setOnAction(e -> pauseRun());
        stepEvent.setOnAction(e -> step(true));
        stepInterval.setOnAction(e -> step(false));
        reset.setOnAction(e -> reset());
        speed.setMajorTickUnit(1);
        speed.setShowTickMarks(true);
        speed.setSnapToTicks(false);
        speed.valueProperty().addListener((o, a, b) -> applySpeed());
        progress.setMaxWidth(Double.MAX_VALUE);
        clock.setId("live-clock");
        ToggleGroup colour = new ToggleGroup();
        byQueue.setToggleGroup(colour);
        byUtilisation.setToggleGroup(colour);
        byQueue.setSelected(true);
        colour.selectedToggleProperty().addListener((o, a, b) -> rebuildFrame());
        clickFails.setSelected(false);
        status.setWrapText(true);
        VBox control = new VBox(6, new HBox(6, play, pause, reset), new HBox(6, stepEvent, stepInterval),
                new HBox(6, new Label("Speed"), speed, speedLabel), clock, progress,
                new HBox(8, new Label("Colour by"), byQueue, byUtilisation), clickFails, status);
        applySpeed();

        thresholdTarget.setEditable(true);
        thresholdTarget.setPromptText("device:port or profile:NAME");
        thresholdTarget.setId("live-threshold-target");
        kminKb.setId("live-kmin");
        kmaxKb.setId("live-kmax");
        pmax.setId("live-pmax");
        xoffKb.setId("live-xoff");
        xonKb.setId("live-xon");
        applyEcn.setId("live-apply-ecn");
        applyPfc.setId("live-apply-pfc");
        applyEcn.setOnAction(e -> applyEcn());
        applyPfc.setOnAction(e -> applyPfc());
        thresholdStatus.setWrapText(true);
        GridPane thresholds = grid();
        r = 0;
        thresholds.addRow(r++, new Label("Port / profile"), thresholdTarget);
        thresholds.addRow(r++, new Label("ECN Kmin (KB)"), kminKb);
        thresholds.addRow(r++, new Label("ECN Kmax (KB)"), kmaxKb);
        thresholds.addRow(r++, new Label("ECN Pmax (0-1)"), pmax);
        thresholds.addRow(r++, new Label("PFC XOFF (KB)"), xoffKb);
        thresholds.addRow(r++, new Label("PFC XON (KB)"), xonKb);
        thresholds.addRow(r, new HBox(6, applyEcn, applyPfc));
        VBox thresholdBox = new VBox(6, thresholds, thresholdStatus);

        dashboard.setEditable(false);
        dashboard.setPrefRowCount(14);
        dashboard.setWrapText(false);
        dashboard.setId("live-dashboard");
        dashboard.setStyle("-fx-font-family: monospace; -fx-font-size: 11px;");

        chartPort.setPromptText("egress port");
        chartPort.setOnAction(e -> refreshCharts(true));
        flowSelect.setEditable(true);
        flowSelect.setId("live-flow");
        flowSelect.valueProperty().addListener((o, a, b) -> {
            rebuildFrame();
            refreshCharts(true);
            showFlowPath();
            selectFlowRow();
        });
        buildFlowList();
        collectiveSelect.setId("live-collective");
        collectiveSelect.setPromptText("none");
        collectiveSelect.setOnAction(e -> {
            rebuildFrame();
            refreshCharts(true);
            showCollective();
        });
        collectiveStatus.setWrapText(true);
        collectiveStatus.setId("live-collective-status");
        flowPath.setWrapText(true);
        flowNote.setWrapText(true);
        flowNote.setVisible(false);
        flowNote.setManaged(false);
        flowPath.setId("live-flow-path");
        VBox selection = new VBox(6, new HBox(6, new Label("Port"), chartPort),
                new HBox(6, new Label("Flows"), flowScope), new HBox(6, new Label("Sort"), flowOrder), flowTable,
                flowNote,
                new HBox(6, new Label("Flow (-1: none)"), flowSelect), flowPath,
                new HBox(6, new Label("Collective"), collectiveSelect), collectiveStatus, charts);

        timeline.setDisable(true);
        timeline.setId("live-timeline");
        timeline.valueProperty().addListener((o, a, b) -> scrub());
        saveRun.setOnAction(e -> saveRunDialog());
        openRun.setOnAction(e -> openRunDialog());
        compareRuns.setOnAction(e -> compareDialog());
        VBox recording = new VBox(6, timelineLabel, timeline, new HBox(6, saveRun, openRun, compareRuns));

        VBox box = new VBox(6,
                titled("Run", new VBox(8, settings, control)),
                titled("Thresholds (live)", thresholdBox),
                titled("Dashboard", dashboard),
                titled("Selection", selection),
                titled("Recording", recording));
        box.setPadding(new Insets(6));
        return box;
    }

    @SuppressWarnings("unchecked")
    private void buildFlowList() {
        flowScope.setId("live-flow-scope");
        flowScope.setPromptText("click a link direction or a device");
        flowScope.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(flowScope, javafx.scene.layout.Priority.ALWAYS);
        flowScope.setOnAction(e -> refreshFlowList());
        flowOrder.setId("live-flow-order");
        flowOrder.getItems().setAll(CrossingFlows.Order.values());
        flowOrder.getSelectionModel().select(CrossingFlows.Order.RATE);
        flowOrder.setOnAction(e -> refreshFlowList());
        flowTable.setId("live-flow-table");
        flowTable.setPrefHeight(170);
        flowTable.setPlaceholder(new Label("Click a link direction or a device to list its flows"));
        flowTable.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY);
        flowTable.getColumns().setAll(
                column("#", 30, "flow id", r -> String.valueOf(r.flow())),
                column("from → to", 140, "sender and receiver NIC", r -> r.src() + " → " + r.dst()),
                column("rate", 40, "DCQCN current rate (Gb/s)", r -> gbps(r.rateGbps())),
                column("tgt", 40, "DCQCN target rate (Gb/s)", r -> gbps(r.targetGbps())),
                column("got", 40, "throughput achieved over the last 20 µs (Gb/s)", r -> gbps(r.achievedGbps())),
                column("%", 36, "progress: share of its packets delivered in order",
                        r -> String.format(Locale.ROOT, "%.0f", 100 * r.progress())));
        flowTable.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> {
            if (!updatingFlowTable && b != null && !java.util.Objects.equals(flowSelect.getValue(), b.flow())) {
                flowSelect.getValueFactory().setValue(b.flow());
            }
        });
    }

    private static TableColumn<CrossingFlows.Row, String> column(String title, double width, String tip,
            java.util.function.Function<CrossingFlows.Row, String> value) {
        TableColumn<CrossingFlows.Row, String> c = new TableColumn<>();
        Label header = new Label(title);
        header.setTooltip(new javafx.scene.control.Tooltip(tip));
        c.setGraphic(header);
        c.setPrefWidth(width);
        c.setSortable(false);
        c.setCellValueFactory(d -> new javafx.beans.property.ReadOnlyStringWrapper(value.apply(d.getValue())));
        return c;
    }

    private static String gbps(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.1f", v);
    }

    private static GridPane grid() {
        GridPane g = new GridPane();
        g.setHgap(6);
        g.setVgap(4);
        javafx.scene.layout.ColumnConstraints labels = new javafx.scene.layout.ColumnConstraints();
        labels.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        g.getColumnConstraints().add(labels);
        return g;
    }

    /** Scrolls the panel so that {@code node} is in view. */
    public void reveal(javafx.scene.Node node) {
        layout();
        javafx.geometry.Bounds content = getContent().getLayoutBounds();
        javafx.geometry.Bounds b = getContent().sceneToLocal(node.localToScene(node.getLayoutBounds()));
        double viewport = getViewportBounds().getHeight();
        double room = content.getHeight() - viewport;
        if (room > 0) {
            setVvalue(Math.max(0, Math.min(1, (b.getMinY() - 40) / room)));
        }
        layout();
    }

    private static TitledPane titled(String title, javafx.scene.Node n) {
        TitledPane t = new TitledPane(title, n);
        t.setCollapsible(true);
        return t;
    }

    // ----- settings ----------------------------------------------------------------------------------

    public void setScenarioFile(Path p) {
        scenarioFile = p;
        String label = "scenario: " + p.getFileName();
        workload.getItems().removeIf(o -> o instanceof String s && s.startsWith("scenario: "));
        workload.getItems().add(label);
        workload.getSelectionModel().select(label);
    }

    /** What the settings fields say; throws IllegalArgumentException naming the field that is wrong. */
    public RunSettings settings() {
        Object w = workload.getValue();
        long bytes = Math.round(number(sizeMb, "Size (MB)") * 1e6);
        int fans = (int) number(fanIn, "Incast senders");
        long dur = toCompletion.isSelected() ? 0 : (long) number(durationUs, "Duration (µs)");
        long s = (long) number(seed, "Seed");
        String prof = profile.getSelectionModel().getSelectedIndex() <= 0 ? null : profile.getValue();
        long interval = Math.max(1, Math.round(stepIntervalUs()));
        double load = number(loadPercent, "Background load (%)");
        if (w instanceof WorkloadPreset p) {
            return new RunSettings(p, null, prof, dur, s, bytes, fans, interval, load);
        }
        if (scenarioFile == null) {
            throw new IllegalArgumentException("Workload: choose a preset or a scenario file");
        }
        return new RunSettings(null, scenarioFile, prof, dur, s, bytes, fans, interval, load);
    }

    private double stepIntervalUs() {
        return 5;
    }

    private static double number(TextField f, String name) {
        try {
            double v = Double.parseDouble(f.getText().trim());
            if (Double.isNaN(v) || v < 0) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": '" + f.getText() + "' is not a number >= 0");
        }
    }

    // ----- run control ---------------------------------------------------------------------------------

    public LiveSession session() {
        return session;
    }

    /** Starts a new run (or resumes a paused one). */
    public void play() {
        if (preparing) {
            whenReady.add(LiveRun::resume);
            return;
        }
        if (session != null && !ended()) {
            session.run().resume();
            refreshButtons();
            return;
        }
        if (!start(false)) {
            return;
        }
        refreshButtons();
    }

    /**
     * Builds a run from the settings in a background task (building routes and flows of a large
     * fabric takes seconds; the FX thread never waits for it) and starts it, paused or not. False
     * (with a message) on bad settings; actions asked for meanwhile (a step) run once it is ready.
     */
    public boolean start(boolean paused) {
        stopRun();
        RunSettings settings;
        try {
            settings = settings();
        } catch (IllegalArgumentException e) {
            status.setText("Cannot start: " + e.getMessage());
            return false;
        }
        session = null;
        shown = null;
        undrawn = null;
        previousShown = null;
        frame = null;
        results = null;
        errorShown = false;
        clearRunSelection();
        timeline.setDisable(true);
        preparing = true;
        status.setText("Preparing " + settings.describe() + " …");
        io.fabriclab.model.Fabric drawn = canvas.document().fabric();
        // The copy is taken on the FX thread (the drawing may change later); routes and flows are built off it.
        String fabricJson = io.fabriclab.io.FabricJson.write(drawn);
        javafx.concurrent.Task<LiveSession> task = new javafx.concurrent.Task<>() {
            @Override
            protected LiveSession call() throws Exception {
                return LiveSession.create(drawn, fabricJson, settings, RunRecording.DEFAULT_MAX_BYTES);
            }
        };
        task.setOnSucceeded(e -> {
            preparing = false;
            session = task.getValue();
            applySpeed();
            session.run().start(paused);
            status.setText("Running " + session.settings().describe() + " (" + session.flows().size() + " flows)");
            fillThresholdTargets();
            collectiveSelect.getItems().setAll(session.collectives().keySet());
            boolean perPacket = session.routing().perPacket();
            flowNote.setText(perPacket ? "Routing " + session.routing().mode().jsonName() + " is per packet: the list"
                    + " and the halo follow each flow's ECMP-hashed path; its packets also take the others." : "");
            flowNote.setVisible(perPacket);
            flowNote.setManaged(perPacket);
            List<Consumer<LiveRun>> todo = new ArrayList<>(whenReady);
            whenReady.clear();
            todo.forEach(a -> a.accept(session.run()));
            refreshButtons();
        });
        task.setOnFailed(e -> {
            preparing = false;
            whenReady.clear();
            Throwable t = task.getException();
            status.setText("Cannot start: " + (t == null ? "unknown error" : t.getMessage()));
            refreshButtons();
        });
        Thread t = new Thread(task, "fabriclab-live-setup");
        t.setDaemon(true);
        t.start();
        refreshButtons();
        return true;
    }

    /** True while a run is being built in the background. */
    public boolean preparing() {
        return preparing;
    }

    public void pauseRun() {
        if (preparing) {
            whenReady.add(LiveRun::pause);
            return;
        }
        if (session != null) {
            session.run().pause();
        }
        refreshButtons();
    }

    /** Single step: one event or one snapshot interval (starts a paused run if none). */
    public void step(boolean oneEvent) {
        Consumer<LiveRun> action = oneEvent ? LiveRun::stepEvent : LiveRun::stepInterval;
        if (!preparing && (session == null || ended())) {
            if (!start(true)) {
                return;
            }
        }
        if (preparing) {
            whenReady.add(action);
            return;
        }
        action.accept(session.run());
        refreshButtons();
    }

    /** Stops the run and clears the live layer. */
    public void reset() {
        stopRun();
        session = null;
        shown = null;
        undrawn = null;
        previousShown = null;
        frame = null;
        results = null;
        timeline.setDisable(true);
        clearRunSelection();
        clock.setText("t = 0 µs");
        progress.setProgress(0);
        dashboard.clear();
        status.setText("Reset. Press Play to start again.");
        refreshButtons();
        canvas.redraw();
    }

    private void stopRun() {
        if (session != null && !ended()) {
            session.run().stop();
        }
    }

    private boolean ended() {
        LiveRun.State s = session.run().state();
        return s == LiveRun.State.FINISHED || s == LiveRun.State.STOPPED || s == LiveRun.State.FAILED;
    }

    private void applySpeed() {
        double v = speed.getValue();
        long psPerS = speedPsPerSecond(v);
        speedLabel.setText(psPerS == LiveRun.UNTHROTTLED ? "max" : speedText(psPerS));
        if (session != null && !ended()) {
            session.run().setSpeed(psPerS);
        }
    }

    /** The slider position as simulated ps per wall second (10 = unthrottled). */
    static long speedPsPerSecond(double position) {
        if (position >= SPEED_MAX_POSITION - 0.05) {
            return LiveRun.UNTHROTTLED;
        }
        long v = Math.round(Math.pow(10, position));
        return Math.max(LiveRun.MIN_SPEED_PS_PER_S, Math.min(LiveRun.MAX_SPEED_PS_PER_S, v));
    }

    static String speedText(long psPerS) {
        if (psPerS >= 1_000_000_000L) {
            return String.format(Locale.ROOT, "%.3g ms/s", psPerS / 1e9);
        }
        if (psPerS >= 1_000_000L) {
            return String.format(Locale.ROOT, "%.3g µs/s", psPerS / 1e6);
        }
        return String.format(Locale.ROOT, "%.3g ns/s", psPerS / 1e3);
    }

    /** Sets the speed slider (position 3..10; 10 = unthrottled). */
    public void setSpeedPosition(double position) {
        speed.setValue(position);
    }

    private void refreshButtons() {
        boolean running = session != null && !ended();
        pause.setDisable(!running);
        applyEcn.setDisable(!running);
        applyPfc.setDisable(!running);
        saveRun.setDisable(session == null || !ended());
    }

    // ----- the animation frame -------------------------------------------------------------------------

    /**
     * At full speed ("max") the view draws at most one snapshot per this much wall time (20 frames
     * a second), like an emulator's fast-forward: the simulator then runs as fast as it can and the
     * picture keeps up without taking its cores. Drawing every snapshot (about 37 a second for the
     * 4-unit all-reduce) cost the simulator a third of its speed on a 2-core machine; 20 frames a
     * second cost it about a sixth (docs/performance.md, "Live view"). Every snapshot still goes
     * into the recording, so the timeline after the run has them all. At any set speed the view
     * draws every snapshot, up to the screen's 60 Hz.
     */
    static final long FULL_SPEED_FRAME_NANOS = 50_000_000L;

    private long minFrameGapNanos() {
        return speedPsPerSecond(speed.getValue()) == LiveRun.UNTHROTTLED ? FULL_SPEED_FRAME_NANOS : 0;
    }

    private void onFrame(long nowNanos) {
        if (session == null) {
            if (nowNanos - lastDrawNanos > 250_000_000L) {
                drawCanvas(nowNanos);
            }
            return;
        }
        LiveRun run = session.run();
        takeNewest(run);
        boolean fresh = false;
        if (nowNanos - lastDrawNanos >= minFrameGapNanos() && showUndrawn(nowNanos)) {
            fresh = true;
        } else if (!scrubbing) {
            refreshDashboard(nowNanos);
        }
        LiveRun.State state = run.state();
        if (state == LiveRun.State.FAILED && !errorShown) {
            errorShown = true;
            status.setText("The simulator stopped with an error: " + run.failure());
            refreshButtons();
            Throwable t = run.failure();
            Platform.runLater(() -> errorHandler.accept(t));
        } else if ((state == LiveRun.State.FINISHED || state == LiveRun.State.STOPPED) && results == null
                && run.result().isDone()) {
            // The final picture may have been published after this frame's take: show it first
            // (it used to be taken here and dropped, so the run could end on an older picture).
            takeNewest(run);
            showUndrawn(nowNanos);
            undrawn = null;
            results = run.result().getNow(null);
            finished();
            fresh = true;
        }
        // Repaint for every new snapshot; between snapshots only to animate marks, at most 20 times a
        // second (the software rasteriser shares the cores with the simulator).
        if (fresh || (animated(frame) && nowNanos - lastDrawNanos >= 50_000_000L)
                || nowNanos - lastDrawNanos >= 500_000_000L) {
            drawCanvas(nowNanos);
        }
    }

    /** Records the newest snapshot, if one came; it waits in {@link #undrawn} until drawn. */
    private void takeNewest(LiveRun run) {
        SimSnapshot s = run.take();
        if (s != null && !scrubbing) {
            // Every snapshot taken goes into the recording; at full speed only some are drawn.
            session.recording().add(s);
            undrawn = s;
        }
    }

    /** Shows the snapshot waiting to be drawn, if any (not while scrubbing); whether it did. */
    private boolean showUndrawn(long nowNanos) {
        if (undrawn == null || scrubbing) {
            return false;
        }
        show(undrawn, nowNanos);
        undrawn = null;
        return true;
    }

    private static boolean animated(CongestionFrame f) {
        if (f == null) {
            return false;
        }
        for (int i = 0; i < f.paused.length; i++) {
            if (f.paused[i] || f.marksPerUs[i] > 0 || f.dropFlash[i] > 0 || f.cnpsPerUs[i] > 0 || f.stormed[i]) {
                return true;
            }
        }
        return false;
    }

    private void show(SimSnapshot s, long nowNanos) {
        previousShown = shown;
        shown = s;
        frame = frames.frame(s, previousShown, colourBy(), selectedFlow(), collectiveMembers(), nowNanos);
        clock.setText(String.format(Locale.ROOT, "t = %.3f µs", s.timePs() / 1e6));
        double p = session.settings().durationUs() > 0 || session.flows().isEmpty()
                ? (double) s.timePs() / session.endPs() : (double) s.flowsCompleted() / session.flows().size();
        progress.setProgress(Math.min(1, p));
        refreshDashboard(nowNanos);
        refreshCharts(false);
    }

    /**
     * The dashboard, flow list and collective figures of the picture shown, at most five times a
     * second; a picture that arrived in between (the paused instant) is caught up by a later frame.
     */
    private void refreshDashboard(long nowNanos) {
        if (shown == null || shown == dashboardShows || nowNanos - lastDashboardNanos < 200_000_000L) {
            return;
        }
        lastDashboardNanos = nowNanos;
        dashboardShows = shown;
        dashboard.setText(String.join("\n", Dashboard.lines(shown, session.collectiveTrackers().values())));
        refreshFlowList();
        showCollective();
    }

    private void finished() {
        refreshButtons();
        if (shown != null) {
            dashboard.setText(String.join("\n", Dashboard.lines(shown, session.collectiveTrackers().values())));
            refreshFlowList();
            showCollective();
            showFlowPath();
        }
        List<SimSnapshot> rec = session.recording().frames();
        if (!rec.isEmpty()) {
            timeline.setMin(rec.get(0).timePs() / 1e6);
            timeline.setMax(Math.max(timeline.getMin() + 1e-6, rec.get(rec.size() - 1).timePs() / 1e6));
            scrubbing = true;
            timeline.setValue(timeline.getMax());
            scrubbing = false;
            timeline.setDisable(false);
            timelineLabel.setText(String.format(Locale.ROOT, "timeline: %d frames, %.1f – %.1f µs (drag to scrub)",
                    rec.size(), timeline.getMin(), timeline.getMax()));
        }
        if (results != null) {
            SimResults.Summary sum = results.summary();
            status.setText(String.format(Locale.ROOT, "Run %s at %.1f µs: %d/%d flows, drops %d, ECN marks %d, "
                            + "PAUSE %d%s", results.run().stopReason().name().toLowerCase(Locale.ROOT),
                    results.run().simulatedPs() / 1e6, results.run().flowsCompleted(), results.run().flows(),
                    sum.drops(), sum.ecnMarked(), sum.pauseFramesSent(), collectivesText(results)));
        }
        refreshCharts(true);
    }

    private static String collectivesText(SimResults r) {
        StringBuilder sb = new StringBuilder();
        for (SimResults.CollectiveResult c : r.collectives()) {
            sb.append(String.format(Locale.ROOT, "; %s %.1f µs busbw %.1f GB/s", c.name(), c.timePs() / 1e6,
                    c.busbwGBps()));
        }
        return sb.toString();
    }

    private void scrub() {
        if (scrubbing || session == null || timeline.isDisabled()) {
            return;
        }
        long t = Math.round(timeline.getValue() * 1e6);
        List<SimSnapshot> rec = session.recording().frames();
        SimSnapshot s = session.recording().at(t);
        if (s == null) {
            return;
        }
        int i = rec.indexOf(s);
        previousShown = i > 0 ? rec.get(i - 1) : null;
        shown = s;
        frame = frames.frame(s, previousShown, colourBy(), selectedFlow(), collectiveMembers(), System.nanoTime());
        clock.setText(String.format(Locale.ROOT, "t = %.3f µs (recorded)", s.timePs() / 1e6));
        dashboard.setText(String.join("\n", Dashboard.lines(s, session.collectiveTrackers().values())));
        refreshFlowList();
        showCollective();
        canvas.redraw();
    }

    private void rebuildFrame() {
        if (shown != null) {
            frame = frames.frame(shown, previousShown, colourBy(), selectedFlow(), collectiveMembers(), System.nanoTime());
            canvas.redraw();
        }
    }

    private CongestionPainter.ColourBy colourBy() {
        return byUtilisation.isSelected() ? CongestionPainter.ColourBy.UTILISATION : CongestionPainter.ColourBy.QUEUE;
    }

    private static final java.lang.management.ThreadMXBean THREADS =
            java.lang.management.ManagementFactory.getThreadMXBean();

    private void drawCanvas(long nowNanos) {
        lastDrawNanos = nowNanos;
        long t0 = System.nanoTime();
        long c0 = THREADS.getCurrentThreadCpuTime();
        canvas.redraw();
        long dt = System.nanoTime() - t0;
        drawCpuNanosTotal += THREADS.getCurrentThreadCpuTime() - c0;
        framesDrawn++;
        drawNanosTotal += dt;
        drawNanosMax = Math.max(drawNanosMax, dt);
    }

    private void paintLayer(io.fabriclab.diagram.Painter p, io.fabriclab.diagram.DiagramGeometry g,
                            java.util.Map<Device, io.fabriclab.diagram.FoldGroup> folded,
                            io.fabriclab.diagram.Viewport vp, double w, double h) {
        CongestionFrame f = frame != null ? frame : new CongestionFrame(0, frames.directions());
        congestionPainter.paint(p, g, folded, vp, w, h, f, System.nanoTime() / 1e9, colourBy(),
                CongestionPainter.Legend.LIVE);
    }

    /**
     * Canvas frames drawn, their mean and worst paint wall time and mean paint CPU time of the FX
     * thread (for the benchmark), then resets the counters.
     */
    public long[] drawStatsAndReset() {
        long[] out = {framesDrawn, framesDrawn == 0 ? 0 : drawNanosTotal / framesDrawn, drawNanosMax,
                framesDrawn == 0 ? 0 : drawCpuNanosTotal / framesDrawn};
        framesDrawn = 0;
        drawNanosTotal = 0;
        drawNanosMax = 0;
        drawCpuNanosTotal = 0;
        return out;
    }

    /** The frame on the canvas now (tests read it). */
    public CongestionFrame frame() {
        return frame;
    }

    public SimSnapshot shownSnapshot() {
        return shown;
    }

    public SimResults results() {
        return results;
    }

    /** Stops the animation timer and the run (when the panel closes). */
    public void dispose() {
        timer.stop();
        stopRun();
        canvas.setLayer(null);
        canvas.setLinkClickHandler(null);
    }

    public void setErrorHandler(Consumer<Throwable> handler) {
        this.errorHandler = handler;
    }

    public void setChooser(ChoosePath c) {
        this.chooser = c;
    }

    private void showErrorDialog(Throwable t) {
        Alert a = new Alert(Alert.AlertType.ERROR);
        a.setHeaderText("The simulator stopped with an error");
        StringBuilder sb = new StringBuilder(String.valueOf(t));
        Throwable c = t.getCause();
        while (c != null) {
            sb.append("\ncaused by ").append(c);
            c = c.getCause();
        }
        if (t.getStackTrace().length > 0) {
            sb.append("\nat ").append(t.getStackTrace()[0]);
        }
        a.setContentText(sb.toString());
        if (getScene() != null) {
            a.initOwner(getScene().getWindow());
        }
        a.show();
    }

    // ----- clicks and thresholds -----------------------------------------------------------------------

    /** During a run, a click on a link fails it (or restores it if failed). */
    private boolean onLinkClicked(Link drawn) {
        if (session == null || ended() || !clickFails.isSelected()) {
            // A selecting click: remember the side, so the flow list opens on that direction.
            clickedLink = drawn;
            clickedFromA = clickedSideIsFromA(drawn);
            var sel = canvas.document().selection();
            if (sel.links().size() == 1 && sel.devices().isEmpty() && sel.links().contains(drawn)) {
                // Already selected: the selection will not change, so refill here.
                fillFlowScopes();
            }
            return false;
        }
        Link l = session.simulatedLink(drawn);
        if (l == null) {
            status.setText("Link " + drawn.id() + " is not in the running fabric (added after the run started).");
            return true;
        }
        boolean down = shown != null && isDown(drawn);
        var f = down ? session.run().restoreLink(l) : session.run().failLink(l);
        f.whenComplete((t, e) -> Platform.runLater(() -> status.setText(e != null
                ? "Link " + drawn.id() + ": " + e.getMessage()
                : String.format(Locale.ROOT, "Link %s %s at t = %.3f µs; routing reconverges after its delay.",
                        drawn.id(), down ? "restored" : "failed", t / 1e6))));
        return true;
    }

    private boolean isDown(Link drawn) {
        int[] map = frames.portToDirection(shown);
        for (int i = 0; i < map.length; i++) {
            if (map[i] >= 0 && frames.directions().links().get(map[i] >> 1) == drawn && shown.linkDown()[i]) {
                return true;
            }
        }
        return false;
    }

    private void fillThresholdTargets() {
        thresholdTarget.getItems().clear();
        for (QosProfile q : canvas.document().fabric().qosProfiles().values()) {
            thresholdTarget.getItems().add("profile:" + q.name());
        }
    }

    /** Applies the ECN fields to the port or profile in the target box. */
    public void applyEcn() {
        if (session == null) {
            return;
        }
        try {
            String target = target();
            WredEcn curve = new WredEcn(Math.round(number(kminKb, "Kmin") * 1000), Math.round(number(kmaxKb, "Kmax")
                    * 1000), number(pmax, "Pmax"));
            var f = target.startsWith("profile:")
                    ? session.run().setEcnForProfile(target.substring(8), QosProfile.RDMA_PRIORITY, curve)
                    : session.run().setEcn(target, QosProfile.RDMA_PRIORITY, curve);
            report(f, "ECN " + curve.kminBytes() / 1000 + "/" + curve.kmaxBytes() / 1000 + " KB, Pmax "
                    + curve.pmax() + " on " + target);
        } catch (IllegalArgumentException e) {
            thresholdStatus.setText(e.getMessage());
        }
    }

    /** Applies the PFC fields to the port or profile in the target box. */
    public void applyPfc() {
        if (session == null) {
            return;
        }
        try {
            String target = target();
            long xoff = Math.round(number(xoffKb, "XOFF") * 1000);
            long xon = Math.round(number(xonKb, "XON") * 1000);
            var f = target.startsWith("profile:") ? session.run().setPfcForProfile(target.substring(8), xoff, xon)
                    : session.run().setPfc(target, xoff, xon);
            report(f, "PFC XOFF " + xoff / 1000 + " KB, XON " + xon / 1000 + " KB on " + target);
        } catch (IllegalArgumentException e) {
            thresholdStatus.setText(e.getMessage());
        }
    }

    private String target() {
        String t = thresholdTarget.getEditor().getText();
        if (t == null || t.isBlank()) {
            t = thresholdTarget.getValue();
        }
        if (t == null || t.isBlank()) {
            throw new IllegalArgumentException("Port / profile: enter device:port or profile:NAME");
        }
        return t.trim();
    }

    private void report(java.util.concurrent.CompletableFuture<Long> f, String what) {
        thresholdStatus.setText(what + ": sent…");
        f.whenComplete((t, e) -> Platform.runLater(() -> thresholdStatus.setText(e != null
                ? what + ": refused: " + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage())
                : String.format(Locale.ROOT, "%s: in force from t = %.3f µs", what, t / 1e6))));
    }

    // ----- selection -------------------------------------------------------------------------------------

    private void selectionChanged() {
        fillFlowScopes();
        List<String> ports = new ArrayList<>();
        var sel = canvas.document().selection();
        for (Link l : sel.links()) {
            ports.add(l.a().ref());
            ports.add(l.b().ref());
        }
        for (Device d : sel.devices()) {
            for (Port p : d.ports()) {
                if (canvas.document().fabric().linkAt(p) != null) {
                    ports.add(p.ref());
                }
            }
            if (ports.size() > 64) {
                break;
            }
        }
        chartPort.getItems().setAll(ports);
        if (!ports.isEmpty()) {
            // The busiest of the selection first, if a run shows one.
            String best = ports.get(0);
            if (shown != null) {
                long max = -1;
                for (String p : ports) {
                    int i = shown.portIndex(p);
                    if (i >= 0 && shown.queueBytes()[i] > max) {
                        max = shown.queueBytes()[i];
                        best = p;
                    }
                }
            }
            chartPort.getSelectionModel().select(best);
            Port p = canvas.document().fabric().port(best);
            if (p != null && p.device().role().isSwitch()) {
                thresholdTarget.getEditor().setText(best);
            }
        }
        refreshCharts(true);
    }

    private void refreshCharts(boolean now) {
        long t = System.nanoTime();
        if (!now && t - lastChartNanos < 250_000_000L) {
            return;
        }
        lastChartNanos = t;
        if (session == null) {
            return;
        }
        List<SimSnapshot> rec = session.recording().frames();
        if (rec.isEmpty()) {
            return;
        }
        String ref = chartPort.getValue();
        int port = ref == null ? -1 : rec.get(rec.size() - 1).portIndex(ref);
        String c = collectiveSelect.getValue();
        charts.show(rec, port, selectedFlow(), session.flows(),
                c == null || collectiveMembers().isEmpty() ? null : session.collectiveTrackers().get(c));
    }

    // ----- flows and collectives -------------------------------------------------------------------------

    /** The selected flow id, or -1. */
    int selectedFlow() {
        Integer v = flowSelect.getValue();
        return v == null ? -1 : v;
    }

    /** Flow ids of the selected collective (empty: none). */
    List<Integer> collectiveMembers() {
        String c = collectiveSelect.getValue();
        if (session == null || c == null) {
            return List.of();
        }
        return session.collectives().getOrDefault(c, List.of());
    }

    private void clearRunSelection() {
        collectiveSelect.getItems().clear();
        collectiveSelect.setValue(null);
        collectiveStatus.setText("");
        flowTable.getItems().clear();
        flowPath.setText("");
        charts.show(List.of(), -1, -1);
    }

    /**
     * The flow list's choices for the canvas selection: both directions of a selected link (the
     * one on the side that was clicked first: each direction is drawn right of its travel), or
     * what a selected server sends / receives, or what a switch carries.
     */
    private void fillFlowScopes() {
        var sel = canvas.document().selection();
        List<FlowScope> scopes = new ArrayList<>();
        if (sel.links().size() == 1 && sel.devices().isEmpty()) {
            Link l = sel.links().iterator().next();
            FlowScope ab = new FlowScope(l.a().ref() + " → " + l.b().ref(), l.a().ref(), null, false, false);
            FlowScope ba = new FlowScope(l.b().ref() + " → " + l.a().ref(), l.b().ref(), null, false, false);
            boolean fromA = l != clickedLink || clickedFromA;
            scopes.add(fromA ? ab : ba);
            scopes.add(fromA ? ba : ab);
        } else if (!sel.devices().isEmpty()) {
            Device d = sel.devices().iterator().next();
            if (d.role().isSwitch()) {
                scopes.add(new FlowScope("through " + d.id() + " (any port)", null, d.id(), true, true));
            } else {
                scopes.add(new FlowScope("sent or received by " + d.id(), null, d.id(), true, true));
                scopes.add(new FlowScope("sent by " + d.id(), null, d.id(), true, false));
                scopes.add(new FlowScope("received by " + d.id(), null, d.id(), false, true));
            }
        }
        flowScope.getItems().setAll(scopes);
        if (!scopes.isEmpty()) {
            flowScope.getSelectionModel().select(0);
        }
        refreshFlowList();
    }

    /** True when the last press was on the a → b side of the link (right of travel from a to b). */
    private boolean clickedSideIsFromA(Link l) {
        io.fabriclab.diagram.Segment seg = canvas.geometry().segment(l);
        if (seg == null || Double.isNaN(pressX)) {
            return true;
        }
        double wx = canvas.viewport().toWorldX(pressX);
        double wy = canvas.viewport().toWorldY(pressY);
        // Screen y grows downwards: the right-hand normal of travel (dx, dy) is (-dy, dx).
        double nx = -(seg.y2() - seg.y1());
        double ny = seg.x2() - seg.x1();
        return (wx - seg.x1()) * nx + (wy - seg.y1()) * ny >= 0;
    }

    /** Lists the flows of the chosen scope at the snapshot shown, sorted as chosen; keeps the selected flow. */
    void refreshFlowList() {
        FlowScope scope = flowScope.getValue();
        if (session == null || shown == null || scope == null) {
            flowTable.getItems().clear();
            return;
        }
        SimSnapshot s = shown;
        List<Integer> ids = scope.portRef() != null ? CrossingFlows.crossing(s, s.portIndex(scope.portRef()))
                : CrossingFlows.ofDevice(s, scope.device(), scope.sends(), scope.receives());
        SimSnapshot earlier = session.recording().at(s.timePs() - ACHIEVED_WINDOW_PS);
        if (earlier != null && earlier.timePs() >= s.timePs()) {
            earlier = previousShown;
        }
        List<CrossingFlows.Row> rows = CrossingFlows.rows(s, earlier, session.flows(), ids, flowOrder.getValue());
        updatingFlowTable = true;
        try {
            flowTable.getItems().setAll(rows);
            selectFlowRow();
        } finally {
            updatingFlowTable = false;
        }
    }

    private void selectFlowRow() {
        int f = selectedFlow();
        boolean was = updatingFlowTable;
        updatingFlowTable = true;
        try {
            for (CrossingFlows.Row r : flowTable.getItems()) {
                if (r.flow() == f) {
                    flowTable.getSelectionModel().select(r);
                    return;
                }
            }
            flowTable.getSelectionModel().clearSelection();
        } finally {
            updatingFlowTable = was;
        }
    }

    /** The selected flow's path as the simulator publishes it (its ECMP choice, hop by hop). */
    private void showFlowPath() {
        int f = selectedFlow();
        if (shown == null || f < 0 || f >= shown.flowCount()) {
            flowPath.setText("");
            return;
        }
        String label = session == null || f >= session.flows().size() ? "" : session.flows().get(f).label();
        flowPath.setText(String.format(Locale.ROOT, "Flow %d%s: rate %.1f Gb/s, target %.1f Gb/s, %.0f %% done%npath: %s",
                f, label == null || label.isEmpty() ? "" : " (" + label + ")", shown.flowRateGbps().get(f),
                shown.flowTargetGbps().get(f), 100 * shown.flowProgress().get(f), CrossingFlows.pathText(shown, f)));
    }

    /** The selected collective's progress and bandwidth so far at the snapshot shown. */
    private void showCollective() {
        String c = collectiveSelect.getValue();
        List<Integer> members = collectiveMembers();
        if (shown == null || c == null || members.isEmpty()) {
            collectiveStatus.setText("");
            return;
        }
        CollectiveProgress p = session.collectiveTrackers().get(c).at(shown);
        collectiveStatus.setText(String.format(Locale.ROOT, "%s%n%d flows over %d ranks, %.2f of %.2f MB delivered",
                p.text(), members.size(), p.ranks(), p.bytesDone() / 1e6, p.bytesTotal() / 1e6));
    }

    // ----- recording files -------------------------------------------------------------------------------

    private void saveRunDialog() {
        if (session == null) {
            return;
        }
        Path p = chooser.save("Save run", RunRecording.EXTENSION);
        if (p != null) {
            saveRun(p);
        }
    }

    /**
     * Saves the recorded run with its results on a background thread (the 4-unit all-reduce takes
     * seconds); the status line says when it is written or why not. Completes on the FX thread.
     */
    public java.util.concurrent.CompletableFuture<Void> saveRun(Path p) {
        LiveSession s = session;
        SimResults r = results;
        int frames = s.recording().size();
        status.setText("Saving " + p.getFileName() + " (" + frames + " frames) …");
        java.util.concurrent.CompletableFuture<Void> done = new java.util.concurrent.CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                s.save(p, r);
                Platform.runLater(() -> {
                    status.setText("Saved " + p.getFileName() + " (" + frames + " frames).");
                    done.complete(null);
                });
            } catch (Exception e) {
                Platform.runLater(() -> {
                    status.setText("Cannot save " + p + ": " + e.getMessage());
                    done.completeExceptionally(e);
                });
            }
        }, "fabriclab-save-run");
        t.setDaemon(true);
        t.start();
        return done;
    }

    private void openRunDialog() {
        Path p = chooser.open("Open run", RunRecording.EXTENSION);
        if (p != null) {
            ReplayWindow.open(p, this::showMessage);
        }
    }

    private void compareDialog() {
        Path a = chooser.open("First run", RunRecording.EXTENSION);
        if (a == null) {
            return;
        }
        Path b = chooser.open("Second run", RunRecording.EXTENSION);
        if (b != null) {
            ReplayWindow.compare(a, b, this::showMessage);
        }
    }

    private void showMessage(String m) {
        status.setText(m);
    }
}
