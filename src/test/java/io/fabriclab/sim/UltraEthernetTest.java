package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Transport;
import io.fabriclab.workload.FlowSpec;

/**
 * Ultra Ethernet in the simulator (docs/validation.md, Ultra Ethernet): trimming instead of PFC in
 * an incast, selective retransmission of exactly the trimmed packets, and per-packet spraying
 * within the binomial bound.
 */
class UltraEthernetTest {
    static final TransportProfile UEC = TransportProfile.of(Transport.ULTRA_ETHERNET);
    /** NDP-style shallow trimming: a fixed threshold of 8 full packets on top of the buffer's limit. */
    static final TransportProfile UEC_TRIM_8 = TransportProfile.ultraEthernet(
            TransportProfileUec.defaults().withTrimThresholdPackets(8));
    /** Payload of a full UET packet at the default 4200 B MTU: 4200 - 102 B of headers (UecFraming). */
    static final int PAYLOAD = 4200 - 102;

    @Test
    void uetHeadersLeave4098BytesOfPayloadAtThe4200ByteMtu() {
        // Ethernet 14 + IPv4 20 + UDP 8 + PDS 12 + SES 44 + FCS 4 = 102 B; 4200 - 102 = 4098.
        assertEquals(102, UecFraming.DATA_HEADER_BYTES);
        assertEquals(PAYLOAD, UecFraming.maxPayload(4200));
    }

    @Test
    void incastWithTrimmingLosesNoDataRetransmitsOnlyTrimmedPacketsAndNeverPauses() {
        int n = 8;
        int packets = 242;
        // The QoS profile makes class 3 lossless with PFC (XOFF 100 KB); an Ultra Ethernet run must
        // ignore it: best effort, no PAUSE, trimming instead.
        Fabric f = TestFabrics.star(n + 1, 100, 1.0, IncastTest.pfcOnly(100_000, 80_000, 70_000));
        List<FlowSpec> flows = IncastTest.incast(n, (long) packets * PAYLOAD);
        // A fixed trim threshold of 8 packets (the 64 MB buffer alone would hold the whole incast).
        Simulator sim = new Simulator(f, flows, SimConfig.defaults(), QosResolver.of(f), UEC_TRIM_8);
        // The trimming bounds below are for a switch without pipeline latency (the base RTT, hence
        // NSCC's largest window of 1.5 BDP, is then 0.71 us); SwitchPipelineTest covers the latency.
        sim.setSwitchLatencyPs(0);
        SimResults r = sim.run();
        SimResults.UecResult u = r.ultraEthernet();
        assertNotNull(u);
        System.out.printf("UEC incast 8:1: trimmed %d, NACKs %d/%d, retransmitted %d packets %d B, timeouts %d, "
                        + "out of order %d, min cwnd %d B, last finish %.1f us%n", u.trimmedPackets(), u.nacksSent(),
                u.nacksReceived(), u.retransmittedPackets(), u.retransmittedBytes(), u.timeouts(),
                u.outOfOrderPackets(), u.minCwndBytes(), r.summary().fctMaxUs());

        // No data lost: every flow completes (every PSN arrived), nothing was dropped anywhere.
        assertEquals(SimResults.StopReason.COMPLETED, r.run().stopReason());
        assertEquals(n, r.run().flowsCompleted());
        assertEquals(0, r.summary().drops());
        // Never a PAUSE: no frame sent, no time paused, on any port.
        assertEquals(0, r.summary().pauseFramesSent());
        assertEquals(0, r.summary().pausedPs());
        assertTrue(r.pfcEvents().isEmpty());
        // Eight senders start with 1.5 BDP each into one 100G port: the queue crosses the threshold,
        // so some packets are trimmed.
        assertTrue(u.trimmedPackets() > 0, "the incast trims");
        // Selective retransmission: each trimmed header brings one NACK, each NACK one retransmission
        // of that packet only; no timeout fires, so trimmed == NACKed == retransmitted, and the bytes
        // sent again are exactly the payload the switch cut.
        assertEquals(u.trimmedPackets(), u.nacksSent());
        assertEquals(u.trimmedPackets(), u.nacksReceived());
        assertEquals(0, u.timeouts());
        assertEquals(u.trimmedPackets(), u.retransmittedPackets());
        assertEquals(u.trimmedPayloadBytes(), u.retransmittedBytes());
        assertEquals(u.retransmittedBytes(), r.summary().retransmittedBytes());
        assertEquals(0, u.duplicatePackets(), "nothing that arrived was sent again");
        // Every trim happened at the one congested queue, leaf0 toward the receiver s0.
        assertEquals(List.of(new SimResults.TrimResult("leaf0:eth0", u.trimmedPackets())), u.trimsByPort());
        // The receiver's link carries each data packet in full exactly once (8 x 242 = 1936 frames)
        // plus one header per trim.
        SimResults.LinkResult down = r.links().stream().filter(l -> l.from().equals("leaf0:eth0")).findFirst().orElseThrow();
        assertEquals((long) n * packets + u.trimmedPackets(), down.frames());
        // The receiver's link stays busy: 1936 full frames of 4200 + 20 B at 80 ps/B are
        // 1936 x 337,600 ps = 653.6 us of wire time; the last byte arrives within 1 % of that
        // (the link is >= 99 % busy from first to last byte).
        long last = r.flows().stream().mapToLong(SimResults.FlowResult::finishPs).max().orElseThrow();
        assertTrue(last <= (long) n * packets * IncastTest.SER_FULL_100G * 101 / 100, "last byte at " + last + " ps");
        // NSCC saw the marks the trim-relative ECN curve made (Kmin 33,600 / 4 = 8,400 B) and cut
        // windows on them, so trimming stayed at the start of the incast, below 5 % of the packets.
        assertTrue(u.nsccMultiplicativeDecreases() > 0);
        assertTrue(u.trimmedPackets() < n * packets / 20, "trimmed " + u.trimmedPackets());
        // Trimming bounds the data queue: a packet is queued only while the queue is below
        // 8 x 4200 = 33,600 B, so the queue never holds more than 33,600 + 4200 = 37,800 B
        // (in fact it stays below: the last packet admitted found less than 33,600 B).
        SimResults.QueueResult q = r.queues().stream()
                .filter(x -> x.port().equals("leaf0:eth0") && x.trafficClass() == 3).findFirst().orElseThrow();
        assertTrue(q.maxBytes() < 8 * 4200 + 4200, "data queue " + q.maxBytes());
        assertTrue(q.maxBytes() >= 8 * 4200 - 4200, "the queue reached the trim threshold: " + q.maxBytes());
    }

