package io.fabriclab.sim;

/**
 * Sizes of Ultra Ethernet Transport (UET) frames, UEC Specification 1.0 (Ultra Ethernet
 * Consortium, 2025): UET over UDP/IP on Ethernet, a reliable unordered delivery (RUD) data
 * packet carrying a Packet Delivery Sublayer (PDS) header and a Semantic Sublayer (SES) standard
 * header. A frame's size counts from the destination MAC to the FCS, as in {@link RoceFraming}.
 */
public final class UecFraming {
    /** Ethernet II header: destination and source MAC, EtherType (IEEE 802.3). */
    public static final int ETHERNET_BYTES = 14;
    /** IPv4 header without options (RFC 791). */
    public static final int IPV4_BYTES = 20;
    /** UDP header (RFC 768); UET's IANA-registered destination port is 4793. */
    public static final int UDP_BYTES = 8;
    /** PDS header of a RUD/ROD request: type, flags, PSN, source and destination PDC ids (UEC 1.0, PDS). */
    public static final int PDS_REQUEST_BYTES = 12;
    /** SES standard request header: opcode, message id, job id, buffer offset, memory key, length (UEC 1.0, SES). */
    public static final int SES_STANDARD_BYTES = 44;
    /** PDS ACK header with its cumulative PSN and SACK offset (UEC 1.0, PDS). */
    public static final int PDS_ACK_BYTES = 16;
    /** SES response header carried in an ACK (UEC 1.0, SES). */
    public static final int SES_RESPONSE_BYTES = 12;
    /** Ethernet frame check sequence (IEEE 802.3). */
    public static final int FCS_BYTES = 4;
    /** Ethernet 14 + IPv4 20 + UDP 8 + PDS 12 + SES 44 + FCS 4. */
    public static final int DATA_HEADER_BYTES = ETHERNET_BYTES + IPV4_BYTES + UDP_BYTES + PDS_REQUEST_BYTES
            + SES_STANDARD_BYTES + FCS_BYTES;
    /** An ACK (or NACK): Ethernet + IPv4 + UDP + PDS ACK + SES response + FCS. */
    public static final int ACK_FRAME_BYTES = ETHERNET_BYTES + IPV4_BYTES + UDP_BYTES + PDS_ACK_BYTES
            + SES_RESPONSE_BYTES + FCS_BYTES;
    /**
     * A trimmed packet keeps its headers (the receiver needs PDS and SES to name what was cut) and
     * loses its payload: the data headers, no payload (UEC 1.0, packet trimming; NDP, Handley et al.,
     * SIGCOMM 2017, trims to the header the same way).
     */
    public static final int TRIMMED_FRAME_BYTES = DATA_HEADER_BYTES;

    private UecFraming() {
    }

    /** Payload bytes a frame of {@code mtuBytes} (destination MAC to FCS) carries. */
    public static int maxPayload(int mtuBytes) {
        int p = mtuBytes - DATA_HEADER_BYTES;
        if (p <= 0) {
            throw new IllegalArgumentException("MTU " + mtuBytes + " B cannot carry a UET header of "
                    + DATA_HEADER_BYTES + " B");
        }
        return p;
    }
}
