package io.fabriclab.sim;

import io.fabriclab.model.QosProfile;

/**
 * The Ultra Ethernet NIC (UEC 1.0 Packet Delivery Sublayer, reliable unordered delivery, RUD):
 * requester and responder of every flow, over the simulator's flow and port arrays, in place of
 * {@link RoceTransport} on an {@code ultra-ethernet} run.
 *
 * <p>Requester: sends new packets and retransmissions round robin among the NIC's active flows
 * while the flow's bytes in flight stay within its NSCC window ({@link Nscc}); each data packet
 * carries an entropy value the sender cycles as csg-htsim's EQDS does, which the switches hash
 * ({@link NextHopSelector#nextByEntropy}). A NACK names one trimmed packet: only that packet is
 * queued for retransmission (selective, never go-back-N), and the window gives up its bytes. A
 * per-packet retransmission timer (RFC 6298's estimator, floored at 100 us) resends only the
 * packets unanswered for that long. Responder: places every packet where its PSN says
 * (out-of-order delivery, a bitmap of received PSNs), acknowledges with a cumulative PSN and a
 * SACK bitmap once more than 16 KiB arrived (at once on ECN, duplicates, the first packet and
 * AR), answers a trimmed header with a NACK; the flow is complete when every PSN has arrived.
 * ACKs and NACKs ride the strict, lossy CNP priority as RoCEv2's do. No CNP, no DCQCN, no PFC.
 */
final class UecTransport implements NicTransport {
    private final SimContext.Nic ctx;
    private final Flow[] flows;
    private final EventQueue events;
    private final PacketPool pkts;
    private final SimConfig cfg;
    private final int maxPayload;
    private final TransportProfileUec profile;
    private final State[] state;
    /** The retransmission timeout's floor ({@link TransportProfileUec#MIN_RTO_US}). */
    private final long minRtoPs;
    /** The draws of the entropy cycles' XOR values (seeded: a run is reproducible). */
    private final java.util.SplittableRandom evRandom;
    /** NACKs the responders sent (one per trimmed header that arrived). */
    long nacksSent;
    /** Data packets that arrived at their receiver ahead of a lower missing PSN. */
    long outOfOrderPackets;
    /** Duplicate data packets (a retransmission of a packet that had arrived). */
    long duplicatePackets;
    /** ACKs the responders sent (coalesced: about one per 16 KiB accepted, TransportProfileUec.ACK_COALESCE_BYTES). */
    long acksSent;

    /** Per flow: the selective-repeat state of sender and receiver. */
    static final class State {
        /** Sender: PSNs acknowledged; PSNs sent and not yet answered by an ACK or NACK. */
        final long[] acked;
        final long[] outstanding;
        /** Receiver: PSNs arrived. */
        final long[] received;
        int receivedCount;
        /** Sender: PSNs waiting for retransmission, a FIFO ring. */
        int[] rtx = new int[16];
        int rtxHead;
        int rtxCount;
        long inflightBytes;
        /** Send time of PSN p at p mod length (the RTT sample of its ACK). */
        final long[] sentPs;
        Nscc cc;
        /** {@code cc.cwnd}, copied after every change, so the send check reads this record only. */
        double cwnd;
        /**
         * Retransmission timer (RFC 6298 estimator, floored): smoothed RTT and its mean deviation
         * (0 before the first sample), the timeout they give, and whether an EV_RTO is pending.
         */
        long srttPs;
        long rttvarPs;
        long rtoPs;
        boolean timerArmed;
        /**
         * Entropy values, as csg-htsim's EQDS sender cycles them (EqdsSrc::nextEntropy): the
         * index counts through the path set, XORed with a value drawn anew at every wrap, so each
         * cycle visits every EV once in a shuffled order; an EV penalised by a NACK or an ECN echo
         * is skipped once (penalty at most 1, htsim's _max_penalty).
         */
        int evIndex;
        int evXor;
        byte[] evPenalty;
        /**
         * Receiver's ACK coalescing (csg-htsim EqdsSink): frame bytes accepted since its last ACK;
         * an AR packet arrived while packets were missing, so an ACK is owed once they are all in;
         * whether it has acknowledged anything yet.
         */
        long unackedBytes;
        boolean ackRequest;
        boolean ackedOnce;

        State(int packets) {
            int words = (packets + 63) >>> 6;
            acked = new long[words];
            outstanding = new long[words];
            received = new long[words];
            sentPs = new long[Math.min(packets, 1 << 14)];
        }

