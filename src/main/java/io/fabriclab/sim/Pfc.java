package io.fabriclab.sim;

import io.fabriclab.model.Units;
import io.fabriclab.model.PhyTiming;

/**
 * Priority flow control (IEEE 802.1Qbb) and the PFC watchdog, over the simulator's port and
 * class arrays. A switch ingress priority group above its threshold sends XOFF upstream and
 * refreshes it while it stays above; at XON it sends a resume. A received PFC frame takes effect
 * after the peer's response time and pauses (or resumes) one class of an egress. The watchdog
 * (as SONiC's) declares a queue paused without a break for its interval stormed.
 *
 * <p>The ingress admission that decides when a group crosses XOFF, and the release of its bytes
 * at dequeue that decides when it falls to XON, are the switch datapath's ({@link Simulator#arrive},
 * {@link Simulator#releaseIngress}); they call {@link #xoff} and {@link #xon}.
 */
final class Pfc {
    private final SimContext.Ports sim;
    private final long[] pcs;
    private final EventQueue events;
    private final PacketPool pkts;
    final PfcEventLog log;

    Pfc(SimContext.Ports sim, int portCount, long[] pcs, EventQueue events, PacketPool pkts) {
        this.sim = sim;
        this.pcs = pcs;
        this.events = events;
        this.pkts = pkts;
        this.log = new PfcEventLog(portCount);
    }

    static long quantaPs(int quanta, long rateBps) {
        return Units.serializationPs((long) quanta * RoceFraming.BITS_PER_QUANTUM / 8, rateBps);
    }

    /**
     * From a PFC frame's arrival until it takes effect on an egress of {@code gbps}: both ends'
     * interface (MAC/PHY) delay and the peer's response time, from the per-speed values the
     * headroom calculator uses ({@link PhyTiming#of}), so the two agree. The
     * interface delay is not put on every data frame (it would only shift all arrivals); on
     * PFC's loop it is counted here, once for each end, which adds the same bytes in flight.
     */
    static long reactionPs(int gbps, long rateBps) {
        PhyTiming t = PhyTiming.of(gbps);
        long bits = 2 * t.interfaceDelayBits() + (long) t.responseQuanta() * RoceFraming.BITS_PER_QUANTUM;
        return Units.serializationPs((bits + 7) / 8, rateBps);
    }

    /**
     * XON of a lossless group on ingress {@code ip}: the configured XON while its threshold is the
     * static XOFF; when the dynamic threshold T is below XOFF, T minus the configured hysteresis
     * (XOFF - XON), at least 0, as Broadcom resumes at the shared limit minus an XON offset.
     */
    static long xonThreshold(EgressPort ip, SwitchState sw) {
        long t = sw.pgThreshold(ip.xoffBytes);
        return t >= ip.xoffBytes ? ip.xonBytes : Math.max(0, t - (ip.xoffBytes - ip.xonBytes));
    }

    /** Ingress group {@code c} of {@code in} crossed its threshold: pause the upstream peer and keep it paused. */
    void xoff(EgressPort in, int c) {
        in.xoffSentMask |= 1 << c;
        int gen = ++in.refreshGeneration[c];
        send(in, c, RoceFraming.XOFF_QUANTA);
        events.push(sim.now() + quantaPs(RoceFraming.XOFF_QUANTA, in.lineRateBps) / 2, Simulator.EV_PFC_REFRESH,
                EgressPort.portClass(in.id, c), gen);
    }

    /** Ingress group {@code c} of {@code ip}, which paused its peer, fell to XON: resume the peer. */
    void xon(EgressPort ip, int c) {
        ip.xoffSentMask &= ~(1 << c);
        ip.refreshGeneration[c]++;
        send(ip, c, 0);
    }

    /** Queues a PFC frame for priority {@code c} on switch port {@code p}, toward its upstream peer. */
    private void send(EgressPort p, int c, int quanta) {
        if (p.down) {
            return;
        }
        int pkt = pkts.allocate(PacketPool.PAUSE, -1, quanta, RoceFraming.PFC_FRAME_BYTES, c, PacketPool.NOT_ECT);
        sim.enqueue(p, EgressPort.CONTROL, pkt, RoceFraming.PFC_FRAME_BYTES, -1, false);
        if (quanta > 0) {
            p.pauseFramesSent[c]++;
        } else {
            p.resumeFramesSent[c]++;
        }
        if (!p.touched) {
            sim.touch(p);
        }
        if (sim.trace() != null) {
            sim.trace().pfcSent(sim.now(), p.ref(), c, quanta, pcs[p.at(c, EgressPort.INGRESS_BYTES)]);
        }
        sim.transmit(p);
    }

