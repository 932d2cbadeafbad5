package io.fabriclab.model;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The physical medium of a link. Copper (DAC) is passive and short; optics need a transceiver at
 * each end. Reach limits follow common 400G/800G practice: DAC up to 3 m, AOC up to 30 m,
 * multimode (SR) optics up to 100 m, single-mode (DR/FR) beyond.
 */
public enum CableType {
    DAC("dac", false, 3),
    AOC("aoc", true, 30),
    MMF("mmf", true, 100),
    SMF("smf", true, 2000);

    private final String jsonName;
    private final boolean optical;
    private final double maxReachM;

    CableType(String jsonName, boolean optical, double maxReachM) {
        this.jsonName = jsonName;
        this.optical = optical;
        this.maxReachM = maxReachM;
    }

    public String jsonName() {
        return jsonName;
    }

    /** True when the link needs optics (a transceiver or an active optical cable). */
    public boolean optical() {
        return optical;
    }

    public double maxReachM() {
        return maxReachM;
    }

    /** The cheapest medium that reaches the given length: DAC, then multimode, then single-mode. */
    public static CableType forLength(double lengthM) {
        if (lengthM <= DAC.maxReachM) {
            return DAC;
        }
        if (lengthM <= MMF.maxReachM) {
            return MMF;
        }
        return SMF;
    }

    public static Optional<CableType> fromJsonName(String name) {
        if (name == null) {
            return Optional.empty();
        }
        String n = name.toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(t -> t.jsonName.equals(n)).findFirst();
    }

    public static String allowedNames() {
        return String.join(", ", Arrays.stream(values()).map(CableType::jsonName).toList());
    }

    @Override
    public String toString() {
        return jsonName;
    }
}
