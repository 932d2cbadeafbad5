package io.fabriclab.routing;

import io.fabriclab.model.Device;

/**
 * How far apart two NICs sit in the fabric's grouping, judged by the switches they hang off: the
 * same switch, the same scalable unit, the same pod, or further apart. Units and pods come from the
 * switches' {@code unit} and {@code pod} attributes; when either switch has neither, a pair on
 * different switches is {@link #OTHER_SWITCH}.
 */
public enum NicPairClass {
    SAME_SWITCH("same switch"),
    SAME_UNIT("same unit"),
    SAME_POD("same pod"),
    OTHER_UNIT("different unit/pod"),
    OTHER_SWITCH("different switch");

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
        boolean aGrouped = a.unit() != null || a.pod() != null;
        boolean bGrouped = b.unit() != null || b.pod() != null;
        return aGrouped && bGrouped ? OTHER_UNIT : OTHER_SWITCH;
    }

    @Override
    public String toString() {
        return label;
    }
}
