package io.fabriclab.ui;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.fabriclab.counters.CountersFrame;
import io.fabriclab.counters.Measured;
import io.fabriclab.counters.PortFigures;
import io.fabriclab.diagram.CongestionFrame;
import io.fabriclab.diagram.CongestionPainter;
import io.fabriclab.diagram.DiagramGeometry;
import io.fabriclab.diagram.FoldGroup;
import io.fabriclab.diagram.Viewport;
import io.fabriclab.model.Device;
import io.fabriclab.topology.Finding;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.util.Duration;

/**
 * The "Measured" layer: measured counters on the canvas in the live view's language (pause marks,
 * ECN sparks, CNPs, drop flashes, colour by queue watermark; {@link CountersFrame} on
 * {@link CongestionPainter}), with a bar over the canvas to show the measured figures, the simulated
 * ones (a results file) or their difference, what was read and what did not map. New samples (a
 * scraped URL) replace the picture as they arrive. Everything here runs on the FX thread and is
 * cheap (one pass over the links); reading and scraping happen elsewhere ({@link CountersActions}).
 */
public final class MeasuredLayer implements FabricCanvas.Layer {
    private final FabricEditor editor;
    private final CongestionPainter painter = new CongestionPainter(new io.fabriclab.diagram.DiagramStyle());
    private final HBox bar = new HBox(6);
    private final ToggleGroup views = new ToggleGroup();
    private final ToggleButton measuredButton = new ToggleButton("Measured");
    private final ToggleButton simulatedButton = new ToggleButton("Simulated");
    private final ToggleButton differenceButton = new ToggleButton("Difference");
    private final Label status = new Label();
    private final Label title = new Label("Counters");
    /** Drives the marks' motion (pause ticks, sparks) as in the live view, a few times a second. */
    private final Timeline motion = new Timeline(new KeyFrame(Duration.millis(100), e -> tick()));
    private final Runnable documentChanged = this::rebuild;
    private Measured measured;
    private Map<String, PortFigures> simulated;
    private String simulatedName;
    private String source = "";
    private String problem;
    private CongestionFrame frame;
    private CountersFrame.View view = CountersFrame.View.MEASURED;
    private Runnable onClose = () -> { };
    private int samples;

    MeasuredLayer(FabricEditor editor) {
        this.editor = editor;
        measuredButton.setUserData(CountersFrame.View.MEASURED);
        simulatedButton.setUserData(CountersFrame.View.SIMULATED);
        differenceButton.setUserData(CountersFrame.View.DIFFERENCE);
        measuredButton.setId("counters-view-measured");
        simulatedButton.setId("counters-view-simulated");
        differenceButton.setId("counters-view-difference");
        for (ToggleButton b : List.of(measuredButton, simulatedButton, differenceButton)) {
            b.setToggleGroup(views);
            b.setFocusTraversable(false);
        }
        measuredButton.setSelected(true);
        views.selectedToggleProperty().addListener((o, was, now) -> {
            if (now == null) {
                was.setSelected(true); // one view is always shown
                return;
            }
            view = (CountersFrame.View) now.getUserData();
            rebuild();
        });
        Tooltip need = new Tooltip("Compare with Results… first: a results file of the same fabric (fabriclab simulate -o)");
        simulatedButton.setTooltip(need);
        differenceButton.setTooltip(need);
        Button results = new Button("Compare with Results…");
        results.setId("counters-compare-results");
        results.setFocusTraversable(false);
        results.setOnAction(e -> CountersActions.of(editor).chooseResults());
        Button close = new Button("✕");
        close.setId("counters-close");
        close.setFocusTraversable(false);
        close.setTooltip(new Tooltip("Close the measured layer"));
        close.setOnAction(e -> onClose.run());
        title.setStyle("-fx-font-weight: bold;");
        status.setId("counters-status");
        bar.getChildren().addAll(title, measuredButton, simulatedButton, differenceButton, results, status, close);
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.setPadding(new Insets(4, 8, 4, 8));
        bar.setStyle("-fx-background-color: #eef6ee; -fx-border-color: #9aa5b1; -fx-border-width: 0 0 1 0;");
        bar.setId("counters-bar");
        HBox.setHgrow(status, javafx.scene.layout.Priority.ALWAYS);
        status.setMaxWidth(Double.MAX_VALUE);
        status.setMinWidth(0);
        motion.setCycleCount(Timeline.INDEFINITE);
        refreshButtons();
    }

    /** Shows the layer over the editor's canvas (replacing any other layer, e.g. the live view's). */
    void show() {
        FabricCanvas canvas = editor.canvas();
        // A row under the tool bar: it covers no part of the drawing (the canvas refits if it was fitted).
        if (editor.getTop() instanceof javafx.scene.layout.VBox top && !top.getChildren().contains(bar)) {
            top.getChildren().add(bar);
        }
        editor.document().stack().addListener(documentChanged);
        canvas.setLayer(this);
        motion.play();
    }

    /** Removes the layer, its bar and its findings. */
    void hide() {
        motion.stop();
        editor.document().stack().removeListener(documentChanged);
        if (bar.getParent() instanceof javafx.scene.layout.Pane holder) {
            holder.getChildren().remove(bar);
        }
        if (editor.canvas().layer() == this) {
            editor.canvas().setLayer(null); // never the live view's layer
        }
        editor.problems().setCounterFindings(List.of());
    }

    void setOnClose(Runnable r) {
        onClose = r;
    }

    /** New measured rates (a file read, a scrape): the picture and the status follow. */
    void setMeasured(Measured m, String source, int samples) {
        this.measured = m;
        this.source = source;
        this.samples = samples;
        this.problem = null;
        rebuild();
    }