        void pushRtx(int psn) {
            if (rtxCount == rtx.length) {
                int[] n = new int[rtx.length * 2];
                for (int i = 0; i < rtxCount; i++) {
                    n[i] = rtx[(rtxHead + i) % rtx.length];
                }
                rtx = n;
                rtxHead = 0;
            }
            rtx[(rtxHead + rtxCount++) % rtx.length] = psn;
        }

        int popRtx() {
            int psn = rtx[rtxHead];
            rtxHead = (rtxHead + 1) % rtx.length;
            rtxCount--;
            return psn;
        }
    }

    UecTransport(SimContext.Nic ctx, Flow[] flows, EventQueue events, PacketPool pkts, SimConfig cfg,
                 int maxPayload, TransportProfileUec profile) {
        this.ctx = ctx;
        this.flows = flows;
        this.events = events;
        this.pkts = pkts;
        this.cfg = cfg;
        this.maxPayload = maxPayload;
        this.profile = profile;
        this.state = new State[flows.length];
        this.minRtoPs = TransportProfileUec.MIN_RTO_US * io.fabriclab.model.Units.PS_PER_US;
        this.evRandom = new java.util.SplittableRandom(cfg.seed() ^ 0x45514453L);
    }

    static boolean get(long[] bits, int i) {
        return (bits[i >>> 6] & (1L << i)) != 0;
    }

    static void set(long[] bits, int i) {
        bits[i >>> 6] |= 1L << i;
    }

    static void clear(long[] bits, int i) {
        bits[i >>> 6] &= ~(1L << i);
    }

    State state(int flow) {
        return state[flow];
    }

    // ----- requester -----------------------------------------------------------------------------

    @Override
    public void startFlow(Flow f) {
        final long now = ctx.now();
        ctx.flowStarted(f);
        State s = new State(f.totalPackets);
        s.cc = new Nscc(maxPayload, baseRttPs(f), f.srcPort.rateBps, profile, now);
        s.cwnd = s.cc.cwnd;
        s.rtoPs = minRtoPs;
        s.evPenalty = new byte[profile.pathEntropies()];
        s.evXor = evRandom.nextInt(profile.pathEntropies());
        state[f.id] = s;
        f.srcPort.nic.activate(f);
        ctx.transmit(f.srcPort);
    }

    @Override
    public int pathEntropies() {
        return profile.pathEntropies();
    }

    /**
     * The unloaded round trip of a flow: a full data frame serialized and propagated on every hop
     * of its path and through every switch's port-to-port latency, the ACK on every hop back (no queueing; every equal-cost path of a two- or
     * three-tier fabric has as many hops, so the ECMP path stands for all of them).
     */
    private long baseRttPs(Flow f) {
        int dataWire = maxPayload + UecFraming.DATA_HEADER_BYTES + RoceFraming.WIRE_OVERHEAD_BYTES;
        int ackWire = UecFraming.ACK_FRAME_BYTES + RoceFraming.WIRE_OVERHEAD_BYTES;
        // Each switch crossed adds its port-to-port latency (SwitchPipeline) both ways.
        return ctx.unloadedPathPs(f.forwardPath(), dataWire) + ctx.unloadedPathPs(f.reversePaths[f.pathVersion], ackWire);
    }

    private boolean canSend(Flow f, State s) {
        boolean work = s.rtxCount > 0 || f.sndNxt < f.totalPackets;
        return work && (s.inflightBytes == 0 || s.inflightBytes + maxPayload <= s.cwnd);
    }

    /** Window-based, not paced: a flow may send now while its window has room, else an ACK or NACK reopens it. */
    @Override
    public long readyAtPs(EgressPort p, Flow f, long now) {
        return canSend(f, state[f.id]) ? now : Long.MAX_VALUE;
    }

    @Override
    public void sendData(EgressPort p, Flow f) {
        sendData(p, f, state[f.id]);
    }

