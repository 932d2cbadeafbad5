package io.fabriclab.io.config;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The switch ASIC family a SONiC config_db.json is written for: the lossless priority group's
 * {@code BUFFER_PROFILE} fields mean different things on each (issue 35 item 23: FabricLab's
 * absolute resume threshold, 800000 B, was written into {@code xon} with {@code size} 120000-320000).
 *
 * <p>Common to both, from SONiC's YANG model sonic-buffer-profile.yang: {@code xoff} is the PG's
 * headroom (SAI XOFF_TH: what still arrives after PAUSE), and PFC resumes "when buffer usage falls
 * to max(xon, buffer_limit - xon_offset)". FabricLab's design pauses at XOFF (the PG's limit:
 * {@code static_th}, or the dynamic limit) and resumes at XON, so the resume hysteresis
 * XOFF - XON is what goes into the profile:
 * <ul>
 * <li>{@link #BROADCOM} (Tomahawk/Trident; sonic-buildimage
 *     device/arista/x86_64-arista_7060_cx32s/Arista-7060CX-32S-Q32/pg_profile_lookup.ini:
 *     {@code size 1248, xon 2288, xoff 165568 (100G, 5 m), xon_offset 2288}): {@code size} is the
 *     PG's guaranteed minimum (the design's per-queue reserve), {@code xon} = {@code xon_offset} =
 *     XOFF - XON (SONiC's own profiles set the two equal), {@code xoff} = headroom.</li>
 * <li>{@link #MELLANOX} (Spectrum; sonic-buildimage
 *     device/mellanox/x86_64-mlnx_msn2700-r0/ACS-MSN2700/pg_profile_lookup.ini:
 *     {@code 100000 5m: size 50176 = xon 19456 + xoff 30720}): {@code xon} = XOFF - XON,
 *     {@code xoff} = headroom and {@code size} = xon + xoff, as every Mellanox profile has it; no
 *     {@code xon_offset} (Mellanox's profiles do not use it).</li>
 * </ul>
 */
public enum SonicAsic {
    BROADCOM("broadcom"),
    MELLANOX("mellanox");

    private final String jsonName;

    SonicAsic(String jsonName) {
        this.jsonName = jsonName;
    }

    public String jsonName() {
        return jsonName;
    }

    public static Optional<SonicAsic> fromName(String s) {
        return Arrays.stream(values()).filter(a -> a.jsonName.equals(s == null ? "" : s.toLowerCase(Locale.ROOT))).findFirst();
    }

    public static String allowedNames() {
        return String.join(", ", Arrays.stream(values()).map(SonicAsic::jsonName).toList());
    }

    @Override
    public String toString() {
        return this == BROADCOM ? "Broadcom (Tomahawk, Trident)" : "NVIDIA Mellanox (Spectrum)";
    }
}
