package io.fabriclab.ui.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import javafx.scene.Scene;
import javafx.stage.Stage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import io.fabriclab.diagram.CongestionFrame;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.Transport;
import io.fabriclab.sim.FlowEngine;
import io.fabriclab.sim.SimConfig;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.TestFabrics;
import io.fabriclab.sim.TransportProfile;
import io.fabriclab.workload.FlowSpec;

/** A flow run's link utilisation over time on the drawing (issue 32, seeing it). */
@ExtendWith(ApplicationExtension.class)
class FlowPlaybackTest {
    private Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @Test
    void theReceiversLinkIsFullWhileTheIncastDrainsAndIdleAfter(FxRobot robot) {
        // 4 senders into s0 on one 100G switch, 2 MB each: s0's link runs at its capacity until the
        // 8 MB (plus headers) have crossed it, about 660 us; the senders' links at a quarter each.
        Fabric f = TestFabrics.star(5, 100, 1.0, QosProfile.roceLossless("lossless", 100));
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            flows.add(new FlowSpec("s" + i + ":nic0", "s0:nic0", 2_000_000, 0, 3));
        }
        SimResults r = new FlowEngine(f, flows, SimConfig.defaults(), TransportProfile.of(Transport.ROCEV2)).run(null);
        Link toS0 = f.linkAt(f.port("s0:nic0"));
        Link fromS1 = f.linkAt(f.port("s1:nic0"));
        FlowPlayback[] p = new FlowPlayback[1];
        robot.interact(() -> {
            p[0] = new FlowPlayback(f, r);
            stage.setScene(new Scene(p[0], 800, 600));
            stage.show();
        });
        robot.interact(() -> {
            CongestionFrame mid = p[0].frameAt(r.run().simulatedPs() / 2);
            int in = mid.directions.of(toS0, toS0.a() != f.port("s0:nic0")); // toward s0
            int out = mid.directions.of(fromS1, fromS1.a() == f.port("s1:nic0")); // from s1
            assertEquals(1.0, mid.load[in], 0.02, "the receiver's link is full while it drains");
            assertEquals(0.25, mid.load[out], 0.02, "each sender sends a quarter of its link");
            CongestionFrame after = p[0].frameAt(r.run().simulatedPs() * 2);
            assertEquals(0.0, after.load[in], 1e-9, "nothing after the run");
            // The timeline drives what is drawn.
            p[0].timeline().setValue(p[0].timeline().getMax() / 4);
            assertEquals(1.0, p[0].frame().load[in], 0.02);
            assertTrue(p[0].frame().timePs > 0);
        });
    }
}