    /** A scrape that failed: said in the bar; the last picture stays. */
    void setProblem(String message) {
        this.problem = message;
        refreshStatus();
    }

    /** The simulated figures to compare with (a results file), and what they are called. */
    void setSimulated(Map<String, PortFigures> sim, String name) {
        this.simulated = sim;
        this.simulatedName = name;
        refreshButtons();
        rebuild();
    }

    void setFindings(List<Finding> findings) {
        editor.problems().setCounterFindings(findings);
    }

    Measured measured() {
        return measured;
    }

    Map<String, PortFigures> simulated() {
        return simulated;
    }

    CountersFrame.View view() {
        return view;
    }

    /** Shows one of the views (tests and the toggle). */
    void showView(CountersFrame.View v) {
        views.selectToggle(switch (v) {
            case MEASURED -> measuredButton;
            case SIMULATED -> simulatedButton;
            case DIFFERENCE -> differenceButton;
        });
    }

    CongestionFrame frame() {
        return frame;
    }

    String statusText() {
        return status.getText();
    }

    HBox bar() {
        return bar;
    }

    private void refreshButtons() {
        simulatedButton.setDisable(simulated == null);
        differenceButton.setDisable(simulated == null);
        if (simulated == null && view != CountersFrame.View.MEASURED) {
            measuredButton.setSelected(true);
        }
    }

    /** The frame of the current view over the document's current fabric (the painter matches links by identity). */
    private void rebuild() {
        var fabric = editor.document().fabric();
        CongestionFrame.Directions dirs = new CongestionFrame.Directions(new ArrayList<>(fabric.links()));
        if (measured == null) {
            frame = new CongestionFrame(0, dirs);
        } else {
            frame = CountersFrame.frame(fabric, dirs, CountersFrame.figures(view, measured, simulated), Math.max(measured.intervalS(), 1e-9));
        }
        title.setText(view.label + ":");
        refreshStatus();
        redraw();
    }

    private void refreshStatus() {
        StringBuilder sb = new StringBuilder();
        if (problem != null) {
            sb.append("⚠ ").append(problem).append("  ");
        }
        if (measured == null) {
            sb.append(problem == null ? "waiting for the second sample of " + source : "");
        } else {
            sb.append(String.format(Locale.ROOT, "%s: %d samples, %.1f s, %d ports", source, samples, measured.intervalS(),
                    measured.ports().size()));
            if (!measured.unmapped().isEmpty()) {
                sb.append(", ").append(measured.unmapped().size()).append(" not mapped");
            }
            if (simulatedName != null && view != CountersFrame.View.MEASURED) {
                sb.append(" · vs ").append(simulatedName);
            }
        }
        status.setText(sb.toString());
        StringBuilder tip = new StringBuilder(sb);
        if (measured != null) {
            measured.notes().forEach(n -> tip.append("\n").append(n));
            if (!measured.unmapped().isEmpty()) {
                tip.append("\nNot mapped:");
                measured.unmapped().stream().limit(30).forEach(u -> tip.append("\n  ").append(u));
            }
        }
        status.setTooltip(new Tooltip(tip.toString()));
    }

    /**
     * The marks' motion; the live view, while open, owns the canvas's layer (its run is drawn, the bar
     * says so), and the measured picture comes back when it closes.
     */
    private void tick() {
        FabricCanvas canvas = editor.canvas();
        if (canvas.layer() == null) {
            canvas.setLayer(this);
            refreshStatus();
        } else if (canvas.layer() != this) {
            if (!status.getText().startsWith(LIVE_VIEW_SHOWN)) {
                status.setText(LIVE_VIEW_SHOWN + status.getText());
            }
            return;
        }
        redraw();
    }

    static final String LIVE_VIEW_SHOWN = "(the live view is drawn; close it to see the counters) ";

    private void redraw() {
        editor.canvas().requestRedraw();
    }

    @Override
    public void paint(io.fabriclab.diagram.Painter p, DiagramGeometry g, Map<Device, FoldGroup> folded, Viewport vp, double w,
                      double h) {
        if (frame == null || frame.directions.count() != 2 * editor.document().fabric().links().size()) {
            rebuild();
        }
        painter.paint(p, g, folded, vp, w, h, frame, System.nanoTime() / 1e9, CongestionPainter.ColourBy.QUEUE,
                CongestionPainter.Legend.NONE);
    }

    @Override
    public double[] legendSize() {
        return new double[] {CongestionPainter.LEGEND_WIDTH, CongestionPainter.legendHeight(true)};
    }

    @Override
    public void paintLegend(io.fabriclab.diagram.Painter p, double x, double y) {
        painter.paintLegendAt(p, x, y, CongestionPainter.ColourBy.QUEUE, true);
        // The live view's legend, titled for what this picture is (its title row painted over).
        p.save();
        p.setFill(new io.fabriclab.diagram.Rgba(255, 255, 255, 255));
        p.fillRect(x + 4, y + 3, CongestionPainter.LEGEND_WIDTH - 8, 17);
        p.setFill(io.fabriclab.diagram.DiagramStyle.TEXT);
        p.setFont(11, true);
        p.text(switch (view) {
            case MEASURED -> "Measured counters";
            case SIMULATED -> "Simulated (results file)";
            case DIFFERENCE -> "|Measured − simulated|";
        }, x + 10, y + 12, io.fabriclab.diagram.TextAnchor.START);
        p.restore();
    }

    @Override
    public String legendChipText() {
        return view.label + " legend ▸";
    }
}
