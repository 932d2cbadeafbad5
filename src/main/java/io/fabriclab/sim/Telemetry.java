package io.fabriclab.sim;

import java.util.List;

/**
 * Telemetry sampling: at the end of every sample interval, each touched port's utilization and
 * largest queue per class within the interval, each active flow's rate, and a deadlock check
 * (queues paused continuously beyond a threshold in a cycle of waits).
 */
final class Telemetry {
    private final SimContext sim;
    /** InfiniBand's credits (a deadlock there is a cycle of credit waits); null on Ethernet. */
    private final CreditFlowControl credits;
    private final EgressPort[] ports;
    private final long[] pcs;
    private final Flow[] flows;
    private final byte[] flowPhase;
    private final List<EgressPort> touchedPorts;
    private final EventQueue events;
    private final long intervalPs;
    private DeadlockDetector deadlocks;
    long deadlockThresholdPs = 500 * io.fabriclab.model.Units.PS_PER_US;

    Telemetry(SimContext sim, CreditFlowControl credits, EgressPort[] ports, long[] pcs, Flow[] flows, byte[] flowPhase,
              List<EgressPort> touchedPorts, EventQueue events, long intervalPs) {
        this.sim = sim;
        this.credits = credits;
        this.ports = ports;
        this.pcs = pcs;
        this.flows = flows;
        this.flowPhase = flowPhase;
        this.touchedPorts = touchedPorts;
        this.events = events;
        this.intervalPs = intervalPs;
    }

    List<DeadlockDetector.Deadlock> deadlocksFound() {
        return deadlocks == null ? List.of() : deadlocks.found();
    }

    /**
     * {@link Simulator#EV_SAMPLE}: a sample at the end of the interval [now - interval, now); each
     * point is stamped with the interval's start (docs/format-scenario.md). Utilization is the
     * time the wire carried bits within the interval over its length (a frame across a boundary
     * counts in both), so it stays within [0, 1]; depth is the largest queue within it.
     */
    void sample() {
        final long now = sim.now();
        long interval = intervalPs;
        long start = now - interval;
        if (deadlockThresholdPs > 0) {
            if (deadlocks == null) {
                deadlocks = new DeadlockDetector(ports, deadlockThresholdPs, credits);
            }
            deadlocks.check(touchedPorts, now);
        }
        for (EgressPort p : touchedPorts) {
            for (int c = 0; c < EgressPort.CLASSES; c++) {
                TimeSeries s = p.depthSeries[c];
                if (s != null) {
                    s.add(start, pcs[p.at(c, EgressPort.INTERVAL_MAX)]);
                    pcs[p.at(c, EgressPort.INTERVAL_MAX)] = pcs[p.at(c, EgressPort.QUEUE_BYTES)];
                }
            }
            long busy = p.busyPsUntil(now);
            p.utilizationSeries.add(start, (double) (busy - p.busyPsAtLastSample) / interval);
            p.busyPsAtLastSample = busy;
        }
        // The phase array, not the flows: most of a large run's flows are waiting or done, and
        // reading a byte each is far cheaper than touching every Flow object.
        for (int i = 0; i < flowPhase.length; i++) {
            if (flowPhase[i] == Simulator.FLOW_ACTIVE) {
                Flow f = flows[i];
                f.rateSeries.add(now, f.rp.currentRateBps() / 1e9);
            }
        }
        events.push(now + interval, Simulator.EV_SAMPLE, 0, 0);
    }
}
