package io.fabriclab.ui.live;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;

import io.fabriclab.diagram.CongestionFrame;
import io.fabriclab.diagram.CongestionPainter;
import io.fabriclab.diagram.DiagramStyle;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.sim.SimSnapshot;
import io.fabriclab.ui.FabricCanvas;
import io.fabriclab.ui.FabricDocument;
import javafx.animation.AnimationTimer;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.Slider;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;

/**
 * Replays saved runs: one run, or two side by side on one timeline (e.g. two ECN settings). Each
 * run has its own canvas (its saved fabric) with the same congestion layer as the live view, its
 * results summary and the same selection charts; the timeline scrubs by simulated time and Play
 * animates it.
 */
public final class ReplayWindow extends BorderPane {

    /** One saved run on a canvas. */
    public static final class RunView extends VBox {
        private final RunRecording.Saved saved;
        private final FabricCanvas canvas;
        private final FrameBuilder frames;
        private final CongestionPainter painter = new CongestionPainter(new DiagramStyle());
        private final LiveCharts charts = new LiveCharts();
        private final ComboBox<String> port = new ComboBox<>();
        private final Label clock = new Label();
        private CongestionFrame frame;
        private SimSnapshot shown;

        RunView(RunRecording.Saved saved) {
            super(4);
            this.saved = saved;
            FabricDocument doc = new FabricDocument(saved.fabric(), null);
            this.canvas = new FabricCanvas(doc);
            canvas.setPrefSize(700, 520);
            this.frames = new FrameBuilder(saved.fabric());
            canvas.setLayer((p, g, folded, vp, w, h) -> painter.paint(p, g, folded, vp, w, h,
                    frame != null ? frame : new CongestionFrame(0, frames.directions()), System.nanoTime() / 1e9,
                    CongestionPainter.ColourBy.QUEUE, CongestionPainter.Legend.LIVE));
            Label title = new Label(title(saved));
            title.setStyle("-fx-font-weight: bold;");
            Label summary = new Label(summary(saved.results()));
            summary.setWrapText(true);
            port.setPromptText("egress port (select a link)");
            port.setOnAction(e -> charts.show(saved.frames(), port.getValue() == null ? -1
                    : saved.frames().get(0).portIndex(port.getValue()), -1));
            doc.selection().addListener(() -> {
                List<String> ports = new ArrayList<>();
                for (Link l : doc.selection().links()) {
                    ports.add(l.a().ref());
                    ports.add(l.b().ref());
                }
                for (var d : doc.selection().devices()) {
                    for (Port p : d.ports()) {
                        if (saved.fabric().linkAt(p) != null) {
                            ports.add(p.ref());
                        }
                    }
                }
                port.getItems().setAll(ports);
                if (!ports.isEmpty()) {
                    port.getSelectionModel().select(0);
                }
            });
            VBox.setVgrow(canvas, Priority.ALWAYS);
            getChildren().addAll(title, summary, clock, canvas, new HBox(6, new Label("Port"), port), charts);
            show(saved.frames().get(saved.frames().size() - 1).timePs());
        }

        public FabricCanvas canvas() {
            return canvas;
        }

        public SimSnapshot shown() {
            return shown;
        }

        public CongestionFrame frame() {
            return frame;
        }

        public RunRecording.Saved saved() {
            return saved;
        }

        /** Shows the last recorded frame at or before {@code timePs}. */
        public void show(long timePs) {
            List<SimSnapshot> fs = saved.frames();
            int idx = 0;
            for (int i = 0; i < fs.size(); i++) {
                if (fs.get(i).timePs() <= timePs) {
                    idx = i;
                }
            }
            shown = fs.get(idx);
            frame = frames.frame(shown, idx > 0 ? fs.get(idx - 1) : null, CongestionPainter.ColourBy.QUEUE, -1,
                    System.nanoTime());
            clock.setText(String.format(Locale.ROOT, "t = %.3f µs  (frame %d of %d)", shown.timePs() / 1e6, idx + 1,
                    fs.size()));
            canvas.redraw();
        }

        long startPs() {
            return saved.frames().get(0).timePs();
        }

        long endPs() {
            return saved.frames().get(saved.frames().size() - 1).timePs();
        }

        /** The run's title led by its transport, so two runs side by side say which is which. */
        static String title(RunRecording.Saved saved) {
            String t = transport(saved.results());
            return t == null ? saved.title() : t + " · " + saved.title();
        }

        /**
         * The transport a saved run's results show: Ultra Ethernet's own counts, InfiniBand's
         * credits, else RoCEv2 (ResultsJson writes each only for its transport); null without results.
         */
        static String transport(JsonNode results) {
            if (results == null || results.isNull() || results.isMissingNode()) {
                return null;
            }
            if (results.hasNonNull("ultraEthernet")) {
                return io.fabriclab.model.Transport.ULTRA_ETHERNET.displayName();
            }
            if (results.path("credits").size() > 0) {
                return io.fabriclab.model.Transport.INFINIBAND.displayName();
            }
            return io.fabriclab.model.Transport.ROCEV2.displayName();
        }

