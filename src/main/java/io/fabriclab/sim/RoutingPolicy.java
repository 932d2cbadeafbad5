package io.fabriclab.sim;

import io.fabriclab.model.Units;

/**
 * The routing mode of a run and its parameters.
 *
 * @param mode                 how switches choose among equal-cost next hops
 * @param flowletGapPs         {@link RoutingMode#FLOWLET}: a pause longer than this starts a new flowlet
 * @param reorderWindowPackets with a per-packet mode the receiving NIC places packets out of order
 *                             (as the RNICs built for spraying do) and asks for go-back-N only when a
 *                             packet arrives this many PSNs or more ahead of the first missing one
 *                             (1-65536): the reorder window its placement bitmap tracks
 */
public record RoutingPolicy(RoutingMode mode, long flowletGapPs, int reorderWindowPackets) {
    /** Default flowlet gap: 50 us, well above the path-delay differences of a two- or three-tier fabric at 100G+. */
    public static final long DEFAULT_FLOWLET_GAP_PS = 50 * Units.PS_PER_US;
    /** Default reorder window: 256 packets (1 MB at a 4 KB MTU, about 85 us at 100G). */
    public static final int DEFAULT_REORDER_WINDOW = 256;

    public RoutingPolicy {
        if (mode == null) {
            throw new IllegalArgumentException("routing mode is required");
        }
        if (flowletGapPs <= 0) {
            throw new IllegalArgumentException("flowlet gap must be > 0");
        }
        if (reorderWindowPackets < 1 || reorderWindowPackets > 65536) {
            throw new IllegalArgumentException("reorder window must be 1-65536 packets, got " + reorderWindowPackets);
        }
    }

    public static RoutingPolicy of(RoutingMode mode) {
        return new RoutingPolicy(mode, DEFAULT_FLOWLET_GAP_PS, DEFAULT_REORDER_WINDOW);
    }

    public static RoutingPolicy ecmp() {
        return of(RoutingMode.ECMP);
    }

    /** Whether packets of one flow can take different paths (the receiver then tolerates reordering). */
    public boolean perPacket() {
        return mode != RoutingMode.ECMP;
    }
}
