package io.fabriclab.ui.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
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
            return status[0].startsWith("Run ");
        });
        assertTrue(status[0].contains("(InfiniBand)") && status[0].contains("credit-stalled"), status[0]);
        assertTrue(s.title().contains("InfiniBand"), "the recording's title names the transport: " + s.title());
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
}
