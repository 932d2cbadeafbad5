package io.fabriclab.report;

/** The outcome of one check or checklist item in a design review. */
public enum Status {
    PASS("passed"),
    WARN("warning"),
    FAIL("failed"),
    /** No simulation result covers it: said honestly rather than counted as passed. */
    NOT_SIMULATED("not simulated");

    private final String label;

    Status(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** The worse of two outcomes (FAIL over WARN over PASS; NOT_SIMULATED counts as a warning). */
    public Status worse(Status other) {
        return rank(other) > rank(this) ? other : this;
    }

    private static int rank(Status s) {
        return switch (s) {
            case PASS -> 0;
            case NOT_SIMULATED -> 1;
            case WARN -> 2;
            case FAIL -> 3;
        };
    }
}
