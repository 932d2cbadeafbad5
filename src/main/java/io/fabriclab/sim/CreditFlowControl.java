package io.fabriclab.sim;

/**
 * InfiniBand link-level flow control (IBTA InfiniBand Architecture Specification vol. 1, release
 * 1.5, section 7.9), per link direction and virtual lane, over the simulator's port ids. Each
 * traffic class (service level) runs on its own VL.
 *
 * <p>The receiving end of every link advertises a buffer per VL in 64-byte blocks (credits). The
 * sender counts the blocks it has sent (FCTBS); the receiver's flow-control packets carry its
 * credit limit FCCL = blocks it can accept in total (its buffer plus every block it has freed),
 * modulo 4096. A packet of {@code b} blocks may start only while FCCL - FCTBS >= b, so a receive
 * buffer never holds more than it advertised and congestion never drops a packet: it
 * back-pressures the sender instead, hop by hop. A block leaves the buffer when its packet leaves
 * the switch (or, at an HCA, on arrival: the HCA takes packets at line rate); the receiver then
 * sends a flow-control packet (6 bytes, on the same wire, ahead of data) with the new limit, which
 * reaches the sender after its serialization and the link's propagation. So a link whose credit
 * round trip is R with C bytes of credit carries at most C / R, never more than its line rate.
 *
 * <p>Also kept: the largest buffer use per (receiving port, VL), and per (sending port, VL) the
 * time it held a packet ready that its credits did not cover (credit-stalled time, the
 * counterpart of PFC's paused time).
 */
final class CreditFlowControl {
    /** Local Route Header (vol. 1 §7.7). */
    static final int LRH_BYTES = 8;
    /** Base Transport Header (vol. 1 §9.2). */
    static final int BTH_BYTES = 12;
    /** Invariant CRC, end to end (vol. 1 §7.8.1). */
    static final int ICRC_BYTES = 4;
    /** Variant CRC, per link (vol. 1 §7.8.2). */
    static final int VCRC_BYTES = 2;
    /** ACK Extended Transport Header of an RC acknowledgement (vol. 1 §9.3.5). */
    static final int AETH_BYTES = 4;
    /** An RC data packet within one subnet (no GRH): LRH 8 + BTH 12 + ICRC 4 + VCRC 2 = 26 bytes. */
    static final int DATA_HEADER_BYTES = LRH_BYTES + BTH_BYTES + ICRC_BYTES + VCRC_BYTES;
    /** An RC ACK or NAK: the data headers plus the AETH, no payload: 30 bytes. */
    static final int ACK_PACKET_BYTES = DATA_HEADER_BYTES + AETH_BYTES;
    /** A flow-control packet: Op 4 bits, FCTBS 12, VL 4, FCCL 12, LPCRC 16 = 48 bits (vol. 1 §7.9.4). */
    static final int FC_PACKET_BYTES = 6;
    /** Credits count 64-byte blocks of receive buffer (vol. 1 §7.9.2); a partial block costs a whole one. */
    static final int BLOCK_BYTES = 64;
    /** FCTBS and FCCL are 12-bit counters (vol. 1 §7.9.4). */
    static final int COUNTER_MODULUS = 4096;
    /**
     * A sender may use a credit limit at most half the counter range ahead of what it sent (the
     * check (FCCL - (FCTBS + blocks)) mod 4096 <= 2048, vol. 1 §7.9.4): at most 2048 blocks =
     * 128 KiB outstanding per VL.
     */
    static final int MAX_CREDIT_BLOCKS = COUNTER_MODULUS / 2;
    /** The InfiniBand path MTUs, payload bytes (vol. 1 §7.7.8); 4096 the largest. */
    static final int[] MTUS = {256, 512, 1024, 2048, 4096};
    /** An InfiniBand physical layer marks packet boundaries inside its line code: no per-packet gap at the data rate. */
    static final int WIRE_OVERHEAD_BYTES = 0;
    /**
     * Receive buffer advertised per VL and port by default: 2048 blocks = 128 KiB, the most a sender
     * can use (see {@link #MAX_CREDIT_BLOCKS}); it covers line rate while the credit round trip is
     * under 128 KiB x 8 / rate (2.6 us at 400 Gb/s, 10.5 us at 100 Gb/s).
     */
    static final int DEFAULT_VL_CREDIT_BYTES = MAX_CREDIT_BLOCKS * BLOCK_BYTES;
    /** Packet kind of a flow-control packet (PacketPool's kinds, after Ultra Ethernet's TRIMMED). */
    static final byte FC = PacketPool.FC;

