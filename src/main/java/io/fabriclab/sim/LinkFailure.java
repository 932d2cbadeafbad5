package io.fabriclab.sim;

import java.util.Objects;

import io.fabriclab.model.Link;

/**
 * A link that fails at {@code downPs} and comes back at {@code upPs} (0 or less = stays down).
 * Frames on the wire and in the link's egress queues are lost and counted (cause link-down).
 * With {@code degradedGbps > 0} the link does not fail but runs at that speed from {@code downPs}
 * (until {@code upPs}, when it returns to its own speed), as a link renegotiating down does.
 */
public record LinkFailure(Link link, long downPs, long upPs, int degradedGbps) {
    public LinkFailure(Link link, long downPs, long upPs) {
        this(link, downPs, upPs, 0);
    }

    public LinkFailure {
        Objects.requireNonNull(link, "link");
        if (downPs < 0) {
            throw new IllegalArgumentException("failure time must be >= 0");
        }
        if (degradedGbps < 0) {
            throw new IllegalArgumentException("degraded speed must be >= 0");
        }
    }
}
