package io.fabriclab.sim;

/**
 * Ultra Ethernet (UEC Specification 1.0, 2025) parameters of a run: per-packet spraying, packet
 * trimming at switches, receiver NACKs, selective retransmission and the sender-based congestion
 * control NSCC. docs/model.md, Transports, cites each default.
 *
 * @param trimThresholdPackets  a data packet that finds its egress queue at or above this many full
 *                              packets is trimmed to its headers and forwarded at high priority
 * @param pathEntropies         entropy values (paths) a sender sprays over per destination
 * @param selectiveRetransmit   the sender resends only what was NACKed or SACKed missing (never go-back-N)
 * @param nsccTargetDelayRttFraction NSCC's target queuing delay as a fraction of the base RTT
 * @param nsccMultiplicativeDecrease NSCC's largest single window cut (fraction of the window)
 * @param nsccAdditiveIncreaseMtus   NSCC's window growth per RTT without congestion, in MTUs
 */
public record TransportProfileUec(int trimThresholdPackets, int pathEntropies, boolean selectiveRetransmit,
                                  double nsccTargetDelayRttFraction, double nsccMultiplicativeDecrease,
                                  double nsccAdditiveIncreaseMtus) {

    public TransportProfileUec {
        if (trimThresholdPackets < 1 || pathEntropies < 1) {
            throw new IllegalArgumentException("trim threshold and path entropies must be at least 1");
        }
        if (!(nsccTargetDelayRttFraction > 0) || !(nsccMultiplicativeDecrease > 0 && nsccMultiplicativeDecrease < 1)
                || !(nsccAdditiveIncreaseMtus > 0)) {
            throw new IllegalArgumentException("NSCC parameters out of range");
        }
    }

    /**
     * Defaults: trim at 8 full packets queued (NDP, Handley et al., SIGCOMM 2017, runs its data
     * queues at 8 packets, and UEC's trimming descends from NDP); spray over 256 entropies
     * (csg-htsim's UEC sender sprays over 256 path entropies unless told otherwise); selective
     * retransmission (UEC 1.0 PDS: reliable unordered delivery with SACK and NACK, no go-back-N);
     * NSCC cuts the window at most by half and grows it by one MTU per RTT, the AIMD constants of
     * TCP (RFC 5681) and DCTCP at full marking (RFC 8257); its target queuing delay of one base
     * RTT is FabricLab's starting value until the simulator models NSCC (docs/model.md says so).
     */
    public static TransportProfileUec defaults() {
        return new TransportProfileUec(8, 256, true, 1.0, 0.5, 1.0);
    }
}
