package io.fabriclab.ui.live;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.geometry.Insets;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.stage.Window;

import io.fabriclab.model.Fabric;
import io.fabriclab.sim.FocusRun;
import io.fabriclab.sim.SimResults;

/**
 * A finished focus run (docs/model.md, Focus run), opened from the flow-run window: the packet
 * engine's run of the flows that cross the focus, with the rest of the cluster's traffic as
 * background. The engine and the focus named at the top, the packet run's figures, the focus flows'
 * FCTs in the flow run and in the focus run side by side, the focus link directions' queue peaks,
 * ECN marks and pauses, and the packet run's link utilisation on the drawing.
 */
public final class FocusRunWindow extends BorderPane {
    private final TableView<List<String>> flows = new TableView<>();
    private final TableView<List<String>> links = new TableView<>();

    FocusRunWindow(FocusRun.Result r, Fabric fabric) {
        setId("focus-run-window");
        SimResults p = r.packet();
        Label head = new Label("Engine: packet level, focus run — " + r.plan().focus().describe());
        head.setStyle("-fx-font-weight: bold;");
        head.setId("focus-run-engine");
        head.setWrapText(true);
        Label note = new Label(r.note() + ". Each focus flow is posted when the flow run started it, on the ECMP "
                + "path it took there; what it waited for is cut.");
        note.setWrapText(true);
        GridPane grid = new GridPane();
        grid.setHgap(12);
        grid.setVgap(4);
        int row = 0;
        for (String[] kv : figures(r)) {
            grid.addRow(row++, new Label(kv[0]), new Label(kv[1]));
        }
        VBox top = new VBox(8, head, note, grid);
        top.setPadding(new Insets(8));

        table(flows, List.of("flow", "src", "dst", "MB", "flow run µs", "focus run µs", "ratio", "same path"));
        flows.setId("focus-run-flows");
        for (FocusRun.FlowComparison c : r.flows()) {
            flows.getItems().add(List.of(Integer.toString(c.flowRunId()), c.src(), c.dst(),
                    String.format(Locale.ROOT, "%.3f", c.bytes() / 1e6), us(c.flowFctPs()), us(c.packetFctPs()),
                    Double.isNaN(c.ratio()) ? "-" : String.format(Locale.ROOT, "%.2f", c.ratio()),
                    r.plan().sprayed() ? "sprayed" : c.flowPath().equals(c.packetPath()) ? "yes" : "no"));
        }
        table(links, List.of("focus link direction", "queue peak KB", "ECN marks", "pauses received", "paused µs",
                "drops", "background peak"));
        links.setId("focus-run-links");
        links.setPlaceholder(new Label("No focus link direction carried packets."));
        for (FocusRun.LinkFigures l : r.focusLinks()) {
            links.getItems().add(List.of(l.from() + " -> " + l.to(), String.format(Locale.ROOT, "%.1f", l.maxQueueBytes() / 1e3),
                    Long.toString(l.ecnMarked()), Long.toString(l.pauseFramesReceived()),
                    String.format(Locale.ROOT, "%.1f", l.pausedPs() / 1e6), Long.toString(l.drops()),
                    String.format(Locale.ROOT, "%.0f %%", 100 * l.backgroundPeakShare())));
        }
        TabPane tabs = new TabPane(new Tab("Focus flows: flow run vs focus run (" + r.flows().size() + ")", flows),
                new Tab("Focus link directions (" + r.focusLinks().size() + ")", links));
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        tabs.setId("focus-run-tabs");
        setTop(top);
        if (fabric != null) {
            FlowPlayback playback = new FlowPlayback(fabric, p, "Link utilisation over the focus run (packet engine: the "
                    + "share of time each wire was busy with the focus flows' frames, which a background direction "
                    + "serializes at the rate the background leaves)");
            playback.setPadding(new Insets(0, 8, 0, 8));
            // The focus drawn selected, where the drawing has its links.
            List<io.fabriclab.model.Link> mine = r.plan().focus().links().stream()
                    .filter(l -> fabric.link(l.id()) != null).map(l -> fabric.link(l.id())).toList();
            playback.selection().set(List.of(), mine);
            javafx.scene.control.SplitPane split = new javafx.scene.control.SplitPane(tabs, playback);
            split.setOrientation(javafx.geometry.Orientation.VERTICAL);
            split.setDividerPositions(0.45);
            setCenter(split);
        } else {
            setCenter(tabs);
        }
        setMinSize(0, 0);
    }

