package io.fabriclab.report;

import java.util.Locale;

import io.fabriclab.sim.SimResults;

/**
 * How a run ended, in words a reader takes in at a glance: a PFC deadlock first (it is why such a
 * run never finishes, whatever its stop reason), then the stop reason spelled out. Shared by the
 * report, the live view's status line and the tuner; never the raw enum name ("time_limit").
 */
public final class RunEnding {
    private RunEnding() {
    }

    /** The stop reason in words: "all flows completed", "the set duration", "the safety time limit", … */
    public static String reason(SimResults.StopReason r) {
        return switch (r) {
            case COMPLETED -> "all flows completed";
            case DURATION_REACHED -> "the set duration";
            case TIME_LIMIT -> "the safety time limit";
            case NO_EVENTS -> "nothing left to simulate";
            case STOPPED -> "stopped by the user";
        };
    }

    /**
     * One line: "Stopped: PFC deadlock on priority 3 at 325.0 µs (4 ports in the cycle); ran on to
     * the safety time limit at 1,000.0 µs, no flow completed (0 of 18)" or "Completed: all 18 flows
     * by 812.3 µs". {@code micro} is the microsecond unit to write ("µs" on screen, "us" in ASCII text).
     */
    public static String headline(SimResults r, String micro) {
        SimResults.RunInfo info = r.run();
        String at = time(info.simulatedPs(), micro);
        String flows = info.flowsCompleted() == 0 ? "no flow completed (0 of " + Fmt.count(info.flows()) + ")"
                : Fmt.count(info.flowsCompleted()) + " of " + Fmt.count(info.flows()) + " flows completed";
        if (!r.deadlocks().isEmpty()) {
            SimResults.DeadlockResult d = r.deadlocks().get(0);
            return "Stopped: PFC deadlock on priority " + d.priority() + " at " + time(d.detectedPs(), micro) + " ("
                    + d.ports().size() + " ports in the cycle); ran on to " + reason(info.stopReason()) + " at " + at
                    + ", " + flows;
        }
        return switch (info.stopReason()) {
            case COMPLETED -> "Completed: all " + Fmt.count(info.flows()) + " flows by " + at;
            case DURATION_REACHED -> "Ran its set duration (" + at + "): " + flows;
            case TIME_LIMIT -> "Stopped at the safety time limit (" + at + "): " + flows;
            case NO_EVENTS -> "Stopped at " + at + " with nothing left to simulate: " + flows;
            case STOPPED -> "Stopped by the user at " + at + ": " + flows;
        };
    }

    /** A flow completion time of this run: "no flow completed" when none did (its percentiles are not 0 us). */
    public static String fct(SimResults r, double us) {
        return r.run().flowsCompleted() == 0 ? "no flow completed" : Fmt.usValue(us);
    }

    private static String time(long ps, String micro) {
        return Fmt.us(ps).replace(" us", " " + micro);
    }

    /** Lower-case first letter, for use inside a sentence. */
    static String lower(String s) {
        return s.isEmpty() ? s : s.substring(0, 1).toLowerCase(Locale.ROOT) + s.substring(1);
    }
}
