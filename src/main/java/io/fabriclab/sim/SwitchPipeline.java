package io.fabriclab.sim;

import java.util.List;

import io.fabriclab.model.Transport;
import io.fabriclab.model.Units;
import io.fabriclab.model.SwitchLatency;

/**
 * Port-to-port latency of every switch of a run (docs/model.md, Switch port-to-port latency): the
 * pipeline delay of the switch's model ({@link SwitchLatency}, by the run's transport) and whether
 * it forwards cut-through or store-and-forward.
 *
 * <p>The simulator's switch puts a packet on the egress wire at the switch's egress time, and the
 * pipeline delay L is added between the egress and the next hop's arrival, so every forwarded
 * packet (data, ACK, NAK, CNP, trimmed header) sees it, queued or not, and queues, pauses and
 * credits keep their timing. Link-level frames a switch port generates itself (PFC PAUSE,
 * InfiniBand flow-control packets) do not cross the forwarding pipeline and see none.
 *
 * <p>A cut-through switch starts sending a packet once its header is in, when the egress is idle
 * and nothing is queued ahead of it: its first bit leaves L after its first bit arrived (later by
 * {@code serIn - serOut} when the egress is faster than the ingress, so the tail cannot underrun).
 * On Ethernet the simulator arbitrates such a packet when its head is in ({@link #headArrival}:
 * the arrival at the switch is the head's): if the egress is idle, its queues empty and not
 * paused, and the switch is storing no packet for it ({@link EgressPort#storing}), the packet
 * claims the egress then, ahead of any packet whose last bit comes in later,
 * and leaves at once with delay {@code L} (heads that may claim it in the same picosecond go in
 * the egress's round-robin order over its ingress ports, {@link EgressPort#arbiterNext}). Otherwise the switch queues it when its last bit is in,
 * as every packet of an InfiniBand switch (whose credits are returned at the last bit, see
 * docs/model.md): one whose last bit finds the egress free still starts L after its head came in
 * ({@code L - min(serIn, serOut)} after the simulator's egress), no sooner than the wire frees.
 */
final class SwitchPipeline {
    /** Pipeline latency per switch index, picoseconds. */
    private final long[] latencyPs;
    private final boolean[] cutThrough;
    /** When the last forwarded packet's last bit reaches the peer, per egress port id. */
    private final long[] lastArrivalPs;
    /** The delay the last forwarded packet got, per egress port id. */
    private final long[] lastDelayPs;
    /** Per switch: it arbitrates a cut-through packet's egress when the packet's head is in (Ethernet). */
    private final boolean[] atHead;
    /** Per sending port id: its peer is a switch that arbitrates at the head ({@link #headArrival}). */
    private final boolean[] headArrival;
    /** The run's ports, by id. */
    private final EgressPort[] ports;

    private SwitchPipeline(long[] latencyPs, boolean[] cutThrough, boolean headArbitration, EgressPort[] ports) {
        this.latencyPs = latencyPs;
        this.cutThrough = cutThrough;
        this.ports = ports;
        this.lastArrivalPs = new long[ports.length];
        this.lastDelayPs = new long[ports.length];
        this.atHead = new boolean[cutThrough.length];
        this.headArrival = new boolean[ports.length];
        java.util.Arrays.fill(lastArrivalPs, Long.MIN_VALUE / 4);
        if (headArbitration) {
            System.arraycopy(cutThrough, 0, atHead, 0, cutThrough.length);
        }
        bindPorts();
    }

    /** {@link #headArrival} of every port from its peer switch's {@link #atHead}. */
    private void bindPorts() {
        for (EgressPort p : ports) {
            SwitchState peer = ports[p.id ^ 1].sw;
            headArrival[p.id] = peer != null && atHead[peer.index];
        }
    }

    /**
     * Each switch's latency and forwarding from its model under {@code transport}, for the run's
     * {@code ports} (by id). Cut-through switches arbitrate at a packet's head unless the run is
     * InfiniBand (its credits are returned when a packet's last bit is in).
     */
    static SwitchPipeline of(List<SwitchState> switches, Transport transport, EgressPort[] ports) {
        long[] l = new long[switches.size()];
        boolean[] ct = new boolean[switches.size()];
        for (SwitchState s : switches) {
            SwitchLatency.SwitchClass k = SwitchLatency.classOf(s.device, transport);
            // The model's own figure where one is published (QM8700 130 ns), else its class's.
            l[s.index] = SwitchLatency.portToPortPs(s.device, transport);
            ct[s.index] = k.forwarding() == SwitchLatency.Forwarding.CUT_THROUGH;
        }
        return new SwitchPipeline(l, ct, transport != Transport.INFINIBAND, ports);
    }

