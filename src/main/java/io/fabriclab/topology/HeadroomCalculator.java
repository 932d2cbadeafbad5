package io.fabriclab.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.model.QosProfile;

/**
 * PFC headroom a receiving port needs per lossless priority: everything that can still arrive after
 * it decides to send XOFF (IEEE 802.1Qbb Annex N's worst case, as in Cisco's "Congestion
 * Management in Ethernet Storage Networks", ch. 7, Figure 7-2):
 * <ol>
 *   <li>the largest frame the receiver has just started sending on the same link (the PFC frame
 *       waits behind it): MTU + 20 B of preamble, SFD and inter-frame gap;</li>
 *   <li>the PFC frame itself: 64 B + 20 B = 672 bit times;</li>
 *   <li>the cable there and back: 2 x length x 5 ns/m at the link rate;</li>
 *   <li>the interface (MAC/PHY) delay at both ends: 2 x the per-speed IEEE 802.3 bound;</li>
 *   <li>the peer's response time: the per-speed pause_quanta of IEEE 802.3 31B.3.7, 512 bit times each;</li>
 *   <li>the largest frame the sender has in progress when it stops: MTU + 20 B.</li>
 * </ol>
 * Second reference: SONiC's dynamic buffer calculation (sonic-swss cfgmgr/buffer_headroom_mellanox.lua)
 * sums MTU + 2 x cable + MAC/PHY delay + peer response (pause_quanta x 64 B) and adds the lossless MTU
 * on top, the same terms without the PFC frame; it then scales for ASIC cell occupancy, which is
 * chip-specific and left out here.
 *
 * <p>Limits: the MTU is the fabric's ({@link Fabric#mtuBytes()}); only switch ports are checked
 * (NIC receive buffers are not configured through the QoS profile); per-speed values not in a
 * source are marked {@code extrapolated} (see {@link #timing(int)}).
 */
public final class HeadroomCalculator {
    /** Preamble + SFD (8 B) and the minimum inter-frame gap (12 B) that every frame costs on the wire. */
    public static final int WIRE_OVERHEAD_BYTES = 20;
    /** A PFC frame: 64 B minimum frame + 20 B wire overhead = 672 bit times. */
    public static final long PFC_FRAME_BITS = 672;
    public static final long BITS_PER_QUANTUM = 512;

    /**
     * Per-speed peer timing in bit times.
     *
     * @param responseQuanta       the peer's response time in pause quanta
     * @param interfaceDelayBits   MAC/PHY delay bound of one end, in bit times
     * @param extrapolated         true when the interface delay (or response) is not from a source but
     *                             scaled from the nearest lower cited speed at constant time
     */
    public record PeerTiming(int speedGbps, int responseQuanta, long interfaceDelayBits, boolean extrapolated) {
    }

    /**
     * Response quanta: IEEE 802.3 31B.3.7 as tabulated in SONiC's buffer_headroom_mellanox.lua
     * (10G 67, 25G 80, 40G 118, 50G 147, 100G 394, 200G 453, 400G 905, 800G 905). Interface delay:
     * IEEE 802.3 bounds as given in Cisco's ch. 7 (10G 8,192, 25G 6,144, 40G 24,576, 100G 122,880
     * bit times); 50G and above 100G are scaled from the next lower cited speed at the same delay in
     * nanoseconds. 1.6T has no cited response: 800G's time, doubled in bits.
     */
    private static final Map<Integer, PeerTiming> TIMING = new TreeMap<>(Map.of(
            10, new PeerTiming(10, 67, 8_192, false),
            25, new PeerTiming(25, 80, 6_144, false),
            40, new PeerTiming(40, 118, 24_576, false),
            50, new PeerTiming(50, 147, 24_576 * 50 / 40, true),
            100, new PeerTiming(100, 394, 122_880, false),
            200, new PeerTiming(200, 453, 122_880 * 2, true),
            400, new PeerTiming(400, 905, 122_880 * 4, true),
            800, new PeerTiming(800, 905, 122_880 * 8, true),
            1600, new PeerTiming(1600, 905 * 2, 122_880 * 16, true)));

