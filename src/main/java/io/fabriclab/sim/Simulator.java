package io.fabriclab.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.PfcConfig;
import io.fabriclab.model.Port;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.SchedulerConfig;
import io.fabriclab.model.Units;
import io.fabriclab.model.WredEcn;
import io.fabriclab.routing.EcmpHash;
import io.fabriclab.routing.Routing;
import io.fabriclab.topology.HeadroomCalculator;
import io.fabriclab.workload.FlowSpec;

/**
 * The packet-level discrete-event simulator of a RoCEv2 fabric (docs/model.md). Build it from a
 * fabric (whose QoS profiles are in force), the flows to run and the run settings, then
 * {@link #run()} once on one thread.
 *
 * <p>Hot path: events are primitives in a heap ({@link EventQueue}), packets are ids into
 * parallel arrays ({@link PacketPool}), queues are intrusive lists through the packet arrays; no
 * object is allocated per packet or per event.
 */
public final class Simulator {
    /** Receives progress every few hundred thousand events (for a progress bar). */
    public interface Progress {
        void update(long simulatedPs, long endPs, long events, long wallNanos, int flowsCompleted, int flows);
    }

    static final int EV_TX_DONE = 0;
    static final int EV_ARRIVE = 1;
    static final int EV_FLOW_START = 2;
    static final int EV_NIC_WAKE = 3;
    static final int EV_PAUSE_EXPIRE = 4;
    static final int EV_PFC_REFRESH = 5;
    static final int EV_RATE_TIMER = 6;
    static final int EV_RTO = 7;
    static final int EV_SAMPLE = 8;
    static final int EV_WATCHDOG = 9;
    static final int EV_LINK_DOWN = 10;
    static final int EV_LINK_UP = 11;
    static final int EV_REROUTE = 12;
    static final int EV_SNAPSHOT = 13;
    static final int EV_LINK_SPEED = 14;
    static final int EV_PFC_APPLY = 15;

    private static final String[] KIND_NAMES = {"data", "ack", "nak", "cnp", "pfc"};

    private final Fabric fabric;
    private final QosResolver qos;
    private final SimConfig cfg;
    private Routing routing;
    private final List<Link> links;
    private final Map<Link, Integer> linkIndex = new IdentityHashMap<>();
    private final Map<Long, List<Link>> hopCache = new HashMap<>();
    private final java.util.Set<Link> downLinks = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    private final List<LinkFailure> failures = new ArrayList<>();
    private long reconvergencePs = 50 * Units.PS_PER_US;
    private int reroutes;
    private int downLinkCount;
    private DeadlockDetector deadlocks;
    private long deadlockThresholdPs = 500 * Units.PS_PER_US;
    /** Every path of every flow, back to back; a packet holds the offset of its path. */
    private int[] pathStore = new int[1024];
    private int pathStoreSize;
    private java.util.function.Consumer<SimSnapshot> snapshotSink;
    private long snapshotEveryPs;
    /** Published snapshots are at least this far apart in wall time (0: every interval). */
    private long snapshotMinWallNanos;
    private long lastPublishWallNanos;
    private volatile SnapshotBuilder snapshots;
    /** Bumped by every live threshold change, so snapshots rebuild their threshold list. */
    private int thresholdsVersion;
    /** Live control (LiveRun): consulted when the next event lies beyond the grant. Null: run free. */
    private RunGate gate;
    /** Events at or before this time may run without asking the gate. */
    private long horizonPs;
    /** The gate is asked again once this many events have run. */
    private long eventLimit = Long.MAX_VALUE;
    private long endPs;
    private final java.util.concurrent.ConcurrentLinkedQueue<java.util.function.Consumer<Control>> commands =
            new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final EcmpHash ecmp;
    private final EgressPort[] ports;
    /** Hot per-class state of every port (see {@link EgressPort#cls}). */
    private final long[] pcs;
    /** Queue rings of every port (see {@link EgressPort}). */
    private final RingStore rings;
    private final List<SwitchState> switches = new ArrayList<>();
    private final List<EgressPort> nicPorts = new ArrayList<>();
    private final Flow[] flows;
    /**
     * Per flow: {@link #FLOW_WAITING}, {@link #FLOW_ACTIVE}, {@link #FLOW_DONE}, or
     * {@link #FLOW_DONE_CHANGED} when a done flow's receiver sent a CNP after all (a late duplicate).
     * What a snapshot reads to visit only the flows whose values can have moved.
     */
    private final byte[] flowPhase;
    static final byte FLOW_WAITING = 0;
    static final byte FLOW_ACTIVE = 1;
    static final byte FLOW_DONE = 2;
    static final byte FLOW_DONE_CHANGED = 3;
    private final int maxPayload;
    private final EventQueue events;
    private final PacketPool pkts;
    private final SplittableRandom ecnRandom;
    private final List<EgressPort> touchedPorts = new ArrayList<>();
    /** Bytes in the headroom of each (ingress port, priority group), at port * 8 + priority. */
    private final long[] pgHeadroom;
    private final PfcEventLog pfcLog;
    private SimTrace trace;
    private final ReactionLog reactionLog;
    private RoutingPolicy routingPolicy = RoutingPolicy.ecmp();
    /** Next-hop choice of data packets in a per-packet routing mode; null under ECMP. */
    private NextHopSelector selector;
    private List<io.fabriclab.workload.Collective> collectiveWorkloads = List.of();
    private volatile boolean stopRequested;
    private boolean ran;

    private long now;
    private long eventCount;
    private int flowsRemaining;

    public Simulator(Fabric fabric, List<FlowSpec> flowSpecs, SimConfig cfg) {
        this(fabric, flowSpecs, cfg, QosResolver.of(fabric));
    }

    /** A run whose QoS comes from {@code qos} (e.g. a named profile and scenario overrides). */
    public Simulator(Fabric fabric, List<FlowSpec> flowSpecs, SimConfig cfg, QosResolver qos) {
        this.fabric = fabric;
        this.qos = qos;
        this.cfg = cfg;
        this.routing = Routing.compute(fabric);
        this.ecmp = new EcmpHash(cfg.seed(), cfg.perSwitchEcmpSeed());
        this.maxPayload = RoceFraming.maxPayload(fabric.mtuBytes());
        if (maxPayload + RoceFraming.DATA_HEADER_BYTES > PacketPool.MAX_FRAME_BYTES) {
            throw new IllegalArgumentException("MTU " + fabric.mtuBytes() + " B: frames above "
                    + PacketPool.MAX_FRAME_BYTES + " B are not simulated");
        }
        SplittableRandom root = new SplittableRandom(cfg.seed());
        SplittableRandom portRandom = root.split();
        this.ecnRandom = root.split();

        // Switch buffers, by device.
        Map<Device, SwitchState> swByDevice = new IdentityHashMap<>();
        for (Device d : fabric.switches()) {
            SwitchState s = new SwitchState(d, switches.size(), deviceQos(d).buffer());
            switches.add(s);
            swByDevice.put(d, s);
        }
        // NIC addresses, in fabric order.
        Map<Port, Nic> nicByPort = new IdentityHashMap<>();
        int address = 0;
        for (Device s : fabric.servers()) {
            for (Port p : s.ports()) {
                nicByPort.put(p, new Nic(address++));
            }
        }
        // Two egress ports per link: 2i sends a->b, 2i+1 sends b->a.
        links = new ArrayList<>(fabric.links());
        ports = new EgressPort[links.size() * 2];
        pcs = new long[Math.multiplyExact(ports.length, EgressPort.PORT_STRIDE)];
        rings = new RingStore();
        for (int i = 0; i < links.size(); i++) {
            Link l = links.get(i);
            ports[2 * i] = makePort(2 * i, l.a(), l.b(), l, swByDevice, nicByPort);
            ports[2 * i + 1] = makePort(2 * i + 1, l.b(), l.a(), l, swByDevice, nicByPort);
        }
        for (EgressPort p : ports) {
            if (p.sw != null) {
                p.sw.egress.add(p);
            }
        }
        pgHeadroom = new long[ports.length * EgressPort.CLASSES];
        pfcLog = new PfcEventLog(ports.length);
        for (int i = 0; i < links.size(); i++) {
            linkIndex.put(links.get(i), i);
        }

        // Flows with their ECMP paths.
        flows = new Flow[flowSpecs.size()];
        flowPhase = new byte[flows.length];
        for (int i = 0; i < flows.length; i++) {
            FlowSpec spec = flowSpecs.get(i);
            Port src = resolveNic(spec.src(), "src", i);
            Port dst = resolveNic(spec.dst(), "dst", i);
            if (src == dst) {
                throw new IllegalArgumentException("flow " + i + ": source and destination are the same NIC " + src.ref());
            }
            int udp = 49152 + portRandom.nextInt(16384);
            Nic srcNic = nicByPort.get(src);
            Nic dstNic = nicByPort.get(dst);
            int[] fwd = path(src, dst, srcNic.address, dstNic.address, udp, i);
            int[] rev = path(dst, src, dstNic.address, srcNic.address, udp, i);
            if (fwd == null || rev == null) {
                throw new IllegalArgumentException("flow " + i + ": no route between " + src.ref() + " and " + dst.ref());
            }
            EgressPort sp = ports[fwd[0]];
            EgressPort dp = ports[rev[0]];
            QosProfile sq = portQos(src);
            QosProfile dq = portQos(dst);
            ReactionPoint rp = new ReactionPoint(sq.dcqcn(), sp.rateBps);
            long cnpInterval = Math.round(dq.dcqcn().cnpIntervalUs() * Units.PS_PER_US);
            flows[i] = new Flow(i, spec, sp, dp, fwd, rev, udp, maxPayload, rp, dq.dcqcn().enabled(), cnpInterval);
            flows[i].forwardBase = storePath(fwd);
            flows[i].reverseBase = storePath(rev);
            flows[i].dstEdge = routing.edgeSwitch(dst);
            flows[i].lastHopPort = rev[0] ^ 1;
        }
        // Dependencies: a flow that names others in "after" starts when their data has all arrived.
        Map<String, Integer> byId = new HashMap<>();
        for (int i = 0; i < flows.length; i++) {
            String id = flowSpecs.get(i).id();
            if (!id.isEmpty() && byId.put(id, i) != null) {
                throw new IllegalArgumentException("flow " + i + ": flow id '" + id + "' is used twice");
            }
        }
        for (int i = 0; i < flows.length; i++) {
            for (String dep : flowSpecs.get(i).after()) {
                Integer d = byId.get(dep);
                if (d == null) {
                    throw new IllegalArgumentException("flow " + i + ": waits for unknown flow id '" + dep + "'");
                }
                flows[d].addDependent(flows[i]);
                flows[i].waitingFor++;
            }
        }
        events = new EventQueue(Math.max(1024, flows.length * 4));
        pkts = new PacketPool(4096);
        events.setLookahead(this::lookahead);
        flowsRemaining = flows.length;
        reactionLog = new ReactionLog(flows.length);
    }

