package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.workload.FlowSpec;

class DeadlockTest {

    /** Five switches in a ring (sw_i:cw to sw_i+1:ccw), one 100G server on each. */
    static Fabric ring(int n) {
        Fabric f = new Fabric("ring");
        f.putQosProfile(IncastTest.pfcOnly(100_000, 80_000, 70_000));
        Device[] sw = new Device[n];
        for (int i = 0; i < n; i++) {
            sw[i] = f.addDevice("sw" + i, DeviceRole.LEAF);
            sw[i].addPort("cw", 100);
            sw[i].addPort("ccw", 100);
            sw[i].addPort("host", 100);
            Device s = TestFabrics.server(f, "s" + i, 100);
            f.connect(s.port("nic0"), sw[i].port("host"), 100, 1.0);
        }
        for (int i = 0; i < n; i++) {
            f.connect(sw[i].port("cw"), sw[(i + 1) % n].port("ccw"), 100, 1.0);
        }
        return f;
    }

    @Test
    void pausesChasingEachOtherRoundARingAreReportedAsADeadlock() {
        // Every server sends to the server two switches clockwise: in a ring of five that path is
        // the unique shortest one, so each clockwise link carries a transit flow and a local one
        // (2 x 100G into 100G). Each switch's ingress from its counter-clockwise neighbour fills
        // with packets for its clockwise link, which is paused by the next switch for the same
        // reason: the five clockwise queues wait on one another and none can ever drain.
        int n = 5;
        Fabric f = ring(n);
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            flows.add(new FlowSpec("s" + i + ":nic0", "s" + (i + 2) % n + ":nic0", 20_000_000, 0, 3));
        }
        Simulator sim = new Simulator(f, flows, SimConfig.defaults().withMaxTimePs(3_000_000_000L));
        sim.setDeadlockThresholdPs(200_000_000L);
        SimResults r = sim.run();
        System.out.println("deadlocks: " + r.deadlocks() + ", completed " + r.run().flowsCompleted() + ", stop " + r.run().stopReason());
        assertFalse(r.deadlocks().isEmpty(), "a deadlock was detected");
        SimResults.DeadlockResult d = r.deadlocks().get(0);
        assertEquals(3, d.priority());
        assertEquals(List.of("sw0:cw", "sw1:cw", "sw2:cw", "sw3:cw", "sw4:cw"), d.ports());
        assertEquals(SimResults.StopReason.TIME_LIMIT, r.run().stopReason(), "nothing completes once deadlocked");
        assertTrue(r.run().flowsCompleted() < n);
    }

    @Test
    void anIncastWithLongPausesButNoCycleIsNotADeadlock() {
        Fabric f = TestFabrics.star(9, 100, 1.0, IncastTest.pfcOnly(100_000, 80_000, 70_000));
        Simulator sim = new Simulator(f, IncastTest.incast(8, 2_000_000), SimConfig.defaults());
        sim.setDeadlockThresholdPs(1_000_000L);
        assertTrue(sim.run().deadlocks().isEmpty());
    }
}
