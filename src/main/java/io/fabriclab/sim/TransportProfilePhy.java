package io.fabriclab.sim;

import java.util.List;
import java.util.Optional;

import io.fabriclab.model.Transport;

/**
 * The physical layer under a link speed: lanes, line code, FEC and signalling rate, for Ethernet
 * (IEEE 802.3) and InfiniBand (IBTA vol. 2). The link speed a fabric names ("400G") is the data
 * rate above this layer for both families: the line code and FEC are carried by a signalling rate
 * higher than the data rate by exactly their overhead, so they cost no payload bandwidth; only
 * per-packet framing does ({@link TransportProfile#payloadEfficiency}).
 *
 * @param family          "Ethernet" or "InfiniBand"
 * @param speedGbps       the data rate the fabric names
 * @param name            the standard's name for the rate, e.g. 400GBASE-R or NDR 4x
 * @param lanes           electrical lanes
 * @param lineCode        line code and FEC, e.g. "64b/66b, 256b/257b transcode, RS(544,514) FEC"
 * @param signallingGbps  total signalling rate over all lanes, Gb/s
 */
public record TransportProfilePhy(String family, int speedGbps, String name, int lanes, String lineCode,
                                  double signallingGbps) {

    private static final String RS544 = "64b/66b, 256b/257b transcode, RS(544,514) FEC";

    /**
     * Ethernet: IEEE 802.3 clauses 82 (100GBASE-R PCS, 64b/66b), 91 (RS(528,514) FEC, 256b/257b
     * transcode keeps 25.78125 Gb/s per lane), 119 and 172 (200/400/800GBASE-R: RS(544,514) over
     * 53.125 or 106.25 Gb/s per lane). InfiniBand: IBTA vol. 2 (EDR 25.78125 Gb/s per lane 64b/66b;
     * HDR 53.125 Gb/s per lane PAM4 with RS-FEC; NDR 106.25 and XDR 212.5 Gb/s per lane), four lanes
     * per 4x port.
     */
    public static final List<TransportProfilePhy> TABLE = List.of(
            new TransportProfilePhy("Ethernet", 100, "100GBASE-R (4 lanes)", 4, "64b/66b, 256b/257b transcode, RS(528,514) FEC", 103.125),
            new TransportProfilePhy("Ethernet", 200, "200GBASE-R (4 lanes)", 4, RS544, 212.5),
            new TransportProfilePhy("Ethernet", 400, "400GBASE-R (8 lanes)", 8, RS544, 425),
            new TransportProfilePhy("Ethernet", 800, "800GBASE-R (8 lanes)", 8, RS544, 850),
            new TransportProfilePhy("InfiniBand", 100, "EDR 4x", 4, "64b/66b", 103.125),
            new TransportProfilePhy("InfiniBand", 200, "HDR 4x", 4, RS544, 212.5),
            new TransportProfilePhy("InfiniBand", 400, "NDR 4x", 4, RS544, 425),
            new TransportProfilePhy("InfiniBand", 800, "XDR 4x", 4, RS544, 850));

    /** The physical layer of a transport at a speed; RoCEv2 and Ultra Ethernet both run on Ethernet. */
    public static Optional<TransportProfilePhy> of(Transport t, int speedGbps) {
        String family = t == Transport.INFINIBAND ? "InfiniBand" : "Ethernet";
        return TABLE.stream().filter(p -> p.family.equals(family) && p.speedGbps == speedGbps).findFirst();
    }

    /** Signalling bits per data bit: the line code's and FEC's overhead (1.0625 for RS(544,514) rates). */
    public double overheadFactor() {
        return signallingGbps / speedGbps;
    }
}
