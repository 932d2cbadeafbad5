package io.fabriclab.workload;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;

/**
 * Collects the tasks of a GPU workload (network flows, NVLink transfers, compute) with their
 * dependencies, and remembers for every GPU the tasks that must finish before its next piece of
 * work may start (its "frontier"). Collectives and the training job are built on it.
 */
public final class TaskGraph {
    private final Fabric fabric;
    private final int priority;
    private final List<FlowSpec> tasks = new ArrayList<>();
    private final Map<String, String> nicCache = new HashMap<>();

    public TaskGraph(Fabric fabric, int priority) {
        this.fabric = fabric;
        this.priority = priority;
    }

    public Fabric fabric() {
        return fabric;
    }

    public List<FlowSpec> tasks() {
        return tasks;
    }

    public int size() {
        return tasks.size();
    }

    /** The NIC GPU {@code gpu} uses ({@link Gpus#nicOf}), cached. */
    public String nic(String gpu) {
        return nicCache.computeIfAbsent(gpu, g -> Gpus.nicOf(fabric, g));
    }

    /**
     * A transfer of {@code bytes} from GPU {@code src} to GPU {@code dst}: over NVLink within a
     * server; between servers, a network flow that leaves through the NIC of the source server's
     * GPU on {@code dst}'s rail, so it stays on one rail (the source GPU's own NIC when it is on that
     * rail; otherwise that NIC reads the data across the server, as NCCL's rings do at a server's
     * exit: "NET/r GPU/r ... GPU/r-1 NET/r" in its topology dumps).
     */
    public String send(String src, String dst, long bytes, String label, String id, List<String> after) {
        Device a = Gpus.server(fabric, src);
        Device b = Gpus.server(fabric, dst);
        if (a == b) {
            tasks.add(FlowSpec.nvlink(src, dst, bytes, 0, label, id, after));
        } else {
            String via = Gpus.ref(a, Gpus.gpuOnRail(fabric, a, Gpus.railOf(fabric, b, Gpus.index(dst))));
            tasks.add(new FlowSpec(nic(via), nic(dst), bytes, 0, priority, label, id, after));
        }
        return id;
    }

    /** A network flow between two GPUs' NICs even when they share a server (never the case in presets). */
    public String network(String srcNicGpu, String dstNicGpu, long bytes, String label, String id, List<String> after) {
        tasks.add(new FlowSpec(nic(srcNicGpu), nic(dstNicGpu), bytes, 0, priority, label, id, after));
        return id;
    }

    public String nvlink(String src, String dst, long bytes, long latencyPs, String label, String id, List<String> after) {
        tasks.add(FlowSpec.nvlink(src, dst, bytes, latencyPs, label, id, after));
        return id;
    }

    public String compute(String gpu, long durationPs, String label, String id, List<String> after) {
        tasks.add(FlowSpec.compute(gpu, durationPs, label, id, after));
        return id;
    }
}
