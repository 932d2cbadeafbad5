package io.fabriclab.sim;

/**
 * A transport's NIC: the requester and responder of every flow of a run, one implementation per
 * transport ({@link RoceTransport} for RoCEv2, {@link IbTransport} for InfiniBand, both reliable
 * connections of the IBTA transport over {@link RcTransport}; {@link UecTransport} for Ultra
 * Ethernet). The simulator chooses it once, when the run is built ({@link #of}), and from then on
 * hands it packets ({@link #receive}, as csg-htsim hands a PacketSink its packets), its flows' start
 * and its timers ({@link #startFlow}, {@link #timer}, as htsim wakes an EventSource), and asks it,
 * from the one NIC scheduler all transports share ({@link NicScheduler}), whether a flow may send
 * and for its next data packet ({@link #readyAtPs}, {@link #sendData}). Each implementation
 * reaches the run only through {@link SimContext.Nic} and the event queue.
 */
interface NicTransport {

    /**
     * The framing a transport's packets have on a fabric: headers and CRCs of a data packet, an
     * acknowledgement, the wire's cost per packet outside the frame, and the largest payload of
     * a data packet at the fabric's MTU.
     */
    record Framing(int dataHeaderBytes, int ackBytes, int wireOverheadBytes, int maxPayload) {

        /** The framing of {@code transport} at an MTU of {@code mtuBytes} (docs/model.md, Transports). */
        static Framing of(io.fabriclab.model.Transport transport, int mtuBytes) {
            return switch (transport) {
                case INFINIBAND -> new Framing(CreditFlowControl.DATA_HEADER_BYTES, CreditFlowControl.ACK_PACKET_BYTES,
                        CreditFlowControl.WIRE_OVERHEAD_BYTES, CreditFlowControl.maxPayload(mtuBytes));
                // Ultra Ethernet runs over Ethernet: preamble, start delimiter and gap as RoCEv2.
                case ULTRA_ETHERNET -> new Framing(UecFraming.DATA_HEADER_BYTES, UecFraming.ACK_FRAME_BYTES,
                        RoceFraming.WIRE_OVERHEAD_BYTES, UecFraming.maxPayload(mtuBytes));
                default -> new Framing(RoceFraming.DATA_HEADER_BYTES, RoceFraming.ACK_FRAME_BYTES,
                        RoceFraming.WIRE_OVERHEAD_BYTES, RoceFraming.maxPayload(mtuBytes));
            };
        }
    }

    /**
     * The NIC of {@code profile}'s transport over a run's flows: the one place a run's transport
     * is chosen. {@code credits} and {@code ibcc} are InfiniBand's link-level flow control and
     * congestion control (null on the Ethernet transports; ibcc null unless switched on).
     */
    static NicTransport of(TransportProfile profile, SimContext.Nic ctx, Flow[] flows, EventQueue events,
                           PacketPool pkts, SimConfig cfg, ReactionLog reactionLog, Framing framing,
                           CreditFlowControl credits, IbCongestionControl ibcc) {
        return switch (profile.transport()) {
            case INFINIBAND -> new IbTransport(ctx, flows, events, pkts, cfg, framing, credits, ibcc);
            case ULTRA_ETHERNET -> new UecTransport(ctx, flows, events, pkts, cfg, framing.maxPayload(), profile.uec());
            default -> new RoceTransport(ctx, flows, events, pkts, cfg, reactionLog, framing);
        };
    }

    /** {@link Simulator#EV_FLOW_START}: flow {@code f} may start sending. */
    void startFlow(Flow f);

    /**
     * A packet of kind {@code kind} reached the NIC behind ingress {@code in}: data (or a trimmed
     * header) for a flow's responder, an acknowledgement, NAK or CNP for its requester.
     */
    void receive(EgressPort in, int pkt, byte kind);

    /** A timer of flow {@code f} the transport set ({@link Simulator#EV_RTO}, {@link Simulator#EV_RATE_TIMER}). */
    void timer(int type, Flow f, int arg);

    /**
     * When flow {@code f}, active on NIC port {@code p}, may send its next data packet: at or
     * before {@code now} if it may send now, a later time if it is paced until then, or
     * {@link Long#MAX_VALUE} when nothing is to be sent or something other than time holds it (a
     * closed window, missing credits: it notes that wait itself).
     */
    long readyAtPs(EgressPort p, Flow f, long now);

    /** Sends flow {@code f}'s next data packet on {@code p}, whose wire is free ({@link #readyAtPs} said it may). */
    void sendData(EgressPort p, Flow f);

    /**
     * How many entropy values a data packet's sender chooses among, which the switches hash per
     * packet (Ultra Ethernet's spraying); 0 when packets carry none and follow the routing mode.
     */
    default int pathEntropies() {
        return 0;
    }
}
