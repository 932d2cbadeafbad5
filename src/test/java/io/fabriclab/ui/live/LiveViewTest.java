package io.fabriclab.ui.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.diagram.CongestionPainter;
import io.fabriclab.diagram.DiagramGeometry;
import io.fabriclab.diagram.DiagramStyle;
import io.fabriclab.diagram.Rgba;
import io.fabriclab.diagram.Segment;
import io.fabriclab.io.FabricJson;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.sim.LiveRun;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.SimSnapshot;
import io.fabriclab.ui.FabricCanvas;
import io.fabriclab.ui.FabricDocument;
import io.fabriclab.ui.FabricEditor;
import io.fabriclab.ui.SharedStageExtension;
import javafx.geometry.Point2D;
import javafx.scene.Scene;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javafx.scene.paint.Color;
import javafx.stage.Stage;

/** The live congestion view, headless: play, pixels, click-to-fail, live thresholds, replay, errors. */
@ExtendWith(SharedStageExtension.class)
class LiveViewTest {
    static final Path FABRIC = Path.of("resources/examples/classic-leaf-spine.json");
    static final Path INCAST = Path.of("resources/scenarios/incast-pfc-only.json");

    private FabricEditor editor;
    private FabricCanvas canvas;
    private LivePanel panel;

    @Start
    void start(Stage stage) throws Exception {
        Fabric f = FabricJson.read(FABRIC);
        editor = new FabricEditor(new FabricDocument(f, FABRIC));
        canvas = editor.canvas();
        stage.setScene(new Scene(editor, 1200, 780));
        stage.show();
        editor.showLiveView(true);
        panel = LivePanel.of(editor);
    }

    @org.junit.jupiter.api.AfterEach
    void dispose(FxRobot robot) {
        robot.interact(() -> {
            if (editor.livePanel() != null) {
                editor.showLiveView(false);
            }
        });
    }

