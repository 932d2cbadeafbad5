package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.DcqcnConfig;

/** DCQCN reaction point, step by step against SIMULATION.md / Zhu et al. 2015, Algorithm 1. */
class ReactionPointTest {
    static final long LINE = 100_000_000_000L;
    static final long US = 1_000_000L;

    static ReactionPoint newRp(DcqcnConfig cfg) {
        return new ReactionPoint(cfg, LINE);
    }

    @Test
    void oneCnpCutsByHalfAlphaThenFastRecoveryAdditiveAndHyperIncreaseFollow() {
        // Paper profile: g = 1/256, alpha timer 55 us, increase timer 55 us, BC 10 MB, F = 5,
        // R_AI 40 Mb/s, R_HAI 200 Mb/s, initial alpha 1.
        ReactionPoint rp = newRp(DcqcnConfig.paper());
        // CNP at t = 0: Rt = Rc = 100G; Rc = 100G * (1 - 1/2) = 50G; alpha = (1-g) + g = 1.
        assertTrue(rp.onCnp(0));
        assertEquals(50_000_000_000L, rp.currentRateBps());
        assertEquals(LINE, rp.targetRateBps());
        assertEquals(1.0, rp.alphaAt(0), 1e-15);
        // A second CNP 1 us later (no alpha period elapsed): Rt = 50G, Rc = 25G, alpha stays 1.
        assertTrue(rp.onCnp(US));
        assertEquals(25_000_000_000L, rp.currentRateBps());
        assertEquals(50_000_000_000L, rp.targetRateBps());

        // Fast recovery: four timer expiries, each Rc = ceil((Rt + Rc) / 2), Rt unchanged.
        long rt = 50_000_000_000L;
        long rc = 25_000_000_000L;
        for (int i = 1; i <= 4; i++) {
            rp.onIncreaseTimer();
            rc = (rt + rc + 1) / 2;
            assertEquals(rc, rp.currentRateBps(), "fast recovery step " + i);
            assertEquals(rt, rp.targetRateBps());
        }
        assertEquals(48_437_500_000L, rc); // 37.5G, 43.75G, 46.875G, 48.4375G
        // T_cnt = 5 = F, BC_cnt = 0: additive increase Rt += 40 Mb/s, then the average.
        rp.onIncreaseTimer();
        rt += 40_000_000L;
        rc = (rt + rc + 1) / 2;
        assertEquals(rt, rp.targetRateBps());
        assertEquals(rc, rp.currentRateBps());
        // Byte counter: each 10 MB sent is one BC_cnt step; BC_cnt 1..4 with T_cnt = 5 stay additive.
        for (int bc = 1; bc <= 4; bc++) {
            assertTrue(rp.onBytesSent(10_000_000L));
            rt += 40_000_000L;
            rc = (rt + rc + 1) / 2;
            assertEquals(rc, rp.currentRateBps(), "additive BC step " + bc);
        }
        // BC_cnt = 5 and T_cnt = 5: hyper increase with i = min - F + 1 = 1: Rt += 200 Mb/s.
        assertTrue(rp.onBytesSent(10_000_000L));
        rt += 200_000_000L;
        rc = (rt + rc + 1) / 2;
        assertEquals(rt, rp.targetRateBps());
        assertEquals(rc, rp.currentRateBps());
        // T_cnt = 6, BC_cnt = 5: i = 1 again; then T_cnt 7, BC_cnt 6: i = 2 -> Rt += 400 Mb/s.
        rp.onIncreaseTimer();
        rt += 200_000_000L;
        rc = (rt + rc + 1) / 2;
        assertTrue(rp.onBytesSent(10_000_000L));
        rt += 2 * 200_000_000L;
        rc = (rt + rc + 1) / 2;
        assertEquals(rt, rp.targetRateBps());
        assertEquals(rc, rp.currentRateBps());
        assertEquals(2, rp.cuts());
    }

