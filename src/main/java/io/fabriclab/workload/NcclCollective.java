package io.fabriclab.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.model.ScaleUp;

/**
 * A collective over GPUs as NCCL runs it on a cluster of multi-GPU servers (docs/model.md,
 * Collectives as NCCL runs them): traffic between GPUs of one server goes over the server's NVLink
 * domain, traffic between servers through the NICs, each GPU's own NIC (one per GPU and rail on a
 * rail-optimized cluster). {@code bytes} is S as nccl-tests defines it (the buffer of an
 * all-reduce or broadcast, the output of an all-gather, the input of a reduce-scatter, what each
 * rank sends in all in an all-to-all). Algorithms:
 * <ul>
 * <li>{@link Algorithm#RING}: NCCL's ring with channels. Channel c enters every server on the GPU of
 * rail r = c mod g (g GPUs of the collective per server), visits the server's other GPUs over
 * NVLink, and leaves through the NIC of rail r to the next server's rail-r GPU, so every
 * server-to-server hop of a channel stays on one rail ("NET/r GPU/r ... GPU/r-1 NET/r" in NCCL's
 * topology dumps: the last GPU's data is read by rail r's NIC). {@code channelsPerRail} x g
 * channels share S. All-reduce: 2(n-1) steps; reduce-scatter, all-gather: n-1; every step moves
 * ceil(S_c / n) per hop; a rank's step k+1 waits for its own step-k send and its predecessor's
 * step-k data. Broadcast: the ring as a pipeline of 512 KiB chunks from the root.</li>
 * <li>{@link Algorithm#HIERARCHICAL} (all-reduce): reduce-scatter of S inside each server over NVLink
 * (a ring of g GPUs), then an all-reduce of S/g per rail across the servers (a ring of the
 * servers' rail-r GPUs through their rail-r NICs, {@code channelsPerRail} rings per rail), then an
 * all-gather of S inside each server.</li>
 * <li>{@link Algorithm#TREE} (all-reduce): as hierarchical, but the all-reduce across servers is
 * NCCL's double binary tree: two binary trees over the servers (the second the first mirrored),
 * each reducing half of S/g to its root and broadcasting it back, pipelined in chunks of at least
 * 512 KiB (at most 16 per tree).</li>
 * <li>{@link Algorithm#DIRECT} (all-to-all): every rank sends S/n to every other rank at once, over
 * NVLink inside a server and from its own NIC to the peer's NIC between servers (crossing rails
 * through the spines when the two GPUs sit on different rails).</li>
 * <li>{@link Algorithm#PXN} (all-to-all): NCCL's PXN: data for GPU b on another server first moves
 * over NVLink to the local GPU on b's rail, which sends the whole server's data for b in one
 * transfer through its NIC, so every server-to-server transfer stays on one rail.</li>
 * </ul>
 * {@link Algorithm#AUTO} chooses as NCCL's tuning does: the lowest estimated time by an alpha-beta
 * model of each algorithm on this fabric ({@link #plan}); PXN for an all-to-all across servers and
 * rails. Flows are labelled "KIND:NAME" and every choice is stated by {@link Plan#describe()}.
 */
