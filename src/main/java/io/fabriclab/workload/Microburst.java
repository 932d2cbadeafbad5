package io.fabriclab.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * Microbursts: {@code count} synchronized N:1 bursts, one every {@code periodPs}, each sender
 * posting {@code bytesPerSender} to the receiver at the same instant (the short, periodic incasts
 * that fill a shallow queue and drain before a coarse counter notices).
 */
public record Microburst(List<String> senders, String receiver, long bytesPerSender, long startPs, long periodPs,
                         int count, int priority) implements Workload {
    public Microburst {
        senders = List.copyOf(senders);
        if (senders.isEmpty()) {
            throw new IllegalArgumentException("a microburst needs at least one sender");
        }
        if (senders.contains(receiver)) {
            throw new IllegalArgumentException("microburst receiver " + receiver + " is also a sender");
        }
        if (count < 1 || periodPs <= 0) {
            throw new IllegalArgumentException("a microburst needs count >= 1 and a period > 0");
        }
    }

    @Override
    public List<FlowSpec> flows(io.fabriclab.model.Fabric fabric) {
        List<FlowSpec> out = new ArrayList<>(senders.size() * count);
        for (int b = 0; b < count; b++) {
            for (String s : senders) {
                out.add(new FlowSpec(s, receiver, bytesPerSender, startPs + b * periodPs, priority, "microburst"));
            }
        }
        return out;
    }

    @Override
    public String describe() {
        return count + " microbursts " + senders.size() + ":1 to " + receiver;
    }
}
