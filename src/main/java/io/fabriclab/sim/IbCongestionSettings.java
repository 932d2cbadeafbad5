package io.fabriclab.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * The parameters of InfiniBand congestion control (IBTA InfiniBand Architecture Specification
 * vol. 1, annex A10), as a subnet manager installs them: the switches' SwitchCongestionSetting
 * (threshold, marking rate, packet size), the HCAs' CACongestionSetting entry of the service level
 * (CCTI_Timer, CCTI_Increase, CCTI_Min) and the HCAs' CongestionControlTable (CCT). The names and
 * ranges are OpenSM's options ({@code cc_sw_cong_setting_*}, {@code cc_ca_cong_setting_*},
 * {@code cc_cct}; opensm.conf, {@code osm_subnet.c}); docs/model.md, InfiniBand congestion
 * control, gives every default's source and how the simulator applies each field.
 *
 * @param threshold         switch threshold, 0 (never mark) to 15 (most aggressive), the 4-bit
 *                          Threshold of the SwitchCongestionSetting; the simulator marks a port's
 *                          VL once its egress queue exceeds (16 - threshold) / 16 of the VL buffer
 *                          (the mapping to buffer occupancy is left to the switch by the spec)
 * @param markingRate       eligible packets left unmarked between two marked ones (OpenSM: "mean
 *                          number of packets between markings"); 0 marks every eligible packet
 * @param packetSizeCredits packets shorter than this many 64-byte credits are never marked
 * @param cctiIncrease      added to a flow's CCTI for every BECN it receives
 * @param cctiTimer         the CCTI falls by 1 every this many 1.024 us (the spec's unit); 0 keeps
 *                          it where BECNs put it (never decreases)
 * @param cctiMin           the lowest CCTI, where every flow starts: a floor on the injection delay
 * @param cct               the Congestion Control Table: entry i (CCTI i) as shift << 14 |
 *                          multiplier (2 + 14 bits, as on the wire); CCTI_Limit is its size - 1
 */
public record IbCongestionSettings(int threshold, int markingRate, int packetSizeCredits, int cctiIncrease,
                                   int cctiTimer, int cctiMin, List<Integer> cct) {

    /** CCTI_Timer's unit: 1.024 us (IBTA vol. 1 annex A10; the Linux hfi1 driver's "units of 1.024 usec"). */
    public static final long TIMER_UNIT_PS = 1_024_000;
    /** Largest CCT the simulator takes: 31 blocks of 64 entries (the Linux IB drivers' IB_CC_TABLE_CAP_DEFAULT 31). */
    public static final int MAX_CCT_ENTRIES = 31 * 64;
    /** Entries of the default CCT: 128 (CCTI_Limit 127), two 64-entry blocks. */
    public static final int DEFAULT_CCT_ENTRIES = 128;
    /** Shift of every default CCT entry: a step is 1/8 of a full packet's time (delay = (T >> 3) x multiplier). */
    public static final int DEFAULT_CCT_SHIFT = 3;

    public IbCongestionSettings {
        check(threshold, 0, 15, "threshold");
        check(markingRate, 0, 0xFFFF, "markingRate");
        check(packetSizeCredits, 0, 0xFF, "packetSizeCredits");
        check(cctiIncrease, 0, 0xFF, "cctiIncrease");
        check(cctiTimer, 0, 0xFFFF, "cctiTimer");
        cct = List.copyOf(cct);
        if (cct.isEmpty() || cct.size() > MAX_CCT_ENTRIES) {
            throw new IllegalArgumentException("a CCT of 1 to " + MAX_CCT_ENTRIES + " entries, not " + cct.size());
        }
        for (int e : cct) {
            if (e < 0 || e > 0xFFFF) {
                throw new IllegalArgumentException("CCT entry " + e + " is not shift (2 bits) << 14 | multiplier (14 bits)");
            }
        }
        check(cctiMin, 0, cct.size() - 1, "cctiMin (at most CCTI_Limit, the CCT's last index)");
    }

    private static void check(int v, int lo, int hi, String what) {
        if (v < lo || v > hi) {
            throw new IllegalArgumentException("InfiniBand congestion control " + what + " " + v + " is outside " + lo
                    + "-" + hi);
        }
    }

    /**
     * The defaults (docs/model.md, InfiniBand congestion control, says why each): threshold 15
     * (marking once a port's VL queue exceeds 1/16 of its VL buffer, 8 KiB of 128 KiB), every
     * eligible packet marked, no minimum size, CCTI_Increase 1, CCTI_Timer 3 (3.072 us a step
     * down), CCTI_Min 0, and a linear CCT of 128 entries: CCTI i delays a flow's packets by
     * i / 8 of a full packet's time, so it sends at 8 / (8 + i) of its line rate (CCTI 8: half,
     * CCTI 56: an eighth, CCTI 127: 5.9 %).
     */
    public static IbCongestionSettings defaults() {
        return new IbCongestionSettings(15, 0, 0, 1, 3, 0, linearCct(DEFAULT_CCT_ENTRIES, DEFAULT_CCT_SHIFT));
    }

    /** A CCT of {@code entries} entries whose entry i is shift {@code shift}, multiplier i. */
    public static List<Integer> linearCct(int entries, int shift) {
        List<Integer> out = new ArrayList<>(entries);
        for (int i = 0; i < entries; i++) {
            out.add(entry(shift, i));
        }
        return out;
    }

    /** One CCT entry: shift (0-3) in bits 15-14, multiplier (0-16383) in bits 13-0 (annex A10 CongestionControlTableEntry). */
    public static int entry(int shift, int multiplier) {
        if (shift < 0 || shift > 3 || multiplier < 0 || multiplier > 0x3FFF) {
            throw new IllegalArgumentException("a CCT entry is shift 0-3 : multiplier 0-16383, not " + shift + ":"
                    + multiplier);
        }
        return shift << 14 | multiplier;
    }

    /** CCTI_Limit: the largest CCTI, the CCT's last index (OpenSM sets it to the entries it installs - 1). */
    public int cctiLimit() {
        return cct.size() - 1;
    }

    /**
     * The injection delay of CCTI {@code ccti}, ps, for a port whose largest packet takes
     * {@code maxPacketPs} on its wire: (maxPacketPs >> shift) x multiplier (the delay in units of a
     * full packet's time, as the Linux hfi1 driver's set_link_ipg computes its inter-packet gap).
     */
    public long delayPs(int ccti, long maxPacketPs) {
        int e = cct.get(ccti);
        return (maxPacketPs >> (e >>> 14)) * (e & 0x3FFF);
    }

    /** The queue above which a switch port's VL marks, bytes, for a VL buffer of {@code vlBufferBytes}; MAX_VALUE at threshold 0. */
    public long thresholdBytes(long vlBufferBytes) {
        return threshold == 0 ? Long.MAX_VALUE : vlBufferBytes * (16 - threshold) / 16;
    }

    /** The CCT in OpenSM's {@code cc_cct} notation: "shift:multiplier,shift:multiplier,...". */
    public String cctText() {
        StringBuilder sb = new StringBuilder();
        for (int e : cct) {
            if (!sb.isEmpty()) {
                sb.append(',');
            }
            sb.append(e >>> 14).append(':').append(e & 0x3FFF);
        }
        return sb.toString();
    }

    /** Parses OpenSM's {@code cc_cct} notation, "shift:multiplier" entries separated by commas. */
    public static List<Integer> parseCct(String text) {
        List<Integer> out = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            String[] sm = part.trim().split(":", -1);
            if (sm.length != 2) {
                throw new IllegalArgumentException("CCT entry '" + part.trim() + "' is not shift:multiplier");
            }
            int shift;
            int mult;
            try {
                shift = Integer.parseInt(sm[0].trim());
                mult = Integer.parseInt(sm[1].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("CCT entry '" + part.trim() + "' is not shift:multiplier (integers)");
            }
            out.add(entry(shift, mult));
        }
        return out;
    }
}
