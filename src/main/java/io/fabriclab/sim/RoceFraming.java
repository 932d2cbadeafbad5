package io.fabriclab.sim;

/**
 * Sizes of RoCEv2 and MAC control frames on the wire. A frame's size counts from the destination
 * MAC to the FCS; serialization also counts the preamble, start delimiter and inter-frame gap.
 */
public final class RoceFraming {
    /** Ethernet 14 + IPv4 20 + UDP 8 + InfiniBand BTH 12 + ICRC 4 + FCS 4 (RoCEv2, IBTA Annex A17). */
    public static final int DATA_HEADER_BYTES = 62;
    /** An RC ACK/NAK: the data headers plus the 4-byte AETH. */
    public static final int ACK_FRAME_BYTES = DATA_HEADER_BYTES + 4;
    /** A CNP: the data headers plus 16 reserved bytes (IBTA Annex A17). */
    public static final int CNP_FRAME_BYTES = DATA_HEADER_BYTES + 16;
    /** A PFC frame is a minimum-size MAC control frame (IEEE 802.1Qbb). */
    public static final int PFC_FRAME_BYTES = 64;
    /** Preamble 7 + SFD 1 + minimum inter-frame gap 12 (IEEE 802.3). */
    public static final int WIRE_OVERHEAD_BYTES = 20;
    /** One PAUSE quantum is 512 bit times at the link's speed (IEEE 802.3 Annex 31B). */
    public static final int BITS_PER_QUANTUM = 512;
    /** The quanta a PFC XOFF carries: the largest the field holds. */
    public static final int XOFF_QUANTA = 0xFFFF;

    private RoceFraming() {
    }

    /** RDMA payload bytes a frame of the fabric's MTU carries. */
    public static int maxPayload(int mtuBytes) {
        int p = mtuBytes - DATA_HEADER_BYTES;
        if (p <= 0) {
            throw new IllegalArgumentException("MTU " + mtuBytes + " B cannot carry a RoCEv2 header of "
                    + DATA_HEADER_BYTES + " B");
        }
        return p;
    }
}