    public void setTrace(SimTrace trace) {
        this.trace = trace;
    }

    /** Asks a running simulation to stop after the current event (any thread). */
    public void requestStop() {
        stopRequested = true;
    }

    public Routing routing() {
        return routing;
    }

    /** Chooses the routing mode (ECMP, spraying, flowlets, adaptive); call before {@link #run()}. */
    public void setRoutingPolicy(RoutingPolicy policy) {
        this.routingPolicy = java.util.Objects.requireNonNull(policy, "policy");
    }

    public RoutingPolicy routingPolicy() {
        return routingPolicy;
    }

    /**
     * Tells the results which collectives the flows belong to, so each is reported with its
     * declared size S and per step (flows labelled "KIND:NAME" are always reported as collectives).
     */
    public void describeCollectives(List<io.fabriclab.workload.Collective> collectives) {
        this.collectiveWorkloads = List.copyOf(collectives);
    }

    List<io.fabriclab.workload.Collective> collectiveWorkloads() {
        return collectiveWorkloads;
    }

    // ----- construction helpers ------------------------------------------------------------------

    private QosProfile portQos(Port p) {
        return qos.qosFor(p);
    }

    /** A switch's buffer comes from the profile of its first connected port (buffers are per device). */
    private QosProfile deviceQos(Device d) {
        for (Port p : d.ports()) {
            if (fabric.linkAt(p) != null) {
                return qos.qosFor(p);
            }
        }
        return QosProfile.roceLossless("default", 100);
    }

    private EgressPort makePort(int id, Port self, Port peer, Link l, Map<Device, SwitchState> swByDevice,
                                Map<Port, Nic> nicByPort) {
        Device d = self.device();
        SwitchState sw = d.role().isSwitch() ? swByDevice.get(d) : null;
        Nic nic = d.role() == DeviceRole.SERVER ? nicByPort.get(self) : null;
        EgressPort p = new EgressPort(id, self, peer, l, sw, nic, pcs, rings);
        p.pfcReactionPs = pfcReactionPs(l.speedGbps(), p.rateBps);
        QosProfile q = portQos(self);
        SchedulerConfig sched = q.scheduler();
        for (int c = 0; c < EgressPort.CLASSES; c++) {
            if (sched.strictPriorityClasses().contains(c)) {
                p.strictMask |= 1 << c;
            }
            int w = c < sched.dwrrWeights().size() ? Math.max(1, sched.dwrrWeights().get(c)) : 1;
            pcs[p.at(c, EgressPort.DEQ_QUANTUM)] = (long) w * fabric.mtuBytes();
            p.wred[c] = q.ecn().forClass(c);
        }
        p.markAtEnqueue = q.ecn().markAt() == io.fabriclab.model.EcnConfig.MarkingPoint.ENQUEUE;
        PfcConfig pfc = q.pfc();
        if (sw != null) {
            // A switch port as ingress runs PFC; NICs never send PAUSE (they drain at line rate).
            for (int c = 0; c < EgressPort.CLASSES; c++) {
                if (pfc.isLossless(c)) {
                    p.losslessMask |= 1 << c;
                }
            }
            p.xoffBytes = pfc.xoffBytes();
            p.xonBytes = pfc.xonBytes();
            p.headroomBytes = pfc.headroomBytes();
            p.watchdogPs = pfc.enabled() ? pfc.watchdogUs() * Units.PS_PER_US : 0;
            p.watchdogDrops = pfc.watchdogAction() == PfcConfig.WatchdogAction.DROP;
        } else {
            nicPorts.add(p);
        }
        return p;
    }

    private Port resolveNic(String ref, String which, int flow) {
        Port p = fabric.port(ref);
        if (p == null) {
            int i = ref.lastIndexOf(':');
            if (i > 0 && ref.substring(i + 1).startsWith("nic")) {
                Device d = fabric.device(ref.substring(0, i));
                try {
                    int k = Integer.parseInt(ref.substring(i + 4));
                    if (d != null) {
                        p = d.ports().stream().filter(x -> x.nic() != null && x.nic() == k).findFirst().orElse(null);
                    }
                } catch (NumberFormatException e) {
                    p = null;
                }
            }
        }
        if (p == null) {
            throw new IllegalArgumentException("flow " + flow + ": " + which + " NIC '" + ref
                    + "' not found (use server:port or server:nicK)");
        }
        if (p.device().role() != DeviceRole.SERVER) {
            throw new IllegalArgumentException("flow " + flow + ": " + which + " '" + ref + "' is a switch port, not a NIC");
        }
        if (routing.edgeSwitch(p) == null) {
            throw new IllegalArgumentException("flow " + flow + ": " + which + " NIC '" + ref + "' is not connected to a switch");
        }
        return p;
    }

