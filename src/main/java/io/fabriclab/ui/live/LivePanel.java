package io.fabriclab.ui.live;

import java.nio.file.Path;
import java.util.function.Consumer;

import io.fabriclab.diagram.CongestionFrame;
import io.fabriclab.diagram.CongestionPainter;
import io.fabriclab.diagram.DiagramStyle;
import io.fabriclab.model.Device;
import io.fabriclab.model.Link;
import io.fabriclab.model.QosProfile;
import io.fabriclab.sim.SimProfiles;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.SimSnapshot;
import io.fabriclab.ui.FabricCanvas;
import io.fabriclab.workload.WorkloadPreset;
import javafx.animation.AnimationTimer;
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
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.TitledPane;
import javafx.scene.control.ToggleGroup;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;

/**
 * The live congestion view's run panel, docked beside the canvas: the view of a
 * {@link LiveViewModel} (which holds the run, its settings and commands). Sections: Run
 * (workload, QoS profile, sizes, duration, seed; Play, Pause, Step, Reset; speed asked for and
 * achieved; clock and progress), Thresholds (live ECN / PFC edits), Dashboard, Selection
 * ({@link LiveSelectionPane}) and Recording (timeline, worst moment, totals, save, open, compare).
 *
 * <p>Threading (docs/architecture.md): the simulator runs on its own thread inside the model's
 * run; this panel's {@link AnimationTimer} runs only while a run is active (being built, or not
 * yet ended), takes the newest snapshot each frame through the model (never waits), draws it
 * through {@link CongestionPainter} as a layer of the canvas, and sends user actions as commands.
 *
 * <p>About 800 lines: the widgets of four sections and their bindings to the model (no run
 * state lives here); the Selection section is {@link LiveSelectionPane}.
 */
public final class LivePanel extends ScrollPane implements io.fabriclab.ui.LiveViewProvider.Panel {
    static final double SPEED_MAX_POSITION = LiveViewModel.SPEED_MAX_POSITION;

    private final FabricCanvas canvas;
    private final LiveViewModel model;
    private final CongestionPainter congestionPainter = new CongestionPainter(new DiagramStyle());

    // Run settings.
    final ComboBox<LiveWorkload> workload = new ComboBox<>();
    /** RoCEv2 (default), InfiniBand or Ultra Ethernet: the run's link layer and NIC transport. */
    final ComboBox<io.fabriclab.model.Transport> transport = new ComboBox<>();
    /** Packet (animated here) or flow (run to its end and shown as a finished run: FlowRunWindow). */
    final ComboBox<io.fabriclab.sim.Engine> engine = new ComboBox<>();

    /** How an engine is named in the app's choice boxes. */
    static final javafx.util.StringConverter<io.fabriclab.sim.Engine> ENGINE_NAMES = new javafx.util.StringConverter<>() {
        @Override
        public String toString(io.fabriclab.sim.Engine e) {
            return e == null ? "" : e == io.fabriclab.sim.Engine.FLOW ? "flow (rates, no queues)" : "packet (every packet)";
        }

        @Override
        public io.fabriclab.sim.Engine fromString(String s) {
            return null;
        }
    };
    final ComboBox<String> profile = new ComboBox<>();
    final TextField sizeMb = new TextField();
    final TextField fanIn = new TextField();
    final TextField loadPercent = new TextField();
    final CheckBox toCompletion = new CheckBox("to completion");
    final TextField durationUs = new TextField();
    final TextField seed = new TextField();

    // Run control.
    final Button play = new Button("Play");
    final Button pause = new Button("Pause");
    final Button stepEvent = new Button("Step event");
    final Button stepInterval = new Button("Step 5 µs");
    final Button reset = new Button("Reset");
    final Slider speed = new Slider(3, SPEED_MAX_POSITION, 8);
    final Label speedLabel = new Label();
    final Label achieved = new Label();
    final Label clock = new Label();
    final ProgressBar progress = new ProgressBar(0);
    final Label progressText = new Label();
    final Label status = new Label();
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

