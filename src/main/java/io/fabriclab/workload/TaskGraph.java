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
    private final Map<Device, Integer> nicCount = new HashMap<>();
    private boolean steadyRings;

    public TaskGraph(Fabric fabric, int priority) {
        this.fabric = fabric;
        this.priority = priority;
    }

    /**
     * Whether rings are built in their steady state (docs/model.md, Steady rings): instead of one
     * transfer per ring step and position, one transfer per position carrying every step's bytes,
     * with the latency of all its steps but one paid before its first byte (the last is its own way
     * through the fabric). A ring whose steps are all alike moves the same bytes over the same hops
     * at the same rates either way; what it leaves out is the steps' synchronisation: a position
     * can no longer wait for a slower neighbour's previous step. Whole-cluster training steps, where
     * step-by-step rings would need hundreds of millions of tasks, use it.
     */
    public boolean steadyRings() {
        return steadyRings;
    }

    public TaskGraph withSteadyRings(boolean steady) {
        this.steadyRings = steady;
        return this;
    }

    /** Thrown when a graph would grow beyond its {@link #withLimit limit}. */
    public static final class TooManyTasks extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TooManyTasks(int limit) {
            super("more than " + limit + " tasks");
        }
    }

    private int limit = Integer.MAX_VALUE;

    /** At most {@code limit} tasks: one more throws {@link TooManyTasks}. */
    public TaskGraph withLimit(int limit) {
        this.limit = limit;
        return this;
    }

    private void add(FlowSpec task) {
        if (tasks.size() >= limit) {
            throw new TooManyTasks(limit);
        }
        tasks.add(task);
    }

    private final Map<Device, java.util.Optional<io.fabriclab.model.Link>> firstNicLink = new HashMap<>();

    /** The link of {@code server}'s first connected NIC, or null; cached. */
    public io.fabriclab.model.Link firstNicLink(Device server) {
        return firstNicLink.computeIfAbsent(server, d -> {
            List<io.fabriclab.model.Port> n = Gpus.nics(fabric, d);
            return java.util.Optional.ofNullable(n.isEmpty() ? null : fabric.linkAt(n.get(0)));
        }).orElse(null);
    }

    /** The number of connected NICs of {@code server}, cached (Gpus.nics walks its ports). */
    private int nics(Device server) {
        return nicCount.computeIfAbsent(server, d -> Gpus.nics(fabric, d).size());
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
        return send(src, dst, bytes, -1, -1, label, id, after);
    }

    /**
     * {@link #send(String, String, long, String, String, List)} with a fixed latency before the
     * first byte: {@code nvlinkDelayPs} over NVLink (-1: the domain's one hop), {@code networkDelayPs}
     * through the NICs (-1: none).
     */
    public String send(String src, String dst, long bytes, long nvlinkDelayPs, long networkDelayPs, String label,
                       String id, List<String> after) {
        Device a = Gpus.server(fabric, src);
        Device b = Gpus.server(fabric, dst);
        if (a == b) {
            add(FlowSpec.nvlink(src, dst, bytes, Math.max(0, nvlinkDelayPs), label, id, after));
        } else {
            int rail = Gpus.railOf(Gpus.index(dst), nics(b), b.gpus());
            String via = Gpus.ref(a, Gpus.gpuOnRail(rail, nics(a), a.gpus()));
            add(new FlowSpec(nic(via), nic(dst), bytes, 0, priority, label, id, after, FlowSpec.Kind.NETWORK,
                    Math.max(0, networkDelayPs)));
        }
        return id;
    }

    /** A network flow between two GPUs' NICs even when they share a server (never the case in presets). */
    public String network(String srcNicGpu, String dstNicGpu, long bytes, String label, String id, List<String> after) {
        add(new FlowSpec(nic(srcNicGpu), nic(dstNicGpu), bytes, 0, priority, label, id, after));
        return id;
    }

    public String nvlink(String src, String dst, long bytes, long latencyPs, String label, String id, List<String> after) {
        add(FlowSpec.nvlink(src, dst, bytes, latencyPs, label, id, after));
        return id;
    }

    public String compute(String gpu, long durationPs, String label, String id, List<String> after) {
        add(FlowSpec.compute(gpu, durationPs, label, id, after));
        return id;
    }
}
