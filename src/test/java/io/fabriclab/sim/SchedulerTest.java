package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.BufferConfig;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.SchedulerConfig;
import io.fabriclab.workload.FlowSpec;

/**
 * The egress scheduler: DWRR among data classes shares a congested port by weight, a strict class
 * goes before all of them, and the shared buffer's dynamic threshold T = alpha (pool - occupied)
 * admits a lossy queue only while it stays below T.
 */
class SchedulerTest {
    /** 100G star; classes 1 and 2 lossy with DWRR weights 1 and 3, class 6 strict; a queue limit no flow reaches. */
    private static Fabric star(int servers, BufferConfig buffer) {
        QosProfile q = QosProfile.roceLossless("lossless", 100).withBuffer(buffer);
        q = new QosProfile(q.name(), q.description(), q.pfc(), q.ecn(), q.dcqcn(), q.buffer(),
                new SchedulerConfig(Set.of(6), List.of(1, 1, 3, 1, 1, 1, 1, 1)));
        return TestFabrics.star(servers, 100, 1.0, q);
    }

    // Frames: MTU 4200 B carries 4138 B of payload; 10 MB = 2417 frames (the last one 3392 B of
    // payload). On the wire 4220 B = 337,600 ps at 100G.
    private static final long FRAME_PS = 337_600;
    /**
     * leaf0 is an Ethernet cut-through switch, 300 ns (model.SwitchLatency): the first frame of
     * the port's busy period leaves as its head comes in, 300,000 - 337,600 ps "later" than a
     * store-and-forward switch without latency would deliver it, and every frame queued behind it
     * follows straight after: all arrive 37,600 ps earlier (SwitchPipelineTest).
     */
    private static final long PIPELINE_PS = 300_000 - FRAME_PS;

    @Test
    void dwrrSharesACongestedPortByWeight() {
        Fabric f = star(3, new BufferConfig(64L << 20, BufferConfig.ThresholdMode.STATIC, 60L << 20, 1.0, 0));
        SimResults r = new Simulator(f, List.of(new FlowSpec("s1:nic0", "s0:nic0", 10_000_000, 0, 1),
                new FlowSpec("s2:nic0", "s0:nic0", 10_000_000, 0, 2)), SimConfig.defaults()).run();
        assertEquals(0, r.summary().drops());
        SimResults.FlowResult w1 = r.flows().get(0);
        SimResults.FlowResult w3 = r.flows().get(1);
        // Both senders run at line rate into one 100G port, so both queues stay backlogged. Each
        // DWRR round sends 1 frame of class 1 (quantum 1 x 4200 B) and 3 of class 2 (3 x 4200 B):
        // class 2's 2417 frames leave within ceil(2417 / 3) = 806 rounds, interleaved with about
        // 806 frames of class 1: 3223 frame times = 1,088.1 us, give or take a round (4 frames).
        long expected3 = 3223 * FRAME_PS + PIPELINE_PS;
        assertTrue(Math.abs(w3.fctPs() - expected3) <= 4 * FRAME_PS, "weight 3: " + w3.fctPs() + " vs " + expected3);
        // Its throughput is 3/4 of the link in payload: 75 Gb/s x 4138 / 4220 = 73.5 Gb/s.
        assertEquals(73.5, w3.throughputGbps(), 0.3);
        // Class 1 then has the port alone; the port never idles: all 4834 frames back to back.
        long expected1 = 4834 * FRAME_PS + PIPELINE_PS;
        assertTrue(Math.abs(w1.fctPs() - expected1) <= 2 * FRAME_PS, "weight 1: " + w1.fctPs() + " vs " + expected1);
    }

    @Test
    void aStrictClassGoesBeforeTheDwrrClasses() {
        Fabric f = star(4, new BufferConfig(64L << 20, BufferConfig.ThresholdMode.STATIC, 60L << 20, 1.0, 0));
        SimResults r = new Simulator(f, List.of(new FlowSpec("s1:nic0", "s0:nic0", 10_000_000, 0, 1),
                new FlowSpec("s2:nic0", "s0:nic0", 10_000_000, 0, 2),
                new FlowSpec("s3:nic0", "s0:nic0", 1_000_000, 100_000_000L, 6)), SimConfig.defaults()).run();
        assertEquals(0, r.summary().drops());
        SimResults.FlowResult strict = r.flows().get(2);
        // 1 MB = 242 frames (the last one 2,120 B of payload). Strict priority: each frame waits at
        // most for the frame on the wire, so the flow finishes as if the port were its own, plus at
        // most one frame time: 242 x 337,600 = 81.7 us + up to 337,600 ps. Each of its frames finds
        // the port busy when its head comes in, so leaf0 stores it and sends it no sooner than L
        // after its last bit (300,000 ps, not PIPELINE_PS: docs/model.md, Switch port-to-port
        // latency; before 2026-11-29 a frame queued behind the busy period kept its first frame's
        // head start).
        long alone = 242 * FRAME_PS + 300_000;
        assertTrue(strict.fctPs() >= alone - FRAME_PS && strict.fctPs() <= alone + 2 * FRAME_PS,
                "strict fct " + strict.fctPs() + " vs " + alone);
        // The DWRR classes lose exactly that time: class 2 finishes 242 frame times later than without it.
        long expected3 = (3223 + 242) * FRAME_PS + PIPELINE_PS;
        assertTrue(Math.abs(r.flows().get(1).fctPs() - expected3) <= 4 * FRAME_PS,
                "weight 3 with a strict flow: " + r.flows().get(1).fctPs() + " vs " + expected3);
    }

    @Test
    void theDynamicThresholdAdmitsALossyQueueOnlyBelowAlphaTimesTheFreeBuffer() {
        // Pool 1,000,000 B, alpha 1/2, nothing reserved: with 400,000 B occupied the threshold is
        // 0.5 x 600,000 = 300,000 B; a queue of 295,000 B may take a 4,200 B frame (299,200 B) but
        // not a 6,000 B one (301,000 B).
        SwitchState s = new SwitchState(new Fabric("x").addDevice("sw", io.fabriclab.model.DeviceRole.LEAF), 0,
                new BufferConfig(1_000_000, BufferConfig.ThresholdMode.DYNAMIC, 0, 0.5, 0));
        s.occupiedBytes = 400_000;
        assertTrue(s.admitsLossy(295_000, 4_200));
        assertTrue(!s.admitsLossy(295_000, 6_000));
        // As the buffer fills the threshold falls: at 800,000 B occupied it is 100,000 B.
        s.occupiedBytes = 800_000;
        assertTrue(s.admitsLossy(95_000, 4_200));
        assertTrue(!s.admitsLossy(96_000, 4_200));
        // Static mode: a fixed 300,000 B per queue whatever the occupancy, but never beyond the pool.
        SwitchState st = new SwitchState(new Fabric("y").addDevice("sw", io.fabriclab.model.DeviceRole.LEAF), 0,
                new BufferConfig(1_000_000, BufferConfig.ThresholdMode.STATIC, 300_000, 1.0, 0));
        st.occupiedBytes = 800_000;
        assertTrue(st.admitsLossy(295_000, 4_200));
        assertTrue(!st.admitsLossy(296_000, 4_200));
        st.occupiedBytes = 998_000;
        assertTrue(!st.admitsLossy(0, 4_200));
    }
}
