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
import io.fabriclab.workload.FlowSpec;
import io.fabriclab.workload.Incast;

class IncastTest {
    static final long SER_FULL_100G = 337_600; // 4220 B on the wire * 80 ps/B
    static final long PROP_1M = 5_000;

    static QosProfile pfcOnly(long xoff, long xon, long headroom) {
        PfcConfig pfc = new PfcConfig(true, Set.of(3), xoff, xon, headroom, 0, PfcConfig.WatchdogAction.DROP);
        BufferConfig buf = new BufferConfig(64L << 20, BufferConfig.ThresholdMode.DYNAMIC, 0, 1.0, 0);
        return new QosProfile("pfc", "", pfc, EcnConfig.off(), DcqcnConfig.off(), buf, SchedulerConfig.defaults());
    }

    static QosProfile lossyStatic(long queueLimit) {
        BufferConfig buf = new BufferConfig(64L << 20, BufferConfig.ThresholdMode.STATIC, queueLimit, 1.0, 0);
        return new QosProfile("lossy", "", PfcConfig.off(), EcnConfig.off(), DcqcnConfig.off(), buf,
                SchedulerConfig.defaults());
    }

    static List<FlowSpec> incast(int senders, long bytes) {
        List<String> s = new ArrayList<>();
        for (int i = 1; i <= senders; i++) {
            s.add("s" + i + ":nic0");
        }
        return new Incast(s, "s0:nic0", bytes, 0, 3).flows(null);
    }

    @Test
    void incastWithPfcStaysWithinXoffPlusHeadroomLosesNothingAndKeepsTheReceiverLinkAtLineRate() {
        int n = 8;
        long packets = 242;                 // 242 * 4138 B payload = 1,001,396 B per sender
        // Headroom 70 KB: at least the 64,585 B HeadroomCalculator requires for 100G and 1 m.
        Fabric f = TestFabrics.star(n + 1, 100, 1.0, pfcOnly(100_000, 80_000, 70_000));
        SimResults r = new Simulator(f, incast(n, packets * 4138), SimConfig.defaults()).run();

        assertEquals(SimResults.StopReason.COMPLETED, r.run().stopReason());
        assertEquals(0, r.summary().drops());
        assertTrue(r.summary().pauseFramesSent() > 0, "pauses were sent");
        long maxIngress = 0;
        for (SimResults.PfcResult p : r.pfc()) {
            if (p.port().startsWith("leaf0") && p.priority() == 3) {
                // The frame that crosses XOFF still enters the pool; only later ones use headroom.
                assertTrue(p.maxIngressBytes() <= 100_000 + 4_200 + 70_000, p + " exceeds XOFF + frame + headroom");
                maxIngress = Math.max(maxIngress, p.maxIngressBytes());
            }
        }
        assertTrue(maxIngress > 100_000, "some ingress went past XOFF into headroom: " + maxIngress);
        // Line rate: the first packets reach leaf0 at 337,600 + 5,000; from then on the port toward s0
        // never idles (PFC holds data in the switch instead of dropping it), so the last byte arrives
        // after exactly n * 242 serializations plus one propagation delay; leaf0 is an Ethernet
        // cut-through switch (300 ns): the first frame leaves as its head comes in, 300,000 - 337,600
        // = -37,600 ps "later" than without latency (earlier: the latency is below one serialization),
        // and every later one straight behind it (SwitchPipelineTest).
        long lastFinish = r.flows().stream().mapToLong(SimResults.FlowResult::finishPs).max().orElseThrow();
        long expected = SER_FULL_100G + PROP_1M + n * packets * SER_FULL_100G + PROP_1M + (300_000 - SER_FULL_100G);
        System.out.printf("incast PFC: max ingress %d B (XOFF+frame+headroom 174200), pauses %d, resumes %d, last finish %d ps (expected %d)%n",
                maxIngress, r.summary().pauseFramesSent(), r.summary().resumeFramesSent(), lastFinish, expected);
        assertEquals(expected, lastFinish);
        SimResults.LinkResult down = r.links().stream().filter(l -> l.from().equals("leaf0:eth0")).findFirst().orElseThrow();
        assertEquals(n * packets, down.frames());
    }

