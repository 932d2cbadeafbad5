package io.fabriclab.model;

import java.util.Arrays;

/**
 * Units used everywhere: time in picoseconds ({@code long}), sizes in bytes ({@code long}), rates
 * in bits per second ({@code long}). Link speeds in the model are whole Gb/s.
 */
public final class Units {
    public static final long PS_PER_NS = 1_000L;
    public static final long PS_PER_US = 1_000_000L;
    public static final long PS_PER_MS = 1_000_000_000L;
    public static final long PS_PER_S = 1_000_000_000_000L;
    public static final long BITS_PER_GBIT = 1_000_000_000L;

    /** Link speeds a port or link may have, in Gb/s. */
    private static final int[] ALLOWED_SPEEDS_GBPS = {10, 25, 40, 50, 100, 200, 400, 800, 1600};

    /** Light in fibre or copper: 5 ns per metre (2.0e8 m/s), in picoseconds per metre. */
    public static final long PROPAGATION_PS_PER_M = 5_000L;

    private Units() {
    }

    public static boolean isAllowedSpeed(int gbps) {
        return Arrays.binarySearch(ALLOWED_SPEEDS_GBPS, gbps) >= 0;
    }

    public static String allowedSpeeds() {
        return String.join(", ", Arrays.stream(ALLOWED_SPEEDS_GBPS).mapToObj(s -> s + "G").toList());
    }

    public static long gbpsToBps(int gbps) {
        return gbps * BITS_PER_GBIT;
    }

    /**
     * Time to put {@code bytes} on a wire of {@code rateBps}: bytes * 8 * 1e12 / rate, rounded up
     * to the next picosecond so that back-to-back packets never overlap.
     */
    public static long serializationPs(long bytes, long rateBps) {
        if (bytes < 0 || rateBps <= 0) {
            throw new IllegalArgumentException("bytes must be >= 0 and rate > 0: " + bytes + " B at " + rateBps + " b/s");
        }
        long bits = bytes * 8L;
        if (bits <= Long.MAX_VALUE / PS_PER_S) {
            return ceilDiv(bits * PS_PER_S, rateBps);
        }
        // Above ~1.1 MB the product overflows a long; this is never the per-packet path.
        java.math.BigInteger[] qr = java.math.BigInteger.valueOf(bits).multiply(java.math.BigInteger.valueOf(PS_PER_S))
                .divideAndRemainder(java.math.BigInteger.valueOf(rateBps));
        return qr[0].longValueExact() + (qr[1].signum() > 0 ? 1 : 0);
    }

    /** Propagation delay of a cable of the given length, in picoseconds. */
    public static long propagationPs(double lengthM) {
        return Math.round(lengthM * PROPAGATION_PS_PER_M);
    }

    /** Parses "400G", "400", "400g", "1.6T" into Gb/s; returns -1 when it cannot. */
    public static int parseSpeedGbps(String text) {
        if (text == null) {
            return -1;
        }
        String t = text.trim().toUpperCase(java.util.Locale.ROOT);
        try {
            if (t.endsWith("T")) {
                return (int) Math.round(Double.parseDouble(t.substring(0, t.length() - 1)) * 1000);
            }
            if (t.endsWith("G")) {
                t = t.substring(0, t.length() - 1);
            }
            return Integer.parseInt(t);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static long ceilDiv(long a, long b) {
        return -Math.floorDiv(-a, b);
    }
}
