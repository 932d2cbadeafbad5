package io.fabriclab.model;

import java.util.Map;
import java.util.TreeMap;

/**
 * Per-speed timing of an Ethernet link's physical layer, in bit times: the peer's response to a
 * PFC frame and the interface (MAC/PHY) delay of one end. A property of the link's speed, so it
 * lives in the model, where both the PFC headroom check ({@code topology.HeadroomCalculator}) and
 * the simulator's PFC response ({@code sim.Pfc}) read it: the two agree by construction.
 *
 * @param speedGbps            the link speed the figures are for
 * @param responseQuanta       the peer's response time in pause quanta (IEEE 802.3 31B.3.7)
 * @param interfaceDelayBits   MAC/PHY delay of one end (transmit plus receive), in bit times
 * @param extrapolated         true when the interface delay or the response is not from a source for
 *                             this speed but carried over from a cited one
 * @param interfaceSource      where {@code interfaceDelayBits} comes from, in a few words
 */
public record PhyTiming(int speedGbps, int responseQuanta, long interfaceDelayBits, boolean extrapolated,
                        String interfaceSource) {

    /** Bit times per pause quantum (IEEE 802.3 31B.2). */
    public static final long BITS_PER_QUANTUM = 512;

    /** Source label of the IEEE 802.3 interface-delay bounds (as tabulated in Cisco's ch. 7). */
    public static final String SOURCE_IEEE = "IEEE 802.3 bound";
    /** Source label of SONiC's per-ASIC mac_phy_delay for NVIDIA Spectrum-1/2/3. */
    public static final String SOURCE_SONIC_SPECTRUM = "SONiC Spectrum mac_phy_delay";

    /**
     * SONiC's ASIC_TABLE mac_phy_delay for MELLANOX-SPECTRUM, -SPECTRUM-2 and -SPECTRUM-3
     * (sonic-buildimage files/build_templates/asic_table.j2: "0.8", in KiB, which
     * cfgmgr/buffer_headroom_mellanox.lua multiplies by 1,024): 819.2 B = 6,553.6 bit times, rounded up.
     * The same figure at every speed those chips run (up to 400G on Spectrum-3).
     */
    public static final long SONIC_SPECTRUM_MAC_PHY_DELAY_BITS = 6_554;

    /**
     * The per-speed table, the one place these constants live.
     * <ul>
     *   <li>Response quanta: IEEE 802.3 31B.3.7 as tabulated in SONiC's buffer_headroom_mellanox.lua
     *       (10G 67, 25G 80, 40G 118, 50G 147, 100G 394, 200G 453, 400G 905, 800G 905); 1.6T has no cited
     *       value: 800G's time, doubled in bits (extrapolated).</li>
     *   <li>Interface delay at 10G 8,192, 25G 6,144, 40G 24,576 and 100G 122,880 bit times: the IEEE 802.3
     *       bounds as given in Cisco's "Congestion Management in Ethernet Storage Networks", ch. 7 (D-Intf).
     *       These are for the PHYs of those speeds; the 100G figure (1.23 us) covers RS-FEC 100G PHYs and
     *       must not be carried to 400G PHYs at constant time.</li>
     *   <li>Interface delay at 50G, 200G and 400G: no IEEE figure in our sources, so the vendor figure
     *       SONiC uses for Spectrum-2/3, which run these speeds ({@link #SONIC_SPECTRUM_MAC_PHY_DELAY_BITS}).
     *       At 800G and 1.6T the same figure is carried over (extrapolated: no cited chip of that table runs
     *       them).</li>
     * </ul>
     */
    public static final Map<Integer, PhyTiming> TIMING = java.util.Collections.unmodifiableMap(new TreeMap<>(Map.of(
            10, new PhyTiming(10, 67, 8_192, false, SOURCE_IEEE),
            25, new PhyTiming(25, 80, 6_144, false, SOURCE_IEEE),
            40, new PhyTiming(40, 118, 24_576, false, SOURCE_IEEE),
            50, new PhyTiming(50, 147, SONIC_SPECTRUM_MAC_PHY_DELAY_BITS, false, SOURCE_SONIC_SPECTRUM),
            100, new PhyTiming(100, 394, 122_880, false, SOURCE_IEEE),
            200, new PhyTiming(200, 453, SONIC_SPECTRUM_MAC_PHY_DELAY_BITS, false, SOURCE_SONIC_SPECTRUM),
            400, new PhyTiming(400, 905, SONIC_SPECTRUM_MAC_PHY_DELAY_BITS, false, SOURCE_SONIC_SPECTRUM),
            800, new PhyTiming(800, 905, SONIC_SPECTRUM_MAC_PHY_DELAY_BITS, true,
                    SOURCE_SONIC_SPECTRUM + ", extrapolated"),
            1600, new PhyTiming(1600, 905 * 2, SONIC_SPECTRUM_MAC_PHY_DELAY_BITS, true,
                    SOURCE_SONIC_SPECTRUM + ", extrapolated"))));

    /** The timing used for a link speed; speeds between table entries use the next higher entry (extrapolated). */
    public static PhyTiming of(int speedGbps) {
        PhyTiming t = TIMING.get(speedGbps);
        if (t != null) {
            return t;
        }
        for (PhyTiming p : TIMING.values()) {
            if (p.speedGbps() >= speedGbps) {
                return new PhyTiming(speedGbps, p.responseQuanta(), p.interfaceDelayBits(), true,
                        p.speedGbps() + "G figures, extrapolated");
            }
        }
        PhyTiming top = TIMING.get(1600);
        return new PhyTiming(speedGbps, top.responseQuanta(), top.interfaceDelayBits(), true,
                "1600G figures, extrapolated");
    }

    /** The peer's response time in bit times (quanta x 512). */
    public long responseBits() {
        return responseQuanta * BITS_PER_QUANTUM;
    }

    /** The peer's response time in picoseconds at this speed (a bit time is 1,000 / G ps). */
    public long responsePs() {
        return responseBits() * 1_000 / speedGbps;
    }

    /** One end's interface delay in picoseconds at this speed. */
    public long interfaceDelayPs() {
        return interfaceDelayBits * 1_000 / speedGbps;
    }
}
