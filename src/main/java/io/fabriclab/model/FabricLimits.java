package io.fabriclab.model;

/**
 * The limits of a fabric FabricLab reads (docs/format.md), in one place: the fabric file reader
 * refuses a file past them, and the generators, {@code convert}, the editor's templates and Save
 * check them before building or writing, so FabricLab never writes a fabric it cannot read back.
 */
public final class FabricLimits {
    /** Devices in one fabric. */
    public static final int MAX_DEVICES = 1_000_000;
    /** Links in one fabric. */
    public static final int MAX_LINKS = 4_000_000;
    /** Ports of one device (the largest switch ASICs have 512 SerDes lanes; this leaves room for breakouts). */
    public static final int MAX_PORTS_PER_DEVICE = 4096;
    /** Characters of a device id or port name (a link id may have three times as many). */
    public static final int MAX_ID_CHARS = 256;
    /** Longest cable, metres: 100 km is beyond any data-centre hall (DCI optics reach 80-120 km). */
    public static final double MAX_CABLE_M = 100_000;
    /** Largest absolute diagram coordinate (x or y). */
    public static final double MAX_COORDINATE = 1e9;

    private FabricLimits() {
    }

    /**
     * Checks the size of a fabric about to be generated, before anything is built, and names
     * what is too big. Counts are longs so that products of options cannot overflow.
     *
     * @param devices        devices it would have
     * @param links          links it would have
     * @param portsPerDevice ports of its largest device
     * @throws IllegalArgumentException naming the count and the limit
     */
    public static void checkSize(long devices, long links, long portsPerDevice) {
        if (portsPerDevice > MAX_PORTS_PER_DEVICE) {
            throw new IllegalArgumentException("a device would have " + portsPerDevice + " ports; FabricLab reads at most "
                    + MAX_PORTS_PER_DEVICE + " per device");
        }
        if (devices > MAX_DEVICES) {
            throw new IllegalArgumentException("the fabric would have " + devices + " devices; FabricLab reads at most "
                    + MAX_DEVICES);
        }
        if (links > MAX_LINKS) {
            throw new IllegalArgumentException("the fabric would have " + links + " links; FabricLab reads at most "
                    + MAX_LINKS);
        }
    }

    /** Checks a cable length against what the reader accepts (above 0, at most {@link #MAX_CABLE_M}). */
    public static void checkCableLength(String name, double m) {
        if (!(m > 0) || !(m <= MAX_CABLE_M)) {
            throw new IllegalArgumentException(name + " must be a length in metres above 0 and at most "
                    + (long) MAX_CABLE_M + ", was " + m);
        }
    }
}
