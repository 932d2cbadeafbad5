package io.fabriclab.workload;

import java.util.ArrayList;
import java.util.List;

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
    /**
     * All-reduce of S bytes over every GPU as NCCL runs it ({@link NcclCollective}, algorithm
     * chosen by its estimate: rings per rail through NVLink, hierarchical or tree).
     */
    ALL_REDUCE("all-reduce"),
    /** All-to-all of S bytes per GPU over the GPUs of up to 32 servers (MoE style), PXN across rails. */
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

    /** Most servers of the all-to-all preset (its transfers grow with the square of the GPUs). */
    public static final int ALL_TO_ALL_MAX_SERVERS = 32;

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
                List<String> nics = incastNics(fabric, fanIn);
                yield new Incast(nics.subList(1, nics.size()), nics.get(0), bytes, 0, prio).flows(fabric);
            }
            case ALL_REDUCE, ALL_TO_ALL -> collective(fabric, bytes).flows(fabric);
            case PERMUTATION -> new Permutation(first, bytes, 0, prio, seed).flows(fabric);
            case BACKGROUND -> new PoissonBackground(List.of(), FlowSizeDistribution.shipped("websearch"), load, 0,
                    durationPs > 0 ? durationPs : BACKGROUND_DEFAULT_PS, BACKGROUND_PRIORITY, seed, "background")
                    .flows(fabric);
        };
    }

    /**
     * The incast's receiver (first) and senders: the first server's first NIC receives from the
     * first NIC of {@code fanIn} other servers spread evenly over the fabric, so the senders sit
     * on other servers (never the receiver's own, whose GPUs would use NVLink) and behind other
     * leaves, and the pause spreads through the spines.
     */
    public static List<String> incastNics(Fabric fabric, int fanIn) {
        List<String> first = firstNics(fabric);
        if (first.size() < 2) {
            throw new IllegalArgumentException("the fabric needs at least two servers with a connected NIC, has "
                    + first.size());
        }
        int n = Math.max(1, Math.min(fanIn, first.size() - 1));
        List<String> out = new ArrayList<>();
        out.add(first.get(0));
        for (int i = 0; i < n; i++) {
            String s = first.get(1 + (int) Math.round(i * (first.size() - 2) / (double) Math.max(1, n - 1)));
            if (!out.contains(s)) {
                out.add(s);
            }
        }
        return out;
    }

    /** The all-reduce or all-to-all of this preset over the fabric's GPUs. */
    public NcclCollective collective(Fabric fabric, long bytes) {
        int servers = this == ALL_TO_ALL ? ALL_TO_ALL_MAX_SERVERS : Integer.MAX_VALUE;
        NcclCollective.Op op = this == ALL_TO_ALL ? NcclCollective.Op.ALL_TO_ALL : NcclCollective.Op.ALL_REDUCE;
        return new NcclCollective(op, label, gpusOfFirstServers(fabric, servers), bytes, NcclCollective.Algorithm.AUTO,
                NcclCollective.DEFAULT_CHANNELS_PER_RAIL, QosProfile.RDMA_PRIORITY);
    }

    /** Every GPU of the first {@code max} servers with a connected NIC, in fabric order. */
    public static List<String> gpusOfFirstServers(Fabric fabric, int max) {
        List<String> out = new ArrayList<>();
        int servers = 0;
        for (Device s : fabric.servers()) {
            if (servers >= max) {
                break;
            }
            if (!Gpus.nics(fabric, s).isEmpty()) {
                servers++;
                for (int k = 0; k < s.gpus(); k++) {
                    out.add(Gpus.ref(s, k));
                }
            }
        }
        return out;
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
}
