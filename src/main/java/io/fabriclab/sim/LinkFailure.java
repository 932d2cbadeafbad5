package io.fabriclab.sim;

import java.util.Objects;

import io.fabriclab.model.Link;

/**
 * A link that fails at {@code downPs} and comes back at {@code upPs} (0 or less = stays down).
 * Frames on the wire and in the link's egress queues are lost and counted (cause link-down).
 */
public record LinkFailure(Link link, long downPs, long upPs) {
    public LinkFailure {
        Objects.requireNonNull(link, "link");
        if (downPs < 0) {
            throw new IllegalArgumentException("failure time must be >= 0");
        }
    }
}