    @Test
    void incastWithoutPfcOrCongestionControlDropsWhenTheFillRatePredicts() {
        int n = 8;
        Fabric f = TestFabrics.star(n + 1, 100, 1.0, lossyStatic(500_000));
        SimResults r = new Simulator(f, incast(n, 200 * 4138L), SimConfig.defaults()).run();

        // Batches of 8 packets reach leaf0 every 337,600 ps from t1 = 337,600 + 5,000. The wire to s0
        // frees exactly as batch k (k >= 1) lands, so the batch's first packet sends the head of the
        // queue on its way: the queue grows by 7 packets per batch and holds 7k before batch k. The
        // static limit of 500,000 B holds 119 frames of 4200 B (queue + 4200 <= 500,000 while the
        // queue holds at most 118); the first arrival of batch 17 finds 7 * 17 = 119 and is refused.
        // (The fluid estimate 500 KB / (7 x 12.5 GB/s) + t1 = 6.06 us agrees within one batch.)
        long predicted = SER_FULL_100G + PROP_1M + 17 * SER_FULL_100G;
        SimResults.QueueResult q = r.queues().stream()
                .filter(x -> x.port().equals("leaf0:eth0") && x.trafficClass() == 3).findFirst().orElseThrow();
        assertEquals(6_081_800, predicted);
        System.out.printf("incast lossy: first drop %d ps (predicted %d), drops %d, retransmitted %d B, max stall %d ps%n",
                q.firstDropPs(), predicted, q.dropsBuffer(), r.summary().retransmittedBytes(),
                r.flows().stream().mapToLong(SimResults.FlowResult::stallPs).max().orElse(0));
        assertEquals(predicted, q.firstDropPs());
        assertTrue(q.dropsBuffer() > 0);
        assertTrue(q.maxBytes() <= 500_000);
        assertEquals(0, r.summary().pauseFramesSent());
        // Go-back-N recovers every drop: all flows complete, paying retransmissions and stall time.
        assertEquals(SimResults.StopReason.COMPLETED, r.run().stopReason());
        assertTrue(r.summary().retransmittedBytes() > 0);
        assertTrue(r.flows().stream().anyMatch(x -> x.stallPs() > 0));
    }

    @Test
    void aPauseStopsTheUpstreamSenderWithinOneLinkRoundTripPlusAFrameTime() {
        int n = 4;
        Fabric f = TestFabrics.star(n + 1, 100, 1.0, pfcOnly(100_000, 80_000, 70_000));
        Simulator sim = new Simulator(f, incast(n, 100 * 4138L), SimConfig.defaults());
        List<long[]> xoffs = new ArrayList<>();
        List<Long> s1Starts = new ArrayList<>();
        sim.setTrace(new SimTrace() {
            @Override
            public void pfcSent(long nowPs, String port, int priority, int quanta, long ingressBytes) {
                if (port.equals("leaf0:eth1") && quanta > 0) {
                    xoffs.add(new long[] {nowPs, ingressBytes});
                }
            }

            @Override
            public void transmitStart(long nowPs, String port, String kind, int priority, int flow, int psn) {
                if (port.equals("s1:nic0") && kind.equals("data")) {
                    s1Starts.add(nowPs);
                }
            }
        });
        sim.run();
        assertTrue(!xoffs.isEmpty(), "leaf0 paused s1");
        long tx = xoffs.get(0)[0];
        // The last data frame s1 starts before falling silent (a gap of more than two frame times
        // that ends after the XOFF).
        long lastStart = -1;
        long resumed = -1;
        for (int i = 0; i < s1Starts.size() - 1; i++) {
            if (s1Starts.get(i + 1) > tx && s1Starts.get(i + 1) - s1Starts.get(i) > 2 * SER_FULL_100G) {
                lastStart = s1Starts.get(i);
                resumed = s1Starts.get(i + 1);
                break;
            }
        }
        assertTrue(lastStart >= 0, "s1 fell silent after the XOFF");
        // Leaf0 keeps it paused until its ingress drains to XON: at least 20 KB at a quarter of 100G = 6.4 us.
        assertTrue(resumed - tx > 6_000_000, "paused for " + (resumed - tx));
        // Bound: the PAUSE waits for at most one frame already on leaf0:eth1 (here only 66 B ACKs),
        // takes 84 B * 80 ps = 6,720 ps to send and 5,000 ps to cross; it takes effect at s1 after
        // both ends' interface delay and s1's response time, 2 x 122,880 + 394 x 512 = 447,488 bit
        // times = 4,474,880 ps (IEEE 802.3 Annex 31B at 100G; Simulator.pfcReactionPs). s1 may start
        // frames until then and finishes the one it started. So s1's last start is within a frame
        // time + PFC frame + one-way delay + reaction of the XOFF...
        long reaction = 4_474_880;
        assertEquals(reaction, Simulator.pfcReactionPs(100, 100_000_000_000L));
        long bound = SER_FULL_100G + 6_720 + PROP_1M + reaction;
        System.out.printf("pause reaction: XOFF at %d ps, s1 last start %d ps (%+d ps), resumed %d ps after XOFF%n",
                tx, lastStart, lastStart - tx, resumed - tx);
        assertTrue(lastStart - tx <= bound, "s1 kept starting frames " + (lastStart - tx) + " ps after XOFF");
        // ...it does use the response time (more than the 4.47 us reaction minus a frame time)...
        assertTrue(lastStart - tx >= reaction - SER_FULL_100G, "s1 stopped after " + (lastStart - tx) + " ps");
        // ...and that frame lands in leaf0 within one round trip, the reaction and two frame times of the XOFF.
        long landed = lastStart + SER_FULL_100G + PROP_1M;
        assertTrue(landed - tx <= 2 * PROP_1M + 2 * SER_FULL_100G + 6_720 + reaction);
    }
}
