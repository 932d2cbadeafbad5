package io.fabriclab.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Port;
import io.fabriclab.model.QosProfile;

/**
 * Ready-made traffic for any fabric, as the live view's run panel offers it: the user picks a kind,
 * a size and a seed, and the preset chooses the NICs. Every flow runs on the RDMA priority.
 */
public enum WorkloadPreset {
    /**
     * N:1 incast: the first server's first NIC receives from the first NIC of {@code fanIn} other
     * servers spread evenly over the fabric (so they sit behind different leaves and the pause
     * spreads through the spines).
     */
    INCAST("incast"),
    /** Ring all-reduce of S bytes, one ring per NIC index (rail-aligned rings, as NCCL builds them on rail fabrics). */
    ALL_REDUCE("all-reduce"),
    /** All-to-all of S bytes per rank over the first NIC of up to 32 servers (MoE style). */
    ALL_TO_ALL("all-to-all"),
    /** Every server's first NIC sends S bytes to another's, a random permutation from the seed. */
    PERMUTATION("permutation"),
    /**
     * Background load: Poisson arrivals at a target share of each NIC's line rate, flow sizes from
     * the web-search distribution (DCTCP), between every connected NIC, on priority 1 (its own
     * class), arriving over the run's duration (500 us when running to completion).
     */
    BACKGROUND("background load");

    /** Priority of the background preset's flows: a class of its own, apart from RDMA traffic on 3. */
    public static final int BACKGROUND_PRIORITY = 1;
    /** Arrival window of the background preset when the run has no duration. */
    public static final long BACKGROUND_DEFAULT_PS = 500_000_000L;

    /** Most ranks of the all-to-all preset (n (n-1) flows). */
    public static final int ALL_TO_ALL_MAX_RANKS = 32;

    private final String label;

    WorkloadPreset(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    @Override
    public String toString() {
        return label;
    }

    /** The flows of this preset on {@code fabric}; {@code bytes} per sender (incast, permutation) or S (collectives). */
    public List<FlowSpec> flows(Fabric fabric, long bytes, int fanIn, long seed) {
        return flows(fabric, bytes, fanIn, seed, 0.5, 0);
    }

    /**
     * As {@link #flows(Fabric, long, int, long)}; {@code load} (0..1] and {@code durationPs} (0: the
     * default window) shape the background preset.
     */
    public List<FlowSpec> flows(Fabric fabric, long bytes, int fanIn, long seed, double load, long durationPs) {
        List<String> first = firstNics(fabric);
        if (first.size() < 2) {
            throw new IllegalArgumentException("the fabric needs at least two servers with a connected NIC, has "
                    + first.size());
        }
        int prio = QosProfile.RDMA_PRIORITY;
        return switch (this) {
            case INCAST -> {
                int n = Math.max(1, Math.min(fanIn, first.size() - 1));
                List<String> senders = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    senders.add(first.get(1 + (int) Math.round(i * (first.size() - 2) / (double) Math.max(1, n - 1))));
                }
                yield new Incast(senders.stream().distinct().toList(), first.get(0), bytes, 0, prio).flows(fabric);
            }
            case ALL_REDUCE -> {
                List<FlowSpec> out = new ArrayList<>();
                for (Map.Entry<Integer, List<String>> rail : nicsByIndex(fabric).entrySet()) {
                    if (rail.getValue().size() >= 2) {
                        out.addAll(Collective.allReduce("rail" + rail.getKey(), rail.getValue(), bytes, 0, prio)
                                .flows(fabric));
                    }
                }
                yield out;
            }
            case ALL_TO_ALL -> new Collective(Collective.Kind.ALL_TO_ALL, "a2a",
                    first.subList(0, Math.min(ALL_TO_ALL_MAX_RANKS, first.size())), bytes, 0, prio).flows(fabric);
            case PERMUTATION -> new Permutation(first, bytes, 0, prio, seed).flows(fabric);
            case BACKGROUND -> new PoissonBackground(List.of(), FlowSizeDistribution.shipped("websearch"), load, 0,
                    durationPs > 0 ? durationPs : BACKGROUND_DEFAULT_PS, BACKGROUND_PRIORITY, seed, "background")
                    .flows(fabric);
        };
    }

    /** The first connected NIC port of every server, in fabric order. */
    static List<String> firstNics(Fabric fabric) {
        List<String> out = new ArrayList<>();
        for (Device s : fabric.servers()) {
            for (Port p : s.ports()) {
                if (fabric.linkAt(p) != null) {
                    out.add(p.ref());
                    break;
                }
            }
        }
        return out;
    }

    /** Connected NIC ports grouped by NIC index (rail), servers in fabric order. */
    static Map<Integer, List<String>> nicsByIndex(Fabric fabric) {
        Map<Integer, List<String>> out = new TreeMap<>();
        for (Device s : fabric.servers()) {
            int k = 0;
            for (Port p : s.ports()) {
                if (fabric.linkAt(p) != null) {
                    int idx = p.nic() != null ? p.nic() : k;
                    out.computeIfAbsent(idx, x -> new ArrayList<>()).add(p.ref());
                    k++;
                }
            }
        }
        return out;
    }
}