    @Test
    void sprayingCyclesTheEntropiesSoEachSpineCarriesItsShareOfEveryCycle() {
        // One flow of N = 2000 packets from leaf0 to leaf1 over P = 4 spines, no congestion (a
        // 100G NIC over four 100G uplinks), so no NACK or ECN echo penalises an entropy value.
        // The sender cycles through its 256 EVs, each once per cycle in a shuffled order
        // (csg-htsim EQDS); leaf0 maps them through a keyed bijection of the 256 values, modulo 4,
        // so of every cycle's 256 EVs exactly 64 go to each uplink. 2000 = 7 x 256 + 208: seven
        // whole cycles give 448 per uplink; the eighth cycle's 208 EVs are drawn without
        // replacement from 64 per uplink, so each uplink gets between 208 - 3 x 64 = 16 and 64 of
        // them: every uplink carries 464 to 512 packets. Random choice per packet
        // (Binomial(2000, 1/4), 500 +- 19.4) gave 478 525 495 502 for seed 1; ECMP would put all
        // 2000 on one.
        int n = 2000;
        int p = 4;
        int[] split = new int[p];
        for (int ev = 0; ev < 256; ev++) {
            split[NextHopSelector.permute(ev, 8, 0x9E3779B97F4A7C15L) % p]++;
        }
        assertEquals(List.of(64, 64, 64, 64), java.util.Arrays.stream(split).boxed().toList());
        Fabric f = TestFabrics.leafSpine(2, p, 1, 100, 100, 1.0, null);
        List<FlowSpec> flows = List.of(new FlowSpec("s0_0:nic0", "s1_0:nic0", (long) n * PAYLOAD, 0, 3));
        for (long seed = 1; seed <= 3; seed++) {
            SimResults r = new Simulator(f, flows, SimConfig.defaults().withSeed(seed), QosResolver.of(f), UEC).run();
            assertEquals(1, r.run().flowsCompleted());
            assertEquals("spray", r.run().routing());
            assertEquals(0, r.ultraEthernet().trimmedPackets(), "one flow at line rate on 4 uplinks: no queue to trim");
            long total = 0;
            StringBuilder counts = new StringBuilder();
            for (int s = 0; s < p; s++) {
                String from = "leaf0:up" + s;
                long frames = r.links().stream().filter(l -> l.from().equals(from)).findFirst().orElseThrow().frames();
                counts.append(' ').append(frames);
                total += frames;
                assertTrue(frames >= 464 && frames <= 512, "seed " + seed + ": uplink " + s + " carried " + frames);
            }
            System.out.printf("UEC spray seed %d: packets per uplink%s (bound 464-512)%n", seed, counts);
            assertEquals(n, total, "every packet crossed exactly one uplink");
        }
    }

