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
import io.fabriclab.model.Units;
import io.fabriclab.topology.HeadroomCalculator;
import io.fabriclab.workload.FlowSpec;

/**
 * PFC's response time (IEEE 802.1Qbb, 802.3 Annex 31B) in the simulator against the headroom
 * calculator, on the worst-case burst: a lossless sender at line rate into an ingress group that
 * does not drain at all.
 *
 * <p>Setup: one 100G switch leaf0, 3 m cables (15,000 ps), MTU 4200 B (frame time P = 4220 B x 80
 * ps = 337,600 ps). s2 sends a lossy flow in strict-priority class 5 to s0 from t = 0 at line
 * rate: its frames reach leaf0 exactly as the previous one leaves, so leaf0:eth0 serves class 3
 * once at the start (below) and then never, and s1's lossless flow (class 3, from t_s = 1 us)
 * piles up in leaf0:eth1's ingress group without draining. s3 sends class 0 to s1, so leaf0:eth1 is busy with MTU frames and the
 * PAUSE waits behind one (the calculator's first term); its start delta sets how long.
 * XOFF = 100,800 B = 24 frames: frame k = 24 (the 25th) takes the group above XOFF into the pool
 * (105,000 B) and triggers the PAUSE at t0 = t_s + 25 P + 15,000 = 9,455,000 ps; every later
 * frame goes to headroom. ACKs every 1000 packets, so s1 sends data back to back.
 */
class PfcResponseTest {
    static final long P = 337_600;
    static final long T_S = 1_000_000;
    static final long XOFF = 24 * 4200;

    static QosProfile qos(long headroom) {
        PfcConfig pfc = new PfcConfig(true, Set.of(3), XOFF, 50_000, headroom, 0, PfcConfig.WatchdogAction.DROP);
        BufferConfig buf = new BufferConfig(64L << 20, BufferConfig.ThresholdMode.STATIC, 16L << 20, 1.0, 0);
        SchedulerConfig sched = new SchedulerConfig(Set.of(5, 6), List.of(1, 1, 1, 1, 1, 1, 1, 1));
        return new QosProfile("pfc", "", pfc, EcnConfig.off(), DcqcnConfig.off(), buf, sched);
    }

    /** The run with the class-0 flow to s1 starting at {@code deltaPs}; 30 us. */
    static SimResults run(long headroom, long deltaPs) {
        Fabric f = TestFabrics.star(4, 100, 3.0, qos(headroom));
        List<FlowSpec> flows = List.of(
                new FlowSpec("s2:nic0", "s0:nic0", 8_000_000, 0, 5),
                new FlowSpec("s1:nic0", "s0:nic0", 1_000_000, T_S, 3),
                new FlowSpec("s3:nic0", "s1:nic0", 8_000_000, deltaPs, 0));
        SimConfig cfg = SimConfig.defaults().withAckEveryPackets(1000).withDurationPs(30 * Units.PS_PER_US);
        return new Simulator(f, flows, cfg).run();
    }

    static SimResults.PfcResult ingress(SimResults r) {
        return r.pfc().stream().filter(p -> p.port().equals("leaf0:eth1") && p.priority() == 3).findFirst().orElseThrow();
    }

    /**
     * Frames of s1 that reach leaf0 after t0. The PAUSE waits w for the class-0 frame on leaf0:eth1,
     * w = P - ((t_s - delta) mod P) (that flow's frames start there at delta + (j+1) P + 15,000),
     * takes 84 B x 80 = 6,720 ps on the wire and 15,000 ps of cable, and takes effect at s1 after
     * both ends' interface delay and the response time: 2 x 122,880 + 394 x 512 = 447,488 bit
     * times = 4,474,880 ps. So X = t0 + w + 4,496,600. s1 starts frame k at t_s + k P while that is
     * before X: k - 25 < (15,000 + w + 4,496,600) / P = 13.364 + w / P; each lands after t0.
     */
    static long framesAfterXoff(long deltaPs) {
        long w = P - Math.floorMod(T_S - deltaPs, P);
        long window = 15_000 + w + 4_496_600;
        return (window - 1) / P + 1;
    }

    @Test
    void theReactionDelayIsTheCalculatorsTerms() {
        // 100G: interface delay 122,880 bit times per end, response 394 quanta of 512 bit times
        // (HeadroomCalculator.timing, IEEE 802.3 Annex 31B): 447,488 bit times at 10 ps each.
        assertEquals(4_474_880, Simulator.pfcReactionPs(100, Units.gbpsToBps(100)));
        HeadroomCalculator.Requirement req = HeadroomCalculator.required(100, 3.0, 4200);
        // 4220 + 84 + 375 (2 x 3 m x 5 ns x 100 bit/ns = 3,000 bit) + 30,720 + 25,216 + 4220 = 64,835 B.
        assertEquals(64_835, req.totalBytes());
    }

