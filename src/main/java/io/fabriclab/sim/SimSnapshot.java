package io.fabriclab.sim;

import java.util.List;

/**
 * What the live view draws, at one simulated instant: per link direction (egress port) its queue
 * depth, the priorities the peer is pausing, what happened since the previous snapshot and running
 * totals; per flow its DCQCN rate, progress and current path. Immutable once published: every
 * array is a fresh copy or an array that is never written again (thresholds and paths are shared
 * between snapshots until they change, the per-flow values block by block, see {@link FlowValues});
 * readers must not modify them. The simulator thread hands
 * snapshots to the viewer, which takes only the newest ({@link LiveRun#take()}), so a viewer
 * that wants rates computes them from the totals of two snapshots it took, not from the
 * "since the previous snapshot" arrays, which cover only the interval before this one.
 *
 * @param timePs            simulated instant; nothing changes between it and the next event
 * @param ports             egress ports as "device:port", index i matches every per-port array
 * @param queueBytes        bytes queued at each egress port (all classes)
 * @param ingressBytes      bytes held in the switch buffer that arrived on this port (the PFC
 *                          priority-group occupancy XOFF/XON compare, all classes); 0 at NICs
 * @param pausedMask        bit p set when priority p of that egress is paused by its peer
 * @param linkDown          the direction's link is failed
 * @param ecnMarks          ECN marks at that egress since the previous snapshot
 * @param drops             drops at that egress since the previous snapshot (all causes)
 * @param utilization       fraction of the wire used since the previous snapshot
 * @param ecnMarksTotal     ECN marks at that egress since the start
 * @param dropsTotal        drops at that egress since the start (all causes)
 * @param pauseFramesTotal  PAUSE frames (XOFF and refreshes) this port has sent upstream as an ingress
 * @param pausedPsTotal     time this egress has spent paused (any priority; the longest one), ongoing pause included
 * @param cnpsTotal         CNPs sent by the NIC owning this port (0 for switch ports)
 * @param wireBytesTotal    bytes put on this direction's wire (preamble and gap included)
 * @param thresholds        ECN curve and PFC thresholds in force per port (changes with live edits)
 * @param flowRateGbps      current DCQCN rate of each flow (index = flow id), 0 once complete or before start
 * @param flowTargetGbps    DCQCN target rate of each flow, 0 once complete or before start
 * @param flowProgress      fraction of each flow's packets the receiver has in order (0..1)
 * @param flowPaths         each flow's current data path as indexes into {@code ports}, source NIC first
 * @param reroutes          routing reconvergences so far
 * @param deadlocks         PFC deadlock cycles detected so far, each the egress ports on the cycle
 * @param stormedMask       bit p set while the PFC watchdog holds priority p of that egress stormed: it was
 *                          paused continuously for the watchdog's detection time and now ignores the
 *                          pause (drops or forwards, docs/model.md); its bit in {@code pausedMask} is then clear
 * @param stormsTotal       watchdog storms declared on that egress since the start (all priorities)
 * @param flowReversePaths  each flow's current reverse path (ACK, NAK, CNP) as indexes into {@code ports},
 *                          receiving NIC first
 * @param flowCnpsTotal     CNPs each flow's receiver (notification point) has sent since the start (whole numbers)
 * @param creditStalledMask InfiniBand: bit c set while VL c of that egress holds a packet its peer's credits do
 *                          not cover (credit-stalled; what PFC's {@code pausedMask} is on RoCEv2); 0 elsewhere
 * @param trimmedTotal      Ultra Ethernet: data packets that egress trimmed to their headers since the start; 0 elsewhere
 */