    final TextArea dashboard = new TextArea();
    /** Selects the hottest link of the picture and centres the canvas on it (it may sit off screen). */
    final Button showHottest = new Button("Show hottest link");
    /** Names the hottest port of each picture and says whether its device is on screen. */
    final Label hottestNow = new Label("hottest: nothing queued yet");
    /** When the hottest port moves to a device off screen, the canvas pans to it (on by default). */
    final CheckBox followHottest = new CheckBox("keep the hottest link in view");
    private String followed;
    final LiveSelectionPane selection;

    // Recording.
    final Slider timeline = new Slider(0, 1, 1);
    final Label timelineLabel = new Label("timeline: after the run");
    final Button worstMoment = new Button("Worst moment");
    final Button totals = new Button("Run totals");
    final Button saveRun = new Button("Save run…");
    final Button forReport = new Button("Results for report…");
    final Button openRun = new Button("Open run…");
    final Button compareRuns = new Button("Compare runs…");

    private long framesDrawn;
    private long drawNanosTotal;
    private long drawNanosMax;
    private long drawCpuNanosTotal;
    private boolean timerRunning;
    private ChoosePath chooser = new ChoosePath() {
    };

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

    private final Runnable documentChanged = this::documentChanged;

    private void documentChanged() {
        model.fabricReplaced(canvas.document().fabric());
    }

    private final AnimationTimer timer = new AnimationTimer() {
        @Override
        public void handle(long now) {
            if (model.onFrame(now)) {
                drawCanvas();
            }
            if (!model.activeProperty().get()) {
                stopTimer();
            }
        }
    };

    public LivePanel(FabricCanvas canvas) {
        this.canvas = canvas;
        this.model = new LiveViewModel(canvas.document().fabric());
        model.setDrawnFabric(() -> canvas.document().fabric());
        this.selection = new LiveSelectionPane(canvas, model);
        setId("live-panel");
        setFitToWidth(true);
        setPrefWidth(400);
        setMinWidth(320);
        // The panel scrolls up and down only; its rows wrap or fit its width (no cut-off fields).
        setHbarPolicy(ScrollBarPolicy.NEVER);
        setContent(build());
        model.setRedraw(canvas::redraw);
        model.setErrorHandler(this::showErrorDialog);
        model.addListener(new LiveViewListener() {
            @Override
            public void started(LiveSession s) {
                congestionPainter.setPausedLabel(pausedLabel(s.transport()));
                fillThresholdTargets();
            }

            @Override
            public void finished() {
                runFinished();
            }

            @Override
            public void pictureChanged(SimSnapshot s) {
                hottestChanged(s);
            }

            @Override
            public void cleared() {
                timelineLabel.setText("timeline: after the run");
                hottestNow.setText("hottest: nothing queued yet");
                followed = null;
                timeline.setDisable(true);
                worstMoment.setDisable(true);
                totals.setDisable(true);
            }
        });
        // The timer runs while a run is active, and stops (no idle frames) once it has ended.
        model.activeProperty().addListener((o, a, b) -> {
            if (b && getScene() != null) {
                startTimer();
            }
        });
        canvas.setLayer(new FabricCanvas.Layer() {
            @Override
            public void paint(io.fabriclab.diagram.Painter p, io.fabriclab.diagram.DiagramGeometry g,
                              java.util.Map<Device, io.fabriclab.diagram.FoldGroup> folded,
                              io.fabriclab.diagram.Viewport vp, double w, double h) {
                paintLayer(p, g, folded, vp, w, h);
            }

            @Override
            public double[] legendSize() {
                return new double[] {CongestionPainter.LEGEND_WIDTH, CongestionPainter.legendHeight(true)};
            }

            @Override
            public void paintLegend(io.fabriclab.diagram.Painter p, double x, double y) {
                congestionPainter.paintLegendAt(p, x, y, model.colourBy.get(), true);
            }
        });
        canvas.setLinkClickHandler(this::onLinkClicked);
        // New from Template, Import, Open example (and their undo) replace the fabric under the panel.
        canvas.document().stack().addListener(documentChanged);
        // File > Open replaces the editor: a panel that leaves its scene stops its run and timer.
        sceneProperty().addListener((o, a, b) -> {
            if (b == null) {
                stopTimer();
                model.stopRun();
            } else if (model.activeProperty().get()) {
                startTimer();
            }
        });
    }

