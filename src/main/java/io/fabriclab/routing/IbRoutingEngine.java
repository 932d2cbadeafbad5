package io.fabriclab.routing;

import java.util.Arrays;
import java.util.Locale;

/**
 * The routing engines of an InfiniBand subnet manager FabricLab computes, after OpenSM's
 * (opensm(8), "Routing"; OpenSM's osm_ucast_mgr.c, osm_ucast_updn.c, osm_ucast_ftree.c): each fills
 * every switch's linear forwarding table, one output port per destination (docs/model.md,
 * InfiniBand routing).
 */
public enum IbRoutingEngine {
    /**
     * OpenSM's default "minhop": per destination, a port on a shortest path, the least used of them
     * on that switch (destinations taken in LID order), which balances destinations over the ports.
     */
    MINHOP("minhop"),
    /**
     * "updn" (Up*-Down*, Schroeder et al., Autonet, IEEE JSAC 1991): switches ranked by hops from
     * the root switches; a route never goes up after it went down, which makes the credit
     * dependencies acyclic (deadlock-free on any topology); least-used port among the shortest
     * such routes.
     */
    UPDN("updn"),
    /**
     * "ftree" (Zahavi et al., OpenSM's fat-tree engine): each destination gets one path down from
     * a top switch, chosen going up from its leaf through the least-loaded up ports in destination
     * order, and every other switch goes up toward that top: destinations spread evenly over the
     * uplinks. On a fabric that is not a fat-tree (no switch tiers) it falls back to minhop, as
     * OpenSM does.
     */
    FTREE("ftree");

    private final String jsonName;

    IbRoutingEngine(String jsonName) {
        this.jsonName = jsonName;
    }

    public String jsonName() {
        return jsonName;
    }

    /** The engine of that name (case-insensitive), or null. */
    public static IbRoutingEngine fromJsonName(String s) {
        for (IbRoutingEngine e : values()) {
            if (e.jsonName.equals(s.toLowerCase(Locale.ROOT))) {
                return e;
            }
        }
        return null;
    }

    public static String allowedNames() {
        return String.join(", ", Arrays.stream(values()).map(IbRoutingEngine::jsonName).toList());
    }
}