public record SimSnapshot(long timePs, long events, int flowsCompleted, List<String> ports, long[] queueBytes,
                          long[] ingressBytes, int[] pausedMask, boolean[] linkDown, long[] ecnMarks, long[] drops,
                          double[] utilization, long[] ecnMarksTotal, long[] dropsTotal, long[] pauseFramesTotal,
                          long[] pausedPsTotal, long[] cnpsTotal, long[] wireBytesTotal,
                          List<PortThresholds> thresholds, FlowValues flowRateGbps, FlowValues flowTargetGbps,
                          FlowValues flowProgress, List<int[]> flowPaths, long cnpsSinceLast,
                          long pauseFramesSinceLast, int reroutes, List<List<String>> deadlocks,
                          int[] stormedMask, long[] stormsTotal, List<int[]> flowReversePaths,
                          FlowValues flowCnpsTotal, int[] creditStalledMask, long[] trimmedTotal,
                          ScaleUpActivity scaleUp) {

    /**
     * NVLink activity: per server with NVLink tasks in the run (server ids), the bytes its GPUs have
     * sent over NVLink since the start (transfers in progress counted as far as they got). A viewer
     * takes two snapshots' totals over the time between them, against the server's GPUs x NVLink
     * bandwidth, for its NVLink utilisation. Null when the run has no NVLink task (and in saved runs).
     */
    public record ScaleUpActivity(List<String> servers, long[] bytesTotal) {
    }

    /** Recordings saved before the watchdog flag was published read as "no storm". */
    public SimSnapshot {
        if (stormedMask == null) {
            stormedMask = new int[ports.size()];
        }
        if (stormsTotal == null) {
            stormsTotal = new long[ports.size()];
        }
        if (flowReversePaths == null) {
            flowReversePaths = List.of();
        }
        if (flowCnpsTotal == null) {
            flowCnpsTotal = FlowValues.zeros(flowRateGbps.size());
        }
        // Recordings saved before the transports' own marks were published read as "none".
        if (creditStalledMask == null) {
            creditStalledMask = new int[ports.size()];
        }
        if (trimmedTotal == null) {
            trimmedTotal = new long[ports.size()];
        }
    }

    /** This snapshot with other flow paths (a saved run's frame carries its predecessor's over). */
    public SimSnapshot withFlowPaths(List<int[]> forward, List<int[]> reverse) {
        return new SimSnapshot(timePs, events, flowsCompleted, ports, queueBytes, ingressBytes, pausedMask, linkDown,
                ecnMarks, drops, utilization, ecnMarksTotal, dropsTotal, pauseFramesTotal, pausedPsTotal, cnpsTotal,
                wireBytesTotal, thresholds, flowRateGbps, flowTargetGbps, flowProgress, forward, cnpsSinceLast,
                pauseFramesSinceLast, reroutes, deadlocks, stormedMask, stormsTotal, reverse, flowCnpsTotal,
                creditStalledMask, trimmedTotal, scaleUp);
    }

    /** Number of flows in the run. */
    public int flowCount() {
        return flowRateGbps.size();
    }

    /** Index of an egress port "device:port" in the per-port arrays, or -1. */
    public int portIndex(String ref) {
        return ports.indexOf(ref);
    }

    /** Sum of ECN marks over every egress since the start. */
    public long totalEcnMarks() {
        long s = 0;
        for (long v : ecnMarksTotal) {
            s += v;
        }
        return s;
    }

    /** Sum of drops over every egress since the start. */
    public long totalDrops() {
        long s = 0;
        for (long v : dropsTotal) {
            s += v;
        }
        return s;
    }

    /** Sum of CNPs sent by every NIC since the start. */
    public long totalCnps() {
        long s = 0;
        for (long v : cnpsTotal) {
            s += v;
        }
        return s;
    }

    /** Egress ports the PFC watchdog holds stormed now (any priority). */
    public int stormedPorts() {
        int n = 0;
        for (int m : stormedMask) {
            n += m != 0 ? 1 : 0;
        }
        return n;
    }

    /** Sum of watchdog storms declared on every egress since the start. */
    public long totalStorms() {
        long s = 0;
        for (long v : stormsTotal) {
            s += v;
        }
        return s;
    }

    /** Sum of PAUSE frames sent by every switch ingress since the start. */
    public long totalPauseFrames() {
        long s = 0;
        for (long v : pauseFramesTotal) {
            s += v;
        }
        return s;
    }
}