    /** Egress ports from NIC {@code from} to NIC {@code to}: the ECMP choice of each switch on the way. */
    /** Egress ports from NIC {@code from} to NIC {@code to} under the current routing, or null if unreachable. */
    private int[] path(Port from, Port to, int fromAddr, int toAddr, int udp, int flow) {
        List<Integer> out = new ArrayList<>();
        Link access = routing.accessLink(from);
        Device sw = routing.edgeSwitch(from);
        Device last = routing.edgeSwitch(to);
        if (access == null || sw == null || last == null || routing.accessLink(to) == null) {
            return null;
        }
        out.add(portId(access, from.device(), linkIndex));
        int guard = 0;
        while (sw != last) {
            int a = routing.indexOf(sw);
            int b = routing.indexOf(last);
            Device at = sw;
            List<Link> hops = hopCache.computeIfAbsent(((long) a << 32) | b, k -> routing.nextHops(at, last));
            if (hops.isEmpty() || ++guard > 64) {
                return null;
            }
            Link l = hops.get(ecmp.selectRoce(a, fromAddr, toAddr, udp, hops.size()));
            out.add(portId(l, sw, linkIndex));
            sw = l.other(sw);
        }
        out.add(portId(routing.accessLink(to), last, linkIndex));
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Appends a path to the path store; returns its offset. */
    private int storePath(int[] path) {
        if (pathStoreSize + path.length > pathStore.length) {
            pathStore = Arrays.copyOf(pathStore, Math.max(pathStore.length * 2, pathStoreSize + path.length));
        }
        System.arraycopy(path, 0, pathStore, pathStoreSize, path.length);
        int base = pathStoreSize;
        pathStoreSize += path.length;
        return base;
    }

    private static int portId(Link l, Device from, Map<Link, Integer> linkIndex) {
        int i = linkIndex.get(l);
        return l.a().device() == from ? 2 * i : 2 * i + 1;
    }

    // ----- the event loop ------------------------------------------------------------------------

    public SimResults run() {
        return run(null);
    }

    public SimResults run(Progress progress) {
        if (ran) {
            throw new IllegalStateException("a Simulator runs once");
        }
        ran = true;
        if (routingPolicy.perPacket()) {
            selector = new NextHopSelector(routingPolicy, ports, linkIndex, routing, flows.length, cfg.seed());
        }
        long wallStart = System.nanoTime();
        for (Flow f : flows) {
            if (f.waitingFor == 0) {
                events.push(f.startPs, EV_FLOW_START, f.id, 0);
            }
        }
        events.push(cfg.sampleIntervalPs(), EV_SAMPLE, 0, 0);
        for (LinkFailure lf : failures) {
            int li = linkIndex.get(lf.link());
            if (lf.degradedGbps() > 0) {
                events.push(lf.downPs(), EV_LINK_SPEED, li, lf.degradedGbps());
                if (lf.upPs() > lf.downPs()) {
                    events.push(lf.upPs(), EV_LINK_SPEED, li, lf.link().speedGbps());
                }
                continue;
            }
            events.push(lf.downPs(), EV_LINK_DOWN, li, 0);
            if (lf.upPs() > lf.downPs()) {
                events.push(lf.upPs(), EV_LINK_UP, li, 0);
            }
        }
        if (snapshotSink != null) {
            events.push(snapshotEveryPs, EV_SNAPSHOT, 0, 0);
        }
        applyCommands();
        boolean completion = cfg.durationPs() == 0;
        long end = completion ? cfg.maxTimePs() : cfg.durationPs();
        endPs = end;
        horizonPs = end;
        if (gate != null) {
            eventLimit = 0; // ask the gate before the first event (a run may start paused)
        }
        SimResults.StopReason reason = SimResults.StopReason.NO_EVENTS;
        if (completion && flowsRemaining == 0) {
            reason = SimResults.StopReason.COMPLETED;
        } else {
            final EventQueue q = events;
            while (true) {
                if (q.isEmpty()) {
                    reason = SimResults.StopReason.NO_EVENTS;
                    break;
                }
                long next = q.peekTime();
                if (next > horizonPs || eventCount >= eventLimit) {
                    if (next > end) {
                        now = end;
                        reason = completion ? SimResults.StopReason.TIME_LIMIT : SimResults.StopReason.DURATION_REACHED;
                        break;
                    }
                    if (!gate.reached(next)) {
                        reason = SimResults.StopReason.STOPPED;
                        break;
                    }
                    continue;
                }
                q.pop();
                now = q.topTime;
                eventCount++;
                dispatch(q.topType, q.topTarget, q.topArg);
                if (completion && flowsRemaining == 0) {
                    reason = SimResults.StopReason.COMPLETED;
                    break;
                }
                if ((eventCount & 0xFFF) == 0 && !commands.isEmpty()) {
                    applyCommands();
                }
                if ((eventCount & 0x3FFFF) == 0) {
                    if (progress != null) {
                        progress.update(now, end, eventCount, System.nanoTime() - wallStart,
                                flows.length - flowsRemaining, flows.length);
                    }
                    if (stopRequested) {
                        reason = SimResults.StopReason.STOPPED;
                        break;
                    }
                }
            }
        }
        long wall = System.nanoTime() - wallStart;
        if (progress != null) {
            progress.update(now, end, eventCount, wall, flows.length - flowsRemaining, flows.length);
        }
        return new ResultsBuilder(this).build(reason, wall);
    }

    private void dispatch(int type, int target, int arg) {
        switch (type) {
            case EV_TX_DONE -> {
                EgressPort p = ports[target];
                p.txDonePending = false;
                transmit(p);
            }
            case EV_ARRIVE -> arrive(target, arg);
            case EV_FLOW_START -> startFlow(flows[target]);
            case EV_NIC_WAKE -> {
                EgressPort p = ports[target];
                if (p.wakeAtPs == now) {
                    p.wakeAtPs = -1;
                }
                transmit(p);
            }
            case EV_PAUSE_EXPIRE -> transmit(ports[target]);
            case EV_PFC_REFRESH -> pfcRefresh(ports[target >>> 3], target & 7, arg);
            case EV_RATE_TIMER -> rateTimer(flows[target], arg);
            case EV_RTO -> retransmitTimeout(flows[target]);
            case EV_SAMPLE -> sample();
            case EV_WATCHDOG -> watchdog(ports[target >>> 3], target & 7, arg);
            case EV_LINK_DOWN -> linkDown(target);
            case EV_LINK_UP -> linkUp(target);
            case EV_REROUTE -> reroute();
            case EV_SNAPSHOT -> snapshot();
            case EV_LINK_SPEED -> linkSpeed(target, arg);
            case EV_PFC_APPLY -> applyPfc(ports[target >>> 3], target & 7, arg);
            default -> throw new IllegalStateException("unknown event type " + type);
        }
    }

    /**
     * Reads ahead, for an event of the next calendar bucket, the state it will touch first: the
     * packet record and the ingress and egress ports of an arrival, the port of a frame's end.
     * Pure reads (the result only feeds {@link EventQueue#touched}); see
     * {@link EventQueue#touchNextBucket}.
     */
    private int lookahead(int type, int target, int arg) {
        if (type == EV_ARRIVE) {
            int h = pkts.touch(target);
            EgressPort in = ports[arg ^ 1];
            int i = pkts.pathBase(target) + ((h >>> 8) & 0xFF) + 1;
            int out = i < pathStoreSize ? pathStore[i] : arg;
            return h + in.losslessMask + ports[out].nonEmpty;
        }
        if (type == EV_TX_DONE) {
            return ports[target].nonEmpty;
        }
        return 0;
    }

    // ----- transmission ------------------------------------------------------------------------

    private void transmit(EgressPort p) {
        if (p.busyUntilPs > now || p.down) {
            return;
        }
        if (p.nic != null) {
            nicTransmit(p);
        } else {
            switchTransmit(p);
        }
    }

    private void switchTransmit(EgressPort p) {
        int pkt;
        int bytes;
        if (p.hasPackets(EgressPort.CONTROL)) {
            pkt = pop(p, EgressPort.CONTROL);
            bytes = p.polledBytes();
        } else {
            int c = schedule(p);
            if (c < 0) {
                return;
            }
            pkt = pop(p, c);
            // Read before leaveSwitch: a PFC frame it sends may be dequeued through p's polled entry.
            bytes = p.polledBytes();
            leaveSwitch(p, c, pkt);
        }
        startTx(p, pkt, bytes);
    }

    /**
     * The class to serve next: strict-priority classes highest first, then DWRR over the others
     * (Shreedhar and Varghese): a queue's deficit grows by its quantum (weight x MTU) on each visit
     * and it sends while its head fits in the deficit. Paused classes are skipped. -1 if none.
     */
    private int schedule(EgressPort p) {
        final long t = now;
        // Strict classes that hold packets, highest first.
        for (int ready = p.strictMask & p.nonEmpty & 0xFF; ready != 0; ready &= ~Integer.highestOneBit(ready)) {
            int c = 31 - Integer.numberOfLeadingZeros(ready);
            if (!p.paused(c, t)) {
                return c;
            }
        }
        for (int i = 0; i < 2 * EgressPort.CLASSES + 1; i++) {
            int c = p.roundRobin;
            boolean queued = p.hasPackets(c);
            if (queued && !p.isStrict(c) && !p.paused(c, t)) {
                long[] dq = pcs;
                int d = p.at(c, EgressPort.DEQ_DEFICIT);
                if (p.freshVisit) {
                    dq[d] += dq[p.at(c, EgressPort.DEQ_QUANTUM)];
                    p.freshVisit = false;
                }
                int size = p.headBytes(c);
                if (size <= dq[d]) {
                    dq[d] -= size;
                    return c;
                }
            } else if (!queued) {
                pcs[p.at(c, EgressPort.DEQ_DEFICIT)] = 0;
            }
            p.roundRobin = (c + 1) & 7;
            p.freshVisit = true;
        }
        return -1;
    }

    /** Puts packet {@code pkt} of {@code frame} bytes on the wire of {@code p}. */
    private void startTx(EgressPort p, int pkt, int frame) {
        int wire = frame + RoceFraming.WIRE_OVERHEAD_BYTES;
        long ser = p.serializationPs(wire);
        long done = now + ser;
        p.busyUntilPs = done;
        p.txFrames++;
        p.txFrameBytes += frame;
        p.txWireBytes += wire;
        p.busyPs += ser;
        if (!p.touched) {
            touch(p);
        }
        if (trace != null) {
            trace.transmitStart(now, p.ref(), KIND_NAMES[pkts.kind(pkt)], pkts.priority(pkt), pkts.flow(pkt), pkts.psn(pkt));
        }
        // The event carries the port as well as the packet: the port's state and the packet's
        // record are then fetched from memory in parallel at arrival.
        events.push(done + p.propagationPs, EV_ARRIVE, pkt, p.id);
        // The end of a frame is an event only when something may wait for the wire: a switch queue
        // that is not empty, or a NIC (its queue pairs generate the next frame).
        if (p.nic != null || p.queuedPackets > 0) {
            events.push(done, EV_TX_DONE, p.id, 0);
            p.txDonePending = true;
        }
    }

    private void touch(EgressPort p) {
        p.touched = true;
        touchedPorts.add(p);
        p.utilizationSeries = new TimeSeries(cfg.maxSeriesPoints(), TimeSeries.Merge.MEAN);
    }

    /**
     * Queues packet {@code pkt} of {@code bytes} in class {@code c} of {@code p}; {@code ingress} is
     * the switch port it was admitted through (-1 at a NIC), {@code ect} whether it is ECN-capable.
     */
    private void enqueue(EgressPort p, int c, int pkt, int bytes, int ingress, boolean ect) {
        p.offer(c, pkt, bytes, ingress, now, ect);
        p.queuedPackets++;
        if (!p.txDonePending && p.busyUntilPs > now) {
            events.push(p.busyUntilPs, EV_TX_DONE, p.id, 0);
            p.txDonePending = true;
        }
        long q = pcs[p.at(c, EgressPort.QUEUE_BYTES)] += bytes;
        if (c < EgressPort.CLASSES) {
            pcs[p.at(c, EgressPort.ENQ_PACKETS)]++;
            pcs[p.at(c, EgressPort.ENQ_BYTES)] += bytes;
            if (q > pcs[p.at(c, EgressPort.MAX_QUEUE)]) {
                pcs[p.at(c, EgressPort.MAX_QUEUE)] = q;
            }
            if (q > pcs[p.at(c, EgressPort.INTERVAL_MAX)]) {
                pcs[p.at(c, EgressPort.INTERVAL_MAX)] = q;
            }
            if ((p.depthSeriesMask & (1 << c)) == 0) {
                if (!p.touched) {
                    touch(p);
                }
                p.depthSeries[c] = new TimeSeries(cfg.maxSeriesPoints(), TimeSeries.Merge.MAX);
                p.depthSeriesMask |= 1 << c;
            }
        }
    }

    /** Removes the front packet of queue {@code c}; its size, ingress and enqueue time stay in {@code p}'s polled entry. */
    private int pop(EgressPort p, int c) {
        int pkt = p.poll(c);
        p.queuedPackets--;
        pcs[p.at(c, EgressPort.QUEUE_BYTES)] -= p.polledBytes();
        return pkt;
    }

    /** A packet leaves a switch's egress queue: buffer and ingress accounting, ECN at dequeue, latency. */
    private void leaveSwitch(EgressPort p, int c, int pkt) {
        int bytes = p.polledBytes();
        int ingress = p.polledIngress();
        boolean ect = p.polledEct();
        long latency = p.polledLatencyPs(now);
        long[] dq = pcs;
        int o = p.at(c, 0);
        dq[o + EgressPort.DEQ_PACKETS]++;
        dq[o + EgressPort.DEQ_LATENCY_SUM] += latency;
        if (latency > dq[o + EgressPort.DEQ_LATENCY_MAX]) {
            dq[o + EgressPort.DEQ_LATENCY_MAX] = latency;
        }
        releaseIngress(ingress, c, bytes);
        if (!p.markAtEnqueue && p.wred[c] != null && ect) {
            // At dequeue the packet sees the queue that is still behind it.
            markEcn(p, c, pkt, pcs[p.at(c, EgressPort.QUEUE_BYTES)]);
        }
    }

    /**
     * {@code bytes} of class {@code c} that came in through switch port {@code in} (-1: none) leave
     * the switch: its priority group's headroom is emptied first (as the MMU returns headroom
     * cells before shared ones), the rest goes back to the shared pool. A group that paused its
     * peer resumes it once it is at or below XON (see {@link #xonThreshold}).
     */
    private void releaseIngress(int in, int c, int bytes) {
        if (in < 0) {
            return;
        }
        EgressPort ip = ports[in];
        SwitchState sw = ip.sw;
        int shared = bytes;
        if ((ip.headroomUsedMask & (1 << c)) != 0) {
            int k = in * EgressPort.CLASSES + c;
            long h = pgHeadroom[k];
            long fromHeadroom = Math.min(h, bytes);
            pgHeadroom[k] = h - fromHeadroom;
            sw.headroomBytes -= fromHeadroom;
            shared -= (int) fromHeadroom;
            if (h == fromHeadroom) {
                ip.headroomUsedMask &= ~(1 << c);
            }
        }
        sw.occupiedBytes -= shared;
        long occ = pcs[ip.at(c, EgressPort.INGRESS_BYTES)] -= bytes;
        if ((ip.xoffSentMask & (1 << c)) != 0 && occ <= xonThreshold(ip, sw)) {
            ip.xoffSentMask &= ~(1 << c);
            ip.refreshGeneration[c]++;
            sendPfc(ip, c, 0);
        }
    }

    /**
     * XON of a lossless group on ingress {@code ip}: the configured XON while its threshold is the
     * static XOFF; when the dynamic threshold T is below XOFF, T minus the configured hysteresis
     * (XOFF - XON), at least 0, as Broadcom resumes at the shared limit minus an XON offset.
     */
    private static long xonThreshold(EgressPort ip, SwitchState sw) {
        long t = sw.pgThreshold(ip.xoffBytes);
        return t >= ip.xoffBytes ? ip.xonBytes : Math.max(0, t - (ip.xoffBytes - ip.xonBytes));
    }

    private void markEcn(EgressPort p, int c, int pkt, long queueBytes) {
        WredEcn w = p.wred[c];
        if (queueBytes < w.kminBytes()) {
            return;
        }
        double prob = w.markProbability(queueBytes);
        boolean mark = prob >= 1.0 || ecnRandom.nextDouble() < prob;
        if (mark) {
            pkts.setEcn(pkt, PacketPool.CE);
            p.ecnMarked[c]++;
        }
        if (trace != null) {
            trace.ecnDecision(now, p.ref(), c, queueBytes, prob, mark);
        }
    }

    // ----- arrival and switching -----------------------------------------------------------------

    private void arrive(int pkt, int fromId) {
        if (downLinkCount > 0 && ports[fromId].down) {
            // The link failed while the frame was on the wire.
            drop(ports[fromId], pkts.priority(pkt), pkt, 3);
            return;
        }
        int inId = fromId ^ 1;
        EgressPort in = ports[inId];
        byte kind = (byte) pkts.kind(pkt);
        if (kind == PacketPool.PAUSE) {
            receivePfc(in, pkts.priority(pkt), pkts.psn(pkt));
            pkts.free(pkt);
            return;
        }
        if (in.nic != null) {
            nicReceive(in, pkt, kind);
            return;
        }
        int outId = forward(pkt, in, kind);
        EgressPort out = ports[outId];
        int c = pkts.priority(pkt);
        int bytes = pkts.frameBytes(pkt);
        // Class state by port id: fetched in parallel with the port objects, not through them.
        int inAt = EgressPort.at(inId, c, 0);
        int outAt = EgressPort.at(outId, c, 0);
        SwitchState sw = in.sw;
        if (out.down) {
            drop(out, c, pkt, 3);
            return;
        }
        if ((out.stormedMask & (1 << c)) != 0 && out.watchdogDrops) {
            drop(out, c, pkt, 2);
            return;
        }
        boolean lossless = (in.losslessMask & (1 << c)) != 0;
        // A lossless packet enters the shared pool while its ingress group is at or below its
        // threshold and the pool has room; otherwise it lands in the group's headroom, or is lost.
        boolean toHeadroom = false;
        long threshold = 0;
        long head = 0;
        if (lossless) {
            threshold = sw.pgThreshold(in.xoffBytes);
            head = (in.headroomUsedMask & (1 << c)) != 0 ? pgHeadroom[inId * EgressPort.CLASSES + c] : 0;
            if (pcs[inAt + EgressPort.INGRESS_BYTES] - head > threshold || sw.occupiedBytes + bytes > sw.poolBytes) {
                if (head + bytes > in.headroomBytes) {
                    drop(in, c, pkt, 1);
                    return;
                }
                toHeadroom = true;
            }
        } else if (!sw.admitsLossy(pcs[outAt + EgressPort.QUEUE_BYTES], bytes)) {
            drop(out, c, pkt, 0);
            return;
        }
        long occ = pcs[inAt + EgressPort.INGRESS_BYTES] += bytes;
        if (occ > pcs[inAt + EgressPort.MAX_INGRESS]) {
            pcs[inAt + EgressPort.MAX_INGRESS] = occ;
        }
        if (toHeadroom) {
            head += bytes;
            pgHeadroom[inId * EgressPort.CLASSES + c] = head;
            in.headroomUsedMask |= 1 << c;
            if ((sw.headroomBytes += bytes) > sw.maxHeadroomBytes) {
                sw.maxHeadroomBytes = sw.headroomBytes;
            }
        } else {
            sw.occupiedBytes += bytes;
            if (sw.occupiedBytes > sw.maxOccupiedBytes) {
                sw.maxOccupiedBytes = sw.occupiedBytes;
            }
        }
        if (lossless && (in.xoffSentMask & (1 << c)) == 0 && (toHeadroom || occ - head > threshold)) {
            in.xoffSentMask |= 1 << c;
            int gen = ++in.refreshGeneration[c];
            sendPfc(in, c, RoceFraming.XOFF_QUANTA);
            events.push(now + quantaPs(RoceFraming.XOFF_QUANTA, in.rateBps) / 2, EV_PFC_REFRESH, in.id * 8 + c, gen);
        }
        if (out.markAtEnqueue && out.wred[c] != null && pkts.ecn(pkt) == PacketPool.ECT) {
            // At enqueue the packet sees the queue ahead of it.
            markEcn(out, c, pkt, pcs[outAt + EgressPort.QUEUE_BYTES]);
        }
        enqueue(out, c, pkt, bytes, inId, pkts.ecn(pkt) == PacketPool.ECT);
        if (out.busyUntilPs <= now) {
            switchTransmit(out);
        }
    }

    /**
     * The forwarding decision of switch {@code in.sw} for a packet that arrived on {@code in}: the id of
     * the egress port it leaves by. ECMP per flow: the next hop the flow's 5-tuple hash chose when its
     * path was computed; the packet carries where that path starts in the path store and the index
     * of its hop, so no flow object is touched. A routing mode other than ECMP (per-packet
     * spraying, flowlets, adaptive) decides data packets through its selector.
     */
    private int forward(int pkt, EgressPort in, byte kind) {
        int h = pkts.hop(pkt) + 1;
        pkts.setHop(pkt, h);
        int chosen = selector != null && kind == PacketPool.DATA ? selector.next(in, flows[pkts.flow(pkt)], h, now) : -1;
        return chosen >= 0 ? chosen : pathStore[pkts.pathBase(pkt) + h];
    }

    private static final String[] DROP_CAUSES = {"buffer", "headroom-overflow", "watchdog", "link-down"};

    private void drop(EgressPort at, int c, int pkt, int cause) {
        switch (cause) {
            case 0 -> at.dropsBuffer[c]++;
            case 1 -> at.dropsHeadroom[c]++;
            case 2 -> at.dropsWatchdog[c]++;
            default -> at.dropsLinkDown[c]++;
        }
        long[] first = cause == 1 ? at.firstHeadroomDropPs : at.firstDropPs;
        if (first[c] < 0) {
            first[c] = now;
        }
        if (!at.touched) {
            touch(at);
        }
        if (trace != null) {
            trace.drop(now, at.ref(), c, DROP_CAUSES[cause]);
        }
        pkts.free(pkt);
    }

    // ----- PFC -----------------------------------------------------------------------------------

    static long quantaPs(int quanta, long rateBps) {
        return Units.serializationPs((long) quanta * RoceFraming.BITS_PER_QUANTUM / 8, rateBps);
    }

    /** Queues a PFC frame for priority {@code c} on switch port {@code p}, toward its upstream peer. */
    private void sendPfc(EgressPort p, int c, int quanta) {
        if (p.down) {
            return;
        }
        int pkt = pkts.allocate(PacketPool.PAUSE, -1, quanta, RoceFraming.PFC_FRAME_BYTES, c, PacketPool.NOT_ECT);
        enqueue(p, EgressPort.CONTROL, pkt, RoceFraming.PFC_FRAME_BYTES, -1, false);
        if (quanta > 0) {
            p.pauseFramesSent[c]++;
        } else {
            p.resumeFramesSent[c]++;
        }
        if (!p.touched) {
            touch(p);
        }
        if (trace != null) {
            trace.pfcSent(now, p.ref(), c, quanta, pcs[p.at(c, EgressPort.INGRESS_BYTES)]);
        }
        transmit(p);
    }

    private void pfcRefresh(EgressPort p, int c, int gen) {
        if (gen != p.refreshGeneration[c] || !p.xoffSent(c)) {
            return;
        }
        // Still above XON: refresh the pause before the peer's timer runs out.
        sendPfc(p, c, RoceFraming.XOFF_QUANTA);
        events.push(now + quantaPs(RoceFraming.XOFF_QUANTA, p.rateBps) / 2, EV_PFC_REFRESH, p.id * 8 + c, gen);
    }

    /**
     * From a PFC frame's arrival until it takes effect on an egress of {@code gbps}: both ends'
     * interface (MAC/PHY) delay and the peer's response time, from the per-speed values the
     * headroom calculator uses ({@link HeadroomCalculator#timing}), so the two agree. The
     * interface delay is not put on every data frame (it would only shift all arrivals); on
     * PFC's loop it is counted here, once for each end, which adds the same bytes in flight.
     */
    static long pfcReactionPs(int gbps, long rateBps) {
        HeadroomCalculator.PeerTiming t = HeadroomCalculator.timing(gbps);
        long bits = 2 * t.interfaceDelayBits() + (long) t.responseQuanta() * RoceFraming.BITS_PER_QUANTUM;
        return Units.serializationPs((bits + 7) / 8, rateBps);
    }

    /**
     * A PFC frame for priority {@code c} reached egress port {@code r} (the peer's frame pauses r).
     * It takes effect {@link EgressPort#pfcReactionPs} later: until then r may still start frames
     * of that priority (IEEE 802.3 Annex 31B allows a sender this long to stop), and it finishes
     * the frame it has started. Every PFC frame, resume included, takes the same time, so they act
     * in the order they arrived.
     */
    private void receivePfc(EgressPort r, int c, int quanta) {
        r.pauseFramesReceived[c]++;
        events.push(now + r.pfcReactionPs, EV_PFC_APPLY, r.id * 8 + c, quanta);
    }

    /** A PFC frame for priority {@code c} takes effect on egress {@code r}: pause for {@code quanta}, or resume. */
    private void applyPfc(EgressPort r, int c, int quanta) {
        pfcLog.record(now, r.id, c, quanta, pcs[r.at(c, EgressPort.PAUSED_UNTIL)]);
        boolean pausedBefore = pcs[r.at(c, EgressPort.PAUSED_UNTIL)] > now;
        if (!pausedBefore && r.pauseStartPs[c] >= 0) {
            // The previous pause ran out on its own: close its interval.
            r.pausedPs[c] += pcs[r.at(c, EgressPort.PAUSED_UNTIL)] - r.pauseStartPs[c];
            r.pauseStartPs[c] = -1;
        }
        if (quanta == 0) {
            if (pausedBefore) {
                r.pausedPs[c] += now - r.pauseStartPs[c];
                r.pauseStartPs[c] = -1;
                pcs[r.at(c, EgressPort.PAUSED_UNTIL)] = now;
                transmit(r);
            }
            return;
        }
        long until = now + quantaPs(quanta, r.rateBps);
        if (!pausedBefore) {
            r.pauseStartPs[c] = now;
            if (r.watchdogPs > 0 && !r.isStormed(c)) {
                int gen = ++r.watchdogGeneration[c];
                events.push(now + r.watchdogPs, EV_WATCHDOG, r.id * 8 + c, gen);
            }
        }
        pcs[r.at(c, EgressPort.PAUSED_UNTIL)] = until;
        events.push(until, EV_PAUSE_EXPIRE, r.id, 0);
    }

    /** PFC watchdog (as SONiC's): a queue paused continuously for the interval is stormed until pauses stop. */
    private void watchdog(EgressPort r, int c, int gen) {
        if (gen != r.watchdogGeneration[c]) {
            return;
        }
        if (!r.isStormed(c)) {
            if (pcs[r.at(c, EgressPort.PAUSED_UNTIL)] > now && r.pauseStartPs[c] >= 0 && now - r.pauseStartPs[c] >= r.watchdogPs) {
                r.stormedMask |= 1 << c;
                r.watchdogStorms[c]++;
                if (r.watchdogDrops) {
                    while (r.hasPackets(c)) {
                        int pkt = pop(r, c);
                        releaseIngress(r.polledIngress(), c, r.polledBytes());
                        drop(r, c, pkt, 2);
                    }
                }
                events.push(now + r.watchdogPs, EV_WATCHDOG, r.id * 8 + c, gen);
                transmit(r);
            }
        } else if (pcs[r.at(c, EgressPort.PAUSED_UNTIL)] <= now) {
            r.stormedMask &= ~(1 << c);
            transmit(r);
        } else {
            events.push(now + r.watchdogPs, EV_WATCHDOG, r.id * 8 + c, gen);
        }
    }

    // ----- NIC: requester ------------------------------------------------------------------------

    private void startFlow(Flow f) {
        f.started = true;
        flowPhase[f.id] = FLOW_ACTIVE;
        f.startedPs = now;
        f.nextSendPs = now;
        f.lastProgressPs = now;
        f.rateSeries = new TimeSeries(cfg.maxSeriesPoints(), TimeSeries.Merge.MEAN);
        f.srcPort.nic.activate(f);
        events.push(now + cfg.retransmitTimeoutPs(), EV_RTO, f.id, 0);
        transmit(f.srcPort);
    }

    private void nicTransmit(EgressPort p) {
        if (p.queuedPackets > 0) {
            // ACK, NAK and CNP go before data, highest class first.
            for (int c = EgressPort.CLASSES - 1; c >= 0; c--) {
                if (p.hasPackets(c) && !p.paused(c, now)) {
                    int pkt = pop(p, c);
                    startTx(p, pkt, p.polledBytes());
                    return;
                }
            }
        }
        Nic nic = p.nic;
        int n = nic.activeCount;
        long earliest = Long.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            int idx = nic.roundRobin + i;
            if (idx >= n) {
                idx -= n;
            }
            Flow f = nic.active[idx];
            if (f.sndNxt >= f.totalPackets || p.paused(f.priority, now)) {
                continue;
            }
            if (f.nextSendPs <= now) {
                nic.roundRobin = idx + 1 >= n ? 0 : idx + 1;
                sendData(p, f);
                return;
            }
            if (f.nextSendPs < earliest) {
                earliest = f.nextSendPs;
            }
        }
        if (earliest != Long.MAX_VALUE && (p.wakeAtPs < 0 || p.wakeAtPs > earliest || p.wakeAtPs < now)) {
            p.wakeAtPs = earliest;
            events.push(earliest, EV_NIC_WAKE, p.id, 0);
        }
    }

