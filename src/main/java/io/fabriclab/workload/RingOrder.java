package io.fabriclab.workload;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;

/**
 * How a collective orders its ranks into a ring.
 * <ul>
 * <li>{@link #RAIL_AWARE} (the default of scenario files): ranks grouped by the leaf their NIC
 * attaches to, leaves in fabric order, ranks of one leaf in the order given. On a rail-optimized
 * cluster the leaf is the rail, so consecutive ranks share a rail switch and only the hop from one
 * rail's group to the next crosses a spine, as NCCL builds its rings there.</li>
 * <li>{@link #AS_GIVEN}: the order given (or fabric order when no ranks are listed): the naive ring
 * to compare with; on a rail-optimized cluster in server order every hop changes rail.</li>
 * </ul>
 */
public enum RingOrder {
    RAIL_AWARE("rail-aware"), AS_GIVEN("as-given");

    private final String jsonName;

    RingOrder(String jsonName) {
        this.jsonName = jsonName;
    }

    public String jsonName() {
        return jsonName;
    }

    public static RingOrder fromJsonName(String s) {
        for (RingOrder o : values()) {
            if (o.jsonName.equalsIgnoreCase(s)) {
                return o;
            }
        }
        return null;
    }

    /** The ranks in ring order on {@code fabric}. */
    public List<String> order(Fabric fabric, List<String> ranks) {
        if (this == AS_GIVEN) {
            return ranks;
        }
        Map<Device, Integer> leafOrder = new HashMap<>();
        int i = 0;
        for (Device d : fabric.switches()) {
            leafOrder.put(d, i++);
        }
        List<String> out = new ArrayList<>(ranks);
        // A stable sort: ranks of one leaf keep the order given.
        out.sort(Comparator.comparingInt(r -> leafIndex(fabric, r, leafOrder)));
        return out;
    }

    private static int leafIndex(Fabric fabric, String nic, Map<Device, Integer> leafOrder) {
        Port p = Nics.resolve(fabric, nic);
        Link l = p == null ? null : fabric.linkAt(p);
        if (l == null) {
            return Integer.MAX_VALUE;
        }
        Device peer = l.other(p.device());
        return leafOrder.getOrDefault(peer, Integer.MAX_VALUE);
    }
}
