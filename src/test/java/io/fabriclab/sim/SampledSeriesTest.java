package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.DcqcnConfig;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.Units;
import io.fabriclab.workload.FlowSpec;

/**
 * Validation (docs/validation.md, "Sampled series"): utilization counts the bits on the wire within
 * each sampling interval (a frame across a boundary is split), stays within [0, 1], and every point
 * (utilization and queue depth) is stamped with the start of its interval, as
 * docs/format-scenario.md says.
 */
class SampledSeriesTest {
    static final long US = Units.PS_PER_US;
    /** A 4200 B frame (4138 B payload + 62 B headers) is 4220 B on the wire: 337,600 ps at 100G. */
    static final long T1 = 337_600;
    /** 1 m of cable at 5 ns/m. */
    static final long PROP = 5_000;

    static QosProfile lossless() {
        return EcnDcqcnTest.qos(true, null, DcqcnConfig.off());
    }

    static SimResults.LinkResult link(SimResults r, String from) {
        return r.links().stream().filter(l -> l.from().equals(from)).findFirst().orElseThrow();
    }

    @Test
    void aSaturatedLinkReadsExactlyOneAfterItsFirstPartialInterval() {
        // s0 -> s1 through leaf0, 100G, 1 m cables, 200 full frames, samples every 1 us.
        // Serialization T1 = 4220 x 8 / 100 Gb/s = 337,600 ps. Frame k's head (from 0) is in leaf0 at
        // k T1 + 5 ns. leaf0 is an Ethernet cut-through switch (300 ns, SwitchPipelineTest): frame 0
        // claims the idle leaf0:eth1 when its head is in, at 5,000 ps, and every later one as the
        // frame before leaves (frame k+1's head arrives exactly when frame k ends): the egress sends
        // back to back from 5,000 to 200 T1 + 5 ns = 67,525,000 ps, each frame reaching s1 L =
        // 300,000 ps after the end of its sending plus 5 ns of cable (its head left 300 ns after its
        // head came in), the last at 67,525,000 + 5,000 + 300,000 = 67,830,000 ps, where the run
        // ends; its last sample is at 67 us (at the 600 ns before issue #29 the run ended at
        // 68,130,000 ps and a 68th point read [67, 68 us)). A port's utilization is its egress's
        // sending time, L before the bits on its wire (docs/model.md, Switch port-to-port latency).
        // Interval [0, 1 us): the egress is busy from 5,000 ps: 995,000 / 1,000,000 = 0.995 (when
        // the switch sent a frame from its last bit, before 2026-11-29: from 342,600 ps, 0.6574).
        // Intervals [1, 2) .. [66, 67): busy throughout: exactly 1.0; the run ends inside [67, 68),
        // which has no point.
        // (Counting the wire bytes of the frames that *started* in an interval gives 3 frames =
        // 101,280 bit = 1.0128 in the first (starts at 5,000, 342,600 and 680,200 ps) and whenever
        // three starts fall in one microsecond: more than the link can carry.)
        Fabric f = TestFabrics.star(2, 100, 1.0, lossless());
        List<FlowSpec> flows = List.of(new FlowSpec("s0:nic0", "s1:nic0", 200 * 4138L, 0, 3));
        SimResults r = new Simulator(f, flows, SimConfig.defaults().withSampleIntervalPs(US)).run();
        assertEquals(67_830_000L, r.flows().get(0).finishPs());
        SimResults.Series s = link(r, "leaf0:eth1").utilization();
        assertEquals(67, s.values().length);
        assertEquals(1, s.stride());
        for (int i = 0; i < 67; i++) {
            // Each point starts at its time: the one covering [i, i+1) us is stamped i us.
            assertEquals(i * US, s.timesPs()[i], "point " + i);
        }
        assertEquals(995_000 / 1e6, s.values()[0], 0.0);
        for (int i = 1; i < 67; i++) {
            assertEquals(1.0, s.values()[i], 0.0, "interval [" + i + ", " + (i + 1) + ") us");
        }
        // The sender's own link is busy from 0: 1.0 from the first interval on.
        SimResults.Series nic = link(r, "s0:nic0").utilization();
        for (int i = 0; i < 67; i++) {
            assertEquals(1.0, nic.values()[i], 0.0, "s0:nic0 interval " + i);
        }
        // Over the run (to the last bit's arrival, 67,830,000 ps): leaf0:eth1's egress sends all 200
        // frames before the run ends (until 67,525,000 ps): 200 x 337,600 ps.
        assertEquals(200 * T1 / 67_830_000.0, link(r, "leaf0:eth1").meanUtilization(), 1e-15);
    }