    private void sendData(EgressPort p, Flow f, State s) {
        int psn = -1;
        while (s.rtxCount > 0) {
            int r = s.popRtx();
            if (!get(s.acked, r) && !get(s.outstanding, r)) {
                psn = r;
                break;
            }
        }
        if (psn < 0) {
            if (f.sndNxt >= f.totalPackets) {
                return;
            }
            psn = f.sndNxt++;
        }
        int payload = f.payloadOf(psn, maxPayload);
        // Ask for an ACK at once (PDS AR) on a retransmission, on the last new packet, and when
        // the window will not let another full packet follow this one (htsim EQDS: sendRtxPacket;
        // sendNewPacket when nothing is left to send or the sender is out of credit, which for a
        // window-based sender is a full window).
        boolean ar = psn < f.maxSent || psn == f.totalPackets - 1
                || s.inflightBytes + payload + maxPayload > s.cwnd;
        if (psn < f.maxSent) {
            f.retransmittedPackets++;
            f.retransmittedBytes += payload;
        } else {
            f.maxSent = psn + 1;
        }
        set(s.outstanding, psn);
        s.inflightBytes += payload;
        s.sentPs[psn % s.sentPs.length] = ctx.now();
        if (!s.timerArmed) {
            // The timer runs while anything is unanswered, on the oldest packet's send time.
            s.timerArmed = true;
            events.push(ctx.now() + s.rtoPs, Simulator.EV_RTO, f.id, 0);
        }
        int frame = payload + UecFraming.DATA_HEADER_BYTES;
        int pkt = pkts.allocate(PacketPool.DATA, f.id, psn, frame, f.priority,
                cfg.ectData() ? PacketPool.ECT : PacketPool.NOT_ECT);
        pkts.setPathBase(pkt, f.forwardBase);
        pkts.setEntropy(pkt, nextEntropy(s, evRandom));
        if (ar) {
            pkts.setAckRequested(pkt);
        }
        ctx.startTx(p, pkt, frame);
    }

    /**
     * {@link Simulator#EV_RTO} for flow {@code f}: every packet unanswered for the timeout since
     * it was (last) sent is queued again (only those; UEC 1.0 PDS, per-packet retransmission
     * timer), and the timer is set for the oldest packet still unanswered. This is csg-htsim
     * EQDS's timer (EqdsSrc::startRTO / rtxTimerExpired: on the oldest send time in
     * {@code _send_times}), with the timeout from RFC 6298's estimator floored at
     * {@link TransportProfileUec#MIN_RTO_US} (htsim's computeDynamicRTO, whose floor
     * DEFAULT_EQDS_RTO_MIN is 100 us).
     */
    @Override
    public void timer(int type, Flow f, int arg) {
        if (type != Simulator.EV_RTO) {
            throw new IllegalStateException("unexpected timer " + type + " on an Ultra Ethernet run");
        }
        State s = state[f.id];
        s.timerArmed = false;
        if (f.senderDone || s.inflightBytes == 0) {
            return;
        }
        final long now = ctx.now();
        long oldest = Long.MAX_VALUE;
        boolean resent = false;
        for (int psn = f.sndUna; psn < f.maxSent; psn++) {
            if (get(s.outstanding, psn)) {
                long sent = s.sentPs[psn % s.sentPs.length];
                if (now - sent >= s.rtoPs) {
                    clear(s.outstanding, psn);
                    s.inflightBytes -= f.payloadOf(psn, maxPayload);
                    s.pushRtx(psn);
                    resent = true;
                } else if (sent < oldest) {
                    oldest = sent;
                }
            }
        }
        if (oldest != Long.MAX_VALUE) {
            // Set for the oldest packet still unanswered, before the resends (timed from now) go out.
            s.timerArmed = true;
            events.push(oldest + s.rtoPs, Simulator.EV_RTO, f.id, 0);
        }
        if (resent) {
            // No exponential back-off: csg-htsim's EQDS keeps its timeout fixed ("as per spec");
            // the packets queued again are timed anew from their resend.
            f.timeouts++;
            ctx.transmit(f.srcPort);
        }
    }

    /** An RTT sample (RFC 6298 2.2-2.4): SRTT, RTTVAR and RTO = SRTT + 4 RTTVAR, at least the floor. */
    private void rttSample(State s, long r) {
        if (s.srttPs == 0) {
            s.srttPs = r;
            s.rttvarPs = r / 2;
        } else {
            s.rttvarPs = (3 * s.rttvarPs + Math.abs(s.srttPs - r)) / 4;
            s.srttPs = (7 * s.srttPs + r) / 8;
        }
        s.rtoPs = Math.max(minRtoPs, s.srttPs + 4 * s.rttvarPs);
    }