    @Test
    void aPenalisedEntropyIsSkippedOnceAndEveryCycleVisitsEachValueOnce() {
        // 8 EVs, the first cycle's XOR 0: EVs 0, 1, 2, ... in order. A NACK on EV 2 (penalty 1,
        // csg-htsim's _max_penalty) makes the sender skip it once: 0, 1, 3, 4, 5, 6, 7; the next
        // cycle (a new XOR x) visits all 8 values again, 2 included.
        UecTransport.State s = new UecTransport.State(16);
        s.evPenalty = new byte[8];
        s.evXor = 0;
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(7);
        UecTransport.penalise(s, 2);
        UecTransport.penalise(s, 2);
        List<Integer> first = new java.util.ArrayList<>();
        for (int i = 0; i < 7; i++) {
            first.add(UecTransport.nextEntropy(s, rnd));
        }
        assertEquals(List.of(0, 1, 3, 4, 5, 6, 7), first);
        java.util.Set<Integer> second = new java.util.TreeSet<>();
        for (int i = 0; i < 8; i++) {
            second.add(UecTransport.nextEntropy(s, rnd));
        }
        assertEquals(java.util.Set.of(0, 1, 2, 3, 4, 5, 6, 7), second);
    }

    @Test
    void anEcnCurveThatCouldNeverMarkBeforeTheTrimThresholdIsReplaced() {
        long thr = 8 * 4200;                                     // 33,600 B
        io.fabriclab.model.WredEcn roce = new io.fabriclab.model.WredEcn(400_000, 1_600_000, 0.2);
        // Kmin 400 KB >= 33.6 KB: never marks under trimming; replaced by 33,600 / 4 = 8,400 B to
        // 33,600 x 97 / 100 = 32,592 B.
        assertEquals(new io.fabriclab.model.WredEcn(8_400, 32_592, 1.0), Trimming.curveFor(roce, thr));
        // Without a fixed threshold the trim point is the buffer's largest lossy queue: a 64 MiB
        // pool at alpha 1 lets one queue hold 64 MiB x 1 / (1 + 1) = 33,554,432 B, so the RoCEv2
        // curve (Kmin 400 KB below it) is kept.
        long deep = new io.fabriclab.model.BufferConfig(64L << 20, io.fabriclab.model.BufferConfig.ThresholdMode.DYNAMIC,
                0, 1.0, 0).maxQueueBytes();
        assertEquals(33_554_432, deep);
        assertEquals(roce, Trimming.curveFor(roce, deep));
        assertEquals(new io.fabriclab.model.WredEcn(8_400, 32_592, 1.0), Trimming.curveFor(null, thr));
        io.fabriclab.model.WredEcn shallow = new io.fabriclab.model.WredEcn(10_000, 30_000, 0.5);
        assertEquals(shallow, Trimming.curveFor(shallow, thr));
    }

    @Test
    void aRoceRunHasNoUltraEthernetResults() {
        Fabric f = TestFabrics.star(3, 100, 1.0, null);
        SimResults r = new Simulator(f, List.of(new FlowSpec("s1:nic0", "s0:nic0", 100_000, 0, 3)),
                SimConfig.defaults()).run();
        assertNull(r.ultraEthernet());
    }
}
