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
    /** UDP header (RFC 768). */
    public static final int UDP_BYTES = 8;
    /**
     * PDS header of a RUD/ROD request: prologue 2 (type, next header, flags), clear PSN offset 2,
     * PSN 4, source PDC id 2, destination PDC id (or PSN offset) 2 (UEC 1.0, PDS header formats).
     */
    public static final int PDS_REQUEST_BYTES = 12;
    /**
     * SES standard request header: opcode and flags 2, message id 2, index generation and job id 4,
     * PID on FEP 2, resource index 2, buffer offset 8, initiator 4, match bits 8, header data 8,
     * request length 4 (UEC 1.0, SES standard header).
     */
    public static final int SES_STANDARD_BYTES = 44;
    /**
     * PDS ACK header: prologue 2, ACK PSN offset 2, cumulative ACK PSN 4, source and destination
     * PDC ids 2 + 2 (UEC 1.0, PDS ACK).
     */
    public static final int PDS_ACK_BYTES = 12;
    /**
     * PDS ACK_CC header for NSCC, the ACK a receiver that coalesces sends: the PDS ACK (12) + CC type
     * and flags 1 + MPR 1 + SACK PSN offset 2 + SACK bitmap 8 (64 PSNs) + NSCC state 8 (service
     * time, restore-cwnd, receiver-cwnd-pending, received bytes, out-of-order count) = 32 B (UEC
     * 1.0, PDS ACK_CC; the field layout of the public UET packet definitions, e.g. the Linux
     * ultraeth driver's uapi header and the UEC reference provider's tools).
     */
    public static final int PDS_ACK_CC_BYTES = 32;
    /** SES response header carried in an ACK: list, opcode, version, return code 2, message id 2, job id 4, modified length 4 (UEC 1.0, SES). */
    public static final int SES_RESPONSE_BYTES = 12;
    /**
     * PDS NACK header: prologue 2, NACK code 1, vendor code 1, NACK PSN 4, source and destination
     * PDC ids 2 + 2, payload 4 (UEC 1.0, PDS NACK). A NACK carries no SES header.
     */
    public static final int PDS_NACK_BYTES = 16;
    /** Ethernet frame check sequence (IEEE 802.3). */
    public static final int FCS_BYTES = 4;
    /** Ethernet 14 + IPv4 20 + UDP 8 + PDS 12 + SES 44 + FCS 4 = 102 B. */
    public static final int DATA_HEADER_BYTES = ETHERNET_BYTES + IPV4_BYTES + UDP_BYTES + PDS_REQUEST_BYTES
            + SES_STANDARD_BYTES + FCS_BYTES;
    /**
     * An ACK, coalesced with its SACK bitmap: Ethernet 14 + IPv4 20 + UDP 8 + PDS ACK_CC 32 + SES
     * response 12 + FCS 4 = 90 B.
     */
    public static final int ACK_FRAME_BYTES = ETHERNET_BYTES + IPV4_BYTES + UDP_BYTES + PDS_ACK_CC_BYTES
            + SES_RESPONSE_BYTES + FCS_BYTES;
    /** A NACK: Ethernet 14 + IPv4 20 + UDP 8 + PDS NACK 16 + FCS 4 = 62 B. */
    public static final int NACK_FRAME_BYTES = ETHERNET_BYTES + IPV4_BYTES + UDP_BYTES + PDS_NACK_BYTES + FCS_BYTES;
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
