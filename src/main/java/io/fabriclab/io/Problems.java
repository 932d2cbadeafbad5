package io.fabriclab.io;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects the problems of one input file while it is read, so that reading goes on after the
 * first mistake and the user sees them all. Stops collecting (with a final note) after
 * {@link #MAX_PROBLEMS}, so a million bad links cannot exhaust memory.
 */
final class Problems {
    static final int MAX_PROBLEMS = 1000;

    private final String file;
    private final List<InputProblem> list = new ArrayList<>();
    private boolean truncated;

    Problems(String file) {
        this.file = file;
    }

    String file() {
        return file;
    }

    void add(String path, String value, String message, String allowed) {
        if (list.size() < MAX_PROBLEMS) {
            list.add(new InputProblem(file, path, value, message, allowed));
        } else if (!truncated) {
            truncated = true;
            list.add(new InputProblem(file, "$", null,
                    "more than " + MAX_PROBLEMS + " problems; stopped collecting", null));
        }
    }

    /** Adds a problem found elsewhere (another file's, such as the fabric a scenario names), as it is. */
    void add(InputProblem problem) {
        if (list.size() < MAX_PROBLEMS) {
            list.add(problem);
        } else if (!truncated) {
            truncated = true;
            list.add(new InputProblem(file, "$", null,
                    "more than " + MAX_PROBLEMS + " problems; stopped collecting", null));
        }
    }

    void notAllowed(String path, String value, String allowed) {
        add(path, value, InputProblem.shorten(value) + " is not allowed", allowed);
    }

    boolean isEmpty() {
        return list.isEmpty();
    }

    int size() {
        return list.size();
    }

    List<InputProblem> list() {
        return list;
    }

    void throwIfAny() throws InputException {
        if (!list.isEmpty()) {
            throw new InputException(list);
        }
    }
}
