package io.fabriclab.ui.live;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.fabriclab.sim.SimSnapshot;
import io.fabriclab.workload.Collective;
import io.fabriclab.workload.FlowSpec;

/**
 * A collective's progress at one snapshot, as the dashboard, the collective selection and its
 * chart show it. nccl-tests definitions (doc/PERFORMANCE.md of NVIDIA/nccl-tests, docs/model.md):
 * S is the collective's size; its member flows carry S x {@link Collective.Kind#stepsTimesRanksOverN}
 * in total (a ring all-reduce: 2(n-1) steps x n flows x S/n), so S = their payload / that factor.
 * "So far":
 * algbw = S x (share of the payload delivered in order) / (now - the collective's start), busbw =
 * algbw x 2(n-1)/n for all-reduce and x (n-1)/n for the others. At completion it reaches the
 * figure of the results (whose t ends at the last arrival instead of the snapshot's instant).
 *
 * @param stepsDone ring steps every member flow has completed (all channels); -1 when the flows'
 *                  ids do not name steps (not made by {@link Collective})
 */
public record CollectiveProgress(String label, Collective.Kind kind, int ranks, int steps, int stepsDone,
                                 double bytesDone, long bytesTotal, long startPs, double algbwGBps,
                                 double busbwGBps) {

    /** Share of the member flows' payload delivered in order (0..1). */
    public double fraction() {
        return bytesTotal == 0 ? 0 : bytesDone / bytesTotal;
    }

    /** S as nccl-tests defines it (the all-reduce buffer...), in bytes. */
    public double sizeBytes() {
        return kind == null || ranks < 2 ? Double.NaN : (double) bytesTotal / kind.stepsTimesRanksOverN(ranks);
    }

    /** The progress of collective {@code label} (flow ids {@code members}) at snapshot {@code s}. */
    public static CollectiveProgress of(SimSnapshot s, List<FlowSpec> flows, String label, List<Integer> members) {
        return new Tracker(flows, label, members).at(s);
    }

    /**
     * One collective's members read once (bytes, ring step, ranks, start), then measured at any
     * number of snapshots (the chart evaluates every recorded frame).
     */
    public static final class Tracker {
        private final String label;
        private final Collective.Kind kind;
        private final int[] flows;
        private final long[] bytes;
        private final int[] step;
        private final int steps;
        private final int ranks;
        private final long bytesTotal;
        private final long startPs;
        private final boolean stepsKnown;

        public Tracker(List<FlowSpec> specs, String label, List<Integer> members) {
            this.label = label;
            int colon = label.indexOf(':');
            this.kind = Collective.Kind.fromJsonName(colon < 0 ? label : label.substring(0, colon));
            int m = members.size();
            flows = new int[m];
            bytes = new long[m];
            step = new int[m];
            Set<String> srcs = new HashSet<>();
            Set<Integer> stepSet = new HashSet<>();
            long total = 0;
            long start = Long.MAX_VALUE;
            boolean known = true;
            for (int i = 0; i < m; i++) {
                FlowSpec spec = specs.get(members.get(i));
                flows[i] = members.get(i);
                bytes[i] = spec.bytes();
                total += spec.bytes();
                srcs.add(spec.src());
                start = Math.min(start, spec.startPs());
                // Ids "name/step/rank" or "name/cK/step/rank" (Collective.flows).
                step[i] = stepOf(spec.id());
                known &= step[i] >= 0;
                stepSet.add(step[i]);
            }
            ranks = srcs.size();
            bytesTotal = total;
            startPs = start == Long.MAX_VALUE ? 0 : start;
            stepsKnown = known && kind != null;
            steps = kind == null ? stepSet.size() : kind.steps(ranks);
        }

        /** The collective's label ("allreduce:rail0"). */
        public String label() {
            return label;
        }

        /** The collective's progress at snapshot {@code s}. */
        public CollectiveProgress at(SimSnapshot s) {
            double done = 0;
            boolean[] incomplete = new boolean[Math.max(1, steps)];
            for (int i = 0; i < flows.length; i++) {
                double p = s.flowProgress().get(flows[i]);
                done += p * bytes[i];
                if (p < 1.0 && step[i] >= 0 && step[i] < incomplete.length) {
                    incomplete[step[i]] = true;
                }
            }
            int stepsDone = -1;
            if (stepsKnown) {
                stepsDone = 0;
                while (stepsDone < steps && !incomplete[stepsDone]) {
                    stepsDone++;
                }
                if (kind == Collective.Kind.ALL_TO_ALL) {
                    stepsDone = done >= bytesTotal ? 1 : 0;
                }
            }
            double algbw = Double.NaN;
            double busbw = Double.NaN;
            long elapsed = s.timePs() - startPs;
            if (kind != null && ranks > 1 && elapsed > 0 && bytesTotal > 0) {
                double bigS = (double) bytesTotal / kind.stepsTimesRanksOverN(ranks);
                algbw = bigS * (done / bytesTotal) / (elapsed / 1e12) / 1e9;
                busbw = algbw * kind.busFactor(ranks);
            }
            return new CollectiveProgress(label, kind, ranks, steps, stepsDone, done, bytesTotal, startPs, algbw,
                    busbw);
        }
    }

    /** The ring step of a collective flow id, or -1 ({@code name/step/rank}, {@code name/cK/step/rank}). */
    static int stepOf(String id) {
        // Without split(): a tracker reads every member's id, 260,096 of them for the 4-unit
        // all-reduce, and split's arrays and substrings were most of what the FX thread allocated.
        if (id == null) {
            return -1;
        }
        int last = id.lastIndexOf('/');
        if (last < 0) {
            return -1;
        }
        if (id.indexOf("->", last + 1) >= 0) {
            return 0;
        }
        int before = last == 0 ? -1 : id.lastIndexOf('/', last - 1);
        if (before < 0) {
            return -1;
        }
        try {
            return Integer.parseInt(id, before + 1, last, 10);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** "allreduce:rail0: 43 % (5/14 steps), algbw 12.3, busbw so far 21.5 GB/s". */
    public String text() {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%s: %.0f %%", label, 100 * fraction()));
        if (stepsDone >= 0) {
            sb.append(String.format(Locale.ROOT, " (%d/%d steps)", stepsDone, steps));
        }
        if (!Double.isNaN(busbwGBps)) {
            sb.append(String.format(Locale.ROOT, ", algbw %.1f, busbw so far %.1f GB/s", algbwGBps, busbwGBps));
        }
        return sb.toString();
    }
}
