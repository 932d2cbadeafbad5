package io.fabriclab.sim;

import java.util.Arrays;

/**
 * Every packet in flight, as parallel primitive arrays indexed by packet id (struct of arrays). Ids
 * are recycled through a free list, so a run allocates only when the number of packets in flight
 * reaches a new maximum.
 */
final class PacketPool {
    static final byte DATA = 0;
    static final byte ACK = 1;
    static final byte NAK = 2;
    static final byte CNP = 3;
    /** An IEEE 802.1Qbb PFC frame; {@link #psn} holds its pause quanta. */
    static final byte PAUSE = 4;

    /** ECN field values (RFC 3168): not ECN-capable, ECT(0), CE. */
    static final byte NOT_ECT = 0;
    static final byte ECT = 2;
    static final byte CE = 3;

    /** Fields of a packet, interleaved: f[id * STRIDE + FIELD] (one or two cache lines per packet). */
    static final int KIND = 0;
    static final int PRIORITY = 1;
    /** ECN field. */
    static final int ECN = 2;
    static final int FLOW = 3;
    /** PSN of data, ACK and NAK; pause quanta of a PFC frame. */
    static final int PSN = 4;
    static final int FRAME = 5;
    /** Index of the hop in the flow's path whose egress port the packet is queued at or leaving. */
    static final int HOP = 6;
    /** The egress port the packet was last sent from. */
    static final int PORT = 7;
    /** The switch ingress port it was admitted through (-1 at a NIC), for PFC accounting. */
    static final int INGRESS = 8;
    /** Next packet in the same queue (intrusive FIFO), or -1. */
    static final int NEXT = 9;
    /** Version of the flow's paths the packet follows (see Flow.reroute). */
    static final int PATH_VERSION = 10;
    static final int STRIDE = 11;

    int[] f;
    long[] enqueuedPs;

    private int freeHead = -1;
    private int used;
    private int live;
    private int maxLive;

    PacketPool(int capacity) {
        int c = Math.max(64, capacity);
        f = new int[c * STRIDE];
        enqueuedPs = new long[c];
    }

    int allocate(byte packetKind, int flowId, int seq, int bytes, int prio, byte ecnField) {
        int id;
        if (freeHead >= 0) {
            id = freeHead;
            freeHead = f[id * STRIDE + NEXT];
        } else {
            if (used == enqueuedPs.length) {
                grow();
            }
            id = used++;
        }
        int b = id * STRIDE;
        f[b + KIND] = packetKind;
        f[b + PRIORITY] = prio;
        f[b + ECN] = ecnField;
        f[b + FLOW] = flowId;
        f[b + PSN] = seq;
        f[b + FRAME] = bytes;
        f[b + HOP] = 0;
        f[b + PORT] = -1;
        f[b + INGRESS] = -1;
        f[b + NEXT] = -1;
        f[b + PATH_VERSION] = 0;
        enqueuedPs[id] = 0;
        if (++live > maxLive) {
            maxLive = live;
        }
        return id;
    }

    void free(int id) {
        f[id * STRIDE + NEXT] = freeHead;
        freeHead = id;
        live--;
    }

    int kind(int id) {
        return f[id * STRIDE + KIND];
    }

    void setKind(int id, int v) {
        f[id * STRIDE + KIND] = v;
    }

    int priority(int id) {
        return f[id * STRIDE + PRIORITY];
    }

    void setPriority(int id, int v) {
        f[id * STRIDE + PRIORITY] = v;
    }

    int ecn(int id) {
        return f[id * STRIDE + ECN];
    }

    void setEcn(int id, int v) {
        f[id * STRIDE + ECN] = v;
    }

    int flow(int id) {
        return f[id * STRIDE + FLOW];
    }

    void setFlow(int id, int v) {
        f[id * STRIDE + FLOW] = v;
    }

    int psn(int id) {
        return f[id * STRIDE + PSN];
    }

    void setPsn(int id, int v) {
        f[id * STRIDE + PSN] = v;
    }

    int frameBytes(int id) {
        return f[id * STRIDE + FRAME];
    }

    void setFrameBytes(int id, int v) {
        f[id * STRIDE + FRAME] = v;
    }

    int hop(int id) {
        return f[id * STRIDE + HOP];
    }

    void setHop(int id, int v) {
        f[id * STRIDE + HOP] = v;
    }

    int port(int id) {
        return f[id * STRIDE + PORT];
    }

    void setPort(int id, int v) {
        f[id * STRIDE + PORT] = v;
    }

    int ingress(int id) {
        return f[id * STRIDE + INGRESS];
    }

    void setIngress(int id, int v) {
        f[id * STRIDE + INGRESS] = v;
    }

    int next(int id) {
        return f[id * STRIDE + NEXT];
    }

    void setNext(int id, int v) {
        f[id * STRIDE + NEXT] = v;
    }

    int pathVersion(int id) {
        return f[id * STRIDE + PATH_VERSION];
    }

    void setPathVersion(int id, int v) {
        f[id * STRIDE + PATH_VERSION] = v;
    }

    int live() {
        return live;
    }

    int maxLive() {
        return maxLive;
    }

    private void grow() {
        int c = enqueuedPs.length * 2;
        f = Arrays.copyOf(f, c * STRIDE);
        enqueuedPs = Arrays.copyOf(enqueuedPs, c);
    }
}
