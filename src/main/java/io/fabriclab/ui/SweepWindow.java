package io.fabriclab.ui;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.controlsfx.control.CheckComboBox;
import org.jfree.chart.JFreeChart;

import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.concurrent.Task;
import javafx.embed.swing.SwingFXUtils;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.Spinner;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TextField;
import javafx.scene.image.ImageView;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.stage.Stage;
import javafx.stage.Window;

import io.fabriclab.edit.CompoundCommand;
import io.fabriclab.edit.FabricCommand;
import io.fabriclab.edit.SetQosProfileCommand;
import io.fabriclab.sweep.tune.TuneReport;
import io.fabriclab.sweep.tune.Tuner;
import io.fabriclab.io.AtomicFiles;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;
import io.fabriclab.sweep.SweepCharts;
import io.fabriclab.sweep.SweepMetrics;
import io.fabriclab.sweep.SweepPlan;
import io.fabriclab.sweep.SweepRunner;
import io.fabriclab.sweep.SweepSummary;

/**
 * Simulate > Sweep…: the same sweep as {@code fabriclab sweep}, built from a form on the open
 * fabric and a scenario's workload. Parameters are JSON paths into the scenario with a list of
 * values or a range; the design, seeds, metrics, a zero-drops constraint and the objective follow
 * the sweep file format. The runs go through the app's executor on the local worker pool (progress
 * per run: done / running / ETA), their files under the output folder, so running the same sweep
 * again reuses finished runs. The table holds every point (mean and 95 % interval over the seeds);
 * the charts are the CLI's; a point's QoS is applied to a profile of the fabric as one undoable
 * command. The Tune tab runs {@code fabriclab tune}'s search the same way.
 *
 * <p>About 650 lines, above the 600 the ui classes aim for: the two tabs share the scenario, the
 * workers, the output folder and the executor; the form-to-sweep-file logic and a point's QoS are
 * in {@link SweepModel} (no JavaFX), which is where the next split would go.
 */
public final class SweepWindow {
    final Stage stage = new Stage();
    final TextField scenario = new TextField();
    final CheckBox onOpenFabric = new CheckBox("Run on the open fabric (instead of the scenario's own)");
    /** Why some suggested paths are not offered for the chosen scenario ("" when all are). */
    final Label pathHint = new Label();
    /** The output folder the window chose last; a folder the user typed is kept. */
    private String autoOutput;
    /** The fabric the shown sweep / tune ran on when it was the open one; null when it ran on the scenario's own. */
    private Fabric sweptOn;
    private Fabric tunedOn;
    final ComboBox<String> path = new ComboBox<>();
    final TextField values = new TextField();
    final TextField from = new TextField();
    final TextField to = new TextField();
    final Spinner<Integer> count = new Spinner<>(1, 1000, 3);
    final CheckBox log = new CheckBox("log");
    final ListView<SweepModel.Parameter> parameters = new ListView<>();
    final ChoiceBox<String> design = new ChoiceBox<>();
    final Spinner<Integer> randomPoints = new Spinner<>(1, 100_000, 16);
    final Spinner<Integer> seeds = new Spinner<>(1, 1000, 2);
    final Spinner<Integer> firstSeed = new Spinner<>(0, Integer.MAX_VALUE, 1);
    final CheckComboBox<String> metrics = new CheckComboBox<>();
    final CheckBox zeroDrops = new CheckBox("Require zero drops");
    final ComboBox<String> objective = new ComboBox<>();
    final ChoiceBox<String> goal = new ChoiceBox<>();
    final Spinner<Integer> workers = new Spinner<>(1, 256, Runtime.getRuntime().availableProcessors());
    final TextField output = new TextField();
    final Button run = new Button("Run Sweep");
    final Button cancel = new Button("Cancel");
    final ProgressBar progress = new ProgressBar(0);
    final Label status = new Label("Set a scenario and at least one parameter, then Run Sweep.");
    final TableView<SweepSummary.Point> table = new TableView<>();
    final ComboBox<String> chart = new ComboBox<>();
    /** The engine every run of the sweep uses (the sweep file's "engine"); the tuner runs packet only. */
    final ComboBox<io.fabriclab.sim.Engine> engine = new ComboBox<>(
            javafx.collections.FXCollections.observableArrayList(io.fabriclab.sim.Engine.values()));
    final ImageView chartView = new ImageView();
    final ComboBox<String> profile = new ComboBox<>();
    final Button apply = new Button("Apply Point to Profile");
    // Tune tab
    final ComboBox<String> tuneObjective = new ComboBox<>();
    final ChoiceBox<String> tuneGoal = new ChoiceBox<>();
    final CheckBox tuneZeroDrops = new CheckBox("Require zero drops");
    final Spinner<Integer> budget = new Spinner<>(4, 1000, 24);
    final Spinner<Integer> searchSeeds = new Spinner<>(1, 100, 3);
    final Spinner<Integer> holdoutSeeds = new Spinner<>(2, 100, 5);
    final Spinner<Integer> trafficClass = new Spinner<>(0, 7, 3);
    final Button tune = new Button("Tune");
    final ProgressBar tuneProgress = new ProgressBar(0);
    final Label tuneStatus = new Label("The tuner searches ECN Kmin/Kmax/Pmax, PFC XOFF/XON and DCQCN for the objective.");
    final Label verdict = new Label();
    final TableView<String[]> beforeAfter = new TableView<>();
    final ImageView traceView = new ImageView();
    final Button applyTuned = new Button("Apply Recommended Profiles");
    final TabPane tabs = new TabPane();
    private Tuner.Outcome tuned;

