package io.fabriclab.sim;

/**
 * Why the simulator lost a packet: the cause picks the port's drop counter, and its name is what
 * results (SimResults.DropResult#cause) and traces show.
 */
final class DropCause {
    /** A lossy packet found the shared buffer above its dynamic threshold (egress side). */
    static final int BUFFER = 0;
    /** A lossless packet found its ingress priority group's headroom full (ingress side). */
    static final int HEADROOM_OVERFLOW = 1;
    /** The PFC watchdog declared the queue stormed and drops its packets (egress side). */
    static final int WATCHDOG = 2;
    /** The link was down: queued for it, on its wire, or sent toward it. */
    static final int LINK_DOWN = 3;

    private static final String[] NAMES = {"buffer", "headroom-overflow", "watchdog", "link-down"};

    private DropCause() {
    }

    static String name(int cause) {
        return NAMES[cause];
    }
}