    private void sendData(EgressPort p, Flow f) {
        int psn = f.sndNxt++;
        int payload = f.payloadOf(psn, maxPayload);
        if (psn < f.maxSent) {
            f.retransmittedPackets++;
            f.retransmittedBytes += payload;
        } else {
            f.maxSent = psn + 1;
        }
        int frame = payload + RoceFraming.DATA_HEADER_BYTES;
        int pkt = pkts.allocate(PacketPool.DATA, f.id, psn, frame, f.priority,
                cfg.ectData() ? PacketPool.ECT : PacketPool.NOT_ECT);
        pkts.setPathBase(pkt, f.forwardBase);
        ReactionPoint rp = f.rp;
        long rate = rp.currentRateBps();
        // Pacing at the current DCQCN rate; at line rate this is exactly the serialization time.
        f.nextSendPs = now + Units.serializationPs(frame + RoceFraming.WIRE_OVERHEAD_BYTES, rate);
        if (rp.onBytesSent(frame)) {
            noteRate(f);
        }
        startTx(p, pkt, frame);
    }

    private void noteRate(Flow f) {
        long r = f.rp.currentRateBps();
        if (r < f.minRateBps) {
            f.minRateBps = r;
        }
    }

    private void rateTimer(Flow f, int gen) {
        ReactionPoint rp = f.rp;
        if (gen != rp.timerGeneration() || f.senderDone) {
            return;
        }
        rp.onIncreaseTimer();
        if (rp.limited()) {
            events.push(now + rp.increaseTimerPs(), EV_RATE_TIMER, f.id, gen);
        }
    }

