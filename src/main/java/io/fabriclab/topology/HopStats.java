package io.fabriclab.topology;

import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import io.fabriclab.model.Fabric;
import io.fabriclab.routing.EcmpPathCounter;
import io.fabriclab.routing.NicPairClass;
import io.fabriclab.routing.Routing;

/**
 * NIC-to-NIC hop counts: the links a packet traverses on a shortest path, access links included.
 * Two NICs on different switches are (switch-to-switch hops + 2) apart; two NICs on one switch 2.
 * Computed per pair of edge switches and weighted by their NIC counts, over ordered pairs of
 * distinct NICs (as {@link EcmpPathCounter}). Unreachable pairs are counted apart and left out of
 * the distribution, the mean and the diameter.
 *
 * @param nicPairs        ordered pairs of distinct connected NICs
 * @param unreachablePairs pairs with no path
 * @param diameter        the largest hop count over reachable pairs (0 when there is none)
 * @param mean            mean hops over reachable pairs
 * @param histogram       hops to number of NIC pairs
 * @param byClass         the histogram per pair class
 */
public record HopStats(long nicPairs, long unreachablePairs, int diameter, double mean,
                       SortedMap<Integer, Long> histogram, Map<NicPairClass, SortedMap<Integer, Long>> byClass) {

    public static HopStats of(Fabric fabric) {
        return of(EcmpPathCounter.of(Routing.compute(fabric)));
    }

    public static HopStats of(EcmpPathCounter counter) {
        Map<Integer, Long> hist = new HashMap<>();
        Map<NicPairClass, Map<Integer, Long>> classes = new EnumMap<>(NicPairClass.class);
        long pairs = 0;
        long unreachable = 0;
        int m = counter.edgeSwitchCount();
        for (int i = 0; i < m; i++) {
            int si = counter.edgeSwitchIndex(i);
            for (int j = 0; j < m; j++) {
                long weight = i == j ? (long) counter.nicCount(i) * (counter.nicCount(i) - 1)
                        : (long) counter.nicCount(i) * counter.nicCount(j);
                if (weight == 0) {
                    continue;
                }
                pairs += weight;
                int d = counter.distances(j)[si];
                if (d == Routing.UNREACHABLE) {
                    unreachable += weight;
                    continue;
                }
                int hops = d + 2;
                hist.merge(hops, weight, Long::sum);
                classes.computeIfAbsent(NicPairClass.of(counter.edgeSwitch(i), counter.edgeSwitch(j)),
                        k -> new HashMap<>()).merge(hops, weight, Long::sum);
            }
        }
        TreeMap<Integer, Long> h = new TreeMap<>(hist);
        double sum = 0;
        long reachable = 0;
        for (Map.Entry<Integer, Long> en : h.entrySet()) {
            sum += (double) en.getKey() * en.getValue();
            reachable += en.getValue();
        }
        Map<NicPairClass, SortedMap<Integer, Long>> by = new EnumMap<>(NicPairClass.class);
        classes.forEach((k, v) -> by.put(k, Collections.unmodifiableSortedMap(new TreeMap<>(v))));
        return new HopStats(pairs, unreachable, h.isEmpty() ? 0 : h.lastKey(), reachable == 0 ? 0 : sum / reachable,
                Collections.unmodifiableSortedMap(h), Collections.unmodifiableMap(by));
    }
}
