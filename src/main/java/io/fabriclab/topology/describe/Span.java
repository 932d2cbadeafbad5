package io.fabriclab.topology.describe;

/**
 * A stretch of the description, by character offsets into the text the user typed.
 *
 * @param start first character
 * @param end   one past the last character
 */
public record Span(int start, int end) implements Comparable<Span> {
    public Span {
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("bad span " + start + ".." + end);
        }
    }

    /** The words this span covers in {@code text}. */
    public String in(String text) {
        return text.substring(start, Math.min(end, text.length()));
    }

    /** The smallest span covering both. */
    public Span join(Span o) {
        return new Span(Math.min(start, o.start), Math.max(end, o.end));
    }

    @Override
    public int compareTo(Span o) {
        return start != o.start ? Integer.compare(start, o.start) : Integer.compare(end, o.end);
    }
}
