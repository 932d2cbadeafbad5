package io.fabriclab.sim;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.jgrapht.Graph;
import org.jgrapht.alg.cycle.CycleDetector;
import org.jgrapht.graph.DefaultDirectedGraph;
import org.jgrapht.graph.DefaultEdge;

/**
 * Dynamic deadlock detection: egress queues (port, lossless priority) that hold packets and
 * have been paused continuously for longer than a threshold (PFC; on an InfiniBand run, credit
 * stalled: the receiver's credits have not covered the head packet of that VL for that long), linked queue to queue where the
 * paused queue's peer switch holds traffic for that priority in another paused queue (the
 * peer's ingress from this link cannot drain while that queue cannot send). A cycle in that
 * wait-for graph is a set of queues that can only wait for one another: a deadlock.
 */
final class DeadlockDetector {
    /** A detected cycle. */
    record Deadlock(long detectedPs, int priority, List<String> ports) {
    }

    private final EgressPort[] ports;
    private final long thresholdPs;
    /** InfiniBand's credits: a queue waits on credits instead of a pause; null on other transports. */
    private final CreditFlowControl credits;
    private final Set<String> reported = new HashSet<>();
    private final List<Deadlock> found = new ArrayList<>();

    DeadlockDetector(EgressPort[] ports, long thresholdPs) {
        this(ports, thresholdPs, null);
    }

    DeadlockDetector(EgressPort[] ports, long thresholdPs, CreditFlowControl credits) {
        this.ports = ports;
        this.thresholdPs = thresholdPs;
        this.credits = credits;
    }

    List<Deadlock> found() {
        return found;
    }

    /** Looks for new deadlocks at {@code now}; returns true when one was found. */
    boolean check(List<EgressPort> candidates, long now) {
        boolean any = false;
        // One pass over the candidates (this runs at every telemetry sample of a large fabric);
        // a graph is built only for a priority with at least two stuck queues.
        int[] stuckCount = new int[EgressPort.CLASSES];
        List<EgressPort> stuckPorts = null;
        for (EgressPort p : candidates) {
            boolean listed = false;
            for (int c = 0; c < EgressPort.CLASSES; c++) {
                if (stuck(p, c, now)) {
                    stuckCount[c]++;
                    if (!listed) {
                        if (stuckPorts == null) {
                            stuckPorts = new ArrayList<>();
                        }
                        stuckPorts.add(p);
                        listed = true;
                    }
                }
            }
        }
        if (stuckPorts == null) {
            return false;
        }
        for (int c = 0; c < EgressPort.CLASSES; c++) {
            if (stuckCount[c] < 2) {
                continue;
            }
            Graph<Integer, DefaultEdge> g = new DefaultDirectedGraph<>(DefaultEdge.class);
            for (EgressPort p : stuckPorts) {
                if (stuck(p, c, now)) {
                    g.addVertex(p.id);
                }
            }
            for (int id : new ArrayList<>(g.vertexSet())) {
                EgressPort peerIngress = ports[id ^ 1];
                SwitchState peer = peerIngress.sw;
                if (peer == null || peerIngress.cls(c, EgressPort.INGRESS_BYTES) <= 0) {
                    continue;
                }
                for (EgressPort q : peer.egress) {
                    if (q.id != peerIngress.id && g.containsVertex(q.id)) {
                        g.addEdge(id, q.id);
                    }
                }
            }
            Set<Integer> inCycles = new CycleDetector<>(g).findCycles();
            if (inCycles.isEmpty()) {
                continue;
            }
            TreeSet<String> refs = new TreeSet<>();
            for (int id : inCycles) {
                refs.add(ports[id].ref());
            }
            String key = c + ":" + refs;
            if (reported.add(key)) {
                found.add(new Deadlock(now, c, List.copyOf(refs)));
                any = true;
            }
        }
        return any;
    }

    private boolean stuck(EgressPort p, int c, long now) {
        if (credits != null) {
            // A credit loop: the queue's head has waited for credits continuously this long.
            long since = credits.stallStartPs(p.id, c);
            return p.sw != null && p.hasPackets(c) && since >= 0 && now - since >= thresholdPs;
        }
        return p.sw != null && p.hasPackets(c) && p.cls(c, EgressPort.PAUSED_UNTIL) > now
                && p.pauseStartPs[c] >= 0 && now - p.pauseStartPs[c] >= thresholdPs;
    }
}
