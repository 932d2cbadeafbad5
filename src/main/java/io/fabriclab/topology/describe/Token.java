package io.fabriclab.topology.describe;

/** One token of a description, with where it stands in the text and what the lexicon made of it. */
final class Token {
    enum Type { NUMBER, SPEED, LENGTH, RATIO, WORD, QUOTED, SEP, PUNCT }

    final Type type;
    /** Lower-case text (a number's digits without separators; a quoted string's content as typed). */
    final String text;
    Span span;
    /** NUMBER, SPEED (Gb/s), LENGTH (m), RATIO (left side). */
    double num;
    /** RATIO right side. */
    double num2;
    /** True when a hyphen joins this token to the one before ("8-GPU", "64-port"). */
    boolean hyphenBefore;
    /** The word class; null for numbers, punctuation and words the lexicon does not know. */
    Lexicon.C concept;
    /** A switch product, a GPU or a medium word's meaning. */
    Object value;
    /** Taken by a term. */
    boolean used;

    Token(Type type, String text, int start, int end) {
        this.type = type;
        this.text = text;
        this.span = new Span(start, end);
    }

    boolean is(Lexicon.C c) {
        return concept == c;
    }

    boolean isNumber() {
        return type == Type.NUMBER;
    }

    /** The number as an int, or -1 when it is not a whole number. */
    int intValue() {
        return num == Math.rint(num) && num <= Integer.MAX_VALUE ? (int) num : -1;
    }

    @Override
    public String toString() {
        return type + ":" + text + (concept == null ? "" : "/" + concept);
    }
}
