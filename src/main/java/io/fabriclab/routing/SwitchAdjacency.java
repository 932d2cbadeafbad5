package io.fabriclab.routing;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import io.fabriclab.model.Device;
import io.fabriclab.model.Link;

/**
 * The up switch-to-switch links of a {@link Routing} as flat arrays (compressed sparse rows), so
 * that analyses over thousands of switches and tens of thousands of links run on ints rather than
 * on hash lookups. Switch indices are {@link Routing#indexOf}; every link is seen from both ends as
 * two arcs (directed halves), and parallel links are distinct arcs.
 *
 * <p>Immutable once built; the arrays returned are shared, callers must not modify them.
 */
public final class SwitchAdjacency {
    private final Routing routing;
    private final int[] start;
    private final int[] head;
    private final int[] linkOf;
    private final int[] reverse;
    private final Link[] links;
    private final Map<Link, Integer> linkIndex = new IdentityHashMap<>();

    private SwitchAdjacency(Routing routing) {
        this.routing = routing;
        List<Device> switches = routing.switches();
        int n = switches.size();
        List<Link> all = new ArrayList<>();
        start = new int[n + 1];
        int arcs = 0;
        for (int i = 0; i < n; i++) {
            Link[] adj = routing.switchLinks(switches.get(i));
            start[i] = arcs;
            arcs += adj.length;
            for (Link l : adj) {
                if (!linkIndex.containsKey(l)) {
                    linkIndex.put(l, all.size());
                    all.add(l);
                }
            }
        }
        start[n] = arcs;
        links = all.toArray(new Link[0]);
        head = new int[arcs];
        linkOf = new int[arcs];
        reverse = new int[arcs];
        int[] firstArcOfLink = new int[links.length];
        java.util.Arrays.fill(firstArcOfLink, -1);
        for (int i = 0; i < n; i++) {
            Device sw = switches.get(i);
            Link[] adj = routing.switchLinks(sw);
            for (int k = 0; k < adj.length; k++) {
                int arc = start[i] + k;
                int li = linkIndex.get(adj[k]);
                head[arc] = routing.indexOf(adj[k].other(sw));
                linkOf[arc] = li;
                if (firstArcOfLink[li] < 0) {
                    firstArcOfLink[li] = arc;
                } else {
                    reverse[arc] = firstArcOfLink[li];
                    reverse[firstArcOfLink[li]] = arc;
                }
            }
        }
    }

    public static SwitchAdjacency of(Routing routing) {
        return new SwitchAdjacency(routing);
    }

    public Routing routing() {
        return routing;
    }

    public int switchCount() {
        return start.length - 1;
    }

    public int linkCount() {
        return links.length;
    }

    public int arcCount() {
        return head.length;
    }

    /** Arcs leaving switch {@code sw} are {@code arcStart()[sw] .. arcStart()[sw+1]-1}. */
    public int[] arcStart() {
        return start;
    }

    /** The switch index an arc points to. */
    public int[] arcHead() {
        return head;
    }

    /** The link index (into {@link #link(int)}) an arc belongs to. */
    public int[] arcLink() {
        return linkOf;
    }

    /** The opposite direction of each arc (same link, other end). */
    public int[] arcReverse() {
        return reverse;
    }

    /** The switch an arc leaves (a binary search; for hot loops iterate by switch instead). */
    public int arcTail(int arc) {
        int lo = 0;
        int hi = start.length - 2;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (start[mid] <= arc) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    public Link link(int linkIndex) {
        return links[linkIndex];
    }

    /** Index of a switch-to-switch link, or -1 when it is not an up link between up switches. */
    public int indexOf(Link l) {
        Integer i = linkIndex.get(l);
        return i == null ? -1 : i;
    }

    public Device device(int switchIndex) {
        return routing.switches().get(switchIndex);
    }
}
