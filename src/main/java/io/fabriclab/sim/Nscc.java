package io.fabriclab.sim;

/**
 * Ultra Ethernet's sender-based congestion control, NSCC (UEC 1.0, congestion management;
 * modelled after the NSCC of csg-htsim, the UEC reference simulator), for one flow: a
 * congestion window in payload bytes moved by two signals each acknowledgement carries, the
 * ECN echo of the data packet and its queuing delay (RTT minus the base RTT), and cut by the
 * bytes of every trimmed (NACKed) packet. docs/model.md, Ultra Ethernet, gives the rules and
 * cites every constant:
 * <ul>
 * <li>no ECN, delay below target: proportional increase, by {@link #PROPORTIONAL_MTUS_PER_RTT}
 *     x (target - delay) / target MTUs per RTT, plus the fair increase;</li>
 * <li>no ECN, delay at or above target: fair increase only ({@code additiveIncreaseMtus} per RTT);
 *     both increases are scaled by the flow's BDP over a 150,000 B reference ({@link #scaling});</li>
 * <li>ECN and delay at or above target: multiplicative decrease, at most once per base RTT,
 *     cwnd x max(1 - {@link #GAMMA} x (avg - target) / avg, 1 - maxDecrease) on the averaged delay;</li>
 * <li>ECN, delay below target: no change (the mark is from a queue that has already drained).</li>
 * </ul>
 * Increases are gathered and applied once per base RTT (cwnd += gathered / cwnd); the window stays
 * between one MTU and {@link #MAX_WINDOW_BDPS} x BDP, where it starts. A NACK cuts the window by
 * the trimmed packet's bytes and triggers quick adapt: at most once per base RTT + target delay,
 * the window becomes the bytes acknowledged in the last such period (what the path delivered).
 * Not modelled: NSCC's path-penalty feedback to the entropy choice.
 */
final class Nscc {
    /** Largest window, in bandwidth-delay products; also the initial window (htsim: _maxwnd = 1.5 x BDP). */
    static final double MAX_WINDOW_BDPS = 1.5;
    /** Aggressiveness of the multiplicative decrease (htsim: _gamma = 0.8). */
    static final double GAMMA = 0.8;
    /** Weight of a new delay sample in the averaged delay (htsim: _delay_alpha = 0.0125). */
    static final double DELAY_EWMA = 0.0125;
    /**
     * Proportional increase at zero queuing delay, MTUs per RTT: htsim's alpha x target =
     * 4 x scaling_a x scaling_b x MSS, which is 2 MSS at its 100 Gb/s, 12 us reference (scaling 1 and 0.5).
     */
    static final double PROPORTIONAL_MTUS_PER_RTT = 2.0;
    /**
     * The reference network the increases are stated for: 100 Gb/s and a 12 us RTT, a BDP of
     * 150,000 B (htsim initNsccParams: _reference_network_linkspeed, _reference_network_rtt). A
     * flow's increases scale by its own BDP over this one (htsim's scaling_factor_a), so a window
     * of a few packets does not grow by whole MTUs every RTT.
     */
    static final double REFERENCE_BDP_BYTES = 100e9 / 8 * 12e-6;
    /** BDP / {@link #REFERENCE_BDP_BYTES} of this flow. */
    final double scaling;

    final int mtuPayload;
    final double maxWindow;
    final double maxDecrease;
    final double additiveIncreaseMtus;
    final double targetDelayFraction;
    long baseRttPs;
    long targetDelayPs;
    double cwnd;
    double avgDelayPs;
    double gatheredIncrease;
    long lastAdjustPs;
    long lastDecreasePs = Long.MIN_VALUE / 2;
    /** Counts of the four cases and of NACK cuts (results and tests read them). */
    long proportionalIncreases;
    long fairIncreases;
    long multiplicativeDecreases;
    long nackCuts;
    long quickAdapts;
    /** Quick adapt: bytes acknowledged since the current period began, and when it ends. */
    double achievedBytes;
    long quickAdaptEndPs;
    double minCwnd;