    /** The next entropy value of a flow's data packet (csg-htsim EqdsSrc::nextEntropy, see {@link State#evIndex}). */
    static int nextEntropy(State s, java.util.SplittableRandom rnd) {
        int n = s.evPenalty.length;
        int ev = (s.evIndex ^ s.evXor) & (n - 1);
        while (s.evPenalty[ev] > 0) {
            s.evPenalty[ev]--;
            advanceEntropy(s, n, rnd);
            ev = (s.evIndex ^ s.evXor) & (n - 1);
        }
        advanceEntropy(s, n, rnd);
        return ev;
    }

    private static void advanceEntropy(State s, int n, java.util.SplittableRandom rnd) {
        if (++s.evIndex == n) {
            s.evIndex = 0;
            s.evXor = rnd.nextInt(n);
        }
    }

    /** A NACK or an ECN echo on entropy value {@code ev}: skip it once (htsim penalizePath, at most 1). */
    static void penalise(State s, int ev) {
        if (ev < s.evPenalty.length) {
            s.evPenalty[ev] = 1;
        }
    }

    /**
     * An ACK: every PSN below {@code cumulative} and each PSN its SACK bitmap names has arrived
     * (bit i: cumulative + 1 + i); {@code psn} is the data packet that triggered it, whose send
     * time gives the RTT sample; {@code ce} its ECN echo.
     */
    private void acked(Flow f, State s, int psn, int cumulative, long bitmap, boolean ce) {
        final long now = ctx.now();
        f.lastProgressPs = now;
        long newly = 0;
        for (int p = f.sndUna; p < cumulative; p++) {
            newly += ackOne(f, s, p);
        }
        for (long b = bitmap; b != 0; b &= b - 1) {
            int p = cumulative + 1 + Long.numberOfTrailingZeros(b);
            if (p < f.totalPackets) {
                newly += ackOne(f, s, p);
            }
        }
        if (newly == 0) {
            return;
        }
        long rtt = now - s.sentPs[psn % s.sentPs.length];
        rttSample(s, rtt);
        s.cc.onAck(newly, rtt, ce, now);
        s.cwnd = s.cc.cwnd;
        while (f.sndUna < f.totalPackets && get(s.acked, f.sndUna)) {
            f.sndUna++;
        }
        if (f.sndUna >= f.totalPackets && !f.senderDone) {
            f.senderDone = true;
            f.srcPort.nic.deactivate(f);
        }
        ctx.transmit(f.srcPort);
    }

    /** Marks PSN {@code p} acknowledged; its payload bytes if it was not already. */
    private long ackOne(Flow f, State s, int p) {
        if (get(s.acked, p)) {
            return 0;
        }
        set(s.acked, p);
        int payload = f.payloadOf(p, maxPayload);
        if (get(s.outstanding, p)) {
            clear(s.outstanding, p);
            s.inflightBytes -= payload;
        }
        return payload;
    }

    private void nacked(Flow f, State s, int psn) {
        f.lastProgressPs = ctx.now();
        f.naks++;
        if (get(s.acked, psn) || !get(s.outstanding, psn)) {
            return;
        }
        clear(s.outstanding, psn);
        int payload = f.payloadOf(psn, maxPayload);
        s.inflightBytes -= payload;
        s.cc.onNack(payload, ctx.now());
        s.cwnd = s.cc.cwnd;
        s.pushRtx(psn);
        ctx.transmit(f.srcPort);
    }

    /** A packet reached the NIC behind ingress {@code in}: data or a trimmed header for the responder, ACK / NACK for the requester. */
    @Override
    public void receive(EgressPort in, int pkt, byte kind) {
        int id = pkts.flow(pkt);
        // The state by the packet's flow id: its load does not wait for the flow's record.
        State s = state[id];
        Flow f = flows[id];
        int psn = pkts.psn(pkt);
        // The entropy value: of the data packet, echoed in its ACK or NACK.
        int ev = pkts.entropy(pkt);
        switch (kind) {
            case PacketPool.DATA -> {
                boolean ce = pkts.ecn(pkt) == PacketPool.CE;
                boolean ar = pkts.ackRequested(pkt);
                int frame = pkts.frameBytes(pkt);
                pkts.free(pkt);
                responderData(in, f, s, psn, ce, ev, ar, frame);
            }
            case PacketPool.TRIMMED -> {
                pkts.free(pkt);
                nacksSent++;
                sendControl(in, f, PacketPool.NAK, psn, false, ev);
            }
            case PacketPool.ACK -> {
                boolean ce = pkts.ecn(pkt) == PacketPool.CE;
                int cumulative = pkts.cumulativePsn(pkt);
                long bitmap = pkts.sackBitmap(pkt);
                pkts.free(pkt);
                if (ce) {
                    penalise(s, ev);
                }
                acked(f, s, psn, cumulative, bitmap, ce);
            }
            case PacketPool.NAK -> {
                pkts.free(pkt);
                penalise(s, ev);
                nacked(f, s, psn);
            }
            default -> throw new IllegalStateException("unexpected packet kind " + kind + " on an Ultra Ethernet run");
        }
    }

