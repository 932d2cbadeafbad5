package io.fabriclab.sim;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Predicate;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.model.ScaleUp;
import io.fabriclab.model.Transport;
import io.fabriclab.routing.EcmpHash;
import io.fabriclab.routing.IbRoutingEngine;
import io.fabriclab.routing.Routing;
import io.fabriclab.workload.Collective;
import io.fabriclab.workload.FlowSpec;
import io.fabriclab.workload.NcclCollective;

/**
 * The flow-level engine (docs/model.md, The flow-level engine): the same fabric, routing and
 * workloads as the packet engine ({@link Simulator}), with every flow a fluid that moves at a rate
 * instead of packets through queues.
 * <ul>
 * <li><b>Rates.</b> Flows share every link direction they cross max-min fair (progressive
 * filling, Bertsekas and Gallager, Data Networks, 2nd ed., section 6.5.2), recomputed at every
 * instant a flow starts, drains or a link fails, comes back or the routing reconverges
 * (event-driven, not time-stepped). A link direction carries wire bytes: each packet's payload
 * plus the transport's headers and the Ethernet or InfiniBand framing the packet engine puts on
 * the wire ({@link RoceFraming}, {@link UecFraming}, {@link CreditFlowControl}), so a flow alone
 * on its path moves its payload at the rate the packet engine's NIC does.</li>
 * <li><b>Paths.</b> Per-flow ECMP takes the path the packet engine takes (the same hash, the same
 * UDP source port per flow, drawn from the same seed in the same order, {@link FlowPaths}); an
 * InfiniBand subnet manager's tables likewise. Spraying (Ultra Ethernet, or a per-packet routing
 * mode) splits a flow evenly over the next hops at every switch: the share a perfectly balanced
 * sprayer gives each path.</li>
 * <li><b>Latency.</b> A flow's data has all arrived when its last byte has left the sending NIC
 * plus the last packet's way through the fabric: each link's propagation, and at each switch its
 * port-to-port pipeline latency and the last packet's serialization on the egress that a
 * store-and-forward switch adds ({@link SwitchPipeline}'s rule for a packet that did not wait).</li>
 * <li><b>NVLink and compute</b> as the packet engine's {@link LocalWork}: an NVLink transfer
 * waits its latency, then shares its GPUs' NVLink (each GPU sends and receives at most the
 * domain's bandwidth) max-min fair with the other transfers; a GPU runs one compute task at a time
 * in the order they become ready.</li>
 * </ul>
 * Not modelled: queues and their latency, PFC, ECN, DCQCN, InfiniBand credits, Ultra Ethernet's
 * trimming and window, losses and retransmission, priorities (every class shares a link equally),
 * ACK traffic. Incast and pause storms are where the packet engine must be used
 * ({@link #packetLevelCandidates}).
 */
public final class FlowEngine implements SimRun {
    /**
     * Mean utilisation from which a link direction of a flow run is named for a closer look with the
     * packet engine (FabricLab's own threshold, docs/model.md).
     */
    public static final double PACKET_LEVEL_UTILIZATION = 0.9;
    /**
     * Transfers arriving at once over a link into a NIC from which it is named for a closer look
     * with the packet engine even when its mean utilisation is low (FabricLab's own threshold,
     * docs/model.md): a ring's channels or a pair's queue pairs are two to four; eight or more at
     * once is an incast.
     */
    public static final int PACKET_LEVEL_INCAST = 8;

    /** Events per progress report. */
    private static final int PROGRESS_EVERY = 1 << 16;

    private static final int EV_READY = 0;
    private static final int EV_DRAINED = 1;
    private static final int EV_ARRIVED = 2;
    private static final int EV_NVLINK_GO = 3;
    private static final int EV_COMPUTE_DONE = 4;
    private static final int EV_LINK_DOWN = 5;
    private static final int EV_LINK_UP = 6;
    private static final int EV_REROUTE = 7;
    private static final int EV_SAMPLE = 8;

    private final Fabric fabric;
    private final SimConfig cfg;
    private final Transport transport;
    private final List<FlowSpec> specs;
    private RoutingPolicy routingPolicy = RoutingPolicy.ecmp();
    private long switchLatencyOverridePs = -1;
    private long reconvergencePs = 0;
    private final List<LinkFailure> failures = new ArrayList<>();
    private IbRoutingEngine ibEngine;
    private Predicate<String> reportedElsewhere = l -> false;
    private List<NcclCollective> ncclCollectives = List.of();
    private List<Collective> collectiveWorkloads = List.of();
    private volatile boolean stopRequested;
    private boolean ran;

    // ---- framing ----
    private final int maxPayload;
    private final int frameOverheadBytes;

    // ---- resources: 2 per link (2i a->b, 2i+1 b->a), then 2 per GPU that uses NVLink (send, receive) ----
    private final List<Link> links;
    private final Map<Link, Integer> linkIndex = new IdentityHashMap<>();
    private final int portCount;
    private int resourceCount;
    private double[] capacity; // wire bytes per ps
    /** Each link direction's capacity with the link whole (wire bytes per ps). */
    private double[] nominalCapacity;
    private final long[] portRateBps;
    private final Port[] portOf;
    private final Port[] peerOf;
    private final int[] switchIndexOfPort; // -1: a NIC's egress
    private final long[] switchLatencyPs;
    private final boolean[] cutThrough;
    private final boolean[] down;

    // ---- tasks: every FlowSpec ----
    private final int n;
    /**
     * Every task's state as records, one per task in each of three arrays (a task's fields side by
     * side, so that handling a task touches a cache line or two of each instead of one line per
     * field in thirty arrays: a run of 1.6 million tasks is bound by those misses), numbered in
     * the order the tasks can run ({@link #runOrder}); what its allocations change while it moves
     * is in its fluid's record (fRate ...). Ints, {@value #TI} per task: dependents, network flow id (-1: none), last frame's wire bytes,
     * 1 + its fluid number while it moves (else 0), kind ordinal, NIC addresses (source,
     * destination), UDP source port, first dependent's place in {@link #dependents}.
     */
    private final int[][] ti;
    private static final int TI = 9;
    /** Longs, {@value #TL} per task: spec start and delay, ready, started, finished (ps). */
    private final long[][] tl;
    private static final int TL = 5;
    /** Doubles, {@value #TD} per task: wire bytes left and rate when it stopped, lowest rate, wire bytes in all. */
    private final double[][] td;
    private static final int TD = 4;
    /**
     * Tasks per chunk of the record arrays: a few MB each instead of one array of up to 70 MB a
     * record (at 1.3 M tasks), which the serial collector took in one piece by enlarging the
     * heap (and its young generation with it) by 0.8 GB.
     */
    private static final int CHUNK_SHIFT = 16;
    private static final int CHUNK = 1 << CHUNK_SHIFT;
    private static final int CHUNK_MASK = CHUNK - 1;
    private static final FlowSpec.Kind[] KINDS = FlowSpec.Kind.values();
    private static final int K_NETWORK = FlowSpec.Kind.NETWORK.ordinal();
    private static final int K_NVLINK = FlowSpec.Kind.NVLINK.ordinal();
    private static final int I_DEPENDENTS = 0;
    private static final int I_FLOW = 1;
    private static final int I_LAST_FRAME = 2;
    private static final int I_ACTIVE = 3;
    private static final int I_KIND = 4;
    private static final int I_SRC = 5;
    private static final int I_DST = 6;
    private static final int I_UDP = 7;
    private static final int I_DEP_START = 8;
    private static final int L_START = 0;
    private static final int L_DELAY = 1;
    private static final int L_READY = 2;
    private static final int L_STARTED = 3;
    private static final int L_FINISHED = 4;
    private static final int D_LEFT = 0;
    private static final int D_RATE = 1;
    private static final int D_MIN_RATE = 2;
    private static final int D_WIRE = 3;
    private final int[] taskOfFlow;
    /**
     * Each task's place in the input (the task list given): the records are laid out in the order
     * the tasks can run ({@link #runOrder}), and every result, message and tie names the input's.
     */
    private final int[] inputOf;
    private final Port[] srcNic;
    private final Port[] dstNic;
    private final int[] gpuA; // NVLink / compute: global GPU index of src
    private final int[] gpuB; // NVLink: of dst
    private final long[] nvlinkLatencyPs;
    /** The tasks waiting for each task, back to back: task t's from its I_DEP_START, I_DEPENDENTS of them. */
    private final int[] dependents;
    /**
     * What each task still waits for, by task: the one field an arrival changes in the tasks
     * waiting for it, in an array of its own (4 bytes a task, so a ring step's thousands of
     * waiting tasks share a few cache lines instead of a line each in {@link #ti}).
     */
    private final int[] waitingFor;

    // ---- per task state ----
    // ---- active fluids: a dense record each, by fluid number (a task holds one while it moves) ----
    // A run's rate allocations touch only the fluids moving now (a few thousand of 1.6 million
    // tasks): kept in small arrays of their own, they stay in the processor's caches, where the
    // same fields in the task records are a cache miss each.
    private int fluidsUsed;
    private int[] fTask = new int[64];
    private double[] fRate = new double[64]; // wire bytes per ps
    private double[] fLeft = new double[64]; // wire bytes left at fUpdated
    private double[] fCap = new double[64]; // standalone cap (standaloneCap), as its resources' demand counts it
    private double[] fMinRate = new double[64];
    private long[] fUpdated = new long[64];
    private int[] fVersion = new int[64]; // of its drain event; never reset, so a stale event never matches
    private int[] fMark = new int[64]; // allocation epoch it was visited in
    private boolean[] fActive = new boolean[64];
    private boolean[] fDraining = new boolean[64];
    private boolean[] fFrozen = new boolean[64];
    private int[][] fPath = new int[64][]; // resources (kept after it stops, until the allocation after)
    private float[][] fWeight = new float[64][]; // null: 1 on every resource
    private int[][] fSlot = new int[64][]; // its position in each resource's user list
    private int[] freeFluids = new int[64];
    private int freeFluidCount;
    /** Fluid numbers stopped at this instant, free once the instant's allocation has read their paths. */
    private int[] stoppedFluids = new int[64];
    private int stoppedCount;
    private final int[][] firstPath; // network flows: the egress ports of their (first) path, for results
    private int remainingTasks;
    private int flowsCompleted;

    // ---- per resource state ----
    private int[][] users;
    private int[] userCount;
    /** The most users each resource had at once (a link into a NIC: its incast degree). */
    private int[] mostUsers;
    private double[] demand; // sum of weight x standalone cap of the active users
    /** Whether each resource's demand exceeds its capacity (kept as either changes). */
    private boolean[] isContended;
    private double[] load; // sum of weight x rate
    private double[] carried; // wire bytes carried so far
    private long[] carriedUntilPs;
    private final long[] flowsPerPort;

    // ---- GPUs ----
    private final List<String> gpuNames = new ArrayList<>();
    private final Map<String, Integer> gpuIndex = new HashMap<>();
    private int[] gpuNvlinkBase; // resource index of each GPU's send (recv = +1), -1 if none
    private boolean[] gpuBusy;
    private List<ArrayDeque<Integer>> gpuQueue;
    private long[] gpuBusyPs;

    // ---- the run ----
    private final FlowPaths paths;
    private final InstantQueue events = new InstantQueue();
    private long now;
    private long eventCount;
    /** The fluids the instant's events started, stopped or re-capped, in that order (may repeat). */
    private int[] changed = new int[64];
    private int changedSize;
    private int reroutes;
    private final Sampler sampler;

