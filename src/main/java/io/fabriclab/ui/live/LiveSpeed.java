package io.fabriclab.ui.live;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.fabriclab.sim.LiveRun;

/**
 * The live view's speed scale: the slider position is log10 of simulated picoseconds per wall
 * second, 3 (1 ns/s) to 9 (1 ms/s), and {@link #MAX_POSITION} means unthrottled ("max"); the
 * arrow keys step 1-2-5 per decade through {@link #STEPS}.
 */
final class LiveSpeed {
    /** The slider's right end: unthrottled. */
    static final double MAX_POSITION = 10;
    /** Speeds the arrow keys step through (ps per wall second): 1-2-5 per decade, 1 ns/s to 1 ms/s. */
    static final long[] STEPS = steps();

    private LiveSpeed() {
    }

    private static long[] steps() {
        List<Long> out = new ArrayList<>();
        for (long decade = LiveRun.MIN_SPEED_PS_PER_S; decade <= LiveRun.MAX_SPEED_PS_PER_S; decade *= 10) {
            for (long m : new long[] {1, 2, 5}) {
                if (decade * m <= LiveRun.MAX_SPEED_PS_PER_S) {
                    out.add(decade * m);
                }
            }
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    /** The slider position as simulated ps per wall second ({@link LiveRun#UNTHROTTLED} at the right end). */
    static long psPerSecond(double position) {
        if (position >= MAX_POSITION - 0.05) {
            return LiveRun.UNTHROTTLED;
        }
        long v = Math.round(Math.pow(10, position));
        return Math.max(LiveRun.MIN_SPEED_PS_PER_S, Math.min(LiveRun.MAX_SPEED_PS_PER_S, v));
    }

    /** The slider position of a speed. */
    static double position(long psPerS) {
        return psPerS == LiveRun.UNTHROTTLED ? MAX_POSITION : Math.log10(psPerS);
    }

    /** "100 µs/s", "2.00 ns/s", "1.00 ms/s" or "max". */
    static String text(long psPerS) {
        if (psPerS == LiveRun.UNTHROTTLED) {
            return "max";
        }
        if (psPerS >= 1_000_000_000L) {
            return String.format(Locale.ROOT, "%.3g ms/s", psPerS / 1e9);
        }
        if (psPerS >= 1_000_000L) {
            return String.format(Locale.ROOT, "%.3g µs/s", psPerS / 1e6);
        }
        return String.format(Locale.ROOT, "%.3g ns/s", psPerS / 1e3);
    }

    /**
     * The next speed up ({@code direction} > 0) or down from {@code now}: the next 1-2-5 value
     * (1 ns/s ... 500 µs/s, 1 ms/s, then max going up; from max, 1 ms/s going down).
     */
    static long step(long now, int direction) {
        if (direction > 0) {
            if (now == LiveRun.UNTHROTTLED) {
                return LiveRun.UNTHROTTLED;
            }
            for (long s : STEPS) {
                if (s > now) {
                    return s;
                }
            }
            return LiveRun.UNTHROTTLED;
        }
        long next = STEPS[0];
        long from = now == LiveRun.UNTHROTTLED ? Long.MAX_VALUE : now;
        for (long s : STEPS) {
            if (s < from) {
                next = s;
            }
        }
        return next;
    }
}
