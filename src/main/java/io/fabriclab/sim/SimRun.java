package io.fabriclab.sim;

/**
 * A run of either engine ({@link Engine}), ready to start: {@link Simulator} (packet level) or
 * {@link FlowEngine} (flow level). Runs once.
 */
public interface SimRun {
    /** Runs to completion, the duration or a stop; {@code progress} may be null. */
    SimResults run(Simulator.Progress progress);

    /** Asks a run in progress to stop at its next check (any thread). */
    void requestStop();

    /** The engine this run uses. */
    Engine engine();
}
