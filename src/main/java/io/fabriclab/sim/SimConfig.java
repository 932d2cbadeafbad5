package io.fabriclab.sim;

import io.fabriclab.model.Units;

/**
 * Run settings that are not part of the fabric's QoS profiles.
 *
 * @param seed                 seeds every random choice (ECN marking, UDP source ports); same seed, same results
 * @param durationPs           stop at this simulated time; 0 = run until every flow has completed
 * @param maxTimePs            safety stop for run-to-completion (a deadlocked fabric never completes)
 * @param sampleIntervalPs     telemetry sampling interval of the time series
 * @param maxSeriesPoints      bound of each time series (downsampled beyond it)
 * @param ackEveryPackets      the receiver acknowledges every this many in-order packets (and the last)
 * @param retransmitTimeoutPs  go-back-N retransmission timeout without acknowledgement progress
 * @param ectData              data packets carry ECT(0) (RoCEv2 NICs with ECN enabled)
 * @param perSwitchEcmpSeed    each switch mixes its own id into the ECMP hash (avoids polarization)
 */
public record SimConfig(long seed, long durationPs, long maxTimePs, long sampleIntervalPs, int maxSeriesPoints,
                        int ackEveryPackets, long retransmitTimeoutPs, boolean ectData, boolean perSwitchEcmpSeed) {

    public SimConfig {
        if (durationPs < 0 || maxTimePs <= 0 || sampleIntervalPs <= 0) {
            throw new IllegalArgumentException("durations must be positive");
        }
        if (ackEveryPackets < 1) {
            throw new IllegalArgumentException("ackEveryPackets must be >= 1");
        }
        if (maxSeriesPoints < 2 || (maxSeriesPoints & 1) != 0) {
            throw new IllegalArgumentException("maxSeriesPoints must be even and >= 2");
        }
    }

    /**
     * Defaults: run to completion (capped at 1 s simulated), 10 us sampling, 1024 points per
     * series, an ACK per packet (as the HPCC/ns-3 RDMA simulator does), a 4.194 ms retransmission
     * timeout (InfiniBand local ACK timeout 4.096 us * 2^10), ECT on data, per-switch ECMP seeds.
     */
    public static SimConfig defaults() {
        return new SimConfig(1, 0, Units.PS_PER_S, 10 * Units.PS_PER_US, 1024, 1, 4_194_304L * Units.PS_PER_NS,
                true, true);
    }

    public SimConfig withSeed(long s) {
        return new SimConfig(s, durationPs, maxTimePs, sampleIntervalPs, maxSeriesPoints, ackEveryPackets,
                retransmitTimeoutPs, ectData, perSwitchEcmpSeed);
    }

    public SimConfig withDurationPs(long d) {
        return new SimConfig(seed, d, maxTimePs, sampleIntervalPs, maxSeriesPoints, ackEveryPackets,
                retransmitTimeoutPs, ectData, perSwitchEcmpSeed);
    }

    public SimConfig withSampleIntervalPs(long s) {
        return new SimConfig(seed, durationPs, maxTimePs, s, maxSeriesPoints, ackEveryPackets,
                retransmitTimeoutPs, ectData, perSwitchEcmpSeed);
    }

    public SimConfig withAckEveryPackets(int n) {
        return new SimConfig(seed, durationPs, maxTimePs, sampleIntervalPs, maxSeriesPoints, n,
                retransmitTimeoutPs, ectData, perSwitchEcmpSeed);
    }

    public SimConfig withRetransmitTimeoutPs(long rto) {
        return new SimConfig(seed, durationPs, maxTimePs, sampleIntervalPs, maxSeriesPoints, ackEveryPackets,
                rto, ectData, perSwitchEcmpSeed);
    }

    public SimConfig withMaxTimePs(long m) {
        return new SimConfig(seed, durationPs, m, sampleIntervalPs, maxSeriesPoints, ackEveryPackets,
                retransmitTimeoutPs, ectData, perSwitchEcmpSeed);
    }

    public SimConfig withMaxSeriesPoints(int n) {
        return new SimConfig(seed, durationPs, maxTimePs, sampleIntervalPs, n, ackEveryPackets,
                retransmitTimeoutPs, ectData, perSwitchEcmpSeed);
    }
}
