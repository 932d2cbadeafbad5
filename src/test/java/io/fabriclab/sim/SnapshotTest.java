package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;

class SnapshotTest {

    @Test
    void snapshotsArriveEveryIntervalAndShowQueuesPausesAndRates() {
        Fabric f = TestFabrics.star(5, 100, 1.0, IncastTest.pfcOnly(100_000, 80_000, 50_000));
        Simulator sim = new Simulator(f, IncastTest.incast(4, 1_000_000), SimConfig.defaults());
        List<SimSnapshot> seen = new ArrayList<>();
        AtomicReference<SimSnapshot> newest = new AtomicReference<>();
        sim.setSnapshotSink(s -> {
            seen.add(s);
            newest.set(s);
        }, 20_000_000);
        SimResults r = sim.run();
        // 4 MB through one 100G port takes about 330 us: a snapshot every 20 us.
        assertTrue(seen.size() >= 15, "snapshots: " + seen.size());
        for (int i = 0; i < seen.size(); i++) {
            assertEquals((i + 1) * 20_000_000L, seen.get(i).timePs());
        }
        int toS0 = seen.get(0).ports().indexOf("leaf0:eth0");
        SimSnapshot mid = seen.get(5);
        assertTrue(mid.queueBytes()[toS0] > 0, "the incast queue is visible");
        assertTrue(mid.utilization()[toS0] > 0.95, "the receiver link runs at line rate: " + mid.utilization()[toS0]);
        assertTrue(seen.stream().anyMatch(s -> {
            for (int m : s.pausedMask()) {
                if ((m & (1 << 3)) != 0) {
                    return true;
                }
            }
            return false;
        }), "a sender's priority 3 shows as paused");
        assertEquals(seen.stream().mapToLong(SimSnapshot::pauseFramesSinceLast).sum() <= r.summary().pauseFramesSent(), true);
        assertEquals(100.0, seen.get(0).flowRateGbps()[0], 0.0);
    }

    @Test
    void commandsFromAnotherThreadRunBetweenEvents() {
        Fabric f = TestFabrics.star(5, 100, 1.0, QosProfile.roceLossless("lossless", 100));
        Simulator sim = new Simulator(f, IncastTest.incast(4, 2_000_000), SimConfig.defaults());
        // Switch ECN off on the congested queue before the run: no marks, hence no CNPs.
        sim.submit(c -> c.setWred("leaf0:eth0", 3, null));
        sim.setSnapshotSink(s -> { }, 1_000_000);
        SimResults r = sim.run();
        assertEquals(0, r.summary().ecnMarked());
        assertEquals(0, r.summary().cnpsSent());
    }
}
