package io.fabriclab.ui.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.fabriclab.io.FabricJson;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Transport;
import io.fabriclab.sim.SimResults;
import io.fabriclab.ui.FabricDocument;
import io.fabriclab.ui.FabricEditor;
import io.fabriclab.workload.WorkloadPreset;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * The live view's transport: the run panel's choice is what the session's simulator runs (a preset
 * or a scenario file, whose own transport gives way to it), the status says it, and a saved run is
 * labelled with its transport in the Compare Runs window.
 */
@ExtendWith(ApplicationExtension.class)
class LiveTransportTest {
    private static final Path UEC_SCENARIO = Path.of("resources/scenarios/incast-ultra-ethernet.json");
    private FabricEditor editor;
    private LivePanel panel;

    @Start
    void start(Stage stage) throws Exception {
        editor = new FabricEditor(new FabricDocument(
                FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json")), null));
        stage.setScene(new Scene(editor, 1200, 780));
        stage.show();
        editor.showLiveView(true);
        panel = LivePanel.of(editor);
    }

    @org.junit.jupiter.api.AfterEach
    void dispose(FxRobot robot) {
        robot.interact(() -> editor.showLiveView(false));
    }

    @Test
    void anInfiniBandRunFromThePanelRunsInfiniBandAndSaysSo(FxRobot robot) throws Exception {
        AtomicReference<LiveSession> before = new AtomicReference<>();
        robot.interact(() -> {
            assertEquals(Transport.ROCEV2, panel.transport.getValue(), "RoCEv2 by default");
            before.set(panel.session());
            panel.model().workload.set(LiveWorkload.of(WorkloadPreset.INCAST));
            panel.model().sizeMb.set("0.2");
            panel.model().fanIn.set("4");
            panel.transport.setValue(Transport.INFINIBAND);
            assertEquals(Transport.INFINIBAND, panel.model().settings().transport());
            panel.setSpeedPosition(LivePanel.SPEED_MAX_POSITION);
            panel.play();
        });
        WaitForAsyncUtils.waitFor(120, TimeUnit.SECONDS, () -> panel.session() != null
                && panel.session() != before.get() && panel.session().run().result().isDone());
        WaitForAsyncUtils.waitForFxEvents();
        LiveSession s = panel.session();
        // The simulator the session built runs InfiniBand with its parameters: IBTA's 4096 B MTU on
        // the fabric's 9000 B Ethernet MTU, the default VL buffer.
        assertEquals(Transport.INFINIBAND, s.transport());
        assertNotNull(s.transportProfile().ib());
        assertEquals(4096, s.transportProfile().ib().mtuBytes());
        SimResults r = s.run().result().get();
        // Credits, never PFC: no PAUSE frame, and InfiniBand's credit results are there.
        assertEquals(0, r.summary().pauseFramesSent());
        assertTrue(!r.credits().isEmpty(), "credit results of an InfiniBand run");
        assertEquals(4, r.run().flowsCompleted());
        String[] status = new String[1];
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> {
            robot.interact(() -> status[0] = panel.model().status());
            return status[0].startsWith("Completed: ");
        });
        assertTrue(status[0].contains("(InfiniBand)") && status[0].contains("credit-stalled"), status[0]);
        assertTrue(s.title().contains("InfiniBand"), "the recording's title names the transport: " + s.title());
        // The legend names the mark what it is on InfiniBand.
        robot.interact(() -> assertEquals("credit-stalled (no credits from the peer)", panel.pausedLegend()));
        // A saved run of it is labelled InfiniBand in Compare Runs.
        String saved = s.resultsJson(r);
        assertEquals("InfiniBand", ReplayWindow.RunView.transport(new ObjectMapper().readTree(saved)));
    }

    @Test
    void aScenarioFileRunsUnderThePanelsTransportAndChoosingItShowsItsOwn(FxRobot robot) throws Exception {
        Fabric drawn = FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json"));
        RunSettings s = RunSettings.incast().withScenario(UEC_SCENARIO);
        // The file names ultra-ethernet; the panel's transport replaces it, as `fabriclab compare` does.
        LiveSession roce = LiveSession.create(drawn, s.withTransport(Transport.ROCEV2));
        assertEquals(Transport.ROCEV2, roce.transport());
        assertNull(roce.transportProfile().uec());
        LiveSession uec = LiveSession.create(drawn, s.withTransport(Transport.ULTRA_ETHERNET));
        assertEquals(Transport.ULTRA_ETHERNET, uec.transport());
        assertNotNull(uec.transportProfile().uec());
        // A preset under Ultra Ethernet too.
        LiveSession preset = LiveSession.create(drawn, RunSettings.incast().withBytes(100_000)
                .withTransport(Transport.ULTRA_ETHERNET));
        assertEquals(Transport.ULTRA_ETHERNET, preset.transport());
        assertTrue(preset.title().contains("Ultra Ethernet"), preset.title());
        // Choosing the file in the panel sets the transport it names.
        assertEquals(Optional.of(Transport.ULTRA_ETHERNET), LiveViewModel.scenarioTransport(UEC_SCENARIO));
        assertEquals(Optional.empty(), LiveViewModel.scenarioTransport(Path.of("resources/scenarios/collective-alone.json")));
        robot.interact(() -> {
            panel.model().workload.set(LiveWorkload.file(UEC_SCENARIO));
            assertEquals(Transport.ULTRA_ETHERNET, panel.transport.getValue());
        });
    }

    @Test
    void compareRunsLabelsEachRunWithItsTransport() throws Exception {
        ObjectMapper m = new ObjectMapper();
        assertEquals("RoCEv2", ReplayWindow.RunView.transport(m.readTree("{\"run\": {}, \"credits\": []}")));
        assertEquals("InfiniBand", ReplayWindow.RunView.transport(m.readTree("{\"credits\": [{\"port\": \"a\"}]}")));
        assertEquals("Ultra Ethernet", ReplayWindow.RunView.transport(m.readTree("{\"ultraEthernet\": {}}")));
        assertNull(ReplayWindow.RunView.transport(null), "a run saved before it ended has no results");
    }

    /**
     * What the canvas draws with the pause mark follows the transport: PFC pauses on RoCEv2, credit
     * stalls on InfiniBand (no PFC at all), trimming on Ultra Ethernet, each read from the snapshot
     * (SimSnapshot.creditStalledMask, trimmedTotal).
     */
    @Test
    void thePauseMarkShowsCreditStallsOnInfiniBandAndTrimmingOnUltraEthernet() throws Exception {
        Fabric drawn = FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json"));
        for (Transport t : List.of(Transport.INFINIBAND, Transport.ULTRA_ETHERNET)) {
            // 8 senders x 2 MB into one NIC: the receiver's leaf port is the bottleneck.
            Fabric copy = drawn.copy();
            if (t == Transport.ULTRA_ETHERNET) {
                // A switch trims what its buffer would drop: a 256 KiB pool (one queue up to
                // 128 KiB) cannot hold the incast's first windows, where the example's deep
                // buffer would hold the whole incast.
                for (io.fabriclab.model.QosProfile q : List.copyOf(copy.qosProfiles().values())) {
                    copy.putQosProfile(q.withBuffer(new io.fabriclab.model.BufferConfig(256 * 1024,
                            io.fabriclab.model.BufferConfig.ThresholdMode.DYNAMIC, 0, 1.0, 0)));
                }
            }
            List<io.fabriclab.workload.FlowSpec> flows = WorkloadPreset.INCAST.flows(copy, 2_000_000, 8, 1);
            io.fabriclab.sim.Simulator sim = io.fabriclab.report.TransportRuns.simulator(copy, flows,
                    io.fabriclab.sim.SimConfig.defaults(), io.fabriclab.sim.QosResolver.of(copy), t);
            List<io.fabriclab.sim.SimSnapshot> shots = new java.util.ArrayList<>();
            sim.setSnapshotSink(shots::add, 5_000_000L);
            SimResults r = sim.run();
            assertEquals(8, r.run().flowsCompleted(), t + ": every sender completed");
            FrameBuilder frames = new FrameBuilder(copy);
            int marked = 0;
            int stalled = 0;
            long trimmed = 0;
            for (int i = 0; i < shots.size(); i++) {
                io.fabriclab.sim.SimSnapshot s = shots.get(i);
                assertTrue(java.util.Arrays.stream(s.pausedMask()).allMatch(m -> m == 0), t + ": never a PFC pause");
                stalled += (int) java.util.Arrays.stream(s.creditStalledMask()).filter(m -> m != 0).count();
                trimmed = Math.max(trimmed, java.util.Arrays.stream(s.trimmedTotal()).sum());
                io.fabriclab.diagram.CongestionFrame f = frames.frame(s, i == 0 ? null : shots.get(i - 1),
                        io.fabriclab.diagram.CongestionPainter.ColourBy.QUEUE, -1, 0);
                for (boolean p : f.paused) {
                    marked += p ? 1 : 0;
                }
            }
            if (t == Transport.INFINIBAND) {
                // The run's credit-stalled time is there, and pictures caught ports in a stall.
                long stalledPs = r.credits().stream().mapToLong(SimResults.CreditResult::creditStalledPs).sum();
                assertTrue(stalledPs > 0, "credit-stalled time " + stalledPs);
                assertTrue(stalled > 0, "no snapshot caught a credit stall");
                assertEquals(0, trimmed);
            } else {
                // The last picture's trimmed count is the run's (counted at the same egresses).
                assertEquals(r.ultraEthernet().trimmedPackets(), trimmed);
                assertTrue(trimmed > 0, "the incast trims");
                assertEquals(0, stalled);
            }
            assertTrue(marked > 0, t + ": the canvas marks the held senders");
        }
    }
}
