package io.fabriclab.sim;

import java.util.ArrayList;
import java.util.List;

import io.fabriclab.model.QosProfile;

/**
 * Copies the simulator's live state into an immutable {@link SimSnapshot}. Runs on the simulator
 * thread; keeps the totals of the previous snapshot to report what happened since. Reading the
 * state changes nothing the run computes, so snapshots never alter results.
 */
final class SnapshotBuilder {
    private final EgressPort[] ports;
    private final Flow[] flows;
    /** The simulator's per-flow phase (Simulator.FLOW_*); a late-CNP mark is cleared here once seen. */
    private final byte[] phase;
    /** Each flow's phase at the previous snapshot; -1 before the first, so that one visits all. */
    private final byte[] seenPhase;
    private final FlowValues.Writer rates;
    private final FlowValues.Writer targets;
    private final FlowValues.Writer progress;
    private final FlowValues.Writer flowCnps;
    private final List<String> portRefs;
    private final long[] lastMarks;
    private final long[] lastDrops;
    /** Each port's busy wire time at the previous snapshot (EgressPort#busyPsUntil). */
    private final long[] lastBusy;
    private long lastCnps;
    private long lastPauses;
    private long lastTimePs;
    private double[] lastUtilization;
    private int thresholdsVersion = -1;
    private List<PortThresholds> thresholds;
    private int pathsVersion = -1;
    private List<int[]> paths;
    private List<int[]> reversePaths;
    private int deadlocksSeen = -1;
    private List<List<String>> deadlocks = List.of();

    SnapshotBuilder(EgressPort[] ports, Flow[] flows, byte[] phase) {
        this.ports = ports;
        this.flows = flows;
        this.phase = phase;
        this.seenPhase = new byte[flows.length];
        java.util.Arrays.fill(seenPhase, (byte) -1);
        this.rates = new FlowValues.Writer(flows.length);
        this.targets = new FlowValues.Writer(flows.length);
        this.progress = new FlowValues.Writer(flows.length);
        this.flowCnps = new FlowValues.Writer(flows.length);
        List<String> refs = new ArrayList<>(ports.length);
        for (EgressPort p : ports) {
            refs.add(p.ref());
        }
        this.portRefs = List.copyOf(refs);
        this.lastMarks = new long[ports.length];
        this.lastDrops = new long[ports.length];
        this.lastBusy = new long[ports.length];
        this.lastUtilization = new double[ports.length];
    }

