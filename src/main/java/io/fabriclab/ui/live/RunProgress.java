package io.fabriclab.ui.live;

import java.util.Locale;

import io.fabriclab.sim.SimSnapshot;

/**
 * Progress of a live run: the share of the duration for a run of set length, else the share of
 * all flows' bytes delivered in order (each flow's progress weighted by its size), so the bar
 * moves as data arrives, not only when whole flows complete.
 */
final class RunProgress {
    private final boolean byTime;
    private final long endPs;
    private final long[] flowBytes;
    private final long total;

    RunProgress(LiveSession session) {
        this.endPs = session.endPs();
        this.flowBytes = new long[session.flows().size()];
        long sum = 0;
        for (int i = 0; i < flowBytes.length; i++) {
            flowBytes[i] = session.flows().get(i).bytes();
            sum += flowBytes[i];
        }
        this.total = sum;
        this.byTime = session.settings().durationUs() > 0 || sum == 0;
    }

    /** 0 to 1 at {@code s}. */
    double of(SimSnapshot s) {
        if (byTime) {
            return Math.min(1, (double) s.timePs() / endPs);
        }
        double done = 0;
        int n = Math.min(flowBytes.length, s.flowCount());
        for (int i = 0; i < n; i++) {
            done += s.flowProgress().get(i) * flowBytes[i];
        }
        return Math.min(1, done / total);
    }

    /** "37 % of 16.00 MB delivered, 2 / 8 flows done", or "40 % of 500 µs". */
    String label(SimSnapshot s, double p) {
        if (byTime) {
            return String.format(Locale.ROOT, "%.0f %% of %.0f µs", 100 * p, endPs / 1e6);
        }
        return String.format(Locale.ROOT, "%.0f %% of %.2f MB delivered, %d / %d flows done", 100 * p,
                total / 1e6, s.flowsCompleted(), s.flowCount());
    }
}
