package io.fabriclab.ui.live;

import java.util.ArrayDeque;
import java.util.Locale;

import io.fabriclab.sim.LiveRun;

/**
 * The speed a live run achieves, measured from the snapshots the view takes: simulated time gained
 * over the last {@link #WINDOW_NANOS} of wall time while the run was running. A run is
 * <em>behind</em> when, over at least {@link #MIN_WINDOW_NANOS}, it reached less than
 * {@link #BEHIND_SHARE} of the requested speed: the simulator (or the snapshots it builds) cannot
 * keep up, and the panel says so next to the speed asked for instead of showing the requested
 * figure as if it held. Pausing, stepping and a new speed start a fresh measurement.
 */
final class SpeedMeter {
    /** Wall time the achieved speed is averaged over. */
    static final long WINDOW_NANOS = 2_000_000_000L;
    /** Wall time needed before the meter gives a figure (one second of running). */
    static final long MIN_WINDOW_NANOS = 1_000_000_000L;
    /** Below this share of the requested speed the run is behind. */
    static final double BEHIND_SHARE = 0.9;

    private final ArrayDeque<long[]> samples = new ArrayDeque<>();

    /** Forgets what was measured (the run paused, stepped, changed speed or ended). */
    void restart() {
        samples.clear();
    }

    /** The run was running at wall time {@code wallNanos} and had reached simulated time {@code simPs}. */
    void sample(long wallNanos, long simPs) {
        samples.addLast(new long[] {wallNanos, simPs});
        while (samples.size() > 2 && wallNanos - samples.peekFirst()[0] > WINDOW_NANOS) {
            samples.removeFirst();
        }
    }

    /** Simulated ps per wall second over the window, or -1 while the window is shorter than a second. */
    long achievedPsPerSecond() {
        if (samples.size() < 2) {
            return -1;
        }
        long[] first = samples.peekFirst();
        long[] last = samples.peekLast();
        long wall = last[0] - first[0];
        if (wall < MIN_WINDOW_NANOS) {
            return -1;
        }
        return Math.round((last[1] - first[1]) * 1e9 / wall);
    }

    /** True when the run measurably falls short of {@code requestedPsPerSecond} (never for max speed). */
    boolean behind(long requestedPsPerSecond) {
        long a = achievedPsPerSecond();
        return requestedPsPerSecond != LiveRun.UNTHROTTLED && a >= 0 && a < BEHIND_SHARE * requestedPsPerSecond;
    }

    /** "achieved 2.75 µs/s", or "" before a figure. */
    String achievedText() {
        long a = achievedPsPerSecond();
        return a < 0 ? "" : "achieved " + (a < LiveRun.MIN_SPEED_PS_PER_S ? String.format(Locale.ROOT, "%.3g ns/s",
                a / 1e3) : LiveViewModel.speedText(a));
    }
}
