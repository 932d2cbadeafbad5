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

    byte[] kind;
    byte[] priority;
    byte[] ecn;
    int[] flow;
    int[] psn;
    int[] frameBytes;
    /** Index of the hop in the flow's path whose egress port the packet is queued at or leaving. */
    int[] hop;
    /** The egress port the packet was last sent from. */
    int[] port;
    /** The switch ingress port it was admitted through (-1 at a NIC), for PFC accounting. */
    int[] ingress;
    /** Next packet in the same queue (intrusive FIFO), or -1. */
    int[] next;
    long[] enqueuedPs;

    private int freeHead = -1;
    private int used;
    private int live;
    private int maxLive;

    PacketPool(int capacity) {
        int c = Math.max(64, capacity);
        kind = new byte[c];
        priority = new byte[c];
        ecn = new byte[c];
        flow = new int[c];
        psn = new int[c];
        frameBytes = new int[c];
        hop = new int[c];
        port = new int[c];
        ingress = new int[c];
        next = new int[c];
        enqueuedPs = new long[c];
    }

    int allocate(byte packetKind, int flowId, int seq, int bytes, int prio, byte ecnField) {
        int id;
        if (freeHead >= 0) {
            id = freeHead;
            freeHead = next[id];
        } else {
            if (used == kind.length) {
                grow();
            }
            id = used++;
        }
        kind[id] = packetKind;
        flow[id] = flowId;
        psn[id] = seq;
        frameBytes[id] = bytes;
        priority[id] = (byte) prio;
        ecn[id] = ecnField;
        hop[id] = 0;
        port[id] = -1;
        ingress[id] = -1;
        next[id] = -1;
        enqueuedPs[id] = 0;
        if (++live > maxLive) {
            maxLive = live;
        }
        return id;
    }

    void free(int id) {
        next[id] = freeHead;
        freeHead = id;
        live--;
    }

    int live() {
        return live;
    }

    int maxLive() {
        return maxLive;
    }

    private void grow() {
        int c = kind.length * 2;
        kind = Arrays.copyOf(kind, c);
        priority = Arrays.copyOf(priority, c);
        ecn = Arrays.copyOf(ecn, c);
        flow = Arrays.copyOf(flow, c);
        psn = Arrays.copyOf(psn, c);
        frameBytes = Arrays.copyOf(frameBytes, c);
        hop = Arrays.copyOf(hop, c);
        port = Arrays.copyOf(port, c);
        ingress = Arrays.copyOf(ingress, c);
        next = Arrays.copyOf(next, c);
        enqueuedPs = Arrays.copyOf(enqueuedPs, c);
    }
}
