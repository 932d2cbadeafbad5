package io.fabriclab.ui.live;

import java.util.List;
import java.util.Locale;

import javafx.animation.AnimationTimer;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Slider;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

import io.fabriclab.diagram.CongestionFrame;
import io.fabriclab.diagram.CongestionPainter;
import io.fabriclab.diagram.DiagramStyle;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.sim.SimResults;
import io.fabriclab.ui.FabricCanvas;
import io.fabriclab.ui.FabricDocument;

/**
 * A finished flow-level run's link utilisation over time on the fabric's drawing: every link
 * direction coloured by the share of its capacity it carried in each sample of the run
 * ({@link SimResults.LinkResult#utilization}), a timeline to scrub and Play to run through the
 * step (about ten seconds end to end). On a large fabric the folded units' bundles show their
 * links' capacity-weighted load. The frames are built from the results on the FX thread, one
 * array pass per frame; nothing runs the simulator.
 */
public final class FlowPlayback extends VBox {
    /** Wall time of Play from the start of the run to its end. */
    static final double PLAY_SECONDS = 10.0;

    private final SimResults results;
    private final CongestionFrame.Directions directions;
    /** Direction index of each of the results' link rows (-1: not in this fabric). */
    private final int[] directionOf;
    private final FabricCanvas canvas;
    private final CongestionPainter painter = new CongestionPainter(new DiagramStyle());
    private final Slider timeline = new Slider();
    private final Label clock = new Label();
    private final Button play = new Button("Play");
    private final long endPs;
    private CongestionFrame frame;
    private AnimationTimer timer;

    public FlowPlayback(Fabric fabric, SimResults results) {
        this(fabric, results, "Link utilisation over the run (flow engine: each link direction's share of its "
                + "capacity in each sample)");
    }

    /** As {@link #FlowPlayback(Fabric, SimResults)} under {@code caption} (a focus run's packet-level utilisation). */
    public FlowPlayback(Fabric fabric, SimResults results, String caption) {
        super(4);
        setId("flow-playback");
        this.results = results;
        this.directions = new CongestionFrame.Directions(new java.util.ArrayList<>(fabric.links()));
        List<SimResults.LinkResult> links = results.links();
        this.directionOf = new int[links.size()];
        for (int i = 0; i < links.size(); i++) {
            Port from = fabric.port(links.get(i).from());
            Link l = from == null ? null : fabric.linkAt(from);
            directionOf[i] = l == null ? -1 : directions.of(l, l.a() == from);
        }
        this.endPs = Math.max(1, results.run().simulatedPs());
        this.canvas = new FabricCanvas(new FabricDocument(fabric, null));
        canvas.setId("flow-playback-canvas");
        // The congestion legend takes the top right corner; the map would cover it (Map shows it again).
        canvas.minimapVisibleProperty().set(false);
        canvas.setPrefSize(700, 420);
        // A flow run's legend has the utilisation scale only: it has no pause, mark or drop to show.
        CongestionPainter.Legend legend = "flow".equals(results.run().engine()) ? CongestionPainter.Legend.FLOW
                : CongestionPainter.Legend.RESULTS;
        canvas.setLayer((p, g, folded, vp, w, h) -> painter.paint(p, g, folded, vp, w, h,
                frame != null ? frame : new CongestionFrame(0, directions), 0,
                CongestionPainter.ColourBy.UTILISATION, legend));
        timeline.setMin(0);
        timeline.setMax(endPs / 1e6);
        timeline.setId("flow-playback-timeline");
        timeline.valueProperty().addListener((o, a, b) -> show(Math.round(b.doubleValue() * 1e6)));
        play.setId("flow-playback-play");
        play.setOnAction(e -> togglePlay());
        HBox.setHgrow(timeline, Priority.ALWAYS);
        VBox.setVgrow(canvas, Priority.ALWAYS);
        Label title = new Label(caption);
        title.setWrapText(true);
        getChildren().addAll(title, canvas, new HBox(8, play, timeline, clock));
        show(endPs / 2);
        timeline.setValue(endPs / 2 / 1e6);
    }

    /** The frame at {@code timePs}: each link direction's utilisation in the sample that covers it. */
    CongestionFrame frameAt(long timePs) {
        CongestionFrame f = new CongestionFrame(timePs, directions);
        List<SimResults.LinkResult> links = results.links();
        for (int i = 0; i < links.size(); i++) {
            if (directionOf[i] >= 0) {
                f.load[directionOf[i]] = utilisationAt(links.get(i), timePs);
            }
        }
        return f;
    }

    /** The utilisation of {@code l} in the sample covering {@code timePs} (its mean when it has no series). */
    static double utilisationAt(SimResults.LinkResult l, long timePs) {
        SimResults.Series s = l.utilization();
        if (s == null || s.timesPs().length == 0) {
            return l.meanUtilization();
        }
        long[] t = s.timesPs();
        // Each value covers the interval that ends at its time.
        int lo = 0;
        int hi = t.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (t[mid] < timePs) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return timePs > t[t.length - 1] ? 0 : s.values()[lo];
    }

    void show(long timePs) {
        frame = frameAt(timePs);
        clock.setText(String.format(Locale.ROOT, "t = %.1f µs of %.1f µs", timePs / 1e6, endPs / 1e6));
        canvas.redraw();
    }

    private void togglePlay() {
        if (timer != null) {
            timer.stop();
            timer = null;
            play.setText("Play");
            return;
        }
        play.setText("Pause");
        timer = new AnimationTimer() {
            private long last = -1;

            @Override
            public void handle(long now) {
                if (last < 0) {
                    last = now;
                    if (timeline.getValue() >= timeline.getMax()) {
                        timeline.setValue(0);
                    }
                    return;
                }
                double step = (now - last) / 1e9 / PLAY_SECONDS * timeline.getMax();
                last = now;
                double next = Math.min(timeline.getMax(), timeline.getValue() + step);
                timeline.setValue(next);
                if (next >= timeline.getMax()) {
                    stop();
                    timer = null;
                    play.setText("Play");
                }
            }
        };
        timer.start();
    }

    CongestionFrame frame() {
        return frame;
    }

    Slider timeline() {
        return timeline;
    }

    /** The drawing's selection (a link or device picked on the playback names a focus: FlowRunWindow). */
    io.fabriclab.diagram.Selection selection() {
        return canvas.document().selection();
    }
}
