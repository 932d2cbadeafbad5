package io.fabriclab.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.fabriclab.model.Fabric;

/**
 * A collective over {@code n} ranks (NICs, in the order given: callers order rings rail-aware), as
 * NCCL runs it and nccl-tests measures it. {@code bytes} is S as nccl-tests defines it: the buffer
 * of an all-reduce, the output of an all-gather, the input of a reduce-scatter, the data each rank
 * sends in an all-to-all.
 * <ul>
 * <li>ring all-reduce: 2(n-1) steps (reduce-scatter then all-gather); busbw = algbw 2(n-1)/n;</li>
 * <li>ring reduce-scatter and ring all-gather: n-1 steps; busbw = algbw (n-1)/n;</li>
 * <li>all-to-all: every rank sends S/n to each other rank at once; busbw = algbw (n-1)/n.</li>
 * </ul>
 * In a ring, every step moves ceil(S/n) from each rank to the next; a rank's step k+1 starts when
 * its own step-k send is through and its predecessor's step-k chunk has arrived. Flows are
 * labelled "KIND:NAME" (e.g. "allreduce:grad") so results report completion time, algbw = S/t and
 * busbw.
 */
public record Collective(Kind kind, String name, List<String> ranks, long bytes, long startPs, int priority)
        implements Workload {

    public enum Kind {
        ALL_REDUCE("allreduce"), REDUCE_SCATTER("reducescatter"), ALL_GATHER("allgather"), ALL_TO_ALL("alltoall");

        private final String jsonName;

        Kind(String jsonName) {
            this.jsonName = jsonName;
        }

        public String jsonName() {
            return jsonName;
        }

        /** nccl-tests' bus bandwidth factor: busbw = algbw * factor. */
        public double busFactor(int n) {
            return this == ALL_REDUCE ? 2.0 * (n - 1) / n : (double) (n - 1) / n;
        }

        /** Total payload of all flows divided by this gives S (with S = n x chunk). */
        public long stepsTimesRanksOverN(int n) {
            return this == ALL_REDUCE ? 2L * (n - 1) : n - 1;
        }

        public static Kind fromJsonName(String s) {
            for (Kind k : values()) {
                if (k.jsonName.equals(s.toLowerCase(Locale.ROOT))) {
                    return k;
                }
            }
            return null;
        }
    }

    public Collective {
        ranks = List.copyOf(ranks);
        if (ranks.size() < 2) {
            throw new IllegalArgumentException(kind.jsonName + " " + name + " needs at least 2 ranks, got " + ranks.size());
        }
        if (ranks.stream().distinct().count() != ranks.size()) {
            throw new IllegalArgumentException(kind.jsonName + " " + name + ": a NIC appears twice");
        }
        if (bytes < ranks.size()) {
            throw new IllegalArgumentException(kind.jsonName + " " + name + ": " + bytes + " B cannot be cut into "
                    + ranks.size() + " chunks");
        }
    }

    /** Ring all-reduce (the most common collective of training). */
    public static Collective allReduce(String name, List<String> ranks, long bytes, long startPs, int priority) {
        return new Collective(Kind.ALL_REDUCE, name, ranks, bytes, startPs, priority);
    }

    /** Bytes of one flow: ceil(S / n). */
    public long chunkBytes() {
        return (bytes + ranks.size() - 1) / ranks.size();
    }

    public String label() {
        return kind.jsonName + ":" + name;
    }

    @Override
    public List<FlowSpec> flows(Fabric fabric) {
        int n = ranks.size();
        long chunk = chunkBytes();
        List<FlowSpec> out = new ArrayList<>();
        if (kind == Kind.ALL_TO_ALL) {
            for (int i = 0; i < n; i++) {
                for (int d = 1; d < n; d++) {
                    int j = (i + d) % n;
                    out.add(new FlowSpec(ranks.get(i), ranks.get(j), chunk, startPs, priority, label(),
                            name + "/" + i + "->" + j, List.of()));
                }
            }
            return out;
        }
        int steps = (int) kind.stepsTimesRanksOverN(n);
        for (int step = 0; step < steps; step++) {
            for (int i = 0; i < n; i++) {
                List<String> after = step == 0 ? List.of() : List.of(id(step - 1, i), id(step - 1, (i - 1 + n) % n));
                out.add(new FlowSpec(ranks.get(i), ranks.get((i + 1) % n), chunk, startPs, priority, label(),
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
        return kind.jsonName + " " + name + " of " + bytes + " B over " + ranks.size() + " ranks";
    }
}
