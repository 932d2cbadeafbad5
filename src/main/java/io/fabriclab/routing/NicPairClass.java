package io.fabriclab.routing;

import io.fabriclab.model.Device;

/**
 * How far apart two NICs sit in the fabric's grouping, judged by the switches they hang off: the
 * same switch, the same scalable unit, the same pod, or further apart. Units and pods come from the
 * switches' {@code unit} and {@code pod} attributes; without them every pair on different switches
 * is {@link #OTHER}.
 */
public enum NicPairClass {
    SAME_SWITCH("same switch"),
    SAME_UNIT("same unit"),
    SAME_POD("same pod"),
    OTHER("different unit/pod");

    private final String label;

    NicPairClass(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** The class of a pair of NICs attached to switches {@code a} and {@code b}. */
    public static NicPairClass of(Device a, Device b) {
        if (a == b) {
            return SAME_SWITCH;
        }
        if (a.unit() != null && a.unit().equals(b.unit())) {
            return SAME_UNIT;
        }
        if (a.pod() != null && a.pod().equals(b.pod())) {
            return SAME_POD;
        }
        return OTHER;
    }

    @Override
    public String toString() {
        return label;
    }
}
