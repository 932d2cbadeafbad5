package io.fabriclab.ui.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.fabriclab.diagram.CongestionFrame;
import io.fabriclab.diagram.CongestionPainter;
import io.fabriclab.diagram.DiagramGeometry;
import io.fabriclab.diagram.DiagramStyle;
import io.fabriclab.diagram.FabricPainter;
import io.fabriclab.diagram.RecordingPainter;
import io.fabriclab.diagram.TieredLayout;
import io.fabriclab.diagram.Viewport;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.ScaleUp;
import io.fabriclab.report.TransportRuns;
import io.fabriclab.sim.QosResolver;
import io.fabriclab.sim.SimConfig;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.SimSnapshot;
import io.fabriclab.sim.Simulator;
import io.fabriclab.sim.StepAnalysis;
import io.fabriclab.sim.TestFabrics;
import io.fabriclab.model.Transport;
import io.fabriclab.workload.FlowSpec;
import io.fabriclab.workload.TrainingJob;
import io.fabriclab.workload.WorkloadPreset;

/**
 * A training step in the live view without widgets: the session builds the job's tasks on its
 * copy of the fabric and keeps the network flows alone as its flows (their place is their
 * snapshot id), runs to the end and analyses the step as {@code fabriclab simulate} does; the
 * frames carry each server's NVLink utilisation between two pictures, and the painter draws the
 * NVLink mark inside the server boxes (and its legend row) only where NVLink was busy.
 */
class LiveTrainingTest {
    /** Two servers of four H100s (450 GB/s NVLink each way per GPU), one 400G NIC per GPU on four rails. */
    static Fabric fabric() {
        Fabric f = TestFabrics.railStar(2, 4, 400, 1.0, null, ScaleUp.DEFAULT, false);
        new TieredLayout().placeMissing(f, f.layout());
        return f;
    }

    /** TP 4 inside each server (NVLink), DP 2 across them (network), 10 M parameters: 10 MB of gradients per GPU. */
    static TrainingJob tinyJob() {
        TrainingJob.Model m = new TrainingJob.Model("tiny", 10_000_000, 10_000_000, 0, 4, 256, 256, 8, 1, 0, 0);
        return new TrainingJob("tiny", m, 4, 1, 2, 1, 0, 20, true, 5_000_000, false, 4);
    }

    @Test
    void theSessionBuildsTheStepAndKeepsOnlyNetworkFlowsAsItsFlows() throws Exception {
        Fabric drawn = fabric();
        TrainingJob job = tinyJob();
        RunSettings settings = RunSettings.incast().withTraining(job);
        assertNull(settings.preset());
        assertTrue(settings.describe().startsWith("training step of tiny: tp 4, pp 1, dp 2"), settings.describe());
        LiveSession s = LiveSession.create(drawn, settings);
        assertNotNull(s.training());
        List<FlowSpec> all = job.build(drawn).tasks();
        List<FlowSpec> network = all.stream().filter(FlowSpec::network).toList();
        assertEquals(all, s.training().tasks(), "every task of the step, in order");
        assertEquals(network, s.flows(), "the network flows alone, in order (their place is their flow id)");
        assertTrue(all.stream().anyMatch(t -> t.kind() == FlowSpec.Kind.NVLINK), "TP all-reduces over NVLink");
        assertTrue(all.stream().anyMatch(t -> t.kind() == FlowSpec.Kind.COMPUTE), "compute intervals");
        // Ten times the step's compute, at least the default second, as simulate --workload training allows.
        assertEquals(Math.max(SimConfig.defaults().maxTimePs(), 10 * job.computePsPerStep()), s.endPs());

        s.run().start(false);
        SimResults r = s.run().result().get(120, TimeUnit.SECONDS);
        assertNull(s.training().text(), "no analysis before it is asked for at the end");
        StepAnalysis.Result a = s.training().analyse(r);
        assertTrue(a.completed());
        // The same analysis as the simulator's run of the same tasks outside the live view.
        StepAnalysis.Result alone = StepAnalysis.of(all, job.name(), runAlone(drawn, all), job.tokensPerStep(),
                job.build(drawn).collectives());
        assertEquals(alone.stepPs(), a.stepPs());
        assertEquals(alone.exposedCommPs(), a.exposedCommPs());
        assertTrue(a.stepPs() >= job.computePsPerStep(), "step " + a.stepPs() + " >= compute " + job.computePsPerStep());
        String text = s.training().text();
        assertTrue(text.startsWith("training step of tiny: tp 4, pp 1, dp 2, ep 1, 4 micro-batches"), text);
        assertTrue(text.contains("exposed communication") && text.contains("tokens/s") && text.contains("critical path"),
                text);
        assertTrue(s.training().headline().startsWith(String.format(java.util.Locale.ROOT, "training step %.3f ms",
                a.stepPs() / 1e9)), s.training().headline());
        // The job's collectives are the step analysis's, not the results' collective list.
        assertTrue(r.collectives().isEmpty(), r.collectives().toString());
    }

