package io.fabriclab.topology.describe;

import java.util.List;

/**
 * One thing the description says: a slot, its value and the words it came from.
 *
 * @param slot  what is set
 * @param value the value: Integer, Double, Boolean, String, {@link Kind}, a transport or a switch model
 * @param words where in the text it was said (one or more stretches)
 */
public record Term(Slot slot, Object value, List<Span> words) {
    public Term {
        words = List.copyOf(words);
    }

    /** The words as the user wrote them, quoted: 'four leaves'. */
    public String quoted(String text) {
        return Understanding.quote(text, words);
    }
}
