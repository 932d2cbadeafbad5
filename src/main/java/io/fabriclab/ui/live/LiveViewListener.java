package io.fabriclab.ui.live;

import io.fabriclab.sim.SimSnapshot;

/** What a {@link LiveViewModel} tells its view about a run. */
public interface LiveViewListener {
    /** A run was built and started. */
    default void started(LiveSession s) {
    }

    /** The picture shown changed (at most five times a second while running; at once when stepped or scrubbed). */
    default void pictureChanged(SimSnapshot s) {
    }

    /** The run ended and its results are in (or it failed). */
    default void finished() {
    }

    /** The run was reset or replaced: clear what showed it. */
    default void cleared() {
    }
}