    static void savePng(javafx.scene.image.Image img, String name) {
        try {
            javax.imageio.ImageIO.write(javafx.embed.swing.SwingFXUtils.fromFXImage(img, null), "png",
                    new java.io.File("target/" + name + ".png"));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private Fabric fabric() {
        return canvas.document().fabric();
    }

    /**
     * Reads {@code c} on the FX thread. A read, not an action: it does not wait for the FX events an
     * action would cause afterwards (robot.interact does, about 50 ms of fixed sleeps per call, which
     * every poll of a waitFor condition paid).
     */
    private <T> T fx(FxRobot robot, Callable<T> c) {
        try {
            return WaitForAsyncUtils.asyncFx(c).get(60, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException(e);
        }
    }

    private void waitFor(int seconds, Callable<Boolean> condition) throws Exception {
        WaitForAsyncUtils.waitFor(seconds, TimeUnit.SECONDS, condition);
        WaitForAsyncUtils.waitForFxEvents();
    }

    private void fit(FxRobot robot) {
        robot.interact(() -> {
            canvas.fitToWindow();
            canvas.redraw();
        });
    }

    /** Directions into the receiver's leaf (the receiver's upstream links), as snapshot port refs. */
    private List<String> upstreamOf(String receiverNic) {
        Port rx = fabric().port(receiverNic);
        Device leaf = fabric().linkAt(rx).opposite(rx).device();
        List<String> out = new ArrayList<>();
        for (Link l : fabric().linksOf(leaf)) {
            Port far = l.portOn(leaf) == l.a() ? l.b() : l.a();
            if (far != rx) {
                out.add(far.ref());
            }
        }
        return out;
    }

    private static boolean near(Color c, Rgba want, double tol) {
        return Math.abs(c.getRed() * 255 - want.r()) <= tol && Math.abs(c.getGreen() * 255 - want.g()) <= tol
                && Math.abs(c.getBlue() * 255 - want.b()) <= tol;
    }

    /** Pixels of colour {@code want} within 14 px of the link's drawn line. */
    private int pixelsNear(PixelReader px, Link l, Rgba want, int width, int height) {
        DiagramGeometry g = canvas.geometry();
        Segment s = g.segment(l);
        double x1 = canvas.viewport().toScreenX(s.x1());
        double y1 = canvas.viewport().toScreenY(s.y1());
        double x2 = canvas.viewport().toScreenX(s.x2());
        double y2 = canvas.viewport().toScreenY(s.y2());
        int count = 0;
        for (double t = 0; t <= 1; t += 0.01) {
            int cx = (int) (x1 + (x2 - x1) * t);
            int cy = (int) (y1 + (y2 - y1) * t);
            for (int dx = -14; dx <= 14; dx += 2) {
                for (int dy = -14; dy <= 14; dy += 2) {
                    int x = cx + dx;
                    int y = cy + dy;
                    if (x >= 0 && y >= 0 && x < width && y < height && near(px.getColor(x, y), want, 40)) {
                        count++;
                    }
                }
            }
        }
        return count;
    }

    @Test
    void playingTheIncastScenarioDrawsThePauseStormOnTheReceiversUpstreamLinksAndTheLegend(FxRobot robot)
            throws Exception {
        fit(robot);
        robot.interact(() -> {
            panel.setScenarioFile(INCAST);
            panel.setSpeedPosition(7.3); // 20 us of simulated time per wall second: the storm builds visibly
        });
        List<String> upstream = upstreamOf("server01:nic0");
        // Before the run: no violet anywhere near those links. (Snapshot taken before Play: after
        // it, a warm JIT can pause links before the snapshot is drawn, which made this test flaky.)
        WritableImage before = fx(robot, () -> {
            canvas.redraw();
            return canvas.canvas().snapshot(null, null);
        });
        savePng(before, "live-before");
        int violetBefore = 0;
        for (String ref : upstream) {
            violetBefore += pixelsNear(before.getPixelReader(), fabric().linkAt(fabric().port(ref)),
                    DiagramStyle.PFC_PAUSE, (int) before.getWidth(), (int) before.getHeight());
        }
        assertEquals(0, violetBefore, "no pause style before the run");
        robot.clickOn("#live-play");
        // Wait until a snapshot shows most of the receiver leaf's upstream directions paused.
        waitFor(60, () -> fx(robot, () -> {
            SimSnapshot s = panel.shownSnapshot();
            if (s == null) {
                return false;
            }
            int paused = 0;
            for (String ref : upstream) {
                int i = s.portIndex(ref);
                if (i >= 0 && s.pausedMask()[i] != 0) {
                    paused++;
                }
            }
            return paused >= 3;
        }));
        robot.clickOn("#live-pause");
        // Paused, and the panel shows the newest picture the run published.
        waitFor(20, () -> fx(robot, () -> panel.session() != null
                && panel.session().run().state() == LiveRun.State.PAUSED
                && panel.shownSnapshot() == panel.session().run().latest()));
        // The snapshot and the canvas drawn from it, read together on the FX thread: the shot shows s.
        SimSnapshot[] shown = new SimSnapshot[1];
        WritableImage shot = fx(robot, () -> {
            shown[0] = panel.shownSnapshot();
            canvas.redraw();
            return canvas.canvas().snapshot(null, null);
        });
        SimSnapshot s = shown[0];
        savePng(shot, "live-incast-paused");
        PixelReader px = shot.getPixelReader();
        int w = (int) shot.getWidth();
        int h = (int) shot.getHeight();
        int pausedLinks = 0;
        int pausedWithStyle = 0;
        for (String ref : upstream) {
            int i = s.portIndex(ref);
            Link l = fabric().linkAt(fabric().port(ref));
            boolean paused = i >= 0 && s.pausedMask()[i] != 0;
            int violet = pixelsNear(px, l, DiagramStyle.PFC_PAUSE, w, h);
            if (paused) {
                pausedLinks++;
                if (violet > 0) {
                    pausedWithStyle++;
                }
            }
        }
        assertTrue(pausedLinks >= 2, "paused upstream directions: " + pausedLinks);
        assertEquals(pausedLinks, pausedWithStyle, "every paused upstream direction shows the violet pause style");
        // The legend sits in a corner the canvas chose free of the drawing (issue 35 item 2): its box,
        // its pause symbol (violet) and its spark (yellow).
        io.fabriclab.diagram.Bounds legendBox = canvas.layerLegendBox();
        assertNotNull(legendBox, "at 1200x780 a corner is free for the live legend");
        double lx = legendBox.minX();
        double ly = legendBox.minY();
        int legendViolet = 0;
        int legendYellow = 0;
        for (int x = (int) lx; x < lx + 46; x++) {
            for (int y = (int) ly; y < ly + CongestionPainter.legendHeight(); y++) {
                Color c = px.getColor(x, y);
                legendViolet += near(c, DiagramStyle.PFC_PAUSE, 30) ? 1 : 0;
                legendYellow += near(c, DiagramStyle.ECN_SPARK, 30) ? 1 : 0;
            }
        }
        assertTrue(legendViolet > 10, "legend pause symbol pixels: " + legendViolet);
        assertTrue(legendYellow > 5, "legend ECN spark pixels: " + legendYellow);
        assertTrue(near(px.getColor((int) lx + 200, (int) ly + 4), new Rgba(255, 255, 255, 255), 12),
                "legend box background");
        robot.interact(() -> panel.reset());
    }

    @Test
    void clickingALinkDuringARunFailsItAndItsFlowsReroute(FxRobot robot) throws Exception {
        fit(robot);
        robot.interact(() -> {
            panel.setSpeedPosition(7.0); // 10 us/s: the run is still going when the click lands
            panel.model().sizeMb.set("1");
            panel.clickFails.setSelected(true);
        });
        robot.clickOn("#live-play");
        waitFor(30, () -> fx(robot, () -> panel.shownSnapshot() != null && panel.shownSnapshot().timePs() > 0));
        SimSnapshot s = fx(robot, () -> panel.shownSnapshot());
        // The uplink of the first flow that crosses a spine (NIC, leaf up, spine down, leaf down):
        // its path's second hop leaves the sender's leaf for a spine.
        int crossing = 0;
        while (s.flowPaths().get(crossing).length < 4) {
            crossing++;
        }
        String uplinkRef = s.ports().get(s.flowPaths().get(crossing)[1]);
        Link uplink = fabric().linkAt(fabric().port(uplinkRef));
        List<String> usersBefore = flowsOn(s, uplinkRef);
        assertFalse(usersBefore.isEmpty());
        // Fitted again now the run shows: the panel's layout settles after Play (its run section grows).
        fit(robot);
        DiagramGeometry g = fx(robot, () -> canvas.geometry());
        Segment seg = g.segment(uplink);
        Point2D mid = fx(robot, () -> canvas.localToScreen(canvas.viewport().toScreenX((seg.x1() + seg.x2()) / 2),
                canvas.viewport().toScreenY((seg.y1() + seg.y2()) / 2)));
        SimSnapshot atClick = fx(robot, () -> panel.shownSnapshot());
        robot.clickOn(mid);
        waitFor(30, () -> fx(robot, () -> {
            SimSnapshot now = panel.shownSnapshot();
            int i = now.portIndex(uplinkRef);
            return i >= 0 && now.linkDown()[i];
        }));
        robot.interact(() -> panel.setSpeedPosition(LivePanel.SPEED_MAX_POSITION));
        waitFor(60, () -> fx(robot, () -> panel.results() != null));
        SimResults r = fx(robot, () -> panel.results());
        SimSnapshot end = fx(robot, () -> panel.shownSnapshot());
        assertTrue(r.run().reroutes() >= 1, "routing reconverged after the click");
        assertTrue(end.linkDown()[end.portIndex(uplinkRef)], "the clicked link is down at the end");
        // Flows still sending when the link failed were moved by the reconvergence (flows already
        // complete keep the path they finished on).
        int moved = 0;
        for (SimResults.FlowResult fr : r.flows()) {
            if (atClick.flowProgress().get(fr.id()) < 0.9 && usersBefore.contains(String.valueOf(fr.id()))) {
                assertFalse(fr.path().contains(uplinkRef), "flow " + fr.id() + " moved off " + uplinkRef);
                assertFalse(flowsOn(end, uplinkRef).contains(String.valueOf(fr.id())));
                moved++;
            }
        }
        assertTrue(moved >= 1, "at least one flow on the link was still running and moved");
        assertEquals(r.run().flows(), r.run().flowsCompleted(), "every flow recovered and completed");
        assertFalse(fabric().linkAt(fabric().port(uplinkRef)).state() == io.fabriclab.model.LinkState.DOWN,
                "the drawing itself is not edited by a live failure");
    }

    private static List<String> flowsOn(SimSnapshot s, String portRef) {
        int i = s.portIndex(portRef);
        List<String> out = new ArrayList<>();
        for (int f = 0; f < s.flowPaths().size(); f++) {
            for (int p : s.flowPaths().get(f)) {
                if (p == i) {
                    out.add(String.valueOf(f));
                }
            }
        }
        return out;
    }

    /** Screen point 3 px right of travel from {@code from}'s end of link {@code l}, at its middle. */
    private Point2D directionPoint(FxRobot robot, Link l, Port from) {
        return fx(robot, () -> {
            Segment seg = canvas.geometry().segment(l);
            double ax = canvas.viewport().toScreenX(seg.x1());
            double ay = canvas.viewport().toScreenY(seg.y1());
            double bx = canvas.viewport().toScreenX(seg.x2());
            double by = canvas.viewport().toScreenY(seg.y2());
            if (from != l.a()) {
                double t = ax;
                ax = bx;
                bx = t;
                t = ay;
                ay = by;
                by = t;
            }
            double len = Math.hypot(bx - ax, by - ay);
            // Each direction is drawn on the right-hand side of its travel (screen y downwards).
            double nx = -(by - ay) / len;
            double ny = (bx - ax) / len;
            return canvas.localToScreen((ax + bx) / 2 + 3 * nx, (ay + by) / 2 + 3 * ny);
        });
    }

    private java.util.Set<Integer> listedFlows(FxRobot robot) {
        return fx(robot, () -> {
            java.util.Set<Integer> out = new java.util.TreeSet<>();
            for (CrossingFlows.Row r : panel.selection.flowTable.getItems()) {
                out.add(r.flow());
            }
            return out;
        });
    }

    @Test
    void clickingALinkDirectionListsTheFlowsTheSimulatorRoutesThroughItAndPickingOneHighlightsItsPath(FxRobot robot)
            throws Exception {
        fit(robot);
        robot.interact(() -> {
            panel.setScenarioFile(INCAST);
            panel.setSpeedPosition(7.3); // 20 us/s
        });
        assertFalse(fx(robot, () -> panel.clickFails.isSelected()), "a plain click selects, it does not fail a link");
        robot.clickOn("#live-play");
        waitFor(60, () -> fx(robot, () -> panel.shownSnapshot() != null
                && panel.shownSnapshot().timePs() >= 20_000_000L));
        robot.clickOn("#live-pause");
        waitFor(20, () -> fx(robot, () -> panel.session().run().state() == LiveRun.State.PAUSED));
        // The scenario's 8 senders all send to server01:nic0 (read from its flow list, not from paths).
        Port rx = fabric().port("server01:nic0");
        Link rxLink = fabric().linkAt(rx);
        Port leafEnd = rxLink.opposite(rx);
        java.util.Set<Integer> toReceiver = new java.util.TreeSet<>();
        List<io.fabriclab.workload.FlowSpec> specs = fx(robot, () -> panel.session().flows());
        for (int i = 0; i < specs.size(); i++) {
            if (specs.get(i).dst().equals("server01:nic0")) {
                toReceiver.add(i);
            }
        }
        assertEquals(8, toReceiver.size());
        // Click the leaf -> server01 side of the receiver's link: its flow list is the 8 incast flows.
        robot.clickOn(directionPoint(robot, rxLink, leafEnd));
        waitFor(20, () -> fx(robot, () -> panel.selection.flowScope.getValue() != null
                && leafEnd.ref().equals(panel.selection.flowScope.getValue().portRef())));
        assertEquals(toReceiver, listedFlows(robot));
        assertEquals(0, fx(robot, () -> panel.shownSnapshot().linkDown()[panel.shownSnapshot().portIndex(leafEnd.ref())])
                ? 1 : 0, "the click did not fail the link");
        // Every row shows the flow's published DCQCN rate and progress.
        for (CrossingFlows.Row r : fx(robot, () -> List.copyOf(panel.selection.flowTable.getItems()))) {
            SimSnapshot at = fx(robot, () -> panel.shownSnapshot());
            assertEquals(at.flowRateGbps().get(r.flow()), r.rateGbps());
            assertEquals(at.flowProgress().get(r.flow()), r.progress());
        }
        // The other side of the same link (server01 -> leaf) carries no data flow (only ACKs).
        robot.clickOn(directionPoint(robot, rxLink, rx));
        waitFor(20, () -> fx(robot, () -> rx.ref().equals(panel.selection.flowScope.getValue().portRef())));
        assertEquals(java.util.Set.of(), listedFlows(robot));
        // A spine -> leaf1 direction: after the run, its list is exactly the flows whose path in the
        // simulator's results goes through that spine port.
        Device leaf1 = leafEnd.device();
        Link spineLink = fabric().linksOf(leaf1).stream()
                .filter(l -> l.opposite(l.portOn(leaf1)).device().role() == io.fabriclab.model.DeviceRole.SPINE)
                .findFirst().orElseThrow();
        Port spineEnd = spineLink.opposite(spineLink.portOn(leaf1));
        robot.clickOn(directionPoint(robot, spineLink, spineEnd));
        waitFor(20, () -> fx(robot, () -> spineEnd.ref().equals(panel.selection.flowScope.getValue().portRef())));
        robot.interact(() -> panel.setSpeedPosition(LivePanel.SPEED_MAX_POSITION));
        robot.clickOn("#live-play");
        waitFor(90, () -> fx(robot, () -> panel.results() != null));
        SimResults r = fx(robot, () -> panel.results());
        java.util.Set<Integer> viaSpine = new java.util.TreeSet<>();
        for (SimResults.FlowResult fr : r.flows()) {
            if (fr.path().contains(spineEnd.ref())) {
                viaSpine.add(fr.id());
            }
        }
        assertFalse(viaSpine.isEmpty(), "some incast flows cross " + spineEnd.ref());
        assertTrue(viaSpine.size() < 8, "ECMP spreads the remote senders over both spines");
        assertEquals(viaSpine, listedFlows(robot));
        // Pick one by keyboard: focus the list, arrow down. It becomes the selected flow: path text,
        // the path's directions highlighted on the canvas, its rate chart.
        robot.interact(() -> panel.reveal(panel.selection.flowTable));
        robot.interact(() -> {
            panel.selection.flowTable.requestFocus();
            panel.selection.flowTable.getFocusModel().focus(-1);
        });
        robot.type(javafx.scene.input.KeyCode.DOWN);
        waitFor(20, () -> fx(robot, () -> panel.selection.flowTable.getSelectionModel().getSelectedItem() != null));
        int picked = fx(robot, () -> panel.selection.flowTable.getSelectionModel().getSelectedItem().flow());
        assertEquals(picked, fx(robot, () -> panel.model().selectedFlow.get()));
        List<String> path = r.flows().get(picked).path();
        assertTrue(path.contains(spineEnd.ref()));
        java.util.Set<Integer> want = new java.util.TreeSet<>();
        for (String ref : path) {
            Port p = fabric().port(ref);
            Link l = fabric().linkAt(p);
            want.add(fx(robot, () -> panel.frame().directions.of(l, l.a() == p)));
        }
        java.util.Set<Integer> lit = new java.util.TreeSet<>();
        boolean[] hl = fx(robot, () -> panel.frame().highlighted);
        for (int d = 0; d < hl.length; d++) {
            if (hl[d]) {
                lit.add(d);
            }
        }
        assertEquals(want, lit, "exactly the picked flow's path is highlighted");
        assertTrue(fx(robot, () -> panel.selection.flowPath.getText()).contains(String.join(" → ", path)),
                "the path text names every hop: " + fx(robot, () -> panel.selection.flowPath.getText()));
        var rateSeries = fx(robot, () -> panel.selection.charts.flowChart().getData().get(0));
        assertEquals("DCQCN rate Gb/s", rateSeries.getName());
        // The rate chart plots the picked flow's published rate over the recorded frames.
        List<SimSnapshot> rec = fx(robot, () -> panel.session().recording().frames());
        int step = Math.max(1, (rec.size() + LiveCharts.MAX_POINTS - 1) / LiveCharts.MAX_POINTS);
        // The chart's points, read in one go on the FX thread (not one FX round trip per point).
        List<Double> plotted = fx(robot, () -> rateSeries.getData().stream().map(d -> d.getYValue().doubleValue()).toList());
        assertEquals((rec.size() + step - 1) / step, plotted.size());
        for (int i = 0; i < rec.size(); i += step) {
            assertEquals(rec.get(i).flowRateGbps().get(picked), plotted.get(i / step), 1e-9);
        }
        savePng(fx(robot, () -> editor.getScene().snapshot(null)), "live-flow-pick");
        robot.interact(() -> panel.reset());
    }

    @Test
    void selectingACollectiveShowsItsStepsAndBusBandwidthSoFarItsChartAndItsRingOnTheCanvas(FxRobot robot)
            throws Exception {
        fit(robot);
        robot.interact(() -> {
            panel.model().workload.set(LiveWorkload.of(io.fabriclab.workload.WorkloadPreset.ALL_REDUCE));
            panel.model().sizeMb.set("1");
            panel.setSpeedPosition(7.3); // 20 us/s
        });
        robot.clickOn("#live-play");
        // 20 us in (1 s of wall time at this speed): the 62 ring steps take about 200 us, some 3 us each, so
        // several steps are complete and most are not.
        waitFor(60, () -> fx(robot, () -> panel.shownSnapshot() != null
                && panel.shownSnapshot().timePs() >= 20_000_000L));
        robot.interact(() -> panel.pauseRun()); // at once: the whole run lasts about 200 us
        waitFor(20, () -> fx(robot, () -> panel.session().run().state() == LiveRun.State.PAUSED));
        // The dashboard catches up with the paused instant (it refreshes five times a second).
        waitFor(20, () -> fx(robot, () -> panel.dashboard.getText().startsWith(String.format(java.util.Locale.ROOT,
                "t = %.3f µs", panel.shownSnapshot().timePs() / 1e6))));
        // The classic fabric's servers have one NIC (one GPU) each: NCCL's ring over all 32, two channels.
        assertEquals(List.of("allreduce:all-reduce"), fx(robot, () -> List.copyOf(panel.selection.collectiveSelect.getItems())));
        robot.interact(() -> panel.reveal(panel.selection.collectiveSelect));
        robot.clickOn("#live-collective");
        robot.type(javafx.scene.input.KeyCode.DOWN);
        robot.type(javafx.scene.input.KeyCode.ENTER);
        waitFor(20, () -> fx(robot, () -> "allreduce:all-reduce".equals(panel.selection.collectiveSelect.getValue())));
        SimSnapshot s = fx(robot, () -> panel.shownSnapshot());
        // By hand, nccl-tests' definitions: S = 1 MB (the size asked for), n = 32 ranks, 2 channels of
        // 500,000 B. A ring all-reduce runs 2(n-1) = 62 steps; in each, every rank sends
        // ceil(500,000/32) = 15,625 B per channel to the next: 2 x 62 x 32 flows, listed channel by
        // channel, step by step (flow c x 1984 + step x 32 + rank), 62 MB in all. Delivered so far =
        // sum of progress x 15,625 B; algbw = S x delivered / 62 MB / t (the collective starts at 0);
        // busbw = algbw x 2(n-1)/n = algbw x 62/32; a step is done when both channels have done it.
        int n = 32;
        long chunk = 15_625;
        assertEquals(2 * 62 * 32, s.flowCount());
        double delivered = 0;
        int stepsDone = 0;
        boolean allBefore = true;
        for (int step = 0; step < 62; step++) {
            boolean complete = true;
            for (int c = 0; c < 2; c++) {
                for (int rank = 0; rank < n; rank++) {
                    double p = s.flowProgress().get(c * 62 * n + step * n + rank);
                    delivered += p * chunk;
                    complete &= p >= 1.0;
                }
            }
            allBefore &= complete;
            stepsDone += allBefore ? 1 : 0;
        }
        double t = s.timePs() / 1e12;
        double algbw = 1e6 * (delivered / 62e6) / t / 1e9;
        double busbw = algbw * 62 / 32;
        assertTrue(stepsDone >= 1 && stepsDone < 62, "the ring is part way: " + stepsDone + " steps");
        String status = fx(robot, () -> panel.selection.collectiveStatus.getText());
        String want = String.format(java.util.Locale.ROOT, "(%d/62 steps), algbw %.1f, busbw so far %.1f GB/s",
                stepsDone, algbw, busbw);
        assertTrue(status.contains(want), status + " should contain " + want);
        String dashboardLine = fx(robot, () -> panel.dashboard.getText());
        assertTrue(dashboardLine.contains("allreduce:all-reduce: ") && dashboardLine.contains(want),
                "the dashboard uses the same figures: " + dashboardLine);
        CollectiveProgress p = CollectiveProgress.of(s, fx(robot, () -> panel.session().flows()), "allreduce:all-reduce",
                fx(robot, () -> panel.model().collectiveMembers()));
        assertEquals(busbw, p.busbwGBps(), 1e-9);
        assertEquals(1e6, p.sizeBytes(), 1e-6);
        // The canvas: every server's access link carries ring traffic both ways (each rank sends to
        // the next and receives from the previous), so both of its directions have the pink halo.
        io.fabriclab.diagram.CongestionFrame frame = fx(robot, () -> panel.frame());
        int servers = 0;
        for (Device d : fabric().devices()) {
            if (d.role() == io.fabriclab.model.DeviceRole.SERVER) {
                Link l = fabric().linksOf(d).iterator().next();
                assertTrue(frame.collective[frame.directions.of(l, true)] && frame.collective[frame.directions.of(l, false)],
                        d.id() + "'s link is on the ring both ways");
                servers++;
            }
        }
        assertEquals(32, servers);
        // Its chart: busbw so far at every recorded frame, by the same definitions.
        var busbwSeries = fx(robot, () -> panel.selection.charts.collectiveChart().getData().get(0));
        assertEquals("busbw so far GB/s", busbwSeries.getName());
        assertFalse(fx(robot, () -> busbwSeries.getData().isEmpty()));
        // At the end the figure so far reaches the results' busbw (nccl-tests' t ends at the last
        // arrival, the final picture a few ACKs later: within 3 %).
        robot.interact(() -> {
            panel.setSpeedPosition(LivePanel.SPEED_MAX_POSITION);
            panel.reveal(panel.play);
        });
        robot.clickOn("#live-play");
        waitFor(90, () -> fx(robot, () -> panel.results() != null));
        SimResults.CollectiveResult cr = fx(robot, () -> panel.results().collectives().get(0));
        String end = fx(robot, () -> panel.selection.collectiveStatus.getText());
        assertTrue(end.contains("(62/62 steps)"), end);
        CollectiveProgress last = CollectiveProgress.of(fx(robot, () -> panel.shownSnapshot()),
                fx(robot, () -> panel.session().flows()), "allreduce:all-reduce", fx(robot, () -> panel.model().collectiveMembers()));
        assertEquals(1.0, last.fraction(), 1e-12);
        assertEquals(cr.busbwGBps(), last.busbwGBps(), 0.03 * cr.busbwGBps(),
                "live busbw at the end vs the results' " + cr.busbwGBps());
        savePng(fx(robot, () -> editor.getScene().snapshot(null)), "live-collective");
        robot.interact(() -> panel.reset());
    }

    @Test
    void aPauseStormAppearsOnTheDashboardAndCanvasOnlyOnceTheWatchdogsDetectionTimeHasPassed(FxRobot robot,
            @TempDir Path dir) throws Exception {
        // One flow, server09 (leaf2) -> server01 (leaf1) through a spine, PFC only, priority 3.
        // server01's link is slowed to 10G, so leaf1's ingress from the spine fills and PAUSEs the
        // spine's egress toward leaf1, which then stays paused until that ingress drains to XON.
        Port rx = fabric().port("server01:nic0");
        robot.interact(() -> fabric().linkAt(rx).setSpeedGbps(10));
        Path scenario = dir.resolve("storm.json");
        Files.writeString(scenario, """
                { "schemaVersion": 1, "name": "watchdog storm", "fabric": "%s", "profile": "pfc-only",
                  "qos": { "pfc": { "xoffBytes": 100000, "xonBytes": 80000, "headroomBytes": 100000,
                                    "watchdogUs": 6, "watchdogAction": "drop" } },
                  "seed": 1, "durationUs": 0, "maxTimeUs": 5000,
                  "workloads": [ { "type": "flows", "flows": [
                      { "src": "server09:nic0", "dst": "server01:nic0", "bytes": 1000000, "priority": 3 } ] } ] }
                """.formatted(FABRIC.toAbsolutePath().toString().replace("\\", "/")));
        fit(robot);
        robot.interact(() -> {
            panel.setScenarioFile(scenario);
            panel.start(true);
        });
        waitFor(60, () -> fx(robot, () -> panel.session() != null));
        // Step to 15 us (three 5 us steps) and read the path the simulator chose: NIC, leaf2 up, spine down, leaf1 down.
        robot.interact(() -> panel.reveal(panel.stepInterval));
        robot.clickOn("#live-step");
        robot.clickOn("#live-step");
        robot.clickOn("#live-step");
        waitFor(30, () -> fx(robot, () -> panel.shownSnapshot() != null && panel.shownSnapshot().timePs() == 15_000_000L));
        SimSnapshot at15a = fx(robot, () -> panel.shownSnapshot());
        int[] path = at15a.flowPaths().get(0);
        assertEquals(4, path.length);
        String spineEgress = at15a.ports().get(path[2]);
        Link l1 = fabric().linkAt(fabric().port(at15a.ports().get(path[0])));
        Link l2 = fabric().linkAt(fabric().port(at15a.ports().get(path[1])));
        Link l3 = fabric().linkAt(fabric().port(spineEgress));
        // The instant, by hand (SIMULATION.md, docs/model.md). Frames of the 4200 B MTU are
        // 4220 B on the wire (preamble, SFD, gap): T1 = 337.6 ns at 100G, T2 = T3 = 84.4 ns at
        // 400G, T4 = 3376 ns at 10G. The NIC sends back to back (no DCQCN), leaf2 and the spine
        // forward without queueing (400G uplinks are faster than the 100G sender), cut-through with
        // their 300 ns port-to-port latency L, each delivering a frame L - T2 later than a
        // store-and-forward switch without latency would (docs/model.md, Switch port-to-port
        // latency), so frame k (from 0) is wholly in leaf1 at a_k = (k+1) T1 + p1 + T2 + p2 + T3 + p3
        // + 2 (L - T2) (p: the cables, 5 ns/m: 3 m = 15 ns, 30 m = 150 ns). leaf1 sends one frame to server01 every T4 = 10 T1
        // from a_0, and its ingress from the spine counts a frame from arrival to the start of its
        // transmission: after arrival k it holds (k + 1 - (floor(k / 10) + 1)) x 4200 B. That
        // exceeds XOFF = 100,000 B first at k = 26 (24 x 4200 = 100,800; k = 25 leaves 96,600).
        // The PAUSE (64 B + 20 on the wire, 1.68 ns at 400G; a link-level frame, no pipeline)
        // reaches the spine p3 later, at 10.182 us, and takes effect after both ends' interface delay and the spine's response
        // time (docs/model.md, PFC; at 400G 2 x 6,554 + 905 x 512 = 476,468 bit times = 1.191 us,
        // HeadroomCalculator.timing; 59,559 B rounded up): its egress toward leaf1 is paused from t_p = 11.373 us.
        // Meanwhile the spine forwards the 100G stream on, so the ingress holds about
        // 100 KB + 1.2 us x 12.5 GB/s = 115 KB and stays above XON (80 KB) for about 35 KB / 10 Gb/s
        // = 28 us more: the pause is continuous (refreshed) and the watchdog (6 us) declares the
        // storm at t_s = t_p + 6 us = 17.373 us. (With the 600 ns of the Ethernet class before issue
        // #29: 10.782, 11.973 and 17.973 us.)
        long t1 = io.fabriclab.model.Units.serializationPs(4220, 100_000_000_000L);
        long t2 = io.fabriclab.model.Units.serializationPs(4220, 400_000_000_000L);
        assertEquals(337_600, t1);
        assertEquals(84_400, t2);
        assertEquals(4200, fabric().mtuBytes());
        long a26 = 27 * t1 + l1.propagationPs() + t2 + l2.propagationPs() + t2 + l3.propagationPs()
                + 2 * (300_000 - t2);
        long pauseArrives = a26 + io.fabriclab.model.Units.serializationPs(84, 400_000_000_000L) + l3.propagationPs();
        assertEquals(10_181_880, pauseArrives);
        io.fabriclab.model.PhyTiming t400 = io.fabriclab.model.PhyTiming.of(400);
        long reaction = io.fabriclab.model.Units.serializationPs(
                // bits rounded up to whole bytes, as the simulator does (Simulator.pfcReactionPs)
                (2 * t400.interfaceDelayBits() + t400.responseQuanta() * 512L + 7) / 8, 400_000_000_000L);
        long pauseStart = pauseArrives + reaction;
        long storm = pauseStart + 6_000_000L;
        assertTrue(pauseStart < 15_000_000L && storm > 15_000_000L && storm + 6_000_000L > 20_000_000L,
                "t_p " + pauseStart + ", t_s " + storm);
        // At 15 us (after t_p, before t_s): the spine's egress is paused, not stormed; the
        // dashboard counts it under "Paused now" and shows no storm.
        int spine = at15a.portIndex(spineEgress);
        assertTrue(at15a.pausedMask()[spine] != 0, "paused at 15 us");
        assertEquals(0, at15a.stormedMask()[spine]);
        waitFor(20, () -> fx(robot, () -> panel.dashboard.getText().startsWith("t = 15.000 µs")));
        String dash15a = fx(robot, () -> panel.dashboard.getText());
        assertTrue(dash15a.contains("Paused now: 1 direction(s)") && dash15a.contains(spineEgress), dash15a);
        assertTrue(dash15a.contains("Pause storms (PFC watchdog): 0 now, 0 declared since the start"), dash15a);
        assertFalse(fx(robot, () -> panel.frame().stormed[panel.frame().directions.of(l3, l3.a().ref().equals(spineEgress))]));
        // Event by event from 15 us: no picture shows the storm before t_s, and the first that does
        // is the one at t_s exactly (the watchdog's check is an event at that instant).
        LiveRun run = fx(robot, () -> panel.session().run());
        SimSnapshot x;
        int events = 0;
        do {
            run.stepEvent().get(30, TimeUnit.SECONDS);
            x = run.latest();
            assertTrue(x.timePs() <= storm, "the storm was not declared at " + x.timePs() + " ps");
            events++;
        } while (x.stormedMask()[spine] == 0);
        assertEquals(storm, x.timePs(), "the storm appears at t_s (after " + events + " events)");
        // At 20 us (after t_s, before the watchdog's next check at t_s + 6 us could end it): stormed.
        robot.interact(() -> panel.reveal(panel.stepInterval));
        robot.clickOn("#live-step");
        waitFor(30, () -> fx(robot, () -> panel.shownSnapshot().timePs() == 20_000_000L));
        SimSnapshot at15 = fx(robot, () -> panel.shownSnapshot());
        assertEquals(1 << 3, at15.stormedMask()[spine], "priority 3 of " + spineEgress + " stormed");
        assertEquals(1, at15.totalStorms());
        waitFor(20, () -> fx(robot, () -> panel.dashboard.getText().startsWith("t = 20.000 µs")));
        String dash15 = fx(robot, () -> panel.dashboard.getText());
        assertTrue(dash15.contains("Pause storms (PFC watchdog): 1 now, 1 declared since the start"), dash15);
        assertTrue(dash15.contains(spineEgress) && dash15.contains("STORM on priority 3"), dash15);
        // "Paused now" stays its own figure: the stormed queue ignores the pause, so it is not in it.
        assertTrue(dash15.contains("Paused now: 0 direction(s)"), dash15);
        int stormDir = fx(robot, () -> panel.frame().directions.of(l3, l3.a().ref().equals(spineEgress)));
        assertTrue(fx(robot, () -> panel.frame().stormed[stormDir]));
        // The canvas draws the storm in its own colour near that link (and the legend explains it).
        WritableImage shot = fx(robot, () -> {
            canvas.redraw();
            return canvas.canvas().snapshot(null, null);
        });
        savePng(shot, "live-storm-watchdog");
        int orange = pixelsNear(shot.getPixelReader(), l3, DiagramStyle.PFC_STORM, (int) shot.getWidth(),
                (int) shot.getHeight());
        assertTrue(orange > 10, "storm-coloured pixels near " + l3.id() + ": " + orange);
        robot.interact(() -> panel.reset());
    }

    @Test
    void cnpsAreDrawnTravellingBackFromTheReceiverToTheSendersTheyThrottle(FxRobot robot) throws Exception {
        fit(robot);
        robot.interact(() -> {
            panel.model().profile.set("production-ecn"); // ECN marks and DCQCN: CNPs
            panel.setSpeedPosition(7.3);
        });
        robot.clickOn("#live-play");
        waitFor(60, () -> fx(robot, () -> {
            io.fabriclab.diagram.CongestionFrame f = panel.frame();
            if (f == null) {
                return false;
            }
            for (double v : f.cnpsPerUs) {
                if (v > 0) {
                    return true;
                }
            }
            return false;
        }));
        robot.interact(() -> panel.pauseRun());
        waitFor(20, () -> fx(robot, () -> panel.session().run().state() == LiveRun.State.PAUSED));
        // Two recorded pictures with CNPs sent between them.
        List<SimSnapshot> rec = fx(robot, () -> panel.session().recording().frames());
        SimSnapshot a = null;
        SimSnapshot b = null;
        for (int i = 1; i < rec.size() && b == null; i++) {
            if (rec.get(i).totalCnps() > rec.get(i - 1).totalCnps()) {
                a = rec.get(i - 1);
                b = rec.get(i);
            }
        }
        assertNotNull(b, "CNPs were sent between two pictures");
        io.fabriclab.diagram.CongestionFrame f = new FrameBuilder(fabric()).frame(b, a,
                CongestionPainter.ColourBy.QUEUE, -1, 0);
        double dtUs = (b.timePs() - a.timePs()) / 1e6;
        // Every CNP is sent by the incast receiver's NIC (its own counter, per NIC port): the
        // receiver's uplink direction carries exactly those, and the data direction toward it none.
        Port rx = fabric().port(io.fabriclab.workload.Nics.all(fabric()).get(0));
        Link rxLink = fabric().linkAt(rx);
        int up = f.directions.of(rxLink, rxLink.a() == rx);
        int down = f.directions.of(rxLink, rxLink.a() != rx);
        int rxIndex = b.portIndex(rx.ref());
        long sent = b.cnpsTotal()[rxIndex] - a.cnpsTotal()[rxIndex];
        assertTrue(sent > 0);
        assertEquals(sent, f.cnpsPerUs[up] * dtUs, 1e-6, "CNPs on the receiver's uplink");
        assertEquals(0, f.cnpsPerUs[down], "no CNP runs toward the receiver");
        // Each CNP ends on the access link down to its flow's sender: summed over the senders'
        // downlinks, the same count arrives.
        double atSenders = 0;
        for (io.fabriclab.workload.FlowSpec spec : fx(robot, () -> panel.session().flows())) {
            Port tx = fabric().port(spec.src());
            Link l = fabric().linkAt(tx);
            atSenders += f.cnpsPerUs[f.directions.of(l, l.a() != tx)] * dtUs;
        }
        assertEquals(sent, atSenders, 1e-6, "CNPs reaching the senders' links");
        robot.interact(() -> panel.reset());
    }

    @Test
    void underPerPacketRoutingTheFlowListSaysAFlowsPathIsOneOfSeveral(FxRobot robot, @TempDir Path dir)
            throws Exception {
        Path spray = dir.resolve("spray.json");
        Files.writeString(spray, """
                { "schemaVersion": 1, "name": "spray", "fabric": "%s", "routing": { "mode": "spray" },
                  "workloads": [ { "type": "flows", "flows": [
                      { "src": "server09:nic0", "dst": "server01:nic0", "bytes": 100000 } ] } ] }
                """.formatted(FABRIC.toAbsolutePath().toString().replace("\\", "/")));
        assertFalse(fx(robot, () -> panel.selection.flowNote.isVisible()));
        robot.interact(() -> {
            panel.setScenarioFile(spray);
            panel.start(true);
        });
        waitFor(60, () -> fx(robot, () -> panel.session() != null));
        assertTrue(fx(robot, () -> panel.selection.flowNote.isVisible()));
        assertTrue(fx(robot, () -> panel.selection.flowNote.getText()).startsWith("Routing spray is per packet"));
        // An ECMP run clears the note.
        robot.interact(() -> {
            panel.model().workload.set(LiveWorkload.of(io.fabriclab.workload.WorkloadPreset.INCAST));
            panel.start(true);
        });
        waitFor(60, () -> fx(robot, () -> panel.session() != null));
        assertFalse(fx(robot, () -> panel.selection.flowNote.isVisible()));
        robot.interact(() -> panel.reset());
    }

    @Test
    void changingKminDuringARunChangesTheMarkingCount(FxRobot robot) throws Exception {
        fit(robot);
        robot.interact(() -> panel.start(true));
        // Let the incast build its queue: 10 interval steps of 5 us.
        robot.interact(() -> panel.reveal(panel.stepInterval));
        for (int i = 0; i < 10; i++) {
            robot.clickOn("#live-step");
        }
        savePng(fx(robot, () -> editor.getScene().snapshot(null)), "live-kmin-scene");
        waitFor(30, () -> fx(robot, () -> panel.shownSnapshot() != null
                && panel.shownSnapshot().timePs() >= 50_000_000L));
        String port = receiverEgress();
        // Kmin 5 MB: out of reach, marking stops on that port.
        setThresholds(robot, port, "5000", "6000", "1");
        waitFor(20, () -> fx(robot, () -> panel.thresholdStatus.getText().contains("in force")));
        long m0 = marksAt(robot, port);
        robot.interact(() -> panel.reveal(panel.stepInterval));
        for (int i = 0; i < 4; i++) {
            robot.clickOn("#live-step");
        }
        waitFor(30, () -> fx(robot, () -> panel.shownSnapshot().timePs() >= 70_000_000L));
        long m1 = marksAt(robot, port);
        assertEquals(m0, m1, "no marks while Kmin is above the queue");
        assertTrue(fx(robot, () -> panel.shownSnapshot().queueBytes()[panel.shownSnapshot().portIndex(port)]) > 20_000,
                "the receiver port is congested");
        // Kmin 1 KB, Kmax 2 KB, Pmax 1: every frame leaving the congested queue is marked.
        setThresholds(robot, port, "1", "2", "1");
        waitFor(20, () -> fx(robot, () -> panel.thresholdStatus.getText().contains("ECN 1/2")
                && panel.thresholdStatus.getText().contains("in force")));
        robot.interact(() -> panel.reveal(panel.stepInterval));
        for (int i = 0; i < 2; i++) {
            robot.clickOn("#live-step");
        }
        waitFor(30, () -> fx(robot, () -> panel.shownSnapshot().timePs() >= 80_000_000L));
        long m2 = marksAt(robot, port);
        // 10 us at 100G with full frames back to back is about 29 dequeues, each marked.
        assertTrue(m2 - m1 >= 20, "marks after lowering Kmin: " + (m2 - m1));
        assertEquals(1_000, fx(robot, () -> panel.shownSnapshot().thresholds()
                .get(panel.shownSnapshot().portIndex(port)).ecn().kminBytes()));
        robot.interact(() -> panel.reset());
    }

    /** The receiver leaf's egress toward the incast receiver (the preset's receiver is the first server). */
    private String receiverEgress() {
        Port rx = fabric().port(io.fabriclab.workload.Nics.all(fabric()).get(0));
        return fabric().linkAt(rx).opposite(rx).ref();
    }

    private long marksAt(FxRobot robot, String port) {
        return fx(robot, () -> {
            SimSnapshot s = panel.shownSnapshot();
            return s.ecnMarksTotal()[s.portIndex(port)];
        });
    }

    private void setThresholds(FxRobot robot, String port, String kmin, String kmax, String pmax) {
        robot.interact(() -> {
            panel.thresholdTarget.getEditor().setText(port);
            panel.kminKb.setText(kmin);
            panel.kmaxKb.setText(kmax);
            panel.pmax.setText(pmax);
        });
        robot.interact(() -> panel.reveal(panel.applyEcn));
        robot.clickOn("#live-apply-ecn");
    }

    @Test
    void aSavedRunReopensAndReplaysItsFrames(FxRobot robot, @TempDir Path dir) throws Exception {
        fit(robot);
        robot.interact(() -> panel.setScenarioFile(INCAST));
        // Ten pictures 5 us apart, stepped and each shown (so recorded) before the next step: the
        // recording holds them however fast the machine (unthrottled, a fast one could finish the run
        // in a few frames; paced at 1 ms/s the ~1.3 ms run drew some 80 frames, 2.5 s of CPU). Then
        // Play at full speed runs it to its end, which saves the results with the frames.
        for (int k = 1; k <= 10; k++) {
            long want = k * 5_000_000L;
            robot.interact(() -> panel.step(false));
            waitFor(60, () -> fx(robot, () -> panel.shownSnapshot() != null && panel.shownSnapshot().timePs() == want));
        }
        robot.interact(() -> panel.setSpeedPosition(LivePanel.SPEED_MAX_POSITION));
        robot.clickOn("#live-play");
        waitFor(90, () -> fx(robot, () -> panel.results() != null));
        Path file = dir.resolve("incast" + RunRecording.EXTENSION);
        AtomicReference<java.util.concurrent.CompletableFuture<Void>> saved = new AtomicReference<>();
        robot.interact(() -> saved.set(panel.saveRun(file)));
        saved.get().get(60, TimeUnit.SECONDS);
        assertTrue(Files.size(file) > 0);
        List<SimSnapshot> recorded = fx(robot, () -> panel.session().recording().frames());
        assertTrue(recorded.size() >= 10, "frames recorded: " + recorded.size());
        java.util.Set<Long> recordedAt = new java.util.HashSet<>();
        recorded.forEach(f -> recordedAt.add(f.timePs()));
        for (int k = 1; k <= 10; k++) {
            assertTrue(recordedAt.contains(k * 5_000_000L), "the picture stepped to " + (5 * k) + " us was recorded");
        }
        ReplayWindow w = fx(robot, () -> ReplayWindow.open(file, m -> { })).get(60, TimeUnit.SECONDS);
        assertNotNull(w);
        ReplayWindow.RunView v = w.views().get(0);
        assertEquals(recorded.size(), v.saved().frames().size());
        assertNotNull(v.saved().results(), "the results are saved with the frames");
        assertEquals(fx(robot, () -> panel.results().summary().pauseFramesSent()).longValue(),
                v.saved().results().path("summary").path("pauseFramesSent").asLong());
        // Scrub to a middle frame: the replay shows exactly that recorded frame.
        SimSnapshot middle = recorded.get(recorded.size() / 2);
        robot.interact(() -> w.timeline().setValue(middle.timePs() / 1e6));
        SimSnapshot shown = fx(robot, () -> v.shown());
        assertEquals(middle.timePs(), shown.timePs());
        assertEquals(middle.totalPauseFrames(), shown.totalPauseFrames());
        assertEquals(java.util.Arrays.toString(middle.queueBytes()), java.util.Arrays.toString(shown.queueBytes()));
        // Its canvas draws the frame with the same marks as live: paused directions where the frame has them.
        int paused = 0;
        for (int p : shown.pausedMask()) {
            paused += p != 0 ? 1 : 0;
        }
        int drawnPaused = 0;
        for (boolean b : v.frame().paused) {
            drawnPaused += b ? 1 : 0;
        }
        assertEquals(paused, drawnPaused);
        robot.interact(() -> v.getScene().getWindow().hide());
    }

    @Test
    void aSimulatorErrorShowsItsCauseAndTheWindowStaysResponsive(FxRobot robot) throws Exception {
        AtomicReference<Throwable> reported = new AtomicReference<>();
        robot.interact(() -> {
            panel.setErrorHandler(reported::set);
            panel.start(true);
        });
        waitFor(60, () -> fx(robot, () -> panel.session() != null));
        robot.interact(() -> panel.session().run().submit(c -> {
            throw new IllegalStateException("injected engine failure");
        }));
        waitFor(20, () -> reported.get() != null);
        assertEquals("injected engine failure", reported.get().getMessage());
        assertTrue(fx(robot, () -> panel.status.getText()).contains("injected engine failure"));
        assertEquals(LiveRun.State.FAILED, fx(robot, () -> panel.session().run().state()));
        // The FX thread is free: a new run starts and steps.
        robot.interact(() -> panel.start(true));
        robot.clickOn("#live-step");
        waitFor(20, () -> fx(robot, () -> panel.shownSnapshot() != null && panel.shownSnapshot().timePs() > 0));
        robot.interact(() -> panel.reset());
    }
}