    private final FabricEditor editor;
    private Task<SweepSummary> running;
    private SweepSummary summary;
    private Map<String, JFreeChart> charts = Map.of();

    public SweepWindow(FabricEditor editor, Window owner) {
        this.editor = editor;
        stage.initOwner(owner);
        stage.setTitle("Sweep — " + editor.document().fabric().name());
        DialogFit.fit(stage, owner);
        scenario.setPromptText("scenario file (its workload and QoS overrides are the base of every run)");
        onOpenFabric.setSelected(true);
        path.setEditable(true);
        path.getItems().setAll(SweepModel.SUGGESTED_PATHS);
        path.setPromptText("JSON path in the scenario");
        path.setPrefWidth(260);
        values.setPromptText("values: 20000, 50000  (or a range →)");
        from.setPromptText("from");
        to.setPromptText("to");
        from.setPrefColumnCount(7);
        to.setPrefColumnCount(7);
        count.setPrefWidth(80);
        count.setEditable(true);
        design.getItems().setAll("grid", "random", "latin-hypercube");
        design.setValue("grid");
        randomPoints.disableProperty().bind(design.valueProperty().isEqualTo("grid"));
        metrics.getItems().setAll(SweepMetrics.NAMES);
        for (String m : List.of("fctP99Us", "pausedUs", "ecnMarked", "drops")) {
            metrics.getCheckModel().check(m);
        }
        objective.getItems().setAll(SweepMetrics.NAMES);
        objective.setValue("fctP99Us");
        goal.getItems().setAll("min", "max");
        goal.setValue("min");
        zeroDrops.setSelected(true);
        output.setText(defaultOutput(editor.document().fabric().name()).toString());
        autoOutput = output.getText();
        // The title, the output folder and the paths offered follow what the sweep runs on.
        onOpenFabric.selectedProperty().addListener((o, a, b) -> refreshSubject());
        scenario.textProperty().addListener((o, a, b) -> refreshSubject());
        status.setWrapText(true);
        status.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        tuneStatus.setWrapText(true);
        pathHint.setWrapText(true);
        pathHint.setStyle("-fx-text-fill: #52606d;");
        pathHint.managedProperty().bind(pathHint.textProperty().isNotEmpty());
        Fabric f = editor.document().fabric();
        profile.getItems().setAll(f.qosProfiles().keySet());
        profile.setValue(f.defaultQosProfile() != null ? f.defaultQosProfile()
                : profile.getItems().isEmpty() ? null : profile.getItems().get(0));
        parameters.setPrefHeight(90);
        cancel.setDisable(true);
        progress.setMaxWidth(Double.MAX_VALUE);
        apply.setDisable(true);
        chartView.setPreserveRatio(true);

        Button browse = new Button("Browse…");
        browse.setOnAction(e -> chooseScenario());
        Button add = new Button("Add");
        add.setId("sweep-add-parameter");
        add.setOnAction(e -> addParameter());
        Button remove = new Button("Remove");
        remove.setOnAction(e -> parameters.getItems().remove(parameters.getSelectionModel().getSelectedItem()));
        Button save = new Button("Save Sweep File…");
        save.setOnAction(e -> saveSweepFile());
        run.setDefaultButton(true);
        run.setOnAction(e -> run());
        cancel.setOnAction(e -> {
            if (running != null) {
                running.cancel(true);
            }
        });
        chart.setOnAction(e -> showChart());
        apply.setOnAction(e -> applySelectedPoint());
        table.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> apply.setDisable(b == null
                || profile.getValue() == null || sweptOn == null || sweptOn != editor.document().fabric()));