    /** The live panel docked in {@code editor}, or null when the live view is closed. */
    public static LivePanel of(io.fabriclab.ui.FabricEditor editor) {
        return (LivePanel) editor.livePanel();
    }

    @Override
    public javafx.scene.Node node() {
        return this;
    }

    /** A file name from a run's description: letters, digits, dot, dash and underscore. */
    static String safeName(String s) {
        String n = s.replaceAll("[^A-Za-z0-9._-]+", "-").replaceAll("^-+|-+$", "");
        return n.isEmpty() ? "live-run" : n;
    }

    @Override
    public java.util.Optional<String> lastRunName() {
        return model.session() == null || model.results() == null ? java.util.Optional.empty()
                : java.util.Optional.of(model.session().settings().describe() + " on " + model.frames().fabric().name());
    }

    @Override
    public java.util.Optional<Path> writeLastRun(Path dir) throws java.io.IOException {
        if (model.session() == null || model.results() == null) {
            return java.util.Optional.empty();
        }
        Path out = dir.resolve("live-" + safeName(lastRunName().orElseThrow()) + "-results.json");
        model.session().writeResults(out, model.results());
        return java.util.Optional.of(out);
    }

    /** The panel's run state and commands. */
    public LiveViewModel model() {
        return model;
    }

    private void startTimer() {
        if (!timerRunning) {
            timerRunning = true;
            timer.start();
        }
    }

    private void stopTimer() {
        if (timerRunning) {
            timerRunning = false;
            timer.stop();
        }
    }

    /** True while the animation timer runs (only during a run). */
    public boolean animating() {
        return timerRunning;
    }

    // ----- layout ----------------------------------------------------------------------------------

