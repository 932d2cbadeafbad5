package io.fabriclab.sim;

import io.fabriclab.model.QosProfile;
import io.fabriclab.model.Units;

/**
 * The RoCEv2 NIC: requester and responder of every queue pair (flow), over the simulator's flow
 * and port arrays. The requester sends a flow's packets round robin among the NIC's active flows,
 * paced at the DCQCN rate of its reaction point, and recovers go-back-N on a NAK or a
 * retransmission timeout; the responder acknowledges in order, NAKs the first gap (or, under a
 * per-packet routing mode, places out-of-order packets within the reorder window), and as the
 * notification point sends at most one CNP per interval for CE-marked data. ACK, NAK and CNP
 * ride the CNP priority (strict, lossy).
 */
final class RoceTransport {
    private final Simulator sim;
    private final Flow[] flows;
    private final byte[] flowPhase;
    private final EventQueue events;
    private final PacketPool pkts;
    private final SimConfig cfg;
    private final ReactionLog reactionLog;
    private final int maxPayload;
    private final int wireOverheadBytes;

    RoceTransport(Simulator sim, Flow[] flows, byte[] flowPhase, EventQueue events, PacketPool pkts, SimConfig cfg,
                  ReactionLog reactionLog, int maxPayload, int wireOverheadBytes) {
        this.sim = sim;
        this.flows = flows;
        this.flowPhase = flowPhase;
        this.events = events;
        this.pkts = pkts;
        this.cfg = cfg;
        this.reactionLog = reactionLog;
        this.maxPayload = maxPayload;
        this.wireOverheadBytes = wireOverheadBytes;
        this.ectData = cfg.ectData() && sim.credits == null;
        this.ibcc = sim.ibcc;
    }

    /** InfiniBand congestion control, or null (every other run). */
    private final IbCongestionControl ibcc;
    /**
     * InfiniBand congestion control: the data packet being answered carried FECN, so the next
     * ACK or NAK of the responder carries BECN (set only when {@link #ibcc} is on).
     */
    private boolean becnPending;

    /** Data packets carry ECT(0): RoCEv2 with ECN on; never on InfiniBand. */
    private final boolean ectData;

    // ----- requester -----------------------------------------------------------------------------

    /** {@link Simulator#EV_FLOW_START}. */
    void startFlow(Flow f) {
        final long now = sim.now;
        f.started = true;
        flowPhase[f.id] = Simulator.FLOW_ACTIVE;
        f.startedPs = now;
        f.nextSendPs = now;
        f.lastProgressPs = now;
        f.rateSeries = new TimeSeries(cfg.maxSeriesPoints(), TimeSeries.Merge.MEAN);
        f.srcPort.nic.activate(f);
        events.push(now + cfg.retransmitTimeoutPs(), Simulator.EV_RTO, f.id, 0);
        sim.transmit(f.srcPort);
    }