    private final SimContext.Ports sim;
    private final EgressPort[] ports;
    private final PacketPool pkts;
    /** Blocks each port's receiving side advertises per VL. */
    private int creditBlocks;
    /**
     * The credit state of every (link direction, VL), one record of {@link #STRIDE} longs at
     * {@link #st}: the sending end's counters and, next to them, those of the receiving end of the
     * same direction. A packet's send, its arrival, its release and the flow-control packet that
     * answers it then touch one record instead of a slot in each of nine arrays (each a cache miss
     * on a large fabric, as the JFR profile of the k=16 bench showed). The counters are ints kept
     * in longs, with int arithmetic.
     */
    private final long[] st;
    private static final int STRIDE = 8;
    /** Sender side: blocks sent (FCTBS, not reduced modulo 4096). */
    private static final int SENT = 0;
    /** Sender side: the credit limit of the last flow-control packet received (FCCL, unreduced). */
    private static final int LIMIT = 1;
    /** Sender side: when the current credit stall began (-1: none), the blocks it waits for, the time of the stalls that ended. */
    private static final int STALL_START = 2;
    private static final int STALL_NEED = 3;
    private static final int STALLED_PS = 4;
    /**
     * Receiver side: blocks in the buffer (low 32 bits) and the most it held (high 32 bits), updated
     * together; blocks freed so far; flow-control packets sent back.
     */
    private static final int HELD = 5;
    private static final int FREED = 6;
    private static final int FC_SENT = 7;
    private static final long LOW = 0xFFFFFFFFL;

    /**
     * Per (sending port, VL): the credit limit before the last flow-control packet and when that
     * packet arrived, so a packet a cut-through switch forwards does not start on the wire before
     * the credits it needed (see {@link #earliestStartPs}).
     */
    private final int[] limitBefore;
    private final long[] lastUpdatePs;

    CreditFlowControl(SimContext.Ports sim, EgressPort[] ports, PacketPool pkts) {
        this.sim = sim;
        this.ports = ports;
        this.pkts = pkts;
        int n = ports.length * EgressPort.CLASSES;
        limitBefore = new int[n];
        lastUpdatePs = new long[n];
        java.util.Arrays.fill(lastUpdatePs, Long.MIN_VALUE);
        st = new long[Math.multiplyExact(n, STRIDE)];
        for (int k = 0; k < n; k++) {
            st[k * STRIDE + STALL_START] = -1;
        }
        setVlCreditBytes(DEFAULT_VL_CREDIT_BYTES);
    }

    /** Where the record of sending egress {@code port}'s VL {@code c} starts in {@link #st}. */
    private static int sender(int port, int c) {
        return EgressPort.portClass(port, c) * STRIDE;
    }

    /** Where the record of the link direction into receiving port {@code in} (VL {@code c}) starts: its sender's. */
    private static int receiver(int in, int c) {
        return EgressPort.portClass(in ^ 1, c) * STRIDE;
    }

    /** The payload of an InfiniBand packet on a fabric of {@code mtuBytes}: the largest IB path MTU not above it. */
    static int maxPayload(int mtuBytes) {
        int best = -1;
        for (int m : MTUS) {
            if (m <= mtuBytes) {
                best = m;
            }
        }
        if (best < 0) {
            throw new IllegalArgumentException("MTU " + mtuBytes + " B is below InfiniBand's smallest path MTU, 256 B");
        }
        return best;
    }

    static int blocks(int bytes) {
        return (bytes + BLOCK_BYTES - 1) / BLOCK_BYTES;
    }

    /** Sets the buffer every receiving port advertises per VL (before the run): a multiple of 64 B, 1 to 2048 blocks. */
    void setVlCreditBytes(int bytes) {
        if (bytes <= 0 || bytes % BLOCK_BYTES != 0 || bytes / BLOCK_BYTES > MAX_CREDIT_BLOCKS) {
            throw new IllegalArgumentException("InfiniBand VL credits: " + bytes + " B must be a multiple of "
                    + BLOCK_BYTES + " B, from " + BLOCK_BYTES + " B to " + MAX_CREDIT_BLOCKS * BLOCK_BYTES
                    + " B (" + MAX_CREDIT_BLOCKS + " blocks, IBTA vol. 1 §7.9.4)");
        }
        creditBlocks = bytes / BLOCK_BYTES;
        // At link-up every receiver advertises its whole buffer (the initial FC packets).
        for (int o = LIMIT; o < st.length; o += STRIDE) {
            st[o] = creditBlocks;
        }
    }

