package io.fabriclab.sim;

import io.fabriclab.model.QosProfile;

/**
 * Ultra Ethernet packet trimming at a switch (UEC 1.0, packet trimming; NDP, Handley et al.,
 * SIGCOMM 2017): a data packet that finds its egress queue at or above the trim threshold
 * ({@link TransportProfileUec#trimThresholdPackets} full-size frames) is cut to its headers
 * ({@link UecFraming#TRIMMED_FRAME_BYTES}) and forwarded in the high-priority class the
 * acknowledgements ride ({@link QosProfile#CNP_PRIORITY}, strict), so the receiver learns at
 * once which packet to ask for again. Nothing else about the switch changes: the trimmed header
 * passes the same admission (it is small, so it is lost only when the shared pool is full).
 */
final class Trimming {
    private final PacketPool pkts;
    /** Queue depth (bytes of the packet's own class) at or above which a data packet is trimmed. */
    final long thresholdBytes;
    /** Trimmed packets, over the whole fabric. */
    long trimmedPackets;
    /** Payload bytes cut off by trimming. */
    long trimmedPayloadBytes;

    Trimming(PacketPool pkts, int trimThresholdPackets, int mtuBytes) {
        this.pkts = pkts;
        // "Full packets" are frames of the fabric's MTU (destination MAC to FCS).
        this.thresholdBytes = (long) trimThresholdPackets * mtuBytes;
    }

    /**
     * The ECN curve a switch queue uses on an Ultra Ethernet run. NSCC decreases on ECN marks
     * (it only increases on delay alone), so a queue must mark before it trims: a curve that is
     * off, or whose Kmin lies at or above the trim threshold (the RoCEv2 profiles' 400 KB and more
     * against 8 x 4200 = 33,600 B), could never mark, and is replaced by one that marks from a
     * quarter of the threshold, with certainty from 97 % of it (the proportions of the UEC runs
     * built on csg-htsim's main_uec: kmin = queue / 4, kmax = queue x 97 / 100); a curve below the
     * threshold is kept as configured.
     */
    static io.fabriclab.model.WredEcn curveFor(io.fabriclab.model.WredEcn configured, long thresholdBytes) {
        if (configured != null && configured.kminBytes() < thresholdBytes) {
            return configured;
        }
        return new io.fabriclab.model.WredEcn(thresholdBytes / 4, thresholdBytes * 97 / 100, 1.0);
    }

    /** The curve {@link #curve} puts in place of a configured one, built once and shared by every queue. */
    private io.fabriclab.model.WredEcn replacement;

    /**
     * {@link #curveFor}(configured, this run's threshold), the replacement curve one object for
     * every queue, so marking reads one shared record rather than one per port.
     */
    io.fabriclab.model.WredEcn curve(io.fabriclab.model.WredEcn configured) {
        if (configured != null && configured.kminBytes() < thresholdBytes) {
            return configured;
        }
        if (replacement == null) {
            replacement = curveFor(null, thresholdBytes);
        }
        return replacement;
    }

    /** Whether a data packet that finds {@code queueBytes} in its egress queue is trimmed. */
    boolean trims(long queueBytes) {
        return queueBytes >= thresholdBytes;
    }

    /**
     * Replaces data packet {@code pkt} by its trimmed header (same flow, PSN, path and hop) and
     * returns the header's id; the original record is freed.
     */
    int trim(int pkt, EgressPort at) {
        int t = pkts.allocate(PacketPool.TRIMMED, pkts.flow(pkt), pkts.psn(pkt), UecFraming.TRIMMED_FRAME_BYTES,
                QosProfile.CNP_PRIORITY, PacketPool.NOT_ECT);
        pkts.setPathBase(t, pkts.pathBase(pkt));
        pkts.setHop(t, pkts.hop(pkt));
        trimmedPackets++;
        trimmedPayloadBytes += pkts.frameBytes(pkt) - UecFraming.DATA_HEADER_BYTES;
        at.trimmed++;
        pkts.free(pkt);
        return t;
    }
}
