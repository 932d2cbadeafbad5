package io.fabriclab.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.fabriclab.model.QosProfile;

/**
 * Copies the simulator's live state into an immutable {@link SimSnapshot}. Runs on the simulator
 * thread; keeps the totals of the previous snapshot to report what happened since. Reading the
 * state changes nothing the run computes, so snapshots never alter results.
 *
 * <p><b>Which ports a snapshot carries.</b> Only the links traffic can have reached (both
 * directions of each, so a port's peer is at index {@code i ^ 1}): every link on a flow's forward
 * or reverse path (at the start and after each reroute), every link whose egress the simulator has
 * marked touched (it sent, queued, dropped or sent PFC: {@link Simulator#touchedPorts()}), and
 * every failed link. A port outside that set has never held a byte, been paused, marked, dropped or
 * sent a frame, so every value the snapshot would give it is zero: leaving it out loses nothing,
 * and the fabric-wide totals and worst ports read from the snapshot are exact. The set only grows
 * (a link, once in, stays), so a port keeps its index for the rest of the run and flow paths,
 * published as indexes, stay valid in later snapshots; a later snapshot may list more ports than
 * an earlier one, and a port beyond an earlier snapshot's list was all zeros then. The cost of a
 * snapshot thus follows the traffic, not the fabric: an 8-to-1 incast on the 64-unit rail fabric
 * (98,304 egress ports) carries a few dozen (docs/live-view.md, "Large fabrics"). {@code
 * wholeFabric} lists every port instead (bench live's comparison, and tests).
 */
final class SnapshotBuilder {
    /** InfiniBand's credits (null on the Ethernet transports): which VLs are credit-stalled now. */
    CreditFlowControl credits;
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
    /** Ports the simulator has marked touched, in the order it did (append-only). */
    private final List<EgressPort> touched;
    private int touchedSeen;
    /** Global port id of each snapshot index, and the snapshot index of each global id (-1: not carried). */
    private int[] included;
    private int count;
    private final int[] indexOf;
    private List<String> portRefs = List.of();
    private int refsCount = -1;
    private long[] lastMarks;
    private long[] lastDrops;
    /** Each carried port's busy wire time at the previous snapshot (EgressPort#busyPsUntil). */
    private long[] lastBusy;
    private long lastCnps;
    private long lastPauses;
    private long lastTimePs;
    private double[] lastUtilization = new double[0];
    private int thresholdsVersion = -1;
    private int thresholdsCount = -1;
    private List<PortThresholds> thresholds;
    private int pathsVersion = -1;
    private List<int[]> paths;
    private List<int[]> reversePaths;
    private int deadlocksSeen = -1;
    private List<List<String>> deadlocks = List.of();
    /** Snapshots built and the simulator thread's wall time spent building them (bench live reads these). */
    private volatile long built;
    private volatile long buildNanos;

    /** NVLink activity at the snapshot's instant (LocalWork), or null. */
    java.util.function.Supplier<SimSnapshot.ScaleUpActivity> scaleUp;

    SnapshotBuilder(EgressPort[] ports, Flow[] flows, byte[] phase, List<EgressPort> touched, boolean wholeFabric) {
        this.ports = ports;
        this.flows = flows;
        this.phase = phase;
        this.touched = touched;
        this.seenPhase = new byte[flows.length];
        Arrays.fill(seenPhase, (byte) -1);
        this.rates = new FlowValues.Writer(flows.length);
        this.targets = new FlowValues.Writer(flows.length);
        this.progress = new FlowValues.Writer(flows.length);
        this.flowCnps = new FlowValues.Writer(flows.length);
        this.indexOf = new int[ports.length];
        Arrays.fill(indexOf, -1);
        this.included = new int[Math.min(ports.length, 64)];
        this.lastMarks = new long[included.length];
        this.lastDrops = new long[included.length];
        this.lastBusy = new long[included.length];
        if (wholeFabric) {
            for (int g = 0; g < ports.length; g++) {
                include(g);
            }
        }
    }

    /** Carries both directions of the link of global port {@code g} from now on. */
    private void include(int g) {
        int even = g & ~1;
        for (int id = even; id <= even + 1 && id < ports.length; id++) {
            if (indexOf[id] >= 0) {
                continue;
            }
            if (count == included.length) {
                int cap = Math.min(ports.length, Math.max(16, count * 2));
                included = Arrays.copyOf(included, cap);
                lastMarks = Arrays.copyOf(lastMarks, cap);
                lastDrops = Arrays.copyOf(lastDrops, cap);
                lastBusy = Arrays.copyOf(lastBusy, cap);
            }
            indexOf[id] = count;
            included[count++] = id;
        }
    }

