package io.fabriclab.ui.live;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.geometry.Insets;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.stage.Window;

import io.fabriclab.sim.SimResults;

/**
 * A finished flow-engine run of the live view's settings (LiveSession.runOnFlowEngine): the engine
 * named in the title and at the top, the run's figures, the collectives or the training step, the
 * busiest link directions (where the packet engine should look closer), and what the flow engine
 * does not model. With the fabric, its links' utilisation over the run plays on the drawing
 * ({@link FlowPlayback}): the flow engine has rates, not packets, so that is what moves.
 */
public final class FlowRunWindow extends BorderPane {

    private final TableView<List<String>> links = new TableView<>();
    private FlowPlayback playback;
    /** A link, device, "unit N" or "pod N" to look at with the packet engine (FocusRun). */
    private final javafx.scene.control.ComboBox<String> focus = new javafx.scene.control.ComboBox<>();
    private final javafx.scene.control.Button lookCloser = new javafx.scene.control.Button("Look at this link at packet level");
    private final Label focusStatus = new Label();
    private final org.controlsfx.control.TaskProgressView<javafx.concurrent.Task<?>> focusTasks =
            new org.controlsfx.control.TaskProgressView<>();
    private final LiveSession.Finished finished;

    /** The utilisation playback, or null without a fabric. */
    FlowPlayback playback() {
        return playback;
    }

    FlowRunWindow(LiveSession.Finished f) {
        this(f, null);
    }

