package io.fabriclab.ui.live;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.fabriclab.io.PriceBookFile;
import io.fabriclab.io.Scenario;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Transport;
import io.fabriclab.report.TransportComparison;
import io.fabriclab.report.TransportRuns;
import io.fabriclab.sim.QosResolver;
import io.fabriclab.sim.SimConfig;
import io.fabriclab.sim.SimResults;
import io.fabriclab.topology.BillOfMaterials;
import io.fabriclab.workload.FlowSpec;
import io.fabriclab.workload.WorkloadPreset;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Scene;
import javafx.scene.chart.BarChart;
import javafx.scene.chart.CategoryAxis;
import javafx.scene.chart.NumberAxis;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.util.Duration;

/**
 * Simulate &gt; Compare Transports…: the open drawing and one workload (a preset of the live view
 * or a scenario file, run against the open fabric) under RoCEv2, InfiniBand and Ultra Ethernet, as
 * {@code fabriclab compare} runs them ({@link TransportRuns}: each transport on its own thread while
 * cores allow, off the FX thread), with a progress bar per transport, then the comparison: the
 * CLI's table, a row per measure and a column per transport (per collective busbw and completion
 * time, FCT percentiles, aggregate goodput, drops, retransmitted bytes, paused or credit-stalled
 * time, max queue, cost, shares of InfiniBand's), and bar charts of throughput, cost and
 * throughput per cost.
 *
 * <p>About 630 lines, above the 600 the ui classes aim for: the form (workload, preset fields,
 * scenario choice), the run with its per-transport progress and Stop, and the results (table,
 * three charts, Save report) share the comparison's state and the one background task; split,
 * each part would need that state passed back and forth. The comparison itself is
 * {@link TransportRuns}, outside ui.
 */
public final class TransportCompareWindow extends BorderPane {
    static final List<Transport> TRANSPORTS = List.of(Transport.ROCEV2, Transport.INFINIBAND, Transport.ULTRA_ETHERNET);
    /** The shipped scenarios written for this comparison (1,024-GPU rail fabric, resources/scenarios). */
    static final List<String> SHIPPED = List.of("transports-allreduce-rail-4su.json", "transports-alltoall-rail-4su.json",
            "transports-incast-rail-4su.json", "transports-link-failure-rail-4su.json");

    /** Table column widths: the longest measure ("mean flow throughput, % of InfiniBand") and "11,376,640 USD". */
    static final double MEASURE_WIDTH = 262;
    static final double FIGURE_WIDTH = 122;

    private final Supplier<Fabric> fabric;
    final ComboBox<LiveWorkload> workload = new ComboBox<>();
    final TextField sizeMb = new TextField("2");
    final TextField fanIn = new TextField("8");
    final TextField seed = new TextField("1");
    final Button compare = new Button("Compare");
    final Button stop = new Button("Stop");
    /** The comparison of a scenario file as the design-review report (.html or .pdf) with its Transport comparison section. */
    final Button saveReport = new Button("Save report…");
    final Label status = new Label("Choose a workload and press Compare: each transport runs on the open drawing.");
    final Map<Transport, ProgressBar> bars = new EnumMap<>(Transport.class);
    final Map<Transport, Label> barText = new EnumMap<>(Transport.class);
    final TableView<List<String>> table = new TableView<>();
    final BarChart<String, Number> throughputChart = chart("busbw (GB/s)");
    final BarChart<String, Number> costChart = chart("fabric cost (millions)");
    final BarChart<String, Number> perCostChart = chart("busbw per million (GB/s)");
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper("Compare transports");
    private LivePanel.ChoosePath chooser = new LivePanel.ChoosePath() {
    };

