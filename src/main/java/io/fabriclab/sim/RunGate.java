package io.fabriclab.sim;

/**
 * How a live run holds the simulator's event loop: the loop runs freely within what the gate last
 * granted ({@link Simulator#grant}: a simulated-time horizon and an event budget) and calls
 * {@link #reached} on the simulator thread when the next event lies beyond it. There the gate may
 * wait (paused, or ahead of the wall clock at a set speed), apply commands and publish snapshots,
 * then grant again. Waiting here never changes what the run computes, so a paused, stepped or
 * slowed run ends with the same results as a free one.
 */
interface RunGate {
    /**
     * The loop is at its grant; the next event is at {@code nextEventPs}. Return true to go on
     * (after granting again), false to stop the run.
     */
    boolean reached(long nextEventPs);
}
