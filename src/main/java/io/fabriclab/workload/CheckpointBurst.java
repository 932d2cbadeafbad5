package io.fabriclab.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * Storage / checkpoint bursts: every client NIC writes {@code bytesPerClient} to a storage target
 * at the same instant (clients assigned to targets round robin), {@code count} times, one every
 * {@code periodPs}: the many-to-few burst of a training checkpoint, kept in its own traffic class.
 */
public record CheckpointBurst(List<String> clients, List<String> targets, long bytesPerClient, long startPs,
                              long periodPs, int count, int priority) implements Workload {
    public CheckpointBurst {
        clients = List.copyOf(clients);
        targets = List.copyOf(targets);
        if (clients.isEmpty() || targets.isEmpty()) {
            throw new IllegalArgumentException("a checkpoint burst needs clients and storage targets");
        }
        for (String t : targets) {
            if (clients.contains(t)) {
                throw new IllegalArgumentException("storage target " + t + " is also a client");
            }
        }
        if (count < 1 || (count > 1 && periodPs <= 0)) {
            throw new IllegalArgumentException("a checkpoint burst needs count >= 1 and a period > 0 when repeated");
        }
    }

    @Override
    public List<FlowSpec> flows(io.fabriclab.model.Fabric fabric) {
        List<FlowSpec> out = new ArrayList<>(clients.size() * count);
        for (int b = 0; b < count; b++) {
            for (int i = 0; i < clients.size(); i++) {
                out.add(new FlowSpec(clients.get(i), targets.get(i % targets.size()), bytesPerClient,
                        startPs + b * periodPs, priority, "checkpoint"));
            }
        }
        return out;
    }

    @Override
    public String describe() {
        return count + " checkpoint burst(s) of " + clients.size() + " clients to " + targets.size() + " targets";
    }
}
