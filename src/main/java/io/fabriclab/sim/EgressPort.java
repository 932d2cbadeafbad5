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
    /**
     * The rate frames are serialized at: the line rate, less the share a focus run's background
     * takes ({@link #setRates}); changes when the link is degraded or the background changes.
     */
    long rateBps;
    /** Line rate of this direction; changes when the link is degraded during a run. */
    long lineRateBps;
    /** Share of the line rate that background traffic takes (a focus run, {@link FocusRun}); 0 otherwise. */
    double backgroundShare;
    final long propagationPs;
    /** Switch state of the owner, or null when the owner is a NIC. */
    final SwitchState sw;
    /** {@code sw.index}, or -1 at a NIC: read per sprayed packet without loading the switch's state. */
    final int switchIndex;
    /** NIC state of the owner, or null when the owner is a switch. */
    final Nic nic;

    /**
     * Hot per-class state of every port of the run, in one array shared by all ports (the
     * simulator's): 16 longs per (port, class), at {@link #at(int, int, int)}. An index follows from
     * the port id alone, so the simulator fetches a class's counters in parallel with the port
     * object instead of through it; the egress counters and the dequeue counters of a class sit
     * side by side. Class 8 (CONTROL) uses QUEUE_BYTES only.
     */
    final long[] cls;
    /** Where this port's classes start in {@link #cls}. */
    final int clsBase;
    static final int CLS_STRIDE = 16;
    static final int PORT_STRIDE = (CLASSES + 1) * CLS_STRIDE;
    static final int QUEUE_BYTES = 0;
    static final int INGRESS_BYTES = 1;
    static final int PAUSED_UNTIL = 2;
    static final int MAX_QUEUE = 3;
    static final int INTERVAL_MAX = 4;
    static final int ENQ_PACKETS = 5;
    static final int ENQ_BYTES = 6;
    static final int MAX_INGRESS = 7;
    /** Packets dequeued, their summed and their largest queueing latency (ps), DWRR deficit and quantum. */
    static final int DEQ_PACKETS = 8;
    static final int DEQ_LATENCY_SUM = 9;
    static final int DEQ_LATENCY_MAX = 10;
    static final int DEQ_DEFICIT = 11;
    static final int DEQ_QUANTUM = 12;
    /** Start (entry index) and length of the class's queue ring. */
    static final int RING_START = 13;
    static final int RING_COUNT = 14;
    /** The ring's segment in the {@link RingStore}: offset << 8 | log2 of its entries (0: none yet). */
    static final int RING_SEGMENT = 15;

    /**
     * One int for a (port, traffic class) pair: {@code portId * CLASSES + c}. The target of a
     * per-class event (PFC refresh, PFC apply, watchdog) and the slot of a priority group's
     * headroom; {@link #portOf} and {@link #classOf} take it apart (CLASSES is 8, so a shift and
     * a mask).
     */
    static int portClass(int portId, int c) {
        return portId * CLASSES + c;
    }

    static int portOf(int portClass) {
        return portClass >>> 3;
    }

    static int classOf(int portClass) {
        return portClass & 7;
    }

    /** Index of {@code field} of class {@code c} of port {@code portId} in the shared class state. */
    static int at(int portId, int c, int field) {
        return portId * PORT_STRIDE + (c << 4) + field;
    }

    /** Index of {@code field} of class {@code c} of this port in {@link #cls}. */
    int at(int c, int field) {
        return clsBase + (c << 4) + field;
    }

    /** {@code field} of class {@code c} of this port. */
    long cls(int c, int field) {
        return cls[clsBase + (c << 4) + field];
    }

    /**
     * Each queue is a ring (power-of-two length, grown on demand) of entries of two longs: the
     * packet id with its ECT flag and its ingress port, then its enqueue time with its frame size.
     * Everything the scheduler and the dequeue need is in the ring, so serving a queue does not
     * touch the packet's record, which has gone cold while the packet waited; appending touches
     * only the ring. The rings of all ports are segments of one array ({@link RingStore}); where
     * queue c's segment is, its start and its count are in the class's state in {@link #cls}
     * (RING_SEGMENT, RING_START, RING_COUNT), which a hop reads anyway; bit c of
     * {@code nonEmpty} says whether queue c holds a packet, so the scheduler tests emptiness
     * without touching the rings.
     */
    private final RingStore rings;
    /**
     * Enqueue times are kept modulo 2^48 ps (281 s) next to the frame size; a queueing latency is
     * exact as long as no packet waits that long.
     */
    static final long TIME_MASK = (1L << 48) - 1;
    /** The entry last removed by {@link #poll}: packet, ECT flag (bit 31) and ingress (high half). */
    long polledId;
    /** The entry last removed by {@link #poll}: enqueue time (low 48 bits) and frame size (high 16). */
    long polledMeta;
    /** Bit c set when queue c (CONTROL included) holds a packet. */
    int nonEmpty;
    /**
     * InfiniBand: the first and last flow-control packet of the CONTROL queue (-1: none), linked
     * through their records in the packet pool ({@link PacketPool#queueNext}) instead of the ring:
     * a flow-control packet needs no ring entry (its size is fixed, it has no ingress and nothing
     * reads its wait), so queueing it touches only this object and its own, just written, record.
     */
    int fcHead = -1;
    int fcTail = -1;
    int queuedPackets;
    /**
     * Packets forwarded to this egress of an Ethernet cut-through switch that the switch is storing
     * (their heads are in, their last bits not yet; {@link SwitchPipeline}): while there is one, no
     * packet claims the egress at its head, so none overtakes a packet already waiting for it.
     */
    int storing;
    /**
     * Ethernet cut-through switch: the egress's round-robin arbiter's pointer, a port id. Packets
     * that take the egress or join its queues in the same picosecond (heads that claim it, stored
     * packets whose last bits are in) go in the order of their ingress ids from here (cyclic), not
     * in the simulator's event order; each such tie moves it one past the ingress served first
     * ({@code Simulator.sortByArbiter}).
     */
    int arbiterNext;
    /**
     * A port that feeds an Ethernet cut-through switch: the frames last sent on it whose heads
     * reach the switch back to back, each head at the previous one's last bit, at one rate: the
     * first's head arrival, the last's last bit, and the rate ({@code Long.MAX_VALUE}: none). A
     * packet stored there whose last bit is inside the train, before its end, has the next head
     * already scheduled at its last bit ({@code Simulator.store}).
     */
    long trainFromPs = Long.MAX_VALUE;
    long trainEndPs = Long.MIN_VALUE;
    long trainRateBps;
    /** The wire is busy until this time (the frame being serialized ends then). */
    long busyUntilPs;
    /** A TX_DONE event is scheduled at busyUntilPs (only when something waits for the wire). */
    boolean txDonePending;
    /** The link is down: nothing is sent, what was queued or on the wire is lost. */
    boolean down;
    long wakeAtPs = -1;
    int lastWireBytes = -1;
    long lastSerializationPs;
    /** InfiniBand: the serialization time of a flow-control packet at {@link #fcSerializationRateBps} (-1: not yet). */
    private long fcSerializationPs = -1;
    private long fcSerializationRateBps;

    // Pause imposed by the peer on this egress, per priority.
    /**
     * From the arrival of a PFC frame here until it takes effect: both ends' interface (MAC/PHY)
     * delay and the response time of IEEE 802.3 Annex 31B, at this link's speed (docs/model.md, PFC).
     */
    long pfcReactionPs;
    final long[] pauseStartPs = new long[CLASSES];
    /** Bit c set when the PFC watchdog has declared priority c stormed (its pauses are ignored). */
    int stormedMask;
    final int[] watchdogGeneration = new int[CLASSES];
    long watchdogPs;
    boolean watchdogDrops;

    // Scheduler.
    /** Bit c set when class c is served by strict priority (the others share DWRR). */
    int strictMask;
    // DWRR quantum and deficit of class c live in cls next to its dequeue counters.
    int roundRobin;
    boolean freshVisit = true;

    // ECN on this egress.
    final WredEcn[] wred = new WredEcn[CLASSES];
    boolean markAtEnqueue;

    // PFC on this port as an ingress.
    /** Bit c set when priority c is lossless (PFC) on this port as an ingress. */
    int losslessMask;
    long xoffBytes;
    long xonBytes;
    long headroomBytes;
    /** Bit c set while this port, as an ingress, holds priority c paused upstream (XOFF sent, no XON yet). */
    int xoffSentMask;
    /** Bit c set while priority group c of this port, as an ingress, holds bytes in its headroom. */
    int headroomUsedMask;
    final int[] refreshGeneration = new int[CLASSES];

    // Telemetry.
    boolean touched;
    final long[] ecnMarked = new long[CLASSES];
    final long[] dropsBuffer = new long[CLASSES];
    /** Ultra Ethernet: data packets this port's queues trimmed to their headers ({@link Trimming}). */
    long trimmed;
    /** Headroom overflows of this port as an ingress (a lossless packet lost on arrival), per priority. */
    final long[] dropsHeadroom = new long[CLASSES];
    final long[] dropsWatchdog = new long[CLASSES];
    final long[] dropsLinkDown = new long[CLASSES];
    final long[] pauseFramesSent = new long[CLASSES];
    final long[] resumeFramesSent = new long[CLASSES];
    final long[] pauseFramesReceived = new long[CLASSES];
    final long[] pausedPs = new long[CLASSES];
    final long[] watchdogStorms = new long[CLASSES];
    final long[] firstDropPs = new long[CLASSES];
    /** First headroom overflow of this port as an ingress, per priority (-1: none). */
    final long[] firstHeadroomDropPs = new long[CLASSES];
    long txFrames;
    long txFrameBytes;
    long txWireBytes;
    /** Serialization time of every frame started (the wire busy from its start to its end). */
    long busyPs;
    /** {@link #busyPsUntil} at the previous telemetry sample. */
    long busyPsAtLastSample;
    final TimeSeries[] depthSeries = new TimeSeries[CLASSES];
    /** Bit c set once depthSeries[c] exists (tested at every enqueue instead of the array). */
    int depthSeriesMask;
    TimeSeries utilizationSeries;

    EgressPort(int id, Port port, Port peerPort, Link link, SwitchState sw, Nic nic, long[] classState,
               RingStore rings) {
        this.id = id;
        this.cls = classState;
        this.clsBase = at(id, 0, 0);
        this.rings = rings;
        this.port = port;
        this.peerPort = peerPort;
        this.link = link;
        this.rateBps = link.rateBps();
        this.lineRateBps = rateBps;
        this.propagationPs = link.propagationPs();
        this.sw = sw;
        this.switchIndex = sw == null ? -1 : sw.index;
        this.nic = nic;
        Arrays.fill(pauseStartPs, -1);
        Arrays.fill(firstDropPs, -1);
        Arrays.fill(firstHeadroomDropPs, -1);
    }

    boolean isNic() {
        return nic != null;
    }

    /**
     * Appends packet {@code pkt} of {@code bytes} to queue {@code c}, enqueued at {@code nowPs},
     * admitted through switch port {@code ingress} (-1 at a NIC or for a control frame), ECN-capable
     * (for marking at dequeue) if {@code ect}.
     */
    void offer(int c, int pkt, int bytes, int ingress, long nowPs, boolean ect) {
        long[] st = cls;
        int a = clsBase + (c << 4);
        int n = (int) st[a + RING_COUNT];
        long seg = st[a + RING_SEGMENT];
        if (seg == 0 || n == 1 << (int) (seg & 0xFF)) {
            seg = growRing(a, n, seg);
        }
        int i = (int) (seg >>> 8) + ((((int) st[a + RING_START] + n) & ((1 << (int) (seg & 0xFF)) - 1)) << 1);
        long[] r = rings.slab;
        r[i] = (pkt | (ect ? 1L << 31 : 0)) & 0xFFFFFFFFL | (long) ingress << 32;
        r[i + 1] = (nowPs & TIME_MASK) | (long) bytes << 48;
        st[a + RING_COUNT] = n + 1;
        nonEmpty |= 1 << c;
    }

    /**
     * Removes the front packet of queue {@code c} (which must not be empty) and returns its id; its
     * entry stays in {@link #polledId} and {@link #polledMeta}.
     */
    int poll(int c) {
        long[] st = cls;
        int a = clsBase + (c << 4);
        long seg = st[a + RING_SEGMENT];
        int start = (int) st[a + RING_START];
        int i = (int) (seg >>> 8) + (start << 1);
        long[] r = rings.slab;
        long id = r[i];
        polledId = id;
        polledMeta = r[i + 1];
        st[a + RING_START] = (start + 1) & ((1 << (int) (seg & 0xFF)) - 1);
        if (--st[a + RING_COUNT] == 0) {
            nonEmpty &= ~(1 << c);
        }
        return (int) id & 0x7FFFFFFF;
    }

    /** Frame size of the front packet of queue {@code c} (which must not be empty). */
    int headBytes(int c) {
        int a = clsBase + (c << 4);
        return (int) (rings.slab[(int) (cls[a + RING_SEGMENT] >>> 8) + ((int) cls[a + RING_START] << 1) + 1] >>> 48);
    }

    /** Frame size of the packet last polled. */
    /**
     * Sets the polled entry as {@link #poll} leaves it, for a packet that left a queue kept outside
     * the ring (InfiniBand's flow-control packets): no enqueue time, {@code ingress} -1 at none.
     */
    void setPolled(int pkt, int ingress, int bytes) {
        polledId = pkt & 0xFFFFFFFFL | (long) ingress << 32;
        polledMeta = (long) bytes << 48;
    }

    int polledBytes() {
        return (int) (polledMeta >>> 48);
    }

    /** Ingress port of the packet last polled, or -1 at a NIC or for a control frame. */
    int polledIngress() {
        return (int) (polledId >> 32);
    }

    /** Whether the packet last polled was ECN-capable (ECT) when it was queued. */
    boolean polledEct() {
        return (polledId & (1L << 31)) != 0;
    }

    /** How long the packet last polled waited, at {@code nowPs}. */
    long polledLatencyPs(long nowPs) {
        return (nowPs - polledMeta) & TIME_MASK;
    }

    boolean hasPackets(int c) {
        return (nonEmpty & (1 << c)) != 0;
    }

    boolean isLossless(int c) {
        return (losslessMask & (1 << c)) != 0;
    }

    boolean isStrict(int c) {
        return (strictMask & (1 << c)) != 0;
    }

    boolean isStormed(int c) {
        return (stormedMask & (1 << c)) != 0;
    }

    boolean xoffSent(int c) {
        return (xoffSentMask & (1 << c)) != 0;
    }

    /**
     * Moves the ring whose state is at {@code a} in {@link #cls} (holding {@code n} entries in
     * segment {@code seg}, 0 for none) to a segment twice as large; returns the new segment.
     */
    private long growRing(int a, int n, long seg) {
        int log = seg == 0 ? RingStore.MIN_LOG : (int) (seg & 0xFF) + 1;
        int off = rings.allocate(log);
        if (seg != 0) {
            long[] r = rings.slab;
            int oldOff = (int) (seg >>> 8);
            int oldMask = (1 << (int) (seg & 0xFF)) - 1;
            int start = (int) cls[a + RING_START];
            for (int i = 0; i < n; i++) {
                int o = oldOff + (((start + i) & oldMask) << 1);
                r[off + 2 * i] = r[o];
                r[off + 2 * i + 1] = r[o + 1];
            }
            rings.free(oldOff, log - 1);
        }
        long grown = (long) off << 8 | log;
        cls[a + RING_SEGMENT] = grown;
        cls[a + RING_START] = 0;
        return grown;
    }

    /** True when the peer's PFC currently stops priority {@code c} here (and no watchdog overrides it). */
    boolean paused(int c, long nowPs) {
        return cls[clsBase + (c << 4) + PAUSED_UNTIL] > nowPs && (stormedMask & (1 << c)) == 0;
    }

    /**
     * Time the wire carried bits up to {@code t}: every frame started, less the part of the one in
     * progress that lies after {@code t} (frames never overlap, so only the last can).
     */
    long busyPsUntil(long t) {
        return busyPs - Math.max(0, busyUntilPs - t);
    }

    /**
     * Time to put one frame on this wire, cached for the last size seen (most frames are MTU-sized)
     * and, on InfiniBand, for the flow-control packet.
     */
    long serializationPs(int wireBytes) {
        if (wireBytes != lastWireBytes) {
            if (wireBytes == CreditFlowControl.FC_PACKET_BYTES + CreditFlowControl.WIRE_OVERHEAD_BYTES) {
                return flowControlSerializationPs();
            }
            lastWireBytes = wireBytes;
            lastSerializationPs = io.fabriclab.model.Units.serializationPs(wireBytes, rateBps);
        }
        return lastSerializationPs;
    }

    /**
     * InfiniBand: the serialization time of a flow-control packet, kept apart from the last frame
     * size's: flow-control packets go out between the data packets and ACKs of the same wire, so
     * with one cached size nearly every frame recomputed its time (a 64-bit division).
     */
    private long flowControlSerializationPs() {
        long t = fcSerializationPs;
        if (t < 0 || fcSerializationRateBps != rateBps) {
            t = fcSerializationPs = io.fabriclab.model.Units.serializationPs(
                    CreditFlowControl.FC_PACKET_BYTES + CreditFlowControl.WIRE_OVERHEAD_BYTES, rateBps);
            fcSerializationRateBps = rateBps;
        }
        return t;
    }

    String ref() {
        return port.ref();
    }

    /**
     * Line rate {@code lineBps} with {@code background} of it taken by traffic the run does not
     * simulate (a focus run's background): frames from now on serialize at what is left, at least
     * 1 b/s.
     */
    void setRates(long lineBps, double background) {
        lineRateBps = lineBps;
        backgroundShare = background;
        rateBps = background <= 0 ? lineBps : Math.max(1, Math.round(lineBps * (1 - background)));
        lastWireBytes = -1;
    }
}