        GridPane top = new GridPane();
        top.setHgap(8);
        top.setVgap(6);
        javafx.scene.layout.ColumnConstraints topLabels = new javafx.scene.layout.ColumnConstraints();
        topLabels.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        javafx.scene.layout.ColumnConstraints topFields = new javafx.scene.layout.ColumnConstraints();
        topFields.setHgrow(Priority.ALWAYS);
        top.getColumnConstraints().addAll(topLabels, topFields);
        top.addRow(0, new Label("Scenario"), new HBox(6, grow(scenario), browse));
        top.add(onOpenFabric, 1, 1);
        top.addRow(2, new Label("Workers"), new HBox(6, workers, new Label("Output folder"), grow(output)));
        GridPane.setHgrow(top.getChildren().get(1), Priority.ALWAYS);

        GridPane form = new GridPane();
        form.setHgap(8);
        form.setVgap(6);
        // The labels keep their whole text ("Parameter", not "..."); the fields and the hint take the rest.
        javafx.scene.layout.ColumnConstraints labelColumn = new javafx.scene.layout.ColumnConstraints();
        labelColumn.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        javafx.scene.layout.ColumnConstraints fieldColumn = new javafx.scene.layout.ColumnConstraints();
        fieldColumn.setHgrow(Priority.ALWAYS);
        fieldColumn.setMinWidth(0);
        form.getColumnConstraints().addAll(labelColumn, fieldColumn);
        pathHint.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        pathHint.setMaxWidth(Double.MAX_VALUE);
        int r = 0;
        form.addRow(r++, new Label("Parameter"), new HBox(6, path, grow(values), new Label("or"), from, to, count, log, add));
        form.add(pathHint, 1, r++);
        form.addRow(r++, new Label("Varied"), new HBox(6, grow(parameters), remove));
        form.addRow(r++, new Label("Design"), new HBox(6, design, new Label("points"), randomPoints, new Label("seeds"), seeds,
                new Label("first seed"), firstSeed, new Label("engine"), engine));
        engine.setValue(io.fabriclab.sim.Engine.PACKET);
        engine.setId("sweep-engine");
        engine.setTooltip(new javafx.scene.control.Tooltip("packet: every packet, PFC, ECN, DCQCN; flow: max-min fair rates, "
                + "no queues (ECN, PFC and DCQCN parameters change nothing on it)"));
        form.addRow(r++, new Label("Metrics"), new HBox(6, metrics, zeroDrops));
        form.addRow(r++, new Label("Objective"), new HBox(6, objective, goal));
        form.addRow(r, new Label(""), new HBox(6, run, cancel, save));

        VBox results = new VBox(6, new HBox(6, progress, status), table,
                new HBox(6, new Label("Apply the selected point's QoS to profile"), profile, apply));
        progress.setPrefWidth(220);
        VBox.setVgrow(table, Priority.ALWAYS);
        ScrollPane chartPane = new ScrollPane(chartView);
        chartView.fitWidthProperty().bind(chartPane.widthProperty().subtract(20));
        VBox chartBox = new VBox(6, new HBox(6, new Label("Chart"), chart), chartPane);
        VBox.setVgrow(chartPane, Priority.ALWAYS);
        SplitPane split = new SplitPane(results, chartBox);
        split.setOrientation(Orientation.HORIZONTAL);
        split.setDividerPositions(0.55);
        VBox sweepTab = new VBox(10, form, split);
        VBox.setVgrow(split, Priority.ALWAYS);
        sweepTab.setPadding(new Insets(10, 0, 0, 0));