    /**
     * The state at {@code atPs}, which lies between the last event processed and the next one
     * (the state is constant there; only pause timers are read at {@code atPs}).
     */
    SimSnapshot build(long atPs, long events, int flowsCompleted, int thresholdsVersionNow, int reroutes,
                      List<DeadlockDetector.Deadlock> found) {
        int n = ports.length;
        long[] queue = new long[n];
        long[] ingress = new long[n];
        int[] paused = new int[n];
        boolean[] down = new boolean[n];
        long[] marks = new long[n];
        long[] dropped = new long[n];
        long[] marksTotal = new long[n];
        long[] dropsTotal = new long[n];
        long[] pauseFrames = new long[n];
        long[] pausedPs = new long[n];
        long[] cnps = new long[n];
        long[] wire = new long[n];
        int[] stormed = new int[n];
        long[] storms = new long[n];
        long interval = atPs - lastTimePs;
        double[] util = interval > 0 ? new double[n] : lastUtilization;
        long pausesAll = 0;
        long cnpsAll = 0;
        for (int i = 0; i < n; i++) {
            EgressPort p = ports[i];
            long m = 0;
            long d = 0;
            long longestPause = 0;
            for (int c = 0; c < EgressPort.CLASSES; c++) {
                queue[i] += p.cls(c, EgressPort.QUEUE_BYTES);
                ingress[i] += p.cls(c, EgressPort.INGRESS_BYTES);
                long pausedUntil = p.cls(c, EgressPort.PAUSED_UNTIL);
                if (p.paused(c, atPs)) {
                    paused[i] |= 1 << c;
                }
                long t = p.pausedPs[c];
                if (p.pauseStartPs[c] >= 0) {
                    t += Math.min(atPs, pausedUntil) - p.pauseStartPs[c];
                }
                longestPause = Math.max(longestPause, t);
                m += p.ecnMarked[c];
                d += p.dropsBuffer[c] + p.dropsHeadroom[c] + p.dropsWatchdog[c] + p.dropsLinkDown[c];
                pauseFrames[i] += p.pauseFramesSent[c];
                storms[i] += p.watchdogStorms[c];
            }
            stormed[i] = p.stormedMask;
            down[i] = p.down;
            pausesAll += pauseFrames[i];
            marksTotal[i] = m;
            dropsTotal[i] = d;
            pausedPs[i] = longestPause;
            cnps[i] = p.nic != null ? p.nic.cnpsSent : 0;
            // Every CNP counts at its flow and at the NIC port that sent it: the ports sum to all of them.
            cnpsAll += cnps[i];
            wire[i] = p.txWireBytes;
            marks[i] = m - lastMarks[i];
            lastMarks[i] = m;
            dropped[i] = d - lastDrops[i];
            lastDrops[i] = d;
            if (interval > 0) {
                // The part of the interval the wire carried bits: within [0, 1].
                long busy = p.busyPsUntil(atPs);
                util[i] = (double) (busy - lastBusy[i]) / interval;
                lastBusy[i] = busy;
            }
        }
        for (int id = 0; id < flows.length; id++) {
            byte now = phase[id];
            // A waiting flow's values do not move, nor a done one's (a late CNP marks it changed):
            // visit the active ones and those whose phase changed since the previous snapshot.
            if (now != Simulator.FLOW_ACTIVE && now == seenPhase[id]) {
                continue;
            }
            Flow f = flows[id];
            if (now == Simulator.FLOW_DONE_CHANGED) {
                phase[id] = Simulator.FLOW_DONE;
                now = Simulator.FLOW_DONE;
            }
            seenPhase[id] = now;
            boolean active = now == Simulator.FLOW_ACTIVE;
            rates.set(id, active ? f.rp.currentRateBps() / 1e9 : 0);
            targets.set(id, active ? f.rp.targetRateBps() / 1e9 : 0);
            progress.set(id, f.totalPackets == 0 ? 1.0 : (double) f.expected / f.totalPackets);
            flowCnps.set(id, f.cnpsSent);
        }
        if (thresholdsVersionNow != thresholdsVersion) {
            thresholdsVersion = thresholdsVersionNow;
            List<PortThresholds> t = new ArrayList<>(n);
            for (EgressPort p : ports) {
                t.add(new PortThresholds(p.wred[QosProfile.RDMA_PRIORITY],
                        p.sw != null ? p.xoffBytes : 0, p.sw != null ? p.xonBytes : 0));
            }
            thresholds = List.copyOf(t);
        }
        if (reroutes != pathsVersion) {
            pathsVersion = reroutes;
            List<int[]> ps = new ArrayList<>(flows.length);
            List<int[]> rs = new ArrayList<>(flows.length);
            for (Flow f : flows) {
                ps.add(f.forwardPath().clone());
                rs.add(f.reversePaths[f.pathVersion].clone());
            }
            paths = java.util.Collections.unmodifiableList(ps);
            reversePaths = java.util.Collections.unmodifiableList(rs);
        }
        if (found.size() != deadlocksSeen) {
            deadlocksSeen = found.size();
            List<List<String>> ds = new ArrayList<>();
            for (DeadlockDetector.Deadlock dl : found) {
                ds.add(dl.ports());
            }
            deadlocks = List.copyOf(ds);
        }
        SimSnapshot s = new SimSnapshot(atPs, events, flowsCompleted, portRefs, queue, ingress, paused, down, marks,
                dropped, util, marksTotal, dropsTotal, pauseFrames, pausedPs, cnps, wire, thresholds,
                rates.publish(), targets.publish(), progress.publish(), paths, cnpsAll - lastCnps,
                pausesAll - lastPauses, reroutes, deadlocks, stormed, storms, reversePaths, flowCnps.publish());
        lastCnps = cnpsAll;
        lastPauses = pausesAll;
        if (interval > 0) {
            lastUtilization = util;
            lastTimePs = atPs;
        }
        return s;
    }
}
