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

    private final Simulator sim;
    private final EgressPort[] ports;
    private final PacketPool pkts;
    /** Blocks each port's receiving side advertises per VL. */
    private int creditBlocks;
    /** Sender side, at portClass(egress port, VL): blocks sent (FCTBS, not reduced modulo 4096). */
    private final int[] sent;
    /** Sender side: the credit limit of the last flow-control packet received (FCCL, unreduced). */
    private final int[] limit;
    /** Receiver side, at portClass(receiving port, VL): blocks in the buffer, the most seen, blocks freed so far. */
    private final int[] held;
    private final int[] maxHeld;
    private final int[] freed;
    private final long[] fcPacketsSent;
    /** Sender side: when the current credit stall began (-1: none), the blocks it waits for, stalled time so far. */
    private final long[] stallStartPs;
    private final int[] stallNeed;
    private final long[] stalledPs;

    CreditFlowControl(Simulator sim, EgressPort[] ports, PacketPool pkts) {
        this.sim = sim;
        this.ports = ports;
        this.pkts = pkts;
        int n = ports.length * EgressPort.CLASSES;
        sent = new int[n];
        limit = new int[n];
        held = new int[n];
        maxHeld = new int[n];
        freed = new int[n];
        fcPacketsSent = new long[n];
        stallStartPs = new long[n];
        java.util.Arrays.fill(stallStartPs, -1);
        stallNeed = new int[n];
        stalledPs = new long[n];
        setVlCreditBytes(DEFAULT_VL_CREDIT_BYTES);
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
        java.util.Arrays.fill(limit, creditBlocks);
    }

    int vlCreditBytes() {
        return creditBlocks * BLOCK_BYTES;
    }

    // ----- sender side -------------------------------------------------------------------------

    /** Whether egress {@code p} holds credits for a packet of {@code bytes} on VL {@code c}. */
    boolean fits(EgressPort p, int c, int bytes) {
        int k = EgressPort.portClass(p.id, c);
        return limit[k] - sent[k] >= blocks(bytes);
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
            int k = EgressPort.portClass(p.id, c);
            if (limit[k] - sent[k] < need) {
                blocked |= 1 << c;
                stall(k, need);
            }
        }
        return blocked;
    }

    /** The VLs of egress {@code p} in a credit stall now (bit c: VL c), for the live view's snapshot. */
    int stalledMask(EgressPort p) {
        int mask = 0;
        for (int c = 0; c < EgressPort.CLASSES; c++) {
            if (stallStartPs[EgressPort.portClass(p.id, c)] >= 0) {
                mask |= 1 << c;
            }
        }
        return mask;
    }

    /** A packet of VL {@code c} that egress {@code p}'s credits do not cover waits: a credit stall begins if none is open. */
    void stall(EgressPort p, int c, int bytes) {
        stall(EgressPort.portClass(p.id, c), blocks(bytes));
    }

    private void stall(int k, int need) {
        if (stallStartPs[k] < 0) {
            stallStartPs[k] = sim.now;
        }
        stallNeed[k] = need;
    }

    /** Egress {@code p} starts a packet of {@code bytes} on VL {@code c}: its blocks are spent. */
    void consume(EgressPort p, int c, int bytes) {
        int k = EgressPort.portClass(p.id, c);
        sent[k] += blocks(bytes);
        if (stallStartPs[k] >= 0) {
            endStall(k);
        }
    }

    private void endStall(int k) {
        stalledPs[k] += sim.now - stallStartPs[k];
        stallStartPs[k] = -1;
    }

    /**
     * A flow-control packet reached egress {@code p} (the sender on that link): its credit limit
     * replaces the sender's. The 12-bit FCCL is widened against FCTBS: the limit is never behind
     * what was sent nor more than the buffer ahead of it.
     */
    void receive(EgressPort p, int pkt) {
        int c = pkts.priority(pkt);
        int k = EgressPort.portClass(p.id, c);
        int fccl = pkts.psn(pkt);
        int available = (fccl - sent[k]) & (COUNTER_MODULUS - 1);
        pkts.free(pkt);
        if (available > creditBlocks) {
            // Sent before a link re-initialization and delivered after it: stale, ignored.
            return;
        }
        limit[k] = sent[k] + available;
        if (stallStartPs[k] >= 0 && limit[k] - sent[k] >= stallNeed[k]) {
            endStall(k);
        }
        sim.transmit(p);
    }

    // ----- receiver side -----------------------------------------------------------------------

    /** A packet of {@code bytes} on VL {@code c} entered the buffer of receiving port {@code in}. */
    void arrived(int in, int c, int bytes) {
        int k = EgressPort.portClass(in, c);
        int h = held[k] += blocks(bytes);
        if (h > maxHeld[k]) {
            if (h > creditBlocks) {
                throw new IllegalStateException("credit flow control broken: " + ports[in].ref() + " VL " + c
                        + " holds " + h + " blocks, advertised " + creditBlocks);
            }
            maxHeld[k] = h;
        }
    }

    /**
     * A packet of {@code bytes} on VL {@code c} left the buffer of receiving port {@code in}: its
     * blocks are free, and a flow-control packet with the new limit goes back to the sender on
     * the same link, ahead of data (it needs no credits itself).
     */
    void released(int in, int c, int bytes) {
        int k = EgressPort.portClass(in, c);
        int b = blocks(bytes);
        held[k] -= b;
        freed[k] += b;
        EgressPort back = ports[in];
        if (back.down) {
            return;
        }
        int fccl = (creditBlocks + freed[k]) & (COUNTER_MODULUS - 1);
        int pkt = pkts.allocate(FC, -1, fccl, FC_PACKET_BYTES, c, PacketPool.NOT_ECT);
        sim.enqueue(back, EgressPort.CONTROL, pkt, FC_PACKET_BYTES, -1, false);
        fcPacketsSent[k]++;
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
                int ks = EgressPort.portClass(s, c);
                int kr = EgressPort.portClass(s ^ 1, c);
                sent[ks] = freed[kr] + held[kr];
                limit[ks] = creditBlocks + freed[kr];
            }
        }
    }

    /**
     * Since when egress {@code port}'s VL {@code vl} has held a packet its receiver's credits do not
     * cover, or -1 (the credit-loop deadlock detector reads it).
     */
    long stallStartPs(int port, int vl) {
        return stallStartPs[EgressPort.portClass(port, vl)];
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
                int k = EgressPort.portClass(p.id, c);
                if (sent[k] == 0 && maxHeld[k] == 0) {
                    continue;
                }
                long stalled = stalledPs[k] + (stallStartPs[k] >= 0 ? endPs - stallStartPs[k] : 0);
                out.add(new SimResults.CreditResult(p.ref(), c, (long) creditBlocks * BLOCK_BYTES,
                        (long) maxHeld[k] * BLOCK_BYTES, (long) sent[k] * BLOCK_BYTES, stalled, fcPacketsSent[k]));
            }
        }
        return out;
    }
}