    /**
     * Every switch at {@code ps} (0: none, the pure store-and-forward switch of a model without
     * pipeline delay), keeping each model's forwarding mode.
     */
    void setAllPs(long ps) {
        if (ps < 0) {
            throw new IllegalArgumentException("switch latency must be >= 0 ps, not " + ps);
        }
        java.util.Arrays.fill(latencyPs, ps);
        if (ps == 0) {
            // Without a pipeline a cut-through saving would make a switch faster than its wire.
            java.util.Arrays.fill(cutThrough, false);
            java.util.Arrays.fill(atHead, false);
            bindPorts();
        }
    }

    long latencyPs(SwitchState sw) {
        return latencyPs[sw.index];
    }

    boolean cutThrough(SwitchState sw) {
        return cutThrough[sw.index];
    }

    /**
     * Whether a forwarded packet sent on port {@code portId} arrives at a switch that arbitrates at
     * its head (an Ethernet cut-through switch): the simulator then schedules its arrival when its
     * first bit is in, not its last.
     */
    boolean headArrival(int portId) {
        return headArrival[portId];
    }

    /**
     * The delay from the end of a forwarded packet's serialization on switch egress {@code out}
     * until its last bit arrives at the peer, beyond the link's propagation.
     * <ul>
     * <li>A packet that claimed the idle egress when its head came in ({@code atHead}, an Ethernet
     * cut-through switch; the simulator sends it then): {@code L}, plus {@code serIn - serOut} when
     * the egress is faster than the ingress (its tail must not underrun).
     * <li>Any other packet that did not wait ({@code waitedPs} 0: its last bit found the egress free)
     * at a cut-through switch: {@code L - min(serIn, serOut)}, i.e. it started L after its head came
     * in (on Ethernet, one whose head found the egress busy: it starts as the wire frees, no sooner
     * than one serialization after the packet before it, below), never before
     * {@code earliestStartPs}.
     * <li>A packet that waited and goes on the wire straight after the packet before it (the egress
     * was busy until {@code nowPs}): the delay of that packet, as the pair left back to back.
     * <li>Otherwise (store-and-forward, or a stored packet starting an idle wire): {@code L}.
     * </ul>
     * Never so early that it would overlap the previous packet on the wire: its last bit arrives at
     * least {@code serOut} after the previous one's. {@code in} is the port it came in through,
     * {@code wireBytes} its size on the wire, {@code serOutPs} its serialization on {@code out},
     * {@code nowPs} when the simulator puts it on the wire (before its busy time is set),
     * {@code earliestStartPs} (InfiniBand, {@link CreditFlowControl#earliestStartPs}; else
     * {@code Long.MIN_VALUE}) when the credits it needed arrived: a head start never begins before.
     */
    long delayPs(EgressPort out, EgressPort in, int wireBytes, boolean atHead, long waitedPs, long serOutPs,
                 long nowPs, long earliestStartPs) {
        int s = out.sw.index;
        long d;
        if (atHead) {
            d = latencyPs[s];
            if (in.rateBps < out.rateBps) {
                d += Units.serializationPs(wireBytes, in.rateBps) - serOutPs;
            }
        } else if (waitedPs == 0 && cutThrough[s] && in != null) {
            d = latencyPs[s] - Math.min(Units.serializationPs(wireBytes, in.rateBps), serOutPs);
            if (earliestStartPs != Long.MIN_VALUE && d < earliestStartPs - nowPs) {
                // The head start would begin before the credits came back: it starts when they did.
                d = earliestStartPs - nowPs;
            }
        } else if (waitedPs > 0 && out.busyUntilPs == nowPs) {
            d = lastDelayPs[out.id];
        } else {
            d = latencyPs[s];
        }
        long withoutPipeline = nowPs + serOutPs + out.propagationPs;
        d = Math.max(d, lastArrivalPs[out.id] + serOutPs - withoutPipeline);
        lastArrivalPs[out.id] = withoutPipeline + d;
        lastDelayPs[out.id] = d;
        return d;
    }
}
