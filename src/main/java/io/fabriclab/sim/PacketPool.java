package io.fabriclab.sim;

import java.util.Arrays;

/**
 * Every packet in flight, as records of 4 ints (16 bytes) in one array indexed by packet id: an
 * arrival touches one cache line of packet state, and 100k queued packets fit in 1.6 MB. What the
 * queues need while a packet waits (its size, ingress and enqueue time) is in the queue's ring
 * ({@link EgressPort}), so the record is read only where the packet arrives. Ids are recycled
 * through a free list, so a run allocates only when the number of packets in flight reaches a new
 * maximum.
 */
final class PacketPool {
    static final byte DATA = 0;
    static final byte ACK = 1;
    static final byte NAK = 2;
    static final byte CNP = 3;
    /** An IEEE 802.1Qbb PFC frame; its PSN field holds the pause quanta. */
    static final byte PAUSE = 4;
    /** Ultra Ethernet: a data packet a switch trimmed to its headers ({@link Trimming}); PSN and flow kept. */
    static final byte TRIMMED = 5;
    /** InfiniBand: a link-level flow-control packet ({@link CreditFlowControl}); it ends at the receiving port. */
    static final byte FC = 6;

    /** ECN field values (RFC 3168): not ECN-capable, ECT(0), CE. */
    static final byte NOT_ECT = 0;
    static final byte ECT = 2;
    static final byte CE = 3;

    // Record layout (ints): header (kind | priority << 3 | ecn << 6 | hop << 8 | frame bytes << 16),
    // flow, PSN, path base.
    private static final int HEADER = 0;
    /** The flow; in the free list, the next free id. */
    private static final int FLOW = 1;
    /** PSN of data, ACK and NAK; pause quanta of a PFC frame. */
    private static final int PSN = 2;
    /** Offset of the packet's path (egress port ids, hop by hop) in the simulator's path store. */
    private static final int PATH_BASE = 3;
    private static final int STRIDE = 4;
    /** Hop index (header bits 8-15): the hop whose egress port the packet is queued at or leaving. */
    static final int MAX_HOPS = 255;
    /** Largest frame a record holds (16 bits of the header). */
    static final int MAX_FRAME_BYTES = 0xFFFF;

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
                if (entropy != null) {
                    entropy = Arrays.copyOf(entropy, capacity);
                    sack = Arrays.copyOf(sack, capacity * 2);
                }
            }
            id = used++;
        }
        int b = id * STRIDE;
        f[b + HEADER] = (packetKind & 7) | (prio & 7) << 3 | (ecnField & 3) << 6 | bytes << 16;
        f[b + FLOW] = flowId;
        f[b + PSN] = seq;
        f[b + PATH_BASE] = 0;
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

    /** The header int (kind, priority, ECN, hop, frame size), read ahead to bring the record into cache. */
    int touch(int id) {
        return f[id * STRIDE + HEADER];
    }

    int kind(int id) {
        return f[id * STRIDE + HEADER] & 7;
    }

    int priority(int id) {
        return (f[id * STRIDE + HEADER] >>> 3) & 7;
    }

    int ecn(int id) {
        return (f[id * STRIDE + HEADER] >>> 6) & 3;
    }

    void setEcn(int id, int v) {
        int b = id * STRIDE + HEADER;
        f[b] = (f[b] & ~0xC0) | (v & 3) << 6;
    }

    int flow(int id) {
        return f[id * STRIDE + FLOW];
    }

    int psn(int id) {
        return f[id * STRIDE + PSN];
    }

    int frameBytes(int id) {
        return f[id * STRIDE + HEADER] >>> 16;
    }

    int hop(int id) {
        return (f[id * STRIDE + HEADER] >>> 8) & 0xFF;
    }

    void setHop(int id, int v) {
        int b = id * STRIDE + HEADER;
        f[b] = (f[b] & ~0xFF00) | (v & 0xFF) << 8;
    }

    int pathBase(int id) {
        return f[id * STRIDE + PATH_BASE];
    }

    void setPathBase(int id, int v) {
        f[id * STRIDE + PATH_BASE] = v;
    }

    /**
     * InfiniBand: the flow-control packet queued behind {@code id} on the same port, or -1. A
     * flow-control packet has no path, so its path slot links the port's queue of them (see
     * {@link Simulator#enqueueFc}); {@link #setQueueNext} writes it, and it is reset to 0 when
     * the packet leaves the queue.
     */
    int queueNext(int id) {
        return f[id * STRIDE + PATH_BASE];
    }

    void setQueueNext(int id, int next) {
        f[id * STRIDE + PATH_BASE] = next;
    }

    /**
     * Ultra Ethernet: the entropy value (EV) each packet carries, by id (UEC 1.0: the sender's
     * per-packet path choice, hashed by the switches' ECMP as the UDP source port); null until
     * {@link #enableEntropy}, so the other transports' records stay 16 bytes.
     */
    private char[] entropy;

    /** Ultra Ethernet: per id, an ACK's cumulative PSN and the SACK bitmap of the 64 PSNs after it. */
    private long[] sack;
    /** Bit of the entropy slot that carries a data packet's ACK request (AR) flag. */
    private static final int AR_BIT = 0x8000;

    void enableEntropy() {
        if (entropy == null) {
            entropy = new char[capacity];
            sack = new long[capacity * 2];
        }
    }

    /** The entropy value (below 2^15). */
    int entropy(int id) {
        return entropy[id] & (AR_BIT - 1);
    }

    /** Sets the entropy value and clears the AR flag. */
    void setEntropy(int id, int ev) {
        entropy[id] = (char) (ev & (AR_BIT - 1));
    }

    /** Whether a data packet asks to be acknowledged at once (UEC PDS AR flag). */
    boolean ackRequested(int id) {
        return (entropy[id] & AR_BIT) != 0;
    }

    void setAckRequested(int id) {
        entropy[id] |= AR_BIT;
    }

    /** An ACK's cumulative PSN: every PSN below it has arrived. */
    int cumulativePsn(int id) {
        return (int) sack[2 * id];
    }

    /** An ACK's SACK bitmap: bit i set when PSN cumulative + 1 + i has arrived. */
    long sackBitmap(int id) {
        return sack[2 * id + 1];
    }

    void setSack(int id, int cumulative, long bitmap) {
        sack[2 * id] = cumulative;
        sack[2 * id + 1] = bitmap;
    }

    int live() {
        return live;
    }

    int maxLive() {
        return maxLive;
    }
}
