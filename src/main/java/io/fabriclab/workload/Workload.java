package io.fabriclab.workload;

import java.util.List;

import io.fabriclab.model.Fabric;

/** A source of flows over a fabric (explicit list, incast, permutation, ...). */
public interface Workload {
    /** The flows this workload posts, in a deterministic order. */
    List<FlowSpec> flows(Fabric fabric);

    /** Short name for results and messages. */
    String describe();
}
