package io.fabriclab.ui.live;

import java.util.List;

import io.fabriclab.sim.PortThresholds;
import io.fabriclab.sim.SimSnapshot;
import io.fabriclab.workload.FlowSpec;
import javafx.scene.chart.LineChart;
import javafx.scene.chart.NumberAxis;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Label;
import javafx.scene.layout.VBox;

/**
 * Charts of the selected egress port and flow over the recorded snapshots: queue depth with the
 * port's Kmin / Kmax (its ECN curve) and the XOFF / XON of the port it feeds drawn as lines;
 * throughput, ECN marks, CNPs and the share of time paused per interval; the flow's DCQCN
 * current and target rate, the throughput it achieved and its progress; the selected collective's
 * busbw and algbw so far and its progress. Rebuilt from the frames (at most
 * {@link #MAX_POINTS}, evenly sampled) whenever asked, so a selection made late shows the whole run.
 */
public final class LiveCharts extends VBox {
    static final int MAX_POINTS = 400;

    private final Label title = new Label("Select a link or device, a flow or a collective");
    private final LineChart<Number, Number> queue = chart("queue (KB)");
    private final LineChart<Number, Number> activity = chart("per interval");
    private final LineChart<Number, Number> flow = chart("flow");
    private final LineChart<Number, Number> collective = chart("collective");

    public LiveCharts() {
        super(4);
        title.setWrapText(true);
        getChildren().addAll(title, queue, activity, flow, collective);
        collective.setId("live-collective-chart");
        for (LineChart<Number, Number> chart : List.of(queue, activity, flow, collective)) {
            chart.setVisible(false);
            chart.setManaged(false);
        }
        flow.setId("live-flow-chart");
        setId("live-charts");
    }

    private static LineChart<Number, Number> chart(String yLabel) {
        NumberAxis x = new NumberAxis();
        x.setLabel("time (µs)");
        x.setForceZeroInRange(false);
        NumberAxis y = new NumberAxis();
        y.setLabel(yLabel);
        LineChart<Number, Number> c = new LineChart<>(x, y);
        c.setAnimated(false);
        c.setCreateSymbols(false);
        c.setPrefHeight(190);
        c.setMinHeight(150);
        c.setLegendVisible(true);
        return c;
    }

    public LineChart<Number, Number> queueChart() {
        return queue;
    }

    public LineChart<Number, Number> activityChart() {
        return activity;
    }

    public LineChart<Number, Number> flowChart() {
        return flow;
    }

    public LineChart<Number, Number> collectiveChart() {
        return collective;
    }

    /** Redraws every chart for egress port {@code port} (-1: none) and flow {@code flowId} (-1: none). */
    public void show(List<SimSnapshot> frames, int port, int flowId) {
        show(frames, port, flowId, null, null);
    }

