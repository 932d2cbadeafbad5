package io.fabriclab.sim;

import io.fabriclab.model.QosProfile;

/**
 * The RoCEv2 NIC: the IBTA reliable connection ({@link RcTransport}) over UDP/IP with ECN and
 * DCQCN. Data packets carry ECT(0) when ECN is on; the responder, as DCQCN's notification point,
 * sends at most one CNP per interval for CE-marked data; the requester's reaction point cuts its
 * rate on each CNP and raises it again on its timer and byte counter. A flow whose priority is
 * paused by PFC does not send. ACK, NAK and CNP ride the CNP priority (strict, lossy).
 */
final class RoceTransport extends RcTransport {
    private final ReactionLog reactionLog;

    RoceTransport(SimContext.Nic ctx, Flow[] flows, EventQueue events, PacketPool pkts, SimConfig cfg,
                  ReactionLog reactionLog, Framing framing) {
        super(ctx, flows, events, pkts, cfg, framing, cfg.ectData());
        this.reactionLog = reactionLog;
    }

    /** Paced at the DCQCN rate; nothing of a priority PFC pauses. */
    @Override
    public long readyAtPs(EgressPort p, Flow f, long now) {
        if (f.sndNxt >= f.totalPackets || p.paused(f.priority, now)) {
            return Long.MAX_VALUE;
        }
        return f.nextSendPs;
    }

    @Override
    public void timer(int type, Flow f, int arg) {
        if (type == Simulator.EV_RATE_TIMER) {
            rateTimer(f, arg);
        } else {
            super.timer(type, f, arg);
        }
    }

    /** {@link Simulator#EV_RATE_TIMER}: DCQCN's rate-increase timer of the flow's reaction point. */
    private void rateTimer(Flow f, int gen) {
        ReactionPoint rp = f.rp;
        if (gen != rp.timerGeneration() || f.senderDone) {
            return;
        }
        rp.onIncreaseTimer();
        if (rp.limited()) {
            events.push(ctx.now() + rp.increaseTimerPs(), Simulator.EV_RATE_TIMER, f.id, gen);
        }
    }

    @Override
    public void receive(EgressPort in, int pkt, byte kind) {
        Flow f = flows[pkts.flow(pkt)];
        int psn = pkts.psn(pkt);
        switch (kind) {
            case PacketPool.DATA -> {
                boolean ce = pkts.ecn(pkt) == PacketPool.CE;
                pkts.free(pkt);
                if (ce) {
                    congestionExperienced(in, f);
                }
                responderData(in, f, psn);
            }
            case PacketPool.ACK -> {
                pkts.free(pkt);
                acknowledged(f, psn + 1);
            }
            case PacketPool.NAK -> {
                pkts.free(pkt);
                nakReceived(f, psn);
            }
            case PacketPool.CNP -> {
                pkts.free(pkt);
                final long now = ctx.now();
                in.nic.cnpsReceived++;
                boolean cut = f.rp.onCnp(now);
                if (cut) {
                    noteRate(f);
                    events.push(now + f.rp.increaseTimerPs(), Simulator.EV_RATE_TIMER, f.id, f.rp.timerGeneration());
                }
                reactionLog.note(f.id, now, f.rp, cut);
                SimTrace trace = ctx.trace();
                if (trace != null) {
                    trace.cnpReceived(now, f.id, f.rp.currentRateBps());
                }
            }
            default -> throw new IllegalStateException("unexpected packet kind " + kind);
        }
    }

    /** A CE-marked data packet: the notification point sends at most one CNP per QP per CNP interval. */
    private void congestionExperienced(EgressPort in, Flow f) {
        final long now = ctx.now();
        f.ceReceived++;
        if (f.notificationPoint && (f.lastCnpPs == Long.MIN_VALUE || now - f.lastCnpPs >= f.cnpIntervalPs)) {
            f.lastCnpPs = now;
            f.cnpsSent++;
            in.nic.cnpsSent++;
            if (f.done) {
                ctx.doneFlowChanged(f);
            }
            sendControl(in, f, PacketPool.CNP, 0, RoceFraming.CNP_FRAME_BYTES);
        }
    }

    /**
     * ACK, NAK and CNP ride the CNP priority (strict, lossy), as the HPCC/ns-3 RDMA model does
     * (NVIDIA and SONiC map CNPs to a strict queue).
     */
    @Override
    void sendControl(EgressPort p, Flow f, byte kind, int psn, int bytes) {
        emitControl(p, f, kind, psn, bytes, QosProfile.CNP_PRIORITY, PacketPool.NOT_ECT);
    }
}
