package io.fabriclab.workload;

import java.util.List;
import java.util.Objects;

/**
 * One task of a workload. Most are RDMA transfers: a queue pair from a source NIC to a destination
 * NIC, simulated packet by packet ({@link Kind#NETWORK}). A GPU-cluster workload adds two kinds
 * that never touch a NIC (docs/model.md, Scale-up domain and compute):
 * <ul>
 * <li>{@link Kind#NVLINK}: {@code bytes} from one GPU to another GPU of the same server over the
 * server's NVLink / NVSwitch domain, at flow level: each GPU's NVLink bandwidth each way is shared
 * max-min fair between the transfers it sends or receives at once; {@code delayPs} is a fixed
 * latency paid before the bytes move (0: one hop of the domain's latency);</li>
 * <li>{@link Kind#COMPUTE}: a GPU busy for {@code delayPs} ({@code bytes} 0); a GPU runs its compute
 * tasks one at a time, in the order they become ready.</li>
 * </ul>
 *
 * @param src      source NIC as "server:port" or "server:nicK" (K = the port's NIC index); a GPU
 *                 "server:gpuK" for NVLink and compute tasks
 * @param dst      destination NIC, same form; the GPU itself for a compute task
 * @param bytes    payload bytes to move (0 for compute)
 * @param startPs  when the sender posts the transfer, in picoseconds (the earliest start when it waits for others)
 * @param priority traffic class / PFC priority (0-7); RDMA is conventionally 3
 * @param label    free text that groups flows in results (e.g. "incast"), may be empty
 * @param id       name other flows can wait for; may be empty
 * @param after    ids of tasks that must all have finished before this one starts (collective steps)
 * @param kind     network (default), NVLink or compute
 * @param delayPs  compute: its duration; NVLink: latency before the bytes move (0: the domain's one hop); network:
 *                 a fixed latency before the first byte is sent (0 for a single transfer; a steady ring's
 *                 transfer stands for many ring steps and carries the latency of all but one,
 *                 {@link TaskGraph#steadyRings})
 */
public record FlowSpec(String src, String dst, long bytes, long startPs, int priority, String label, String id,
                       List<String> after, Kind kind, long delayPs) {

    /** What a task uses: the fabric (packet level), a server's NVLink domain, or a GPU's compute. */
    public enum Kind {
        NETWORK("network"), NVLINK("nvlink"), COMPUTE("compute");

        private final String jsonName;

        Kind(String jsonName) {
            this.jsonName = jsonName;
        }

        public String jsonName() {
            return jsonName;
        }
    }

    public FlowSpec {
        Objects.requireNonNull(src, "src");
        Objects.requireNonNull(dst, "dst");
        kind = kind == null ? Kind.NETWORK : kind;
        if (kind == Kind.COMPUTE) {
            if (bytes != 0) {
                throw new IllegalArgumentException("compute task on " + src + ": bytes must be 0, got " + bytes);
            }
            if (delayPs <= 0) {
                throw new IllegalArgumentException("compute task on " + src + ": duration must be > 0, got " + delayPs + " ps");
            }
        } else if (bytes <= 0) {
            throw new IllegalArgumentException("flow " + src + " -> " + dst + ": bytes must be > 0, got " + bytes);
        }
        if (delayPs < 0) {
            throw new IllegalArgumentException("task " + src + " -> " + dst + ": delay must be >= 0");
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

    /** A network flow that may wait for others. */
    public FlowSpec(String src, String dst, long bytes, long startPs, int priority, String label, String id,
                    List<String> after) {
        this(src, dst, bytes, startPs, priority, label, id, after, Kind.NETWORK, 0);
    }

    public FlowSpec(String src, String dst, long bytes, long startPs, int priority, String label) {
        this(src, dst, bytes, startPs, priority, label, "", List.of());
    }

    public FlowSpec(String src, String dst, long bytes, long startPs, int priority) {
        this(src, dst, bytes, startPs, priority, "", "", List.of());
    }

    /** An NVLink transfer between two GPUs of one server ("server:gpuK"). */
    public static FlowSpec nvlink(String srcGpu, String dstGpu, long bytes, long latencyPs, String label, String id,
                                  List<String> after) {
        return new FlowSpec(srcGpu, dstGpu, bytes, 0, 0, label, id, after, Kind.NVLINK, latencyPs);
    }

    /** A compute interval of {@code durationPs} on GPU "server:gpuK". */
    public static FlowSpec compute(String gpu, long durationPs, String label, String id, List<String> after) {
        return new FlowSpec(gpu, gpu, 0, 0, 0, label, id, after, Kind.COMPUTE, durationPs);
    }

    /** True for a packet-level transfer between NICs. */
    public boolean network() {
        return kind == Kind.NETWORK;
    }
}