    /** Written by the simulator threads, read by the progress timeline on the FX thread. */
    private final Map<Transport, double[]> progress = new ConcurrentHashMap<>();
    private final Map<Transport, String> state = new ConcurrentHashMap<>();
    /** The engine every transport runs on. */
    final javafx.scene.control.ComboBox<io.fabriclab.sim.Engine> engine = new javafx.scene.control.ComboBox<>();
    /** The comparison's runs in flight (the run service's batch), for Stop. */
    private final java.util.concurrent.atomic.AtomicReference<TransportRuns.Running> runningRuns =
            new java.util.concurrent.atomic.AtomicReference<>();
    private volatile boolean stopRequested;
    private final Timeline poll = new Timeline(new KeyFrame(Duration.millis(200), e -> showProgress()));
    private boolean running;
    private TransportComparison result;
    /** What the last comparison of a scenario file ran (null for a preset): the report needs the file. */
    private volatile LastRun last;

    /** A scenario file's comparison: its scenarios and results, the file's bytes and text. */
    private record LastRun(TransportComparison cmp, Map<Transport, Scenario> scenarios, Map<Transport, SimResults> results,
                           Path file, byte[] bytes) {
    }

    /**
     * @param fabric  the open drawing (read on the FX thread when Compare is pressed; the runs use copies)
     * @param initial the live view's settings to start from, or null
     */
    public TransportCompareWindow(Supplier<Fabric> fabric, RunSettings initial) {
        this.fabric = fabric;
        setId("transport-compare-window");
        for (WorkloadPreset p : WorkloadPreset.values()) {
            if (p != WorkloadPreset.BACKGROUND) {
                workload.getItems().add(LiveWorkload.of(p));
            }
        }
        for (String s : SHIPPED) {
            Path p = shipped(s);
            if (p != null) {
                workload.getItems().add(LiveWorkload.file(p));
            }
        }
        workload.getItems().add(LiveWorkload.CHOOSE_FILE);
        workload.setValue(workload.getItems().get(0));
        // A training step (the Training Step dialog) is not among this window's workloads: its default stays.
        if (initial != null && initial.training() == null) {
            LiveWorkload w = initial.preset() != null ? LiveWorkload.of(initial.preset()) : LiveWorkload.file(initial.scenarioFile());
            if (initial.preset() != WorkloadPreset.BACKGROUND) {
                if (!workload.getItems().contains(w)) {
                    workload.getItems().add(workload.getItems().size() - 1, w);
                }
                workload.setValue(w);
            }
            sizeMb.setText(number(initial.bytes() / 1e6));
            fanIn.setText(Integer.toString(initial.fanIn()));
            seed.setText(Long.toString(initial.seed()));
        }
        workload.valueProperty().addListener((o, a, b) -> {
            if (b == LiveWorkload.CHOOSE_FILE) {
                Path p = chooser.open("Scenario", ".json");
                LiveWorkload chosen = p == null ? a : LiveWorkload.file(p);
                if (p != null && !workload.getItems().contains(chosen)) {
                    workload.getItems().add(workload.getItems().size() - 1, chosen);
                }
                // Set after this change has been handled (a ComboBox ignores a value set inside its listener).
                javafx.application.Platform.runLater(() -> workload.setValue(chosen));
            }
            enableFields();
        });
        workload.setMaxWidth(Double.MAX_VALUE);
        workload.setPrefWidth(340);
        workload.setMinWidth(340);
        workload.setId("compare-workload");
        sizeMb.setPrefColumnCount(6);
        fanIn.setPrefColumnCount(4);
        seed.setPrefColumnCount(6);
        compare.setId("compare-run");
        compare.setDefaultButton(true);
        compare.setOnAction(e -> compare());
        stop.setOnAction(e -> stop());
        stop.setDisable(true);
        saveReport.setId("compare-save-report");
        saveReport.setDisable(true);
        saveReport.setTooltip(new javafx.scene.control.Tooltip("The design-review report (.html or .pdf) of the last "
                + "comparison of a scenario file, with its Transport comparison section"));
        saveReport.setOnAction(e -> {
            Path out = chooser.save("Transport comparison report", ".html");
            if (out != null) {
                saveReport(out);
            }
        });
        engine.getItems().setAll(io.fabriclab.sim.Engine.values());
        engine.setValue(initial != null ? initial.engine() : io.fabriclab.sim.Engine.PACKET);
        engine.setConverter(LivePanel.ENGINE_NAMES);
        engine.setId("compare-engine");
        engine.setTooltip(new javafx.scene.control.Tooltip("packet: every packet, PFC, ECN, credits, trimming; "
                + "flow: max-min fair rates, no queues (whole clusters in seconds)"));
        enableFields();

        GridPane form = new GridPane();
        form.setHgap(8);
        form.setVgap(6);
        form.addRow(1, new Label("Workload"), workload);
        GridPane.setColumnSpan(workload, 3);
        GridPane.setHgrow(workload, Priority.ALWAYS);
        form.addRow(2, new Label("Size (MB)"), sizeMb, new Label("Incast senders"), fanIn);
        form.addRow(3, new Label("Seed"), seed, new Label("Engine"), engine);
        // The buttons on a row of their own, never narrower than their text ("Comp…" at 1280 px).
        for (Button b : List.of(compare, stop, saveReport)) {
            b.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        }
        form.add(new HBox(6, compare, stop, saveReport), 0, 4, 4, 1);

        GridPane progressGrid = new GridPane();
        progressGrid.setHgap(8);
        progressGrid.setVgap(4);
        int r = 0;
        for (Transport t : TRANSPORTS) {
            ProgressBar b = new ProgressBar(0);
            b.setPrefWidth(220);
            b.setId("compare-progress-" + t.jsonName());
            Label l = new Label("waiting");
            bars.put(t, b);
            barText.put(t, l);
            progressGrid.addRow(r++, new Label(t.displayName()), b, l);
        }
        Label fabricName = new Label("Fabric: " + fabric.get().name() + " (the open drawing)");
        fabricName.setStyle("-fx-font-weight: bold;");
        HBox top = new HBox(24, form, progressGrid);
        top.setAlignment(Pos.TOP_LEFT);
        status.setWrapText(true);
        VBox head = new VBox(8, fabricName, top, status);
        head.setPadding(new Insets(8));

        table.setId("compare-table");
        table.setPlaceholder(new Label("No comparison yet."));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_ALL_COLUMNS);
        table.setPrefWidth(MEASURE_WIDTH + 3 * FIGURE_WIDTH + 20);
        table.setMinWidth(MEASURE_WIDTH + 3 * FIGURE_WIDTH + 20);
        VBox charts = new VBox(4, throughputChart, costChart, perCostChart);
        for (BarChart<String, Number> c : List.of(throughputChart, costChart, perCostChart)) {
            VBox.setVgrow(c, Priority.ALWAYS);
            c.setMaxHeight(Double.MAX_VALUE);
        }
        HBox.setHgrow(charts, Priority.ALWAYS);
        HBox.setHgrow(table, Priority.SOMETIMES);
        HBox body = new HBox(8, table, charts);
        body.setPadding(new Insets(0, 8, 8, 8));
        setTop(head);
        setCenter(body);
    }

    public void setChooser(LivePanel.ChoosePath c) {
        this.chooser = c;
    }

    /** The last comparison shown, or null. */
    public TransportComparison result() {
        return result;
    }

    /** "Compare transports: rail-0 all-reduce …" for the window's title. */
    public javafx.beans.property.ReadOnlyStringProperty titleProperty() {
        return title.getReadOnlyProperty();
    }

    private void enableFields() {
        LiveWorkload w = workload.getValue();
        boolean preset = w != null && w.preset() != null;
        sizeMb.setDisable(!preset);
        seed.setDisable(!preset);
        fanIn.setDisable(!preset || w.preset() != WorkloadPreset.INCAST);
    }

    /** The form as run settings; IllegalArgumentException naming the field that is wrong. */
    RunSettings settings() {
        LiveWorkload w = workload.getValue();
        if (w == null || w.preset() == null && w.scenario() == null) {
            throw new IllegalArgumentException("Workload: choose a preset or a scenario file");
        }
        long bytes = Math.round(LiveViewModel.number(sizeMb.getText(), "Size (MB)") * 1e6);
        int fans = (int) LiveViewModel.number(fanIn.getText(), "Incast senders");
        long s = (long) LiveViewModel.number(seed.getText(), "Seed");
        if (bytes <= 0) {
            throw new IllegalArgumentException("Size (MB): must be more than 0");
        }
        if (engine.getValue() == null) {
            throw new IllegalArgumentException("Engine: choose one of " + io.fabriclab.sim.Engine.names());
        }
        return new RunSettings(w.preset(), w.scenario(), null, 0, s, bytes, Math.max(1, fans), 5, 50)
                .withEngine(engine.getValue());
    }

    /**
     * Runs the three transports on copies of the open drawing; the future completes on the FX
     * thread after the table and charts show the comparison (exceptionally when it failed or was
     * stopped, said in the status line).
     */
    public CompletableFuture<TransportComparison> compare() {
        CompletableFuture<TransportComparison> done = new CompletableFuture<>();
        if (running) {
            done.completeExceptionally(new IllegalStateException("a comparison is running"));
            return done;
        }
        RunSettings settings;
        try {
            settings = settings();
        } catch (IllegalArgumentException e) {
            status.setText("Cannot compare: " + e.getMessage());
            done.completeExceptionally(e);
            return done;
        }
        // The copy is taken here, on the FX thread: the user may edit the drawing while it runs.
        Fabric copy = fabric.get().copy();
        running = true;
        stopRequested = false;
        last = null;
        saveReport.setDisable(true);
        runningRuns.set(null);
        progress.clear();
        state.clear();
        for (Transport t : TRANSPORTS) {
            state.put(t, "waiting");
        }
        compare.setDisable(true);
        stop.setDisable(false);
        status.setText("Running " + (settings.scenarioFile() != null ? "scenario " + settings.scenarioFile().getFileName()
                + " (its own seed and settings)" : settings.describe()) + " on " + copy.name() + " under "
                + TRANSPORTS.size() + " transports on the " + settings.engine().jsonName() + " engine, "
                + TransportRuns.threads(TRANSPORTS.size()) + " at a time …");
        showProgress();
        poll.setCycleCount(Timeline.INDEFINITE);
        poll.play();
        io.fabriclab.ui.BackgroundTasks.shared().run("Comparing transports", () -> run(copy, settings), cmp -> {
            finish();
            show(cmp, settings);
            done.complete(cmp);
        }, e -> {
            finish();
            status.setText(e instanceof CancellationException ? "Stopped: no comparison."
                    : "Cannot compare: " + e.getMessage());
            done.completeExceptionally(e);
        }).exceptionally(e -> null);
        return done;
    }

    /** Asks every running transport to stop; the comparison then ends without a table. */
    public void stop() {
        if (!running) {
            return;
        }
        stopRequested = true;
        TransportRuns.Running r = runningRuns.get();
        if (r != null) {
            r.cancel();
        }
        status.setText("Stopping …");
    }

    private void finish() {
        running = false;
        poll.stop();
        showProgress();
        compare.setDisable(false);
        stop.setDisable(true);
    }

    /** Off the FX thread: the scenario per transport, the runs in parallel, the comparison. */
    private TransportComparison run(Fabric copy, RunSettings settings) throws IOException, InterruptedException {
        List<String> notes = new ArrayList<>();
        Map<Transport, Scenario> scenarios = scenarios(copy, settings, notes);
        TransportRuns.Listener listener = new TransportRuns.Listener() {
            @Override
            public void started(Transport t, io.fabriclab.app.RunService.Run run) {
                state.put(t, "running");
            }

            @Override
            public void progress(Transport t, long simulatedPs, long endPs, int flowsCompleted, int flows) {
                progress.put(t, new double[] {flows == 0 ? 0 : (double) flowsCompleted / flows, simulatedPs});
            }

            @Override
            public void finished(Transport t, SimResults r) {
                progress.put(t, new double[] {1, r.run().simulatedPs()});
                state.put(t, r.run().stopReason().name().toLowerCase(Locale.ROOT));
            }
        };
        // The runs go through the run service on the engine of the run panel; Stop cancels them all.
        TransportRuns.Running runs = TransportRuns.start(scenarios, TransportRuns.simulated(TRANSPORTS),
                TransportRuns.threads(TRANSPORTS.size()), settings.engine(), listener);
        runningRuns.set(runs);
        if (stopRequested) {
            runs.cancel();
        }
        Map<Transport, SimResults> results = runs.results();
        if (stopRequested) {
            throw new CancellationException("stopped");
        }
        String source = settings.scenarioFile() != null ? settings.scenarioFile().toString() : "live view";
        TransportComparison cmp = TransportRuns.comparison(scenarios, results, PriceBookFile.sample(), source);
        if (settings.scenarioFile() != null) {
            last = new LastRun(cmp, scenarios, results, settings.scenarioFile(),
                    io.fabriclab.io.JsonInput.textOf(settings.scenarioFile(), "a scenario").getBytes(StandardCharsets.UTF_8));
        }
        return cmp;
    }

    /**
     * The scenario of each transport: a scenario file read as {@code fabriclab compare} reads it
     * but against the open drawing (as the live view runs a scenario file), or the preset's flows
     * on the drawing under each transport's defaults. Each transport gets its own copy.
     */
    static Map<Transport, Scenario> scenarios(Fabric copy, RunSettings settings, List<String> notes) throws IOException {
        if (settings.scenarioFile() != null) {
            // Read once by the strict reader against the drawing's copy; each transport a typed variant.
            return TransportRuns.scenarios(LiveSession.readScenario(settings.scenarioFile(), copy), TRANSPORTS,
                    notes::add);
        }
        Map<Transport, Scenario> out = new LinkedHashMap<>();
        String name = settings.preset().label() + " on " + copy.name();
        for (Transport t : TRANSPORTS) {
            Fabric f = copy.copy();
            List<FlowSpec> flows = settings.preset().flows(f, settings.bytes(), settings.fanIn(), settings.seed(),
                    settings.loadPercent() / 100.0, 0);
            SimConfig cfg = SimConfig.defaults().withSeed(settings.seed());
            out.put(t, TransportRuns.ofFlows(name, f, null, QosResolver.of(f), flows, cfg, t));
        }
        return out;
    }

    private void showProgress() {
        for (Transport t : TRANSPORTS) {
            double[] p = progress.get(t);
            String s = state.getOrDefault(t, "waiting");
            bars.get(t).setProgress(p == null ? ("running".equals(s) ? -1 : 0) : p[0]);
            barText.get(t).setText(p == null ? s : String.format(Locale.ROOT, "%s, %.0f %% of flows, t = %.1f µs",
                    s, 100 * p[0], p[1] / 1e6));
        }
    }

    // ----- the comparison --------------------------------------------------------------------------

    private void show(TransportComparison cmp, RunSettings settings) {
        result = cmp;
        title.set("Compare transports: " + cmp.scenarioName() + " (" + settings.engine().jsonName() + " engine)");
        List<String[]> rows = cmp.table();
        // The CLI's table as it prints it: a row per measure, a column per transport (a row per
        // transport needs a column per measure, 17 for one collective: they do not fit at 1280 px).
        table.getColumns().clear();
        String[] head = rows.get(0);
        for (int i = 0; i < head.length; i++) {
            final int col = i;
            TableColumn<List<String>, String> c = new TableColumn<>(head[i]);
            c.setId("compare-col-" + i);
            c.setCellValueFactory(d -> new javafx.beans.property.ReadOnlyStringWrapper(d.getValue().get(col)));
            c.setSortable(false);
            // Widths in proportion (the table's policy keeps them): "11,376,640 USD" and
            // "32512 / 32512" whole beside the longest measure name.
            c.setPrefWidth(i == 0 ? MEASURE_WIDTH : FIGURE_WIDTH);
            if (i > 0) {
                c.setStyle("-fx-alignment: CENTER-RIGHT;");
            }
            table.getColumns().add(c);
        }
        List<List<String>> items = new ArrayList<>();
        for (String[] r : rows.subList(1, rows.size())) {
            items.add(List.of(r));
        }
        table.getItems().setAll(items);
        table.getSelectionModel().clearSelection();
        saveReport.setDisable(last == null);
        charts(cmp);
        status.setText("Compared " + (settings.scenarioFile() != null ? "scenario " + settings.scenarioFile().getFileName()
                : settings.preset().label()) + " on " + fabric.get().name() + ", " + settings.engine().jsonName()
                + " engine: " + summary(cmp) + (settings.engine() == io.fabriclab.sim.Engine.FLOW
                ? ". The flow engine does not model drops, pauses, credits or queues: their rows read 0 (Engine: packet for them)."
                : ""));
    }

    /**
     * Writes the last scenario comparison's design-review report to {@code out} (.html or .pdf) in
     * the background, as {@code fabriclab compare SCENARIO -o out} writes it; the future completes
     * on the FX thread once the status line says where it is.
     */
    public CompletableFuture<Path> saveReport(Path out) {
        LastRun run = last;
        CompletableFuture<Path> done = new CompletableFuture<>();
        if (run == null || io.fabriclab.report.ReportFormat.of(out) == null) {
            String why = run == null ? "the report needs a comparison of a scenario file (Workload: a scenario)"
                    : out.getFileName() + ": the report is written as .html or .pdf";
            status.setText("Cannot save the report: " + why);
            done.completeExceptionally(new IllegalArgumentException(why));
            return done;
        }
        status.setText("Writing the report " + out.getFileName() + " …");
        String who = System.getProperty("user.name", "unknown");
        io.fabriclab.ui.BackgroundTasks.shared().run("Writing the transport comparison report", () -> {
            TransportRuns.writeReport(run.cmp(), run.scenarios(), run.results(), PriceBookFile.sample(),
                    run.file().toString(), run.bytes(), new String(run.bytes(), StandardCharsets.UTF_8), who,
                    "simulated by FabricLab's Compare Transports", "Simulate > Compare Transports… on the open drawing", out);
            return out;
        }, p -> {
            status.setText("Report written: " + p);
            done.complete(p);
        }, e -> {
            status.setText("Cannot save the report: " + e.getMessage());
            done.completeExceptionally(e);
        }).exceptionally(e -> null);
        return done;
    }

    /** One line: each transport's throughput as a share of InfiniBand's and its cost. */
    static String summary(TransportComparison cmp) {
        List<String> parts = new ArrayList<>();
        for (TransportComparison.Row r : cmp.rows()) {
            double v = throughput(r);
            parts.add(String.format(Locale.ROOT, "%s %.2f %s, %s", r.transport().displayName(), v, unit(cmp),
                    cost(r.bill())));
        }
        return String.join("; ", parts);
    }

    private void charts(TransportComparison cmp) {
        String unit = unit(cmp);
        String what = cmp.collectiveNames().isEmpty() ? "aggregate goodput" : cmp.collectiveNames().get(0) + " busbw";
        String currency = cmp.rows().get(0).bill().currency();
        throughputChart.setTitle(what + " (" + unit + ")");
        costChart.setTitle("fabric cost (million " + currency + ")");
        perCostChart.setTitle(what + " per million " + currency);
        XYChart.Series<String, Number> tp = new XYChart.Series<>();
        XYChart.Series<String, Number> cost = new XYChart.Series<>();
        XYChart.Series<String, Number> per = new XYChart.Series<>();
        for (TransportComparison.Row r : cmp.rows()) {
            String name = r.transport().displayName();
            double millions = r.bill().total().doubleValue() / 1e6;
            cost.getData().add(new XYChart.Data<>(name, millions));
            if (r.simulated()) {
                double v = throughput(r);
                tp.getData().add(new XYChart.Data<>(name, v));
                if (millions > 0) {
                    per.getData().add(new XYChart.Data<>(name, v / millions));
                }
            }
        }
        throughputChart.getData().setAll(List.of(tp));
        costChart.getData().setAll(List.of(cost));
        perCostChart.getData().setAll(List.of(per));
        for (XYChart.Series<String, Number> series : List.of(tp, cost, per)) {
            for (XYChart.Data<String, Number> d : series.getData()) {
                colour(d);
            }
        }
    }

    /** A bar in its transport's colour (the same in every chart). */
    private static void colour(XYChart.Data<String, Number> d) {
        String fill = switch (d.getXValue()) {
            case "RoCEv2" -> "#2b6cb0";
            case "InfiniBand" -> "#2f855a";
            default -> "#9f5cc0";
        };
        if (d.getNode() != null) {
            d.getNode().setStyle("-fx-bar-fill: " + fill + ";");
        }
        d.nodeProperty().addListener((o, a, n) -> {
            if (n != null) {
                n.setStyle("-fx-bar-fill: " + fill + ";");
            }
        });
    }

    /**
     * The first collective's busbw (GB/s), or the aggregate goodput (Gb/s) of a run without one: what
     * the fabric delivered, not the mean of per-flow throughputs, which rewards flows finishing
     * unevenly (docs/model.md, Ultra Ethernet in the simulator).
     */
    static double throughput(TransportComparison.Row r) {
        if (!r.simulated()) {
            return Double.NaN;
        }
        List<SimResults.CollectiveResult> cs = r.results().collectives();
        if (!cs.isEmpty()) {
            return cs.get(0).timePs() > 0 ? cs.get(0).busbwGBps() : 0;
        }
        return TransportComparison.aggregateGoodputGbps(r.results());
    }

    private static String unit(TransportComparison cmp) {
        return cmp.collectiveNames().isEmpty() ? "Gb/s" : "GB/s";
    }

    private static String cost(BillOfMaterials b) {
        return String.format(Locale.ROOT, "%,.0f %s", b.total(), b.currency());
    }

    private static BarChart<String, Number> chart(String title) {
        CategoryAxis x = new CategoryAxis();
        NumberAxis y = new NumberAxis();
        BarChart<String, Number> c = new BarChart<>(x, y);
        c.setTitle(title);
        c.setLegendVisible(false);
        c.setAnimated(false);
        c.setMinHeight(150);
        c.setPrefHeight(220);
        return c;
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    /** A shipped scenario: from the source tree, else a copy of the classpath resource; null if absent. */
    static Path shipped(String name) {
        Path tree = Path.of("resources", "scenarios", name);
        if (Files.isRegularFile(tree)) {
            return tree;
        }
        try (var in = TransportCompareWindow.class.getResourceAsStream("/fabriclab/scenarios/" + name)) {
            if (in == null) {
                return null;
            }
            Path dir = Files.createTempDirectory("fabriclab-compare");
            Path out = dir.resolve(name);
            Files.copy(in, out);
            // Deleted at exit in the reverse order of these calls: the file, then its (then empty) directory.
            dir.toFile().deleteOnExit();
            out.toFile().deleteOnExit();
            return out;
        } catch (IOException e) {
            return null;
        }
    }

    /** Opens the window on {@code editor}'s drawing, from the live view's settings when it is open. */
    public static Stage open(io.fabriclab.ui.FabricEditor editor) {
        RunSettings initial = null;
        LivePanel panel = LivePanel.of(editor);
        if (panel != null) {
            try {
                initial = panel.model().settings();
            } catch (IllegalArgumentException e) {
                initial = null;
            }
        }
        TransportCompareWindow w = new TransportCompareWindow(() -> editor.document().fabric(), initial);
        Stage stage = new Stage();
        stage.titleProperty().bind(w.titleProperty());
        // As large as the screen allows, up to 1500 x 940: the table has a column per measure.
        javafx.geometry.Rectangle2D screen = javafx.stage.Screen.getPrimary().getVisualBounds();
        stage.setScene(new Scene(w, Math.min(1500, screen.getWidth() - 40), Math.min(940, screen.getHeight() - 60)));
        if (editor.getScene() != null && editor.getScene().getWindow() != null) {
            stage.initOwner(editor.getScene().getWindow());
        }
        stage.setOnCloseRequest(e -> w.stop());
        stage.show();
        return stage;
    }
}
