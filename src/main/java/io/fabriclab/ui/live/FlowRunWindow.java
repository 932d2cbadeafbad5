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

    /** The utilisation playback, or null without a fabric. */
    FlowPlayback playback() {
        return playback;
    }

    FlowRunWindow(LiveSession.Finished f) {
        this(f, null);
    }

    FlowRunWindow(LiveSession.Finished f, io.fabriclab.model.Fabric fabric) {
        setId("flow-run-window");
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
                + "Choose Engine: packet to see them (animated), on this fabric or on the links named below.");
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
        links.getColumns().add(link);
        links.getColumns().add(speed);
        links.getColumns().add(util);
        links.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_ALL_COLUMNS);
        links.setId("flow-run-links");
        links.setPlaceholder(new Label("No link carried traffic."));
        List<SimResults.LinkResult> busiest = new ArrayList<>(r.links());
        busiest.sort(Comparator.comparingDouble(SimResults.LinkResult::meanUtilization).reversed());
        for (SimResults.LinkResult l : busiest.subList(0, Math.min(50, busiest.size()))) {
            if (l.meanUtilization() <= 0) {
                break;
            }
            links.getItems().add(List.of(l.from() + " -> " + l.to(), l.speedGbps() + " Gb/s",
                    String.format(Locale.ROOT, "%.1f %%%s", 100 * l.meanUtilization(),
                            l.meanUtilization() >= io.fabriclab.sim.FlowEngine.PACKET_LEVEL_UTILIZATION ? " (look closer: packet engine)" : "")));
        }
        Label busiestLabel = new Label("Busiest link directions over the run (the 50 busiest; at "
                + Math.round(100 * io.fabriclab.sim.FlowEngine.PACKET_LEVEL_UTILIZATION) + " % or more is where queues, pauses and marks would be)");
        busiestLabel.setWrapText(true);
        VBox center = new VBox(4, busiestLabel, links);
        VBox.setVgrow(links, Priority.ALWAYS);
        center.setPadding(new Insets(0, 8, 8, 8));
        setTop(top);
        if (fabric != null) {
            playback = new FlowPlayback(fabric, r);
            playback.setPadding(new Insets(0, 8, 0, 8));
            javafx.scene.control.SplitPane split = new javafx.scene.control.SplitPane(playback, center);
            split.setOrientation(javafx.geometry.Orientation.VERTICAL);
            split.setDividerPositions(0.62);
            setCenter(split);
        } else {
            setCenter(center);
        }
        setMinSize(0, 0);
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
