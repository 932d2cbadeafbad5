package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.DcqcnConfig;

/**
 * NVIDIA ConnectX's published DCQCN defaults ({@link DcqcnConfig#connectX}, docs/model.md, DCQCN):
 * the values, and a recovery that heads back toward the unclamped target rate.
 */
class ConnectXDcqcnTest {
    static final long LINE = 100_000_000_000L;
    static final long US = 1_000_000L;

    @Test
    void theProfileIsMlxconfigsDefaults() {
        DcqcnConfig c = DcqcnConfig.connectX();
        assertEquals(2, c.cnpIntervalUs());            // MIN_TIME_BETWEEN_CNPS
        assertEquals(1, c.alphaTimerUs());             // DCE_TCP_RTT
        assertEquals(300, c.rateIncreaseTimerUs());    // RPG_TIME_RESET
        assertEquals(32_767, c.byteCounterBytes());    // RPG_BYTE_RESET
        assertEquals(1, c.fastRecoverySteps());        // RPG_THRESHOLD
        assertEquals((1024 - 1019) / 1024.0, c.g());   // DCE_TCP_G 1019 of 1024 kept
        assertEquals(5, c.rateAiMbps());               // RPG_AI_RATE
        assertEquals(50, c.rateHaiMbps());             // RPG_HAI_RATE
        assertEquals(1.0, c.initialAlpha());           // INITIAL_ALPHA_VALUE 1023 of 1023
        assertEquals(1, c.minRateMbps());              // RPG_MIN_RATE
        assertEquals(4, c.minCutIntervalUs());         // RATE_REDUCE_MONITOR_PERIOD
        assertEquals(0.5, c.maxCutFraction());         // RPG_MIN_DEC_FAC 50 %
        assertFalse(c.clampTargetRate());              // CLAMP_TGT_RATE
        assertTrue(c.clampTargetAfterTimeIncrease());  // CLAMP_TGT_RATE_AFTER_TIME_INC
    }

    @Test
    void afterACutTheRateRecoversTowardTheUnclampedTargetEvery32KiB() {
        // 100G at line rate; a CNP at 0: alpha is the initial 1, the cut min(1/2, 50 %) halves Rc to
        // 50G and Rt is the rate before the cut, 100G (as in the paper). Each 32,767 B sent is a
        // byte-counter step; with F = 1 the first is already additive (Rt + 5 Mb/s, capped at 100G)
        // and Rc = (Rt + Rc) / 2 (rounded up): 75G, then 87.5G. The firmware-style profile (byte
        // counter 10 MB) is still at 50G after those 65,534 B.
        ReactionPoint rp = new ReactionPoint(DcqcnConfig.connectX(), LINE);
        assertTrue(rp.onCnp(0));
        assertEquals(50_000_000_000L, rp.currentRateBps());
        assertEquals(LINE, rp.targetRateBps());
        assertTrue(rp.onBytesSent(32_767));
        assertEquals(75_000_000_000L, rp.currentRateBps());
        assertTrue(rp.onBytesSent(32_767));
        assertEquals(87_500_000_000L, rp.currentRateBps());
        ReactionPoint fw = new ReactionPoint(DcqcnConfig.nicFirmware(), LINE);
        fw.onCnp(0);
        fw.onBytesSent(2 * 32_767);
        assertEquals(50_000_000_000L, fw.currentRateBps());
        // A CNP 2 us later is inside RATE_REDUCE_MONITOR_PERIOD (4 us): alpha updates, no cut.
        assertFalse(rp.onCnp(2 * US));
        // A cut at 6 us: CLAMP_TGT_RATE off, no timer-driven increase since the last CNP: Rt stays
        // 100G (the paper's rule would set Rt to the 87.5G before the cut), so recovery heads back
        // to line rate.
        assertTrue(rp.onCnp(6 * US));
        assertEquals(LINE, rp.targetRateBps());
        assertTrue(rp.currentRateBps() < 87_500_000_000L);
        ReactionPoint clamped = new ReactionPoint(DcqcnConfig.nicFirmware(), LINE);
        clamped.onCnp(0);
        clamped.onCnp(6 * US);
        assertEquals(50_000_000_000L, clamped.targetRateBps());
        // After a timer-driven increase, CLAMP_TGT_RATE_AFTER_TIME_INC clamps: Rt = Rc before the cut.
        rp.onIncreaseTimer();
        long before = rp.currentRateBps();
        assertTrue(rp.onCnp(20 * US));
        assertEquals(before, rp.targetRateBps());
        assertTrue(rp.currentRateBps() < before);
    }
}
