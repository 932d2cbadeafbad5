package io.fabriclab.sim;

import io.fabriclab.model.DcqcnConfig;
import io.fabriclab.model.Units;

/**
 * The sender half of DCQCN (Zhu et al., SIGCOMM 2015, Algorithm 1) for one queue pair: current
 * rate Rc, target rate Rt, alpha, and the rate-increase state (timer count T_cnt, byte counter
 * count BC_cnt). Pure logic: the simulator calls it and schedules the increase timer.
 *
 * <p>Alpha is the configured initial value until the first CNP, and the first cut uses it: the
 * alpha timer starts at the first CNP, not when the queue pair starts (Zhu et al. 2015, where the
 * alpha update runs only once congestion was signalled; HPCC's ns-3 RDMA model, {@code
 * cnp_received_mlx}, which sets alpha and schedules its first update at the first CNP; NVIDIA's
 * {@code initial_alpha_value}, the alpha used at the first CNP). From then on alpha decays every
 * alpha period without a CNP: {@code alpha = (1-g) alpha}. The decay is applied lazily when alpha is
 * read (the number of whole periods since the last CNP), which equals a periodic timer restarted by
 * each CNP without an event per period.
 */
public final class ReactionPoint {
    private final long lineBps;
    private final long minBps;
    private final long aiBps;
    private final long haiBps;
    private final double g;
    private final long alphaPeriodPs;
    private final long increaseTimerPs;
    private final long byteCounterBytes;
    private final int fastRecoverySteps;
    private final long minCutIntervalPs;
    private final double maxCutFraction;
    private final boolean enabled;
    private final boolean clampTarget;
    private final boolean clampAfterTimeIncrease;
    /** The increase timer raised the rate since the last CNP (for {@code clampTargetAfterTimeIncrease}). */
    private boolean timerIncreased;

    private long rc;
    private long rt;
    private double alpha;
    /** Start of the running alpha period: the last CNP; {@link #NO_CNP} before the first. */
    private long alphaSincePs = NO_CNP;
    private static final long NO_CNP = Long.MIN_VALUE;
    /** Alpha used by the last CNP and the rate just before it (for the reaction log). */
    private double lastCnpAlpha = Double.NaN;
    private long lastCnpRateBeforeBps;
    private int timerCount;
    private int byteCount;
    private long bytesSinceStep;
    private long lastCutPs = Long.MIN_VALUE;
    private int timerGeneration;
    private long cuts;
    private long cnps;

    public ReactionPoint(DcqcnConfig cfg, long lineBps) {
        this.enabled = cfg.enabled();
        this.lineBps = lineBps;
        this.minBps = Math.min(lineBps, Math.max(1, Math.round(cfg.minRateMbps() * 1e6)));
        this.aiBps = Math.round(cfg.rateAiMbps() * 1e6);
        this.haiBps = Math.round(cfg.rateHaiMbps() * 1e6);
        this.g = cfg.g();
        this.alphaPeriodPs = Math.max(1, Math.round(cfg.alphaTimerUs() * Units.PS_PER_US));
        this.increaseTimerPs = Math.max(1, Math.round(cfg.rateIncreaseTimerUs() * Units.PS_PER_US));
        this.byteCounterBytes = Math.max(1, cfg.byteCounterBytes());
        this.fastRecoverySteps = cfg.fastRecoverySteps();
        this.minCutIntervalPs = Math.round(cfg.minCutIntervalUs() * Units.PS_PER_US);
        this.maxCutFraction = cfg.maxCutFraction();
        this.clampTarget = cfg.clampTargetRate();
        this.clampAfterTimeIncrease = cfg.clampTargetAfterTimeIncrease();
        this.rc = lineBps;
        this.rt = lineBps;
        this.alpha = cfg.initialAlpha();
    }

    public boolean enabled() {
        return enabled;
    }

    /** Current rate Rc in bit/s. */
    public long currentRateBps() {
        return rc;
    }

    /** Target rate Rt in bit/s. */
    public long targetRateBps() {
        return rt;
    }

    public long lineRateBps() {
        return lineBps;
    }

    public int timerCount() {
        return timerCount;
    }

    public int byteCount() {
        return byteCount;
    }

    public long cuts() {
        return cuts;
    }

