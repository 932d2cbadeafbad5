package io.fabriclab.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.fabriclab.model.Fabric;

/**
 * A collective over {@code n} ranks (NICs), as NCCL runs it and nccl-tests measures it.
 * {@code bytes} is S as nccl-tests defines it: the buffer of an all-reduce, the output of an
 * all-gather, the input of a reduce-scatter, the data each rank sends in an all-to-all.
 * <ul>
 * <li>ring all-reduce: 2(n-1) steps (reduce-scatter then all-gather); busbw = algbw 2(n-1)/n;</li>
 * <li>ring reduce-scatter and ring all-gather: n-1 steps; busbw = algbw (n-1)/n;</li>
 * <li>all-to-all: every rank sends S/n to each other rank at once (one step); busbw = algbw (n-1)/n.</li>
 * </ul>
 * With {@code channels} c > 1 the buffer is cut into c parts (S/c, the first S mod c one byte
 * larger), each moved by its own ring of queue pairs (NCCL's channels: separate QPs, so separate
 * UDP source ports and ECMP hashes). In a ring, every step moves ceil(S_c/n) from each rank to the
 * next; a rank's step k+1 starts when its own step-k send is through and its predecessor's step-k
 * chunk has arrived. The ring follows {@code order} ({@link RingOrder}). Flows are labelled
 * "KIND:NAME" (e.g. "allreduce:grad"); flows are listed channel by channel, step by step, rank by
 * rank, which {@link #stepOf} relies on.
 */
public record Collective(Kind kind, String name, List<String> ranks, long bytes, long startPs, int priority,
                         int channels, RingOrder order) implements Workload {

    public enum Kind {
        ALL_REDUCE("allreduce"), REDUCE_SCATTER("reducescatter"), ALL_GATHER("allgather"), ALL_TO_ALL("alltoall");

        private final String jsonName;

        Kind(String jsonName) {
            this.jsonName = jsonName;
        }

        public String jsonName() {
            return jsonName;
        }

        /** nccl-tests' bus bandwidth factor (doc/PERFORMANCE.md of nccl-tests): busbw = algbw * factor. */
        public double busFactor(int n) {
            return this == ALL_REDUCE ? 2.0 * (n - 1) / n : (double) (n - 1) / n;
        }

        /** Total payload of all flows divided by this gives S (with S = n x chunk). */
        public long stepsTimesRanksOverN(int n) {
            return this == ALL_REDUCE ? 2L * (n - 1) : n - 1;
        }

        /** Ring steps: 2(n-1) for all-reduce, n-1 for reduce-scatter and all-gather, 1 for all-to-all. */
        public int steps(int n) {
            return switch (this) {
                case ALL_REDUCE -> 2 * (n - 1);
                case REDUCE_SCATTER, ALL_GATHER -> n - 1;
                case ALL_TO_ALL -> 1;
            };
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
        if (channels < 1 || channels > 64) {
            throw new IllegalArgumentException(kind.jsonName + " " + name + ": channels must be 1-64, got " + channels);
        }
        if (bytes < (long) ranks.size() * channels) {
            throw new IllegalArgumentException(kind.jsonName + " " + name + ": " + bytes + " B cannot be cut into "
                    + ranks.size() + " chunks per channel over " + channels + " channel(s)");
        }
        if (order == null) {
            order = RingOrder.AS_GIVEN;
        }
    }

    /** One channel, ranks in the order given. */
    public Collective(Kind kind, String name, List<String> ranks, long bytes, long startPs, int priority) {
        this(kind, name, ranks, bytes, startPs, priority, 1, RingOrder.AS_GIVEN);
    }

    /** Ring all-reduce (the most common collective of training), one channel, ranks as given. */
    public static Collective allReduce(String name, List<String> ranks, long bytes, long startPs, int priority) {
        return new Collective(Kind.ALL_REDUCE, name, ranks, bytes, startPs, priority);
    }

    /** Bytes of one flow of channel 0: ceil(S_0 / n). */
    public long chunkBytes() {
        return chunkBytes(0);
    }

    private long channelBytes(int c) {
        return bytes / channels + (c < bytes % channels ? 1 : 0);
    }

    private long chunkBytes(int c) {
        long s = channelBytes(c);
        return (s + ranks.size() - 1) / ranks.size();
    }

    public String label() {
        return kind.jsonName + ":" + name;
    }

    public int steps() {
        return kind.steps(ranks.size());
    }

    /** Number of flows: per channel, n(n-1) for all-to-all, steps x n for a ring. */
    public int flowCount() {
        int n = ranks.size();
        return channels * (kind == Kind.ALL_TO_ALL ? n * (n - 1) : steps() * n);
    }

    /** The step of the {@code i}-th flow of {@link #flows}. */
    public int stepOf(int i) {
        if (kind == Kind.ALL_TO_ALL) {
            return 0;
        }
        int n = ranks.size();
        return (i % (steps() * n)) / n;
    }

    @Override
    public List<FlowSpec> flows(Fabric fabric) {
        List<String> ring = order.order(fabric, ranks);
        int n = ring.size();
        List<FlowSpec> out = new ArrayList<>(flowCount());
        for (int ch = 0; ch < channels; ch++) {
            long chunk = chunkBytes(ch);
            String prefix = channels == 1 ? name + "/" : name + "/c" + ch + "/";
            if (kind == Kind.ALL_TO_ALL) {
                for (int i = 0; i < n; i++) {
                    for (int d = 1; d < n; d++) {
                        int j = (i + d) % n;
                        out.add(new FlowSpec(ring.get(i), ring.get(j), chunk, startPs, priority, label(),
                                prefix + i + "->" + j, List.of()));
                    }
                }
                continue;
            }
            int steps = steps();
            for (int step = 0; step < steps; step++) {
                for (int i = 0; i < n; i++) {
                    List<String> after = step == 0 ? List.of()
                            : List.of(prefix + (step - 1) + "/" + i, prefix + (step - 1) + "/" + ((i - 1 + n) % n));
                    out.add(new FlowSpec(ring.get(i), ring.get((i + 1) % n), chunk, startPs, priority, label(),
                            prefix + step + "/" + i, after));
                }
            }
        }
        return out;
    }

    @Override
    public String describe() {
        return kind.jsonName + " " + name + " of " + bytes + " B over " + ranks.size() + " ranks"
                + (channels > 1 ? ", " + channels + " channels" : "") + (order == RingOrder.RAIL_AWARE ? ", rail-aware" : "");
    }
}
