package io.fabriclab.sim;

import java.util.Arrays;

import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.model.WredEcn;

/**
 * One direction of a link, seen from the device that sends into it: the egress queues (8 traffic
 * classes plus MAC control), the scheduler state, the PFC pause state the peer imposes on it,
 * and, because the same physical port also receives, the ingress priority-group accounting of
 * what arrives on it. Mutable simulation state; owned by the simulator thread.
 */
final class EgressPort {
    static final int CLASSES = 8;
    /** Queue index of MAC control frames (PFC), which no pause stops. */
    static final int CONTROL = 8;

    final int id;
    final Port port;
    final Port peerPort;
    final Link link;
    /** Line rate of this direction; changes when the link is degraded during a run. */
    long rateBps;
    final long propagationPs;
    /** Switch state of the owner, or null when the owner is a NIC. */
    final SwitchState sw;
    /** NIC state of the owner, or null when the owner is a switch. */
    final Nic nic;

    // Hot per-class counters interleaved, eight longs (one cache line) per class:
    // cls[(c << 3) + FIELD]. Class 8 (CONTROL) uses QUEUE_BYTES only.
    static final int QUEUE_BYTES = 0;
    static final int INGRESS_BYTES = 1;
    static final int PAUSED_UNTIL = 2;
    static final int MAX_QUEUE = 3;
    static final int INTERVAL_MAX = 4;
    static final int ENQ_PACKETS = 5;
    static final int ENQ_BYTES = 6;
    static final int MAX_INGRESS = 7;
    final long[] cls = new long[(CLASSES + 1) << 3];

    /** Front packet of each queue, or -1. */
    final int[] head = new int[CLASSES + 1];
    /**
     * Each queue is a ring of packet ids (power-of-two length, grown on demand): appending touches
     * only the ring, not the previous packet's record, which is cold by then.
     */
    private final int[][] ring = new int[CLASSES + 1][];
    private final int[] ringStart = new int[CLASSES + 1];
    private final int[] ringCount = new int[CLASSES + 1];
    int queuedPackets;
    /** The wire is busy until this time (the frame being serialized ends then). */
    long busyUntilPs;
    /** A TX_DONE event is scheduled at busyUntilPs (only when something waits for the wire). */
    boolean txDonePending;
    /** The link is down: nothing is sent, what was queued or on the wire is lost. */
    boolean down;
    long wakeAtPs = -1;
    int lastWireBytes = -1;
    long lastSerializationPs;

    // Pause imposed by the peer on this egress, per priority.
    final long[] pauseStartPs = new long[CLASSES];
    final boolean[] stormed = new boolean[CLASSES];
    final int[] watchdogGeneration = new int[CLASSES];
    long watchdogPs;
    boolean watchdogDrops;

    // Scheduler.
    final boolean[] strict = new boolean[CLASSES];
    final long[] quantum = new long[CLASSES];
    final long[] deficit = new long[CLASSES];
    int roundRobin;
    boolean freshVisit = true;

    // ECN on this egress.
    final WredEcn[] wred = new WredEcn[CLASSES];
    boolean markAtEnqueue;

    // PFC on this port as an ingress.
    final boolean[] lossless = new boolean[CLASSES];
    long xoffBytes;
    long xonBytes;
    long headroomBytes;
    final boolean[] xoffSent = new boolean[CLASSES];
    final int[] refreshGeneration = new int[CLASSES];

    // Telemetry.
    boolean touched;
    final long[] dequeuedPackets = new long[CLASSES];
    final long[] ecnMarked = new long[CLASSES];
    final long[] dropsBuffer = new long[CLASSES];
    final long[] dropsHeadroom = new long[CLASSES];
    final long[] dropsWatchdog = new long[CLASSES];
    final long[] dropsLinkDown = new long[CLASSES];
    final long[] latencySumPs = new long[CLASSES];
    final long[] latencyMaxPs = new long[CLASSES];
    final long[] pauseFramesSent = new long[CLASSES];
    final long[] resumeFramesSent = new long[CLASSES];
    final long[] pauseFramesReceived = new long[CLASSES];
    final long[] pausedPs = new long[CLASSES];
    final long[] watchdogStorms = new long[CLASSES];
    final long[] firstDropPs = new long[CLASSES];
    long txFrames;
    long txFrameBytes;
    long txWireBytes;
    long wireBytesAtLastSample;
    final TimeSeries[] depthSeries = new TimeSeries[CLASSES];
    TimeSeries utilizationSeries;

    EgressPort(int id, Port port, Port peerPort, Link link, SwitchState sw, Nic nic) {
        this.id = id;
        this.port = port;
        this.peerPort = peerPort;
        this.link = link;
        this.rateBps = link.rateBps();
        this.propagationPs = link.propagationPs();
        this.sw = sw;
        this.nic = nic;
        Arrays.fill(head, -1);
        Arrays.fill(pauseStartPs, -1);
        Arrays.fill(firstDropPs, -1);
    }

    boolean isNic() {
        return nic != null;
    }

    void offer(int c, int pkt) {
        int[] r = ring[c];
        int n = ringCount[c];
        if (r == null || n == r.length) {
            r = growRing(c);
        }
        r[(ringStart[c] + n) & (r.length - 1)] = pkt;
        ringCount[c] = n + 1;
        if (n == 0) {
            head[c] = pkt;
        }
    }

    /** Removes and returns the front packet of queue {@code c} (which must not be empty). */
    int poll(int c) {
        int pkt = head[c];
        int[] r = ring[c];
        int start = (ringStart[c] + 1) & (r.length - 1);
        ringStart[c] = start;
        int n = --ringCount[c];
        head[c] = n > 0 ? r[start] : -1;
        return pkt;
    }

    private int[] growRing(int c) {
        int[] old = ring[c];
        int n = ringCount[c];
        int[] r = new int[old == null ? 16 : old.length * 2];
        for (int i = 0; i < n; i++) {
            r[i] = old[(ringStart[c] + i) & (old.length - 1)];
        }
        ring[c] = r;
        ringStart[c] = 0;
        return r;
    }

    /** True when the peer's PFC currently stops priority {@code c} here (and no watchdog overrides it). */
    boolean paused(int c, long nowPs) {
        return cls[(c << 3) + PAUSED_UNTIL] > nowPs && !stormed[c];
    }

    /** Time to put one frame on this wire, cached for the last size seen (most frames are MTU-sized). */
    long serializationPs(int wireBytes) {
        if (wireBytes != lastWireBytes) {
            lastWireBytes = wireBytes;
            lastSerializationPs = io.fabriclab.model.Units.serializationPs(wireBytes, rateBps);
        }
        return lastSerializationPs;
    }

    String ref() {
        return port.ref();
    }
}
