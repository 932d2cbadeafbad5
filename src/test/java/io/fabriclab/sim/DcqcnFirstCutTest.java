package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.fabriclab.model.DcqcnConfig;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Units;
import io.fabriclab.model.WredEcn;
import io.fabriclab.workload.FlowSpec;

/**
 * Validation (docs/validation.md, "DCQCN's first cut"): a flow that has run at line rate for any
 * time T and then receives exactly one CNP is cut to half the line rate. Alpha is the initial value
 * at the first CNP and its timer starts there (Zhu et al. 2015; HPCC's ns-3 {@code
 * cnp_received_mlx}; NVIDIA's {@code initial_alpha_value}), not at the queue pair's start.
 */
class DcqcnFirstCutTest {
    static final long LINE = 100_000_000_000L;

    /**
     * NVIDIA firmware-style DCQCN (alpha timer 1 us, g = 1/256, initial alpha 1, increase timer
     * 300 us, byte counter 10 MB) with the largest single cut raised from 0.5 to 1, so the cut is
     * alpha / 2 itself.
     */
    static DcqcnConfig firmwareFullCut() {
        DcqcnConfig fw = DcqcnConfig.nicFirmware();
        return new DcqcnConfig(true, fw.cnpIntervalUs(), fw.alphaTimerUs(), fw.rateIncreaseTimerUs(),
                fw.byteCounterBytes(), fw.fastRecoverySteps(), fw.g(), fw.rateAiMbps(), fw.rateHaiMbps(),
                1.0, fw.minRateMbps(), fw.minCutIntervalUs(), 1.0);
    }

    /** Flow A at line rate from 0; flow B's three frames at T make the only queue of the run. */
    static SimResults run(long tPs) {
        // ECN at dequeue with Kmin 1 B, Kmax 2 B, Pmax 1: a packet is marked exactly when at least
        // one frame waits behind it.
        WredEcn anyQueue = new WredEcn(1, 2, 1.0);
        Fabric f = TestFabrics.star(3, 100, 1.0, EcnDcqcnTest.qos(true, anyQueue, firmwareFullCut()));
        List<FlowSpec> flows = List.of(
                new FlowSpec("s1:nic0", "s0:nic0", 1_000_000_000L, 0, 3, "A"),
                new FlowSpec("s2:nic0", "s0:nic0", 3 * 4138L, tPs, 3, "B"));
        SimConfig cfg = SimConfig.defaults().withDurationPs(tPs + 100 * Units.PS_PER_US);
        return new Simulator(f, flows, cfg).run();
    }

    @ParameterizedTest
    @ValueSource(longs = {50, 300, 1000})
    void oneCnpAfterTMicrosecondsAtLineRateHalvesTheRate(long tUs) {
        // Derivation. Frames are 4200 B (4138 B payload + 62 B headers), 4220 B on the wire:
        // T1 = 4220 x 8 / 100 Gb/s = 337,600 ps on every 100G link.
        // Before T: A's frame k is wholly in leaf0 at (k+1) T1 + 5 ns, exactly when leaf0:eth0 ends
        // frame k-1, so no frame ever waits behind another: q = 0 < Kmin, no mark, no CNP, and A
        // sends at line rate (Rc = Rt = 100 Gb/s) for T.
        // At T: B's three frames arrive at line rate while A keeps arriving at line rate: leaf0:eth0
        // receives 2 x 100 Gb/s for 3 T1 and holds about 3 frames (12.6 KB) from then on. Every
        // packet it sends has a frame behind it: marked (p = 1 at q >= Kmax = 2 B). s0 sends A's QP
        // one CNP (then none for the 50 us CNP interval) and B's QP one.
        // At the CNP (about T + 3 us): alpha is the initial 1, whatever T was, so
        //   Rc = Rc (1 - min(alpha / 2, maxCutFraction)) = 100 G x (1 - min(0.5, 1)) = 50 Gb/s,
        //   Rt = 100 Gb/s, alpha = (1 - g) x 1 + g = 1.
        // After it: A arrives at 50 Gb/s into a 100 Gb/s port, so the queue drains at 50 Gb/s net,
        // 12.6 KB in about 2 us, long before the CNP interval would allow another CNP; the next rate
        // step would come at the 300 us increase timer or after 10 MB (1.6 ms at 50 Gb/s), both
        // beyond the end of the run at T + 100 us.
        // So A: one CNP, one cut, lowest and final rate exactly 50 Gb/s.
        // (The old model decayed alpha from A's start: after T = 50 us, (255/256)^~53 = 0.81, a cut
        // to ~59.5 Gb/s; after 1 ms, (255/256)^~1003 = 0.02, a cut to ~99 Gb/s.)
        SimResults r = run(tUs * Units.PS_PER_US);
        SimResults.FlowResult a = r.flows().get(0);
        System.out.printf("T = %d us: A %d CNP(s), %d cut(s), lowest %.4f Gb/s, final %.4f Gb/s%n", tUs,
                a.cnpsReceived(), a.rateCuts(), a.minRateGbps(), a.finalRateGbps());
        assertEquals(1, a.cnpsReceived(), "exactly one CNP to A");
        assertEquals(1, a.rateCuts());
        assertEquals(LINE / 2 / 1e9, a.minRateGbps(), 0.0, "line / 2 after one CNP at T = " + tUs + " us");
        assertEquals(LINE / 2 / 1e9, a.finalRateGbps(), 0.0);
        assertEquals(0, r.summary().drops());
        assertEquals(0, r.summary().pauseFramesSent());
        // The reaction log shows the one reaction: alpha 1 at the cut, 100 -> 50 Gb/s, target 100.
        // Its time: B's first frame is in leaf0 at T + T1 + 5 ns; within a frame time leaf0 sends a
        // frame with another behind it (marked), and A's first marked frame reaches s0 within about
        // three frame times; the CNP (98 B on the wire, 7.84 ns per 100G hop) is back at s1 a few
        // tens of ns later: between T and T + 2 us without switch latency. leaf0 is an Ethernet
        // cut-through switch (300 ns, model.SwitchLatency): the marked frame and the CNP each cross
        // it once, at most 2 x 300 ns more: before T + 2.6 us.
        List<SimResults.DcqcnReaction> log = r.dcqcnReactions().reactions().stream().filter(x -> x.flow() == 0).toList();
        assertEquals(1, log.size());
        SimResults.DcqcnReaction cut = log.get(0);
        System.out.printf("T = %d us: A's CNP at %d ps (T + %d ps)%n", tUs, cut.timePs(), cut.timePs() - tUs * Units.PS_PER_US);
        assertEquals(new SimResults.DcqcnReaction(0, cut.timePs(), true, 1.0, 100.0, 50.0, 100.0), cut);
        assertTrue(cut.timePs() > tUs * Units.PS_PER_US && cut.timePs() < (tUs + 2) * Units.PS_PER_US + 2 * 300_000);
    }
}
