package io.fabriclab.ui.live;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

import io.fabriclab.sim.SimSnapshot;
import io.fabriclab.workload.Collective;
import io.fabriclab.workload.FlowSpec;

/**
 * The live dashboard's figures from a snapshot: worst ports by queue, active pauses (directions
 * paused now, longest-paused first), totals of drops, ECN marks, CNPs and PAUSE frames, and per
 * collective its progress and bus bandwidth so far (nccl-tests' busbw = S / t x factor, with S
 * scaled by the fraction delivered; the final figure comes from the results).
 */
public final class Dashboard {
    private Dashboard() {
    }

    /** The text lines of the dashboard. */
    public static List<String> lines(SimSnapshot s, List<FlowSpec> flows, Map<String, List<Integer>> collectives) {
        List<String> out = new ArrayList<>();
        out.add(String.format(Locale.ROOT, "t = %.3f µs   flows done %d / %d", s.timePs() / 1e6, s.flowsCompleted(),
                s.flowCount()));
        out.add(String.format(Locale.ROOT, "drops %d   ECN marks %d   CNPs %d   PAUSE frames %d   reroutes %d",
                s.totalDrops(), s.totalEcnMarks(), s.totalCnps(), s.totalPauseFrames(), s.reroutes()));
        int n = s.ports().size();
        List<Integer> worst = IntStream.range(0, n).boxed().filter(i -> s.queueBytes()[i] > 0)
                .sorted(Comparator.comparingLong((Integer i) -> s.queueBytes()[i]).reversed()).limit(5).toList();
        out.add("Worst ports (queue):" + (worst.isEmpty() ? " none queued" : ""));
        for (int i : worst) {
            out.add(String.format(Locale.ROOT, "  %-18s %8.1f KB%s", s.ports().get(i), s.queueBytes()[i] / 1000.0,
                    s.pausedMask()[i] != 0 ? "  PAUSED" : ""));
        }
        List<Integer> paused = IntStream.range(0, n).boxed().filter(i -> s.pausedMask()[i] != 0)
                .sorted(Comparator.comparingLong((Integer i) -> s.pausedPsTotal()[i]).reversed()).toList();
        out.add("Active pauses: " + paused.size() + " direction(s)");
        for (int i : paused.subList(0, Math.min(5, paused.size()))) {
            out.add(String.format(Locale.ROOT, "  %-18s paused %.1f µs in total", s.ports().get(i),
                    s.pausedPsTotal()[i] / 1e6));
        }
        if (!s.deadlocks().isEmpty()) {
            out.add("DEADLOCK: " + s.deadlocks().size() + " cycle(s): " + String.join(" → ", s.deadlocks().get(0)));
        }
        for (Map.Entry<String, List<Integer>> c : collectives.entrySet()) {
            double done = 0;
            long bytes = 0;
            Set<String> ranks = new HashSet<>();
            for (int f : c.getValue()) {
                done += s.flowProgress()[f] * flows.get(f).bytes();
                bytes += flows.get(f).bytes();
                ranks.add(flows.get(f).src());
            }
            String kind = c.getKey().substring(0, c.getKey().indexOf(':'));
            Collective.Kind k = Collective.Kind.fromJsonName(kind);
            int r = ranks.size();
            double fraction = bytes == 0 ? 0 : done / bytes;
            String busbw = "";
            if (k != null && r > 1 && s.timePs() > 0) {
                // S = n x chunk, and the flows carry steps x n chunks: S = payload / steps.
                double bigS = (double) bytes / k.stepsTimesRanksOverN(r);
                double algbw = bigS * fraction / (s.timePs() / 1e12) / 1e9;
                busbw = String.format(Locale.ROOT, ", busbw so far %.1f GB/s", algbw * k.busFactor(r));
            }
            out.add(String.format(Locale.ROOT, "%s: %.0f %%%s", c.getKey(), 100 * fraction, busbw));
        }
        return out;
    }
}