    public long cnps() {
        return cnps;
    }

    /** Alpha the last CNP found (and cut with, if it cut); NaN before the first CNP. */
    public double lastCnpAlpha() {
        return lastCnpAlpha;
    }

    /** Rc just before the last CNP, in bit/s. */
    public long lastCnpRateBeforeBps() {
        return lastCnpRateBeforeBps;
    }

    /** Rate-increase timer period. */
    public long increaseTimerPs() {
        return increaseTimerPs;
    }

    /** Changes each time the increase timer restarts; a timer event of an older generation is stale. */
    public int timerGeneration() {
        return timerGeneration;
    }

    /** True while the rate is below line rate, i.e. the increase timer and byte counter matter. */
    public boolean limited() {
        return rc < lineBps || rt < lineBps;
    }

    /**
     * Alpha at {@code nowPs}: the initial alpha before the first CNP; after it, the stored value
     * decayed once per whole alpha period since the last CNP.
     */
    public double alphaAt(long nowPs) {
        if (alphaSincePs == NO_CNP) {
            return alpha;
        }
        long periods = (nowPs - alphaSincePs) / alphaPeriodPs;
        if (periods <= 0) {
            return alpha;
        }
        return alpha * StrictMath.pow(1 - g, periods);
    }

    /**
     * A CNP arrives. Rt = Rc (unless the profile does not clamp the target, see
     * {@link DcqcnConfig#clampTargetRate}); Rc = max(Rmin, Rc (1 - alpha/2)); alpha = (1-g) alpha + g; the
     * counters and the increase timer restart. With a minimum cut interval (NIC firmware style), a
     * CNP within that interval of the last cut updates alpha but does not cut again.
     *
     * @return true when the rate was cut (the caller restarts the increase timer)
     */
    public boolean onCnp(long nowPs) {
        cnps++;
        if (!enabled) {
            return false;
        }
        double a = alphaAt(nowPs);
        lastCnpAlpha = a;
        lastCnpRateBeforeBps = rc;
        boolean cut = minCutIntervalPs <= 0 || lastCutPs == Long.MIN_VALUE || nowPs - lastCutPs >= minCutIntervalPs;
        if (cut) {
            double fraction = Math.min(a / 2, maxCutFraction);
            if (clampTarget || clampAfterTimeIncrease && timerIncreased) {
                // Rt = Rc (the paper; ConnectX only after a timer-driven increase by default).
                rt = rc;
            }
            timerIncreased = false;
            rc = Math.max(minBps, (long) (rc * (1 - fraction)));
            timerCount = 0;
            byteCount = 0;
            bytesSinceStep = 0;
            timerGeneration++;
            lastCutPs = nowPs;
            cuts++;
        }
        alpha = (1 - g) * a + g;
        alphaSincePs = nowPs;
        return cut;
    }

    /** The increase timer expired: T_cnt++ and one increase step. */
    public void onIncreaseTimer() {
        timerCount++;
        increase();
        timerIncreased = true;
    }

    /**
     * The QP sent {@code bytes}; every byte-counter's worth counts one BC_cnt step.
     *
     * @return true when at least one increase step happened
     */
    public boolean onBytesSent(long bytes) {
        if (!enabled || !limited()) {
            return false;
        }
        bytesSinceStep += bytes;
        boolean stepped = false;
        while (bytesSinceStep >= byteCounterBytes) {
            bytesSinceStep -= byteCounterBytes;
            byteCount++;
            increase();
            stepped = true;
        }
        return stepped;
    }

    private void increase() {
        int maxCount = Math.max(timerCount, byteCount);
        int minCount = Math.min(timerCount, byteCount);
        if (minCount >= fastRecoverySteps) {
            // Hyper increase: i = min(T_cnt, BC_cnt) - F + 1.
            long i = minCount - fastRecoverySteps + 1L;
            rt = Math.min(lineBps, rt + i * haiBps);
        } else if (maxCount >= fastRecoverySteps) {
            rt = Math.min(lineBps, rt + aiBps);
        }
        // Fast recovery and both increases end with the same averaging; rounded up so Rc reaches Rt.
        rc = Math.min(lineBps, Math.max(minBps, (rt + rc + 1) / 2));
    }
}
