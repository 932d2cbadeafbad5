package io.fabriclab.model;

/**
 * DCQCN (Zhu et al., SIGCOMM 2015) parameters of the NICs that use a profile. Both halves: the
 * notification point (receiver, CNP pacing) and the reaction point (sender rate control).
 *
 * @param enabled              congestion control on or off (off: senders always at line rate)
 * @param cnpIntervalUs        at most one CNP per QP per this interval at the receiver
 * @param alphaTimerUs         alpha decays (alpha = (1-g) alpha) every this long without a CNP
 * @param rateIncreaseTimerUs  each expiry counts one T_cnt step of rate increase
 * @param byteCounterBytes     each this many bytes sent counts one BC_cnt step
 * @param fastRecoverySteps    F: steps of fast recovery before additive increase
 * @param g                    EWMA gain of alpha
 * @param rateAiMbps           additive increase step R_AI
 * @param rateHaiMbps          hyper increase step R_HAI
 * @param initialAlpha         alpha of a new QP
 * @param minRateMbps          Rmin, the floor of the current rate
 * @param minCutIntervalUs     a new cut is considered at most once per this interval (0 = every CNP)
 * @param maxCutFraction       largest single cut of the rate (0.5 = at most halve)
 */
public record DcqcnConfig(boolean enabled, double cnpIntervalUs, double alphaTimerUs, double rateIncreaseTimerUs,
                          long byteCounterBytes, int fastRecoverySteps, double g, double rateAiMbps,
                          double rateHaiMbps, double initialAlpha, double minRateMbps, double minCutIntervalUs,
                          double maxCutFraction) {

    /** The parameters of the DCQCN paper (SIGCOMM 2015) and its authors' simulator. */
    public static DcqcnConfig paper() {
        return new DcqcnConfig(true, 50, 55, 55, 10_000_000L, 5, 1.0 / 256, 40, 200, 1.0, 10, 0, 0.5);
    }

    /** NVIDIA ConnectX firmware-style parameters (also HPCC's simulator, --cc dcqcn). */
    public static DcqcnConfig nicFirmware() {
        return new DcqcnConfig(true, 50, 1, 300, 10_000_000L, 5, 1.0 / 256, 5, 50, 1.0, 100, 4, 0.5);
    }

    public static DcqcnConfig off() {
        DcqcnConfig p = paper();
        return new DcqcnConfig(false, p.cnpIntervalUs, p.alphaTimerUs, p.rateIncreaseTimerUs, p.byteCounterBytes,
                p.fastRecoverySteps, p.g, p.rateAiMbps, p.rateHaiMbps, p.initialAlpha, p.minRateMbps,
                p.minCutIntervalUs, p.maxCutFraction);
    }
}