    private static void table(TableView<List<String>> t, List<String> heads) {
        for (int i = 0; i < heads.size(); i++) {
            int k = i;
            TableColumn<List<String>, String> c = new TableColumn<>(heads.get(i));
            c.setCellValueFactory(d -> new ReadOnlyStringWrapper(d.getValue().get(k)));
            if (i > 0 && !heads.get(i).equals("src") && !heads.get(i).equals("dst")) {
                c.setStyle("-fx-alignment: CENTER-RIGHT;");
            }
            t.getColumns().add(c);
        }
        t.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_ALL_COLUMNS);
    }

    private static String us(long ps) {
        return ps < 0 ? "-" : String.format(Locale.ROOT, "%.1f", ps / 1e6);
    }

    /** The packet run's figures and the FCT comparison, as label and value in the order shown. */
    static List<String[]> figures(FocusRun.Result r) {
        SimResults p = r.packet();
        SimResults.RunInfo run = p.run();
        SimResults.Summary s = p.summary();
        Function<Double, String> f1 = v -> String.format(Locale.ROOT, "%.1f", v);
        List<String[]> out = new ArrayList<>();
        out.add(new String[] {"engine", run.engine() + " (focus run: " + r.plan().flows().size() + " flows, background on "
                + r.plan().background().size() + " link directions)"});
        out.add(new String[] {"ended", run.stopReason().name().toLowerCase(Locale.ROOT).replace('_', ' ')
                + " after " + f1.apply(run.simulatedPs() / 1e6) + " µs simulated"});
        out.add(new String[] {"flows completed", String.format(Locale.ROOT, "%,d of %,d", run.flowsCompleted(), run.flows())});
        out.add(new String[] {"flow completion time", String.format(Locale.ROOT, "p50 %.1f µs, p99 %.1f µs, max %.1f µs",
                s.fctP50Us(), s.fctP99Us(), s.fctMaxUs())});
        double[] ratios = r.flows().stream().mapToDouble(FocusRun.FlowComparison::ratio).filter(x -> !Double.isNaN(x))
                .sorted().toArray();
        if (ratios.length > 0) {
            out.add(new String[] {"FCT focus run / flow run", String.format(Locale.ROOT, "median %.2f, max %.2f",
                    ratios[ratios.length / 2], ratios[ratios.length - 1])});
        }
        out.add(new String[] {"deepest queue", s.maxQueue() == null ? "none" : String.format(Locale.ROOT, "%.1f KB at %s",
                s.maxQueueBytes() / 1e3, s.maxQueue())});
        out.add(new String[] {"ECN marks, CNPs", String.format(Locale.ROOT, "%,d marked, %,d CNPs sent", s.ecnMarked(),
                s.cnpsSent())});
        out.add(new String[] {"PFC", String.format(Locale.ROOT, "%,d pauses sent, %.1f µs paused in all", s.pauseFramesSent(),
                s.pausedPs() / 1e6)});
        out.add(new String[] {"drops", String.format(Locale.ROOT, "%,d (retransmitted %,d B)", s.drops(),
                s.retransmittedBytes())});
        out.add(new String[] {"wall time", String.format(Locale.ROOT, "%.2f s (%,d events)", run.wallNanos() / 1e9,
                run.events())});
        return out;
    }

    /** Shows the focus link directions' tab (screenshots). */
    void showLinksTab() {
        ((TabPane) lookup("#focus-run-tabs")).getSelectionModel().select(1);
    }

    TableView<List<String>> flowsTable() {
        return flows;
    }

    /** Opens the window of a finished focus run (FX thread). */
    static Stage show(Window owner, FocusRun.Result r, Fabric fabric) {
        FocusRunWindow w = new FocusRunWindow(r, fabric);
        Stage stage = new Stage();
        stage.setTitle("Focus run (packet level): " + r.plan().focus().describe());
        javafx.geometry.Rectangle2D screen = javafx.stage.Screen.getPrimary().getVisualBounds();
        stage.setScene(new Scene(w, Math.min(1200, screen.getWidth() - 40), Math.min(940, screen.getHeight() - 60)));
        if (owner != null) {
            stage.initOwner(owner);
        }
        stage.show();
        return stage;
    }
}