    @Test
    void aFrameAcrossASampleBoundaryIsSplitBetweenTheTwoIntervals() {
        // One full frame (4138 B payload, 4220 B on the wire) from s0 starting at 0.9 us, run for 3 us.
        // On s0:nic0 it is on the wire from 900,000 to 900,000 + 337,600 = 1,237,600 ps:
        //   [0, 1 us): 100,000 ps = 100,000 ps x 100 Gb/s = 10,000 bit = 1,250 B -> 0.1
        //   [1, 2 us): 237,600 ps = 23,760 bit = 2,970 B -> 0.2376 (1,250 + 2,970 = 4,220 B)
        //   [2, 3 us): nothing -> 0.
        // leaf0:eth1 (cut-through, idle) sends it from when its head is in, 900,000 + 5,000 = 905,000
        // ps, to 1,242,600 ps: [0, 1 us) 95,000 ps -> 0.095, [1, 2 us) 242,600 ps -> 0.2426 (the
        // egress's sending time, L before the wire; from its last bit, before 2026-11-29, all of it
        // in [1, 2 us): 0.3376).
        // (Counting whole frames where they start puts all 4,220 B, 0.3376, into [0, 1) on s0:nic0.)
        Fabric f = TestFabrics.star(2, 100, 1.0, lossless());
        List<FlowSpec> flows = List.of(new FlowSpec("s0:nic0", "s1:nic0", 4138, 900_000, 3));
        SimConfig cfg = SimConfig.defaults().withSampleIntervalPs(US).withDurationPs(3 * US);
        SimResults r = new Simulator(f, flows, cfg).run();
        SimResults.Series nic = link(r, "s0:nic0").utilization();
        assertArrayEquals(new long[] {0, US, 2 * US}, nic.timesPs());
        assertArrayEquals(new double[] {0.1, 0.2376, 0.0}, nic.values(), 0.0);
        assertEquals(1_250 + 2_970, Math.round((nic.values()[0] + nic.values()[1]) * US * 100e9 / 8 / Units.PS_PER_S));
        SimResults.Series leaf = link(r, "leaf0:eth1").utilization();
        assertArrayEquals(new long[] {0, US, 2 * US}, leaf.timesPs());
        assertArrayEquals(new double[] {0.095, 0.2426, 0.0}, leaf.values(), 1e-15);
        // Over the 3 us run: 337,600 ps busy on each.
        assertEquals(T1 / 3e6, link(r, "s0:nic0").meanUtilization(), 1e-15);
    }

    @Test
    void aQueueDepthMaximumIsStampedWithTheStartOfItsInterval() {
        // s1 and s2 each send one full frame to s0 at 0. Both heads are in leaf0 at 5 ns: the first
        // claims the idle leaf0:eth0 and is sent from 5,000 to 342,600 ps; the other finds it busy,
        // is stored, and queued (4,200 B) when its last bit is in, at T1 + 5 ns = 342,600 ps, the
        // instant the wire frees: it is sent at once, to 680,200 ps. That maximum lies in [0, 1 us),
        // so the point stamped 0 reads 4,200 B; the next, [1, 2 us), reads the depth at 1 us: 0.
        Fabric f = TestFabrics.star(3, 100, 1.0, lossless());
        List<FlowSpec> flows = List.of(new FlowSpec("s1:nic0", "s0:nic0", 4138, 0, 3),
                new FlowSpec("s2:nic0", "s0:nic0", 4138, 0, 3));
        SimConfig cfg = SimConfig.defaults().withSampleIntervalPs(US).withDurationPs(2 * US);
        SimResults r = new Simulator(f, flows, cfg).run();
        SimResults.QueueResult q = r.queues().stream()
                .filter(x -> x.port().equals("leaf0:eth0") && x.trafficClass() == 3).findFirst().orElseThrow();
        assertEquals(4_200, q.maxBytes());
        assertArrayEquals(new long[] {0, US}, q.depthBytes().timesPs());
        assertArrayEquals(new double[] {4_200, 0}, q.depthBytes().values(), 0.0);
        // leaf0:eth0 is busy from 5,000 ps for two frames, to 680,200 ps: [0, 1 us) 675,200 ps ->
        // 0.6752; [1, 2 us) nothing (from the first frame's last bit, before 2026-11-29: 0.6574 and
        // 0.0178).
        assertArrayEquals(new double[] {0.6752, 0.0}, link(r, "leaf0:eth0").utilization().values(), 1e-15);
    }

    @Test
    void utilizationStaysWithinZeroAndOneUnderIncast() {
        // 8:1 incast with PFC at 1 us samples: every point of every link is a fraction of its interval.
        Fabric f = TestFabrics.star(9, 100, 1.0, lossless());
        SimResults r = new Simulator(f, IncastTest.incast(8, 400_000), SimConfig.defaults().withSampleIntervalPs(US)).run();
        int points = 0;
        for (SimResults.LinkResult l : r.links()) {
            for (double v : l.utilization().values()) {
                assertTrue(v >= 0 && v <= 1.0, l.from() + ": " + v);
                points++;
            }
            assertTrue(l.meanUtilization() >= 0 && l.meanUtilization() <= 1.0, l.from() + " mean " + l.meanUtilization());
        }
        assertTrue(points > 100);
    }
}
