package io.fabriclab.counters;

import java.util.ArrayList;
import java.util.List;

import io.fabriclab.io.InputException;
import io.fabriclab.io.InputProblem;

/** The problems found in one counters source, each at its line ("file: line 12: ..."); all of them, not only the first. */
final class LineProblems {
    /** More than this many bad lines: the file is not of the format at all; stop reading it. */
    static final int MAX = 200;
    private final String source;
    private final List<InputProblem> problems = new ArrayList<>();

    LineProblems(String source) {
        this.source = source;
    }

    void add(int line, String value, String message, String allowed) {
        if (problems.size() < MAX) {
            problems.add(new InputProblem(source, line > 0 ? "line " + line : "$", value, message, allowed));
        }
    }

    boolean full() {
        return problems.size() >= MAX;
    }

    void throwIfAny() throws InputException {
        if (!problems.isEmpty()) {
            throw new InputException(problems);
        }
    }

    static InputException one(String source, int line, String value, String message, String allowed) {
        return new InputException(new InputProblem(source, line > 0 ? "line " + line : "$", value, message, allowed));
    }

    /** A counter value as devices print it: digits with thousands commas, or a decimal; null when not a number. */
    static Double number(String s) {
        String t = s.replace(",", "").trim();
        if (t.isEmpty()) {
            return null;
        }
        try {
            double v = Double.parseDouble(t);
            return Double.isFinite(v) ? v : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
