package io.fabriclab.sim;

import java.util.Arrays;

/**
 * Every packet in flight, as records of 8 ints (32 bytes) in one array indexed by packet id: a hop
 * touches one or two cache lines of packet state, and 100k queued packets fit in 3.2 MB. Ids are
 * recycled through a free list, so a run allocates only when the number of packets in flight
 * reaches a new maximum.
 */
final class PacketPool {
    static final byte DATA = 0;
    static final byte ACK = 1;
    static final byte NAK = 2;
    static final byte CNP = 3;
    /** An IEEE 802.1Qbb PFC frame; its PSN field holds the pause quanta. */
    static final byte PAUSE = 4;

    /** ECN field values (RFC 3168): not ECN-capable, ECT(0), CE. */
    static final byte NOT_ECT = 0;
    static final byte ECT = 2;
    static final byte CE = 3;

    // Record layout (ints): kind | priority << 8 | ecn << 16 | hop << 24, then one int per field.
    private static final int HEADER = 0;
    /** The flow; in the free list, the next free id. */
    private static final int FLOW = 1;
    /** PSN of data, ACK and NAK; pause quanta of a PFC frame. */
    private static final int PSN = 2;
    private static final int FRAME = 3;
    /**
     * The egress port the packet was last sent from. While the packet waits in a switch queue this
     * is the port it arrived through, seen from the sender: its ingress port is this id ^ 1.
     */
    private static final int PORT = 4;
    /** Offset of the packet's path (egress port ids, hop by hop) in the simulator's path store. */
    private static final int PATH_BASE = 5;
    private static final int ENQUEUED_LO = 6;
    private static final int ENQUEUED_HI = 7;
    private static final int STRIDE = 8;
    /** Hop index (in the header's top byte): the hop whose egress port the packet is queued at or leaving. */
    static final int MAX_HOPS = 255;

    private int[] f;
    private int capacity;
    private int freeHead = -1;
    private int used;
    private int live;
    private int maxLive;

    PacketPool(int initialCapacity) {
        capacity = Math.max(64, initialCapacity);
        f = new int[capacity * STRIDE];
    }

    int allocate(byte packetKind, int flowId, int seq, int bytes, int prio, byte ecnField) {
        int id;
        if (freeHead >= 0) {
            id = freeHead;
            freeHead = f[id * STRIDE + FLOW];
        } else {
            if (used == capacity) {
                capacity *= 2;
                f = Arrays.copyOf(f, capacity * STRIDE);
            }
            id = used++;
        }
        int b = id * STRIDE;
        f[b + HEADER] = (packetKind & 0xFF) | (prio & 0xFF) << 8 | (ecnField & 0xFF) << 16;
        f[b + FLOW] = flowId;
        f[b + PSN] = seq;
        f[b + FRAME] = bytes;
        f[b + PORT] = -1;
        f[b + PATH_BASE] = 0;
        f[b + ENQUEUED_LO] = 0;
        f[b + ENQUEUED_HI] = 0;
        if (++live > maxLive) {
            maxLive = live;
        }
        return id;
    }

    void free(int id) {
        f[id * STRIDE + FLOW] = freeHead;
        freeHead = id;
        live--;
    }

    int kind(int id) {
        return f[id * STRIDE + HEADER] & 0xFF;
    }

    int priority(int id) {
        return (f[id * STRIDE + HEADER] >>> 8) & 0xFF;
    }

    int ecn(int id) {
        return (f[id * STRIDE + HEADER] >>> 16) & 0xFF;
    }

    void setEcn(int id, int v) {
        int b = id * STRIDE + HEADER;
        f[b] = (f[b] & ~0xFF0000) | (v & 0xFF) << 16;
    }

    int flow(int id) {
        return f[id * STRIDE + FLOW];
    }

    int psn(int id) {
        return f[id * STRIDE + PSN];
    }

    int frameBytes(int id) {
        return f[id * STRIDE + FRAME];
    }

    int hop(int id) {
        return f[id * STRIDE + HEADER] >>> 24;
    }

    void setHop(int id, int v) {
        int b = id * STRIDE + HEADER;
        f[b] = (f[b] & 0xFFFFFF) | v << 24;
    }

    int port(int id) {
        return f[id * STRIDE + PORT];
    }

    void setPort(int id, int v) {
        f[id * STRIDE + PORT] = v;
    }

    /** The switch ingress port a queued packet was admitted through, or a negative value at a NIC. */
    int ingress(int id) {
        int p = f[id * STRIDE + PORT];
        return p < 0 ? -1 : p ^ 1;
    }

    int pathBase(int id) {
        return f[id * STRIDE + PATH_BASE];
    }

    void setPathBase(int id, int v) {
        f[id * STRIDE + PATH_BASE] = v;
    }

    long enqueuedPs(int id) {
        int b = id * STRIDE;
        return ((long) f[b + ENQUEUED_HI] << 32) | (f[b + ENQUEUED_LO] & 0xFFFFFFFFL);
    }

    void setEnqueuedPs(int id, long t) {
        int b = id * STRIDE;
        f[b + ENQUEUED_LO] = (int) t;
        f[b + ENQUEUED_HI] = (int) (t >>> 32);
    }

    int live() {
        return live;
    }

    int maxLive() {
        return maxLive;
    }
}
