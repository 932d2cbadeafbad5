package io.fabriclab.counters;

import java.util.HashMap;
import java.util.Map;

import io.fabriclab.sim.SimResults;

/**
 * A simulation run's per-port figures on the measured counters' terms, rates per second of simulated
 * time: PFC frames received and sent (SimResults.PfcResult), the share of time paused (its paused
 * time over the run), ECN marks at the port's egress queues (QueueResult.ecnMarked), CNPs a NIC sent
 * and received (NicResult), drops charged to the port (DropResult, every side and cause), bytes on
 * the wire leaving it (LinkResult) and its queues' peak depth (the counterpart of a watermark). A
 * port the run has no record of gets zeros where the run would have counted (its egress existed),
 * NaN where the figure does not apply (CNPs of a switch port; ECN-marked packets a NIC received,
 * which the run does not count).
 */
public final class SimulatedFigures {

    private SimulatedFigures() {
    }

    public static Map<String, PortFigures> of(SimResults r) {
        double s = Math.max(1e-12, r.run().simulatedPs() / 1e12);
        double ps = Math.max(1, r.run().simulatedPs());
        Map<String, double[]> acc = new HashMap<>();
        // 0 pfcRx, 1 pfcTx, 2 pausedShare, 3 ecn, 4 cnpSent, 5 cnpHandled, 6 drops, 7 txBytes, 8 watermark
        java.util.function.Function<String, double[]> at = p -> acc.computeIfAbsent(p, x -> {
            double[] a = new double[9];
            a[4] = Double.NaN;
            a[5] = Double.NaN;
            return a;
        });
        for (SimResults.PfcResult p : r.pfc()) {
            double[] a = at.apply(p.port());
            a[0] += p.pauseFramesReceived() / s;
            a[1] += p.pauseFramesSent() / s;
            a[2] = Math.max(a[2], Math.min(1, p.pausedPs() / ps));
        }
        for (SimResults.QueueResult q : r.queues()) {
            double[] a = at.apply(q.port());
            a[3] += q.ecnMarked() / s;
            a[8] = Math.max(a[8], q.maxBytes());
        }
        for (SimResults.NicResult n : r.nics()) {
            double[] a = at.apply(n.port());
            a[4] = n.cnpsSent() / s;
            a[5] = n.cnpsReceived() / s;
        }
        for (SimResults.DropResult d : r.drops()) {
            at.apply(d.port())[6] += d.packets() / s;
        }
        for (SimResults.LinkResult l : r.links()) {
            at.apply(l.from())[7] += l.frameBytes() / s;
        }
        Map<String, PortFigures> out = new HashMap<>();
        acc.forEach((p, a) -> out.put(p, new PortFigures(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8])));
        return out;
    }
}
