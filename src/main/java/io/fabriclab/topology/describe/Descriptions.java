package io.fabriclab.topology.describe;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.fabriclab.model.Fabric;
import io.fabriclab.topology.describe.Lexicon.C;

/**
 * A fabric from a sentence, and the sentence of a fabric: {@link #understand} reads a description
 * with the slot-filling rules (no network, no model), {@link Blueprint#build} makes the fabric with
 * the generators, {@link FabricSentence#of} writes the sentence that makes a generated fabric again.
 */
public final class Descriptions {
    /** The longest description read: a fabric fits in a sentence or two. */
    public static final int MAX_CHARS = 2000;
    /** An example for messages and the app's placeholder. */
    public static final String EXAMPLE = "8 leaves, 2 spines, 32 GPU servers with 8 x 400G NICs, rail-optimized, "
            + "2:1 oversubscribed, PFC and ECN on priority 3, 50 m fibre between tiers, Tomahawk 5 leaves";

    private Descriptions() {
    }

    /** What FabricLab makes of {@code text}; never throws for any text. */
    public static Understanding understand(String text) {
        if (text == null || text.isBlank()) {
            return failed(text == null ? "" : text, null, "the description is empty; describe a fabric, e.g. \"" + EXAMPLE + "\"",
                    List.of());
        }
        if (text.length() > MAX_CHARS) {
            return failed(text, null, String.format(java.util.Locale.ROOT, "the description is %,d characters; at most %,d are "
                    + "read (a fabric fits in a sentence or two), starting \"%s...\"", text.length(), MAX_CHARS,
                    text.substring(0, Math.min(40, text.length())).replaceAll("\\s+", " ")), List.of(new Span(0, Math.min(40, text.length()))));
        }
        Reader r;
        try {
            r = Reader.read(text);
        } catch (Problem p) {
            return failed(text, null, p.getMessage(), p.words);
        }
        if (r.problem != null) {
            return result(r, List.of(), null, r.problem.getMessage(), r.problem.words);
        }
        Planner planner = new Planner(r);
        try {
            Blueprint b = planner.plan();
            return result(r, planner.defaults, b, null, List.of());
        } catch (Problem p) {
            return result(r, planner.defaults, null, p.getMessage(), p.words);
        }
    }

    private static Understanding failed(String text, Reader r, String error, List<Span> words) {
        return new Understanding(text, List.of(), List.of(), List.of(), List.of(), null, error, words);
    }

    private static Understanding result(Reader r, List<Default> defaults, Blueprint b, String error, List<Span> words) {
        List<Term> terms = new ArrayList<>(r.terms.values());
        terms.sort(Comparator.comparing((Term t) -> t.words().isEmpty() ? new Span(Integer.MAX_VALUE - 1, Integer.MAX_VALUE)
                : t.words().stream().min(Comparator.naturalOrder()).get()));
        List<Span> unused = new ArrayList<>();
        List<Span> glue = new ArrayList<>();
        for (Token t : r.tokens()) {
            if (t.used) {
                continue;
            }
            boolean isGlue = t.type == Token.Type.SEP || t.type == Token.Type.PUNCT && t.concept == null
                    || t.concept == C.FILLER || t.concept == C.IS || t.concept == C.PER || t.concept == C.WITH
                    || t.concept == C.SEP || t.concept == C.EACH || t.concept == C.X || t.concept == C.BETWEEN
                    || t.concept == C.ALL;
            (isGlue ? glue : unused).add(t.span);
        }
        return new Understanding(r.text, terms, b == null ? List.of() : defaults, unused, glue, b, error, words);
    }
}