    /**
     * As {@link #show(List, int, int)}, with the flow's achieved throughput ({@code specs}: the
     * run's flows, null: not shown) and the collective {@code c} (its tracker, made once per run;
     * null: none): its busbw and algbw so far and its progress over the run ({@link CollectiveProgress}).
     */
    public void show(List<SimSnapshot> frames, int port, int flowId, List<FlowSpec> specs,
                     CollectiveProgress.Tracker c) {
        queue.getData().clear();
        activity.getData().clear();
        flow.getData().clear();
        collective.getData().clear();
        if (frames.isEmpty()) {
            title.setText("Select a link or device, a flow or a collective");
            showOnlyFilledCharts();
            return;
        }
        int step = Math.max(1, (frames.size() + MAX_POINTS - 1) / MAX_POINTS);
        SimSnapshot last = frames.get(frames.size() - 1);
        String text = "";
        if (port >= 0 && port < last.ports().size()) {
            String ref = last.ports().get(port);
            text = "Port " + ref + " (egress toward " + (port < last.ports().size() ? last.ports().get(port ^ 1) : "?")
                    + ")";
            XYChart.Series<Number, Number> depth = series("queue depth");
            XYChart.Series<Number, Number> ingress = series("ingress (PFC) bytes");
            XYChart.Series<Number, Number> kmin = series("Kmin");
            XYChart.Series<Number, Number> kmax = series("Kmax");
            XYChart.Series<Number, Number> xoff = series("XOFF (next hop)");
            XYChart.Series<Number, Number> xon = series("XON (next hop)");
            XYChart.Series<Number, Number> gbps = series("throughput Gb/s");
            XYChart.Series<Number, Number> marks = series("ECN marks/µs");
            XYChart.Series<Number, Number> cnps = series("CNPs/µs");
            XYChart.Series<Number, Number> paused = series("paused %");
            SimSnapshot prev = null;
            for (int i = 0; i < frames.size(); i += step) {
                SimSnapshot s = frames.get(i);
                double t = s.timePs() / 1e6;
                // An earlier frame may not carry the port yet (no traffic had reached its link): zeros.
                depth.getData().add(new XYChart.Data<>(t, FrameBuilder.at(s.queueBytes(), port) / 1000.0));
                int peer = port ^ 1;
                if (peer < s.ports().size()) {
                    ingress.getData().add(new XYChart.Data<>(t, s.ingressBytes()[peer] / 1000.0));
                    PortThresholds pt = s.thresholds().get(peer);
                    if (pt.xoffBytes() > 0) {
                        xoff.getData().add(new XYChart.Data<>(t, pt.xoffBytes() / 1000.0));
                        xon.getData().add(new XYChart.Data<>(t, pt.xonBytes() / 1000.0));
                    }
                }
                PortThresholds own = port < s.thresholds().size() ? s.thresholds().get(port) : null;
                if (own != null && own.ecn() != null) {
                    kmin.getData().add(new XYChart.Data<>(t, own.ecn().kminBytes() / 1000.0));
                    kmax.getData().add(new XYChart.Data<>(t, own.ecn().kmaxBytes() / 1000.0));
                }
                if (prev != null && s.timePs() > prev.timePs()) {
                    double dtPs = s.timePs() - prev.timePs();
                    double dtUs = dtPs / 1e6;
                    gbps.getData().add(new XYChart.Data<>(t, (FrameBuilder.at(s.wireBytesTotal(), port)
                            - FrameBuilder.at(prev.wireBytesTotal(), port)) * 8.0 / (dtPs / 1e3)));
                    marks.getData().add(new XYChart.Data<>(t, (FrameBuilder.at(s.ecnMarksTotal(), port)
                            - FrameBuilder.at(prev.ecnMarksTotal(), port)) / dtUs));
                    long cnpDelta = FrameBuilder.at(s.cnpsTotal(), peer) - FrameBuilder.at(prev.cnpsTotal(), peer)
                            + FrameBuilder.at(s.cnpsTotal(), port) - FrameBuilder.at(prev.cnpsTotal(), port);
                    cnps.getData().add(new XYChart.Data<>(t, cnpDelta / dtUs));
                    paused.getData().add(new XYChart.Data<>(t, Math.min(100, 100.0 * (FrameBuilder.at(
                            s.pausedPsTotal(), port) - FrameBuilder.at(prev.pausedPsTotal(), port)) / dtPs)));
                }
                prev = s;
            }
            queue.getData().add(depth);
            queue.getData().add(ingress);
            for (XYChart.Series<Number, Number> line : List.of(kmin, kmax, xoff, xon)) {
                if (!line.getData().isEmpty()) {
                    queue.getData().add(line);
                }
            }
            activity.getData().addAll(List.of(gbps, marks, cnps, paused));
        }
        if (flowId >= 0 && flowId < last.flowCount()) {
            text += (text.isEmpty() ? "" : "\n") + "Flow " + flowId;
            XYChart.Series<Number, Number> rate = series("DCQCN rate Gb/s");
            XYChart.Series<Number, Number> target = series("target rate Gb/s");
            XYChart.Series<Number, Number> progress = series("progress %");
            XYChart.Series<Number, Number> achieved = series("achieved Gb/s");
            SimSnapshot prev = null;
            for (int i = 0; i < frames.size(); i += step) {
                SimSnapshot s = frames.get(i);
                double t = s.timePs() / 1e6;
                rate.getData().add(new XYChart.Data<>(t, s.flowRateGbps().get(flowId)));
                target.getData().add(new XYChart.Data<>(t, s.flowTargetGbps().get(flowId)));
                progress.getData().add(new XYChart.Data<>(t, 100 * s.flowProgress().get(flowId)));
                if (specs != null && flowId < specs.size() && prev != null && s.timePs() > prev.timePs()) {
                    // Payload delivered in order per second (what PFC pauses cut, unlike the DCQCN rate).
                    achieved.getData().add(new XYChart.Data<>(t, (s.flowProgress().get(flowId) - prev.flowProgress().get(flowId))
                            * specs.get(flowId).bytes() * 8 / ((s.timePs() - prev.timePs()) / 1e3)));
                }
                prev = s;
            }
            flow.getData().addAll(List.of(rate, target, progress));
            if (!achieved.getData().isEmpty()) {
                flow.getData().add(achieved);
            }
        }
        if (c != null) {
            text += (text.isEmpty() ? "" : "\n") + "Collective " + c.label();
            XYChart.Series<Number, Number> busbw = series("busbw so far GB/s");
            XYChart.Series<Number, Number> algbw = series("algbw so far GB/s");
            XYChart.Series<Number, Number> progress = series("progress %");
            for (int i = 0; i < frames.size(); i += step) {
                SimSnapshot s = frames.get(i);
                double t = s.timePs() / 1e6;
                CollectiveProgress p = c.at(s);
                if (!Double.isNaN(p.busbwGBps())) {
                    busbw.getData().add(new XYChart.Data<>(t, p.busbwGBps()));
                    algbw.getData().add(new XYChart.Data<>(t, p.algbwGBps()));
                }
                progress.getData().add(new XYChart.Data<>(t, 100 * p.fraction()));
            }
            collective.getData().addAll(List.of(busbw, algbw, progress));
        }
        title.setText(text.isEmpty() ? "Select a link or device, a flow or a collective" : text);
        showOnlyFilledCharts();
    }

    /** Only the charts of what is selected take room in the panel. */
    private void showOnlyFilledCharts() {
        for (LineChart<Number, Number> chart : List.of(queue, activity, flow, collective)) {
            chart.setVisible(!chart.getData().isEmpty());
            chart.setManaged(chart.isVisible());
        }
    }

    private static XYChart.Series<Number, Number> series(String name) {
        XYChart.Series<Number, Number> s = new XYChart.Series<>();
        s.setName(name);
        return s;
    }
}