    private void retransmitTimeout(Flow f) {
        if (f.senderDone) {
            return;
        }
        long deadline = f.lastProgressPs + cfg.retransmitTimeoutPs();
        if (now < deadline) {
            events.push(deadline, EV_RTO, f.id, 0);
            return;
        }
        if (f.sndUna < f.maxSent) {
            f.timeouts++;
            beginRecovery(f, f.lastProgressPs);
            f.sndNxt = f.sndUna;
            transmit(f.srcPort);
        }
        f.lastProgressPs = now;
        events.push(now + cfg.retransmitTimeoutPs(), EV_RTO, f.id, 0);
    }

    private void beginRecovery(Flow f, long stallStartPs) {
        if (!f.inRecovery) {
            f.inRecovery = true;
            f.recoveryStartPs = stallStartPs;
            f.recoverTo = f.maxSent;
        }
    }

    private void acknowledged(Flow f, int cumulative) {
        if (cumulative <= f.sndUna) {
            return;
        }
        f.sndUna = cumulative;
        if (f.sndNxt < cumulative) {
            f.sndNxt = cumulative;
        }
        f.lastProgressPs = now;
        if (f.inRecovery && f.sndUna >= f.recoverTo) {
            f.stallPs += now - f.recoveryStartPs;
            f.inRecovery = false;
        }
        if (f.sndUna >= f.totalPackets && !f.senderDone) {
            f.senderDone = true;
            f.srcPort.nic.deactivate(f);
        }
    }