    /**
     * @param baseRttPs unloaded round trip of the flow's path (full data frame out, ACK back)
     * @param lineRateBps the sending NIC's rate
     */
    Nscc(int mtuPayload, long baseRttPs, long lineRateBps, TransportProfileUec p, long now) {
        this.mtuPayload = mtuPayload;
        this.baseRttPs = Math.max(1, baseRttPs);
        this.targetDelayFraction = p.nsccTargetDelayRttFraction();
        this.targetDelayPs = Math.max(1, Math.round(this.baseRttPs * targetDelayFraction));
        double bdp = lineRateBps / 8.0 * this.baseRttPs / 1e12;
        this.maxWindow = Math.max(mtuPayload, MAX_WINDOW_BDPS * bdp);
        this.scaling = bdp / REFERENCE_BDP_BYTES;
        this.maxDecrease = p.nsccMultiplicativeDecrease();
        this.additiveIncreaseMtus = p.nsccAdditiveIncreaseMtus();
        this.cwnd = maxWindow;
        this.minCwnd = cwnd;
        this.lastAdjustPs = now;
        this.quickAdaptEndPs = now + this.baseRttPs + targetDelayPs;
    }

    /** An acknowledgement of {@code ackedBytes} whose data took {@code rttPs} and came back with {@code ce}. */
    void onAck(long ackedBytes, long rttPs, boolean ce, long now) {
        if (rttPs < baseRttPs) {
            baseRttPs = Math.max(1, rttPs);
        }
        long delay = rttPs - baseRttPs;
        avgDelayPs = DELAY_EWMA * delay + (1 - DELAY_EWMA) * avgDelayPs;
        achievedBytes += ackedBytes;
        if (now > quickAdaptEndPs) {
            achievedBytes = 0;
            quickAdaptEndPs = now + baseRttPs + targetDelayPs;
        }
        // An increase of k MTUs per RTT: each ACK adds k x MTU x acked, and a window's worth of
        // ACKs (acked summing to cwnd) divided by cwnd at the adjustment gives k MTUs.
        if (!ce) {
            double mtus = additiveIncreaseMtus;
            if (delay < targetDelayPs) {
                mtus += PROPORTIONAL_MTUS_PER_RTT * (targetDelayPs - delay) / (double) targetDelayPs;
                proportionalIncreases++;
            } else {
                fairIncreases++;
            }
            gatheredIncrease += mtus * scaling * mtuPayload * ackedBytes;
        } else if (delay >= targetDelayPs && avgDelayPs > targetDelayPs && now - lastDecreasePs >= baseRttPs) {
            double factor = Math.max(1 - GAMMA * (avgDelayPs - targetDelayPs) / avgDelayPs, 1 - maxDecrease);
            cwnd *= factor;
            lastDecreasePs = now;
            multiplicativeDecreases++;
        }
        if (now - lastAdjustPs >= baseRttPs) {
            cwnd += gatheredIncrease / cwnd;
            gatheredIncrease = 0;
            lastAdjustPs = now;
        }
        clamp();
    }

    /** A NACK for a trimmed packet of {@code bytes}: the window gives up those bytes (htsim: cwnd -= nacked bytes). */
    void onNack(long bytes, long now) {
        cwnd -= bytes;
        nackCuts++;
        if (now > quickAdaptEndPs) {
            // Quick adapt (htsim quick_adapt on loss): the window falls to what was delivered in
            // the period just ended, if that is less.
            if (achievedBytes < cwnd) {
                cwnd = achievedBytes;
                quickAdapts++;
            }
            achievedBytes = 0;
            quickAdaptEndPs = now + baseRttPs + targetDelayPs;
        }
        clamp();
    }

    private void clamp() {
        if (cwnd < mtuPayload) {
            cwnd = mtuPayload;
        }
        if (cwnd > maxWindow) {
            cwnd = maxWindow;
        }
        if (cwnd < minCwnd) {
            minCwnd = cwnd;
        }
    }
}
