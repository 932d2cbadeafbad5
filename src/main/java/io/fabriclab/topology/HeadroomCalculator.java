package io.fabriclab.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.PhyTiming;
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
 * source are marked {@code extrapolated} (see {@link PhyTiming#TIMING} and {@link #timing(int)}).
 */
public final class HeadroomCalculator {
    /** Preamble + SFD (8 B) and the minimum inter-frame gap (12 B) that every frame costs on the wire. */
    public static final int WIRE_OVERHEAD_BYTES = 20;
    /** A PFC frame: 64 B minimum frame + 20 B wire overhead = 672 bit times. */
    public static final long PFC_FRAME_BITS = 672;
    public static final long BITS_PER_QUANTUM = PhyTiming.BITS_PER_QUANTUM;

    /** Source labels and Spectrum figure of the per-speed table ({@link PhyTiming}), where it lives now. */
    public static final String SOURCE_IEEE = PhyTiming.SOURCE_IEEE;
    public static final String SOURCE_SONIC_SPECTRUM = PhyTiming.SOURCE_SONIC_SPECTRUM;
    public static final long SONIC_SPECTRUM_MAC_PHY_DELAY_BITS = PhyTiming.SONIC_SPECTRUM_MAC_PHY_DELAY_BITS;

    private HeadroomCalculator() {
    }

    /**
     * The timing used for a link speed ({@link PhyTiming#of}: the per-speed table is a property of
     * the physical layer, in the model, where the simulator's PFC response reads it too).
     */
    public static PhyTiming timing(int speedGbps) {
        return PhyTiming.of(speedGbps);
    }

    /**
     * The headroom terms, each in bytes (bit times / 8, rounded up), and their sum (the exact bit sum / 8,
     * rounded up). {@code interfaceBytes} covers both ends; {@code interfaceSource} says where the per-end
     * delay comes from and {@code extrapolated} whether a figure was carried over from another speed.
     */
    public record Requirement(int speedGbps, double cableLengthM, int mtuBytes, long receiverFrameBytes,
                              long pfcFrameBytes, long cableBytes, long interfaceBytes, long peerResponseBytes,
                              long senderFrameBytes, long totalBytes, boolean extrapolated, String interfaceSource) {
    }

    /** Headroom needed on a port receiving at {@code speedGbps} over {@code cableLengthM} of cable. */
    public static Requirement required(int speedGbps, double cableLengthM, int mtuBytes) {
        PhyTiming t = timing(speedGbps);
        long frameBits = (mtuBytes + (long) WIRE_OVERHEAD_BYTES) * 8;
        // 5 ns/m (Units.PROPAGATION_PS_PER_M) there and back; at G Gb/s a nanosecond is G bits.
        long cableBits = (long) Math.ceil(2 * cableLengthM * 5.0 * speedGbps);
        long interfaceBits = 2 * t.interfaceDelayBits();
        long responseBits = t.responseBits();
        long total = frameBits + PFC_FRAME_BITS + cableBits + interfaceBits + responseBits + frameBits;
        return new Requirement(speedGbps, cableLengthM, mtuBytes, bytes(frameBits), bytes(PFC_FRAME_BITS),
                bytes(cableBits), bytes(interfaceBits), bytes(responseBits), bytes(frameBits), bytes(total),
                t.extrapolated(), t.interfaceSource());
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

        /** Configured minus required: negative when short. */
        public long marginBytes() {
            return configuredBytes - required.totalBytes();
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

    /**
     * Lossless ports that need and have the same: one QoS profile, speed and cable length (so the same
     * requirement) and the same configured headroom. How the text, JSON and report show the margin of every
     * port without a line per port on a large fabric.
     */
    public record PortClass(String qosProfile, Requirement required, long configuredBytes, List<String> ports) {
        public long marginBytes() {
            return configuredBytes - required.totalBytes();
        }

        public boolean shortfall() {
            return marginBytes() < 0;
        }
    }

    /** The ports grouped into {@link PortClass}es, smallest margin first (then profile, speed, cable). */
    public static List<PortClass> classes(List<PortHeadroom> ports) {
        record Key(String profile, int speed, double cableM, long configured) {
        }
        Map<Key, List<PortHeadroom>> byKey = new java.util.LinkedHashMap<>();
        for (PortHeadroom h : ports) {
            byKey.computeIfAbsent(new Key(h.qosProfile(), h.required().speedGbps(), h.required().cableLengthM(),
                    h.configuredBytes()), k -> new ArrayList<>()).add(h);
        }
        List<PortClass> out = new ArrayList<>();
        byKey.forEach((k, list) -> out.add(new PortClass(k.profile(), list.get(0).required(), k.configured(),
                list.stream().map(PortHeadroom::port).toList())));
        out.sort(java.util.Comparator.comparingLong(PortClass::marginBytes).thenComparing(PortClass::qosProfile)
                .thenComparingInt(c -> c.required().speedGbps())
                .thenComparingDouble(c -> c.required().cableLengthM()));
        return out;
    }

    /** The ports whose configured headroom is below what they need. */
    public static List<PortHeadroom> shortfalls(Fabric fabric) {
        return check(fabric).stream().filter(PortHeadroom::shortfall).toList();
    }
}