    private void nicReceive(EgressPort in, int pkt, byte kind) {
        Flow f = flows[pkts.flow(pkt)];
        int psn = pkts.psn(pkt);
        switch (kind) {
            case PacketPool.DATA -> {
                boolean ce = pkts.ecn(pkt) == PacketPool.CE;
                int payload = pkts.frameBytes(pkt) - RoceFraming.DATA_HEADER_BYTES;
                pkts.free(pkt);
                responderData(in, f, psn, ce, payload);
            }
            case PacketPool.ACK -> {
                pkts.free(pkt);
                acknowledged(f, psn + 1);
            }
            case PacketPool.NAK -> {
                pkts.free(pkt);
                // A NAK acknowledges everything before the expected PSN and asks for go-back-N from it.
                acknowledged(f, psn);
                f.naks++;
                if (f.sndNxt > psn && !f.senderDone) {
                    beginRecovery(f, now);
                    f.sndNxt = psn;
                    transmit(f.srcPort);
                }
            }
            case PacketPool.CNP -> {
                pkts.free(pkt);
                in.nic.cnpsReceived++;
                boolean cut = f.rp.onCnp(now);
                if (cut) {
                    noteRate(f);
                    events.push(now + f.rp.increaseTimerPs(), EV_RATE_TIMER, f.id, f.rp.timerGeneration());
                }
                reactionLog.note(f.id, now, f.rp, cut);
                if (trace != null) {
                    trace.cnpReceived(now, f.id, f.rp.currentRateBps());
                }
            }
            default -> throw new IllegalStateException("unexpected packet kind " + kind);
        }
    }

    // ----- NIC: responder ------------------------------------------------------------------------

    private void responderData(EgressPort in, Flow f, int psn, boolean ce, int payload) {
        if (ce) {
            f.ceReceived++;
            // Notification point: at most one CNP per QP per CNP interval.
            if (f.notificationPoint && (f.lastCnpPs == Long.MIN_VALUE || now - f.lastCnpPs >= f.cnpIntervalPs)) {
                f.lastCnpPs = now;
                f.cnpsSent++;
                in.nic.cnpsSent++;
                if (f.done) {
                    flowPhase[f.id] = FLOW_DONE_CHANGED;
                }
                sendControl(in, f, PacketPool.CNP, 0, RoceFraming.CNP_FRAME_BYTES);
            }
        }
        if (psn == f.expected) {
            f.expected++;
            if (f.placed != null) {
                // Packets placed out of order close the gap: the expected PSN jumps past them.
                int w = routingPolicy.reorderWindowPackets();
                int b = f.expected % w;
                while ((f.placed[b >>> 6] & (1L << b)) != 0) {
                    f.placed[b >>> 6] &= ~(1L << b);
                    f.expected++;
                    b = f.expected % w;
                }
            }
            f.nakSent = false;
            if (f.expected == f.totalPackets) {
                if (!f.done) {
                    f.done = true;
                    flowPhase[f.id] = FLOW_DONE;
                    f.finishPs = now;
                    flowsRemaining--;
                    for (int i = 0; i < f.dependentCount; i++) {
                        Flow d = f.dependents[i];
                        if (--d.waitingFor == 0) {
                            events.push(Math.max(now, d.startPs), EV_FLOW_START, d.id, 0);
                        }
                    }
                }
                f.sinceAck = 0;
                sendControl(in, f, PacketPool.ACK, f.expected - 1, RoceFraming.ACK_FRAME_BYTES);
            } else if (++f.sinceAck >= cfg.ackEveryPackets()) {
                f.sinceAck = 0;
                sendControl(in, f, PacketPool.ACK, f.expected - 1, RoceFraming.ACK_FRAME_BYTES);
            }
        } else if (psn > f.expected) {
            f.outOfOrder++;
            int w = routingPolicy.reorderWindowPackets();
            if (selector != null && psn - f.expected < w) {
                // Per-packet routing: the NIC places the packet and waits for the gap to fill.
                if (f.placed == null) {
                    f.placed = new long[(w + 63) >>> 6];
                }
                int b = psn % w;
                f.placed[b >>> 6] |= 1L << b;
            } else if (!f.nakSent) {
                f.nakSent = true;
                sendControl(in, f, PacketPool.NAK, f.expected, RoceFraming.ACK_FRAME_BYTES);
            }
        } else {
            // A duplicate (the sender went back further than needed): re-acknowledge what we have.
            sendControl(in, f, PacketPool.ACK, f.expected - 1, RoceFraming.ACK_FRAME_BYTES);
        }
    }