    /** The NIC's wire is free: its next frame, control before data, or a wake-up at the earliest paced send. */
    void nicTransmit(EgressPort p) {
        final long now = sim.now;
        CreditFlowControl cr = sim.credits;
        if (p.queuedPackets > 0) {
            if (cr != null && p.hasPackets(EgressPort.CONTROL)) {
                // InfiniBand flow-control packets go first and need no credits.
                int pkt = sim.popControl(p);
                sim.startTx(p, pkt, p.polledBytes());
                return;
            }
            // ACK, NAK and CNP go before data, highest class first.
            for (int c = EgressPort.CLASSES - 1; c >= 0; c--) {
                if (p.hasPackets(c) && !p.paused(c, now)) {
                    if (cr != null && !cr.fits(p, c, p.headBytes(c))) {
                        cr.stall(p, c, p.headBytes(c));
                        continue;
                    }
                    int pkt = sim.pop(p, c);
                    if (cr != null) {
                        cr.consume(p, c, p.polledBytes());
                    }
                    sim.startTx(p, pkt, p.polledBytes());
                    return;
                }
            }
        }
        Nic nic = p.nic;
        int n = nic.activeCount;
        long earliest = Long.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            int idx = nic.roundRobin + i;
            if (idx >= n) {
                idx -= n;
            }
            Flow f = nic.active[idx];
            // (InfiniBand has no PFC: nothing pauses its HCAs, and the pause state is not read.)
            if (f.sndNxt >= f.totalPackets || cr == null && p.paused(f.priority, now)) {
                continue;
            }
            if (cr != null && f.nextSendPs <= now) {
                int frame = f.payloadOf(f.sndNxt, maxPayload) + sim.dataHeaderBytes;
                if (!cr.fits(p, f.priority, frame)) {
                    // Its next packet waits for the receiver's credits (a flow-control packet wakes the port).
                    cr.stall(p, f.priority, frame);
                    continue;
                }
            }
            if (f.nextSendPs <= now) {
                nic.roundRobin = idx + 1 >= n ? 0 : idx + 1;
                sendData(p, f);
                return;
            }
            if (f.nextSendPs < earliest) {
                earliest = f.nextSendPs;
            }
        }
        if (earliest != Long.MAX_VALUE && (p.wakeAtPs < 0 || p.wakeAtPs > earliest || p.wakeAtPs < now)) {
            p.wakeAtPs = earliest;
            events.push(earliest, Simulator.EV_NIC_WAKE, p.id, 0);
        }
    }

    private void sendData(EgressPort p, Flow f) {
        int psn = f.sndNxt++;
        int payload = f.payloadOf(psn, maxPayload);
        if (psn < f.maxSent) {
            f.retransmittedPackets++;
            f.retransmittedBytes += payload;
        } else {
            f.maxSent = psn + 1;
        }
        int frame = payload + sim.dataHeaderBytes;
        int pkt = pkts.allocate(PacketPool.DATA, f.id, psn, frame, f.priority,
                ectData ? PacketPool.ECT : PacketPool.NOT_ECT);
        pkts.setPathBase(pkt, f.forwardBase);
        ReactionPoint rp = f.rp;
        long rate = rp.currentRateBps();
        // Pacing at the current DCQCN rate; at line rate this is exactly the serialization time.
        f.nextSendPs = sim.now + Units.serializationPs(frame + wireOverheadBytes, rate);
        if (ibcc != null) {
            // IB congestion control: the CCT entry of the flow's CCTI delays its next packet.
            f.nextSendPs += ibcc.delayPs(f, p);
        }
        if (rp.onBytesSent(frame)) {
            noteRate(f);
        }
        if (sim.credits != null) {
            sim.credits.consume(p, f.priority, frame);
        }
        sim.startTx(p, pkt, frame);
    }

    private static void noteRate(Flow f) {
        long r = f.rp.currentRateBps();
        if (r < f.minRateBps) {
            f.minRateBps = r;
        }
    }

    /** {@link Simulator#EV_RATE_TIMER}: DCQCN's rate-increase timer of the flow's reaction point. */
    void rateTimer(Flow f, int gen) {
        ReactionPoint rp = f.rp;
        if (gen != rp.timerGeneration() || f.senderDone) {
            return;
        }
        rp.onIncreaseTimer();
        if (rp.limited()) {
            events.push(sim.now + rp.increaseTimerPs(), Simulator.EV_RATE_TIMER, f.id, gen);
        }
    }

    /** The retransmission timer expired ({@link Simulator}'s EV_RTO): go back to the first unacknowledged packet. */
    void resendOnTimeout(Flow f) {
        if (f.sndUna < f.maxSent) {
            f.timeouts++;
            beginRecovery(f, f.lastProgressPs);
            f.sndNxt = f.sndUna;
            sim.transmit(f.srcPort);
        }
    }

    private static void beginRecovery(Flow f, long stallStartPs) {
        if (!f.inRecovery) {
            f.inRecovery = true;
            f.recoveryStartPs = stallStartPs;
            f.recoverTo = f.maxSent;
        }
    }

    private void acknowledged(Flow f, int cumulative) {
        if (cumulative <= f.sndUna) {
            return;
        }
        final long now = sim.now;
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
            if (ibcc != null) {
                ibcc.senderDone(f);
            }
        }
    }

    /** A packet reached the NIC behind ingress {@code in}: data for its responder, ACK / NAK / CNP for its requester. */
    void nicReceive(EgressPort in, int pkt, byte kind) {
        Flow f = flows[pkts.flow(pkt)];
        int psn = pkts.psn(pkt);
        switch (kind) {
            case PacketPool.DATA -> {
                boolean ce = pkts.ecn(pkt) == PacketPool.CE;
                int payload = pkts.frameBytes(pkt) - sim.dataHeaderBytes;
                pkts.free(pkt);
                if (ibcc != null && ce) {
                    // InfiniBand: the mark is FECN; the answer is BECN in an ACK sent at once, not a CNP.
                    ibcc.fecnReceived(f);
                    becnPending = true;
                    responderData(in, f, psn, false, payload);
                    if (becnPending) {
                        // No ACK or NAK went out for it (coalesced or placed out of order): acknowledge now.
                        sendControl(in, f, PacketPool.ACK, f.expected - 1, sim.ackBytes);
                    }
                    return;
                }
                responderData(in, f, psn, ce, payload);
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
                // A NAK acknowledges everything before the expected PSN and asks for go-back-N from it.
                acknowledged(f, psn);
                f.naks++;
                if (f.sndNxt > psn && !f.senderDone) {
                    beginRecovery(f, sim.now);
                    f.sndNxt = psn;
                    sim.transmit(f.srcPort);
                }
            }
            case PacketPool.CNP -> {
                pkts.free(pkt);
                final long now = sim.now;
                in.nic.cnpsReceived++;
                boolean cut = f.rp.onCnp(now);
                if (cut) {
                    noteRate(f);
                    events.push(now + f.rp.increaseTimerPs(), Simulator.EV_RATE_TIMER, f.id, f.rp.timerGeneration());
                }
                reactionLog.note(f.id, now, f.rp, cut);
                if (sim.trace != null) {
                    sim.trace.cnpReceived(now, f.id, f.rp.currentRateBps());
                }
            }
            default -> throw new IllegalStateException("unexpected packet kind " + kind);
        }
    }

    // ----- responder -----------------------------------------------------------------------------

    private void responderData(EgressPort in, Flow f, int psn, boolean ce, int payload) {
        final long now = sim.now;
        if (ce) {
            f.ceReceived++;
            // Notification point: at most one CNP per QP per CNP interval.
            if (f.notificationPoint && (f.lastCnpPs == Long.MIN_VALUE || now - f.lastCnpPs >= f.cnpIntervalPs)) {
                f.lastCnpPs = now;
                f.cnpsSent++;
                in.nic.cnpsSent++;
                if (f.done) {
                    flowPhase[f.id] = Simulator.FLOW_DONE_CHANGED;
                }
                sendControl(in, f, PacketPool.CNP, 0, RoceFraming.CNP_FRAME_BYTES);
            }
        }
        if (psn == f.expected) {
            f.expected++;
            if (f.placed != null) {
                // Packets placed out of order close the gap: the expected PSN jumps past them.
                int w = sim.routingPolicy().reorderWindowPackets();
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
                    f.done = true;
                    flowPhase[f.id] = Simulator.FLOW_DONE;
                    f.finishPs = now;
                    sim.flowsRemaining--;
                    sim.releaseDependents(f);
                }
                f.sinceAck = 0;
                sendControl(in, f, PacketPool.ACK, f.expected - 1, sim.ackBytes);
            } else if (++f.sinceAck >= cfg.ackEveryPackets()) {
                f.sinceAck = 0;
                sendControl(in, f, PacketPool.ACK, f.expected - 1, sim.ackBytes);
            }
        } else if (psn > f.expected) {
            f.outOfOrder++;
            int w = sim.routingPolicy().reorderWindowPackets();
            if (sim.selector != null && psn - f.expected < w) {
                // Per-packet routing: the NIC places the packet and waits for the gap to fill.
                if (f.placed == null) {
                    f.placed = new long[(w + 63) >>> 6];
                }
                int b = psn % w;
                f.placed[b >>> 6] |= 1L << b;
            } else if (!f.nakSent) {
                f.nakSent = true;
                sendControl(in, f, PacketPool.NAK, f.expected, sim.ackBytes);
            }
        } else {
            // A duplicate (the sender went back further than needed): re-acknowledge what we have.
            sendControl(in, f, PacketPool.ACK, f.expected - 1, sim.ackBytes);
        }
    }

    /**
     * RoCEv2: ACK, NAK and CNP ride the CNP priority (strict, lossy), as the HPCC/ns-3 RDMA model
     * does (NVIDIA and SONiC map CNPs to a strict queue). InfiniBand: an ACK or NAK is a packet of
     * the queue pair, sent on the QP's service level and so on the data's virtual lane, with that
     * lane's credits (IBTA vol. 1 §9.7: the responder's acknowledgements belong to the QP's
     * service; §7.6.5: a packet's VL follows from its SL), not on a lane of its own.
     */
    private void sendControl(EgressPort p, Flow f, byte kind, int psn, int bytes) {
        byte ecn = PacketPool.NOT_ECT;
        if (becnPending) {
            // InfiniBand congestion control: BECN rides this ACK or NAK (the BTH's BECN bit).
            becnPending = false;
            ecn = PacketPool.CE;
            ibcc.becnSent();
        }
        int prio = sim.credits != null ? f.priority : QosProfile.CNP_PRIORITY;
        int pkt = pkts.allocate(kind, f.id, psn, bytes, prio, ecn);
        pkts.setPathBase(pkt, f.reverseBase);
        sim.enqueue(p, prio, pkt, bytes, -1, false);
        if (p.busyUntilPs <= sim.now) {
            nicTransmit(p);
        }
    }
}
