package io.fabriclab.sim;

import java.util.List;

/**
 * Sizes of InfiniBand packets on a link (IBTA InfiniBand Architecture Specification vol. 1,
 * release 1.5: chapter 5, Data packet format; chapter 7, Link layer). Unlike Ethernet, an
 * InfiniBand link has no preamble or inter-frame gap at the data rate: the physical layer marks
 * packet boundaries inside its own line code (vol. 2), so a packet costs exactly its bytes.
 */
public final class IbFraming {
    /** Local Route Header: VL, SL, DLID, SLID, packet length (vol. 1 §7.7). */
    public static final int LRH_BYTES = 8;
    /** Global Route Header: present only when a packet crosses an IB router into another subnet (vol. 1 §8.3). */
    public static final int GRH_BYTES = 40;
    /** Base Transport Header: opcode, destination QP, PSN (vol. 1 §9.2). */
    public static final int BTH_BYTES = 12;
    /** ACK Extended Transport Header of an RC acknowledgement (vol. 1 §9.3.5). */
    public static final int AETH_BYTES = 4;
    /** Invariant CRC, end to end (vol. 1 §7.8.1). */
    public static final int ICRC_BYTES = 4;
    /** Variant CRC, recomputed on every link (vol. 1 §7.8.2). */
    public static final int VCRC_BYTES = 2;
    /** Headers and CRCs of an RC data packet inside one subnet: LRH 8 + BTH 12 + ICRC 4 + VCRC 2. */
    public static final int DATA_HEADER_BYTES = LRH_BYTES + BTH_BYTES + ICRC_BYTES + VCRC_BYTES;
    /** An RC ACK: LRH + BTH + AETH + ICRC + VCRC, no payload. */
    public static final int ACK_PACKET_BYTES = DATA_HEADER_BYTES + AETH_BYTES;
    /**
     * A link-level flow control packet: Op 4 bits, FCTBS 12, VL 4, FCCL 12, LPCRC 16 = 48 bits
     * (vol. 1 §7.9.4).
     */
    public static final int FC_PACKET_BYTES = 6;
    /** Flow-control credits count 64-byte blocks of receive buffer (vol. 1 §7.9.2). */
    public static final int CREDIT_BLOCK_BYTES = 64;
    /** FCTBS and FCCL are 12-bit counters modulo 4096 blocks (vol. 1 §7.9.4). */
    public static final int CREDIT_COUNTER_MODULUS = 4096;
    /** The path MTUs InfiniBand allows, payload bytes (vol. 1 §7.7.8, PMTU encoding 1-5). */
    public static final List<Integer> MTUS = List.of(256, 512, 1024, 2048, 4096);
    /** The largest InfiniBand MTU, payload bytes. */
    public static final int MAX_MTU_BYTES = 4096;

    private IbFraming() {
    }

    /** Bytes an RC data packet of {@code payload} bytes puts on a link; {@code crossSubnet} adds the GRH. */
    public static int packetBytes(int payload, boolean crossSubnet) {
        if (payload < 0 || payload > MAX_MTU_BYTES) {
            throw new IllegalArgumentException("InfiniBand payload " + payload + " B is outside 0-" + MAX_MTU_BYTES);
        }
        return payload + DATA_HEADER_BYTES + (crossSubnet ? GRH_BYTES : 0);
    }

    /** 64-byte credits a packet of {@code bytes} consumes at the receiver (a partial block costs a whole one). */
    public static int credits(int bytes) {
        return (bytes + CREDIT_BLOCK_BYTES - 1) / CREDIT_BLOCK_BYTES;
    }

    /** Whether {@code mtu} is an InfiniBand path MTU (256, 512, 1024, 2048 or 4096). */
    public static boolean isMtu(long mtu) {
        return mtu >= 0 && mtu <= MAX_MTU_BYTES && MTUS.contains((int) mtu);
    }
}