    @Test
    void theFirstCnpUsesTheInitialAlphaHoweverLongTheQueuePairRan() {
        // Firmware style (alpha timer 1 us, g = 1/256, initial alpha 1) with maxCutFraction 1.
        // Alpha is the initial value at the first CNP (Zhu et al. 2015; HPCC ns-3 cnp_received_mlx;
        // NVIDIA initial_alpha_value), so the first cut is always 1 - 1/2: 100 G -> 50 G, whatever the
        // time T since the QP started. (Decaying alpha from the start would give (255/256)^50 = 0.8223
        // at T = 50 us, a cut to 100 G x (1 - 0.4112) = 58.88 G; at T = 1 ms (255/256)^1000 = 0.0199,
        // a cut to 99.00 G.)
        for (long t : new long[] {0, 50 * US, 1000 * US, 1_000_000 * US}) {
            ReactionPoint rp = newRp(DcqcnFirstCutTest.firmwareFullCut());
            assertEquals(1.0, rp.alphaAt(t), 0.0, "no CNP yet at " + t);
            assertTrue(rp.onCnp(t));
            assertEquals(50_000_000_000L, rp.currentRateBps(), "cut at T = " + t + " ps");
            assertEquals(LINE, rp.targetRateBps());
            // The alpha timer starts at the CNP: alpha = (1-g) 1 + g = 1, then (1-g)^k after k periods.
            double g = 1.0 / 256;
            assertEquals(1.0, rp.alphaAt(t + US - 1), 1e-15);
            assertEquals(Math.pow(1 - g, 5), rp.alphaAt(t + 5 * US), 1e-12);
        }
    }

    @Test
    void alphaDecaysOncePerAlphaPeriodAfterACnpAndSetsTheNextCut() {
        ReactionPoint rp = newRp(DcqcnConfig.paper());
        double g = 1.0 / 256;
        // Before any CNP alpha is the initial 1, however long the QP has run.
        assertEquals(1.0, rp.alphaAt(10 * 55 * US), 0.0);
        // First CNP at t0 = 10 periods: cut 100 G -> 50 G; alpha = (1-g) 1 + g = 1; its timer starts.
        long t0 = 10 * 55 * US;
        assertTrue(rp.onCnp(t0));
        assertEquals(50_000_000_000L, rp.currentRateBps());
        // 3 full alpha periods (3 x 55 us) plus 1 ps after the CNP: alpha = (1-g)^3.
        long t = t0 + 3 * 55 * US + 1;
        double alpha = Math.pow(1 - g, 3);
        assertEquals(alpha, rp.alphaAt(t), 1e-12);
        assertEquals(1.0, rp.alphaAt(t0 + 55 * US - 1), 0.0); // not a whole period yet
        rp.onCnp(t);
        // Rc was 50 G (no increase step ran): Rc = 50 G x (1 - alpha / 2) = 25.29 G.
        assertEquals((long) (50_000_000_000L * (1 - alpha / 2)), rp.currentRateBps());
        assertEquals(alpha, rp.lastCnpAlpha(), 0.0);
        assertEquals(50_000_000_000L, rp.lastCnpRateBeforeBps());
        // After the CNP: alpha = (1-g) alpha + g, and the period restarts at the CNP.
        assertEquals((1 - g) * alpha + g, rp.alphaAt(t + 55 * US - 1), 1e-12);
    }

    @Test
    void rateStaysWithinMinimumAndLineRate() {
        ReactionPoint rp = newRp(DcqcnConfig.paper());
        for (int i = 0; i < 100; i++) {
            rp.onCnp(i * US);
        }
        // Rmin of the paper profile: 10 Mb/s.
        assertEquals(10_000_000L, rp.currentRateBps());
        for (int i = 0; i < 2000; i++) {
            rp.onIncreaseTimer();
            rp.onBytesSent(10_000_000L);
        }
        assertEquals(LINE, rp.currentRateBps());
        assertFalse(rp.limited());
    }

    @Test
    void firmwareProfileCutsAtMostOncePerMinimumCutInterval() {
        // NIC firmware style: a cut is considered at most every 4 us.
        ReactionPoint rp = newRp(DcqcnConfig.nicFirmware());
        assertTrue(rp.onCnp(0));
        long afterFirst = rp.currentRateBps();
        assertFalse(rp.onCnp(2 * US));
        assertEquals(afterFirst, rp.currentRateBps());
        assertTrue(rp.onCnp(4 * US));
        assertTrue(rp.currentRateBps() < afterFirst);
    }

    @Test
    void disabledDcqcnNeverChangesTheRate() {
        ReactionPoint rp = newRp(DcqcnConfig.off());
        assertFalse(rp.onCnp(0));
        assertEquals(LINE, rp.currentRateBps());
        assertEquals(1, rp.cnps());
    }
}
