package io.fabriclab.workload;

import java.util.ArrayList;
import java.util.List;

import io.fabriclab.model.Fabric;

/**
 * Ring all-reduce as NCCL runs it over {@code n} ranks: the buffer of {@code bytes} is cut into n
 * chunks; in 2(n-1) steps (n-1 of reduce-scatter, n-1 of all-gather) every rank sends one chunk
 * to the next rank in the ring. A rank's step k+1 starts when its own step-k send is through and
 * the chunk of step k from its predecessor has arrived. Ranks are in the order given (callers
 * order them rail-aware). Flows are labelled "allreduce:NAME" so results report the collective's
 * completion time, algorithm bandwidth S/t and bus bandwidth algbw * 2(n-1)/n (nccl-tests).
 */
public record RingAllReduce(String name, List<String> ranks, long bytes, long startPs, int priority) implements Workload {
    public RingAllReduce {
        ranks = List.copyOf(ranks);
        if (ranks.size() < 2) {
            throw new IllegalArgumentException("all-reduce " + name + " needs at least 2 ranks, got " + ranks.size());
        }
        if (ranks.stream().distinct().count() != ranks.size()) {
            throw new IllegalArgumentException("all-reduce " + name + ": a NIC appears twice in the ring");
        }
        if (bytes < ranks.size()) {
            throw new IllegalArgumentException("all-reduce " + name + ": " + bytes + " B cannot be cut into " + ranks.size() + " chunks");
        }
    }

    /** Bytes each step moves per rank: ceil(S / n). */
    public long chunkBytes() {
        return (bytes + ranks.size() - 1) / ranks.size();
    }

    @Override
    public List<FlowSpec> flows(Fabric fabric) {
        int n = ranks.size();
        long chunk = chunkBytes();
        String label = "allreduce:" + name;
        List<FlowSpec> out = new ArrayList<>(2 * (n - 1) * n);
        for (int step = 0; step < 2 * (n - 1); step++) {
            for (int i = 0; i < n; i++) {
                List<String> after = step == 0 ? List.of()
                        : List.of(id(step - 1, i), id(step - 1, (i - 1 + n) % n));
                out.add(new FlowSpec(ranks.get(i), ranks.get((i + 1) % n), chunk, startPs, priority, label,
                        id(step, i), after));
            }
        }
        return out;
    }

    private String id(int step, int rank) {
        return name + "/" + step + "/" + rank;
    }

    @Override
    public String describe() {
        return "ring all-reduce " + name + " of " + bytes + " B over " + ranks.size() + " ranks";
    }
}
