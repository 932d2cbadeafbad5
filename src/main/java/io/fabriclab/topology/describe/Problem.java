package io.fabriclab.topology.describe;

import java.util.List;

/** Why a description cannot become a fabric, with the words that make it so. */
final class Problem extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final transient List<Span> words;

    Problem(String message, List<Span> words) {
        super(message, null, false, false);
        this.words = List.copyOf(words);
    }
}