    /** ACK, NAK and CNP ride the CNP priority (strict, lossy), as the HPCC/ns-3 RDMA model does. */
    private void sendControl(EgressPort p, Flow f, byte kind, int psn, int bytes) {
        int pkt = pkts.allocate(kind, f.id, psn, bytes, QosProfile.CNP_PRIORITY, PacketPool.NOT_ECT);
        pkts.setPathBase(pkt, f.reverseBase);
        enqueue(p, QosProfile.CNP_PRIORITY, pkt, bytes, -1, false);
        if (p.busyUntilPs <= now) {
            nicTransmit(p);
        }
    }

    // ----- link failures ---------------------------------------------------------------------------

    /**
     * Fails a link at {@code downPs} and, if {@code upPs > downPs}, restores it then. Call before
     * {@link #run()}. Routing reconverges {@link #setReconvergencePs reconvergence} after each change.
     */
    public void scheduleFailure(LinkFailure failure) {
        if (!linkIndex.containsKey(failure.link())) {
            throw new IllegalArgumentException("link " + failure.link().id() + " is not in fabric " + fabric.name());
        }
        failures.add(failure);
    }

    /** Time from a link change until routing uses the new topology (BFD detection plus BGP convergence). */
    public void setReconvergencePs(long ps) {
        if (ps < 0) {
            throw new IllegalArgumentException("reconvergence must be >= 0");
        }
        this.reconvergencePs = ps;
    }

    private void linkDown(int li) {
        Link l = links.get(li);
        if (snapshots != null) {
            // A failed link is drawn as failed even if no traffic ever reached it.
            snapshots.include(ports[2 * li]);
        }
        if (downLinks.add(l)) {
            downLinkCount++;
        }
        for (EgressPort p : new EgressPort[] {ports[2 * li], ports[2 * li + 1]}) {
            p.down = true;
            // Everything queued for the dead wire is lost.
            for (int c = 0; c <= EgressPort.CLASSES; c++) {
                while (p.hasPackets(c)) {
                    int pkt = pop(p, c);
                    if (c < EgressPort.CLASSES && p.sw != null) {
                        releaseIngress(p.polledIngress(), c, p.polledBytes());
                    }
                    drop(p, pkts.priority(pkt), pkt, 3);
                }
            }
        }
        events.push(now + reconvergencePs, EV_REROUTE, 0, 0);
    }

    /** The link renegotiates to {@code gbps}: frames from now on serialize at the new rate. */
    private void linkSpeed(int li, int gbps) {
        for (EgressPort p : new EgressPort[] {ports[2 * li], ports[2 * li + 1]}) {
            p.rateBps = Units.gbpsToBps(gbps);
            p.lastWireBytes = -1;
            p.pfcReactionPs = pfcReactionPs(gbps, p.rateBps);
        }
    }

    private void linkUp(int li) {
        if (downLinks.remove(links.get(li))) {
            downLinkCount--;
        }
        ports[2 * li].down = false;
        ports[2 * li + 1].down = false;
        events.push(now + reconvergencePs, EV_REROUTE, 0, 0);
        transmit(ports[2 * li]);
        transmit(ports[2 * li + 1]);
    }

    /** Routing reconverges: new ECMP paths for every unfinished flow (unreachable flows keep theirs). */
    private void reroute() {
        routing = Routing.compute(fabric, java.util.Set.of(), downLinks);
        hopCache.clear();
        if (selector != null) {
            selector.routingChanged(routing);
        }
        reroutes++;
        for (Flow f : flows) {
            if (f.done && f.senderDone) {
                continue;
            }
            int srcAddr = f.srcPort.nic.address;
            int dstAddr = f.dstPort.nic.address;
            int[] fwd = path(f.srcPort.port, f.dstPort.port, srcAddr, dstAddr, f.udpSourcePort, f.id);
            int[] rev = path(f.dstPort.port, f.srcPort.port, dstAddr, srcAddr, f.udpSourcePort, f.id);
            if (fwd != null && rev != null && (!Arrays.equals(fwd, f.forwardPath())
                    || !Arrays.equals(rev, f.reversePaths[f.pathVersion]))) {
                f.reroute(fwd, rev);
                f.forwardBase = storePath(fwd);
                f.reverseBase = storePath(rev);
            }
        }
    }

    List<DeadlockDetector.Deadlock> deadlocksFound() {
        return deadlocks == null ? List.of() : deadlocks.found();
    }

    int reroutes() {
        return reroutes;
    }

    // ----- live view: snapshots out, commands in --------------------------------------------------

    /**
     * Publishes a {@link SimSnapshot} to {@code sink} every {@code everyPs} of simulated time, on
     * the simulator thread (the sink should only store it, e.g. in an AtomicReference). Call before
     * {@link #run()}.
     */
    public void setSnapshotSink(java.util.function.Consumer<SimSnapshot> sink, long everyPs) {
        setSnapshotSink(sink, everyPs, 0);
    }

    /**
     * As {@link #setSnapshotSink(java.util.function.Consumer, long)}, but a snapshot is built and
     * published only when at least {@code minWallNanos} of wall time passed since the previous
     * one (a bounded rate, e.g. one per animation frame); the interval events still run every
     * {@code everyPs}, so results do not depend on the wall clock.
     */
    public void setSnapshotSink(java.util.function.Consumer<SimSnapshot> sink, long everyPs, long minWallNanos) {
        if (everyPs <= 0 || minWallNanos < 0) {
            throw new IllegalArgumentException("snapshot interval must be > 0");
        }
        this.snapshotSink = sink;
        this.snapshotEveryPs = everyPs;
        this.snapshotMinWallNanos = minWallNanos;
    }

    /** What a command may change between events. */
    public interface Control {
        long nowPs();

        /** Fails a link now (as a scheduled failure would). */
        void failLink(Link link);

        /** Brings a failed link back now. */
        void restoreLink(Link link);

        /** Replaces the ECN curve of one egress queue ("device:port", class); null switches marking off. */
        void setWred(String port, int trafficClass, WredEcn curve);

        /**
         * Replaces the ECN curve of class {@code trafficClass} on every port whose QoS profile is
         * {@code profile}; returns how many ports changed (0 if none runs that profile).
         */
        int setWredForProfile(String profile, int trafficClass, WredEcn curve);

        /**
         * Sets PFC XOFF / XON of one switch port as an ingress. They act at the next arrival (XOFF)
         * or departure (XON) on that port, where the switch compares its occupancy.
         */
        void setPfcThresholds(String port, long xoffBytes, long xonBytes);

        /** Sets PFC XOFF / XON on every switch port of a QoS profile; returns how many changed. */
        int setPfcThresholdsForProfile(String profile, long xoffBytes, long xonBytes);
    }

    /**
     * Queues a command from any thread; it runs on the simulator thread between events: before the
     * first event, at every snapshot and at least every 4096 events (and whenever a live run is
     * paused or waiting for the wall clock).
     */
    public void submit(java.util.function.Consumer<Control> command) {
        commands.add(command);
    }