    // ----- responder -----------------------------------------------------------------------------

    private void responderData(EgressPort in, Flow f, State s, int psn, boolean ce, int ev, boolean ar, int frame) {
        final long now = ctx.now();
        if (ce) {
            f.ceReceived++;
        }
        // When to acknowledge (csg-htsim EqdsSink::processData): at once on a duplicate, an
        // ECN-marked packet, the flow's first packet, an AR packet, and when an AR packet's
        // request is owed and nothing is missing any more; otherwise once more than
        // ACK_COALESCE_BYTES have been accepted since the last ACK.
        boolean ackNow = ce || ar || !s.ackedOnce;
        s.unackedBytes += frame;
        if (ar) {
            s.ackRequest = true;
        }
        if (get(s.received, psn)) {
            duplicatePackets++;
            ackNow = true;
        } else {
            set(s.received, psn);
            s.receivedCount++;
            if (psn != f.expected) {
                f.outOfOrder++;
                outOfOrderPackets++;
            }
            while (f.expected < f.totalPackets && get(s.received, f.expected)) {
                f.expected++;
            }
            if (s.ackRequest && s.receivedCount == f.expected) {
                ackNow = true;
            }
            if (s.receivedCount == f.totalPackets && !f.done) {
                ctx.flowDelivered(f);
            }
        }
        if (ackNow || s.unackedBytes > TransportProfileUec.ACK_COALESCE_BYTES) {
            if (s.receivedCount == f.expected) {
                s.ackRequest = false;
            }
            s.unackedBytes = 0;
            s.ackedOnce = true;
            acksSent++;
            sendAck(in, f, s, psn, ce, ev);
        }
    }

    /**
     * An ACK (PDS ACK_CC) for data packet {@code psn}: the cumulative PSN (the first one missing)
     * and the SACK bitmap of the 64 PSNs after it, as the receiver holds them now.
     */
    private void sendAck(EgressPort p, Flow f, State s, int psn, boolean ce, int ev) {
        int cumulative = f.expected;
        long bitmap = 0;
        int first = cumulative + 1;
        for (int i = 0; i < 64 && first + i < f.totalPackets; i++) {
            if (get(s.received, first + i)) {
                bitmap |= 1L << i;
            }
        }
        sendControl(p, f, PacketPool.ACK, psn, ce, ev, cumulative, bitmap);
    }

    /**
     * ACK and NACK ride the CNP priority (strict, lossy); an ACK's ECN field carries the echo. An
     * ACK carries a PDS ACK and an SES response, a NACK only its PDS NACK ({@link UecFraming}).
     */
    private int sendControl(EgressPort p, Flow f, byte kind, int psn, boolean ce, int ev) {
        return sendControl(p, f, kind, psn, ce, ev, 0, 0);
    }

    private int sendControl(EgressPort p, Flow f, byte kind, int psn, boolean ce, int ev, int cumulative, long bitmap) {
        int size = kind == PacketPool.NAK ? UecFraming.NACK_FRAME_BYTES : UecFraming.ACK_FRAME_BYTES;
        int pkt = pkts.allocate(kind, f.id, psn, size, QosProfile.CNP_PRIORITY,
                ce ? PacketPool.CE : PacketPool.NOT_ECT);
        pkts.setPathBase(pkt, f.reverseBase);
        pkts.setEntropy(pkt, ev);
        pkts.setSack(pkt, cumulative, bitmap);
        ctx.enqueue(p, QosProfile.CNP_PRIORITY, pkt, size, -1, false);
        if (p.busyUntilPs <= ctx.now()) {
            ctx.nicTransmit(p);
        }
        return pkt;
    }
}
