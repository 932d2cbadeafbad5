package io.fabriclab.model;

/** Administrative / operational state of a link as drawn (a failed link stays in the drawing). */
public enum LinkState {
    UP,
    DOWN;

    public String jsonName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