    private static SimResults runAlone(Fabric drawn, List<FlowSpec> tasks) {
        Fabric copy = drawn.copy();
        Simulator sim = TransportRuns.simulator(copy, tasks, SimConfig.defaults().withMaxTimePs(
                Math.max(SimConfig.defaults().maxTimePs(), 10 * tinyJob().computePsPerStep())), QosResolver.of(copy),
                Transport.ROCEV2);
        return sim.run();
    }

    @Test
    void aJobThatDoesNotFitTheFabricIsRefusedNamingTheField() {
        TrainingJob.Model m = new TrainingJob.Model("tiny", 10_000_000, 10_000_000, 0, 4, 256, 256, 8, 1, 0, 0);
        TrainingJob tooMany = new TrainingJob("tiny", m, 4, 1, 4, 1, 0, 20, true, 5_000_000, false, 4);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LiveSession.create(fabric(), RunSettings.incast().withTraining(tooMany)));
        assertTrue(e.getMessage().startsWith("Training step: parallelism: tp x pp x dp = 4 x 1 x 4 = 16 GPUs"),
                e.getMessage());
    }

    @Test
    void nvlinkUtilisationIsTheBytesSentOverTheServersBandwidthBetweenTwoPictures() {
        Fabric f = fabric();
        FrameBuilder frames = new FrameBuilder(f);
        CongestionFrame frame = new CongestionFrame(2_000_000, frames.directions());
        // s0's 4 GPUs x 0.45 B/ps x 1 us = 1.8 MB possible; it sent 0.9 MB in the gap, s1 nothing.
        SimSnapshot.ScaleUpActivity before = new SimSnapshot.ScaleUpActivity(List.of("s0", "s1"),
                new long[] {100_000, 50_000});
        SimSnapshot.ScaleUpActivity now = new SimSnapshot.ScaleUpActivity(List.of("s0", "s1"),
                new long[] {1_000_000, 50_000});
        frames.scaleUp(frame, now, before, 1_000_000);
        assertEquals(0.5, frame.scaleUpBusy.get("s0"), 1e-12);
        assertEquals(0.0, frame.scaleUpBusy.get("s1"), 1e-12);
        // Since the start (no earlier picture): 1 MB over 2 us of 1.8 MB/us.
        CongestionFrame first = new CongestionFrame(2_000_000, frames.directions());
        frames.scaleUp(first, now, null, 2_000_000);
        assertEquals(1_000_000 / 3_600_000.0, first.scaleUpBusy.get("s0"), 1e-12);
        // A server the drawn fabric does not have is skipped; no activity at all: nothing.
        CongestionFrame other = new CongestionFrame(0, frames.directions());
        frames.scaleUp(other, new SimSnapshot.ScaleUpActivity(List.of("elsewhere"), new long[] {5}), null, 1_000_000);
        frames.scaleUp(other, null, null, 1_000_000);
        assertTrue(other.scaleUpBusy.isEmpty());
    }

    @Test
    void theNvlinkMarkIsInAFrameWhenScaleUpShowsActivityAndNotOtherwise() {
        Fabric f = fabric();
        List<FlowSpec> tasks = tinyJob().build(f).tasks();
        Fabric copy = f.copy();
        Simulator sim = TransportRuns.simulator(copy, tasks, SimConfig.defaults(), QosResolver.of(copy), Transport.ROCEV2);
        List<SimSnapshot> shots = new ArrayList<>();
        sim.setSnapshotSink(shots::add, 5_000_000L);
        sim.run();
        FrameBuilder frames = new FrameBuilder(f);
        CongestionPainter painter = new CongestionPainter(new DiagramStyle());
        DiagramGeometry g = new DiagramGeometry(f, f.layout(), new DiagramStyle());
        Viewport vp = new Viewport();
        int busyFrames = 0;
        int marked = 0;
        for (int i = 1; i < shots.size(); i++) {
            SimSnapshot s = shots.get(i);
            assertNotNull(s.scaleUp(), "a run with NVLink transfers publishes its activity");
            CongestionFrame frame = frames.frame(s, shots.get(i - 1), CongestionPainter.ColourBy.QUEUE, -1, 0);
            double busiest = frame.scaleUpBusy.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
            RecordingPainter p = new RecordingPainter();
            CongestionPainter.Stats st = painter.paint(p, g, Map.of(), vp, 4000, 3000, frame, 0,
                    CongestionPainter.ColourBy.QUEUE, CongestionPainter.Legend.NONE);
            long busy = frame.scaleUpBusy.values().stream().filter(u -> u >= CongestionPainter.SCALE_UP_IDLE).count();
            assertEquals(busy, st.scaleUpDrawn(), "one mark per busy server at " + s.timePs());
            if (busiest >= CongestionPainter.SCALE_UP_IDLE) {
                busyFrames++;
                marked += st.scaleUpDrawn();
                assertTrue(busiest <= 1.0);
            }
        }
        assertTrue(busyFrames > 0, "some picture caught the TP all-reduces on NVLink");
        assertTrue(marked > 0);
        // A run without NVLink (an incast between NICs) has no activity and no mark.
        Fabric c2 = f.copy();
        List<FlowSpec> incast = WorkloadPreset.INCAST.flows(c2, 1_000_000, 3, 1);
        Simulator net = TransportRuns.simulator(c2, incast, SimConfig.defaults(), QosResolver.of(c2), Transport.ROCEV2);
        List<SimSnapshot> plain = new ArrayList<>();
        net.setSnapshotSink(plain::add, 5_000_000L);
        net.run();
        SimSnapshot last = plain.get(plain.size() - 1);
        assertNull(last.scaleUp());
        CongestionFrame quiet = frames.frame(last, plain.get(plain.size() - 2), CongestionPainter.ColourBy.QUEUE, -1, 0);
        assertTrue(quiet.scaleUpBusy.isEmpty());
        assertEquals(0, painter.paint(new RecordingPainter(), g, Map.of(), vp, 4000, 3000, quiet, 0,
                CongestionPainter.ColourBy.QUEUE, CongestionPainter.Legend.NONE).scaleUpDrawn());
    }

    @Test
    void aFoldedGroupShowsTheMeanOfItsServersAndTheLiveLegendNamesTheMark() {
        Fabric f = fabric();
        DiagramGeometry g = new DiagramGeometry(f, f.layout(), new DiagramStyle());
        FrameBuilder frames = new FrameBuilder(f);
        CongestionFrame frame = new CongestionFrame(0, frames.directions());
        frame.scaleUpBusy.put("s0", 0.6);
        frame.scaleUpBusy.put("s1", 0.0);
        FabricPainter fp = new FabricPainter(new DiagramStyle());
        Map<io.fabriclab.model.Device, io.fabriclab.diagram.FoldGroup> folded = fp.foldGroups(g, 0.05,
                FabricPainter.FoldMode.ALWAYS);
        assertFalse(folded.isEmpty());
        CongestionPainter painter = new CongestionPainter(new DiagramStyle());
        CongestionPainter.Stats st = painter.paint(new RecordingPainter(), g, folded, new Viewport(), 4000, 3000, frame,
                0, CongestionPainter.ColourBy.QUEUE, CongestionPainter.Legend.NONE);
        assertEquals(1, st.scaleUpDrawn(), "the two servers' group: one mark at their mean (30 %)");
        RecordingPainter legend = new RecordingPainter();
        painter.paintLegendAt(legend, 0, 0, CongestionPainter.ColourBy.QUEUE, true);
        assertTrue(legend.texts().contains(CongestionPainter.NVLINK_BUSY), legend.texts().toString());
        RecordingPainter results = new RecordingPainter();
        painter.paintLegendAt(results, 0, 0, CongestionPainter.ColourBy.QUEUE, false);
        assertFalse(results.texts().contains(CongestionPainter.NVLINK_BUSY), "a results picture has no NVLink figures");
    }
}
