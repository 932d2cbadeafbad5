package io.fabriclab.io;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A user's input is wrong. Carries every problem found (not only the first), so one run of
 * {@code fabriclab validate} lists everything to fix. The CLI maps it to exit code 2 and prints
 * {@link #getMessage()}, one problem per line; it is never a bug in FabricLab.
 */
public class InputException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Most problems rendered by {@link #getMessage()}; the list itself keeps them all. */
    public static final int MAX_RENDERED = 200;

    private final transient List<InputProblem> problems;

    public InputException(List<InputProblem> problems) {
        super(null, null, false, false);
        if (problems == null || problems.isEmpty()) {
            throw new IllegalArgumentException("an InputException needs at least one problem");
        }
        this.problems = List.copyOf(problems);
    }

    public InputException(InputProblem problem) {
        this(List.of(problem));
    }

    /** Shorthand for a single problem. */
    public static InputException of(String file, String jsonPath, String value, String message, String allowed) {
        return new InputException(new InputProblem(file, jsonPath, value, message, allowed));
    }

    public List<InputProblem> problems() {
        return problems;
    }

    @Override
    public String getMessage() {
        String lines = problems.stream().limit(MAX_RENDERED).map(InputProblem::render)
                .collect(Collectors.joining("\n"));
        if (problems.size() > MAX_RENDERED) {
            lines += "\n... and " + (problems.size() - MAX_RENDERED) + " more problems";
        }
        return lines;
    }
}
