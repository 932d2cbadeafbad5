package io.fabriclab.workload;

import java.util.List;
import java.util.Objects;

/**
 * One RDMA transfer: a queue pair from a source NIC to a destination NIC.
 *
 * @param src      source NIC as "server:port" or "server:nicK" (K = the port's NIC index)
 * @param dst      destination NIC, same form
 * @param bytes    RDMA payload bytes to move
 * @param startPs  when the sender posts the transfer, in picoseconds (the earliest start when it waits for others)
 * @param priority traffic class / PFC priority (0-7); RDMA is conventionally 3
 * @param label    free text that groups flows in results (e.g. "incast"), may be empty
 * @param id       name other flows can wait for; may be empty
 * @param after    ids of flows whose data must all have arrived before this one starts (collective steps)
 */
public record FlowSpec(String src, String dst, long bytes, long startPs, int priority, String label, String id,
                       List<String> after) {
    public FlowSpec {
        Objects.requireNonNull(src, "src");
        Objects.requireNonNull(dst, "dst");
        if (bytes <= 0) {
            throw new IllegalArgumentException("flow " + src + " -> " + dst + ": bytes must be > 0, got " + bytes);
        }
        if (startPs < 0) {
            throw new IllegalArgumentException("flow " + src + " -> " + dst + ": start must be >= 0");
        }
        if (priority < 0 || priority > 7) {
            throw new IllegalArgumentException("flow " + src + " -> " + dst + ": priority must be 0-7, got " + priority);
        }
        label = label == null ? "" : label;
        id = id == null ? "" : id;
        after = List.copyOf(after == null ? List.of() : after);
    }

    public FlowSpec(String src, String dst, long bytes, long startPs, int priority, String label) {
        this(src, dst, bytes, startPs, priority, label, "", List.of());
    }

    public FlowSpec(String src, String dst, long bytes, long startPs, int priority) {
        this(src, dst, bytes, startPs, priority, "", "", List.of());
    }
}
