package io.fabriclab.ui.live;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

import io.fabriclab.sim.SimSnapshot;

/**
 * The live dashboard's figures from a snapshot: totals of drops, ECN marks, CNPs and PAUSE
 * frames; worst ports by queue; the directions paused now (a PFC pause in force, longest-paused
 * first); the pause storms, which are the PFC watchdog's: queues it declared stormed after a pause
 * lasting its whole detection time (docs/model.md), not merely paused; and per collective its
 * progress and bandwidth so far ({@link CollectiveProgress}).
 */
public final class Dashboard {
    private Dashboard() {
    }

    /** The text lines of the dashboard, with the progress of each collective (trackers made once per run). */
    public static List<String> lines(SimSnapshot s, java.util.Collection<CollectiveProgress.Tracker> collectives) {
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
                    s.stormedMask()[i] != 0 ? "  STORM" : s.pausedMask()[i] != 0 ? "  PAUSED" : ""));
        }
        List<Integer> paused = IntStream.range(0, n).boxed().filter(i -> s.pausedMask()[i] != 0)
                .sorted(Comparator.comparingLong((Integer i) -> s.pausedPsTotal()[i]).reversed()).toList();
        out.add("Paused now: " + paused.size() + " direction(s)");
        for (int i : paused.subList(0, Math.min(5, paused.size()))) {
            out.add(String.format(Locale.ROOT, "  %-18s paused %.1f µs in total", s.ports().get(i),
                    s.pausedPsTotal()[i] / 1e6));
        }
        List<Integer> storms = stormed(s);
        out.add(String.format(Locale.ROOT, "Pause storms (PFC watchdog): %d now, %d declared since the start",
                storms.size(), s.totalStorms()));
        for (int i : storms.subList(0, Math.min(5, storms.size()))) {
            out.add(String.format(Locale.ROOT, "  %-18s STORM on priority %s, paused %.1f µs in total",
                    s.ports().get(i), priorities(s.stormedMask()[i]), s.pausedPsTotal()[i] / 1e6));
        }
        if (!s.deadlocks().isEmpty()) {
            out.add("DEADLOCK: " + s.deadlocks().size() + " cycle(s): " + String.join(" → ", s.deadlocks().get(0)));
        }
        for (CollectiveProgress.Tracker c : collectives) {
            out.add(c.at(s).text());
        }
        return out;
    }

    /** Egress ports the watchdog holds stormed now, longest-paused first. */
    public static List<Integer> stormed(SimSnapshot s) {
        return IntStream.range(0, s.ports().size()).boxed().filter(i -> s.stormedMask()[i] != 0)
                .sorted(Comparator.comparingLong((Integer i) -> s.pausedPsTotal()[i]).reversed()).toList();
    }

    /** The priorities set in a mask, "3" or "3,4". */
    static String priorities(int mask) {
        StringBuilder sb = new StringBuilder();
        for (int p = 0; p < 8; p++) {
            if ((mask & (1 << p)) != 0) {
                sb.append(sb.length() == 0 ? "" : ",").append(p);
            }
        }
        return sb.toString();
    }
}
