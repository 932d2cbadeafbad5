package io.fabriclab.sim;

/**
 * Ultra Ethernet (UEC Specification 1.0, 2025) parameters of a run: per-packet spraying, packet
 * trimming at switches, receiver NACKs, selective retransmission and the sender-based congestion
 * control NSCC. docs/model.md, Transports, cites each default.
 *
 * @param trimThresholdPackets  0 (the default): a switch trims exactly the data packets its buffer would
 *                              drop; n: it also trims a data packet that finds its egress queue at or
 *                              above n full packets (NDP-style shallow trimming queues)
 * @param pathEntropies         entropy values (paths) a sender cycles through per flow, a power of two
 * @param selectiveRetransmit   the sender resends only what was NACKed or SACKed missing (never go-back-N)
 * @param nsccTargetDelayRttFraction NSCC's target queuing delay as a fraction of the base RTT
 * @param nsccMultiplicativeDecrease NSCC's largest single window cut (fraction of the window)
 * @param nsccAdditiveIncreaseMtus   NSCC's window growth per RTT without congestion, in MTUs
 */
public record TransportProfileUec(int trimThresholdPackets, int pathEntropies, boolean selectiveRetransmit,
                                  double nsccTargetDelayRttFraction, double nsccMultiplicativeDecrease,
                                  double nsccAdditiveIncreaseMtus) {

    /**
     * The floor of the retransmission timeout, microseconds: csg-htsim's EQDS sender
     * (DEFAULT_EQDS_RTO_MIN = 100 us, eqds.h, "min RTO bound"); its timer runs on the oldest
     * unanswered packet. The timeout itself follows RFC 6298 (SRTT + 4 RTTVAR) above the floor,
     * so a deep queue's delay does not fire it falsely.
     */
    public static final long MIN_RTO_US = 100;

    /**
     * The receiver acknowledges once it has accepted more than this many bytes (frames) since its
     * last ACK, and at once on an ECN-marked packet, a duplicate, the flow's first packet and a
     * packet that asks for it (AR: the sender's last new packet and every retransmission):
     * csg-htsim's EQDS sink (EqdsSink::_bytes_unacked_threshold = 16384, processData). Each ACK
     * carries the cumulative PSN and a 64-bit SACK bitmap (UEC 1.0 PDS ACK_CC, {@link UecFraming#ACK_FRAME_BYTES}).
     */
    public static final int ACK_COALESCE_BYTES = 16384;

    public TransportProfileUec {
        if (trimThresholdPackets < 0 || pathEntropies < 1) {
            throw new IllegalArgumentException("trim threshold must be at least 0 (0: none) and path entropies at least 1");
        }
        if (Integer.bitCount(pathEntropies) != 1 || pathEntropies > 1 << 15) {
            throw new IllegalArgumentException("path entropies must be a power of two up to 32768 (the sender cycles"
                    + " through them by XOR, as csg-htsim's EQDS), not " + pathEntropies);
        }
        if (!(nsccTargetDelayRttFraction > 0) || !(nsccMultiplicativeDecrease > 0 && nsccMultiplicativeDecrease < 1)
                || !(nsccAdditiveIncreaseMtus > 0)) {
            throw new IllegalArgumentException("NSCC parameters out of range");
        }
    }

    /**
     * Defaults: trim what the buffer would drop, at no fixed depth (Spectrum-4 "trims and forwards
     * packets that it is about to discard because buffer space is unavailable", Cumulus Linux,
     * Packet Trimming; SAI's "packets trimmed due to failed admission"); spray over 256 entropies
     * (csg-htsim's UEC sender sprays over 256 path entropies unless told otherwise); selective
     * retransmission (UEC 1.0 PDS: reliable unordered delivery with SACK and NACK, no go-back-N);
     * NSCC cuts the window at most by half and grows it by one MTU per RTT, the AIMD constants of
     * TCP (RFC 5681) and DCTCP at full marking (RFC 8257); its target queuing delay of one base
     * RTT is FabricLab's starting value until the simulator models NSCC (docs/model.md says so).
     */
    public static TransportProfileUec defaults() {
        return new TransportProfileUec(0, 256, true, 1.0, 0.5, 1.0);
    }

    /** These parameters with a fixed trim threshold of {@code packets} full packets (0: none). */
    public TransportProfileUec withTrimThresholdPackets(int packets) {
        return new TransportProfileUec(packets, pathEntropies, selectiveRetransmit, nsccTargetDelayRttFraction,
                nsccMultiplicativeDecrease, nsccAdditiveIncreaseMtus);
    }
}
