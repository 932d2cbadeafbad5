package io.fabriclab.sim;

/**
 * The InfiniBand HCA: the IBTA reliable connection ({@link RcTransport}) over InfiniBand's
 * link layer. A data packet or an ACK goes out only when the receiver's credits for its virtual
 * lane cover it ({@link CreditFlowControl}); no packet is ECN-capable and nothing pauses an HCA
 * (no PFC). With InfiniBand congestion control ({@link IbCongestionControl}) a FECN-marked data
 * packet is answered with BECN on the next ACK or NAK, a BECN raises the flow's CCT index, and the
 * CCT entry delays each next packet. An ACK or NAK is a packet of the queue pair, sent on its
 * service level and so on the data's virtual lane with that lane's credits.
 */
final class IbTransport extends RcTransport {
    private final CreditFlowControl credits;
    /** InfiniBand congestion control, or null when it is off. */
    private final IbCongestionControl ibcc;
    /**
     * InfiniBand congestion control: the data packet being answered carried FECN, so the next
     * ACK or NAK of the responder carries BECN (set only when {@link #ibcc} is on).
     */
    private boolean becnPending;

    IbTransport(SimContext.Nic ctx, Flow[] flows, EventQueue events, PacketPool pkts, SimConfig cfg, Framing framing,
                CreditFlowControl credits, IbCongestionControl ibcc) {
        super(ctx, flows, events, pkts, cfg, framing, false);
        this.credits = java.util.Objects.requireNonNull(credits, "credits");
        this.ibcc = ibcc;
    }

    /** Paced (congestion control's CCT delay) and, once due, held until the lane's credits cover its next packet. */
    @Override
    public long readyAtPs(EgressPort p, Flow f, long now) {
        if (f.sndNxt >= f.totalPackets) {
            return Long.MAX_VALUE;
        }
        if (f.nextSendPs <= now) {
            int frame = f.payloadOf(f.sndNxt, maxPayload) + dataHeaderBytes;
            if (!credits.fits(p, f.priority, frame)) {
                // Its next packet waits for the receiver's credits (a flow-control packet wakes the port).
                credits.stall(p, f.priority, frame);
                return Long.MAX_VALUE;
            }
        }
        return f.nextSendPs;
    }

    /** IB congestion control: the CCT entry of the flow's CCTI delays its next packet. */
    @Override
    void paced(Flow f, EgressPort p) {
        if (ibcc != null) {
            f.nextSendPs += ibcc.delayPs(f, p);
        }
    }

    @Override
    void sent(EgressPort p, int c, int frame) {
        credits.consume(p, c, frame);
    }

    @Override
    void senderDone(Flow f) {
        if (ibcc != null) {
            ibcc.senderDone(f);
        }
    }

    @Override
    public void receive(EgressPort in, int pkt, byte kind) {
        Flow f = flows[pkts.flow(pkt)];
        int psn = pkts.psn(pkt);
        switch (kind) {
            case PacketPool.DATA -> {
                boolean fecn = pkts.ecn(pkt) == PacketPool.CE;
                pkts.free(pkt);
                if (ibcc != null && fecn) {
                    // The mark is FECN; the answer is BECN in an ACK sent at once, not a CNP.
                    ibcc.fecnReceived(f);
                    becnPending = true;
                    responderData(in, f, psn);
                    if (becnPending) {
                        // No ACK or NAK went out for it (coalesced or placed out of order): acknowledge now.
                        sendControl(in, f, PacketPool.ACK, f.expected - 1, ackBytes);
                    }
                    return;
                }
                responderData(in, f, psn);
            }
            case PacketPool.ACK -> {
                if (ibcc != null && pkts.ecn(pkt) == PacketPool.CE) {
                    ibcc.becn(f);
                }
                pkts.free(pkt);
                acknowledged(f, psn + 1);
            }
            case PacketPool.NAK -> {
                if (ibcc != null && pkts.ecn(pkt) == PacketPool.CE) {
                    ibcc.becn(f);
                }
                pkts.free(pkt);
                nakReceived(f, psn);
            }
            default -> throw new IllegalStateException("unexpected packet kind " + kind + " on an InfiniBand run");
        }
    }

    /**
     * An ACK or NAK is a packet of the queue pair, sent on the QP's service level and so on the
     * data's virtual lane, with that lane's credits (IBTA vol. 1 §9.7: the responder's
     * acknowledgements belong to the QP's service; §7.6.5: a packet's VL follows from its SL), not
     * on a lane of its own; BECN rides it when owed (the BTH's BECN bit).
     */
    @Override
    void sendControl(EgressPort p, Flow f, byte kind, int psn, int bytes) {
        byte ecn = PacketPool.NOT_ECT;
        if (becnPending) {
            becnPending = false;
            ecn = PacketPool.CE;
            ibcc.becnSent();
        }
        emitControl(p, f, kind, psn, bytes, f.priority, ecn);
    }
}