    int vlCreditBytes() {
        return creditBlocks * BLOCK_BYTES;
    }

    // ----- sender side -------------------------------------------------------------------------

    /** Whether egress {@code p} holds credits for a packet of {@code bytes} on VL {@code c}. */
    boolean fits(EgressPort p, int c, int bytes) {
        int o = sender(p.id, c);
        return (int) st[o + LIMIT] - (int) st[o + SENT] >= blocks(bytes);
    }

    /**
     * The classes of switch egress {@code p} whose head packet its credits do not cover (a mask the
     * scheduler skips); a class found short starts (or continues) a credit stall.
     */
    int blockedClasses(EgressPort p) {
        int blocked = 0;
        for (int ready = p.nonEmpty & 0xFF; ready != 0; ready &= ready - 1) {
            int c = Integer.numberOfTrailingZeros(ready);
            int need = blocks(p.headBytes(c));
            int o = sender(p.id, c);
            if ((int) st[o + LIMIT] - (int) st[o + SENT] < need) {
                blocked |= 1 << c;
                stall(o, need);
            }
        }
        return blocked;
    }

    /** The VLs of egress {@code p} in a credit stall now (bit c: VL c), for the live view's snapshot. */
    int stalledMask(EgressPort p) {
        int mask = 0;
        for (int c = 0; c < EgressPort.CLASSES; c++) {
            if (st[sender(p.id, c) + STALL_START] >= 0) {
                mask |= 1 << c;
            }
        }
        return mask;
    }

    /**
     * Reads the record of the link direction sent by egress {@code port} on VL {@code c} (its
     * sender's credits and its receiver's buffer) ahead of use; the simulator's lookahead calls it.
     */
    int touch(int port, int c) {
        int o = sender(port, c);
        // Both ends: a record may straddle two cache lines (arrays are not aligned to them).
        return (int) (st[o + SENT] + st[o + FC_SENT]);
    }

    /** A packet of VL {@code c} that egress {@code p}'s credits do not cover waits: a credit stall begins if none is open. */
    void stall(EgressPort p, int c, int bytes) {
        stall(sender(p.id, c), blocks(bytes));
    }

    /** A stall of the sender record at {@code o} for {@code need} blocks. */
    private void stall(int o, int need) {
        if (st[o + STALL_START] < 0) {
            st[o + STALL_START] = sim.now();
        }
        st[o + STALL_NEED] = need;
    }

    /** Egress {@code p} starts a packet of {@code bytes} on VL {@code c}: its blocks are spent. */
    /**
     * The earliest time a packet of {@code bytes} on egress {@code p}, VL {@code c}, may have
     * started on the wire as far as credits go (call before {@link #consume}): when the last
     * flow-control packet arrived if the credits before it did not cover the packet (it needed
     * that update), else {@link Long#MIN_VALUE}. A cut-through switch starts a packet while its
     * tail is still coming in, but only once the downstream receiver's credits cover it (IBTA vol.
     * 1 §7.9: a packet is sent only when the credits for all of it are available).
     */
    long earliestStartPs(EgressPort p, int c, int bytes) {
        int pc = EgressPort.portClass(p.id, c);
        long at = lastUpdatePs[pc];
        if (at == Long.MIN_VALUE) {
            return Long.MIN_VALUE;
        }
        int o = sender(p.id, c);
        return limitBefore[pc] - (int) st[o + SENT] < blocks(bytes) ? at : Long.MIN_VALUE;
    }

    void consume(EgressPort p, int c, int bytes) {
        int o = sender(p.id, c);
        st[o + SENT] = (int) st[o + SENT] + blocks(bytes);
        if (st[o + STALL_START] >= 0) {
            endStall(o);
        }
    }

    private void endStall(int o) {
        st[o + STALLED_PS] += sim.now() - st[o + STALL_START];
        st[o + STALL_START] = -1;
    }

    /**
     * A flow-control packet reached egress {@code p} (the sender on that link): its credit limit
     * replaces the sender's. The 12-bit FCCL is widened against FCTBS: the limit is never behind
     * what was sent nor more than the buffer ahead of it.
     */
    void receive(EgressPort p, int pkt) {
        int c = pkts.priority(pkt);
        int o = sender(p.id, c);
        int fccl = pkts.psn(pkt);
        int sent = (int) st[o + SENT];
        int available = (fccl - sent) & (COUNTER_MODULUS - 1);
        pkts.free(pkt);
        if (available > creditBlocks) {
            // Sent before a link re-initialization and delivered after it: stale, ignored.
            return;
        }
        int limit = sent + available;
        int pc = EgressPort.portClass(p.id, c);
        limitBefore[pc] = (int) st[o + LIMIT];
        lastUpdatePs[pc] = sim.now();
        st[o + LIMIT] = limit;
        if (st[o + STALL_START] >= 0 && limit - sent >= (int) st[o + STALL_NEED]) {
            endStall(o);
        }
        sim.transmit(p);
    }