    public FlowEngine(Fabric fabric, List<FlowSpec> flowSpecs, SimConfig cfg, TransportProfile transportProfile) {
        this.fabric = fabric;
        this.cfg = cfg;
        this.transport = transportProfile.transport();
        if (!TransportProfile.simulated(transport)) {
            throw new IllegalArgumentException(transport.displayName()
                    + " is not simulated in this build, which simulates " + TransportProfile.simulatedNames());
        }
        boolean ib = transport == Transport.INFINIBAND;
        boolean uec = transport == Transport.ULTRA_ETHERNET;
        this.maxPayload = ib ? CreditFlowControl.maxPayload(fabric.mtuBytes())
                : uec ? UecFraming.maxPayload(fabric.mtuBytes()) : RoceFraming.maxPayload(fabric.mtuBytes());
        int header = ib ? CreditFlowControl.DATA_HEADER_BYTES : uec ? UecFraming.DATA_HEADER_BYTES : RoceFraming.DATA_HEADER_BYTES;
        int wire = ib ? CreditFlowControl.WIRE_OVERHEAD_BYTES : RoceFraming.WIRE_OVERHEAD_BYTES;
        this.frameOverheadBytes = header + wire;
        this.specs = List.copyOf(flowSpecs);
        this.paths = new FlowPaths(Routing.compute(fabric), new EcmpHash(cfg.seed(), cfg.perSwitchEcmpSeed()), linkIndex);

        // Link directions.
        links = new ArrayList<>(fabric.links());
        portCount = links.size() * 2;
        portRateBps = new long[portCount];
        portOf = new Port[portCount];
        peerOf = new Port[portCount];
        switchIndexOfPort = new int[portCount];
        down = new boolean[links.size()];
        flowsPerPort = new long[portCount];
        Map<Device, Integer> switchIndex = new IdentityHashMap<>();
        List<Device> switches = fabric.switches();
        switchLatencyPs = new long[switches.size()];
        cutThrough = new boolean[switches.size()];
        for (int s = 0; s < switches.size(); s++) {
            Device d = switches.get(s);
            switchIndex.put(d, s);
            io.fabriclab.model.SwitchLatency.SwitchClass k = io.fabriclab.model.SwitchLatency.classOf(d, transport);
            switchLatencyPs[s] = io.fabriclab.model.SwitchLatency.portToPortPs(d, transport);
            cutThrough[s] = k.forwarding() == io.fabriclab.model.SwitchLatency.Forwarding.CUT_THROUGH;
        }
        for (int i = 0; i < links.size(); i++) {
            Link l = links.get(i);
            linkIndex.put(l, i);
            for (int side = 0; side < 2; side++) {
                int p = 2 * i + side;
                portOf[p] = side == 0 ? l.a() : l.b();
                peerOf[p] = side == 0 ? l.b() : l.a();
                portRateBps[p] = l.rateBps();
                Integer si = switchIndex.get(portOf[p].device());
                switchIndexOfPort[p] = si == null ? -1 : si;
            }
        }

        // Tasks.
        n = specs.size();
        // Dependencies, by the tasks' input order.
        Map<String, Integer> byId = HashMap.newHashMap(n);
        for (int o = 0; o < n; o++) {
            String id = specs.get(o).id();
            if (!id.isEmpty() && byId.put(id, o) != null) {
                throw new IllegalArgumentException("flow " + o + ": flow id '" + id + "' is used twice");
            }
        }
        // Every (task waited for, task waiting) pair in input order of the second.
        int[] edgeFrom = new int[16];
        int[] edgeTo = new int[16];
        int edges = 0;
        for (int o = 0; o < n; o++) {
            for (String dep : specs.get(o).after()) {
                Integer d = byId.get(dep);
                if (d == null) {
                    throw new IllegalArgumentException("flow " + o + ": waits for unknown flow id '" + dep + "'");
                }
                edgeFrom = push(edgeFrom, edges, d);
                edgeTo = push(edgeTo, edges++, o);
            }
        }
        byId = null;
        // The records' layout: tasks in the order they can run (inputOf), so that the tasks
        // handled at one instant and those they start sit side by side in the record arrays.
        inputOf = runOrder(n, edgeFrom, edgeTo, edges);
        int[] taskOf = taskByInput = new int[n];
        for (int t = 0; t < n; t++) {
            taskOf[inputOf[t]] = t;
        }

        int chunks = (n + CHUNK - 1) >>> CHUNK_SHIFT;
        ti = new int[chunks][];
        tl = new long[chunks][];
        td = new double[chunks][];
        for (int c = 0; c < chunks; c++) {
            int tasks = Math.min(CHUNK, n - c * CHUNK);
            ti[c] = new int[TI * tasks];
            tl[c] = new long[TL * tasks];
            td[c] = new double[TD * tasks];
        }
        for (int t = 0; t < n; t++) {
            tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_READY] = -1;
            tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_STARTED] = -1;
            tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_FINISHED] = -1;
            td[t >>> CHUNK_SHIFT][TD * (t & CHUNK_MASK) + D_MIN_RATE] = Double.POSITIVE_INFINITY;
        }
        waitingFor = new int[n];
        srcNic = new Port[n];
        dstNic = new Port[n];
        gpuA = new int[n];
        gpuB = new int[n];
        nvlinkLatencyPs = new long[n];
        Arrays.fill(gpuA, -1);
        Arrays.fill(gpuB, -1);
        Map<Port, Integer> address = new IdentityHashMap<>();
        for (Device s : fabric.servers()) {
            for (Port p : s.ports()) {
                address.put(p, address.size());
            }
        }
        srcEnds = new long[address.size()];
        dstEnds = new long[address.size()];
        Arrays.fill(srcEnds, UNKNOWN_ENDS);
        Arrays.fill(dstEnds, UNKNOWN_ENDS);
        SplittableRandom portRandom = new SplittableRandom(cfg.seed()).split();
        List<Integer> flowTasks = new ArrayList<>();
        // In input order: flow ids, UDP source ports, GPU numbers as the packet engine gives them.
        for (int o = 0; o < n; o++) {
            int t = taskOf[o];
            FlowSpec s = specs.get(o);
            ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_KIND] = s.kind().ordinal();
            tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_START] = s.startPs();
            tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_DELAY] = s.delayPs();
            if (s.network()) {
                int id = flowTasks.size();
                ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_FLOW] = id;
                flowTasks.add(t);
                srcNic[t] = resolveNic(s.src(), "src", o);
                dstNic[t] = resolveNic(s.dst(), "dst", o);
                if (srcNic[t] == dstNic[t]) {
                    throw new IllegalArgumentException("flow " + o + ": source and destination are the same NIC "
                            + srcNic[t].ref());
                }
                ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_SRC] = address.get(srcNic[t]);
                ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_DST] = address.get(dstNic[t]);
                // The packet engine draws every network flow's UDP source port from the seed, in order.
                ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_UDP] = 49152 + portRandom.nextInt(16384);
                long packets = (s.bytes() + maxPayload - 1) / maxPayload;
                td[t >>> CHUNK_SHIFT][TD * (t & CHUNK_MASK) + D_WIRE] = s.bytes() + packets * (double) frameOverheadBytes;
                ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_LAST_FRAME] = (int) (s.bytes() - (packets - 1) * maxPayload) + frameOverheadBytes;
            } else {
                ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_FLOW] = -1;
                gpuA[t] = gpu(s.src(), o, "src");
                gpuB[t] = s.kind() == FlowSpec.Kind.NVLINK ? gpu(s.dst(), o, "dst") : -1;
                if (s.kind() == FlowSpec.Kind.NVLINK) {
                    if (serverOfGpu(gpuA[t]) != serverOfGpu(gpuB[t])) {
                        throw new IllegalArgumentException("task " + o + ": nvlink between " + s.src() + " and " + s.dst()
                                + ": both GPUs must be in one server (between servers use the NICs)");
                    }
                    if (gpuA[t] == gpuB[t]) {
                        throw new IllegalArgumentException("task " + o + ": NVLink transfer from " + s.src() + " to itself");
                    }
                    ScaleUp domain = fabric.device(serverOfGpu(gpuA[t])).scaleUpOrDefault();
                    nvlinkLatencyPs[t] = s.delayPs() == 0 ? domain.latencyPs() : s.delayPs();
                    td[t >>> CHUNK_SHIFT][TD * (t & CHUNK_MASK) + D_WIRE] = s.bytes();
                }
            }
        }
        taskOfFlow = flowTasks.stream().mapToInt(Integer::intValue).toArray();
        firstPath = new int[taskOfFlow.length][];
        latencyKey = new int[taskOfFlow.length];

        // NVLink resources: a send and a receive per GPU that takes part in a transfer.
        int gpus = gpuNames.size();
        gpuNvlinkBase = new int[gpus];
        Arrays.fill(gpuNvlinkBase, -1);
        resourceCount = portCount;
        for (int o = 0; o < n; o++) {
            int t = taskOf[o];
            if (ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_KIND] == K_NVLINK) {
                for (int g : new int[] {gpuA[t], gpuB[t]}) {
                    if (gpuNvlinkBase[g] < 0) {
                        gpuNvlinkBase[g] = resourceCount;
                        resourceCount += 2;
                    }
                }
            }
        }
        capacity = new double[resourceCount];
        nominalCapacity = new double[portCount];
        for (int p = 0; p < portCount; p++) {
            capacity[p] = portRateBps[p] / 8.0 / 1e12;
            nominalCapacity[p] = links.get(p >> 1).rateBps() / 8.0 / 1e12;
        }
        for (int g = 0; g < gpus; g++) {
            if (gpuNvlinkBase[g] >= 0) {
                ScaleUp domain = fabric.device(serverOfGpu(g)).scaleUpOrDefault();
                double c = domain.bytesPerPs();
                capacity[gpuNvlinkBase[g]] = c;
                capacity[gpuNvlinkBase[g] + 1] = c;
            }
        }
        users = new int[resourceCount][];
        userCount = new int[resourceCount];
        mostUsers = new int[resourceCount];
        demand = new double[resourceCount];
        isContended = new boolean[resourceCount];
        load = new double[resourceCount];
        carried = new double[resourceCount];
        carriedUntilPs = new long[resourceCount];
        gpuBusy = new boolean[gpus];
        gpuBusyPs = new long[gpus];
        gpuQueue = new ArrayList<>(gpus);
        for (int g = 0; g < gpus; g++) {
            gpuQueue.add(new ArrayDeque<>());
        }

        for (int e = 0; e < edges; e++) {
            int d = edgeFrom[e] = taskOf[edgeFrom[e]];
            int t = edgeTo[e] = taskOf[edgeTo[e]];
            ti[d >>> CHUNK_SHIFT][TI * (d & CHUNK_MASK) + I_DEPENDENTS]++;
            waitingFor[t]++;
        }
        int at = 0;
        for (int t = 0; t < n; t++) {
            ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_DEP_START] = at;
            at += ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_DEPENDENTS];
        }
        dependents = new int[edges];
        int[] fill = new int[n];
        for (int e = 0; e < edges; e++) {
            int d = edgeFrom[e];
            dependents[ti[d >>> CHUNK_SHIFT][TI * (d & CHUNK_MASK) + I_DEP_START] + fill[d]++] = edgeTo[e];
        }
        Arrays.fill(fMark, -1);
        remainingTasks = n;
        sampler = new Sampler(cfg, portCount);
    }

    // ---- settings, as the packet engine's ----

    public void setRoutingPolicy(RoutingPolicy policy) {
        this.routingPolicy = java.util.Objects.requireNonNull(policy);
    }

    /** Every switch's port-to-port latency (ps), overriding each model's own; cut-through kept unless 0. */
    public void setSwitchLatencyPs(long ps) {
        if (ps < 0) {
            throw new IllegalArgumentException("switch latency must be >= 0 ps, not " + ps);
        }
        switchLatencyOverridePs = ps;
    }

    public void setReconvergencePs(long ps) {
        if (ps < 0) {
            throw new IllegalArgumentException("reconvergence time must be >= 0");
        }
        reconvergencePs = ps;
    }

    public void scheduleFailure(LinkFailure failure) {
        if (!linkIndex.containsKey(failure.link())) {
            throw new IllegalArgumentException("link " + failure.link().id() + " is not in this fabric");
        }
        failures.add(failure);
    }

    public void setIbRoutingEngine(IbRoutingEngine engine) {
        if (transport != Transport.INFINIBAND) {
            throw new IllegalArgumentException("a subnet manager's routing engine needs an InfiniBand run, not "
                    + transport.displayName());
        }
        this.ibEngine = engine;
    }

    public void reportElsewhere(Predicate<String> labels) {
        this.reportedElsewhere = java.util.Objects.requireNonNull(labels);
    }

    public void describeNcclCollectives(List<NcclCollective> collectives) {
        this.ncclCollectives = List.copyOf(collectives);
    }

    public void describeCollectives(List<Collective> collectives) {
        this.collectiveWorkloads = List.copyOf(collectives);
    }

    @Override
    public void requestStop() {
        stopRequested = true;
    }

    @Override
    public Engine engine() {
        return Engine.FLOW;
    }

    private boolean sprays() {
        return transport == Transport.ULTRA_ETHERNET || routingPolicy.perPacket();
    }

    // ---- the run ----

    @Override
    public SimResults run(Simulator.Progress progress) {
        if (ran) {
            throw new IllegalStateException("a FlowEngine runs once");
        }
        ran = true;
        if (ibEngine != null) {
            paths.useEngine(ibEngine);
        }
        if (switchLatencyOverridePs >= 0) {
            Arrays.fill(switchLatencyPs, switchLatencyOverridePs);
            if (switchLatencyOverridePs == 0) {
                Arrays.fill(cutThrough, false);
            }
        }
        long wallStart = System.nanoTime();
        for (int o = 0; o < n; o++) {
            int t = taskOf(o);
            if (waitingFor[t] == 0) {
                events.push(tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_START], EV_READY, t);
            }
        }
        for (int i = 0; i < failures.size(); i++) {
            LinkFailure f = failures.get(i);
            events.push(f.downPs(), EV_LINK_DOWN, i);
            if (f.upPs() > f.downPs()) {
                events.push(f.upPs(), EV_LINK_UP, i);
            }
        }
        events.push(sampler.intervalPs, EV_SAMPLE, 0);
        boolean completion = cfg.durationPs() == 0;
        long end = completion ? cfg.maxTimePs() : cfg.durationPs();
        SimResults.StopReason reason = SimResults.StopReason.NO_EVENTS;
        if (completion && remainingTasks == 0) {
            reason = SimResults.StopReason.COMPLETED;
        }
        while (reason != SimResults.StopReason.COMPLETED) {
            if (events.isEmpty()) {
                reason = SimResults.StopReason.NO_EVENTS;
                break;
            }
            long t = events.peekTime();
            if (t > end) {
                now = end;
                reason = completion ? SimResults.StopReason.TIME_LIMIT : SimResults.StopReason.DURATION_REACHED;
                break;
            }
            now = t;
            // Every event of this instant, then one new allocation of rates.
            while (!events.isEmpty() && events.peekTime() == t) {
                events.pop();
                eventCount++;
                dispatch(events.topType, events.topTarget, events.topArg);
                if (eventCount % PROGRESS_EVERY == 0) {
                    if (progress != null) {
                        progress.update(now, end, eventCount, System.nanoTime() - wallStart, flowsCompleted,
                                taskOfFlow.length);
                    }
                    if (stopRequested) {
                        break;
                    }
                }
            }
            lastRound();
            reallocate();
            if (stopRequested) {
                reason = SimResults.StopReason.STOPPED;
                break;
            }
            if (completion && remainingTasks == 0) {
                reason = SimResults.StopReason.COMPLETED;
            }
        }
        long wall = System.nanoTime() - wallStart;
        if (progress != null) {
            progress.update(now, end, eventCount, wall, flowsCompleted, taskOfFlow.length);
        }
        return results(reason, wall);
    }

    /** The spec of task {@code t} (a record number). */
    private FlowSpec spec(int t) {
        return specs.get(inputOf[t]);
    }

    /** The record number of the input's task {@code o}. */
    private int taskOf(int o) {
        return taskByInput[o];
    }

    private final int[] taskByInput;

    /**
     * The input's tasks in the order they can run: those waiting for nothing in input order, then
     * breadth first through what waits for them (a task once all it waits for is placed; Kahn's
     * topological sort with a first-in first-out queue), any left (a cycle, reported as the run's
     * unfinished tasks) last. A ring's step k of every channel then comes before step k + 1 of
     * any: the tasks that move at one instant, and those they start, are neighbours in the
     * records, so that handling them reads memory in order instead of missing the caches at every
     * task. A layout only: events, ties and results follow the input's order.
     */
    static int[] runOrder(int n, int[] from, int[] to, int edges) {
        int[] waiting = new int[n];
        int[] start = new int[n + 1];
        for (int e = 0; e < edges; e++) {
            waiting[to[e]]++;
            start[from[e] + 1]++;
        }
        for (int i = 0; i < n; i++) {
            start[i + 1] += start[i];
        }
        int[] next = new int[edges];
        int[] fill = Arrays.copyOf(start, n);
        for (int e = 0; e < edges; e++) {
            next[fill[from[e]]++] = to[e];
        }
        int[] order = new int[n];
        boolean[] placed = new boolean[n];
        int size = 0;
        for (int o = 0; o < n; o++) {
            if (waiting[o] == 0) {
                order[size++] = o;
                placed[o] = true;
            }
        }
        for (int head = 0; head < size; head++) {
            int o = order[head];
            for (int i = start[o]; i < start[o + 1]; i++) {
                int d = next[i];
                if (--waiting[d] == 0) {
                    order[size++] = d;
                    placed[d] = true;
                }
            }
        }
        for (int o = 0; o < n && size < n; o++) {
            if (!placed[o]) {
                order[size++] = o;
            }
        }
        return order;
    }

    private void dispatch(int type, int target, int arg) {
        switch (type) {
            case EV_READY -> ready(target);
            case EV_DRAINED -> {
                if (arg == fVersion[target] && fActive[target]) {
                    drained(target);
                }
            }
            case EV_ARRIVED -> finished(target);
            case EV_NVLINK_GO -> activate(target, new int[] {gpuNvlinkBase[gpuA[target]], gpuNvlinkBase[gpuB[target]] + 1},
                    null);
            case EV_COMPUTE_DONE -> computeDone(target);
            case EV_LINK_DOWN -> linkDown(failures.get(target));
            case EV_LINK_UP -> linkUp(failures.get(target));
            case EV_REROUTE -> reroute();
            case EV_SAMPLE -> {
                sampler.sample(now, this);
                if (remainingTasks > 0) {
                    events.push(now + sampler.intervalPs, EV_SAMPLE, 0);
                }
            }
            default -> throw new IllegalStateException("event type " + type);
        }
    }

    /** Task {@code t} has nothing left to wait for: it starts at its own start time or now. */
    private void ready(int t) {
        long start = Math.max(now, tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_START]);
        if (start > now) {
            events.push(start, EV_READY, t);
            return;
        }
        if (ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_KIND] == K_NETWORK && tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_DELAY] > 0 && tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_READY] < 0) {
            // A network flow's fixed latency (a steady ring's steps) before its first byte.
            tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_READY] = now;
            events.push(now + tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_DELAY], EV_READY, t);
            return;
        }
        if (ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_KIND] != K_NETWORK) {
            tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_READY] = now;
        }
        switch (KINDS[ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_KIND]]) {
            case NETWORK -> {
                if (tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_READY] < 0) {
                    tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_READY] = now;
                }
                tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_STARTED] = now;
                Route r = routeOf(t);
                if (r == null) {
                    // No route now (a failed link); it waits for the routing to reconverge.
                    stranded.add(t);
                    return;
                }
                activate(t, r.ports(), r.weights());
            }
            case NVLINK -> {
                tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_STARTED] = now;
                if (nvlinkLatencyPs[t] > 0) {
                    events.push(now + nvlinkLatencyPs[t], EV_NVLINK_GO, t);
                } else {
                    activate(t, new int[] {gpuNvlinkBase[gpuA[t]], gpuNvlinkBase[gpuB[t]] + 1}, null);
                }
            }
            case COMPUTE -> {
                int g = gpuA[t];
                if (gpuBusy[g]) {
                    gpuQueue.get(g).add(t);
                } else {
                    startCompute(t);
                }
            }
            default -> throw new IllegalStateException();
        }
    }

    private void startCompute(int t) {
        int g = gpuA[t];
        gpuBusy[g] = true;
        tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_STARTED] = now;
        events.push(now + tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_DELAY], EV_COMPUTE_DONE, t);
    }

    private void computeDone(int t) {
        int g = gpuA[t];
        gpuBusy[g] = false;
        gpuBusyPs[g] += tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_DELAY];
        ArrayDeque<Integer> q = gpuQueue.get(g);
        if (!q.isEmpty()) {
            startCompute(q.poll());
        }
        finished(t);
    }

    private final List<Integer> stranded = new ArrayList<>();
    /**
     * The path of every NIC pair that has one path under the routing in force, or {@link
     * #SEVERAL_PATHS} for a pair whose flows take one of several by their UDP ports (cleared when
     * it reconverges).
     */
    private final LongIntMap pairPaths = new LongIntMap();
    /** A sprayed flow's split by NIC pair (cleared when the routing reconverges). */
    private final LongIntMap sprayRoutes = new LongIntMap();
    /** The routes {@link #pairPaths} and {@link #sprayRoutes} name by number; a shared path's as {@code new Route(p, null)}. */
    private final List<Route> pairRoutes = new ArrayList<>();
    /** Per shared path array: the last packet's latency by frame size, and the full frame's. */
    private long[] latencies = new long[3 * 64];
    /** The resources a fluid uses and the share of it each carries ({@code weights} null: all of it on each). */
    private record Route(int[] ports, float[] weights) {
    }

    /**
     * Flow {@code t}'s NIC ends under the routing in force, by the NIC port's address ({@link
     * FlowPaths#ends}): its source's ({@code into} false) or its destination's, kept until the
     * routing reconverges.
     */
    private long nicEnds(int t, boolean into) {
        int addr = ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + (into ? I_DST : I_SRC)];
        long[] ends = into ? dstEnds : srcEnds;
        long e = ends[addr];
        if (e == UNKNOWN_ENDS) {
            e = ends[addr] = paths.ends(into ? dstNic[t] : srcNic[t], into);
        }
        return e;
    }

    private static final long UNKNOWN_ENDS = Long.MIN_VALUE;
    /** {@link #nicEnds} by NIC port address, as a source and as a destination. */
    private final long[] srcEnds;
    private final long[] dstEnds;

    /** Network flow {@code t}'s resources under the routing in force, or null when it has no route now. */
    private Route routeOf(int t) {
        // A NIC pair with one path under the routing shares one path array (and its latency).
        long pair = pairKey(t);
        int shared = pairPaths.get(pair);
        Route route = null;
        int[] p;
        int interned = -1;
        if (shared >= 0) {
            route = pairRoutes.get(shared);
            p = route.ports();
        } else if (shared == SEVERAL_PATHS) {
            // One of several ECMP paths by its UDP port: made without maps or arrays, kept once.
            int len = paths.pathInto(nicEnds(t, false), nicEnds(t, true), ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_SRC],
                    ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_DST], ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_UDP]);
            if (len < 0) {
                return null;
            }
            p = internPath(paths.scratch(), len);
            interned = lastInterned;
        } else {
            p = paths.path(srcNic[t], dstNic[t], ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_SRC], ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_DST], ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_UDP]);
            if (p == null) {
                return null;
            }
            if (paths.onePath(srcNic[t], dstNic[t])) {
                route = new Route(p, null);
                shared = pairRoutes.size();
                pairPaths.put(pair, shared);
                pairRoutes.add(route);
                if (latencies.length < 3 * pairRoutes.size()) { // numbered with the sprayed routes
                    latencies = Arrays.copyOf(latencies, Math.max(2 * latencies.length, 6 * pairRoutes.size()));
                }
                latencies[3 * pairRoutes.size() - 3] = -1; // none known yet
            } else {
                p = internPath(p, p.length);
                interned = lastInterned;
                if (paths.tables == null && nicEnds(t, false) >= 0 && nicEnds(t, true) >= 0) {
                    pairPaths.put(pair, SEVERAL_PATHS);
                }
            }
        }
        for (int port : p) {
            if (down[port >> 1]) {
                return null;
            }
        }
        int f = ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_FLOW];
        if (firstPath[f] == null) {
            firstPath[f] = p;
            latencyKey[f] = shared >= 0 ? shared : interned >= 0 ? -1 - interned : Integer.MIN_VALUE;
            for (int i = 1; i < p.length - 1; i++) {
                flowsPerPort[p[i]]++;
            }
        }
        if (!sprays() || p.length <= 2) {
            if (route != null) {
                return route;
            }
            if (interned < 0) {
                return new Route(p, null);
            }
            if (internedRoutes.length <= interned) {
                internedRoutes = Arrays.copyOf(internedRoutes, Math.max(2 * internedRoutes.length, interned + 1));
            }
            Route r = internedRoutes[interned];
            if (r == null) {
                r = internedRoutes[interned] = new Route(p, null);
            }
            return r;
        }
        // A sprayed flow's split depends on its two NICs alone.
        int known = sprayRoutes.get(pair);
        if (known >= 0) {
            return pairRoutes.get(known);
        }
        Route r = sprayRoute(t);
        if (r != null) {
            sprayRoutes.put(pair, pairRoutes.size());
            pairRoutes.add(r);
        }
        return r;
    }

    /** Paths of NIC pairs with several, one array per distinct path (flows of a pair take a few paths between them). */
    private int[][] internedPaths = new int[1024][];
    private int internedCount;

    /** Each interned path's route (its ports, no weights), made once. */
    private Route[] internedRoutes = new Route[1024];

    /** {@link #pairPaths}' mark of a NIC pair whose flows take several paths (by their UDP ports). */
    private static final int SEVERAL_PATHS = -2;

    /**
     * The array of the paths already taken equal to the first {@code len} of {@code path}, or a
     * copy of them, kept. Paths are never written.
     */
    private int[] internPath(int[] path, int len) {
        int mask = internedPaths.length - 1;
        int hash = 1; // Arrays.hashCode of the path
        for (int k = 0; k < len; k++) {
            hash = 31 * hash + path[k];
        }
        int i = hash & mask;
        for (int[] q; (q = internedPaths[i]) != null; i = (i + 1) & mask) {
            if (Arrays.equals(path, 0, len, q, 0, q.length)) {
                lastInterned = internedNumber[i];
                return q;
            }
        }
        int[] p = path.length == len ? path : Arrays.copyOf(path, len);
        internedPaths[i] = p;
        internedNumber[i] = internedCount;
        lastInterned = internedCount;
        if (internLatencies.length < 3 * (internedCount + 1)) {
            internLatencies = Arrays.copyOf(internLatencies, 2 * internLatencies.length);
        }
        internLatencies[3 * internedCount] = -1; // none known yet
        if (++internedCount * 2 > internedPaths.length) {
            int[][] old = internedPaths;
            int[] oldNumber = internedNumber;
            internedPaths = new int[2 * old.length][];
            internedNumber = new int[2 * old.length];
            mask = internedPaths.length - 1;
            for (int k = 0; k < old.length; k++) {
                int[] q = old[k];
                if (q != null) {
                    int j = Arrays.hashCode(q) & mask;
                    while (internedPaths[j] != null) {
                        j = (j + 1) & mask;
                    }
                    internedPaths[j] = q;
                    internedNumber[j] = oldNumber[k];
                }
            }
        }
        return p;
    }

    /** Each interned path's number (its place in {@link #internedPaths}' order of arrival). */
    private int[] internedNumber = new int[1024];
    /** The number of the path {@link #internPath} returned last. */
    private int lastInterned;
    /** Per interned path, as {@link #latencies} per shared one: the last packet's latency by frame size. */
    private long[] internLatencies = new long[3 * 64];
    /**
     * Per network flow, where its first path's latency is kept: a shared path's number in
     * {@link #pairRoutes} (0 or more), an interned path's as -1 - its number, or
     * {@link Integer#MIN_VALUE} for none.
     */
    private int[] latencyKey;

    /** Task {@code t}'s NIC pair as one number. */
    private long pairKey(int t) {
        return ((long) ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_SRC] << 32) | (ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_DST] & 0xffffffffL);
    }

    /**
     * A sprayed flow's resources and the share of it each carries: the NIC's access link whole, at
     * every switch an even split over the next hops toward the destination's switch, the last hop
     * whole.
     */
    private Route sprayRoute(int t) {
        Routing routing = paths.routing;
        Device first = routing.edgeSwitch(srcNic[t]);
        Device last = routing.edgeSwitch(dstNic[t]);
        Map<Integer, Double> share = new LinkedHashMap<>();
        share.put(paths.portId(routing.accessLink(srcNic[t]), srcNic[t].device()), 1.0);
        Map<Device, Double> level = new LinkedHashMap<>();
        level.put(first, 1.0);
        int guard = 0;
        while (!(level.size() == 1 && level.containsKey(last))) {
            Map<Device, Double> next = new LinkedHashMap<>();
            for (var e : level.entrySet()) {
                Device sw = e.getKey();
                if (sw == last) {
                    next.merge(sw, e.getValue(), Double::sum);
                    continue;
                }
                List<Link> hops = routing.nextHops(sw, last);
                List<Link> up = new ArrayList<>(hops.size());
                for (Link l : hops) {
                    if (!down[linkIndex.get(l)]) {
                        up.add(l);
                    }
                }
                if (up.isEmpty()) {
                    return null;
                }
                double w = e.getValue() / up.size();
                for (Link l : up) {
                    share.merge(paths.portId(l, sw), w, Double::sum);
                    next.merge(l.other(sw), w, Double::sum);
                }
            }
            level = next;
            if (++guard > 64) {
                return null;
            }
        }
        share.put(paths.portId(routing.accessLink(dstNic[t]), last), 1.0);
        int[] p = new int[share.size()];
        float[] w = new float[share.size()];
        int i = 0;
        for (var e : share.entrySet()) {
            p[i] = e.getKey();
            w[i] = (float) (double) e.getValue();
            i++;
        }
        return new Route(p, w);
    }

    /** Task {@code t} starts moving over {@code resources} as a fluid: its number. */
    private int activate(int t, int[] resources, float[] w) {
        if (tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_STARTED] < 0) {
            tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_STARTED] = now;
        }
        int f = newFluid();
        fTask[f] = t;
        ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_ACTIVE] = f + 1;
        fPath[f] = resources;
        fWeight[f] = w;
        fSlot[f] = slotArray(resources.length);
        fLeft[f] = td[t >>> CHUNK_SHIFT][TD * (t & CHUNK_MASK) + D_WIRE];
        fRate[f] = 0;
        fMinRate[f] = td[t >>> CHUNK_SHIFT][TD * (t & CHUNK_MASK) + D_MIN_RATE];
        fUpdated[f] = now;
        fActive[f] = true;
        fDraining[f] = false;
        fCap[f] = standaloneCap(f);
        for (int i = 0; i < resources.length; i++) {
            int r = resources[i];
            addUser(r, f, i);
            demand[r] += w(f, i) * fCap[f];
            updateContended(r);
        }
        changed = push(changed, changedSize++, f);
        return f;
    }

    /** A free fluid number, the arrays grown when none is. */
    private int newFluid() {
        if (freeFluidCount > 0) {
            return freeFluids[--freeFluidCount];
        }
        if (fluidsUsed == fTask.length) {
            int c = 2 * fluidsUsed;
            fTask = Arrays.copyOf(fTask, c);
            fRate = Arrays.copyOf(fRate, c);
            fLeft = Arrays.copyOf(fLeft, c);
            fCap = Arrays.copyOf(fCap, c);
            fMinRate = Arrays.copyOf(fMinRate, c);
            fUpdated = Arrays.copyOf(fUpdated, c);
            fVersion = Arrays.copyOf(fVersion, c);
            fMark = Arrays.copyOf(fMark, c);
            Arrays.fill(fMark, fluidsUsed, c, -1);
            fActive = Arrays.copyOf(fActive, c);
            fDraining = Arrays.copyOf(fDraining, c);
            fFrozen = Arrays.copyOf(fFrozen, c);
            fPath = Arrays.copyOf(fPath, c);
            fWeight = Arrays.copyOf(fWeight, c);
            fSlot = Arrays.copyOf(fSlot, c);
        }
        return fluidsUsed++;
    }

    /** Fluid {@code f} stops; what it had left and its lowest rate go back to its task's record. */
    private void deactivate(int f) {
        settle(f);
        int[] p = fPath[f];
        for (int i = 0; i < p.length; i++) {
            int r = p[i];
            removeUser(r, f, i);
            demand[r] -= w(f, i) * fCap[f];
            if (userCount[r] == 0) {
                demand[r] = 0;
            }
            updateContended(r);
            setLoad(r, load[r] - w(f, i) * fRate[f]);
        }
        fActive[f] = false;
        releaseSlots(fSlot[f]);
        fSlot[f] = null;
        fRate[f] = 0;
        int t = fTask[f];
        if (rateListener != null && ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_FLOW] >= 0) {
            rateListener.rateChanged(ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_FLOW], now, 0);
        }
        fVersion[f]++;
        fDraining[f] = false;
        ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_ACTIVE] = 0;
        td[t >>> CHUNK_SHIFT][TD * (t & CHUNK_MASK) + D_LEFT] = fLeft[f];
        td[t >>> CHUNK_SHIFT][TD * (t & CHUNK_MASK) + D_RATE] = 0;
        td[t >>> CHUNK_SHIFT][TD * (t & CHUNK_MASK) + D_MIN_RATE] = fMinRate[f];
        changed = push(changed, changedSize++, f);
        stoppedFluids = push(stoppedFluids, stoppedCount++, f);
    }

    /** Spare slot arrays by length (an active fluid holds one; a run has a few thousand at once). */
    private int[][][] spareSlots = new int[8][][];
    private int[] spareCount = new int[8];

    private int[] slotArray(int length) {
        if (length < spareCount.length && spareCount[length] > 0) {
            return spareSlots[length][--spareCount[length]];
        }
        return new int[length];
    }

    private void releaseSlots(int[] a) {
        int length = a.length;
        if (length >= spareCount.length) {
            if (length > 64) {
                return;
            }
            spareCount = Arrays.copyOf(spareCount, length + 1);
            spareSlots = Arrays.copyOf(spareSlots, length + 1);
        }
        int[][] stack = spareSlots[length];
        if (stack == null) {
            stack = spareSlots[length] = new int[16][];
        } else if (spareCount[length] == stack.length) {
            stack = spareSlots[length] = Arrays.copyOf(stack, 2 * stack.length);
        }
        stack[spareCount[length]++] = a;
    }

    private double w(int f, int i) {
        float[] w = fWeight[f];
        return w == null ? 1.0 : w[i];
    }

    /** The most fluid {@code f} could move alone: its tightest resource (kept in {@link #fCap} while it is active). */
    private double standaloneCap(int f) {
        double cap = Double.POSITIVE_INFINITY;
        int[] p = fPath[f];
        for (int i = 0; i < p.length; i++) {
            cap = Math.min(cap, capacity[p[i]] / w(f, i));
        }
        return cap;
    }

    private void drained(int f) {
        int nicPort = fPath[f][0];
        int t = fTask[f];
        deactivate(f);
        td[t >>> CHUNK_SHIFT][TD * (t & CHUNK_MASK) + D_LEFT] = 0;
        if (ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_KIND] == K_NETWORK) {
            // Its arrival is timed once every transfer of this instant has drained (lastRound).
            if (drainedCount == drainedNow.length) {
                drainedNow = Arrays.copyOf(drainedNow, 2 * drainedCount);
                drainedNic = Arrays.copyOf(drainedNic, 2 * drainedCount);
            }
            drainedNic[drainedCount] = nicPort;
            drainedNow[drainedCount++] = t;
            return;
        }
        finished(t);
    }

    /** Network transfers whose last byte left their NIC at this instant, and those NICs' egress ports. */
    private int[] drainedNow = new int[16];
    private int[] drainedNic = new int[16];
    private int drainedCount;

    /**
     * The network transfers that drained at this instant arrive after their path latency, less the
     * head start of their last frame. The NIC sends the frames of the transfers on its wire round
     * robin, a frame each (NicScheduler), where the fluid moves them all at once at an equal share:
     * the fluid's instant is the end of the last round, and a transfer's last frame left the NIC
     * before it by the frames sent after it in that round. The round's order is the packet engine's:
     * its round robin goes on after the queue pair it served last, a transfer sending alone leaves
     * it at the front of the NIC's list and a joining one is appended, so the transfer already
     * sending keeps the first turn. (Not followed: a queue pair still waiting for its last ACK after
     * the one sending, which gives the joining one the first turn; it turns on ACK timings against
     * frame boundaries, docs/validation.md.) Transfers that drained together from one NIC go in the
     * order they started (ties by task), then one full frame of every transfer still sending there:
     * the i-th of k transfers draining together is ahead by the k - 1 - i last frames after it, and
     * a transfer that drains while others go on is ahead by one frame of each of them. This is what
     * moves two channels of a ring on one NIC apart, as in the packet engine, where the one ahead
     * gains a frame every step until its latency hides under the other's transfer; a fluid without
     * it keeps the two in lock-step, both idle through every step's latency (docs/model.md, The
     * flow-level engine). A transfer whose head start exceeds its latency arrived before this
     * instant: it is recorded at its arrival, and what waits for it starts now.
     */
    private void lastRound() {
        int k = drainedCount;
        if (k == 0) {
            return;
        }
        drainedCount = 0;
        if (k == 1) {
            int nic = drainedNic[0];
            arrive(drainedNow[0], sendingOn(nic) * fullFramePs(nic));
            return;
        }
        // Grouped by NIC port (sorted); inside a group by start time, then task (insertion sort: a
        // few a NIC).
        int[] order = roundOrder.length < k ? (roundOrder = new int[drainedNow.length]) : roundOrder;
        long[] keys = roundKeys.length < k ? (roundKeys = new long[drainedNow.length]) : roundKeys;
        for (int i = 0; i < k; i++) {
            keys[i] = ((long) drainedNic[i] << 32) | i;
        }
        Arrays.sort(keys, 0, k);
        for (int i = 0; i < k; i++) {
            int e = (int) keys[i];
            int j = i;
            while (j > 0 && drainedNic[order[j - 1]] == drainedNic[e] && before(e, order[j - 1])) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = e;
        }
        int end = k;
        while (end > 0) {
            int start = end - 1;
            int nic = drainedNic[order[start]];
            while (start > 0 && drainedNic[order[start - 1]] == nic) {
                start--;
            }
            // One full frame of every transfer still sending on this NIC closes the round.
            long ahead = sendingOn(nic) * fullFramePs(nic);
            for (int i = end - 1; i >= start; i--) {
                int t = drainedNow[order[i]];
                arrive(t, ahead);
                ahead += io.fabriclab.model.Units.serializationPs(ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_LAST_FRAME], portRateBps[nic]);
            }
            end = start;
        }
    }

    private int[] roundOrder = new int[16];
    private long[] roundKeys = new long[16];

    /** Whether drained entry {@code a} goes before entry {@code b} in the last rounds: by NIC port, start, task. */
    private boolean before(int a, int b) {
        if (drainedNic[a] != drainedNic[b]) {
            return drainedNic[a] < drainedNic[b];
        }
        int ta = drainedNow[a];
        int tb = drainedNow[b];
        return tl[ta >>> CHUNK_SHIFT][TL * (ta & CHUNK_MASK) + L_STARTED] != tl[tb >>> CHUNK_SHIFT][TL * (tb & CHUNK_MASK) + L_STARTED] ? tl[ta >>> CHUNK_SHIFT][TL * (ta & CHUNK_MASK) + L_STARTED] < tl[tb >>> CHUNK_SHIFT][TL * (tb & CHUNK_MASK) + L_STARTED] : inputOf[ta] < inputOf[tb];
    }

    /** The transfers still sending on NIC port {@code nic}. */
    private int sendingOn(int nic) {
        int sending = 0;
        for (int u = 0; u < userCount[nic]; u++) {
            if (fRate[users[nic][u]] > 0) {
                sending++;
            }
        }
        return sending;
    }

    private long fullFramePs(int nic) {
        return io.fabriclab.model.Units.serializationPs(maxPayload + frameOverheadBytes, portRateBps[nic]);
    }

    private void arrive(int t, long aheadPs) {
        long lat = pathLatencyPs(t) - aheadPs;
        if (lat > 0) {
            events.push(now + lat, EV_ARRIVED, t);
        } else {
            // Its last frame arrived before the fluid's instant: recorded then; what waits for it
            // starts now.
            finished(t);
            tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_FINISHED] = now + lat;
        }
    }

    /**
     * From the last byte leaving the NIC to its arrival, as the packet engine times the last packets
     * on an otherwise idle path: a packet's latency after its last bit left the NIC is every link's
     * propagation plus, at each switch, its pipeline latency and the serialization on the egress
     * that {@link SwitchPipeline} adds for a packet that did not wait (all of it store-and-forward;
     * its excess over the ingress serialization cut-through). A short last packet can also catch up
     * with the full one before it and wait behind it on the last hop: it then arrives one of its own
     * serializations there after that one.
     */
    private long pathLatencyPs(int t) {
        int[] p = firstPath[ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_FLOW]];
        int last = ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_LAST_FRAME];
        boolean many = td[t >>> CHUNK_SHIFT][TD * (t & CHUNK_MASK) + D_WIRE] > last;
        // Its path's latencies, kept per shared path (while the routing that shares it is in
        // force) and per interned path.
        int key = latencyKey[ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_FLOW]];
        long[] cache = null;
        int at = 0;
        if (key >= 0 && key < pairRoutes.size() && pairRoutes.get(key).ports() == p) {
            cache = latencies;
            at = 3 * key;
        } else if (key < 0 && key != Integer.MIN_VALUE) {
            cache = internLatencies;
            at = 3 * (-1 - key);
        }
        if (cache != null && cache[at] == last && cache[at + 1] == (many ? 1 : 0)) {
            return cache[at + 2];
        }
        long ps = pathLatencyPs(t, p, last, many);
        if (cache != null) {
            cache[at] = last;
            cache[at + 1] = many ? 1 : 0;
            cache[at + 2] = ps;
        }
        return ps;
    }

    private long pathLatencyPs(int t, int[] p, int last, boolean many) {
        int full = maxPayload + frameOverheadBytes;
        long ps = latencyPs(p, last);
        if (many) {
            long behindFull = latencyPs(p, full) - io.fabriclab.model.Units.serializationPs(last, portRateBps[p[0]])
                    + io.fabriclab.model.Units.serializationPs(last, portRateBps[p[p.length - 1]]);
            ps = Math.max(ps, behindFull);
        }
        return ps;
    }

    /** A packet of {@code frame} wire bytes over path {@code p}, from its last bit leaving the NIC to its arrival. */
    private long latencyPs(int[] p, int frame) {
        long ps = 0;
        for (int i = 0; i < p.length; i++) {
            int port = p[i];
            ps += links.get(port >> 1).propagationPs();
            int s = switchIndexOfPort[port];
            if (s >= 0) {
                long serOut = io.fabriclab.model.Units.serializationPs(frame, portRateBps[port]);
                long serIn = io.fabriclab.model.Units.serializationPs(frame, portRateBps[p[i - 1]]);
                ps += switchLatencyPs[s] + (cutThrough[s] ? serOut - Math.min(serIn, serOut) : serOut);
            }
        }
        return ps;
    }

    /** Task {@code t}'s work is done (its data has all arrived): those waiting for it lose one dependency. */
    private void finished(int t) {
        tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_FINISHED] = now;
        remainingTasks--;
        if (ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_KIND] == K_NETWORK) {
            flowsCompleted++;
        }
        int from = ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_DEP_START];
        for (int i = from; i < from + ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_DEPENDENTS]; i++) {
            int u = dependents[i];
            if (--waitingFor[u] == 0) {
                ready(u);
            }
        }
    }

    // ---- failures ----

    private void linkDown(LinkFailure f) {
        int li = linkIndex.get(f.link());
        if (f.degradedGbps() > 0) {
            setPortCapacity(li, f.degradedGbps() * 1e9 / 8.0 / 1e12);
        } else {
            down[li] = true;
            setPortCapacity(li, 0);
        }
        events.push(now + reconvergencePs, EV_REROUTE, 0);
    }

    private void linkUp(LinkFailure f) {
        int li = linkIndex.get(f.link());
        down[li] = false;
        setPortCapacity(li, links.get(li).rateBps() / 8.0 / 1e12);
        events.push(now + reconvergencePs, EV_REROUTE, 0);
    }

    /** Both directions of link {@code li} change capacity: every fluid crossing it is allocated again. */
    private void setPortCapacity(int li, double bytesPerPs) {
        List<Integer> on = new ArrayList<>();
        for (int side = 0; side < 2; side++) {
            int r = 2 * li + side;
            for (int k = 0; k < userCount[r]; k++) {
                on.add(users[r][k]);
            }
        }
        double[] before = new double[on.size()];
        for (int k = 0; k < on.size(); k++) {
            before[k] = fCap[on.get(k)];
        }
        capacity[2 * li] = bytesPerPs;
        capacity[2 * li + 1] = bytesPerPs;
        // Each fluid's demand: out with the old standalone cap, in with the new.
        for (int k = 0; k < on.size(); k++) {
            int f = on.get(k);
            double after = standaloneCap(f);
            fCap[f] = after;
            int[] p = fPath[f];
            for (int i = 0; i < p.length; i++) {
                demand[p[i]] += w(f, i) * (after - before[k]);
                updateContended(p[i]);
            }
            changed = push(changed, changedSize++, f);
        }
        for (int side = 0; side < 2; side++) {
            int r = 2 * li + side;
            updateContended(r);
        }
    }

    /** The routing reconverges around the links down now: every active flow takes its path under it. */
    private void reroute() {
        Set<Link> downLinks = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i < links.size(); i++) {
            if (down[i]) {
                downLinks.add(links.get(i));
            }
        }
        paths.recompute(fabric, downLinks);
        Arrays.fill(srcEnds, UNKNOWN_ENDS);
        Arrays.fill(dstEnds, UNKNOWN_ENDS);
        pairPaths.clear();
        sprayRoutes.clear();
        pairRoutes.clear();
        reroutes++;
        // The moving network flows, in task order.
        int[] moving = new int[fluidsUsed];
        int count = 0;
        for (int f = 0; f < fluidsUsed; f++) {
            int t = fTask[f];
            if (fActive[f] && ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_KIND] == K_NETWORK) {
                moving[count++] = inputOf[t];
            }
        }
        Arrays.sort(moving, 0, count);
        for (int m = 0; m < count; m++) {
            int t = taskOf(moving[m]);
            deactivate(ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_ACTIVE] - 1);
            resume(t, td[t >>> CHUNK_SHIFT][TD * (t & CHUNK_MASK) + D_LEFT]);
        }
        List<Integer> waiting = new ArrayList<>(stranded);
        stranded.clear();
        for (int t : waiting) {
            resume(t, td[t >>> CHUNK_SHIFT][TD * (t & CHUNK_MASK) + D_LEFT] > 0 ? td[t >>> CHUNK_SHIFT][TD * (t & CHUNK_MASK) + D_LEFT] : td[t >>> CHUNK_SHIFT][TD * (t & CHUNK_MASK) + D_WIRE]);
        }
    }

    /** Network flow {@code t} moves on with {@code left} wire bytes over its path now, or waits stranded without one. */
    private void resume(int t, double left) {
        Route r = routeOf(t);
        if (r == null) {
            stranded.add(t);
            return;
        }
        int f = activate(t, r.ports(), r.weights()); // may grow fLeft
        fLeft[f] = left;
    }

    // ---- rates ----

    private void addUser(int r, int f, int i) {
        if (users[r] == null) {
            users[r] = new int[4];
        } else if (userCount[r] == users[r].length) {
            users[r] = Arrays.copyOf(users[r], userCount[r] * 2);
        }
        fSlot[f][i] = userCount[r];
        users[r][userCount[r]++] = f;
        if (userCount[r] > mostUsers[r]) {
            mostUsers[r] = userCount[r];
        }
    }

    private void removeUser(int r, int f, int i) {
        int at = fSlot[f][i];
        int lastIdx = --userCount[r];
        int moved = users[r][lastIdx];
        users[r][at] = moved;
        if (moved != f) {
            // Find the moved fluid's entry for r and point it at its new place.
            int[] mp = fPath[moved];
            int[] ms = fSlot[moved];
            for (int k = 0; k < mp.length; k++) {
                if (mp[k] == r && ms[k] == lastIdx) {
                    ms[k] = at;
                    break;
                }
            }
        }
    }

    private boolean contended(int r) {
        return isContended[r];
    }

    /** Resource {@code r}'s demand or capacity changed: whether its users could together send more than it carries. */
    private void updateContended(int r) {
        isContended[r] = demand[r] > capacity[r] * (1 + 1e-9);
    }

    /** Carried bytes of resource {@code r} brought up to now before its load changes. */
    private void setLoad(int r, double newLoad) {
        carried[r] += load[r] * (now - carriedUntilPs[r]);
        carriedUntilPs[r] = now;
        load[r] = Math.max(0, newLoad);
    }

    /** Bytes fluid {@code f} moved since its last rate change. */
    private void settle(int f) {
        fLeft[f] = Math.max(0, fLeft[f] - fRate[f] * (now - fUpdated[f]));
        fUpdated[f] = now;
    }

    // Scratch for one allocation.
    private int epoch;
    private int[] resMark = new int[0];
    private double[] frozenLoad = new double[0];
    /** Each contended resource's level in {@link #fillEven}: its capacity over its users' weights there. */
    private double[] evenLevel = new double[0];
    private double[] unfrozenW = new double[0];
    private int[] resStamp = new int[0];
    private int[] queuedStamp = new int[0];
    /** Whether each resource was contended at the last allocation that touched it. */
    private boolean[] wasContended = new boolean[0];
    private int[] queue = new int[16];
    private int queueSize;
    private int[] touched = new int[16];
    private int touchedSize;
    private int[] component = new int[16];
    private int compSize;
    private int[] resources = new int[16];
    private int resSize;

    /**
     * New rates for the fluids the instant's events touched and every fluid that shares a
     * contended resource with them, transitively; the rest keep theirs. A resource is contended
     * when its users could together send more than it carries, each at its standalone cap; a
     * fluid whose resources are all uncontended gets its standalone cap (no resource can stop it),
     * so only the contended part is filled progressively, one connected component at a time
     * (fluids joined by contended resources: max-min fairness in one does not depend on another).
     */
    private void reallocate() {
        if (changedSize == 0) {
            freeStopped();
            return;
        }
        if (resMark.length < resourceCount) {
            resMark = new int[resourceCount];
            queuedStamp = new int[resourceCount];
            frozenLoad = new double[resourceCount];
            evenLevel = new double[resourceCount];
            unfrozenW = new double[resourceCount];
            resStamp = new int[resourceCount];
            wasContended = new boolean[resourceCount];
        }
        epoch++;
        queueSize = 0;
        touchedSize = 0;
        // Seeds: the resources of a changed fluid (active or just gone) that are contended now or
        // were at the last allocation (their users' rates may change); the changed fluids themselves.
        for (int c = 0; c < changedSize; c++) {
            int[] p = fPath[changed[c]];
            for (int r : p) {
                if (resMark[r] != epoch) {
                    resMark[r] = epoch;
                    touched = push(touched, touchedSize++, r);
                    if (contended(r) || wasContended[r]) {
                        seeds = push(seeds, seedSize++, r);
                    }
                }
            }
        }
        for (int c = 0; c < changedSize; c++) {
            int f = changed[c];
            if (fActive[f]) {
                visit(f);
            }
        }
        changedSize = 0;
        for (int i = 0; i < seedSize; i++) {
            int r = seeds[i];
            for (int k = 0; k < userCount[r]; k++) {
                visit(users[r][k]);
            }
        }
        for (int i = 0; i < touchedSize; i++) {
            wasContended[touched[i]] = contended(touched[i]);
        }
        for (int i = 0; i < seedSize; i++) {
            wasContended[seeds[i]] = contended(seeds[i]);
        }
        seedSize = 0;
        // The contended resources the components reached (each contended, as each is seen).
        for (int i = 0; i < queueSize; i++) {
            wasContended[queue[i]] = true;
        }
        freeStopped();
    }

    /** The fluids stopped at this instant are free for new ones (their paths read). */
    private void freeStopped() {
        for (int i = 0; i < stoppedCount; i++) {
            freeFluids = push(freeFluids, freeFluidCount++, stoppedFluids[i]);
        }
        stoppedCount = 0;
    }

    /** Resources whose users this allocation visits: a changed fluid's, contended now or at the last allocation. */
    private int[] seeds = new int[16];
    private int seedSize;

    /**
     * Fluid {@code f} is part of this allocation: alone (none of its resources contended) it moves
     * at its standalone cap at once; otherwise its component (every fluid joined to it by
     * contended resources) is found and filled.
     */
    private void visit(int f) {
        if (fMark[f] == epoch) {
            return;
        }
        fMark[f] = epoch;
        boolean any = false;
        for (int q : fPath[f]) {
            if (contended(q)) {
                any = true;
                break;
            }
        }
        if (!any) {
            setRate(f, fCap[f]);
            return;
        }
        // Breadth first through contended resources: the component's fluids and resources.
        compSize = 0;
        resSize = 0;
        component = push(component, compSize++, f);
        for (int c = 0; c < compSize; c++) {
            int[] p = fPath[component[c]];
            for (int q : p) {
                if (queuedStamp[q] != epoch && contended(q)) {
                    queuedStamp[q] = epoch;
                    queue = push(queue, queueSize++, q);
                    resources = push(resources, resSize++, q);
                    for (int k = 0; k < userCount[q]; k++) {
                        int u = users[q][k];
                        if (fMark[u] != epoch) {
                            fMark[u] = epoch;
                            component = push(component, compSize++, u);
                        }
                    }
                }
            }
        }
        fill();
    }

    private static int[] push(int[] a, int at, int v) {
        if (at == a.length) {
            a = Arrays.copyOf(a, Math.max(16, a.length * 2));
        }
        a[at] = v;
        return a;
    }

    /** Progressive filling of the component's fluids over its contended resources (their only users). */
    private void fill() {
        if (fillEven()) {
            return;
        }
        LevelHeap levels = this.levels;
        levels.clear();
        for (int i = 0; i < resSize; i++) {
            int r = resources[i];
            frozenLoad[r] = 0;
            unfrozenW[r] = 0;
            resStamp[r] = 0;
        }
        for (int i = 0; i < compSize; i++) {
            int f = component[i];
            fFrozen[f] = false;
            int[] p = fPath[f];
            for (int k = 0; k < p.length; k++) {
                if (contended(p[k])) {
                    unfrozenW[p[k]] += w(f, k);
                }
            }
            levels.push(fCap[f], -1 - f, 0);
        }
        for (int i = 0; i < resSize; i++) {
            int r = resources[i];
            levels.push(capacity[r] / unfrozenW[r], r, 0);
        }
        int left = compSize;
        double level = 0;
        while (left > 0 && !levels.isEmpty()) {
            double lv = levels.topKey();
            int who = levels.topWho();
            int stamp = levels.topStamp();
            levels.pop();
            if (who < 0) {
                int f = -1 - who;
                if (!fFrozen[f]) {
                    level = Math.max(level, lv);
                    freeze(f, level, levels);
                    left--;
                }
                continue;
            }
            if (stamp != resStamp[who] || unfrozenW[who] <= 1e-12) {
                continue;
            }
            level = Math.max(level, lv);
            for (int k = 0; k < userCount[who]; k++) {
                int f = users[who][k];
                if (!fFrozen[f] && fMark[f] == epoch) {
                    freeze(f, level, levels);
                    left--;
                }
            }
        }
    }

    /**
     * The component's fluids all stop at one level, when they can: progressive filling raises
     * every fluid together, and the first resources to fill are those of the lowest capacity over
     * their users' weights there; when every fluid of the component crosses one of them and no
     * fluid's standalone cap is that low, every fluid freezes at that level at once (the common
     * case: a NIC's transfers sharing its wire and the next hops evenly). Sets those rates and
     * answers true; false, and nothing set, otherwise.
     */
    private boolean fillEven() {
        double level = Double.POSITIVE_INFINITY;
        for (int i = 0; i < resSize; i++) {
            int r = resources[i];
            double weights = 0;
            int[] on = users[r];
            for (int k = 0; k < userCount[r]; k++) {
                int f = on[k];
                float[] w = fWeight[f];
                if (w == null) {
                    weights += 1;
                } else {
                    int[] p = fPath[f];
                    for (int j = 0; j < p.length; j++) {
                        if (p[j] == r) {
                            weights += w[j];
                        }
                    }
                }
            }
            evenLevel[r] = capacity[r] / weights;
            level = Math.min(level, evenLevel[r]);
        }
        for (int c = 0; c < compSize; c++) {
            int f = component[c];
            if (fCap[f] <= level) {
                return false;
            }
            boolean atLevel = false;
            for (int q : fPath[f]) {
                if (contended(q) && evenLevel[q] == level) {
                    atLevel = true;
                    break;
                }
            }
            if (!atLevel) {
                return false;
            }
        }
        for (int c = 0; c < compSize; c++) {
            setRate(component[c], level);
        }
        return true;
    }

    /** The fill levels of one allocation, reused (it grows to the largest allocation's). */
    private final LevelHeap levels = new LevelHeap(64);

    private void freeze(int f, double r, LevelHeap levels) {
        fFrozen[f] = true;
        int[] p = fPath[f];
        for (int i = 0; i < p.length; i++) {
            int q = p[i];
            if (contended(q)) {
                double w = w(f, i);
                frozenLoad[q] += w * r;
                unfrozenW[q] -= w;
                resStamp[q]++;
                if (unfrozenW[q] > 1e-12) {
                    levels.push(Math.max(r, (capacity[q] - frozenLoad[q]) / unfrozenW[q]), q, resStamp[q]);
                }
            }
        }
        setRate(f, r);
    }

    /** Fluid {@code f} moves at {@code r} (wire bytes per ps) from now: its drain rescheduled. */
    private void setRate(int f, double r) {
        double old = fRate[f];
        if (fDraining[f] && Math.abs(r - old) <= 1e-12 * old) {
            return; // the same rate: its drain stays when it was
        }
        settle(f);
        int[] p = fPath[f];
        if (r != old) {
            for (int i = 0; i < p.length; i++) {
                setLoad(p[i], load[p[i]] + w(f, i) * (r - old));
            }
        }
        fRate[f] = r;
        if (rateListener != null) {
            int t = fTask[f];
            if (ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_FLOW] >= 0) {
                rateListener.rateChanged(ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_FLOW], now, r);
            }
        }
        if (r > 0) {
            fMinRate[f] = Math.min(fMinRate[f], r);
        }
        fVersion[f]++;
        fDraining[f] = r > 0;
        if (r > 0) {
            double ps = Math.ceil(fLeft[f] / r);
            events.push(now + (long) Math.max(0, ps), EV_DRAINED, f, fVersion[f]);
        }
    }

    // ---- results ----

    private SimResults results(SimResults.StopReason reason, long wallNanos) {
        long end = now;
        for (int f = 0; f < fluidsUsed; f++) {
            if (fActive[f]) { // still moving: its rate now and its lowest
                int t = fTask[f];
                td[t >>> CHUNK_SHIFT][TD * (t & CHUNK_MASK) + D_RATE] = fRate[f];
                td[t >>> CHUNK_SHIFT][TD * (t & CHUNK_MASK) + D_MIN_RATE] = fMinRate[f];
            }
        }
        for (int r = 0; r < resourceCount; r++) {
            setLoad(r, load[r]);
        }
        int flows = taskOfFlow.length;
        // Each port's "device:port" once (Port.ref builds a new string at every call).
        String[] refs = new String[portCount];
        for (int p = 0; p < portCount; p++) {
            refs[p] = portOf[p].ref();
        }
        List<SimResults.FlowResult> flowResults = new ArrayList<>(flows);
        Map<int[], List<String>> routes = new IdentityHashMap<>();
        long[] fcts = new long[flows];
        int done = 0;
        double throughputSum = 0;
        for (int f = 0; f < flows; f++) {
            int t = taskOfFlow[f];
            FlowSpec s = spec(t);
            long started = tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_STARTED] >= 0 ? tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_STARTED] : s.startPs();
            long fct = tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_FINISHED] >= 0 ? tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_FINISHED] - started : -1;
            double gbps = fct > 0 ? s.bytes() * 8.0 / fct * 1000.0 : 0;
            if (fct >= 0) {
                fcts[done++] = fct;
                throughputSum += gbps;
            }
            List<String> route = firstPath[f] == null ? List.of() : routes.get(firstPath[f]);
            if (route == null) {
                List<String> names = new ArrayList<>(firstPath[f].length);
                for (int p : firstPath[f]) {
                    names.add(refs[p]);
                }
                route = List.copyOf(names);
                routes.put(firstPath[f], route); // flows share path arrays: one list each
            }
            double toGbps = 8e12 / 1e9 * ((double) s.bytes() / td[t >>> CHUNK_SHIFT][TD * (t & CHUNK_MASK) + D_WIRE]);
            flowResults.add(new SimResults.FlowResult(f, s.src(), s.dst(), s.priority(), s.label(), s.bytes(), started,
                    tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_FINISHED], fct, gbps, ti[t >>> CHUNK_SHIFT][TI * (t & CHUNK_MASK) + I_UDP], 0, 0, 0, 0, 0, 0, 0, 0, 0,
                    td[t >>> CHUNK_SHIFT][TD * (t & CHUNK_MASK) + D_MIN_RATE] == Double.POSITIVE_INFINITY ? 0 : td[t >>> CHUNK_SHIFT][TD * (t & CHUNK_MASK) + D_MIN_RATE] * toGbps, td[t >>> CHUNK_SHIFT][TD * (t & CHUNK_MASK) + D_RATE] * toGbps,
                    route, null));
        }
        long[] sorted = Arrays.copyOf(fcts, done);
        Arrays.sort(sorted);
        List<SimResults.LinkResult> linkResults = new ArrayList<>();
        for (int p = 0; p < portCount; p++) {
            if (carried[p] > 0) {
                double bytes = carried[p];
                linkResults.add(new SimResults.LinkResult(portOf[p].ref(), peerOf[p].ref(), links.get(p >> 1).speedGbps(),
                        Math.round(bytes / (maxPayload + frameOverheadBytes)), Math.round(bytes),
                        end <= 0 ? 0 : bytes / (capacity(p) * end), intoNic(p) ? mostUsers[p] : 0, sampler.series(p)));
            }
        }
        List<SimResults.EcmpResult> ecmp = new ArrayList<>();
        boolean spray = sprays();
        if (!spray) {
            for (int p = 0; p < portCount; p++) {
                if (flowsPerPort[p] > 0 && switchIndexOfPort[p] >= 0) {
                    ecmp.add(new SimResults.EcmpResult(portOf[p].device().id(), portOf[p].ref(), peerOf[p].ref(),
                            (int) flowsPerPort[p]));
                }
            }
        }
        List<SimResults.CollectiveResult> collectives = CollectiveResults.of(flowView(), taskView(), collectiveWorkloads,
                ncclCollectives, reportedElsewhere);
        SimResults.Summary summary = new SimResults.Summary(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null,
                ResultsBuilder.percentileUs(sorted, 0.50), ResultsBuilder.percentileUs(sorted, 0.99),
                sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e6, done == 0 ? 0 : throughputSum / done);
        double evps = wallNanos <= 0 ? 0 : eventCount * 1e9 / wallNanos;
        RoutingMode mode = transport == Transport.ULTRA_ETHERNET && !routingPolicy.perPacket() ? RoutingMode.SPRAY
                : routingPolicy.mode();
        SimResults.RunInfo run = new SimResults.RunInfo(cfg.seed(), reason, end, eventCount, wallNanos, evps, flows,
                flowsCompleted, 0, sampler.intervalPs, reroutes, mode.jsonName(), Engine.FLOW.jsonName());
        return new SimResults(run, summary, flowResults, List.of(), List.of(), linkResults, List.of(), ecmp, collectives,
                List.of(), uplinks(spray), new SimResults.DcqcnLog(List.of(), 0, 0, List.of()), List.of(), List.of(),
                List.of(), 0, List.of(), null, null, localResult());
    }

    /** Whether link direction {@code p} leads from a switch into a NIC. */
    private boolean intoNic(int p) {
        return switchIndexOfPort[p] >= 0 && switchIndexOfPort[p ^ 1] < 0;
    }

    private double capacity(int p) {
        return nominalCapacity[p];
    }

    private List<SimResults.UplinkSpread> uplinks(boolean spray) {
        Map<Device, List<Integer>> bySwitch = new LinkedHashMap<>();
        for (int p = 0; p < portCount; p++) {
            Device self = portOf[p].device();
            Device peer = peerOf[p].device();
            if (switchIndexOfPort[p] >= 0 && peer.role().isSwitch() && peer.role().tier() > self.role().tier()) {
                bySwitch.computeIfAbsent(self, k -> new ArrayList<>()).add(p);
            }
        }
        List<SimResults.UplinkSpread> out = new ArrayList<>();
        for (var e : bySwitch.entrySet()) {
            List<Integer> ups = e.getValue();
            long total = 0;
            long max = 0;
            List<Long> bytes = new ArrayList<>(ups.size());
            for (int p : ups) {
                long b = Math.round(carried[p]);
                bytes.add(b);
                total += b;
                max = Math.max(max, b);
            }
            if (total == 0) {
                continue;
            }
            out.add(new SimResults.UplinkSpread(e.getKey().id(), ups.stream().map(p -> portOf[p].ref()).toList(),
                    spray ? List.of() : ups.stream().map(p -> (int) flowsPerPort[p]).toList(), List.copyOf(bytes),
                    max / ((double) total / ups.size())));
        }
        return out;
    }

    private SimResults.LocalResult localResult() {
        List<SimResults.TaskResult> tasks = new ArrayList<>();
        int completed = 0;
        for (int o = 0; o < n; o++) {
            int t = taskOf(o);
            FlowSpec s = specs.get(o);
            if (s.network()) {
                continue;
            }
            if (tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_FINISHED] >= 0) {
                completed++;
            }
            tasks.add(new SimResults.TaskResult(o, s.kind().jsonName(), s.src(), s.dst(), s.label(), s.id(), s.bytes(),
                    s.kind() == FlowSpec.Kind.COMPUTE ? s.delayPs() : 0, tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_READY], tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_STARTED], tl[t >>> CHUNK_SHIFT][TL * (t & CHUNK_MASK) + L_FINISHED]));
        }
        if (tasks.isEmpty()) {
            return null;
        }
        List<SimResults.GpuResult> gpus = new ArrayList<>();
        for (int g = 0; g < gpuNames.size(); g++) {
            if (gpuBusyPs[g] > 0) {
                gpus.add(new SimResults.GpuResult(gpuNames.get(g), gpuBusyPs[g]));
            }
        }
        List<Integer> flowTasks = new ArrayList<>(taskOfFlow.length);
        for (int t : taskOfFlow) {
            flowTasks.add(inputOf[t]);
        }
        return new SimResults.LocalResult(completed, List.copyOf(tasks), List.copyOf(gpus), List.copyOf(flowTasks));
    }

    private CollectiveResults.Flows flowView() {
        return new CollectiveResults.Flows() {
            @Override
            public int count() {
                return taskOfFlow.length;
            }

            @Override
            public String label(int i) {
                return spec(taskOfFlow[i]).label();
            }

            @Override
            public String src(int i) {
                return spec(taskOfFlow[i]).src();
            }

            @Override
            public long bytes(int i) {
                return spec(taskOfFlow[i]).bytes();
            }

            @Override
            public long specStartPs(int i) {
                return spec(taskOfFlow[i]).startPs();
            }

            @Override
            public long startedPs(int i) {
                return tl[(taskOfFlow[i]) >>> CHUNK_SHIFT][TL * ((taskOfFlow[i]) & CHUNK_MASK) + L_STARTED];
            }

            @Override
            public long finishPs(int i) {
                return tl[(taskOfFlow[i]) >>> CHUNK_SHIFT][TL * ((taskOfFlow[i]) & CHUNK_MASK) + L_FINISHED];
            }

            @Override
            public long stallPs(int i) {
                return 0;
            }

            @Override
            public long retransmittedBytes(int i) {
                return 0;
            }
        };
    }

    private CollectiveResults.Tasks taskView() {
        List<Integer> local = new ArrayList<>();
        for (int o = 0; o < n; o++) {
            if (!specs.get(o).network()) {
                local.add(taskOf(o));
            }
        }
        return new CollectiveResults.Tasks() {
            @Override
            public int count() {
                return local.size();
            }

            @Override
            public String label(int i) {
                return spec(local.get(i)).label();
            }

            @Override
            public long startedPs(int i) {
                return tl[(local.get(i)) >>> CHUNK_SHIFT][TL * ((local.get(i)) & CHUNK_MASK) + L_STARTED];
            }

            @Override
            public long finishPs(int i) {
                return tl[(local.get(i)) >>> CHUNK_SHIFT][TL * ((local.get(i)) & CHUNK_MASK) + L_FINISHED];
            }
        };
    }

    /**
     * Whether a flow run names this link direction for the packet engine: busy at
     * {@link #PACKET_LEVEL_UTILIZATION} or more over the run, or into a NIC from
     * {@link #PACKET_LEVEL_INCAST} or more transfers at once.
     */
    public static boolean namedForPacketLevel(SimResults.LinkResult l) {
        return namedForPacketLevel(l, PACKET_LEVEL_UTILIZATION, PACKET_LEVEL_INCAST);
    }

    private static boolean namedForPacketLevel(SimResults.LinkResult l, double utilization, int incast) {
        return l.meanUtilization() >= utilization || l.incastDegree() >= incast;
    }

    /** As {@link #packetLevelCandidates(SimResults, double, int, int)} with {@link #PACKET_LEVEL_INCAST}. */
    public static List<String> packetLevelCandidates(SimResults r, double utilization, int max) {
        return packetLevelCandidates(r, utilization, PACKET_LEVEL_INCAST, max);
    }

    /**
     * The link directions of a flow run where the packet engine should look: those at
     * {@code utilization} or more of their capacity over the run, and links into a NIC that
     * {@code incast} or more transfers reached at once; the busiest first, then the widest incast.
     */
    public static List<String> packetLevelCandidates(SimResults r, double utilization, int incast, int max) {
        List<SimResults.LinkResult> hot = new ArrayList<>();
        for (SimResults.LinkResult l : r.links()) {
            if (namedForPacketLevel(l, utilization, incast)) {
                hot.add(l);
            }
        }
        hot.sort(java.util.Comparator.comparingDouble(SimResults.LinkResult::meanUtilization).reversed()
                .thenComparing(java.util.Comparator.comparingInt(SimResults.LinkResult::incastDegree).reversed())
                .thenComparing(SimResults.LinkResult::from));
        List<String> out = new ArrayList<>();
        for (SimResults.LinkResult l : hot.subList(0, Math.min(max, hot.size()))) {
            out.add(String.format(java.util.Locale.ROOT, "%s -> %s %.0f %% busy%s", l.from(), l.to(),
                    100 * l.meanUtilization(),
                    l.incastDegree() >= incast ? ", " + l.incastDegree() + " transfers arriving at once" : ""));
        }
        return out;
    }

    // ---- helpers ----

    /** NICs by the reference tasks name them with (thousands of tasks a NIC: each reference parsed once). */
    private final Map<String, Port> nicByRef = new HashMap<>();

    private Port resolveNic(String ref, String which, int flow) {
        Port p = nicByRef.get(ref);
        if (p == null) {
            p = Simulator.resolveNic(fabric, paths.routing, ref, which, flow); // or its error
            nicByRef.put(ref, p);
        }
        return p;
    }

    private final List<String> gpuServer = new ArrayList<>();

    /** The run's index of GPU "server:gpuK", or an error naming the task (as the packet engine's LocalWork). */
    private int gpu(String ref, int task, String which) {
        Integer g = gpuIndex.get(ref);
        if (g != null) {
            return g;
        }
        Device d = LocalWork.gpuDevice(fabric, ref, task, which);
        int k = LocalWork.gpuIndex(d, ref, task);
        String name = d.id() + ":gpu" + k;
        Integer known = gpuIndex.get(name);
        if (known != null) {
            gpuIndex.put(ref, known);
            return known;
        }
        int idx = gpuNames.size();
        gpuNames.add(name);
        gpuServer.add(d.id());
        gpuIndex.put(name, idx);
        gpuIndex.put(ref, idx);
        return idx;
    }

    private String serverOfGpu(int g) {
        return gpuServer.get(g);
    }

    /** Per link direction, utilization sampled at an interval that doubles whenever the series fill. */
    private static final class Sampler {
        long intervalPs;
        private final int points;
        private final int ports;
        private double[] lastCarried;
        private float[][] values; // [sample][port]
        private int count;

        Sampler(SimConfig cfg, int ports) {
            this.ports = ports;
            this.intervalPs = cfg.sampleIntervalPs();
            // At most ~8 M points in all: a 16,384-GPU fabric keeps about 80 points per link direction.
            int budget = (int) Math.max(16, Math.min(cfg.maxSeriesPoints(), 8_000_000L / Math.max(1, ports)));
            this.points = budget & ~1;
        }

        void sample(long now, FlowEngine e) {
            if (values == null) {
                // By sample, every port side by side: a sample writes one row in order.
                values = new float[points][];
                lastCarried = new double[ports];
                used = new boolean[ports];
                perCarried = new double[ports];
            }
            if (count == points) {
                // Full: merge pairs and sample half as often.
                for (int i = 0; i < points / 2; i++) {
                    float[] a = values[2 * i];
                    float[] b = values[2 * i + 1];
                    for (int p = 0; p < ports; p++) {
                        a[p] = (a[p] + b[p]) / 2;
                    }
                }
                for (int i = 0; i < points / 2; i++) {
                    float[] merged = values[2 * i];
                    values[2 * i] = values[i];
                    values[i] = merged;
                }
                count = points / 2;
                intervalPs *= 2;
                perInterval = 0;
            }
            if (perInterval != intervalPs) {
                for (int p = 0; p < ports; p++) {
                    perCarried[p] = e.capacity(p) * intervalPs;
                }
                perInterval = intervalPs;
            }
            float[] row = values[count];
            if (row == null) {
                row = values[count] = new float[ports];
            }
            double[] carried = e.carried;
            double[] load = e.load;
            long[] until = e.carriedUntilPs;
            for (int p = 0; p < ports; p++) {
                double c = carried[p] + load[p] * (now - until[p]);
                double util = (c - lastCarried[p]) / perCarried[p];
                lastCarried[p] = c;
                if (util > 0) {
                    used[p] = true;
                }
                row[p] = used[p] ? (float) Math.min(1.0, util) : 0; // 0 until it first carries
            }
            count++;
        }

        /** Whether port {@code p} carried anything in a sample. */
        private boolean[] used;
        /** Per port, its capacity x the interval, for the interval below. */
        private double[] perCarried;
        private long perInterval;

        SimResults.Series series(int p) {
            if (values == null || !used[p] || count == 0) {
                return null;
            }
            long[] times = new long[count];
            double[] v = new double[count];
            for (int i = 0; i < count; i++) {
                times[i] = (i + 1) * intervalPs;
                v[i] = values[i][p];
            }
            return new SimResults.Series("fraction", 1, times, v);
        }
    }

    /**
     * A map from long keys to non-negative ints ({@link #get} gives -1 for a key not in it): open
     * addressing with linear probing, no object per entry.
     */
    static final class LongIntMap {
        private long[] keys = new long[64];
        private int[] values = new int[64];
        private boolean[] used = new boolean[64];
        private int size;

        int get(long key) {
            int mask = keys.length - 1;
            for (int i = mix(key) & mask; used[i]; i = (i + 1) & mask) {
                if (keys[i] == key) {
                    return values[i];
                }
            }
            return -1;
        }

        void put(long key, int value) {
            int mask = keys.length - 1;
            int i = mix(key) & mask;
            while (used[i] && keys[i] != key) {
                i = (i + 1) & mask;
            }
            if (!used[i]) {
                used[i] = true;
                keys[i] = key;
                if (++size * 2 > keys.length) {
                    values[i] = value;
                    grow();
                    return;
                }
            }
            values[i] = value;
        }

        void clear() {
            Arrays.fill(used, false);
            size = 0;
        }

        private void grow() {
            long[] k = keys;
            int[] v = values;
            boolean[] u = used;
            keys = new long[k.length * 2];
            values = new int[k.length * 2];
            used = new boolean[k.length * 2];
            size = 0;
            for (int i = 0; i < k.length; i++) {
                if (u[i]) {
                    put(k[i], v[i]);
                }
            }
        }

        /** NIC pairs (two small numbers) spread over the table ({@link InstantQueue#hash}). */
        private static int mix(long h) {
            return InstantQueue.hash(h);
        }
    }

    /** A min-heap of fill levels: (level, who, stamp); who >= 0 a resource, < 0 a fluid's own cap. */
    private static final class LevelHeap {
        private double[] key;
        private int[] who;
        private int[] stamp;
        private int size;

        LevelHeap(int capacity) {
            int c = Math.max(16, capacity);
            key = new double[c];
            who = new int[c];
            stamp = new int[c];
        }

        boolean isEmpty() {
            return size == 0;
        }

        void clear() {
            size = 0;
        }

        double topKey() {
            return key[0];
        }

        int topWho() {
            return who[0];
        }

        int topStamp() {
            return stamp[0];
        }

        void push(double k, int w, int s) {
            if (size == key.length) {
                key = Arrays.copyOf(key, size * 2);
                who = Arrays.copyOf(who, size * 2);
                stamp = Arrays.copyOf(stamp, size * 2);
            }
            int i = size++;
            while (i > 0) {
                int parent = (i - 1) >>> 1;
                if (key[parent] <= k) {
                    break;
                }
                key[i] = key[parent];
                who[i] = who[parent];
                stamp[i] = stamp[parent];
                i = parent;
            }
            key[i] = k;
            who[i] = w;
            stamp[i] = s;
        }

        void pop() {
            size--;
            if (size == 0) {
                return;
            }
            double k = key[size];
            int w = who[size];
            int s = stamp[size];
            int i = 0;
            while (true) {
                int c = 2 * i + 1;
                if (c >= size) {
                    break;
                }
                if (c + 1 < size && key[c + 1] < key[c]) {
                    c++;
                }
                if (k <= key[c]) {
                    break;
                }
                key[i] = key[c];
                who[i] = who[c];
                stamp[i] = stamp[c];
                i = c;
            }
            key[i] = k;
            who[i] = w;
            stamp[i] = s;
        }
    }

    // ---- a focus run's view of the rates (FocusRun) ----

    /** Told every change of a network flow's rate: flow id, time (ps), wire bytes per ps (0 when it stops). */
    public interface RateListener {
        void rateChanged(int flow, long ps, double wireBytesPerPs);
    }

    private RateListener rateListener;

    /** Listens to every network flow's rate changes during {@link #run}; call before it. */
    public void setRateListener(RateListener listener) {
        this.rateListener = listener;
    }
}
