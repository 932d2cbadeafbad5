package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
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
import io.fabriclab.topology.HeadroomCalculator;

/**
 * Lossless traffic is admitted into the shared pool, not past it (docs/model.md, Switch buffer).
 * Before this model, this case (1 MiB pool, XOFF 1 MB, 8:1 incast of 1 MiB each) held 7,451,992 B
 * in one egress queue of a 1 MiB switch, sent no PAUSE and dropped 1,742 ACKs as "pool full".
 */
class SharedPoolTest {
    static final long MIB = 1L << 20;
    static final long HEADROOM = 120_000;

    @Test
    void anIncastIntoASmallPoolPausesWithinThePoolAndLosesNothing() {
        PfcConfig pfc = new PfcConfig(true, Set.of(3), 1_000_000, 800_000, HEADROOM, 0, PfcConfig.WatchdogAction.DROP);
        BufferConfig buf = new BufferConfig(MIB, BufferConfig.ThresholdMode.DYNAMIC, 0, 1.0, 0);
        QosProfile q = new QosProfile("pool", "", pfc, EcnConfig.off(), DcqcnConfig.off(), buf, SchedulerConfig.defaults());
        Fabric f = TestFabrics.star(9, 100, 1.0, q);
        Simulator sim = new Simulator(f, IncastTest.incast(8, MIB), SimConfig.defaults());
        List<Long> firstXoffIngress = new ArrayList<>();
        sim.setTrace(new SimTrace() {
            @Override
            public void pfcSent(long nowPs, String port, int priority, int quanta, long ingressBytes) {
                if (quanta > 0 && firstXoffIngress.size() < 8) {
                    firstXoffIngress.add(ingressBytes);
                }
            }
        });
        SimResults r = sim.run();
        SimResults.BufferResult leaf = r.buffers().get(0);
        System.out.printf("pool %d B: max %d B; headroom max %d B of %d reserved; max queue %d B; pauses %d; "
                + "first XOFFs at %s B; drops %d%n", leaf.poolBytes(), leaf.maxPoolBytes(), leaf.maxHeadroomBytes(),
                leaf.headroomReservedBytes(), r.summary().maxQueueBytes(), r.summary().pauseFramesSent(),
                firstXoffIngress, r.summary().drops());

        assertEquals(SimResults.StopReason.COMPLETED, r.run().stopReason());
        // The pool never holds more than its size (the largest occupancy the simulator recorded).
        assertEquals(MIB, leaf.poolBytes());
        assertTrue(leaf.maxPoolBytes() <= MIB, "pool held " + leaf.maxPoolBytes() + " B");
        // Thresholds: with alpha 1 a lossless group may hold T = 1 x (pool - occupied). Eight groups
        // filling alike hold x each with 8x in the pool, so x <= 1,048,576 - 8x: x <= 1,048,576 / 9
        // = 116,508 B; the frame that takes a group above its T still enters the pool (4,200 B) and
        // triggers XOFF; a group served later in a batch of arrivals crosses one frame later. So
        // the first XOFFs come at 116,508 to 116,508 + 2 x 4,200 B (the static XOFF of 1 MB is
        // never reached).
        assertEquals(8, firstXoffIngress.size());
        for (long at : firstXoffIngress) {
            assertTrue(at > 116_508 && at <= 116_508 + 2 * 4_200, "XOFF at " + at + " B");
        }
        assertTrue(r.summary().pauseFramesSent() > 0);
        // Nothing lost: no lossless packet (headroom absorbs what is in flight after XOFF) and no
        // ACK (the pool keeps room for lossy traffic, which sees the pool as it is).
        assertEquals(0, r.summary().headroomOverflowDrops());
        assertEquals(0, r.summary().drops());
        // Headroom per group: at most what the calculator requires for 100G, 1 m (64,585 B = 4,220 +
        // 84 + 125 + 30,720 + 25,216 + 4,220), so at most 8 x 64,585 = 516,680 B over the switch.
        long perGroup = HeadroomCalculator.required(100, 1.0, 4200).totalBytes();
        assertEquals(64_585, perGroup);
        assertTrue(leaf.maxHeadroomBytes() <= 8 * perGroup, "headroom held " + leaf.maxHeadroomBytes());
        assertEquals(9 * HEADROOM, leaf.headroomReservedBytes()); // 9 linked ports x 1 lossless priority
        // The egress queue holds only what the pool and the headroom hold: <= 1 MiB + 8 x 64,585 B.
        assertTrue(r.summary().maxQueueBytes() <= MIB + 8 * perGroup, "queue " + r.summary().maxQueueBytes());
    }

    @Test
    void theStaticXoffStillDecidesWhenThePoolIsLarge() {
        // 64 MiB pool: T = 64 MiB - occupied stays above XOFF = 100 KB, so XOFF is the static one
        // (as before this model): the 24th frame (24 x 4,200 = 100,800 B > 100,000 B) triggers it.
        Fabric f = TestFabrics.star(9, 100, 1.0, IncastTest.pfcOnly(100_000, 80_000, 70_000));
        Simulator sim = new Simulator(f, IncastTest.incast(8, 242 * 4138L), SimConfig.defaults());
        List<Long> at = new ArrayList<>();
        sim.setTrace(new SimTrace() {
            @Override
            public void pfcSent(long nowPs, String port, int priority, int quanta, long ingressBytes) {
                if (quanta > 0 && at.isEmpty()) {
                    at.add(ingressBytes);
                }
            }
        });
        sim.run();
        assertEquals(List.of(100_800L), at);
    }
}