    // ----- receiver side -----------------------------------------------------------------------

    /** A packet of {@code bytes} on VL {@code c} entered the buffer of receiving port {@code in}. */
    void arrived(int in, int c, int bytes) {
        int o = receiver(in, c);
        long w = st[o + HELD];
        int h = (int) w + blocks(bytes);
        int max = (int) (w >>> 32);
        if (h > max) {
            if (h > creditBlocks) {
                throw new IllegalStateException("credit flow control broken: " + ports[in].ref() + " VL " + c
                        + " holds " + h + " blocks, advertised " + creditBlocks);
            }
            max = h;
        }
        st[o + HELD] = (long) max << 32 | h & LOW;
    }

    /**
     * A packet of {@code bytes} on VL {@code c} left the buffer of receiving port {@code in}: its
     * blocks are free, and a flow-control packet with the new limit goes back to the sender on
     * the same link, ahead of data (it needs no credits itself).
     */
    void released(int in, int c, int bytes) {
        int o = receiver(in, c);
        int b = blocks(bytes);
        long w = st[o + HELD];
        st[o + HELD] = w & ~LOW | ((int) w - b) & LOW;
        int freed = (int) st[o + FREED] + b;
        st[o + FREED] = freed;
        EgressPort back = ports[in];
        if (back.down) {
            return;
        }
        int fccl = (creditBlocks + freed) & (COUNTER_MODULUS - 1);
        int pkt = pkts.allocate(FC, -1, fccl, FC_PACKET_BYTES, c, PacketPool.NOT_ECT);
        sim.enqueueFc(back, pkt);
        st[o + FC_SENT]++;
        sim.transmit(back);
    }

    /**
     * The link of egress ports {@code a} and {@code a ^ 1} came back up: as at a link's
     * initialization, each sender's count and limit start again from its receiver's state (what
     * it still holds and has freed), so credits lost with the packets and flow-control packets
     * that were on the dead wire are restored, and none is counted twice.
     */
    void linkUp(int a) {
        for (int s : new int[] {a, a ^ 1}) {
            for (int c = 0; c < EgressPort.CLASSES; c++) {
                // Sender s and the receiver of its direction share the record.
                int o = sender(s, c);
                int freed = (int) st[o + FREED];
                st[o + SENT] = freed + (int) st[o + HELD];
                st[o + LIMIT] = creditBlocks + freed;
            }
        }
    }

    /**
     * Since when egress {@code port}'s VL {@code vl} has held a packet its receiver's credits do not
     * cover, or -1 (the credit-loop deadlock detector reads it).
     */
    long stallStartPs(int port, int vl) {
        return st[sender(port, vl) + STALL_START];
    }

    // ----- results -------------------------------------------------------------------------------

    /**
     * Per (port, VL) that carried credited traffic: as a receiver, the buffer advertised and the
     * most it held; as a sender, the time it was credit-stalled (an open stall counts to {@code endPs}).
     */
    java.util.List<SimResults.CreditResult> results(long endPs) {
        java.util.List<SimResults.CreditResult> out = new java.util.ArrayList<>();
        for (EgressPort p : ports) {
            for (int c = 0; c < EgressPort.CLASSES; c++) {
                // As a sender: p's record; as a receiver: the record of the direction into p.
                int o = sender(p.id, c);
                int r = receiver(p.id, c);
                int sent = (int) st[o + SENT];
                int maxHeld = (int) (st[r + HELD] >>> 32);
                if (sent == 0 && maxHeld == 0) {
                    continue;
                }
                long stallStart = st[o + STALL_START];
                long stalled = st[o + STALLED_PS] + (stallStart >= 0 ? endPs - stallStart : 0);
                out.add(new SimResults.CreditResult(p.ref(), c, (long) creditBlocks * BLOCK_BYTES,
                        (long) maxHeld * BLOCK_BYTES, (long) sent * BLOCK_BYTES, stalled, st[r + FC_SENT]));
            }
        }
        return out;
    }
}
