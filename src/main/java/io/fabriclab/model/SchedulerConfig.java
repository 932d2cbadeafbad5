package io.fabriclab.model;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Egress scheduling: control frames (PFC, CNP) always first; then the strict-priority classes;
 * then DWRR among the remaining data classes with the given weights (one per class 0-7).
 */
public record SchedulerConfig(Set<Integer> strictPriorityClasses, List<Integer> dwrrWeights) {

    public SchedulerConfig {
        strictPriorityClasses = Set.copyOf(new TreeSet<>(strictPriorityClasses == null ? Set.of() : strictPriorityClasses));
        dwrrWeights = List.copyOf(dwrrWeights == null ? List.of(1, 1, 1, 1, 1, 1, 1, 1) : dwrrWeights);
    }

    public static SchedulerConfig defaults() {
        // CNPs ride class 6 in strict priority (NVIDIA and SONiC defaults); data classes share equally.
        return new SchedulerConfig(Set.of(6), List.of(1, 1, 1, 1, 1, 1, 1, 1));
    }
}
