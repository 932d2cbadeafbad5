package io.fabriclab.sim;

import java.util.List;

import io.fabriclab.model.QosProfile;
import io.fabriclab.model.WredEcn;

/**
 * Ultra Ethernet packet trimming at a switch (UEC 1.0, packet trimming; NDP, Handley et al.,
 * SIGCOMM 2017): a data packet the switch's buffer would drop (the shared pool is full, or its
 * egress queue is at its static or dynamic limit, {@link SwitchState#admitsLossy}) is cut instead
 * to the switch model's trimmed size ({@link io.fabriclab.model.SwitchLatency#trimmedFrameBytes})
 * and forwarded in the high-priority class the acknowledgements ride ({@link QosProfile#CNP_PRIORITY},
 * strict), so the receiver learns at once which packet to ask for again. That is where a switch that
 * trims does it: NVIDIA Spectrum-4 "trims and forwards packets that it is about to discard because
 * buffer space is unavailable" (Cumulus Linux, Packet Trimming), SAI counts "packets trimmed due to
 * failed admission". A scenario may also set a fixed queue depth to trim at
 * ({@link TransportProfileUec#trimThresholdPackets}, NDP's 8-packet queues), in addition. The trimmed
 * header passes the same admission (it is small, so it is lost only when the shared pool is full).
 */
final class Trimming {
    private final PacketPool pkts;
    /**
     * Queue depth (bytes of the packet's own class) at or above which a data packet is trimmed even
     * though the buffer would admit it; {@link Long#MAX_VALUE} when the scenario sets none.
     */
    final long thresholdBytes;
    /** The frame size each switch (by index) trims to. */
    private final int[] trimmedFrameBytes;
    /** Trimmed packets, over the whole fabric. */
    long trimmedPackets;
    /** Payload bytes lost to trimming (the trimmed packets' payload, all of which is sent again). */
    long trimmedPayloadBytes;

    Trimming(PacketPool pkts, int trimThresholdPackets, int mtuBytes, List<SwitchState> switches) {
        this.pkts = pkts;
        // "Full packets" are frames of the fabric's MTU (destination MAC to FCS).
        this.thresholdBytes = trimThresholdPackets > 0 ? (long) trimThresholdPackets * mtuBytes : Long.MAX_VALUE;
        this.trimmedFrameBytes = new int[switches.size()];
        for (SwitchState s : switches) {
            trimmedFrameBytes[s.index] = io.fabriclab.model.SwitchLatency.trimmedFrameBytes(s.device,
                    UecFraming.TRIMMED_FRAME_BYTES);
        }
    }

    /** The frame size switch {@code sw} trims a data packet to. */
    int trimmedFrameBytes(SwitchState sw) {
        return trimmedFrameBytes[sw.index];
    }

    /**
     * The queue depth at which a queue of switch {@code sw} starts trimming when the rest of the
     * buffer is empty: the buffer's largest lossy queue ({@link io.fabriclab.model.BufferConfig#maxQueueBytes}),
     * or the scenario's fixed threshold when lower.
     */
    long trimPointBytes(io.fabriclab.model.BufferConfig buffer) {
        return Math.min(thresholdBytes, buffer.maxQueueBytes());
    }

    /**
     * The ECN curve a switch queue uses on an Ultra Ethernet run. NSCC decreases on ECN marks (it
     * only increases on delay alone), so a queue must mark before it trims: a curve that is off,
     * or whose Kmin lies at or above the queue's trim point, could never mark, and is replaced by
     * one that marks from a quarter of the trim point, with certainty from 97 % of it (the
     * proportions of the UEC runs built on csg-htsim's main_uec: kmin = queue / 4, kmax = queue x
     * 97 / 100); a curve below the trim point is kept as configured.
     */
    static WredEcn curveFor(WredEcn configured, long trimPointBytes) {
        if (configured != null && configured.kminBytes() < trimPointBytes) {
            return configured;
        }
        return new WredEcn(trimPointBytes / 4, trimPointBytes * 97 / 100, 1.0);
    }

    /** Replacement curves already built, by trim point, so queues of one buffer share one record. */
    private final java.util.Map<Long, WredEcn> replacements = new java.util.HashMap<>();

    /** {@link #curveFor}, the replacement one object per trim point. */
    WredEcn curve(WredEcn configured, long trimPointBytes) {
        if (configured != null && configured.kminBytes() < trimPointBytes) {
            return configured;
        }
        return replacements.computeIfAbsent(trimPointBytes, t -> curveFor(null, t));
    }

    /**
     * Whether a data packet of {@code bytes} that finds {@code queueBytes} in its egress queue at
     * switch {@code sw} is trimmed: the buffer would refuse it, or the queue is at the fixed threshold.
     */
    boolean trims(SwitchState sw, long queueBytes, int bytes) {
        return queueBytes >= thresholdBytes || !sw.admitsLossy(queueBytes, bytes);
    }

    /**
     * Replaces data packet {@code pkt} by its trimmed form (same flow, PSN, path and hop; the
     * switch model's trimmed size) and returns its id; the original record is freed.
     */
    int trim(int pkt, EgressPort at) {
        int frame = pkts.frameBytes(pkt);
        int size = Math.min(frame, trimmedFrameBytes[at.sw.index]);
        int t = pkts.allocate(PacketPool.TRIMMED, pkts.flow(pkt), pkts.psn(pkt), size,
                QosProfile.CNP_PRIORITY, PacketPool.NOT_ECT);
        pkts.setPathBase(t, pkts.pathBase(pkt));
        pkts.setHop(t, pkts.hop(pkt));
        pkts.setEntropy(t, pkts.entropy(pkt));
        trimmedPackets++;
        trimmedPayloadBytes += frame - UecFraming.DATA_HEADER_BYTES;
        at.trimmed++;
        pkts.free(pkt);
        return t;
    }
}
