package io.fabriclab.sim;

/**
 * What a mechanism of a run may ask of the run, in place of a reference to the whole
 * {@link Simulator}: the simulated time and the trace, and (in the two narrower interfaces that
 * extend this one) the few datapath actions each kind of mechanism takes. The anchor is
 * csg-htsim's split of a component's view of the simulator: a component is a PacketSink
 * (packets are handed to it) and an EventSource (it is woken at the times it asked for), and it
 * knows the EventList (the time now, events to schedule) rather than the simulator. Here the
 * event queue ({@link EventQueue}) is handed to each mechanism that schedules events, and the
 * context gives the rest. {@link Simulator} is the only implementation, so the JIT binds every
 * call directly.
 */
interface SimContext {
    /** The simulated time of the event being run (ps). */
    long now();

    /** The run's trace, or null when none is kept. */
    SimTrace trace();

    /**
     * What a port-level mechanism (PFC, InfiniBand's credit loop, InfiniBand congestion control,
     * the per-packet next-hop choice) may do: queue and dequeue a port's frames, free buffer,
     * drop, and hand a port's free wire back to the datapath.
     */
    interface Ports extends SimContext {
        /** The wire of {@code p} may be free: it serves its next frame unless busy or down. */
        void transmit(EgressPort p);

        /** Queues {@code pkt} of {@code bytes} in class {@code c} of {@code p} ({@link Simulator#enqueue}). */
        void enqueue(EgressPort p, int c, int pkt, int bytes, int ingress, boolean ect);

        /** Queues InfiniBand flow-control packet {@code pkt} at {@code p} ({@link Simulator#enqueueFc}). */
        void enqueueFc(EgressPort p, int pkt);

        /** Removes the front packet of class {@code c} of {@code p}. */
        int pop(EgressPort p, int c);

        /** {@code bytes} of class {@code c} that came in through switch port {@code in} leave the switch's buffer. */
        void releaseIngress(int in, int c, int bytes);

        /** Loses {@code pkt} at {@code at}, counted under {@code cause} (a {@link DropCause}). */
        void drop(EgressPort at, int c, int pkt, int cause);

        /** Marks {@code p} as one the results report (it carried or held traffic). */
        void touch(EgressPort p);

        /** True while some link is down (a port's state then needs a look). */
        boolean anyLinkDown();
    }

    /**
     * What a NIC's transport ({@link NicTransport}) and the shared {@link NicScheduler} may do:
     * put frames on a NIC's wire or queue them there, wake the NIC, report a flow's start and
     * completion, and read the two routing facts a responder needs.
     */
    interface Nic extends SimContext {
        /** The wire of {@code p} may be free: it serves its next frame unless busy or down. */
        void transmit(EgressPort p);

        /** The NIC's wire is free: the shared NIC scheduler picks its next frame now. */
        void nicTransmit(EgressPort p);

        /** Puts {@code pkt} of {@code frame} bytes on the wire of {@code p}. */
        void startTx(EgressPort p, int pkt, int frame);

        /** Queues {@code pkt} of {@code bytes} in class {@code c} of {@code p} ({@link Simulator#enqueue}). */
        void enqueue(EgressPort p, int c, int pkt, int bytes, int ingress, boolean ect);

        /** Removes the front packet of class {@code c} of {@code p}. */
        int pop(EgressPort p, int c);

        /** Removes the front packet of {@code p}'s CONTROL queue. */
        int popControl(EgressPort p);

        /** Flow {@code f} starts now: its phase, start time and rate series (the transport adds its own state). */
        void flowStarted(Flow f);

        /** Every byte of flow {@code f} has arrived: it is done, and what waits for it may start. */
        void flowDelivered(Flow f);

        /** A done flow's values changed after all (a late CNP), so a live snapshot visits it once more. */
        void doneFlowChanged(Flow f);

        /** True when data packets are routed per packet (spraying, flowlets, adaptive): a receiver places them. */
        boolean perPacketRouting();

        /** The routing policy's reorder window, packets. */
        int reorderWindowPackets();

        /**
         * The unloaded one-way time of a frame of {@code wireBytes} along {@code path} (port ids):
         * serialization and propagation on every hop and each switch's port-to-port latency.
         */
        long unloadedPathPs(int[] path, int wireBytes);
    }
}
