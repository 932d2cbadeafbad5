package io.fabriclab.sim;

import io.fabriclab.model.Units;

/**
 * A reliable connection of the IBTA transport, which RoCEv2 carries over UDP/IP and InfiniBand
 * over its own link layer: the requester of every queue pair (flow) sends its packets paced at
 * its reaction point's rate and recovers go-back-N on a NAK or a retransmission timeout; the
 * responder acknowledges in order, NAKs the first gap or, under a per-packet routing mode,
 * places out-of-order packets within the reorder window. {@link RoceTransport} adds ECN, CNP and
 * DCQCN; {@link IbTransport} adds credits and InfiniBand congestion control.
 */
abstract class RcTransport implements NicTransport {
    final SimContext.Nic ctx;
    final Flow[] flows;
    final EventQueue events;
    final PacketPool pkts;
    final SimConfig cfg;
    final int maxPayload;
    final int dataHeaderBytes;
    final int ackBytes;
    final int wireOverheadBytes;
    /** Data packets carry ECT(0): RoCEv2 with ECN on; never on InfiniBand. */
    private final boolean ectData;

    RcTransport(SimContext.Nic ctx, Flow[] flows, EventQueue events, PacketPool pkts, SimConfig cfg, Framing framing,
                boolean ectData) {
        this.ctx = ctx;
        this.flows = flows;
        this.events = events;
        this.pkts = pkts;
        this.cfg = cfg;
        this.maxPayload = framing.maxPayload();
        this.dataHeaderBytes = framing.dataHeaderBytes();
        this.ackBytes = framing.ackBytes();
        this.wireOverheadBytes = framing.wireOverheadBytes();
        this.ectData = ectData;
    }

    // ----- requester -----------------------------------------------------------------------------

    @Override
    public void startFlow(Flow f) {
        final long now = ctx.now();
        ctx.flowStarted(f);
        f.nextSendPs = now;
        f.srcPort.nic.activate(f);
        events.push(now + cfg.retransmitTimeoutPs(), Simulator.EV_RTO, f.id, 0);
        ctx.transmit(f.srcPort);
    }

    @Override
    public void sendData(EgressPort p, Flow f) {
        int psn = f.sndNxt++;
        int payload = f.payloadOf(psn, maxPayload);
        if (psn < f.maxSent) {
            f.retransmittedPackets++;
            f.retransmittedBytes += payload;
        } else {
            f.maxSent = psn + 1;
        }
        int frame = payload + dataHeaderBytes;
        int pkt = pkts.allocate(PacketPool.DATA, f.id, psn, frame, f.priority,
                ectData ? PacketPool.ECT : PacketPool.NOT_ECT);
        pkts.setPathBase(pkt, f.forwardBase);
        ReactionPoint rp = f.rp;
        long rate = rp.currentRateBps();
        // Pacing at the current rate of the reaction point; at line rate this is exactly the serialization time.
        f.nextSendPs = ctx.now() + Units.serializationPs(frame + wireOverheadBytes, rate);
        paced(f, p);
        if (rp.onBytesSent(frame)) {
            noteRate(f);
        }
        sent(p, f.priority, frame);
        ctx.startTx(p, pkt, frame);
    }

    /** After flow {@code f}'s next send time was set by its rate: a transport may hold it longer. */
    void paced(Flow f, EgressPort p) {
    }

    /** Data of {@code frame} bytes in class {@code c} goes out on {@code p} now. */
    void sent(EgressPort p, int c, int frame) {
    }

    /** Flow {@code f}'s sender has every packet acknowledged. */
    void senderDone(Flow f) {
    }

    static void noteRate(Flow f) {
        long r = f.rp.currentRateBps();
        if (r < f.minRateBps) {
            f.minRateBps = r;
        }
    }

    @Override
    public void timer(int type, Flow f, int arg) {
        if (type == Simulator.EV_RTO) {
            retransmitTimeout(f);
        } else {
            throw new IllegalStateException("unexpected timer " + type);
        }
    }

    /**
     * {@link Simulator#EV_RTO}: while ACKs made progress within the timeout it is re-armed at the
     * real deadline; when it expires the requester goes back to the first unacknowledged packet,
     * and the timer starts again.
     */
    private void retransmitTimeout(Flow f) {
        if (f.senderDone) {
            return;
        }
        final long now = ctx.now();
        long deadline = f.lastProgressPs + cfg.retransmitTimeoutPs();
        if (now < deadline) {
            events.push(deadline, Simulator.EV_RTO, f.id, 0);
            return;
        }
        if (f.sndUna < f.maxSent) {
            f.timeouts++;
            beginRecovery(f, f.lastProgressPs);
            f.sndNxt = f.sndUna;
            ctx.transmit(f.srcPort);
        }
        f.lastProgressPs = now;
        events.push(now + cfg.retransmitTimeoutPs(), Simulator.EV_RTO, f.id, 0);
    }