    /** Carries the link of {@code p} from now on (a failed link, before any traffic reaches it). Simulator thread. */
    void include(EgressPort p) {
        include(p.id);
    }

    /** Ports the next snapshot will carry at least (bench live and tests). */
    int carried() {
        return count;
    }

    /**
     * The state at {@code atPs}, which lies between the last event processed and the next one
     * (the state is constant there; only pause timers are read at {@code atPs}).
     */
    SimSnapshot build(long atPs, long events, int flowsCompleted, int thresholdsVersionNow, int reroutes,
                      List<DeadlockDetector.Deadlock> found) {
        long t0 = System.nanoTime();
        SimSnapshot s = buildNow(atPs, events, flowsCompleted, thresholdsVersionNow, reroutes, found);
        buildNanos += System.nanoTime() - t0;
        built++;
        return s;
    }

    /** Snapshots built so far. */
    long built() {
        return built;
    }

    /** Wall time spent building them, in nanoseconds. */
    long buildNanos() {
        return buildNanos;
    }

    private SimSnapshot buildNow(long atPs, long events, int flowsCompleted, int thresholdsVersionNow, int reroutes,
                                 List<DeadlockDetector.Deadlock> found) {
        boolean rerouted = reroutes != pathsVersion;
        if (rerouted) {
            // Every link a path crosses now (the first snapshot's and each reroute's), and any link
            // that failed meanwhile (a reroute follows every failure; a live failure is included at once).
            for (Flow f : flows) {
                for (int g : f.forwardPath()) {
                    include(g);
                }
                for (int g : f.reversePaths[f.pathVersion]) {
                    include(g);
                }
            }
            for (EgressPort p : ports) {
                if (p.down) {
                    include(p.id);
                }
            }
        }
        for (; touchedSeen < touched.size(); touchedSeen++) {
            include(touched.get(touchedSeen).id);
        }
        int n = count;
        if (n != refsCount) {
            List<String> refs = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                refs.add(ports[included[i]].ref());
            }
            portRefs = java.util.Collections.unmodifiableList(refs);
            refsCount = n;
        }
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
        int[] creditStalled = new int[n];
        long[] trimmed = new long[n];
        long interval = atPs - lastTimePs;
        double[] util = interval > 0 || lastUtilization.length != n
                ? new double[n] : lastUtilization;
        if (interval <= 0) {
            // No time passed: the utilisation of the interval before, ports added since at 0.
            System.arraycopy(lastUtilization, 0, util, 0, Math.min(lastUtilization.length, n));
        }
        long pausesAll = 0;
        long cnpsAll = 0;
        for (int i = 0; i < n; i++) {
            EgressPort p = ports[included[i]];
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
            creditStalled[i] = credits == null ? 0 : credits.stalledMask(p);
            trimmed[i] = p.trimmed;
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
        if (thresholdsVersionNow != thresholdsVersion || n != thresholdsCount) {
            // Ports added since keep the list's earlier entries (no live edit between) and append theirs.
            List<PortThresholds> t = new ArrayList<>(n);
            int from = thresholdsVersionNow == thresholdsVersion ? thresholds.size() : 0;
            if (from > 0) {
                t.addAll(thresholds);
            }
            for (int i = from; i < n; i++) {
                EgressPort p = ports[included[i]];
                t.add(new PortThresholds(p.wred[QosProfile.RDMA_PRIORITY],
                        p.sw != null ? p.xoffBytes : 0, p.sw != null ? p.xonBytes : 0));
            }
            thresholdsVersion = thresholdsVersionNow;
            thresholdsCount = n;
            thresholds = java.util.Collections.unmodifiableList(t);
        }
        if (rerouted) {
            pathsVersion = reroutes;
            List<int[]> ps = new ArrayList<>(flows.length);
            List<int[]> rs = new ArrayList<>(flows.length);
            for (Flow f : flows) {
                ps.add(local(f.forwardPath()));
                rs.add(local(f.reversePaths[f.pathVersion]));
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
                pausesAll - lastPauses, reroutes, deadlocks, stormed, storms, reversePaths, flowCnps.publish(),
                creditStalled, trimmed, scaleUp == null ? null : scaleUp.get());
        lastCnps = cnpsAll;
        lastPauses = pausesAll;
        lastUtilization = util;
        if (interval > 0) {
            lastTimePs = atPs;
        }
        return s;
    }

    /** A path of global port ids as snapshot indexes (every port on a path is carried). */
    private int[] local(int[] global) {
        int[] out = new int[global.length];
        for (int i = 0; i < global.length; i++) {
            out[i] = indexOf[global[i]];
        }
        return out;
    }
}
