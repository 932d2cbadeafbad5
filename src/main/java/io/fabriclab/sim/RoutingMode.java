package io.fabriclab.sim;

import java.util.Arrays;
import java.util.Locale;

/**
 * How a switch picks among the equal-cost next hops of a data packet (SIMULATION.md, Routing).
 * Control frames (ACK, NAK, CNP) always follow the flow's ECMP path.
 */
public enum RoutingMode {
    /** Per-flow hash of the 5-tuple: every packet of a queue pair takes one path (collisions possible). */
    ECMP("ecmp"),
    /** Random packet spraying (Dixit et al., INFOCOM 2013): every packet picks a next hop at random. */
    SPRAY("spray"),
    /**
     * Flowlet switching as LetFlow (Vanini et al., NSDI 2017): a flow keeps its next hop while its
     * packets come closer together than the flowlet gap; after a longer pause it picks at random.
     */
    FLOWLET("flowlet"),
    /**
     * Adaptive routing: every packet takes the next hop whose egress queue holds the fewest bytes
     * (ties broken at random), the per-packet load balancing of InfiniBand and Spectrum-X switches.
     */
    ADAPTIVE("adaptive");

    private final String jsonName;

    RoutingMode(String jsonName) {
        this.jsonName = jsonName;
    }

    public String jsonName() {
        return jsonName;
    }

    public static RoutingMode fromJsonName(String s) {
        for (RoutingMode m : values()) {
            if (m.jsonName.equals(s.toLowerCase(Locale.ROOT))) {
                return m;
            }
        }
        return null;
    }

    public static String allowedNames() {
        return String.join(", ", Arrays.stream(values()).map(RoutingMode::jsonName).toList());
    }
}