    @Test
    void aPortBelowTheCalculatedHeadroomDropsUnderTheWorstCaseBurst() {
        // Worst phase: delta = 323,800 gives w = P - 1,000 = 336,600: 13.364 + 0.997 -> frames
        // k = 25..39, 15 frames = 63,000 B after XOFF (the calculator's 64,835 B less the 20 B of
        // preamble and gap per frame that are never buffered, and the part of the last wire frame
        // time that is still in flight).
        long worst = 323_800;
        assertEquals(15, framesAfterXoff(worst));
        // 8,400 B (what `analyze` flags HEADROOM_SHORT): frames 25 and 26 fit, 27..39 are lost.
        SimResults shortRun = run(8_400, worst);
        SimResults.PfcResult in = ingress(shortRun);
        System.out.printf("headroom 8,400 B: max ingress %d B, headroom drops %d%n", in.maxIngressBytes(),
                in.headroomOverflowDrops());
        assertEquals(13, in.headroomOverflowDrops());
        assertEquals(105_000 + 8_400, in.maxIngressBytes());
        // Charged to the ingress port whose headroom overflowed, not to an egress queue.
        assertEquals(13, shortRun.summary().headroomOverflowDrops());
        SimResults.DropResult d = shortRun.drops().stream().filter(x -> x.cause().equals("headroom-overflow"))
                .findFirst().orElseThrow();
        assertEquals("leaf0:eth1", d.port());
        assertEquals("ingress", d.side());
        assertEquals(13, d.packets());
        assertTrue(shortRun.queues().stream().allMatch(q -> q.dropsHeadroomOverflow() == 0));
        // The PFC event log. leaf0:eth0 serves one of s1's frames (class 3) before the class-5
        // stream shuts it out (SimTrace): leaf0 sends class-5 frame j from when its head is in,
        // 15,000 + j P; s1's frame 0's head comes in at 1,015,000 ps, while frame 2 is on the wire,
        // so leaf0 stores it; class-5 frame 3's head (1,027,800) finds the wire free but a packet
        // being stored for it, so it is stored too (docs/model.md, Switch port-to-port latency); s1's
        // frame 0 is sent when its last bit is in (1,352,600), class-5 frame 3 (last bit 1,365,400)
        // after it, and from then on every class-5 head finds the wire busy and, strict, goes before
        // class 3. So the group reaches XOFF one frame later than t0: at 9,455,000 + P = 9,792,600
        // ps. The XOFF reaches s1 at 9,792,600 + w + 6,720 + 15,000 = 9,792,600 + 336,600 + 21,720
        // = 10,150,920 ps and takes effect 4,474,880 ps later, at 14,625,800 ps; it holds s1's class
        // 3 paused to the end of the run (30 us; its 65,535 quanta last 335.5 us): 30,000,000 -
        // 14,625,800 = 15,374,200 ps. (Before 2026-11-29 the switch arbitrated at the last bit, the
        // class-5 frames always came first, and the XOFF took effect at 14,288,200 ps.)
        SimResults.PfcEvent first = shortRun.pfcEvents().stream().filter(e -> e.port().equals("s1:nic0"))
                .findFirst().orElseThrow();
        assertEquals(new SimResults.PfcEvent(14_625_800, "s1:nic0", "leaf0:eth1", 3, 65_535, 15_374_200), first);
        assertEquals(0, shortRun.pfcEventsDropped());
        for (int i = 1; i < shortRun.pfcEvents().size(); i++) {
            assertTrue(shortRun.pfcEvents().get(i).timePs() >= shortRun.pfcEvents().get(i - 1).timePs(), "time order");
        }

        // One frame below the calculated headroom, 60,635 B: 14 frames (58,800 B) fit, the 15th is lost.
        long below = HeadroomCalculator.required(100, 3.0, 4200).totalBytes() - 4_200;
        SimResults belowRun = run(below, worst);
        System.out.printf("headroom %d B: max ingress %d B, headroom drops %d%n", below,
                ingress(belowRun).maxIngressBytes(), ingress(belowRun).headroomOverflowDrops());
        assertEquals(1, ingress(belowRun).headroomOverflowDrops());
        assertEquals(105_000 + 14 * 4_200, ingress(belowRun).maxIngressBytes());
    }

    @Test
    void aPortAtTheCalculatedHeadroomNeverDrops() {
        long required = HeadroomCalculator.required(100, 3.0, 4200).totalBytes();
        long worstUse = 0;
        // Sixteen phases of the PAUSE's wait across one frame time, and the worst one.
        for (int i = 0; i <= 16; i++) {
            long delta = i < 16 ? i * P / 16 : 323_800;
            SimResults r = run(required, delta);
            SimResults.PfcResult in = ingress(r);
            long used = in.maxIngressBytes() - 105_000;
            System.out.printf("delta %d ps: w %d ps, headroom used %d B of %d, drops %d%n", delta,
                    P - Math.floorMod(T_S - delta, P), used, required, r.summary().drops());
            assertEquals(0, r.summary().drops(), "delta " + delta);
            assertTrue(in.pauseFramesSent() > 0);
            // Exactly the derived count of frames lands in headroom.
            assertEquals(framesAfterXoff(delta) * 4_200, used, "delta " + delta);
            assertTrue(used <= required);
            worstUse = Math.max(worstUse, used);
        }
        assertEquals(63_000, worstUse);
    }
}