public record NcclCollective(Op op, String name, List<String> ranks, long bytes, Algorithm algorithm,
                             int channelsPerRail, int priority) implements Workload {

    /** Collective operations. */
    public enum Op {
        ALL_REDUCE("allreduce"), REDUCE_SCATTER("reducescatter"), ALL_GATHER("allgather"),
        BROADCAST("broadcast"), ALL_TO_ALL("alltoall");

        private final String jsonName;

        Op(String jsonName) {
            this.jsonName = jsonName;
        }

        public String jsonName() {
            return jsonName;
        }

        /** nccl-tests' bus bandwidth factor (its doc/PERFORMANCE.md): busbw = algbw x factor. */
        public double busFactor(int n) {
            return switch (this) {
                case ALL_REDUCE -> 2.0 * (n - 1) / n;
                case BROADCAST -> 1.0;
                default -> (double) (n - 1) / n;
            };
        }

        public static Op fromJsonName(String s) {
            for (Op o : values()) {
                if (o.jsonName.equalsIgnoreCase(s) || o.name().equalsIgnoreCase(s.replace('-', '_'))) {
                    return o;
                }
            }
            return null;
        }
    }

    /** Algorithms; which apply to which operation: {@link #applies}. */
    public enum Algorithm {
        AUTO("auto"), RING("ring"), TREE("tree"), HIERARCHICAL("hierarchical"), DIRECT("direct"), PXN("pxn");

        private final String jsonName;

        Algorithm(String jsonName) {
            this.jsonName = jsonName;
        }

        public String jsonName() {
            return jsonName;
        }

        public boolean applies(Op op) {
            return switch (this) {
                case AUTO -> true;
                case RING -> op != Op.ALL_TO_ALL;
                case TREE, HIERARCHICAL -> op == Op.ALL_REDUCE;
                case DIRECT, PXN -> op == Op.ALL_TO_ALL;
            };
        }

        public static Algorithm fromJsonName(String s) {
            for (Algorithm a : values()) {
                if (a.jsonName.equalsIgnoreCase(s)) {
                    return a;
                }
            }
            return null;
        }
    }

    /** Default rings per rail: NCCL duplicates the channels its ring search finds (2 per NIC). */
    public static final int DEFAULT_CHANNELS_PER_RAIL = 2;
    /** NCCL's Simple protocol moves a 4 MiB buffer in 8 steps: 512 KiB per pipeline chunk. */
    public static final long PIPELINE_CHUNK_BYTES = 512 * 1024;
    /** Most pipeline chunks per tree or broadcast ring. */
    public static final int MAX_PIPELINE_CHUNKS = 16;
    /** Most tasks one collective may make (a flat ring over thousands of GPUs makes millions). */
    public static final long MAX_TASKS = 2_000_000;

    public NcclCollective {
        ranks = List.copyOf(ranks);
        if (ranks.size() < 2) {
            throw new IllegalArgumentException(op.jsonName + " " + name + " needs at least 2 ranks, got " + ranks.size());
        }
        if (ranks.stream().distinct().count() != ranks.size()) {
            throw new IllegalArgumentException(op.jsonName + " " + name + ": a GPU appears twice");
        }
        if (!algorithm.applies(op)) {
            throw new IllegalArgumentException(op.jsonName + " " + name + ": algorithm " + algorithm.jsonName
                    + " does not apply; allowed: " + allowed(op));
        }
        if (channelsPerRail < 1 || channelsPerRail > 32) {
            throw new IllegalArgumentException(op.jsonName + " " + name + ": channelsPerRail must be 1-32, got "
                    + channelsPerRail);
        }
        if (bytes < ranks.size()) {
            throw new IllegalArgumentException(op.jsonName + " " + name + ": " + bytes + " B cannot be cut into "
                    + ranks.size() + " chunks");
        }
    }

    /** The algorithms that apply to {@code op}, for messages. */
    public static String allowed(Op op) {
        List<String> out = new ArrayList<>();
        for (Algorithm a : Algorithm.values()) {
            if (a.applies(op)) {
                out.add(a.jsonName);
            }
        }
        return String.join(", ", out);
    }

    public String label() {
        return op.jsonName + ":" + name;
    }

    /**
     * What will run: the algorithm (AUTO resolved), the channels, the servers and GPUs per server,
     * and the alpha-beta estimate of every algorithm considered, in microseconds.
     */
    public record Plan(Algorithm algorithm, int channels, int servers, int gpusPerServer,
                       Map<Algorithm, Double> estimatesUs, String reason) {
        public String describe() {
            StringBuilder b = new StringBuilder(algorithm.jsonName + ", " + channels + " channel"
                    + (channels == 1 ? "" : "s") + ", " + servers + " server" + (servers == 1 ? "" : "s") + " x "
                    + gpusPerServer + " GPU" + (gpusPerServer == 1 ? "" : "s"));
            if (!reason.isEmpty()) {
                b.append(" (").append(reason).append(")");
            }
            return b.toString();
        }
    }

    /** The ranks grouped by server, in the order given. */
    private Map<Device, List<String>> byServer(Fabric fabric) {
        Map<Device, List<String>> out = new LinkedHashMap<>();
        for (String r : ranks) {
            Device d = Gpus.server(fabric, r);
            if (d == null || !Gpus.exists(fabric, r)) {
                throw new IllegalArgumentException(label() + ": GPU '" + r + "' not found (use server:gpuK)");
            }
            out.computeIfAbsent(d, k -> new ArrayList<>()).add(r);
        }
        return out;
    }

    /** The plan on {@code fabric}: AUTO resolved by the alpha-beta estimates. */
    public Plan plan(Fabric fabric) {
        Map<Device, List<String>> groups = byServer(fabric);
        int servers = groups.size();
        int g = groups.values().iterator().next().size();
        boolean even = groups.values().stream().allMatch(l -> l.size() == g);
        int n = ranks.size();
        int railChannels = servers > 1 && even ? g * channelsPerRail : servers > 1 ? channelsPerRail : 1;
        Map<Algorithm, Double> est = new LinkedHashMap<>();
        if (op == Op.ALL_TO_ALL) {
            boolean pxnUseful = servers > 1 && g > 1 && even;
            Algorithm a = algorithm != Algorithm.AUTO ? algorithm : pxnUseful ? Algorithm.PXN : Algorithm.DIRECT;
            if (a == Algorithm.PXN && !pxnUseful) {
                a = Algorithm.DIRECT;
                return new Plan(a, 1, servers, g, est, "PXN needs several servers with the same GPUs each: direct");
            }
            return new Plan(a, 1, servers, g, est, algorithm == Algorithm.AUTO ? (a == Algorithm.PXN
                    ? "auto: PXN, as NCCL sends across rails" : "auto: direct") : "");
        }
        if (op != Op.ALL_REDUCE || servers == 1 || g == 1 || !even) {
            // One server, one GPU per server or uneven groups: a ring is the only algorithm that applies.
            Algorithm a = Algorithm.RING;
            if (algorithm != Algorithm.AUTO && algorithm != Algorithm.RING) {
                if (op == Op.ALL_REDUCE && servers > 1 && g == 1 && algorithm == Algorithm.TREE) {
                    return new Plan(Algorithm.TREE, channelsPerRail, servers, g, est, "");
                }
                throw new IllegalArgumentException(label() + ": " + algorithm.jsonName + " needs several servers with "
                        + "the same number (2 or more) of the collective's GPUs each; this one has " + servers
                        + " server(s) with " + (even ? g : "uneven numbers of") + " GPU(s) each");
            }
            if (op == Op.ALL_REDUCE && servers > 1 && algorithm == Algorithm.AUTO) {
                // One GPU per server: ring or tree across the servers.
                Estimates e = new Estimates(fabric, groups, bytes, n, servers, g);
                est.put(Algorithm.RING, e.ring(railChannels) / 1e6);
                est.put(Algorithm.TREE, e.tree() / 1e6);
                a = est.get(Algorithm.TREE) < est.get(Algorithm.RING) ? Algorithm.TREE : Algorithm.RING;
                return new Plan(a, a == Algorithm.TREE ? channelsPerRail : railChannels, servers, g, est,
                        "auto: lowest estimate");
            }
            return new Plan(a, railChannels, servers, g, est, "");
        }
        Estimates e = new Estimates(fabric, groups, bytes, n, servers, g);
        long ringTasks = (long) railChannels * 2L * (n - 1) * n;
        if (ringTasks <= MAX_TASKS) {
            est.put(Algorithm.RING, e.ring(railChannels) / 1e6);
        }
        est.put(Algorithm.HIERARCHICAL, e.hierarchical() / 1e6);
        est.put(Algorithm.TREE, e.tree() / 1e6);
        if (algorithm != Algorithm.AUTO) {
            return new Plan(algorithm, algorithm == Algorithm.RING ? railChannels : channelsPerRail * g, servers, g, est, "");
        }
        Algorithm best = null;
        for (Map.Entry<Algorithm, Double> x : est.entrySet()) {
            if (best == null || x.getValue() < est.get(best)) {
                best = x.getKey();
            }
        }
        String why = "auto: lowest estimate" + (ringTasks > MAX_TASKS ? "; a flat ring would need " + ringTasks
                + " tasks" : "");
        return new Plan(best, best == Algorithm.RING ? railChannels : channelsPerRail * g, servers, g, est, why);
    }

    /**
     * Alpha-beta estimates (picoseconds) on the fabric: a hop between GPUs of one server costs the
     * NVLink latency plus bytes over the NVLink bandwidth; between servers, the NIC-to-NIC latency
     * (cables at 5 ns/m, one switch's port-to-port latency per switch crossed: 1 within a rail, 3
     * through a spine) plus bytes over the NIC's line rate. Queueing, framing and congestion are
     * left to the simulation; the estimates only choose the algorithm.
     */
    private static final class Estimates {
        final double nvlBw;
        final double nvlLat;
        final double nicBw;
        final double netLat;
        /** S, bytes. */
        final double s;
        final int n;
        final int servers;
        final int g;

        Estimates(Fabric fabric, Map<Device, List<String>> groups, long bytes, int n, int servers, int g) {
            Device first = groups.keySet().iterator().next();
            ScaleUp su = first.scaleUpOrDefault();
            this.nvlBw = su.bytesPerPs();
            this.nvlLat = su.latencyPs();
            Port nic = Gpus.nics(fabric, first).get(0);
            Link l = fabric.linkAt(nic);
            this.nicBw = l.speedGbps() / 8.0 / 1000.0;
            // NIC to leaf and leaf to NIC: two cables; one switch in a rail, three through a spine.
            // One cut-through switch: 300 ns, the Ethernet class figure of model.SwitchLatency (a
            // workload does not know the run's transport; the estimate only chooses the algorithm).
            this.netLat = netLatencyPs(l);
            this.s = bytes;
            this.n = n;
            this.servers = servers;
            this.g = g;
        }


        /** NIC to NIC through one cut-through switch: two cables like {@code nicLink}, 300 ns. */
        static long netLatencyPs(Link nicLink) {
            return 2 * nicLink.propagationPs() + io.fabriclab.model.Units.PS_PER_NS * 300;
        }

        double ring(int channels) {
            int steps = 2 * (n - 1);
            double perStepNic = s / Math.max(1, g) / n / nicBw;
            double perStepNvl = g > 1 ? s / n / nvlBw : 0;
            double step = Math.max(netLat + perStepNic, g > 1 ? nvlLat + perStepNvl : 0);
            return steps * step;
        }

        double intra() {
            return g > 1 ? (g - 1) * (nvlLat + s / g / nvlBw) : 0;
        }

        /** Three phases over P pieces in a pipeline: the first piece's three phases, then P-1 of the slowest. */
        double pipelined(double intraAll, double interAll) {
            int p = piecesFor((long) Math.ceil(s / g), servers, g, Algorithm.HIERARCHICAL, DEFAULT_CHANNELS_PER_RAIL);
            double a = intraAll / p;
            double b = interAll / p;
            return 2 * a + b + (p - 1) * Math.max(a, b);
        }

        double hierarchical() {
            double inter = 2.0 * (servers - 1) * (netLat + s / g / servers / nicBw);
            return pipelined(intra(), inter);
        }

        double tree() {
            double half = s / g / 2;
            int depth = 32 - Integer.numberOfLeadingZeros(Math.max(1, servers - 1));
            double chunk = Math.max(PIPELINE_CHUNK_BYTES, half / MAX_PIPELINE_CHUNKS);
            double inter = 2 * s / g / nicBw + 2 * depth * (netLat + Math.min(chunk, half) / nicBw);
            return pipelined(intra(), inter);
        }
    }

    @Override
    public List<FlowSpec> flows(Fabric fabric) {
        TaskGraph graph = new TaskGraph(fabric, priority);
        build(graph, r -> List.of());
        return graph.tasks();
    }

    /**
     * Adds this collective's tasks to {@code graph}; each rank's first tasks wait for
     * {@code afterOf(rank)}. Returns, per rank, the ids that must finish before the rank has its
     * result.
     */
    public Map<String, List<String>> build(TaskGraph graph, Function<String, List<String>> afterOf) {
        Fabric fabric = graph.fabric();
        Plan plan = plan(fabric);
        Map<Device, List<String>> groups = byServer(fabric);
        Map<String, List<String>> done = new LinkedHashMap<>();
        for (String r : ranks) {
            done.put(r, new ArrayList<>());
        }
        String prefix = name;
        switch (plan.algorithm()) {
            case RING -> {
                if (op == Op.BROADCAST) {
                    broadcastRing(graph, groups, plan.channels(), afterOf, done);
                } else {
                    flatRing(graph, groups, plan.channels(), afterOf, done);
                }
            }
            case HIERARCHICAL, TREE -> hierarchical(graph, groups, plan, afterOf, done);
            case DIRECT -> allToAll(graph, groups, false, afterOf, done);
            case PXN -> allToAll(graph, groups, true, afterOf, done);
            default -> throw new IllegalStateException("unresolved algorithm " + plan.algorithm() + " of " + prefix);
        }
        return done;
    }

    private int steps(int n) {
        return switch (op) {
            case ALL_REDUCE -> 2 * (n - 1);
            case REDUCE_SCATTER, ALL_GATHER -> n - 1;
            default -> 1;
        };
    }

    /** The ring order of channel {@code c}: servers in order, each entered on the GPU of rail c mod g. */
    private static List<String> ringOrder(Map<Device, List<String>> groups, int c) {
        List<String> out = new ArrayList<>();
        for (List<String> gpus : groups.values()) {
            int g = gpus.size();
            int r = c % g;
            for (int i = 0; i < g; i++) {
                out.add(gpus.get((r + i) % g));
            }
        }
        return out;
    }

    private void flatRing(TaskGraph graph, Map<Device, List<String>> groups, int channels,
                          Function<String, List<String>> afterOf, Map<String, List<String>> done) {
        int n = ranks.size();
        int steps = steps(n);
        long tasks = (long) channels * (graph.steadyRings() ? 1 : steps) * n;
        if (tasks > MAX_TASKS) {
            throw new IllegalArgumentException(label() + ": a flat ring over " + n + " GPUs with " + channels
                    + " channels makes " + tasks + " tasks, more than " + MAX_TASKS
                    + "; use algorithm hierarchical or tree (or auto)");
        }
        for (int c = 0; c < channels; c++) {
            long share = bytes / channels + (c < bytes % channels ? 1 : 0);
            long chunk = Math.max(1, (share + n - 1) / n);
            ring(graph, ringOrder(groups, c), chunk, steps, name + "/c" + c, afterOf, done, label());
        }
    }

    /**
     * A ring over {@code order}: {@code steps} steps of {@code chunk} bytes from each position to
     * the next. A hop between servers leaves through the NIC of the next GPU's rail.
     */
    private static void ring(TaskGraph graph, List<String> order, long chunk, int steps, String prefix,
                             Function<String, List<String>> afterOf, Map<String, List<String>> done, String label) {
        int n = order.size();
        if (steps == 0) {
            // Nothing to move (one GPU): its result is what it waited for.
            for (String r : order) {
                done.get(r).addAll(afterOf.apply(r));
            }
            return;
        }
        if (graph.steadyRings() && steps > 1) {
            steadyRing(graph, order, chunk, steps, prefix, afterOf, done, label);
            return;
        }
        for (int k = 0; k < steps; k++) {
            for (int i = 0; i < n; i++) {
                String src = order.get(i);
                String dst = order.get((i + 1) % n);
                List<String> after = k == 0 ? afterOf.apply(src)
                        : List.of(prefix + "/" + (k - 1) + "/" + i, prefix + "/" + (k - 1) + "/" + ((i - 1 + n) % n));
                // Between servers through the NIC of the rail the next server is entered on (TaskGraph.send).
                graph.send(src, dst, chunk, label, prefix + "/" + k + "/" + i, after);
            }
        }
        for (int i = 0; i < n; i++) {
            List<String> d = done.get(order.get(i));
            d.add(prefix + "/" + (steps - 1) + "/" + i);
            d.add(prefix + "/" + (steps - 1) + "/" + ((i - 1 + n) % n));
        }
    }

    /**
     * The ring in its steady state ({@link TaskGraph#steadyRings}): each position sends its
     * successor all {@code steps} chunks in one transfer, once it and its predecessor are ready (as
     * the step-by-step ring's second step waits), paying before its first byte the latency of all
     * steps but the last: over NVLink the domain's hop latency per step, between servers the
     * NIC-to-NIC latency of {@link Estimates} (two cables and one 300 ns switch) per step.
     */
    private static void steadyRing(TaskGraph graph, List<String> order, long chunk, int steps, String prefix,
                                   Function<String, List<String>> afterOf, Map<String, List<String>> done,
                                   String label) {
        int n = order.size();
        Fabric fabric = graph.fabric();
        for (int i = 0; i < n; i++) {
            String src = order.get(i);
            String dst = order.get((i + 1) % n);
            Device server = Gpus.server(fabric, src);
            long nvlink = steps * server.scaleUpOrDefault().latencyPs();
            Link nic = graph.firstNicLink(server);
            long hop = nic == null ? 0 : Estimates.netLatencyPs(nic);
            List<String> after = new ArrayList<>(afterOf.apply(src));
            after.addAll(afterOf.apply(order.get((i - 1 + n) % n)));
            graph.send(src, dst, chunk * steps, nvlink, (steps - 1) * hop, label, prefix + "/steady/" + i,
                    after.stream().distinct().toList());
        }
        for (int i = 0; i < n; i++) {
            List<String> d = done.get(order.get(i));
            d.add(prefix + "/steady/" + i);
            d.add(prefix + "/steady/" + ((i - 1 + n) % n));
        }
    }

    private void broadcastRing(TaskGraph graph, Map<Device, List<String>> groups, int channels,
                               Function<String, List<String>> afterOf, Map<String, List<String>> done) {
        int n = ranks.size();
        for (int c = 0; c < channels; c++) {
            List<String> order = ringOrder(groups, c);
            // The root (the first rank) starts the chain.
            int rootAt = order.indexOf(ranks.get(0));
            List<String> chain = new ArrayList<>(order.subList(rootAt, n));
            chain.addAll(order.subList(0, rootAt));
            long share = bytes / channels + (c < bytes % channels ? 1 : 0);
            int chunks = (int) Math.max(1, Math.min(MAX_PIPELINE_CHUNKS, (share + PIPELINE_CHUNK_BYTES - 1) / PIPELINE_CHUNK_BYTES));
            long chunk = Math.max(1, (share + chunks - 1) / chunks);
            String prefix = name + "/c" + c;
            for (int p = 0; p < chunks; p++) {
                for (int i = 0; i + 1 < n; i++) {
                    List<String> after = new ArrayList<>();
                    if (i == 0) {
                        after.addAll(afterOf.apply(chain.get(0)));
                    } else {
                        after.add(prefix + "/" + p + "/" + (i - 1));
                    }
                    if (p > 0) {
                        after.add(prefix + "/" + (p - 1) + "/" + i);
                    }
                    graph.send(chain.get(i), chain.get(i + 1), chunk, label(), prefix + "/" + p + "/" + i, after);
                }
            }
            for (int i = 1; i < n; i++) {
                done.get(chain.get(i)).add(prefix + "/" + (chunks - 1) + "/" + (i - 1));
            }
            done.get(chain.get(0)).add(prefix + "/" + (chunks - 1) + "/0");
        }
    }

    /**
     * Reduce-scatter in each server, all-reduce across servers per rail (ring or double binary
     * tree), all-gather in each server; S cut into {@link #pieces} pieces that follow one another
     * through the three phases, so one piece crosses the network while the next is reduced over
     * NVLink (NCCL pipelines its chunks the same way), no more pieces than keep the collective within
     * {@link #MAX_TASKS} tasks ({@link #piecesFor}). Each phase takes its pieces in order.
     */
    private void hierarchical(TaskGraph graph, Map<Device, List<String>> groups, Plan plan,
                              Function<String, List<String>> afterOf, Map<String, List<String>> done) {
        int g = plan.gpusPerServer();
        int servers = groups.size();
        long perGpuAll = (bytes + g - 1) / g;
        int pieces = piecesFor(perGpuAll, servers, g, plan.algorithm(), channelsPerRail);
        Map<String, List<String>> prevRs = null;
        Map<String, List<String>> prevInter = null;
        Map<String, List<String>> prevAg = null;
        for (int p = 0; p < pieces; p++) {
            long perGpu = Math.max(1, perGpuAll / pieces + (p < perGpuAll % pieces ? 1 : 0));
            String pre = pieces == 1 ? name : name + "/p" + p;
            final Map<String, List<String>> rsBefore = prevRs;
            final Map<String, List<String>> interBefore = prevInter;
            final Map<String, List<String>> agBefore = prevAg;
            // 1. Reduce-scatter inside each server: a ring of g GPUs over NVLink, g-1 steps of S/g.
            Map<String, List<String>> rsDone = fresh();
            Function<String, List<String>> rsAfter = r -> join(afterOf.apply(r), rsBefore == null ? null : rsBefore.get(r));
            int si = 0;
            for (List<String> gpus : groups.values()) {
                ring(graph, gpus, perGpu, g - 1, pre + "/rs/s" + si, rsAfter, rsDone, label());
                si++;
            }
            // 2. Across servers, per rail j: the servers' j-th GPUs.
            Map<String, List<String>> interDone = fresh();
            Function<String, List<String>> interAfter = r -> join(rsDone.get(r), interBefore == null ? null : interBefore.get(r));
            for (int j = 0; j < g; j++) {
                List<String> col = new ArrayList<>();
                for (List<String> gpus : groups.values()) {
                    col.add(gpus.get(j));
                }
                if (plan.algorithm() == Algorithm.TREE) {
                    doubleBinaryTree(graph, col, perGpu, pre + "/tree/r" + j, interAfter, interDone);
                } else {
                    for (int c = 0; c < channelsPerRail; c++) {
                        long share = perGpu / channelsPerRail + (c < perGpu % channelsPerRail ? 1 : 0);
                        long chunk = Math.max(1, (share + servers - 1) / servers);
                        ring(graph, col, chunk, 2 * (servers - 1), pre + "/x/r" + j + "c" + c, interAfter, interDone,
                                label());
                    }
                }
            }
            // 3. All-gather inside each server.
            Map<String, List<String>> agDone = fresh();
            Function<String, List<String>> agAfter = r -> join(interDone.get(r), agBefore == null ? null : agBefore.get(r));
            si = 0;
            for (List<String> gpus : groups.values()) {
                ring(graph, gpus, perGpu, g - 1, pre + "/ag/s" + si, agAfter, agDone, label());
                si++;
            }
            prevRs = rsDone;
            prevInter = interDone;
            prevAg = agDone;
        }
        for (String r : ranks) {
            done.get(r).addAll(prevAg.get(r));
        }
    }

    /** Pieces of a hierarchical all-reduce: S/g cut into pieces of at least 1 MiB, at most 8. */
    static int pieces(long perGpu) {
        return (int) Math.max(1, Math.min(MAX_PIECES, perGpu / PIECE_MIN_BYTES));
    }

    /**
     * {@link #pieces}, and no more than keep the collective within {@link #MAX_TASKS} tasks: on many
     * servers one piece's ring across them already has 2(N-1) steps of its own to pipeline (e.g.
     * 128 servers x 8 rails x 2 rings x 254 steps = 520,192 transfers a piece).
     */
    static int piecesFor(long perGpu, int servers, int g, Algorithm a, int channelsPerRail) {
        long intra = 2L * servers * g * (g - 1);
        long inter = a == Algorithm.TREE
                ? (long) g * 2 * MAX_PIPELINE_CHUNKS * 2L * (servers - 1)
                : (long) g * channelsPerRail * 2L * (servers - 1) * servers;
        long perPiece = Math.max(1, intra + inter);
        return (int) Math.max(1, Math.min(pieces(perGpu), MAX_TASKS / perPiece));
    }

    /** At least this much per GPU in a piece of a hierarchical all-reduce. */
    public static final long PIECE_MIN_BYTES = 1L << 20;
    /** At most this many pieces. */
    public static final int MAX_PIECES = 8;

    private Map<String, List<String>> fresh() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        for (String r : ranks) {
            m.put(r, new ArrayList<>());
        }
        return m;
    }

    private static List<String> join(List<String> a, List<String> b) {
        if (b == null || b.isEmpty()) {
            return a;
        }
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    /**
     * NCCL's double binary tree over {@code col} (one GPU per server): tree 0 a binary heap over
     * the positions, tree 1 the same over the positions mirrored; each carries half of the bytes,
     * reduced up to its root and broadcast back down, in pipeline chunks.
     */
    private void doubleBinaryTree(TaskGraph graph, List<String> col, long bytesEach, String prefix,
                                  Function<String, List<String>> afterOf, Map<String, List<String>> done) {
        int m = col.size();
        for (int t = 0; t < 2; t++) {
            long half = bytesEach / 2 + (t == 0 ? bytesEach % 2 : 0);
            if (half <= 0) {
                continue;
            }
            int chunks = (int) Math.max(1, Math.min(MAX_PIPELINE_CHUNKS, (half + PIPELINE_CHUNK_BYTES - 1) / PIPELINE_CHUNK_BYTES));
            long chunk = Math.max(1, (half + chunks - 1) / chunks);
            String tp = prefix + "t" + t;
            for (int p = 0; p < chunks; p++) {
                // Up: every node but the root sends chunk p to its parent once its children's chunk p arrived.
                for (int v = 1; v < m; v++) {
                    List<String> after = new ArrayList<>(afterOf.apply(node(col, t, v)));
                    for (int ch = 2 * v + 1; ch <= 2 * v + 2 && ch < m; ch++) {
                        after.add(tp + "/up/" + p + "/" + ch);
                    }
                    if (p > 0) {
                        after.add(tp + "/up/" + (p - 1) + "/" + v);
                    }
                    graph.network(node(col, t, v), node(col, t, (v - 1) / 2), chunk, label(), tp + "/up/" + p + "/" + v, after);
                }
                // Down: the root once its children's chunk p arrived; the others once their parent's arrived.
                for (int v = 1; v < m; v++) {
                    int parent = (v - 1) / 2;
                    List<String> after = new ArrayList<>();
                    if (parent == 0) {
                        after.addAll(afterOf.apply(node(col, t, 0)));
                        for (int ch = 1; ch <= 2 && ch < m; ch++) {
                            after.add(tp + "/up/" + p + "/" + ch);
                        }
                    } else {
                        after.add(tp + "/down/" + p + "/" + parent);
                    }
                    if (p > 0) {
                        after.add(tp + "/down/" + (p - 1) + "/" + v);
                    }
                    graph.network(node(col, t, parent), node(col, t, v), chunk, label(), tp + "/down/" + p + "/" + v, after);
                }
            }
            for (int v = 0; v < m; v++) {
                List<String> d = done.get(node(col, t, v));
                if (v == 0) {
                    for (int ch = 1; ch <= 2 && ch < m; ch++) {
                        d.add(tp + "/up/" + (chunks - 1) + "/" + ch);
                    }
                } else {
                    d.add(tp + "/down/" + (chunks - 1) + "/" + v);
                }
            }
        }
    }

    private static String node(List<String> col, int tree, int v) {
        return tree == 0 ? col.get(v) : col.get(col.size() - 1 - v);
    }

    private void allToAll(TaskGraph graph, Map<Device, List<String>> groups, boolean pxn,
                          Function<String, List<String>> afterOf, Map<String, List<String>> done) {
        int n = ranks.size();
        long each = Math.max(1, bytes / n);
        Fabric fabric = graph.fabric();
        List<Device> servers = new ArrayList<>(groups.keySet());
        for (Device s : servers) {
            List<String> local = groups.get(s);
            // Inside the server: NVLink, directly.
            for (String a : local) {
                for (String b : local) {
                    if (!a.equals(b)) {
                        String id = name + "/nv/" + a + ">" + b;
                        graph.nvlink(a, b, each, 0, label(), id, afterOf.apply(a));
                        done.get(b).add(id);
                    }
                }
            }
            if (!pxn) {
                for (String a : local) {
                    for (Device t : servers) {
                        if (t == s) {
                            continue;
                        }
                        for (String b : groups.get(t)) {
                            String id = name + "/net/" + a + ">" + b;
                            graph.network(a, b, each, label(), id, afterOf.apply(a));
                            done.get(b).add(id);
                        }
                    }
                }
                continue;
            }
            // PXN: for each rail, the local GPU on it gathers over NVLink what the server's GPUs send
            // to that rail's GPUs on the other servers, then sends it through its own NIC.
            Map<Integer, String> onRail = new LinkedHashMap<>();
            for (String a : local) {
                onRail.put(Gpus.railOf(fabric, s, Gpus.index(a)), a);
            }
            // In pieces (each gather of at least 1 MiB, at most 8 pieces), so the gather of piece p + 1
            // runs over NVLink while piece p crosses the network, as NCCL pipelines PXN's chunks.
            Map<String, Long> peersOf = new LinkedHashMap<>();
            long most = 0;
            for (String proxy : local) {
                int rail = Gpus.railOf(fabric, s, Gpus.index(proxy));
                long remotePeers = 0;
                for (Device t : servers) {
                    if (t != s) {
                        for (String b : groups.get(t)) {
                            if (Gpus.railOf(fabric, t, Gpus.index(b)) == rail) {
                                remotePeers++;
                            }
                        }
                    }
                }
                peersOf.put(proxy, remotePeers);
                most = Math.max(most, remotePeers);
            }
            int pieces = pieces(each * most);
            long piece = Math.max(1, (each + pieces - 1) / pieces);
            // gathered.get(proxy).get(p): what piece p's transfers from the proxy wait for.
            Map<String, List<List<String>>> gathered = new LinkedHashMap<>();
            for (String proxy : local) {
                List<List<String>> perPiece = new ArrayList<>();
                for (int p = 0; p < pieces; p++) {
                    List<String> ids = new ArrayList<>(afterOf.apply(proxy));
                    if (peersOf.get(proxy) > 0) {
                        for (String a : local) {
                            if (!a.equals(proxy)) {
                                String id = name + "/pxn/" + p + "/" + a + ">" + proxy;
                                List<String> after = new ArrayList<>(afterOf.apply(a));
                                if (p > 0) {
                                    after.add(name + "/pxn/" + (p - 1) + "/" + a + ">" + proxy);
                                }
                                graph.nvlink(a, proxy, piece * peersOf.get(proxy), 0, label(), id, after);
                                ids.add(id);
                            }
                        }
                    }
                    perPiece.add(ids);
                }
                gathered.put(proxy, perPiece);
            }
            for (Device t : servers) {
                if (t == s) {
                    continue;
                }
                for (String b : groups.get(t)) {
                    String proxy = onRail.get(Gpus.railOf(fabric, t, Gpus.index(b)));
                    if (proxy == null) {
                        // No local GPU on b's rail: each sends directly.
                        for (String a : local) {
                            String id = name + "/net/" + a + ">" + b;
                            graph.network(a, b, each, label(), id, afterOf.apply(a));
                            done.get(b).add(id);
                        }
                        continue;
                    }
                    for (int p = 0; p < pieces; p++) {
                        String id = name + "/net/" + p + "/" + s.id() + ">" + b;
                        List<String> after = new ArrayList<>(gathered.get(proxy).get(p));
                        if (p > 0) {
                            after.add(name + "/net/" + (p - 1) + "/" + s.id() + ">" + b);
                        }
                        graph.network(proxy, b, piece * local.size(), label(), id, after);
                        if (p == pieces - 1) {
                            done.get(b).add(id);
                        }
                    }
                }
            }
        }
    }

    @Override
    public String describe() {
        return op.jsonName + " " + name + " of " + bytes + " B over " + ranks.size() + " GPUs, algorithm "
                + algorithm.jsonName.toLowerCase(Locale.ROOT);
    }
}