        private static String summary(JsonNode results) {
            if (results == null) {
                return "no results saved (the run had not ended)";
            }
            JsonNode run = results.path("run");
            JsonNode s = results.path("summary");
            StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                    "%s at %.1f µs: %d/%d flows, drops %d, ECN marks %d, CNPs %d, PAUSE %d, paused %.1f µs",
                    run.path("stopReason").asText(), run.path("simulatedPs").asDouble() / 1e6,
                    run.path("flowsCompleted").asInt(), run.path("flows").asInt(), s.path("drops").asLong(),
                    s.path("ecnMarked").asLong(), s.path("cnpsSent").asLong(), s.path("pauseFramesSent").asLong(),
                    s.path("pausedPs").asDouble() / 1e6));
            for (JsonNode c : results.path("collectives")) {
                sb.append(String.format(Locale.ROOT, "; %s busbw %.1f GB/s", c.path("name").asText(),
                        c.path("busbwGBps").asDouble()));
            }
            return sb.toString();
        }
    }

    private final List<RunView> views = new ArrayList<>();
    private final Slider timeline = new Slider();
    private final Button play = new Button("Play");
    private final AnimationTimer animation;
    private long lastNanos;

    public ReplayWindow(List<RunRecording.Saved> runs) {
        HBox row = new HBox(8);
        long start = Long.MAX_VALUE;
        long end = 0;
        for (RunRecording.Saved s : runs) {
            RunView v = new RunView(s);
            HBox.setHgrow(v, Priority.ALWAYS);
            views.add(v);
            row.getChildren().add(v);
            start = Math.min(start, v.startPs());
            end = Math.max(end, v.endPs());
        }
        timeline.setMin(start / 1e6);
        timeline.setMax(Math.max(start / 1e6 + 1e-6, end / 1e6));
        timeline.setValue(timeline.getMax());
        timeline.setId("replay-timeline");
        timeline.valueProperty().addListener((o, a, b) -> showAll());
        HBox.setHgrow(timeline, Priority.ALWAYS);
        play.setOnAction(e -> togglePlay());
        animation = new AnimationTimer() {
            @Override
            public void handle(long now) {
                if (lastNanos != 0) {
                    // Replays the recording in about 10 s of wall time.
                    double span = timeline.getMax() - timeline.getMin();
                    double v = timeline.getValue() + span * (now - lastNanos) / 10e9;
                    if (v >= timeline.getMax()) {
                        v = timeline.getMax();
                        togglePlay();
                    }
                    timeline.setValue(v);
                }
                lastNanos = now;
                for (RunView rv : views) {
                    rv.canvas().redraw();
                }
            }
        };
        HBox controls = new HBox(8, play, new Label("time (µs)"), timeline);
        controls.setPadding(new Insets(6));
        setCenter(row);
        setBottom(controls);
        setId("replay-window");
    }

    public List<RunView> views() {
        return views;
    }

    public Slider timeline() {
        return timeline;
    }

    private void showAll() {
        long t = Math.round(timeline.getValue() * 1e6);
        for (RunView v : views) {
            v.show(t);
        }
    }

    private boolean playing;

    private void togglePlay() {
        playing = !playing;
        play.setText(playing ? "Pause" : "Play");
        if (playing) {
            if (timeline.getValue() >= timeline.getMax()) {
                timeline.setValue(timeline.getMin());
            }
            lastNanos = 0;
            animation.start();
        } else {
            animation.stop();
        }
    }

    /**
     * Opens a saved run in its own window; a file that cannot be read is reported, nothing opens.
     * The file is read on a background thread (a run of a quarter-million flows takes seconds); the
     * future completes on the FX thread with the window, or null.
     */
    public static CompletableFuture<ReplayWindow> open(Path file, Consumer<String> messages) {
        return show(List.of(file), messages);
    }

    /** Two saved runs side by side on one timeline (read as {@link #open} reads one). */
    public static CompletableFuture<ReplayWindow> compare(Path a, Path b, Consumer<String> messages) {
        return show(List.of(a, b), messages);
    }

    private static CompletableFuture<ReplayWindow> show(List<Path> files, Consumer<String> messages) {
        messages.accept("Opening " + files.size() + " run(s) …");
        CompletableFuture<ReplayWindow> opened = new CompletableFuture<>();
        // Read on the application's one executor (ui.BackgroundTasks); a file that fails is named.
        Path[] reading = new Path[1];
        io.fabriclab.ui.BackgroundTasks.shared().run("Opening " + files.size() + " run(s)", () -> {
            List<RunRecording.Saved> runs = new ArrayList<>();
            for (Path f : files) {
                reading[0] = f;
                runs.add(RunRecording.load(f));
            }
            return runs;
        }, runs -> opened.complete(showLoaded(runs, files.size(), messages)), e -> {
            messages.accept("Cannot open " + reading[0] + ": " + e.getMessage());
            opened.complete(null);
        }).exceptionally(e -> null);
        return opened;
    }

    private static ReplayWindow showLoaded(List<RunRecording.Saved> runs, int files, Consumer<String> messages) {
        ReplayWindow w = new ReplayWindow(runs);
        Stage stage = new Stage();
        stage.setTitle((runs.size() == 1 ? "Replay — " : "Compare — ") + String.join(" | ",
                runs.stream().map(RunRecording.Saved::title).toList()));
        stage.setScene(new Scene(w, runs.size() == 1 ? 1000 : 1500, 950));
        stage.setOnHidden(e -> w.animation.stop());
        stage.show();
        for (RunView v : w.views) {
            v.canvas().fitToWindow();
        }
        messages.accept("Opened " + files + " run(s) for replay.");
        return w;
    }
}
