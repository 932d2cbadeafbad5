package io.fabriclab.diagram;

import io.fabriclab.model.Link;

/**
 * Per-link load for the live view and results: utilisation (or queue fill) as a fraction 0..1,
 * the busier direction of the full-duplex link; NaN when there is no figure for a link. When a
 * painter has one, links are coloured green to amber to red by it instead of by speed.
 */
@FunctionalInterface
public interface LinkLoad {
    double fraction(Link link);
}