    private VBox build() {
        for (WorkloadPreset p : WorkloadPreset.values()) {
            workload.getItems().add(LiveWorkload.of(p));
        }
        for (LivePreset p : LivePreset.values()) {
            workload.getItems().add(LiveWorkload.of(p));
        }
        workload.getItems().add(LiveWorkload.CHOOSE_FILE);
        workload.getItems().add(LiveWorkload.TRAINING_DIALOG);
        workload.setValue(model.workload.get());
        workload.valueProperty().addListener((o, a, b) -> {
            if (b == LiveWorkload.TRAINING_DIALOG) {
                // The dialog decides; until then the list shows what was chosen before.
                javafx.application.Platform.runLater(() -> workload.setValue(a));
                openTrainingDialog();
            } else if (b == LiveWorkload.CHOOSE_FILE) {
                Path p = chooser.open("Scenario", ".json");
                if (p != null) {
                    setScenarioFile(p);
                } else {
                    workload.setValue(a);
                }
            } else if (b != null) {
                model.workload.set(b);
            }
        });
        model.workload.addListener((o, a, b) -> {
            if (!workload.getItems().contains(b)) {
                workload.getItems().removeIf(w -> w.scenario() != null && w.live() == null || w.training() != null);
                workload.getItems().add(b);
            }
            workload.setValue(b);
            enableFields();
        });
        transport.getItems().setAll(io.fabriclab.model.Transport.values());
        transport.setConverter(new javafx.util.StringConverter<>() {
            @Override
            public String toString(io.fabriclab.model.Transport t) {
                return t == null ? "" : t.displayName();
            }

            @Override
            public io.fabriclab.model.Transport fromString(String s) {
                return null;
            }
        });
        transport.valueProperty().bindBidirectional(model.transport);
        transport.setId("live-transport");
        engine.getItems().setAll(io.fabriclab.sim.Engine.values());
        engine.setConverter(ENGINE_NAMES);
        engine.valueProperty().bindBidirectional(model.engine);
        engine.setId("live-engine");
        engine.setTooltip(new javafx.scene.control.Tooltip("packet: animated here, every packet, PFC, ECN, credits; "
                + "flow: max-min fair rates, run to its end and shown in a window (whole clusters in seconds)"));
        model.flowResult.addListener((o, a, b) -> {
            if (b != null) {
                FlowRunWindow.show(getScene() == null ? null : getScene().getWindow(), b);
            }
        });
        profile.getItems().add(LiveViewModel.FABRIC_QOS);
        profile.getItems().addAll(SimProfiles.NAMES);
        profile.valueProperty().bindBidirectional(model.profile);
        sizeMb.textProperty().bindBidirectional(model.sizeMb);
        fanIn.textProperty().bindBidirectional(model.fanIn);
        loadPercent.textProperty().bindBidirectional(model.loadPercent);
        durationUs.textProperty().bindBidirectional(model.durationUs);
        seed.textProperty().bindBidirectional(model.seed);
        toCompletion.selectedProperty().bindBidirectional(model.toCompletion);
        durationUs.disableProperty().bind(toCompletion.selectedProperty());
        enableFields();

        GridPane settings = grid();
        int r = 0;
        // The workload names are long ("preset: incast: PFC pauses spread upstream"): the list takes
        // the panel's whole width on a row of its own, so the chosen one is never cut off.
        settings.add(new Label("Workload"), 0, r++, 2, 1);
        workload.setMaxWidth(Double.MAX_VALUE);
        settings.add(workload, 0, r++, 2, 1);
        settings.addRow(r++, new Label("Transport"), transport);
        settings.addRow(r++, new Label("Engine"), engine);
        settings.addRow(r++, new Label("QoS profile"), profile);
        settings.addRow(r++, new Label("Size (MB)"), sizeMb);
        settings.addRow(r++, new Label("Incast senders"), fanIn);
        settings.addRow(r++, new Label("Background load (%)"), loadPercent);
        durationUs.setPrefColumnCount(7);
        toCompletion.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        settings.addRow(r++, new Label("Duration (µs)"), new HBox(6, durationUs, toCompletion));
        settings.addRow(r, new Label("Seed"), seed);

        play.setId("live-play");
        pause.setId("live-pause");
        stepEvent.setId("live-step-event");
        stepInterval.setId("live-step");
        reset.setId("live-reset");
        play.setOnAction(e -> model.play());
        pause.setOnAction(e -> model.pauseRun());
        stepEvent.setOnAction(e -> model.step(true));
        stepInterval.setOnAction(e -> model.step(false));
        reset.setOnAction(e -> model.reset());
        pause.disableProperty().bind(model.runningProperty().not());
        speed.setId("live-speed");
        speed.setMajorTickUnit(1);
        speed.setShowTickMarks(true);
        speed.setSnapToTicks(false);
        speed.valueProperty().bindBidirectional(model.speedPosition);
        // Arrow keys step 1-2-5 through the speeds (the slider's own step jumped to an end).
        speed.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            KeyCode k = e.getCode();
            if (k == KeyCode.RIGHT || k == KeyCode.UP || k == KeyCode.LEFT || k == KeyCode.DOWN) {
                model.stepSpeed(k == KeyCode.RIGHT || k == KeyCode.UP ? 1 : -1);
                e.consume();
            }
        });
        speedLabel.textProperty().bind(model.speedTextProperty());
        speedLabel.setId("live-speed-label");
        achieved.textProperty().bind(model.achievedTextProperty());
        achieved.setId("live-speed-achieved");
        model.behindProperty().addListener((o, a, b) -> achieved.setStyle(b
                ? "-fx-text-fill: #b00020; -fx-font-weight: bold;" : ""));
        Label behindNote = new Label("behind: the simulator cannot keep up with the speed asked for");
        behindNote.setWrapText(true);
        behindNote.setStyle("-fx-text-fill: #b00020;");
        behindNote.visibleProperty().bind(model.behindProperty());
        behindNote.managedProperty().bind(model.behindProperty());
        clock.setId("live-clock");
        clock.textProperty().bind(model.clockProperty());
        progress.setMaxWidth(Double.MAX_VALUE);
        progress.progressProperty().bind(model.progressProperty());
        progressText.textProperty().bind(model.progressTextProperty());
        progressText.setWrapText(true);
        ToggleGroup colour = new ToggleGroup();
        byQueue.setToggleGroup(colour);
        byUtilisation.setToggleGroup(colour);
        byQueue.setSelected(true);
        colour.selectedToggleProperty().addListener((o, a, b) -> model.colourBy.set(byUtilisation.isSelected()
                ? CongestionPainter.ColourBy.UTILISATION : CongestionPainter.ColourBy.QUEUE));
        clickFails.selectedProperty().bindBidirectional(model.clickFails);
        clickFails.setWrapText(true);
        speedLabel.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        achieved.setWrapText(true);
        clock.setWrapText(true);
        status.setWrapText(true);
        status.textProperty().bind(model.statusProperty());
        VBox control = new VBox(6, new HBox(6, play, pause, reset), new HBox(6, stepEvent, stepInterval),
                new HBox(6, new Label("Speed"), speed, speedLabel), achieved, behindNote, clock, progress,
                progressText, new HBox(8, new Label("Colour by"), byQueue, byUtilisation), clickFails, status);

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
        applyEcn.setOnAction(e -> model.commands().applyEcn(target(), kminKb.getText(), kmaxKb.getText(), pmax.getText()));
        applyPfc.setOnAction(e -> model.commands().applyPfc(target(), xoffKb.getText(), xonKb.getText()));
        applyEcn.disableProperty().bind(model.runningProperty().not());
        applyPfc.disableProperty().bind(model.runningProperty().not());
        thresholdStatus.setWrapText(true);
        thresholdStatus.textProperty().bind(model.thresholdStatusProperty());
        selection.setOnSwitchPortSelected(p -> thresholdTarget.getEditor().setText(p));
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
        dashboard.textProperty().bind(model.dashboardProperty());
        showHottest.setId("live-show-hottest");
        showHottest.setOnAction(e -> showHottest());
        hottestNow.setId("live-hottest-now");
        hottestNow.setWrapText(true);
        followHottest.setId("live-follow-hottest");
        followHottest.setSelected(true);
        followHottest.setWrapText(true);

        timeline.setDisable(true);
        timeline.setId("live-timeline");
        timeline.valueProperty().addListener((o, a, b) -> {
            if (!timeline.isDisabled() && !model.scrubbing()) {
                model.scrubTo(Math.round(timeline.getValue() * 1e6));
            }
        });
        worstMoment.setId("live-worst-moment");
        totals.setId("live-totals");
        worstMoment.setDisable(true);
        totals.setDisable(true);
        worstMoment.setOnAction(e -> {
            SimSnapshot s = model.showWorstMoment();
            if (s != null) {
                moveTimeline(s.timePs() / 1e6);
            }
        });
        totals.setOnAction(e -> model.showTotals());
        saveRun.disableProperty().bind(model.canSaveProperty().not());
        saveRun.setOnAction(e -> saveRunDialog());
        forReport.disableProperty().bind(model.canSaveProperty().not());
        forReport.setOnAction(e -> {
            Path p = chooser.save("Results for the design-review report", ".json");
            if (p != null) {
                model.commands().writeResults(p);
            }
        });
        openRun.setOnAction(e -> openRunDialog());
        compareRuns.setOnAction(e -> compareDialog());
        VBox recording = new VBox(6, timelineLabel, timeline, new HBox(6, worstMoment, totals),
                new HBox(6, saveRun, forReport), new HBox(6, openRun, compareRuns));

        VBox box = new VBox(6,
                titled("Run", new VBox(8, settings, control)),
                titled("Thresholds (live)", thresholdBox),
                titled("Dashboard", new VBox(6, new HBox(6, showHottest, followHottest), hottestNow, dashboard)),
                titled("Selection", selection),
                titled("Recording", recording));
        box.setPadding(new Insets(6));
        return box;
    }

    /** Fields a workload does not use are disabled (the all-reduce ignores the incast senders). */
    private void enableFields() {
        fanIn.setDisable(!model.usesFanIn());
        loadPercent.setDisable(!model.usesLoad());
        sizeMb.setDisable(!model.usesSize());
    }

    private String target() {
        String t = thresholdTarget.getEditor().getText();
        return t == null || t.isBlank() ? thresholdTarget.getValue() : t;
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

    private static TitledPane titled(String title, javafx.scene.Node n) {
        TitledPane t = new TitledPane(title, n);
        t.setCollapsible(true);
        return t;
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

    /** Selects the link of the hottest port shown and centres the view on its sending device; the port, or null. */
    String showHottest() {
        String ref = model.hottestPort();
        Link l = ref == null ? null : model.frames().linkOf(ref);
        if (l == null) {
            model.setStatus("Nothing is queued or paused in the picture shown.");
            return null;
        }
        canvas.document().selection().set(java.util.List.of(), java.util.List.of(l));
        io.fabriclab.model.Port p = canvas.document().fabric().port(ref);
        canvas.reveal(p.device());
        model.setStatus("Hottest: " + ref + " (selected, view centred on " + p.device().id() + ").");
        return ref;
    }

    /**
     * Each new picture: names its hottest port, says whether its sending device is on screen,
     * and, with "keep the hottest link in view" ticked, centres the canvas on it when the hottest
     * port has moved to a device that is off screen (a view the user moves is left alone until the
     * hot spot moves again).
     */
    void hottestChanged(SimSnapshot s) {
        String ref = s == null ? null : RunReview.hottestPort(s);
        io.fabriclab.model.Port p = ref == null ? null : canvas.document().fabric().port(ref);
        if (p == null) {
            hottestNow.setText("hottest: nothing queued or paused");
            followed = null;
            return;
        }
        int i = s.ports().indexOf(ref);
        boolean onScreen = onScreen(p.device());
        if (!onScreen && followHottest.isSelected() && !ref.equals(followed)) {
            canvas.reveal(p.device());
            onScreen = onScreen(p.device());
        }
        followed = ref;
        hottestNow.setText(String.format(java.util.Locale.ROOT, "hottest: %s, %,d KB queued%s (%s)", ref,
                s.queueBytes()[i] / 1000, s.pausedMask()[i] != 0 ? ", paused" : "",
                onScreen ? "on screen" : "not in view: Show hottest link"));
    }

    /**
     * Below this zoom a hot link is not seen even when its device is inside the canvas (the 64-unit
     * rail fabric fits at 3 %, where folded groups and thinned lines hide it), so "keep in view"
     * zooms to it too ({@link FabricCanvas#reveal} then shows it at 100 %).
     */
    static final double MIN_VISIBLE_SCALE = 0.2;

    /** Whether the device's position is inside the canvas as it is drawn now, at a zoom where it can be seen. */
    private boolean onScreen(Device d) {
        io.fabriclab.model.Layout.Point pt = canvas.document().fabric().layout().position(d.id());
        if (pt == null || canvas.getWidth() <= 0 || canvas.viewport().scale() < MIN_VISIBLE_SCALE) {
            return false;
        }
        double x = canvas.viewport().toScreenX(pt.x());
        double y = canvas.viewport().toScreenY(pt.y());
        return x >= 0 && y >= 0 && x <= canvas.getWidth() && y <= canvas.getHeight();
    }

    private void fillThresholdTargets() {
        thresholdTarget.getItems().clear();
        for (QosProfile q : canvas.document().fabric().qosProfiles().values()) {
            thresholdTarget.getItems().add("profile:" + q.name());
        }
    }

    // ----- run control (the model's, for the editor, the menu and tests) -----------------------------

    public void setScenarioFile(Path p) {
        model.workload.set(LiveWorkload.file(p));
    }

    /**
     * Opens the Training Step dialog ({@link TrainingJobDialog}) on the open fabric, filled with
     * the training step chosen now (if any); OK makes the job the workload and plays it.
     */
    public TrainingJobDialog openTrainingDialog() {
        LiveWorkload now = model.workload.get();
        TrainingJobDialog d = new TrainingJobDialog(getScene() == null ? null : getScene().getWindow(),
                canvas.document().fabric().copy(), now == null ? null : now.training());
        d.show(this::runTraining);
        return d;
    }

    /**
     * Makes {@code job} the workload and starts it at full speed: a step's compute intervals last
     * milliseconds of simulated time, which the set speeds (at most 1 ms per second) would take
     * minutes to show; the slider slows it down again.
     */
    public void runTraining(io.fabriclab.workload.TrainingJob job) {
        model.workload.set(LiveWorkload.of(job));
        model.speedPosition.set(SPEED_MAX_POSITION);
        model.play();
    }

    public RunSettings settings() {
        return model.settings();
    }

    public LiveSession session() {
        return model.session();
    }

    public void play() {
        model.play();
    }

    public boolean start(boolean paused) {
        return model.start(paused);
    }

    public void pauseRun() {
        model.pauseRun();
    }

    public void step(boolean oneEvent) {
        model.step(oneEvent);
    }

    public void reset() {
        model.reset();
    }

    /** Sets the speed slider (position 3..10; 10 = unthrottled). */
    public void setSpeedPosition(double position) {
        model.speedPosition.set(position);
    }

    public SimSnapshot shownSnapshot() {
        return model.shownSnapshot();
    }

    public SimResults results() {
        return model.results();
    }

    public CongestionFrame frame() {
        return model.frame();
    }

    private void runFinished() {
        var rec = model.session().recording().frames();
        if (!rec.isEmpty()) {
            timeline.setMin(rec.get(0).timePs() / 1e6);
            timeline.setMax(Math.max(timeline.getMin() + 1e-6, rec.get(rec.size() - 1).timePs() / 1e6));
            moveTimeline(timeline.getMax());
            timeline.setDisable(false);
            worstMoment.setDisable(false);
            totals.setDisable(false);
            timelineLabel.setText(String.format(java.util.Locale.ROOT,
                    "timeline: %d frames, %.1f – %.1f µs (drag to scrub)", rec.size(), timeline.getMin(),
                    timeline.getMax()));
        }
    }

    private void moveTimeline(double us) {
        model.setScrubbing(true);
        timeline.setValue(us);
        model.setScrubbing(false);
    }

    // ----- drawing -----------------------------------------------------------------------------------

    private static final java.lang.management.ThreadMXBean THREADS =
            java.lang.management.ManagementFactory.getThreadMXBean();

    private void drawCanvas() {
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
        CongestionFrame f = model.frame() != null ? model.frame()
                : new CongestionFrame(0, model.frames().directions());
        // The legend is the canvas's to place (FabricCanvas.Layer#legendSize): in a corner free of the drawing.
        congestionPainter.paint(p, g, folded, vp, w, h, f, System.nanoTime() / 1e9, model.colourBy.get(),
                CongestionPainter.Legend.NONE);
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

    /** Stops the animation timer and the run (when the panel closes). */
    @Override
    public void dispose() {
        stopTimer();
        model.stopRun();
        canvas.document().stack().removeListener(documentChanged);
        canvas.setLayer(null);
        canvas.setLinkClickHandler(null);
    }

    /** What the legend calls the pause mark now. */
    String pausedLegend() {
        return congestionPainter.pausedLabel();
    }

    /** The legend's name for the pause mark under {@code t}: what holds a sender back on that transport. */
    static String pausedLabel(io.fabriclab.model.Transport t) {
        return switch (t) {
            case ROCEV2 -> CongestionPainter.PFC_PAUSED;
            case INFINIBAND -> "credit-stalled (no credits from the peer)";
            case ULTRA_ETHERNET -> "trimmed packets at this egress";
        };
    }

    public void setErrorHandler(Consumer<Throwable> handler) {
        model.setErrorHandler(handler);
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

    /** During a run with "click fails" ticked, a click on a link fails it (or restores it); else it selects. */
    private boolean onLinkClicked(Link drawn) {
        if (model.session() == null || model.ended() || !model.clickFails.get()) {
            selection.linkClicked(drawn);
            return false;
        }
        model.commands().toggleLink(drawn);
        return true;
    }

    // ----- recording files -------------------------------------------------------------------------------

    private void saveRunDialog() {
        if (model.session() == null) {
            return;
        }
        Path p = chooser.save("Save run", RunRecording.EXTENSION);
        if (p != null) {
            saveRun(p);
        }
    }

    /** Saves the recorded run with its results in the background; completes on the FX thread. */
    public java.util.concurrent.CompletableFuture<Void> saveRun(Path p) {
        return model.commands().saveRun(p);
    }

    void openRunDialog() {
        Path p = chooser.open("Open run", RunRecording.EXTENSION);
        if (p != null) {
            ReplayWindow.open(p, model::setStatus);
        }
    }

    void compareDialog() {
        Path a = chooser.open("First run", RunRecording.EXTENSION);
        if (a == null) {
            return;
        }
        Path b = chooser.open("Second run", RunRecording.EXTENSION);
        if (b != null) {
            ReplayWindow.compare(a, b, model::setStatus);
        }
    }
}
