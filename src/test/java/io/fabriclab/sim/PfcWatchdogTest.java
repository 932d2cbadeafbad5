package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.BufferConfig;
import io.fabriclab.model.DcqcnConfig;
import io.fabriclab.model.EcnConfig;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.PfcConfig;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.SchedulerConfig;
import io.fabriclab.workload.FlowSpec;

class PfcWatchdogTest {

    static SimResults run(PfcConfig.WatchdogAction action) {
        // XOFF 100 KB, XON 80 KB, watchdog 5 us. The receiver s1_0 hangs off leaf1 by a 10G link, so
        // leaf1's ingress from spine0 drains at 10 Gb/s: from XOFF to XON takes 20 KB / 1.25 GB/s
        // = 16 us of continuous pause (refreshed), longer than the 5 us watchdog interval.
        PfcConfig pfc = new PfcConfig(true, Set.of(3), 100_000, 80_000, 70_000, 5, action);
        BufferConfig buf = new BufferConfig(64L << 20, BufferConfig.ThresholdMode.DYNAMIC, 0, 1.0, 0);
        QosProfile q = new QosProfile("wd", "", pfc, EcnConfig.off(), DcqcnConfig.off(), buf, SchedulerConfig.defaults());
        Fabric f = TestFabrics.leafSpine(2, 1, 3, 100, 100, 1.0, q);
        f.linkAt(f.port("s1_0:nic0")).setSpeedGbps(10);
        List<FlowSpec> flows = List.of(new FlowSpec("s0_0:nic0", "s1_0:nic0", 1_000_000, 0, 3),
                new FlowSpec("s0_1:nic0", "s1_0:nic0", 1_000_000, 0, 3));
        SimResults r = new Simulator(f, flows, SimConfig.defaults()).run();
        System.out.printf("watchdog %s: storms %d, watchdog drops %d, headroom drops %d, retransmitted %d B%n", action,
                r.summary().watchdogStorms(), r.summary().watchdogDrops(), r.summary().headroomOverflowDrops(),
                r.summary().retransmittedBytes());
        return r;
    }

    static SimResults.PfcResult at(SimResults r, String port) {
        return r.pfc().stream().filter(p -> p.port().equals(port) && p.priority() == 3).findFirst().orElseThrow();
    }

    @Test
    void aQueuePausedLongerThanTheWatchdogIntervalIsDeclaredStormedAndDropsWithActionDrop() {
        SimResults r = run(PfcConfig.WatchdogAction.DROP);
        assertTrue(at(r, "spine0:eth1").watchdogStorms() > 0, "spine0 -> leaf1 stormed");
        assertTrue(r.summary().watchdogDrops() > 0);
        assertEquals(0, r.summary().headroomOverflowDrops());
        // Go-back-N still completes both transfers.
        assertEquals(2, r.run().flowsCompleted());
    }

    @Test
    void withActionForwardTheStormedQueueIgnoresPausesInsteadOfDropping() {
        SimResults r = run(PfcConfig.WatchdogAction.FORWARD);
        assertTrue(at(r, "spine0:eth1").watchdogStorms() > 0);
        assertEquals(0, r.summary().watchdogDrops());
        // Forwarding through a pause overruns leaf1's headroom: the loss lands there instead.
        assertTrue(r.summary().headroomOverflowDrops() > 0);
        assertEquals(2, r.run().flowsCompleted());
    }
}
