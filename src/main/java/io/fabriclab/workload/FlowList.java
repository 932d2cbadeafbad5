package io.fabriclab.workload;

import java.util.List;

import io.fabriclab.model.Fabric;

/** Flows given one by one. */
public record FlowList(List<FlowSpec> list) implements Workload {
    public FlowList {
        list = List.copyOf(list);
    }

    @Override
    public List<FlowSpec> flows(Fabric fabric) {
        return list;
    }

    @Override
    public String describe() {
        return list.size() + " explicit flows";
    }
}