    private static void beginRecovery(Flow f, long stallStartPs) {
        if (!f.inRecovery) {
            f.inRecovery = true;
            f.recoveryStartPs = stallStartPs;
            f.recoverTo = f.maxSent;
        }
    }

    /** An ACK or NAK acknowledged every PSN below {@code cumulative}. */
    final void acknowledged(Flow f, int cumulative) {
        if (cumulative <= f.sndUna) {
            return;
        }
        final long now = ctx.now();
        f.sndUna = cumulative;
        if (f.sndNxt < cumulative) {
            f.sndNxt = cumulative;
        }
        f.lastProgressPs = now;
        if (f.inRecovery && f.sndUna >= f.recoverTo) {
            f.stallPs += now - f.recoveryStartPs;
            f.inRecovery = false;
        }
        if (f.sndUna >= f.totalPackets && !f.senderDone) {
            f.senderDone = true;
            f.srcPort.nic.deactivate(f);
            senderDone(f);
        }
    }

    /** A NAK for {@code psn}: it acknowledges everything before it and asks for go-back-N from it. */
    final void nakReceived(Flow f, int psn) {
        acknowledged(f, psn);
        f.naks++;
        if (f.sndNxt > psn && !f.senderDone) {
            beginRecovery(f, ctx.now());
            f.sndNxt = psn;
            ctx.transmit(f.srcPort);
        }
    }

    // ----- responder -----------------------------------------------------------------------------

    /** Data packet {@code psn} of flow {@code f} arrived at its responder behind ingress {@code in}. */
    final void responderData(EgressPort in, Flow f, int psn) {
        if (psn == f.expected) {
            f.expected++;
            if (f.placed != null) {
                // Packets placed out of order close the gap: the expected PSN jumps past them.
                int w = ctx.reorderWindowPackets();
                int b = f.expected % w;
                while ((f.placed[b >>> 6] & (1L << b)) != 0) {
                    f.placed[b >>> 6] &= ~(1L << b);
                    f.expected++;
                    b = f.expected % w;
                }
            }
            f.nakSent = false;
            if (f.expected == f.totalPackets) {
                if (!f.done) {
                    ctx.flowDelivered(f);
                }
                f.sinceAck = 0;
                sendControl(in, f, PacketPool.ACK, f.expected - 1, ackBytes);
            } else if (++f.sinceAck >= cfg.ackEveryPackets()) {
                f.sinceAck = 0;
                sendControl(in, f, PacketPool.ACK, f.expected - 1, ackBytes);
            }
        } else if (psn > f.expected) {
            f.outOfOrder++;
            int w = ctx.reorderWindowPackets();
            if (ctx.perPacketRouting() && psn - f.expected < w) {
                // Per-packet routing: the NIC places the packet and waits for the gap to fill.
                if (f.placed == null) {
                    f.placed = new long[(w + 63) >>> 6];
                }
                int b = psn % w;
                f.placed[b >>> 6] |= 1L << b;
            } else if (!f.nakSent) {
                f.nakSent = true;
                sendControl(in, f, PacketPool.NAK, f.expected, ackBytes);
            }
        } else {
            // A duplicate (the sender went back further than needed): re-acknowledge what we have.
            sendControl(in, f, PacketPool.ACK, f.expected - 1, ackBytes);
        }
    }

    /** The responder sends an ACK, NAK or CNP of {@code bytes} for flow {@code f} from NIC port {@code p}. */
    abstract void sendControl(EgressPort p, Flow f, byte kind, int psn, int bytes);

    /** Queues a control packet in class {@code prio} of NIC port {@code p}, sent at once if its wire is free. */
    final void emitControl(EgressPort p, Flow f, byte kind, int psn, int bytes, int prio, byte ecn) {
        int pkt = pkts.allocate(kind, f.id, psn, bytes, prio, ecn);
        pkts.setPathBase(pkt, f.reverseBase);
        ctx.enqueue(p, prio, pkt, bytes, -1, false);
        if (p.busyUntilPs <= ctx.now()) {
            ctx.nicTransmit(p);
        }
    }
}