    FlowRunWindow(LiveSession.Finished f, io.fabriclab.model.Fabric fabric) {
        setId("flow-run-window");
        this.finished = f;
        SimResults r = f.results();
        Label head = new Label("Engine: flow level (max-min fair rates) — " + f.title());
        head.setStyle("-fx-font-weight: bold;");
        head.setWrapText(true);
        head.setId("flow-run-engine");
        GridPane figures = new GridPane();
        figures.setHgap(12);
        figures.setVgap(4);
        int row = 0;
        for (String[] kv : figures(f)) {
            figures.addRow(row++, new Label(kv[0]), new Label(kv[1]));
        }
        Label note = new Label("Not modelled by the flow engine: PFC, ECN, DCQCN, credits, trimming, queues and losses. "
                + "Choose Engine: packet to see them (animated), or look at a link, switch or unit below at packet level "
                + "with the rest of the traffic as background.");
        note.setWrapText(true);
        VBox top = new VBox(8, head, figures, note);
        for (String n : f.notes()) {
            Label l = new Label(n);
            l.setWrapText(true);
            top.getChildren().add(l);
        }
        if (f.training() != null) {
            Label t = new Label(f.training().strip());
            t.setWrapText(true);
            t.setStyle("-fx-font-family: monospace;");
            top.getChildren().add(t);
        }
        top.setPadding(new Insets(8));

        TableColumn<List<String>, String> link = new TableColumn<>("link direction");
        link.setCellValueFactory(d -> new ReadOnlyStringWrapper(d.getValue().get(0)));
        TableColumn<List<String>, String> speed = new TableColumn<>("speed");
        speed.setCellValueFactory(d -> new ReadOnlyStringWrapper(d.getValue().get(1)));
        TableColumn<List<String>, String> util = new TableColumn<>("mean utilisation");
        util.setCellValueFactory(d -> new ReadOnlyStringWrapper(d.getValue().get(2)));
        util.setStyle("-fx-alignment: CENTER-RIGHT;");
        TableColumn<List<String>, String> atOnce = new TableColumn<>("transfers at once (into a NIC)");
        atOnce.setCellValueFactory(d -> new ReadOnlyStringWrapper(d.getValue().get(3)));
        atOnce.setStyle("-fx-alignment: CENTER-RIGHT;");
        links.getColumns().add(link);
        links.getColumns().add(speed);
        links.getColumns().add(util);
        links.getColumns().add(atOnce);
        links.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_ALL_COLUMNS);
        links.setId("flow-run-links");
        links.setPlaceholder(new Label("No link carried traffic."));
        // The links the flow engine names for the packet engine first (busiest, widest incast),
        // then the busiest of the rest.
        List<SimResults.LinkResult> busiest = new ArrayList<>(r.links());
        busiest.sort(Comparator.comparing((SimResults.LinkResult l) -> !io.fabriclab.sim.FlowEngine.namedForPacketLevel(l))
                .thenComparing(Comparator.comparingDouble(SimResults.LinkResult::meanUtilization).reversed())
                .thenComparing(Comparator.comparingInt(SimResults.LinkResult::incastDegree).reversed()));
        for (SimResults.LinkResult l : busiest.subList(0, Math.min(50, busiest.size()))) {
            if (l.meanUtilization() <= 0) {
                break;
            }
            links.getItems().add(List.of(l.from() + " -> " + l.to(), l.speedGbps() + " Gb/s",
                    String.format(Locale.ROOT, "%.1f %%%s", 100 * l.meanUtilization(),
                            io.fabriclab.sim.FlowEngine.namedForPacketLevel(l) ? " (look closer: Focus below)" : ""),
                    l.incastDegree() > 0 ? Integer.toString(l.incastDegree()) : ""));
        }
        Label busiestLabel = new Label("Busiest link directions over the run (the 50 busiest; at "
                + Math.round(100 * io.fabriclab.sim.FlowEngine.PACKET_LEVEL_UTILIZATION) + " % or more, or into a NIC from "
                + io.fabriclab.sim.FlowEngine.PACKET_LEVEL_INCAST
                + " or more transfers at once, is where queues, pauses and marks would be)");
        busiestLabel.setWrapText(true);
        VBox center = new VBox(4, busiestLabel, links, focusBar(f, busiest));
        VBox.setVgrow(links, Priority.ALWAYS);
        center.setPadding(new Insets(0, 8, 8, 8));
        setTop(top);
        if (fabric != null) {
            playback = new FlowPlayback(fabric, r);
            playback.setPadding(new Insets(0, 8, 0, 8));
            // A link or device picked on the drawing names the focus.
            io.fabriclab.diagram.Selection sel = playback.selection();
            sel.addListener(() -> {
                if (sel.links().size() == 1 && sel.devices().isEmpty()) {
                    focus.getEditor().setText(sel.links().iterator().next().id());
                } else if (sel.devices().size() == 1 && sel.links().isEmpty()) {
                    focus.getEditor().setText(sel.devices().iterator().next().id());
                }
            });
            javafx.scene.control.SplitPane split = new javafx.scene.control.SplitPane(playback, center);
            split.setOrientation(javafx.geometry.Orientation.VERTICAL);
            split.setDividerPositions(0.62);
            setCenter(split);
        } else {
            setCenter(center);
        }
        setMinSize(0, 0);
    }

    /**
     * The focus bar: what to look at (a busy link direction picked in the table, a link or device
     * picked on the drawing, or typed: a link, device, "unit N", "pod N") and the action that runs
     * the focus run (FocusRun) off the FX thread, its progress in a ControlsFX TaskProgressView.
     */
    private VBox focusBar(LiveSession.Finished f, List<SimResults.LinkResult> busiest) {
        focus.setEditable(true);
        focus.setId("flow-run-focus");
        focus.setPromptText("link, device, unit N or pod N");
        focus.setPrefWidth(380);
        for (SimResults.LinkResult l : busiest) {
            if (io.fabriclab.sim.FlowEngine.namedForPacketLevel(l)) {
                focus.getItems().add(l.from() + " -> " + l.to());
            }
        }
        if (f.scenario() != null) {
            java.util.TreeSet<Integer> units = new java.util.TreeSet<>();
            java.util.TreeSet<Integer> pods = new java.util.TreeSet<>();
            for (io.fabriclab.model.Device d : f.scenario().fabric().devices()) {
                if (d.unit() != null) {
                    units.add(d.unit());
                }
                if (d.pod() != null) {
                    pods.add(d.pod());
                }
            }
            // Numbered from 1, as the drawing numbers units.
            units.forEach(u -> focus.getItems().add("unit " + (u + 1)));
            pods.forEach(p -> focus.getItems().add("pod " + (p + 1)));
            f.scenario().fabric().switches().forEach(d -> focus.getItems().add(d.id()));
        }
        links.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> {
            if (b != null) {
                focus.getEditor().setText(b.get(0));
            }
        });
        focus.getEditor().textProperty().addListener((o, a, b) -> focusChanged(b));
        focus.valueProperty().addListener((o, a, b) -> {
            if (b != null && !b.equals(focus.getEditor().getText())) {
                focus.getEditor().setText(b);
            }
        });
        lookCloser.setId("flow-run-look-closer");
        lookCloser.setOnAction(e -> lookCloser());
        lookCloser.setDisable(true);
        focusStatus.setId("flow-run-focus-status");
        focusStatus.setWrapText(true);
        if (f.scenario() == null) {
            focusStatus.setText("A closer look needs the run's scenario.");
            focus.setDisable(true);
        } else {
            focusStatus.setText("Pick a busy link direction above, a link or switch on the drawing, or type a unit: "
                    + "its flows run packet by packet on their flow-run paths, the rest of the traffic as background.");
        }
        focusTasks.setId("flow-run-focus-tasks");
        focusTasks.setPrefHeight(90);
        focusTasks.setMinHeight(0);
        focusTasks.managedProperty().bind(focusTasks.visibleProperty());
        focusTasks.visibleProperty().bind(javafx.beans.binding.Bindings.isNotEmpty(focusTasks.getTasks()));
        javafx.scene.layout.HBox bar = new javafx.scene.layout.HBox(8, new Label("Focus:"), focus, lookCloser);
        bar.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        VBox box = new VBox(4, bar, focusStatus, focusTasks);
        box.setPadding(new Insets(4, 0, 0, 0));
        return box;
    }

    /** The action's words follow what the focus names; an unknown name disables it and says why. */
    private void focusChanged(String text) {
        if (finished.scenario() == null || text == null || text.isBlank()) {
            lookCloser.setDisable(true);
            return;
        }
        try {
            io.fabriclab.sim.FocusRun.Focus fc = io.fabriclab.sim.FocusRun.resolve(finished.scenario().fabric(), text);
            lookCloser.setText(switch (fc.kind()) {
                case LINK -> "Look at this link at packet level";
                case DEVICE -> "Look at this switch at packet level";
                case UNIT -> "Look at this unit at packet level";
                case POD -> "Look at this pod at packet level";
            });
            lookCloser.setDisable(false);
            focusStatus.setText(fc.describe() + ": its flows run packet by packet, the rest of the traffic as background.");
        } catch (IllegalArgumentException e) {
            lookCloser.setDisable(true);
            focusStatus.setText(e.getMessage());
        }
    }

    /** Runs the focus run of the focus field off the FX thread (app.FocusRuns); its window opens when done. */
    void lookCloser() {
        String where = focus.getEditor().getText();
        io.fabriclab.io.Scenario sc = finished.scenario();
        SimResults flowRun = finished.results();
        javafx.concurrent.Task<io.fabriclab.sim.FocusRun.Result> task = new javafx.concurrent.Task<>() {
            private volatile io.fabriclab.app.FocusRuns.Prepared prepared;

            @Override
            protected io.fabriclab.sim.FocusRun.Result call() {
                updateTitle("Focus run of " + where);
                updateMessage("building: the flow run again for the other flows' rates, then the packet engine");
                updateProgress(-1, 1);
                prepared = io.fabriclab.app.FocusRuns.prepare(sc, sc.config(), flowRun, where);
                if (isCancelled()) {
                    return null;
                }
                int n = prepared.plan().flows().size();
                updateMessage(String.format(Locale.ROOT, "packet engine: %d flows, background on %d link directions", n,
                        prepared.plan().background().size()));
                return prepared.run((simPs, endPs, events, wall, done, flows) -> {
                    updateProgress(done, Math.max(1, flows));
                    updateMessage(String.format(Locale.ROOT, "packet engine: %.1f µs simulated, %d / %d flows done",
                            simPs / 1e6, done, flows));
                });
            }

            @Override
            protected void cancelled() {
                focusStatus.setText("Focus run of " + where + " cancelled.");
                io.fabriclab.app.FocusRuns.Prepared p = prepared;
                if (p != null) {
                    p.cancel();
                }
            }
        };
        focusTasks.getTasks().add(task);
        focusStatus.setText("Running the focus run of " + where + " ...");
        io.fabriclab.ui.BackgroundTasks.shared().submit(task, r -> {
            if (r == null) {
                return;
            }
            focusStatus.setText(r.note());
            lastFocus = FocusRunWindow.show(getScene() == null ? null : getScene().getWindow(), r, sc.fabric());
        }, e -> focusStatus.setText("Focus run of " + where + " failed: " + e.getMessage()));
    }

    /** The window of the last focus run opened from here (tests), or null. */
    Stage lastFocus;

    javafx.scene.control.ComboBox<String> focusField() {
        return focus;
    }

    javafx.scene.control.Button lookCloserButton() {
        return lookCloser;
    }

    /** The run's figures as label and value, in the order shown. */
    static List<String[]> figures(LiveSession.Finished f) {
        SimResults r = f.results();
        SimResults.RunInfo run = r.run();
        SimResults.Summary s = r.summary();
        List<String[]> out = new ArrayList<>();
        out.add(new String[] {"engine", run.engine()});
        out.add(new String[] {"ended", run.stopReason().name().toLowerCase(Locale.ROOT).replace('_', ' ')
                + String.format(Locale.ROOT, " after %.1f µs simulated", run.simulatedPs() / 1e6)});
        out.add(new String[] {"flows completed", String.format(Locale.ROOT, "%,d of %,d", run.flowsCompleted(), run.flows())});
        out.add(new String[] {"flow completion time", String.format(Locale.ROOT, "p50 %.1f µs, p99 %.1f µs, max %.1f µs",
                s.fctP50Us(), s.fctP99Us(), s.fctMaxUs())});
        out.add(new String[] {"mean flow throughput", String.format(Locale.ROOT, "%.2f Gb/s", s.meanThroughputGbps())});
        out.add(new String[] {"wall time", String.format(Locale.ROOT, "%.2f s (%,d events)", run.wallNanos() / 1e9,
                run.events())});
        for (SimResults.CollectiveResult c : r.collectives()) {
            out.add(new String[] {c.kind() + " " + c.name(), c.timePs() < 0 ? "did not complete"
                    : String.format(Locale.ROOT, "%.1f µs, busbw %.2f GB/s", c.timePs() / 1e6, c.busbwGBps())});
        }
        return out;
    }

    /** Opens the window of a finished flow run (FX thread). */
    static Stage show(Window owner, LiveSession.Finished f) {
        return show(owner, f, null);
    }

    /** As {@link #show(Window, LiveSession.Finished)}, playing the links' utilisation on {@code fabric}'s drawing. */
    static Stage show(Window owner, LiveSession.Finished f, io.fabriclab.model.Fabric fabric) {
        FlowRunWindow w = new FlowRunWindow(f, fabric);
        Stage stage = new Stage();
        stage.setTitle("Flow-level run: " + f.title());
        javafx.geometry.Rectangle2D screen = javafx.stage.Screen.getPrimary().getVisualBounds();
        stage.setScene(new Scene(w, Math.min(fabric == null ? 900 : 1200, screen.getWidth() - 40),
                Math.min(fabric == null ? 720 : 940, screen.getHeight() - 60)));
        if (owner != null) {
            stage.initOwner(owner);
        }
        stage.show();
        return stage;
    }
}