    /** {@link Simulator#EV_PFC_REFRESH}: the group is still above XON, so refresh the pause before the peer's timer runs out. */
    void refresh(EgressPort p, int c, int gen) {
        if (gen != p.refreshGeneration[c] || !p.xoffSent(c)) {
            return;
        }
        send(p, c, RoceFraming.XOFF_QUANTA);
        events.push(sim.now() + quantaPs(RoceFraming.XOFF_QUANTA, p.lineRateBps) / 2, Simulator.EV_PFC_REFRESH,
                EgressPort.portClass(p.id, c), gen);
    }

    /**
     * A PFC frame for priority {@code c} reached egress port {@code r} (the peer's frame pauses r).
     * It takes effect {@link EgressPort#pfcReactionPs} later: until then r may still start frames
     * of that priority (IEEE 802.3 Annex 31B allows a sender this long to stop), and it finishes
     * the frame it has started. Every PFC frame, resume included, takes the same time, so they act
     * in the order they arrived.
     */
    void receive(EgressPort r, int c, int quanta) {
        r.pauseFramesReceived[c]++;
        events.push(sim.now() + r.pfcReactionPs, Simulator.EV_PFC_APPLY, EgressPort.portClass(r.id, c), quanta);
    }

    /** {@link Simulator#EV_PFC_APPLY}: a PFC frame for priority {@code c} takes effect on egress {@code r}: pause for {@code quanta}, or resume. */
    void apply(EgressPort r, int c, int quanta) {
        final long now = sim.now();
        log.record(now, r.id, c, quanta, pcs[r.at(c, EgressPort.PAUSED_UNTIL)]);
        boolean pausedBefore = pcs[r.at(c, EgressPort.PAUSED_UNTIL)] > now;
        if (!pausedBefore && r.pauseStartPs[c] >= 0) {
            // The previous pause ran out on its own: close its interval.
            r.pausedPs[c] += pcs[r.at(c, EgressPort.PAUSED_UNTIL)] - r.pauseStartPs[c];
            r.pauseStartPs[c] = -1;
        }
        if (quanta == 0) {
            if (pausedBefore) {
                r.pausedPs[c] += now - r.pauseStartPs[c];
                r.pauseStartPs[c] = -1;
                pcs[r.at(c, EgressPort.PAUSED_UNTIL)] = now;
                sim.transmit(r);
            }
            return;
        }
        long until = now + quantaPs(quanta, r.lineRateBps);
        if (!pausedBefore) {
            r.pauseStartPs[c] = now;
            if (r.watchdogPs > 0 && !r.isStormed(c)) {
                int gen = ++r.watchdogGeneration[c];
                events.push(now + r.watchdogPs, Simulator.EV_WATCHDOG, EgressPort.portClass(r.id, c), gen);
            }
        }
        pcs[r.at(c, EgressPort.PAUSED_UNTIL)] = until;
        events.push(until, Simulator.EV_PAUSE_EXPIRE, r.id, 0);
    }

    /** {@link Simulator#EV_WATCHDOG}: a queue paused continuously for the interval is stormed until pauses stop. */
    void watchdog(EgressPort r, int c, int gen) {
        if (gen != r.watchdogGeneration[c]) {
            return;
        }
        final long now = sim.now();
        if (!r.isStormed(c)) {
            if (pcs[r.at(c, EgressPort.PAUSED_UNTIL)] > now && r.pauseStartPs[c] >= 0 && now - r.pauseStartPs[c] >= r.watchdogPs) {
                r.stormedMask |= 1 << c;
                r.watchdogStorms[c]++;
                if (r.watchdogDrops) {
                    while (r.hasPackets(c)) {
                        int pkt = sim.pop(r, c);
                        sim.releaseIngress(r.polledIngress(), c, r.polledBytes());
                        sim.drop(r, c, pkt, DropCause.WATCHDOG);
                    }
                }
                events.push(now + r.watchdogPs, Simulator.EV_WATCHDOG, EgressPort.portClass(r.id, c), gen);
                sim.transmit(r);
            }
        } else if (pcs[r.at(c, EgressPort.PAUSED_UNTIL)] <= now) {
            r.stormedMask &= ~(1 << c);
            sim.transmit(r);
        } else {
            events.push(now + r.watchdogPs, Simulator.EV_WATCHDOG, EgressPort.portClass(r.id, c), gen);
        }
    }
}
