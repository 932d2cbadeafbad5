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
 * <p>The simulator's switch queues a packet when its last bit has arrived and puts it on the
 * egress wire from there; the pipeline delay is added between the egress and the next hop's
 * arrival, so every forwarded packet (data, ACK, NAK, CNP, trimmed header) sees it, queued or not,
 * and queues, pauses and credits keep their timing. Link-level frames a switch port generates
 * itself (PFC PAUSE, InfiniBand flow-control packets) do not cross the forwarding pipeline and
 * see none.
 *
 * <p>A cut-through switch starts sending a packet once its header is in, when the egress is idle
 * and nothing is queued ahead of it: the last bit then leaves {@code L + max(serIn, serOut)} after
 * the first bit arrived, i.e. {@code L - min(serIn, serOut)} after the simulator's
 * store-and-forward egress finishes (an egress faster than the ingress waits until the packet's
 * tail can no longer underrun). A packet that waited behind another, or any packet of a
 * store-and-forward switch, was wholly received before it left: its delay is {@code L}.
 */
final class SwitchPipeline {
    /** Pipeline latency per switch index, picoseconds. */
    private final long[] latencyPs;
    private final boolean[] cutThrough;
    /** When the last forwarded packet's last bit reaches the peer, per egress port id. */
    private final long[] lastArrivalPs;
    /** The delay the last forwarded packet got, per egress port id. */
    private final long[] lastDelayPs;

    private SwitchPipeline(long[] latencyPs, boolean[] cutThrough, int portCount) {
        this.latencyPs = latencyPs;
        this.cutThrough = cutThrough;
        this.lastArrivalPs = new long[portCount];
        this.lastDelayPs = new long[portCount];
        java.util.Arrays.fill(lastArrivalPs, Long.MIN_VALUE / 4);
    }

    /** Each switch's latency and forwarding from its model under {@code transport}; {@code portCount} egress ports. */
    static SwitchPipeline of(List<SwitchState> switches, Transport transport, int portCount) {
        long[] l = new long[switches.size()];
        boolean[] ct = new boolean[switches.size()];
        for (SwitchState s : switches) {
            SwitchLatency.SwitchClass k = SwitchLatency.classOf(s.device, transport);
            // The model's own figure where one is published (QM8700 130 ns), else its class's.
            l[s.index] = SwitchLatency.portToPortPs(s.device, transport);
            ct[s.index] = k.forwarding() == SwitchLatency.Forwarding.CUT_THROUGH;
        }
        return new SwitchPipeline(l, ct, portCount);
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
        }
    }

    long latencyPs(SwitchState sw) {
        return latencyPs[sw.index];
    }

    boolean cutThrough(SwitchState sw) {
        return cutThrough[sw.index];
    }

    /**
     * The delay from the end of a forwarded packet's serialization on switch egress {@code out}
     * until its last bit arrives at the peer, beyond the link's propagation.
     * <ul>
     * <li>A packet that did not wait ({@code waited} false) at a cut-through switch:
     * {@code L - min(serIn, serOut)} (it left as its head came in).
     * <li>A packet that waited and goes on the wire straight after the packet before it (the egress
     * was busy until {@code nowPs}): the delay of that packet, as the pair left back to back.
     * <li>Otherwise (store-and-forward, or a stored packet starting an idle wire): {@code L}.
     * </ul>
     * Never so early that it would overlap the previous packet on the wire: its last bit arrives at
     * least {@code serOut} after the previous one's. {@code in} is the port it came in through,
     * {@code wireBytes} its size on the wire, {@code serOutPs} its serialization on {@code out},
     * {@code nowPs} when the simulator puts it on the wire (before its busy time is set).
     */
    long delayPs(EgressPort out, EgressPort in, int wireBytes, boolean waited, long serOutPs, long nowPs) {
        return delayPs(out, in, wireBytes, waited, serOutPs, nowPs, Long.MIN_VALUE);
    }

    /**
     * {@link #delayPs(EgressPort, EgressPort, int, boolean, long, long)} for a packet that may not
     * start on the wire before {@code earliestStartPs} (InfiniBand: when the credits it needed
     * arrived, {@link CreditFlowControl#earliestStartPs}): a cut-through head start never puts its
     * start earlier.
     */
    long delayPs(EgressPort out, EgressPort in, int wireBytes, boolean waited, long serOutPs, long nowPs,
                 long earliestStartPs) {
        int s = out.sw.index;
        long d;
        if (!waited && cutThrough[s] && in != null) {
            d = latencyPs[s] - Math.min(Units.serializationPs(wireBytes, in.rateBps), serOutPs);
            if (earliestStartPs != Long.MIN_VALUE && d < earliestStartPs - nowPs) {
                // The head start would begin before the credits came back: it starts when they did.
                d = earliestStartPs - nowPs;
            }
        } else if (waited && out.busyUntilPs == nowPs) {
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
