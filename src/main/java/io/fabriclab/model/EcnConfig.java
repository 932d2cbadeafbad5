package io.fabriclab.model;

import java.util.Map;
import java.util.TreeMap;

/**
 * ECN marking on egress queues, per traffic class.
 *
 * @param enabled  marking on or off as a whole
 * @param classes  WRED/ECN curve per traffic class (0-7); classes without one are never marked
 * @param markAt   whether a packet is marked when it is enqueued or when it is dequeued
 */
public record EcnConfig(boolean enabled, Map<Integer, WredEcn> classes, MarkingPoint markAt) {

    public enum MarkingPoint { ENQUEUE, DEQUEUE }

    public EcnConfig {
        classes = Map.copyOf(new TreeMap<>(classes == null ? Map.of() : classes));
        markAt = markAt == null ? MarkingPoint.DEQUEUE : markAt;
    }

    /** The curve for a class, or null when the class is not ECN-marked. */
    public WredEcn forClass(int trafficClass) {
        return enabled ? classes.get(trafficClass) : null;
    }

    public static EcnConfig off() {
        return new EcnConfig(false, Map.of(), MarkingPoint.DEQUEUE);
    }

    public EcnConfig withClass(int trafficClass, WredEcn curve) {
        TreeMap<Integer, WredEcn> m = new TreeMap<>(classes);
        m.put(trafficClass, curve);
        return new EcnConfig(enabled, m, markAt);
    }
}
