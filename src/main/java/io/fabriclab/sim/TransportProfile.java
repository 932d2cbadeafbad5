package io.fabriclab.sim;

import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

import io.fabriclab.model.Transport;

/**
 * The per-packet costs and parameters of one transport on the same drawing: header bytes of a
 * data packet, the per-packet cost at the data rate beyond the packet itself (Ethernet's preamble,
 * start delimiter and inter-frame gap; nothing for InfiniBand), the acknowledgement, and the
 * transport's own parameters ({@link TransportProfileIb}, {@link TransportProfileUec}). The static
 * payload efficiency here is what the simulator's busbw must agree with on an uncongested ring
 * (docs/model.md, Transports).
 *
 * @param transport          which transport
 * @param dataHeaderBytes    headers and CRCs of a data packet (frame minus payload)
 * @param wireOverheadBytes  per-packet bytes at the data rate outside the packet
 * @param ackBytes           an acknowledgement packet (frame) without wire overhead
 * @param ib                 InfiniBand parameters, null for the Ethernet transports
 * @param uec                Ultra Ethernet parameters, null for the others
 */
public record TransportProfile(Transport transport, int dataHeaderBytes, int wireOverheadBytes, int ackBytes,
                               TransportProfileIb ib, TransportProfileUec uec) {

    /**
     * Transports this build's simulator runs. The simulator's transport work adds to it as each
     * lands; every other part of FabricLab (scenario reader, compare, cost) reads it, so a
     * transport is never silently simulated as another.
     */
    private static final Set<Transport> SIMULATED = EnumSet.of(Transport.ROCEV2, Transport.INFINIBAND,
            Transport.ULTRA_ETHERNET);

    public static boolean simulated(Transport t) {
        return SIMULATED.contains(t);
    }

    /** "rocev2", for messages: the transports this build simulates. */
    public static String simulatedNames() {
        return SIMULATED.stream().map(Transport::jsonName).collect(Collectors.joining(", "));
    }

    /** The default profile of a transport (each default cited where its record defines it). */
    public static TransportProfile of(Transport t) {
        return switch (t) {
            case ROCEV2 -> new TransportProfile(t, RoceFraming.DATA_HEADER_BYTES, RoceFraming.WIRE_OVERHEAD_BYTES,
                    RoceFraming.ACK_FRAME_BYTES, null, null);
            case INFINIBAND -> infiniband(TransportProfileIb.defaults());
            case ULTRA_ETHERNET -> new TransportProfile(t, UecFraming.DATA_HEADER_BYTES, RoceFraming.WIRE_OVERHEAD_BYTES,
                    UecFraming.ACK_FRAME_BYTES, null, TransportProfileUec.defaults());
        };
    }

    /** An Ultra Ethernet profile with parameters {@code uec}. */
    public static TransportProfile ultraEthernet(TransportProfileUec uec) {
        return new TransportProfile(Transport.ULTRA_ETHERNET, UecFraming.DATA_HEADER_BYTES,
                RoceFraming.WIRE_OVERHEAD_BYTES, UecFraming.ACK_FRAME_BYTES, null, uec);
    }

    public static TransportProfile infiniband(TransportProfileIb ib) {
        return new TransportProfile(Transport.INFINIBAND, IbFraming.DATA_HEADER_BYTES
                + (ib.crossSubnet() ? IbFraming.GRH_BYTES : 0), 0, IbFraming.ACK_PACKET_BYTES, ib, null);
    }

    /** Bytes at the data rate of one data packet carrying {@code payload} bytes. */
    public long dataWireBytes(long payload) {
        return payload + dataHeaderBytes + wireOverheadBytes;
    }

    /** Bytes at the data rate of one acknowledgement. */
    public long ackWireBytes() {
        return ackBytes + wireOverheadBytes;
    }

    /**
     * Bytes at the data rate a receiver sends back per data packet for link-level flow control
     * (InfiniBand's FC packets; 0 for the Ethernet transports, whose PFC frames are sent only
     * under congestion).
     */
    public double flowControlWireBytesPerPacket() {
        return ib == null ? 0 : (double) IbFraming.FC_PACKET_BYTES * ib.fcPacketsPerDataPacket();
    }

    /**
     * Payload efficiency of a link direction that carries only data: payload / (payload + headers
     * + per-packet wire overhead).
     */
    public double payloadEfficiency(long payload) {
        return (double) payload / dataWireBytes(payload);
    }

    /**
     * Data packets a receiver of this transport acknowledges with one ACK in steady state when
     * packets carry {@code payload} bytes: Ultra Ethernet coalesces, one ACK once more than
     * {@link TransportProfileUec#ACK_COALESCE_BYTES} of frames have arrived (4 packets of 4096 B:
     * 4 x 4198 = 16,792 > 16,384); RoCEv2 and InfiniBand acknowledge every packet (their
     * {@code ackEveryPackets} default).
     */
    public int packetsPerAck(long payload) {
        if (uec == null) {
            return 1;
        }
        long frame = payload + dataHeaderBytes;
        return (int) (TransportProfileUec.ACK_COALESCE_BYTES / frame) + 1;
    }

    /** {@link #payloadEfficiency(long, int)} with this transport's own ACK cadence ({@link #packetsPerAck}). */
    public double ringPayloadEfficiency(long payload) {
        return payloadEfficiency(payload, packetsPerAck(payload));
    }

    /**
     * Payload efficiency of a link direction that carries one data stream and the control packets
     * answering the data stream of the opposite direction, as every link of a ring collective does:
     * an acknowledgement every {@code ackEveryPackets} packets and the flow-control packets of the
     * link layer share the direction with the data.
     */
    public double payloadEfficiency(long payload, int ackEveryPackets) {
        if (ackEveryPackets < 1) {
            throw new IllegalArgumentException("ackEveryPackets must be >= 1");
        }
        return payload / (dataWireBytes(payload) + (double) ackWireBytes() / ackEveryPackets
                + flowControlWireBytesPerPacket());
    }
}
