package io.fabriclab.io;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A scenario that cannot be used. Carries every problem found (each naming the file, the JSON
 * path, the value and what is allowed), one per line in {@link #getMessage()}.
 */
public class ScenarioException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient List<InputProblem> problems;

    public ScenarioException(String message) {
        super(message);
        this.problems = List.of();
    }

    public ScenarioException(String message, Throwable cause) {
        super(message, cause);
        this.problems = List.of();
    }

    /** Every problem of a scenario file. */
    public ScenarioException(List<InputProblem> problems) {
        super(render(problems), null, false, false);
        this.problems = List.copyOf(problems);
    }

    /** The problems, each with file and JSON path; empty when the exception was made from a message. */
    public List<InputProblem> problems() {
        return problems;
    }

    private static String render(List<InputProblem> problems) {
        String lines = problems.stream().limit(InputException.MAX_RENDERED).map(InputProblem::render)
                .collect(Collectors.joining("\n"));
        if (problems.size() > InputException.MAX_RENDERED) {
            lines += "\n... and " + (problems.size() - InputException.MAX_RENDERED) + " more problems";
        }
        return lines;
    }
}
