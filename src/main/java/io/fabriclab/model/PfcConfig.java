package io.fabriclab.model;

import java.util.Set;
import java.util.TreeSet;

/**
 * Priority-based flow control (IEEE 802.1Qbb) on the ingress side of a port.
 *
 * @param enabled       PFC on or off as a whole
 * @param priorities    lossless priorities (0-7); production fabrics use one or two, usually 3
 * @param xoffBytes     ingress priority-group occupancy at which a PAUSE is sent upstream
 * @param xonBytes      occupancy below which a resume (quanta 0) is sent; must be below XOFF
 * @param headroomBytes reserved per (port, lossless priority) for what still arrives after XOFF
 * @param watchdogUs    a queue paused continuously this long is declared stormed; 0 = watchdog off
 * @param watchdogAction what the watchdog does with a stormed queue
 */
public record PfcConfig(boolean enabled, Set<Integer> priorities, long xoffBytes, long xonBytes,
                        long headroomBytes, long watchdogUs, WatchdogAction watchdogAction) {

    public enum WatchdogAction { DROP, FORWARD }

    public PfcConfig {
        priorities = Set.copyOf(new TreeSet<>(priorities == null ? Set.of() : priorities));
        watchdogAction = watchdogAction == null ? WatchdogAction.DROP : watchdogAction;
    }

    public boolean isLossless(int priority) {
        return enabled && priorities.contains(priority);
    }

    public static PfcConfig off() {
        return new PfcConfig(false, Set.of(), 0, 0, 0, 0, WatchdogAction.DROP);
    }

    public PfcConfig withThresholds(long xoff, long xon, long headroom) {
        return new PfcConfig(enabled, priorities, xoff, xon, headroom, watchdogUs, watchdogAction);
    }
}