    private HeadroomCalculator() {
    }

    /** The timing used for a link speed; speeds between table entries use the next higher entry. */
    public static PeerTiming timing(int speedGbps) {
        PeerTiming t = TIMING.get(speedGbps);
        if (t != null) {
            return t;
        }
        for (PeerTiming p : TIMING.values()) {
            if (p.speedGbps() >= speedGbps) {
                return new PeerTiming(speedGbps, p.responseQuanta(), p.interfaceDelayBits(), true);
            }
        }
        PeerTiming top = TIMING.get(1600);
        return new PeerTiming(speedGbps, top.responseQuanta(), top.interfaceDelayBits(), true);
    }

    /** The headroom terms, each in bytes (bit times / 8, rounded up), and their sum. */
    public record Requirement(int speedGbps, double cableLengthM, int mtuBytes, long receiverFrameBytes,
                              long pfcFrameBytes, long cableBytes, long interfaceBytes, long peerResponseBytes,
                              long senderFrameBytes, long totalBytes, boolean extrapolated) {
    }

    /** Headroom needed on a port receiving at {@code speedGbps} over {@code cableLengthM} of cable. */
    public static Requirement required(int speedGbps, double cableLengthM, int mtuBytes) {
        PeerTiming t = timing(speedGbps);
        long frameBits = (mtuBytes + (long) WIRE_OVERHEAD_BYTES) * 8;
        // 5 ns/m (Units.PROPAGATION_PS_PER_M) there and back; at G Gb/s a nanosecond is G bits.
        long cableBits = (long) Math.ceil(2 * cableLengthM * 5.0 * speedGbps);
        long interfaceBits = 2 * t.interfaceDelayBits();
        long responseBits = t.responseQuanta() * BITS_PER_QUANTUM;
        long total = frameBits + PFC_FRAME_BITS + cableBits + interfaceBits + responseBits + frameBits;
        return new Requirement(speedGbps, cableLengthM, mtuBytes, bytes(frameBits), bytes(PFC_FRAME_BITS),
                bytes(cableBits), bytes(interfaceBits), bytes(responseBits), bytes(frameBits), bytes(total),
                t.extrapolated());
    }

    private static long bytes(long bits) {
        return (bits + 7) / 8;
    }

    /**
     * One receiving switch port: what it needs, what its QoS profile reserves per lossless priority,
     * and whether that falls short.
     */
    public record PortHeadroom(String port, String link, Set<Integer> losslessPriorities, Requirement required,
                               long configuredBytes, String qosProfile) {
        public boolean shortfall() {
            return configuredBytes < required.totalBytes();
        }

        public long missingBytes() {
            return Math.max(0, required.totalBytes() - configuredBytes);
        }
    }

    /** The headroom of one port, or null when it has no link or no lossless priority. */
    public static PortHeadroom forPort(Fabric fabric, Port p) {
        Link l = fabric.linkAt(p);
        QosProfile q = fabric.qosFor(p);
        if (l == null || q == null || q.pfc() == null || !q.pfc().enabled() || q.pfc().priorities().isEmpty()) {
            return null;
        }
        Requirement r = required(l.speedGbps(), l.cableLengthM(), fabric.mtuBytes());
        return new PortHeadroom(p.ref(), l.id(), q.pfc().priorities(), r, q.pfc().headroomBytes(), q.name());
    }

    /** Every linked switch port with a lossless priority, in fabric order. */
    public static List<PortHeadroom> check(Fabric fabric) {
        List<PortHeadroom> out = new ArrayList<>();
        fabric.switches().forEach(d -> d.ports().forEach(p -> {
            PortHeadroom h = forPort(fabric, p);
            if (h != null) {
                out.add(h);
            }
        }));
        return out;
    }

    /** The ports whose configured headroom is below what they need. */
    public static List<PortHeadroom> shortfalls(Fabric fabric) {
        return check(fabric).stream().filter(PortHeadroom::shortfall).toList();
    }
}