        tabs.getTabs().addAll(new Tab("Sweep", sweepTab), new Tab("Tune", tuneTab()));
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        VBox root = new VBox(10, top, tabs);
        VBox.setVgrow(tabs, Priority.ALWAYS);
        root.setPadding(new Insets(10));
        for (Spinner<Integer> sp : List.of(count, randomPoints, seeds, firstSeed, workers, budget, searchSeeds, holdoutSeeds,
                trafficClass)) {
            committedOnFocusLoss(sp);
        }
        firstSeed.setPrefWidth(120);
        table.setPlaceholder(new Label("Run Sweep: every point of the sweep appears here with its mean and 95 % interval."));
        beforeAfter.setPlaceholder(new Label("Tune: the start and the recommendation, on seeds the search did not use."));
        beforeAfter.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        stage.setScene(new Scene(root, 1180, 760));
    }

    /** An editable spinner keeps what was typed when focus leaves it (JavaFX commits on Enter only). */
    private static void committedOnFocusLoss(Spinner<Integer> sp) {
        sp.setEditable(true);
        sp.setPrefWidth(Math.min(sp.getPrefWidth() > 0 ? sp.getPrefWidth() : 90, 90));
        sp.focusedProperty().addListener((o, was, is) -> {
            if (!is) {
                try {
                    sp.getValueFactory().setValue(sp.getValueFactory().getConverter().fromString(sp.getEditor().getText()));
                } catch (RuntimeException e) {
                    sp.getEditor().setText(String.valueOf(sp.getValue()));
                }
            }
        });
    }

    private VBox tuneTab() {
        tuneObjective.getItems().setAll(SweepMetrics.NAMES);
        tuneObjective.setValue("pausedUs");
        tuneGoal.getItems().setAll("min", "max");
        tuneGoal.setValue("min");
        tuneZeroDrops.setSelected(true);
        budget.setEditable(true);
        tune.setOnAction(e -> tune());
        applyTuned.setDisable(true);
        applyTuned.setOnAction(e -> applyTuned());
        tuneProgress.setPrefWidth(220);
        verdict.setWrapText(true);
        verdict.setStyle("-fx-font-weight: bold");
        traceView.setPreserveRatio(true);
        String[] heads = {"metric (hold-out seeds)", "start", "recommended"};
        for (int i = 0; i < heads.length; i++) {
            int k = i;
            TableColumn<String[], String> c = new TableColumn<>(heads[i]);
            c.setCellValueFactory(v -> new ReadOnlyStringWrapper(v.getValue()[k]));
            c.setPrefWidth(i == 0 ? 190 : 150);
            beforeAfter.getColumns().add(c);
        }
        GridPane form = new GridPane();
        form.setHgap(8);
        form.setVgap(6);
        // The labels keep their whole text ("Parameter", not "..."); the fields and the hint take the rest.
        javafx.scene.layout.ColumnConstraints labelColumn = new javafx.scene.layout.ColumnConstraints();
        labelColumn.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        javafx.scene.layout.ColumnConstraints fieldColumn = new javafx.scene.layout.ColumnConstraints();
        fieldColumn.setHgrow(Priority.ALWAYS);
        fieldColumn.setMinWidth(0);
        form.getColumnConstraints().addAll(labelColumn, fieldColumn);
        pathHint.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        pathHint.setMaxWidth(Double.MAX_VALUE);
        form.addRow(0, new Label("Objective"), new HBox(6, tuneObjective, tuneGoal, tuneZeroDrops));
        form.addRow(1, new Label("Budget"), new HBox(6, budget, new Label("candidates, each over"), searchSeeds,
                new Label("seeds; hold-out seeds"), holdoutSeeds, new Label("traffic class"), trafficClass));
        form.addRow(2, new Label(""), new HBox(6, tune, tuneProgress, tuneStatus));
        VBox left = new VBox(6, verdict, beforeAfter, applyTuned);
        VBox.setVgrow(beforeAfter, Priority.ALWAYS);
        ScrollPane tracePane = new ScrollPane(traceView);
        traceView.fitWidthProperty().bind(tracePane.widthProperty().subtract(20));
        SplitPane split = new SplitPane(left, tracePane);
        split.setDividerPositions(0.45);
        VBox box = new VBox(10, form, split);
        VBox.setVgrow(split, Priority.ALWAYS);
        box.setPadding(new Insets(10, 0, 0, 0));
        return box;
    }

    /** The scenario the tuner reads: the file itself, or a copy beside the output with {@code fabric} inlined. */
    private static Path tuneScenario(Path dir, Path s, Fabric fabric) throws java.io.IOException {
        if (fabric == null) {
            return s;
        }
        com.fasterxml.jackson.databind.node.ObjectNode so = SweepModel.onFabric((com.fasterxml.jackson.databind.node.ObjectNode)
                io.fabriclab.io.JsonInput.treeOf(s, "a scenario"), fabric);
        Files.createDirectories(dir);
        Path out = dir.resolve("scenario-on-open-fabric.json");
        AtomicFiles.write(out, SweepModel.JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(so));
        return out;
    }

    /** Runs the tuner off the FX thread; the future completes after the result is shown. */
    CompletableFuture<Tuner.Outcome> tune() {
        if (scenario.getText().isBlank()) {
            tuneStatus.setText("Set a scenario first.");
            return CompletableFuture.failedFuture(new IllegalStateException(tuneStatus.getText()));
        }
        Path dir = Path.of(output.getText().trim()).resolve("tune");
        List<SweepPlan.Constraint> cs = tuneZeroDrops.isSelected() ? List.of(new SweepPlan.Constraint("drops", null, 0.0)) : List.of();
        Tuner.Settings settings = new Tuner.Settings(tuneObjective.getValue(), "min".equals(tuneGoal.getValue()), cs,
                budget.getValue(), java.util.stream.LongStream.rangeClosed(1, searchSeeds.getValue()).boxed().toList(),
                java.util.stream.LongStream.rangeClosed(1001, 1000 + holdoutSeeds.getValue()).boxed().toList(),
                trafficClass.getValue(), workers.getValue());
        // What the task reads of the form and the document is taken here, on the FX thread.
        Path scenarioFile = Path.of(scenario.getText().trim()).toAbsolutePath();
        Fabric fabric = onOpenFabric.isSelected() ? editor.document().fabric().copy() : null;
        Fabric runOn = onOpenFabric.isSelected() ? editor.document().fabric() : null;
        Task<Tuner.Outcome> t = new BackgroundTasks.Job<>() {
            @Override
            protected Tuner.Outcome work() throws Exception {
                updateTitle("Tune");
                updateMessage("Reading the scenario…");
                Path sc = tuneScenario(dir, scenarioFile, fabric);
                Tuner.Outcome o = Tuner.tune(sc, settings, dir, (e, total, best) -> {
                    updateProgress(e.index() + 1, total);
                    updateMessage(String.format(Locale.ROOT, "candidate %d / %d; best %s %s", e.index() + 1, total,
                            settings.objective(), format(best.objective())));
                });
                updateMessage("Writing the result…");
                TuneReport.write(o, sc, dir);
                return o;
            }
        };
        tuneProgress.progressProperty().bind(t.progressProperty());
        tuneStatus.textProperty().bind(t.messageProperty());
        tune.setDisable(true);
        return BackgroundTasks.shared().submit(t, o -> {
            endTune();
            tunedOn = runOn;
            showTuned(o, dir);
            tuneStatus.setText("Done: files in " + dir);
        }, e -> {
            endTune();
            tuneStatus.setText("Tuning failed: " + e.getMessage());
        });
    }

    private void endTune() {
        tuneProgress.progressProperty().unbind();
        tuneStatus.textProperty().unbind();
        tune.setDisable(false);
    }

    void showTuned(Tuner.Outcome o, Path dir) {
        tuned = o;
        List<String> ms = TuneReport.shownMetrics(o);
        List<String> worse = TuneReport.worsened(o, ms);
        // Every metric the recommendation makes worse is named with the verdict, never left to the table.
        verdict.setText(o.verdict() + (worse.isEmpty() ? "" : "\nGot worse: " + String.join("; ", worse) + ".")
                + (o.notes().isEmpty() ? "" : "\nNote: " + String.join("; ", o.notes()) + "."));
        verdict.setStyle("-fx-font-weight: bold;" + (worse.isEmpty() ? "" : " -fx-text-fill: #9a3412;"));
        beforeAfter.getItems().setAll(TuneReport.beforeAfter(o, ms));
        Path png = dir.resolve(TuneReport.TRACE_CHART + ".png");
        if (Files.exists(png)) {
            traceView.setImage(new javafx.scene.image.Image(png.toUri().toString()));
        }
        // A recommendation for the scenario's own fabric is not applied to the open one (issue 35 item 12).
        boolean forOpen = tunedOn != null && tunedOn == editor.document().fabric();
        applyTuned.setDisable(!o.improved() || !forOpen);
        applyTuned.setTooltip(new javafx.scene.control.Tooltip(forOpen ? "Puts the recommended profiles into the open fabric"
                : "The tuner ran on the scenario's own fabric: its recommendation is in " + dir.resolve(TuneReport.FABRIC)));
    }

    /** Every tuned profile put into the open fabric as one undoable command. */
    CompletableFuture<Integer> applyTuned() {
        Tuner.Outcome o = tuned;
        if (o == null || !o.improved()) {
            return CompletableFuture.failedFuture(new IllegalStateException("no recommendation"));
        }
        if (tunedOn == null || tunedOn != editor.document().fabric()) {
            tuneStatus.setText("Not applied: the recommendation is for " + (tunedOn == null ? "the scenario's own fabric"
                    : "the fabric open when the tuner ran") + ", not the open one.");
            return CompletableFuture.failedFuture(new IllegalStateException(tuneStatus.getText()));
        }
        return BackgroundTasks.shared().run("Reading the recommendation", () -> TuneReport.recommendedFabric(o), f -> {
            Fabric open = editor.document().fabric();
            List<FabricCommand> parts = new ArrayList<>();
            for (QosProfile q : f.qosProfiles().values()) {
                if (open.qosProfile(q.name()) != null) {
                    SetQosProfileCommand c = new SetQosProfileCommand(open, q);
                    if (!c.isNoOp()) {
                        parts.add(c);
                    }
                }
            }
            if (parts.isEmpty()) {
                tuneStatus.setText("The open fabric already has the recommended profiles (or none of their names).");
                return;
            }
            editor.document().execute(new CompoundCommand("Apply tuned QoS (" + parts.size() + " profile(s))", parts));
            tuneStatus.setText("Applied " + parts.size() + " tuned profile(s); Edit > Undo reverts them. Export them with "
                    + "File > Export Switch Config or fabriclab export-config.");
        }, e -> tuneStatus.setText("Not applied: " + firstLine(e.getMessage()))).thenApply(f -> 1);
    }

    private static <T extends javafx.scene.layout.Region> T grow(T n) {
        HBox.setHgrow(n, Priority.ALWAYS);
        n.setMaxWidth(Double.MAX_VALUE);
        return n;
    }

    static Path defaultOutput(String fabricName) {
        String safe = (fabricName == null ? "" : fabricName).replaceAll("[^A-Za-z0-9._-]+", "-").replaceAll("^[-.]+|-+$", "");
        return Path.of(System.getProperty("user.home"), ".fabriclab", "sweeps", safe.isEmpty() ? "fabric" : safe);
    }

    /** What the sweep runs on: the open fabric's name, or (unticked) the scenario's own fabric. */
    String subject() {
        if (onOpenFabric.isSelected()) {
            return editor.document().fabric().name();
        }
        Path s = scenarioPath();
        return s == null ? "the scenario's own fabric" : SweepModel.scenarioFabricName(s, readScenario(s));
    }

    private Path scenarioPath() {
        String t = scenario.getText() == null ? "" : scenario.getText().trim();
        try {
            return t.isEmpty() ? null : Path.of(t);
        } catch (java.nio.file.InvalidPathException e) {
            return null;
        }
    }

    /** The scenario's JSON when it is a readable file of a scenario's size (a few KB), else null. */
    private static com.fasterxml.jackson.databind.JsonNode readScenario(Path s) {
        try {
            if (s == null || !Files.isRegularFile(s) || Files.size(s) > 1 << 20) {
                return null;
            }
            return SweepModel.JSON.readTree(Files.readString(s, StandardCharsets.UTF_8));
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The title and the output folder name what the sweep runs on (issue 35 item 12: unticked, they
     * still named the open fabric), and the parameter list offers the paths the scenario has (item 9).
     */
    void refreshSubject() {
        String subject = subject();
        stage.setTitle("Sweep — " + subject + (onOpenFabric.isSelected() ? "" : " (the scenario's own fabric)"));
        if (output.getText().equals(autoOutput)) {
            output.setText(defaultOutput(subject).toString());
            autoOutput = output.getText();
        }
        com.fasterxml.jackson.databind.JsonNode sc = readScenario(scenarioPath());
        String typed = path.getEditor().getText();
        path.getItems().setAll(sc == null ? SweepModel.SUGGESTED_PATHS : SweepModel.validPaths(sc));
        path.getEditor().setText(typed);
        pathHint.setText(sc == null ? "" : SweepModel.missingHint(sc));
    }

    public void show() {
        stage.show();
    }

    private void chooseScenario() {
        FileChooser c = new FileChooser();
        c.setTitle("Scenario to sweep");
        c.getExtensionFilters().add(new FileChooser.ExtensionFilter("Scenario (*.json)", "*.json"));
        File f = c.showOpenDialog(stage);
        if (f != null) {
            scenario.setText(f.toString());
        }
    }

    /** Adds the parameter row's path with its values or range; a bad number says which field. */
    void addParameter() {
        String p = path.getEditor().getText() == null || path.getEditor().getText().isBlank() ? path.getValue()
                : path.getEditor().getText().trim();
        if (p == null || p.isBlank()) {
            status.setText("Give a JSON path into the scenario, e.g. qos.ecn.classes.3.kminBytes.");
            return;
        }
        String name = p.substring(p.lastIndexOf('.') + 1);
        if (!values.getText().isBlank()) {
            parameters.getItems().add(new SweepModel.Parameter(name, p, values.getText().trim(), 0, 0, 0, false));
        } else {
            try {
                double a = Double.parseDouble(from.getText().trim());
                double b = Double.parseDouble(to.getText().trim());
                parameters.getItems().add(new SweepModel.Parameter(name, p, null, a, b, count.getValue(), log.isSelected()));
            } catch (NumberFormatException e) {
                status.setText("Give the values as a list, or a range with numbers in from and to.");
                return;
            }
        }
        values.clear();
        from.clear();
        to.clear();
        log.setSelected(false);
        status.setText(parameters.getItems().size() + " parameter(s). Run Sweep when ready.");
    }

    /** The sweep file the form describes. */
    /**
     * The sweep file the form describes, as work for a background thread: the form's values and a
     * copy of the open fabric are taken now (on the FX thread); reading the scenario and writing the
     * fabric's JSON (seconds on a 64-unit fabric) happen when the callable runs.
     */
    java.util.concurrent.Callable<String> sweepJson() {
        Path s = Path.of(scenario.getText().trim());
        Fabric fabric = onOpenFabric.isSelected() ? editor.document().fabric().copy() : null;
        String n = "Sweep of " + s.getFileName() + (fabric != null ? " on " + fabric.name() : "");
        List<SweepModel.Parameter> ps = List.copyOf(parameters.getItems());
        String d = design.getValue();
        int points = randomPoints.getValue();
        long first = firstSeed.getValue();
        int nSeeds = seeds.getValue();
        List<String> ms = List.copyOf(metrics.getCheckModel().getCheckedItems());
        boolean noDrops = zeroDrops.isSelected();
        String obj = objective.getValue();
        boolean min = "min".equals(goal.getValue());
        io.fabriclab.sim.Engine e = engine.getValue() == null ? io.fabriclab.sim.Engine.PACKET : engine.getValue();
        return () -> SweepModel.sweepJson(n, s, fabric, ps, d, points, first, nSeeds, ms, noDrops, obj, min, e);
    }

    private void saveSweepFile() {
        FileChooser c = new FileChooser();
        c.setTitle("Save sweep file");
        c.setInitialFileName("sweep.json");
        File f = c.showSaveDialog(stage);
        if (f == null) {
            return;
        }
        java.util.concurrent.Callable<String> json = sweepJson();
        BackgroundTasks.shared().run("Saving the sweep file", () -> {
            AtomicFiles.write(f.toPath(), json.call().getBytes(StandardCharsets.UTF_8));
            return f;
        }, done -> status.setText("Saved " + done + ": run it with fabriclab sweep " + done.getName() + " -o DIR."),
                e -> status.setText("Not saved: " + firstLine(e.getMessage())));
    }

    /** Runs the sweep off the FX thread; the future completes after the table shows the result. */
    CompletableFuture<SweepSummary> run() {
        if (scenario.getText().isBlank() || parameters.getItems().isEmpty()) {
            status.setText("Set a scenario and at least one parameter first.");
            return CompletableFuture.failedFuture(new IllegalStateException(status.getText()));
        }
        java.util.concurrent.Callable<String> json = sweepJson();
        Path dir = Path.of(output.getText().trim());
        int w = workers.getValue();
        Fabric runOn = onOpenFabric.isSelected() ? editor.document().fabric() : null;
        Path base = Path.of(scenario.getText().trim()).toAbsolutePath().getParent();
        Task<SweepSummary> t = new BackgroundTasks.Job<>() {
            @Override
            protected SweepSummary work() throws Exception {
                updateTitle("Sweep");
                updateMessage("Reading the sweep…");
                SweepPlan plan = SweepModel.plan(json.call(), base);
                Files.createDirectories(dir);
                SweepRunner.Result res = SweepRunner.run(plan, dir, w, (done, run, total, reused, eta) -> {
                    updateProgress(done, total);
                    updateMessage(String.format(Locale.ROOT, "%d / %d runs done, %d running%s%s", done, total, run,
                            reused > 0 ? ", " + reused + " reused" : "",
                            Double.isFinite(eta) ? String.format(Locale.ROOT, ", about %.0f s left", eta) : ""));
                });
                SweepSummary s = SweepSummary.write(plan, res.rows(), dir);
                SweepCharts.write(s, dir);
                updateMessage(String.format(Locale.ROOT, "Done: %d runs (%d simulated, %d reused) on the %s engine in %s",
                        res.rows().size(), res.executed(), res.reused(), plan.engine().jsonName(), dir));
                return s;
            }
        };
        running = t;
        progress.progressProperty().bind(t.progressProperty());
        status.textProperty().bind(t.messageProperty());
        run.setDisable(true);
        cancel.setDisable(false);
        CompletableFuture<SweepSummary> done = BackgroundTasks.shared().submit(t, s -> {
            finish(t);
            sweptOn = runOn;
            show(s);
        }, e -> {
            finish(t);
            // The whole message, wrapped (it was cut off mid-word at the window's edge).
            status.setText("Sweep failed: " + e.getMessage());
        });
        done.whenComplete((s, e) -> {
            if (t.isCancelled()) {
                javafx.application.Platform.runLater(() -> {
                    finish(t);
                    status.setText("Cancelled; finished runs are kept in " + dir + " and reused by the next run.");
                });
            }
        });
        return done;
    }

    private void finish(Task<?> t) {
        progress.progressProperty().unbind();
        status.textProperty().unbind();
        if (t.isDone() && !t.isCancelled()) {
            status.setText(t.getMessage());
        }
        run.setDisable(false);
        cancel.setDisable(true);
        running = null;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int i = s.indexOf('\n');
        return i < 0 ? s : s.substring(0, i) + " …";
    }

    /** Fills the table and the chart list from a summary. */
    void show(SweepSummary s) {
        summary = s;
        SweepPlan plan = s.plan();
        table.getColumns().clear();
        TableColumn<SweepSummary.Point, Number> idx = new TableColumn<>("#");
        idx.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue().point() + 1));
        table.getColumns().add(idx);
        for (int i = 0; i < plan.parameterNames().size(); i++) {
            int k = i;
            TableColumn<SweepSummary.Point, String> c = new TableColumn<>(plan.parameterNames().get(i));
            c.setCellValueFactory(v -> new ReadOnlyStringWrapper(v.getValue().values().get(k)));
            table.getColumns().add(c);
        }
        TableColumn<SweepSummary.Point, String> ok = new TableColumn<>("ok / runs");
        ok.setCellValueFactory(v -> new ReadOnlyStringWrapper(v.getValue().ok() + " / " + v.getValue().runs()));
        table.getColumns().add(ok);
        for (String m : plan.summaryMetrics()) {
            TableColumn<SweepSummary.Point, String> c = new TableColumn<>(m);
            c.setCellValueFactory(v -> new ReadOnlyStringWrapper(format(v.getValue().stat(m))));
            table.getColumns().add(c);
        }
        TableColumn<SweepSummary.Point, String> feas = new TableColumn<>("feasible");
        feas.setCellValueFactory(v -> new ReadOnlyStringWrapper(v.getValue().feasible() ? "yes" : "no")
                .concat(v.getValue().pareto() ? " (Pareto)" : ""));
        table.getColumns().add(feas);
        table.getItems().setAll(s.points());
        charts = SweepCharts.charts(s);
        chart.getItems().setAll(charts.keySet());
        if (!chart.getItems().isEmpty()) {
            chart.setValue(chart.getItems().get(0));
            showChart();
        }
        List<String> other = SweepModel.nonQosPaths(plan);
        if (!other.isEmpty()) {
            apply.setTooltip(new javafx.scene.control.Tooltip("Applies the QoS only; not applied: " + String.join(", ", other)));
        }
    }

    static String format(SweepSummary.Stat st) {
        if (st == null || st.n() == 0 || !Double.isFinite(st.mean())) {
            return "—";
        }
        return st.text().replace(" +- ", " ± ");
    }

    private void showChart() {
        JFreeChart c = charts.get(chart.getValue());
        if (c != null) {
            chartView.setImage(SwingFXUtils.toFXImage(c.createBufferedImage(SweepCharts.WIDTH, SweepCharts.HEIGHT), null));
        }
    }

    /** Applies the selected point's QoS to the chosen profile, one undoable command; off the FX thread to read it. */
    CompletableFuture<QosProfile> applySelectedPoint() {
        SweepSummary.Point p = table.getSelectionModel().getSelectedItem();
        String name = profile.getValue();
        if (p == null || name == null || summary == null) {
            return CompletableFuture.failedFuture(new IllegalStateException("select a point and a profile"));
        }
        if (sweptOn == null || sweptOn != editor.document().fabric()) {
            status.setText("Not applied: the sweep ran on " + (sweptOn == null ? "the scenario's own fabric"
                    : "the fabric open when it ran") + ", not the open one.");
            return CompletableFuture.failedFuture(new IllegalStateException(status.getText()));
        }
        Fabric copy = editor.document().fabric().copy();
        SweepPlan plan = summary.plan();
        return BackgroundTasks.shared().run("Reading point " + (p.point() + 1),
                () -> SweepModel.profileOfPoint(plan, p.point(), copy, name),
                q -> {
                    SetQosProfileCommand cmd = new SetQosProfileCommand(editor.document().fabric(), q);
                    if (cmd.isNoOp()) {
                        status.setText("Profile " + name + " already has point " + (p.point() + 1) + "'s QoS.");
                        return;
                    }
                    editor.document().execute(cmd);
                    List<String> other = SweepModel.nonQosPaths(plan);
                    status.setText("Applied point " + (p.point() + 1) + " to QoS profile " + name + " (Edit > Undo reverts it)"
                            + (other.isEmpty() ? "." : "; not QoS, not applied: " + String.join(", ", other) + "."));
                },
                e -> status.setText("Not applied: " + firstLine(e.getMessage())));
    }

    /** The summary shown, for tests. */
    SweepSummary summary() {
        return summary;
    }

    /** For the menu: the list of parameters (tests fill it without the row editor). */
    List<SweepModel.Parameter> parameterList() {
        return new ArrayList<>(parameters.getItems());
    }
}
