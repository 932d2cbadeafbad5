package io.fabriclab.workload;

import java.util.ArrayList;
import java.util.List;

import io.fabriclab.model.Fabric;

/**
 * N:1 incast: every sender posts {@code bytesPerSender} to one receiver at the same time, the
 * synchronized burst of a parameter-server step, storage read or all-to-all phase.
 */
public record Incast(List<String> senders, String receiver, long bytesPerSender, long startPs, int priority)
        implements Workload {
    public Incast {
        senders = List.copyOf(senders);
        if (senders.isEmpty()) {
            throw new IllegalArgumentException("incast needs at least one sender");
        }
        if (senders.contains(receiver)) {
            throw new IllegalArgumentException("incast receiver " + receiver + " is also a sender");
        }
    }

    @Override
    public List<FlowSpec> flows(Fabric fabric) {
        List<FlowSpec> out = new ArrayList<>(senders.size());
        for (String s : senders) {
            out.add(new FlowSpec(s, receiver, bytesPerSender, startPs, priority, "incast"));
        }
        return out;
    }

    @Override
    public String describe() {
        return senders.size() + ":1 incast to " + receiver;
    }
}
