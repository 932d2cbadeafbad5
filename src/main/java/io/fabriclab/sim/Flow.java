package io.fabriclab.sim;

import io.fabriclab.workload.FlowSpec;

/**
 * One queue pair in a run: requester (sender) state with go-back-N and DCQCN reaction point,
 * responder (receiver) state with the DCQCN notification point, and the flow's statistics.
 */
final class Flow {
    final int id;
    final FlowSpec spec;
    final EgressPort srcPort;
    final EgressPort dstPort;
    /**
     * Egress port ids of the data path (source NIC first) and of the reverse path (ACK, NAK, CNP),
     * one version per routing state: a packet keeps the version it was sent with, so a reroute
     * after a failure does not move packets already in the network.
     */
    int[][] forwardPaths = new int[2][];
    int[][] reversePaths = new int[2][];
    int pathVersion;
    /** Offsets of the current paths in the simulator's path store (what new packets carry). */
    int forwardBase;
    int reverseBase;
    /** Fixed at construction, or given by {@link Simulator#setUdpSourcePorts} before the run. */
    int udpSourcePort;
    final int priority;
    final int totalPackets;
    final int lastPayload;
    final ReactionPoint rp;
    final boolean notificationPoint;
    final long cnpIntervalPs;
    final long startPs;
    /** The switch that serves the destination NIC, and its egress port to it (per-packet routing modes). */
    io.fabriclab.model.Device dstEdge;
    int lastHopPort;

    // Dependencies (collective steps).
    int waitingFor;
    Flow[] dependents = new Flow[0];
    int dependentCount;
    /** When the flow actually started (its start time, or when its last dependency completed). */
    long startedPs = -1;

    // Requester.
    int activeSlot = -1;
    int sndNxt;
    int sndUna;
    /** Highest PSN sent so far + 1: a PSN below it is a retransmission. */
    int maxSent;
    long nextSendPs;
    long lastProgressPs;
    boolean started;
    boolean senderDone;
    boolean inRecovery;
    long recoveryStartPs;
    int recoverTo;

    // Responder.
    int expected;
    /**
     * Out-of-order placement (per-packet routing modes): bit (psn mod window) is set when a PSN
     * ahead of the expected one has arrived; null until the first packet arrives out of order.
     */
    long[] placed;
    boolean nakSent;
    int sinceAck;
    long lastCnpPs = Long.MIN_VALUE;
    boolean done;
    long finishPs = -1;

    // Statistics.
    long retransmittedPackets;
    long retransmittedBytes;
    long naks;
    long timeouts;
    long stallPs;
    long cnpsSent;
    long ceReceived;
    long outOfOrder;
    long minRateBps;
    /** DCQCN rate at each telemetry sample while active; null until the flow starts. */
    TimeSeries rateSeries;

    Flow(int id, FlowSpec spec, EgressPort srcPort, EgressPort dstPort, int[] forwardPath, int[] reversePath,
         int udpSourcePort, int maxPayload, ReactionPoint rp, boolean notificationPoint, long cnpIntervalPs) {
        this.id = id;
        this.spec = spec;
        this.srcPort = srcPort;
        this.dstPort = dstPort;
        this.forwardPaths[0] = forwardPath;
        this.reversePaths[0] = reversePath;
        this.udpSourcePort = udpSourcePort;
        this.priority = spec.priority();
        long packets = (spec.bytes() + maxPayload - 1) / maxPayload;
        if (packets > Integer.MAX_VALUE / 2) {
            throw new IllegalArgumentException("flow of " + spec.bytes() + " B is too large for 31-bit PSNs");
        }
        this.totalPackets = (int) packets;
        long rest = spec.bytes() - (packets - 1) * maxPayload;
        this.lastPayload = (int) rest;
        this.rp = rp;
        this.notificationPoint = notificationPoint;
        this.cnpIntervalPs = cnpIntervalPs;
        this.startPs = spec.startPs();
        this.minRateBps = rp.currentRateBps();
    }

    /** Local tasks (NVLink, compute; {@link LocalWork}) waiting for this flow. */
    int[] taskDependents = new int[0];
    int taskDependentCount;

    void addTaskDependent(int task) {
        if (taskDependentCount == taskDependents.length) {
            taskDependents = java.util.Arrays.copyOf(taskDependents, Math.max(2, taskDependentCount * 2));
        }
        taskDependents[taskDependentCount++] = task;
    }

    void addDependent(Flow f) {
        if (dependentCount == dependents.length) {
            dependents = java.util.Arrays.copyOf(dependents, Math.max(2, dependentCount * 2));
        }
        dependents[dependentCount++] = f;
    }

    int[] forwardPath() {
        return forwardPaths[pathVersion];
    }

    /** Adds the paths of a new routing state; later packets use them. */
    void reroute(int[] forward, int[] reverse) {
        if (pathVersion + 1 == forwardPaths.length) {
            forwardPaths = java.util.Arrays.copyOf(forwardPaths, forwardPaths.length * 2);
            reversePaths = java.util.Arrays.copyOf(reversePaths, reversePaths.length * 2);
        }
        pathVersion++;
        forwardPaths[pathVersion] = forward;
        reversePaths[pathVersion] = reverse;
    }

    int payloadOf(int psn, int maxPayload) {
        return psn == totalPackets - 1 ? lastPayload : maxPayload;
    }
}
