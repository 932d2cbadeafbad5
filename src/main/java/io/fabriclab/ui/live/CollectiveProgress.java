package io.fabriclab.ui.live;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

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
        double done = 0;
        long bytes = 0;
        long start = Long.MAX_VALUE;
        Set<String> ranks = new HashSet<>();
        // Per step: are all of its flows complete? (ids "name/step/rank" or "name/cK/step/rank").
        Map<Integer, Boolean> stepComplete = new TreeMap<>();
        boolean stepsKnown = true;
        for (int f : members) {
            FlowSpec spec = flows.get(f);
            done += s.flowProgress()[f] * spec.bytes();
            bytes += spec.bytes();
            ranks.add(spec.src());
            start = Math.min(start, spec.startPs());
            int step = stepOf(spec.id());
            if (step < 0) {
                stepsKnown = false;
            } else {
                stepComplete.merge(step, s.flowProgress()[f] >= 1.0, Boolean::logicalAnd);
            }
        }
        int colon = label.indexOf(':');
        Collective.Kind k = Collective.Kind.fromJsonName(colon < 0 ? label : label.substring(0, colon));
        int n = ranks.size();
        int steps = k == null ? stepComplete.size() : k.steps(n);
        int stepsDone = -1;
        if (stepsKnown && k != null) {
            stepsDone = 0;
            for (boolean c : stepComplete.values()) {
                if (!c) {
                    break;
                }
                stepsDone++;
            }
            if (k == Collective.Kind.ALL_TO_ALL) {
                stepsDone = done >= bytes ? 1 : 0;
            }
        }
        double algbw = Double.NaN;
        double busbw = Double.NaN;
        long elapsed = s.timePs() - (start == Long.MAX_VALUE ? 0 : start);
        if (k != null && n > 1 && elapsed > 0 && bytes > 0) {
            double bigS = (double) bytes / k.stepsTimesRanksOverN(n);
            algbw = bigS * (done / bytes) / (elapsed / 1e12) / 1e9;
            busbw = algbw * k.busFactor(n);
        }
        return new CollectiveProgress(label, k, n, steps, stepsDone, done, bytes,
                start == Long.MAX_VALUE ? 0 : start, algbw, busbw);
    }

    /** The ring step of a collective flow id, or -1 ({@code name/step/rank}, {@code name/cK/step/rank}). */
    static int stepOf(String id) {
        if (id == null) {
            return -1;
        }
        String[] parts = id.split("/");
        if (parts.length >= 2 && parts[parts.length - 1].contains("->")) {
            return 0;
        }
        if (parts.length < 3) {
            return -1;
        }
        try {
            return Integer.parseInt(parts[parts.length - 2]);
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
