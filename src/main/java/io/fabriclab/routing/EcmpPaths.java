package io.fabriclab.routing;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.fabriclab.model.Device;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;

/**
 * Every equal-cost path between two NIC ports, as the union of the links and devices they use
 * (what the editor highlights), with the number of distinct paths. A path is the source NIC's
 * access link, then at each switch any ECMP next hop of {@link Routing#nextHops} toward the
 * destination NIC's switch, then the destination's access link; so the count is the number of
 * distinct next-hop sequences (parallel links count separately, as ECMP hashes over them).
 */
public record EcmpPaths(Port from, Port to, long count, int hops, Set<Link> links, Set<Device> devices) {

    /** The paths from {@code a} to {@code b}; count 0 when either NIC is unconnected or the switches are cut apart. */
    public static EcmpPaths between(Routing routing, Port a, Port b) {
        Set<Link> links = new LinkedHashSet<>();
        Set<Device> devices = new LinkedHashSet<>();
        Link accessA = routing.accessLink(a);
        Link accessB = routing.accessLink(b);
        Device sa = routing.edgeSwitch(a);
        Device sb = routing.edgeSwitch(b);
        if (accessA == null || accessB == null || sa == null || sb == null
                || routing.distance(sa, sb) == Routing.UNREACHABLE) {
            return new EcmpPaths(a, b, 0, -1, Set.of(), Set.of());
        }
        devices.add(a.device());
        links.add(accessA);
        // Walk the shortest-path DAG from sa towards sb; paths(x) = sum over next hops of paths(next).
        java.util.Map<Device, Long> paths = new java.util.HashMap<>();
        paths.put(sa, 1L);
        Deque<Device> frontier = new ArrayDeque<>();
        frontier.add(sa);
        Set<Device> seen = new LinkedHashSet<>();
        seen.add(sa);
        // BFS in order of decreasing distance to sb: every node of one level is complete before the next.
        while (!frontier.isEmpty()) {
            Device at = frontier.poll();
            devices.add(at);
            long here = paths.get(at);
            List<Link> next = routing.nextHops(at, sb);
            for (Link l : next) {
                Device n = l.other(at);
                links.add(l);
                paths.merge(n, here, Long::sum);
                if (seen.add(n)) {
                    frontier.add(n);
                }
            }
        }
        links.add(accessB);
        devices.add(b.device());
        int switchHops = routing.distance(sa, sb);
        return new EcmpPaths(a, b, paths.getOrDefault(sb, 0L), switchHops + 2, links, devices);
    }
}
