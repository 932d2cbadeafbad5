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
 * @param clampTargetRate      on a cut, the target rate Rt becomes the current rate Rc (the DCQCN paper's
 *                             Algorithm 1; NVIDIA's {@code clamp_tgt_rate}, off by default on ConnectX: Rt
 *                             stays where it was, so recovery heads back toward it)
 * @param clampTargetAfterTimeIncrease on a cut, Rt becomes Rc if the increase timer raised the rate since
 *                             the previous CNP (NVIDIA's {@code clamp_tgt_rate_after_time_inc}, on by default)
 */
public record DcqcnConfig(boolean enabled, double cnpIntervalUs, double alphaTimerUs, double rateIncreaseTimerUs,
                          long byteCounterBytes, int fastRecoverySteps, double g, double rateAiMbps,
                          double rateHaiMbps, double initialAlpha, double minRateMbps, double minCutIntervalUs,
                          double maxCutFraction, boolean clampTargetRate, boolean clampTargetAfterTimeIncrease) {

    /** The paper's target-rate rule (Rt = Rc at every cut) with the thirteen rate parameters. */
    public DcqcnConfig(boolean enabled, double cnpIntervalUs, double alphaTimerUs, double rateIncreaseTimerUs,
                       long byteCounterBytes, int fastRecoverySteps, double g, double rateAiMbps, double rateHaiMbps,
                       double initialAlpha, double minRateMbps, double minCutIntervalUs, double maxCutFraction) {
        this(enabled, cnpIntervalUs, alphaTimerUs, rateIncreaseTimerUs, byteCounterBytes, fastRecoverySteps, g,
                rateAiMbps, rateHaiMbps, initialAlpha, minRateMbps, minCutIntervalUs, maxCutFraction, true, false);
    }

    /** These parameters with the target-rate clamps {@code clamp} and {@code afterTimeIncrease}. */
    public DcqcnConfig withClamps(boolean clamp, boolean afterTimeIncrease) {
        return new DcqcnConfig(enabled, cnpIntervalUs, alphaTimerUs, rateIncreaseTimerUs, byteCounterBytes,
                fastRecoverySteps, g, rateAiMbps, rateHaiMbps, initialAlpha, minRateMbps, minCutIntervalUs,
                maxCutFraction, clamp, afterTimeIncrease);
    }

    /** These parameters switched on or off. */
    public DcqcnConfig withEnabled(boolean on) {
        return new DcqcnConfig(on, cnpIntervalUs, alphaTimerUs, rateIncreaseTimerUs, byteCounterBytes,
                fastRecoverySteps, g, rateAiMbps, rateHaiMbps, initialAlpha, minRateMbps, minCutIntervalUs,
                maxCutFraction, clampTargetRate, clampTargetAfterTimeIncrease);
    }

    /** The parameters of the DCQCN paper (SIGCOMM 2015) and its authors' simulator. */
    public static DcqcnConfig paper() {
        return new DcqcnConfig(true, 50, 55, 55, 10_000_000L, 5, 1.0 / 256, 40, 200, 1.0, 10, 0, 0.5);
    }

    /**
     * "Firmware style", the default: the firmware timers and g the HPCC ns-3 simulator writes for
     * {@code --cc dcqcn} (alpha every 1 us, a cut at most every 4 us, increase timer 300 us, g
     * 1/256), its RdmaHw defaults for R_AI (5 Mb/s), R_HAI (50 Mb/s) and Rmin (100 Mb/s), at most
     * halve, with the DCQCN paper's CNP interval (50 us), byte counter (10 MB), F (5) and target
     * clamp. Each value is published; the set is no one configuration (HPCC's run.py itself uses
     * F 1, Rmin 1,000 Mb/s and R_AI scaled with the link). It is not NVIDIA's published default
     * set: that is {@link #connectX()}; docs/model.md, DCQCN, gives the differences, what they do
     * and why this one is the default.
     */
    public static DcqcnConfig nicFirmware() {
        return new DcqcnConfig(true, 50, 1, 300, 10_000_000L, 5, 1.0 / 256, 5, 50, 1.0, 100, 4, 0.5);
    }

    /**
     * NVIDIA ConnectX firmware defaults, as {@code mlxconfig -d <dev> q} reports them (a ConnectX-5
     * Ex, firmware 16.27.2008, posted to the xdp-newbies list on 19 June 2020; the same names as
     * NVIDIA's firmware configuration and the mlx5 driver's ecn sysfs parameters):
     * MIN_TIME_BETWEEN_CNPS 2 us (CNP interval), DCE_TCP_RTT 1 us (alpha timer), RPG_TIME_RESET
     * 300 us, RPG_BYTE_RESET 32,767 B, RPG_THRESHOLD 1 (F), DCE_TCP_G 1019 (alpha keeps 1019/1024
     * of itself per update: g = 5/1024 = 1/204.8), RPG_AI_RATE 5 Mb/s, RPG_HAI_RATE 50 Mb/s,
     * INITIAL_ALPHA_VALUE 1023 (of 1023: 1), RPG_MIN_RATE 1 Mb/s, RATE_REDUCE_MONITOR_PERIOD 4 us (a
     * cut at most every 4 us), RPG_MIN_DEC_FAC 50 (at most halve; with RPG_GD 11 the cut is
     * alpha x 1023 / 2^11, alpha / 2), CLAMP_TGT_RATE off, CLAMP_TGT_RATE_AFTER_TIME_INC on.
     */
    public static DcqcnConfig connectX() {
        return new DcqcnConfig(true, 2, 1, 300, 32_767L, 1, 5.0 / 1024, 5, 50, 1.0, 1, 4, 0.5, false, true);
    }

    public static DcqcnConfig off() {
        DcqcnConfig p = paper();
        return new DcqcnConfig(false, p.cnpIntervalUs, p.alphaTimerUs, p.rateIncreaseTimerUs, p.byteCounterBytes,
                p.fastRecoverySteps, p.g, p.rateAiMbps, p.rateHaiMbps, p.initialAlpha, p.minRateMbps,
                p.minCutIntervalUs, p.maxCutFraction);
    }
}