    /** Runs the queued commands; returns how many ran. */
    int applyCommands() {
        Control control = new Control() {
            @Override
            public long nowPs() {
                return now;
            }

            @Override
            public void failLink(Link link) {
                Integer li = linkIndex.get(link);
                if (li == null) {
                    throw new IllegalArgumentException("link " + link.id() + " is not in this run");
                }
                if (!ports[2 * li].down) {
                    linkDown(li);
                }
            }

            @Override
            public void restoreLink(Link link) {
                Integer li = linkIndex.get(link);
                if (li == null) {
                    throw new IllegalArgumentException("link " + link.id() + " is not in this run");
                }
                if (ports[2 * li].down) {
                    linkUp(li);
                }
            }

            @Override
            public void setWred(String port, int trafficClass, WredEcn curve) {
                checkCurve(trafficClass, curve);
                egressPort(port).wred[trafficClass] = curve;
                thresholdsVersion++;
            }

            @Override
            public int setWredForProfile(String profile, int trafficClass, WredEcn curve) {
                checkCurve(trafficClass, curve);
                int changed = 0;
                for (EgressPort p : ports) {
                    if (profile.equals(qos.qosFor(p.port).name())) {
                        p.wred[trafficClass] = curve;
                        changed++;
                    }
                }
                thresholdsVersion++;
                return changed;
            }

            @Override
            public void setPfcThresholds(String port, long xoffBytes, long xonBytes) {
                checkPfc(xoffBytes, xonBytes);
                EgressPort p = egressPort(port);
                if (p.sw == null) {
                    throw new IllegalArgumentException(port + " is a NIC port; PFC thresholds are set on switch ports");
                }
                p.xoffBytes = xoffBytes;
                p.xonBytes = xonBytes;
                thresholdsVersion++;
            }

            @Override
            public int setPfcThresholdsForProfile(String profile, long xoffBytes, long xonBytes) {
                checkPfc(xoffBytes, xonBytes);
                int changed = 0;
                for (EgressPort p : ports) {
                    if (p.sw != null && profile.equals(qos.qosFor(p.port).name())) {
                        p.xoffBytes = xoffBytes;
                        p.xonBytes = xonBytes;
                        changed++;
                    }
                }
                thresholdsVersion++;
                return changed;
            }
        };
        java.util.function.Consumer<Control> c;
        int ran = 0;
        while ((c = commands.poll()) != null) {
            c.accept(control);
            ran++;
        }
        return ran;
    }

    private EgressPort egressPort(String ref) {
        for (EgressPort p : ports) {
            if (p.ref().equals(ref)) {
                return p;
            }
        }
        throw new IllegalArgumentException("no port " + ref + " in this run (use device:port of a connected port)");
    }

    private static void checkCurve(int trafficClass, WredEcn curve) {
        if (trafficClass < 0 || trafficClass >= EgressPort.CLASSES) {
            throw new IllegalArgumentException("traffic class " + trafficClass + " is not in 0..7");
        }
        if (curve != null && (curve.kminBytes() < 0 || curve.kmaxBytes() < curve.kminBytes()
                || !(curve.pmax() >= 0 && curve.pmax() <= 1))) {
            throw new IllegalArgumentException("ECN curve needs 0 <= Kmin <= Kmax and 0 <= Pmax <= 1, got Kmin "
                    + curve.kminBytes() + " B, Kmax " + curve.kmaxBytes() + " B, Pmax " + curve.pmax());
        }
    }

    private static void checkPfc(long xoffBytes, long xonBytes) {
        if (xoffBytes <= 0 || xonBytes < 0 || xonBytes > xoffBytes) {
            throw new IllegalArgumentException("PFC thresholds need 0 <= XON <= XOFF and XOFF > 0, got XOFF "
                    + xoffBytes + " B, XON " + xonBytes + " B");
        }
    }

    private void snapshot() {
        applyCommands();
        if (snapshotMinWallNanos == 0) {
            publishSnapshot(now);
        } else {
            long t = System.nanoTime();
            if (lastPublishWallNanos == 0 || t - lastPublishWallNanos >= snapshotMinWallNanos) {
                lastPublishWallNanos = t;
                publishSnapshot(now);
            }
        }
        events.push(now + snapshotEveryPs, EV_SNAPSHOT, 0, 0);
    }

    /**
     * Builds and publishes a snapshot of the state at {@code atPs} (between the last event and the
     * next) outside the interval schedule, e.g. when a live run pauses. Simulator thread only.
     */
    void publishSnapshot(long atPs) {
        if (snapshotSink == null) {
            return;
        }
        if (snapshots == null) {
            snapshots = new SnapshotBuilder(ports, flows, flowPhase, touchedPorts, wholeFabricSnapshots);
        }
        snapshotSink.accept(snapshots.build(atPs, eventCount, flows.length - flowsRemaining, thresholdsVersion,
                reroutes, deadlocksFound()));
    }

    private boolean wholeFabricSnapshots;

    /**
     * Snapshots list every egress port of the fabric, not only those traffic can have reached
     * (see {@link SnapshotBuilder}; bench live compares the two). Call before the first snapshot.
     */
    public void setWholeFabricSnapshots(boolean whole) {
        this.wholeFabricSnapshots = whole;
    }

    /** The live snapshot builder, or null before the first snapshot (its cost counters; LiveRun reads them). */
    SnapshotBuilder snapshotBuilder() {
        return snapshots;
    }

    // ----- live control: the gate ------------------------------------------------------------------

    /** Puts the run under a gate (see {@link RunGate}). Call before {@link #run()}. */
    void setGate(RunGate gate) {
        this.gate = gate;
    }

    /**
     * Lets the loop run every event up to {@code horizon} (capped at the run's end) and at most
     * {@code events} more events before asking the gate again. Simulator thread only.
     */
    void grant(long horizon, long events) {
        horizonPs = Math.min(horizon, endPs);
        eventLimit = events == Long.MAX_VALUE ? Long.MAX_VALUE : eventCount + events;
    }

    /** Makes the loop ask the gate before the next event. Simulator thread only (from a command). */
    void askGate() {
        eventLimit = eventCount;
    }

    long nextEventPs() {
        return events.isEmpty() ? Long.MAX_VALUE : events.peekTime();
    }

    // ----- telemetry sampling --------------------------------------------------------------------

    /**
     * Queues paused continuously this long, in a cycle of waits, are reported as a deadlock
     * (checked at every telemetry sample); 0 switches detection off. Default 500 us.
     */
    public void setDeadlockThresholdPs(long ps) {
        if (ps < 0) {
            throw new IllegalArgumentException("deadlock threshold must be >= 0");
        }
        this.deadlockThresholdPs = ps;
    }

    /**
     * A telemetry sample at the end of the interval [now - interval, now): each point is stamped
     * with the interval's start (docs/format-scenario.md). Utilization is the time the wire carried
     * bits within the interval over its length (a frame across a boundary counts in both), so it
     * stays within [0, 1]; depth is the largest queue within it.
     */
    private void sample() {
        long interval = cfg.sampleIntervalPs();
        long start = now - interval;
        if (deadlockThresholdPs > 0) {
            if (deadlocks == null) {
                deadlocks = new DeadlockDetector(ports, deadlockThresholdPs);
            }
            deadlocks.check(touchedPorts, now);
        }
        for (EgressPort p : touchedPorts) {
            for (int c = 0; c < EgressPort.CLASSES; c++) {
                TimeSeries s = p.depthSeries[c];
                if (s != null) {
                    s.add(start, pcs[p.at(c, EgressPort.INTERVAL_MAX)]);
                    pcs[p.at(c, EgressPort.INTERVAL_MAX)] = pcs[p.at(c, EgressPort.QUEUE_BYTES)];
                }
            }
            long busy = p.busyPsUntil(now);
            p.utilizationSeries.add(start, (double) (busy - p.busyPsAtLastSample) / interval);
            p.busyPsAtLastSample = busy;
        }
        // The phase array, not the flows: most of a large run's flows are waiting or done, and
        // reading a byte each is far cheaper than touching every Flow object.
        for (int i = 0; i < flowPhase.length; i++) {
            if (flowPhase[i] == FLOW_ACTIVE) {
                Flow f = flows[i];
                f.rateSeries.add(now, f.rp.currentRateBps() / 1e9);
            }
        }
        events.push(now + interval, EV_SAMPLE, 0, 0);
    }

    // ----- accessors for the results builder -----------------------------------------------------

    Flow[] flows() {
        return flows;
    }

    EgressPort[] ports() {
        return ports;
    }

    List<EgressPort> touchedPorts() {
        return touchedPorts;
    }

    List<EgressPort> nicPorts() {
        return nicPorts;
    }

    List<SwitchState> switchStates() {
        return switches;
    }

    SimConfig config() {
        return cfg;
    }

    long now() {
        return now;
    }

    long eventCount() {
        return eventCount;
    }

    int maxPacketsInFlight() {
        return pkts.maxLive();
    }

    int flowsRemaining() {
        return flowsRemaining;
    }

    ReactionLog reactionLog() {
        return reactionLog;
    }

    long[] pgHeadroom() {
        return pgHeadroom;
    }

    PfcEventLog pfcLog() {
        return pfcLog;
    }

}
