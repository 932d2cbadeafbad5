package io.fabriclab.sim;

/**
 * The NIC's scheduler, one for every transport: when a NIC's wire is free it sends, in this
 * order, a link-level control packet (InfiniBand's flow-control packets), the highest class of
 * its queued control traffic (ACK, NAK, CNP) that is not paused and (InfiniBand) has credits, or
 * the next data packet of its active flows, taken round robin among those the transport lets
 * send now ({@link NicTransport#readyAtPs}). When every flow is paced (a DCQCN rate, InfiniBand
 * congestion control's delay) it sets a wake-up at the earliest of their times; a flow held by
 * anything else (a closed window, missing credits) is woken by what releases it (an ACK, a
 * flow-control packet).
 */
final class NicScheduler {
    private final SimContext.Nic ctx;
    private final NicTransport transport;
    /** InfiniBand's link-level flow control (control packets need credits too); null on Ethernet. */
    private final CreditFlowControl credits;
    private final EventQueue events;

    NicScheduler(SimContext.Nic ctx, NicTransport transport, CreditFlowControl credits, EventQueue events) {
        this.ctx = ctx;
        this.transport = transport;
        this.credits = credits;
        this.events = events;
    }

    /** The wire of NIC port {@code p} is free: its next frame, control before data, or a wake-up at the earliest paced send. */
    void transmit(EgressPort p) {
        final long now = ctx.now();
        CreditFlowControl cr = credits;
        if (p.queuedPackets > 0) {
            if (p.hasPackets(EgressPort.CONTROL)) {
                // Link-level control (InfiniBand flow-control packets) goes first and needs no credits.
                int pkt = ctx.popControl(p);
                ctx.startTx(p, pkt, p.polledBytes());
                return;
            }
            // ACK, NAK and CNP go before data, highest class first.
            for (int c = EgressPort.CLASSES - 1; c >= 0; c--) {
                if (p.hasPackets(c) && !p.paused(c, now)) {
                    if (cr != null && !cr.fits(p, c, p.headBytes(c))) {
                        cr.stall(p, c, p.headBytes(c));
                        continue;
                    }
                    int pkt = ctx.pop(p, c);
                    if (cr != null) {
                        cr.consume(p, c, p.polledBytes());
                    }
                    ctx.startTx(p, pkt, p.polledBytes());
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
            long at = transport.readyAtPs(p, f, now);
            if (at <= now) {
                nic.roundRobin = idx + 1 >= n ? 0 : idx + 1;
                transport.sendData(p, f);
                return;
            }
            if (at < earliest) {
                earliest = at;
            }
        }
        if (earliest != Long.MAX_VALUE && (p.wakeAtPs < 0 || p.wakeAtPs > earliest || p.wakeAtPs < now)) {
            p.wakeAtPs = earliest;
            events.push(earliest, Simulator.EV_NIC_WAKE, p.id, 0);
        }
    }
}
