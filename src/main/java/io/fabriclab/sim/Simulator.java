package io.fabriclab.sim;

import java.util.ArrayList;
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
import io.fabriclab.workload.FlowSpec;

/**
 * The packet-level discrete-event simulator of a RoCEv2 fabric (docs/model.md). Build it from a
 * fabric (whose QoS profiles are in force), the flows to run and the run settings, then
 * {@link #run()} once on one thread.
 *
 * <p>Hot path: events are primitives in a calendar queue ({@link EventQueue}), packets are ids
 * into parallel arrays ({@link PacketPool}), queues are rings of packet ids ({@link RingStore});
 * no object is allocated per packet or per event.
 *
 * <p>One mechanism per class, over the same arrays (ports, per-class port state, packets,
 * flows, events): this class holds the run loop, the event dispatch and the switch datapath
 * (egress scheduling and transmission, ingress admission to the shared buffer and headroom,
 * forwarding, ECN marking, drops); the run's transport at the NICs is a {@link NicTransport}
 * ({@link RoceTransport}, {@link IbTransport} or {@link UecTransport}, chosen once by
 * {@link NicTransport#of}) served by the one {@link NicScheduler}; {@link Pfc} holds PFC and its
 * watchdog, {@link CreditFlowControl} InfiniBand's link-level credits, {@link LinkEvents} link
 * failures and reconvergence, {@link FlowPaths} the ECMP paths, {@link Telemetry} sampling and
 * deadlock detection, {@link LiveControl} the live view's snapshots and commands. The per-packet
 * mechanisms see the run through {@link SimContext} (its private implementation here), not
 * through this class.
 */
public final class Simulator implements SimRun {
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
    /** A local task (NVLink transfer or compute, {@link LocalWork}) has all it waits for. */
    static final int EV_TASK_READY = 16;
    /** A compute task ends. */
    static final int EV_TASK_DONE = 17;
    /** An NVLink transfer's latency is over: its bytes start to move. */
    static final int EV_NVLINK_ACTIVE = 18;
    /** The earliest NVLink transfer of a server (target) should be through; arg: the server's rate version. */
    static final int EV_NVLINK_NEXT = 19;
    /** A focus run's background on a link direction changes (target: the port, arg: the step of its schedule). */
    static final int EV_BACKGROUND = 20;
    /**
     * A packet's last bit is in at a switch that arbitrates at the head ({@link SwitchPipeline#headArrival})
     * but could not cut through (target: the packet, arg: the port it came by); it queues now at the
     * egress chosen when its head came in ({@link #storedOut}), unless the next packet's head on the
     * same wire has queued it already ({@link #storedPkt}), or with stored packets of other wires
     * whose last bits are in at the same picosecond ({@link #join}). A stored packet that the next
     * head on its wire, already scheduled, will queue gets no such event ({@link #store}).
     */
    static final int EV_STORED = 21;

    private static final String[] KIND_NAMES = {"data", "ack", "nak", "cnp", "pfc", "trimmed", "fc"};

    private final Fabric fabric;
    private final QosResolver qos;
    private final SimConfig cfg;
    private final List<Link> links;
    private final Map<Link, Integer> linkIndex = new IdentityHashMap<>();
    /** Links down now; the arrival path checks a port's state only while this is above 0. */
    int downLinkCount;
    private final FlowPaths paths;
    /** Live control (LiveRun): consulted when the next event lies beyond the grant. Null: run free. */
    private RunGate gate;
    /** Events at or before this time may run without asking the gate. */
    private long horizonPs;
    /** The gate is asked again once this many events have run. */
    private long eventLimit = Long.MAX_VALUE;
    private long endPs;
    private final EgressPort[] ports;
    /** Hot per-class state of every port (see {@link EgressPort#cls}). */
    private final long[] pcs;
    /** Queue rings of every port (see {@link EgressPort}). */
    private final RingStore rings;
    private final List<SwitchState> switches = new ArrayList<>();
    private final List<EgressPort> nicPorts = new ArrayList<>();
    private final Flow[] flows;
    /** NVLink transfers and compute intervals of the run; null when every task is a network flow. */
    final LocalWork local;
    /** Index in the workload's list of each network flow (its id in this run is its place in {@link #flows}). */
    private final int[] networkSpecIndex;
    /**
     * Per flow: {@link #FLOW_WAITING}, {@link #FLOW_ACTIVE}, {@link #FLOW_DONE}, or
     * {@link #FLOW_DONE_CHANGED} when a done flow's receiver sent a CNP after all (a late duplicate).
     * What a snapshot reads to visit only the flows whose values can have moved.
     */
    final byte[] flowPhase;
    static final byte FLOW_WAITING = 0;
    static final byte FLOW_ACTIVE = 1;
    static final byte FLOW_DONE = 2;
    static final byte FLOW_DONE_CHANGED = 3;
    private final int maxPayload;
    /**
     * The transport simulated: RoCEv2 (PFC, ECN, DCQCN), InfiniBand (credit-based flow control) or
     * Ultra Ethernet (spraying, trimming, NACK and selective retransmission, NSCC).
     */
    private final io.fabriclab.model.Transport transport;
    /** The run's transport and its parameters. */
    final TransportProfile transportProfile;
    /** InfiniBand's link-level flow control; null in a RoCEv2 run. */
    final CreditFlowControl credits;
    /** InfiniBand congestion control (FECN, BECN, CCTI); null unless an InfiniBand run switches it on. */
    final IbCongestionControl ibcc;
    /** Per-packet bytes of the transport: data headers, an ACK or NAK, the wire's gap per packet, the largest payload. */
    private final NicTransport.Framing framing;
    private final int wireOverheadBytes;
    private final EventQueue events;
    private final PacketPool pkts;
    private final SplittableRandom ecnRandom;
    private final List<EgressPort> touchedPorts = new ArrayList<>();
    /** Bytes in the headroom of each (ingress port, priority group), at port * 8 + priority. */
    private final long[] pgHeadroom;
    SimTrace trace;
    private final ReactionLog reactionLog;
    private RoutingPolicy routingPolicy = RoutingPolicy.ecmp();
    /** Next-hop choice of data packets in a per-packet routing mode; null under ECMP. */
    NextHopSelector selector;
    private final Pfc pfc;
    /** The run's transport at every NIC (RoCEv2, InfiniBand or Ultra Ethernet), chosen once ({@link NicTransport#of}). */
    final NicTransport nicTransport;
    /** The NIC scheduler every transport shares. */
    private final NicScheduler nicScheduler;
    /** What the mechanisms see of the run ({@link SimContext}) in place of this class. */
    private final Context context = new Context();
    /** Packet trimming at the switches; null unless the run is ultra-ethernet. */
    final Trimming trimming;
    /** Ultra Ethernet spraying: switches hash each data packet's entropy value ({@link NextHopSelector#nextByEntropy}). */
    private boolean entropySpray;
    final LinkEvents linkEvents;
    /** Port-to-port latency and forwarding mode of every switch (docs/model.md, Switch port-to-port latency). */
    final SwitchPipeline pipeline;
    private final Telemetry telemetry;
    final LiveControl live;
    private List<io.fabriclab.workload.Collective> collectiveWorkloads = List.of();
    private volatile boolean stopRequested;
    private boolean ran;

    /** The simulated time of the event being run (ps). */
    long now;
    private long eventCount;
    int flowsRemaining;

    public Simulator(Fabric fabric, List<FlowSpec> flowSpecs, SimConfig cfg) {
        this(fabric, flowSpecs, cfg, QosResolver.of(fabric));
    }

    /** A run whose QoS comes from {@code qos} (e.g. a named profile and scenario overrides). */
    public Simulator(Fabric fabric, List<FlowSpec> flowSpecs, SimConfig cfg, QosResolver qos) {
        this(fabric, flowSpecs, cfg, qos, TransportProfile.of(io.fabriclab.model.Transport.ROCEV2));
    }

    /** A run of {@code transport} with its default parameters ({@link TransportProfile#of}). */
    public Simulator(Fabric fabric, List<FlowSpec> flowSpecs, SimConfig cfg, QosResolver qos,
                     io.fabriclab.model.Transport transport) {
        this(fabric, flowSpecs, cfg, qos, TransportProfile.of(java.util.Objects.requireNonNull(transport, "transport")));
    }

    /**
     * A run under {@code transportProfile} on the same drawing: RoCEv2 (PFC, ECN, DCQCN),
     * InfiniBand (credit-based link-level flow control per VL, no PFC, ECN or DCQCN; docs/model.md,
     * InfiniBand; its VL buffer is set by {@link #setVlCreditBytes}), or Ultra Ethernet (best-effort
     * class without PFC, per-packet spraying, trimming, NACK and selective retransmission, NSCC;
     * docs/model.md, Ultra Ethernet in the simulator).
     */
    public Simulator(Fabric fabric, List<FlowSpec> flowSpecs, SimConfig cfg, QosResolver qos,
                     TransportProfile transportProfile) {
        this.transportProfile = java.util.Objects.requireNonNull(transportProfile, "transportProfile");
        this.transport = transportProfile.transport();
        if (!TransportProfile.simulated(transport)) {
            throw new IllegalArgumentException(transport.displayName()
                    + " is not simulated in this build, which simulates " + TransportProfile.simulatedNames());
        }
        boolean ib = transport == io.fabriclab.model.Transport.INFINIBAND;
        boolean ultraEthernet = transport == io.fabriclab.model.Transport.ULTRA_ETHERNET;
        if (ultraEthernet && transportProfile.uec() == null) {
            throw new IllegalArgumentException("an Ultra Ethernet run needs its parameters (TransportProfile.uec)");
        }
        this.framing = NicTransport.Framing.of(transport, fabric.mtuBytes());
        this.wireOverheadBytes = framing.wireOverheadBytes();
        this.fabric = fabric;
        this.qos = qos;
        this.cfg = cfg;
        this.paths = new FlowPaths(Routing.compute(fabric), new EcmpHash(cfg.seed(), cfg.perSwitchEcmpSeed()), linkIndex);
        Routing routing = paths.routing;
        this.maxPayload = framing.maxPayload();
        if (maxPayload + framing.dataHeaderBytes() > PacketPool.MAX_FRAME_BYTES) {
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
            if (ultraEthernet) {
                // Ultra Ethernet: every class is best effort, no PFC (UEC 1.0 runs over lossy Ethernet).
                p.losslessMask = 0;
            }
        }
        pgHeadroom = new long[ports.length * EgressPort.CLASSES];
        pipeline = SwitchPipeline.of(switches, transport, ports);
        storedPkt = new int[ports.length];
        java.util.Arrays.fill(storedPkt, -1);
        storedOut = new int[ports.length];
        storedByNext = new boolean[ports.length];
        storedLastBitPs = new long[ports.length];
        storingNext = new int[ports.length];
        storingPrev = new int[ports.length];
        storingHead = new int[ports.length];
        java.util.Arrays.fill(storingHead, -1);
        headsFirst = new int[ports.length];
        headsStamp = new int[ports.length];
        for (int i = 0; i < links.size(); i++) {
            linkIndex.put(links.get(i), i);
        }

        // Network flows (packet level) apart from NVLink transfers and compute (LocalWork): a flow's id
        // is its place among the network flows, so a workload of network flows only keeps its numbering.
        List<FlowSpec> netSpecs = new ArrayList<>(flowSpecs.size());
        List<FlowSpec> localSpecs = new ArrayList<>();
        int[] netIndex = new int[flowSpecs.size()];
        int[] localIndex = new int[flowSpecs.size()];
        int[] place = new int[flowSpecs.size()];
        for (int i = 0; i < flowSpecs.size(); i++) {
            FlowSpec spec = flowSpecs.get(i);
            if (spec.network()) {
                place[i] = netSpecs.size();
                netIndex[netSpecs.size()] = i;
                netSpecs.add(spec);
            } else {
                place[i] = -1 - localSpecs.size();
                localIndex[localSpecs.size()] = i;
                localSpecs.add(spec);
            }
        }
        networkSpecIndex = java.util.Arrays.copyOf(netIndex, netSpecs.size());
        events = new EventQueue(Math.max(1024, netSpecs.size() * 4 + localSpecs.size()));
        local = localSpecs.isEmpty() ? null
                : new LocalWork(this::flowDependencyDone, events, fabric, localSpecs, java.util.Arrays.copyOf(localIndex, localSpecs.size()));
        flows = new Flow[netSpecs.size()];
        flowPhase = new byte[flows.length];
        for (int i = 0; i < flows.length; i++) {
            FlowSpec spec = netSpecs.get(i);
            Port src = resolveNic(spec.src(), "src", networkSpecIndex[i]);
            Port dst = resolveNic(spec.dst(), "dst", networkSpecIndex[i]);
            if (src == dst) {
                throw new IllegalArgumentException("flow " + networkSpecIndex[i]
                        + ": source and destination are the same NIC " + src.ref());
            }
            int udp = 49152 + portRandom.nextInt(16384);
            Nic srcNic = nicByPort.get(src);
            Nic dstNic = nicByPort.get(dst);
            int[] fwd = paths.path(src, dst, srcNic.address, dstNic.address, udp);
            int[] rev = paths.path(dst, src, dstNic.address, srcNic.address, udp);
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
            flows[i].forwardBase = paths.store(fwd);
            flows[i].reverseBase = paths.store(rev);
            flows[i].dstEdge = routing.edgeSwitch(dst);
            flows[i].lastHopPort = rev[0] ^ 1;
        }
        // Dependencies: a task that names others in "after" starts when they have all finished (a
        // flow when its data has all arrived).
        Map<String, Integer> byId = new HashMap<>();
        for (int i = 0; i < flowSpecs.size(); i++) {
            String id = flowSpecs.get(i).id();
            if (!id.isEmpty() && byId.put(id, i) != null) {
                throw new IllegalArgumentException("flow " + i + ": flow id '" + id + "' is used twice");
            }
        }
        for (int i = 0; i < flowSpecs.size(); i++) {
            int me = place[i];
            for (String dep : flowSpecs.get(i).after()) {
                Integer di = byId.get(dep);
                if (di == null) {
                    throw new IllegalArgumentException("flow " + i + ": waits for unknown flow id '" + dep + "'");
                }
                int d = place[di];
                if (d >= 0 && me >= 0) {
                    flows[d].addDependent(flows[me]);
                    flows[me].waitingFor++;
                } else if (d >= 0) {
                    flows[d].addTaskDependent(-1 - me);
                    local.waitingFor[-1 - me]++;
                } else if (me >= 0) {
                    local.addFlowDependent(-1 - d, flows[me]);
                } else {
                    local.addTaskDependent(-1 - d, -1 - me);
                }
            }
        }
        pkts = new PacketPool(4096);
        events.setLookahead(this::lookahead);
        flowsRemaining = flows.length;
        reactionLog = new ReactionLog(flows.length);
        pfc = new Pfc(context, ports.length, pcs, events, pkts);
        credits = ib ? new CreditFlowControl(context, ports, pkts) : null;
        TransportProfileIb ibProfile = transportProfile.ib();
        ibcc = ib && ibProfile != null && ibProfile.congestionControl()
                ? new IbCongestionControl(context, credits, pkts, ibProfile.congestionSettings(), ports.length, flows,
                maxPayload + framing.dataHeaderBytes()) : null;
        nicTransport = NicTransport.of(transportProfile, context, flows, events, pkts, cfg, reactionLog, framing, credits,
                ibcc);
        nicScheduler = new NicScheduler(context, nicTransport, credits, events);
        if (nicTransport.pathEntropies() > 0) {
            // Each data packet carries the entropy value its sender chose (Ultra Ethernet).
            pkts.enableEntropy();
        }
        trimming = ultraEthernet ? new Trimming(pkts, transportProfile.uec().trimThresholdPackets(), fabric.mtuBytes(),
                switches) : null;
        if (trimming != null) {
            for (EgressPort p : ports) {
                if (p.sw != null) {
                    long trimPoint = trimming.trimPointBytes(deviceQos(p.sw.device).buffer());
                    for (int c = 0; c < EgressPort.CLASSES; c++) {
                        if (c != QosProfile.CNP_PRIORITY) {
                            p.wred[c] = trimming.curve(p.wred[c], trimPoint);
                        }
                    }
                }
            }
        }
        linkEvents = new LinkEvents(this, fabric, links, ports, flows, paths, events, pkts);
        telemetry = new Telemetry(context, credits, ports, pcs, flows, flowPhase, touchedPorts, events, cfg.sampleIntervalPs());
        live = new LiveControl(this, ports, qos, events);
    }

    public io.fabriclab.model.Transport transport() {
        return transport;
    }

    /** The run's transport with its parameters. */
    public TransportProfile transportProfile() {
        return transportProfile;
    }

    /**
     * InfiniBand: the receive buffer every port advertises per virtual lane, bytes (a multiple of
     * 64 up to 128 KiB; default 128 KiB). Call before {@link #run()}.
     */
    public void setVlCreditBytes(int bytes) {
        if (credits == null) {
            throw new IllegalStateException("VL credits apply to an InfiniBand run, this one is " + transport.jsonName());
        }
        if (ran) {
            throw new IllegalStateException("set VL credits before the run");
        }
        credits.setVlCreditBytes(bytes);
    }

    /**
     * InfiniBand: routes come from the linear forwarding tables the subnet manager's {@code engine}
     * computes (docs/model.md, InfiniBand routing) instead of the ECMP hash; adaptive routing, if
     * chosen, picks among the next hops the engine allows. Every flow's path is recomputed. Call
     * before {@link #run()}.
     */
    public void setIbRoutingEngine(io.fabriclab.routing.IbRoutingEngine engine) {
        if (credits == null) {
            throw new IllegalStateException("a subnet manager's routing applies to an InfiniBand run, this one is "
                    + transport.jsonName());
        }
        if (ran) {
            throw new IllegalStateException("set the routing engine before the run");
        }
        paths.useEngine(java.util.Objects.requireNonNull(engine, "engine"));
        for (Flow f : flows) {
            int[] fwd = paths.path(f.srcPort.port, f.dstPort.port, f.srcPort.nic.address, f.dstPort.nic.address,
                    f.udpSourcePort);
            int[] rev = paths.path(f.dstPort.port, f.srcPort.port, f.dstPort.nic.address, f.srcPort.nic.address,
                    f.udpSourcePort);
            if (fwd == null || rev == null) {
                throw new IllegalArgumentException("flow " + f.id + ": " + engine.jsonName()
                        + " routing leaves no route between " + f.srcPort.ref() + " and " + f.dstPort.ref());
            }
            f.forwardPaths[0] = fwd;
            f.reversePaths[0] = rev;
            f.forwardBase = paths.store(fwd);
            f.reverseBase = paths.store(rev);
        }
    }

    /**
     * Every network flow's UDP source port, in the order of the network flows, instead of the ports
     * drawn from the seed: a focus run ({@link FocusRun}) gives each flow the port it had in the
     * flow-level run, so ECMP puts it on the same path. Every flow's path is recomputed. Ports are
     * 0-65535. Call before {@link #run()}.
     */
    public void setUdpSourcePorts(int[] udp) {
        if (ran) {
            throw new IllegalStateException("set the UDP source ports before the run");
        }
        if (udp.length != flows.length) {
            throw new IllegalArgumentException("UDP source ports: " + udp.length + " given, the run has "
                    + flows.length + " network flows");
        }
        for (Flow f : flows) {
            int port = udp[f.id];
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("flow " + f.id + ": UDP source port " + port + " is not 0-65535");
            }
            f.udpSourcePort = port;
            int[] fwd = paths.path(f.srcPort.port, f.dstPort.port, f.srcPort.nic.address, f.dstPort.nic.address, port);
            int[] rev = paths.path(f.dstPort.port, f.srcPort.port, f.dstPort.nic.address, f.srcPort.nic.address, port);
            if (fwd == null || rev == null) {
                throw new IllegalArgumentException("flow " + f.id + ": no route between " + f.srcPort.ref() + " and "
                        + f.dstPort.ref());
            }
            f.forwardPaths[0] = fwd;
            f.reversePaths[0] = rev;
            f.forwardBase = paths.store(fwd);
            f.reverseBase = paths.store(rev);
        }
    }

    /**
     * Background traffic on the link direction {@code from} sends into (a focus run,
     * {@link FocusRun}): from {@code atPs[i]} on, {@code share[i]} (0 to below 1) of the line rate is
     * taken by traffic this run does not simulate, and frames serialize at what is left. The times
     * ascend; the last share holds to the end. Call before {@link #run()}.
     */
    public void setBackground(Port from, long[] atPs, double[] share) {
        if (ran) {
            throw new IllegalStateException("set the background before the run");
        }
        Link l = fabric.linkAt(from);
        Integer li = l == null ? null : linkIndex.get(l);
        if (li == null) {
            throw new IllegalArgumentException("background: port " + from.ref() + " has no link in this run");
        }
        if (atPs.length == 0 || atPs.length != share.length) {
            throw new IllegalArgumentException("background of " + from.ref() + ": " + atPs.length + " times and "
                    + share.length + " shares; one share per time, at least one");
        }
        for (int i = 0; i < atPs.length; i++) {
            if (atPs[i] < 0 || (i > 0 && atPs[i] <= atPs[i - 1])) {
                throw new IllegalArgumentException("background of " + from.ref() + ": times must be >= 0 and ascend");
            }
            if (!(share[i] >= 0 && share[i] < 1)) {
                throw new IllegalArgumentException("background of " + from.ref() + ": share " + share[i]
                        + " at " + atPs[i] + " ps is not in [0, 1)");
            }
        }
        if (backgroundPs == null) {
            backgroundPs = new long[ports.length][];
            backgroundShare = new double[ports.length][];
        }
        int p = l.a() == from ? 2 * li : 2 * li + 1;
        backgroundPs[p] = atPs.clone();
        backgroundShare[p] = share.clone();
    }

    /** Background schedules by port id (null: none in this run). */
    private long[][] backgroundPs;
    private double[][] backgroundShare;

    /** {@link #EV_BACKGROUND}: step {@code step} of port {@code p}'s background begins. */
    private void background(int p, int step) {
        EgressPort port = ports[p];
        port.setRates(port.lineRateBps, backgroundShare[p][step]);
        if (step + 1 < backgroundPs[p].length) {
            events.push(backgroundPs[p][step + 1], EV_BACKGROUND, p, step + 1);
        }
    }

    /** InfiniBand: the subnet manager's forwarding tables in force, or null (ECMP routing). */
    public io.fabriclab.routing.LinearForwardingTables forwardingTables() {
        return paths.tables;
    }

    /**
     * Every switch's port-to-port latency at {@code ps} instead of its model's
     * ({@code model.SwitchLatency}); 0 makes every switch a store-and-forward switch without
     * pipeline delay. Call before {@link #run()}.
     */
    public void setSwitchLatencyPs(long ps) {
        if (ran) {
            throw new IllegalStateException("set the switch latency before the run");
        }
        pipeline.setAllPs(ps);
    }

    public void setTrace(SimTrace trace) {
        this.trace = trace;
    }

    /** Asks a running simulation to stop after the current event (any thread). */
    @Override
    public void requestStop() {
        stopRequested = true;
    }

    public Routing routing() {
        return paths.routing;
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

    /**
     * Labels of collectives the caller reports itself (NCCL collectives and training steps, whose
     * tasks include NVLink transfers: StepAnalysis); the results' per-collective list leaves them out.
     */
    public void reportElsewhere(java.util.function.Predicate<String> labels) {
        this.reportedElsewhere = java.util.Objects.requireNonNull(labels);
    }

    java.util.function.Predicate<String> reportedElsewhere() {
        return reportedElsewhere;
    }

    private java.util.function.Predicate<String> reportedElsewhere = l -> false;

    private List<io.fabriclab.workload.NcclCollective> ncclCollectives = List.of();

    /** NCCL collectives of the run, each reported with its declared S over its flows and NVLink transfers. */
    public void describeNcclCollectives(List<io.fabriclab.workload.NcclCollective> collectives) {
        this.ncclCollectives = List.copyOf(collectives);
    }

    List<io.fabriclab.workload.NcclCollective> ncclCollectives() {
        return ncclCollectives;
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
        p.pfcReactionPs = Pfc.reactionPs(l.speedGbps(), p.rateBps);
        QosProfile q = portQos(self);
        SchedulerConfig sched = q.scheduler();
        for (int c = 0; c < EgressPort.CLASSES; c++) {
            if (sched.strictPriorityClasses().contains(c)) {
                p.strictMask |= 1 << c;
            }
            int w = c < sched.dwrrWeights().size() ? Math.max(1, sched.dwrrWeights().get(c)) : 1;
            pcs[p.at(c, EgressPort.DEQ_QUANTUM)] = (long) w * fabric.mtuBytes();
            // InfiniBand switches mark no ECN: their congestion control marks FECN (IbCongestionControl).
            p.wred[c] = transport == io.fabriclab.model.Transport.INFINIBAND ? null : q.ecn().forClass(c);
        }
        p.markAtEnqueue = q.ecn().markAt() == io.fabriclab.model.EcnConfig.MarkingPoint.ENQUEUE;
        PfcConfig pfc = q.pfc();
        if (sw != null && transport == io.fabriclab.model.Transport.INFINIBAND) {
            // No PFC on InfiniBand: credits hold every packet back before it could overflow.
            p.xoffBytes = pfc.xoffBytes();
            p.xonBytes = pfc.xonBytes();
        } else if (sw != null) {
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
        return resolveNic(fabric, paths.routing, ref, which, flow);
    }

    /** NIC {@code ref} ("server:port" or "server:nicK") of {@code fabric}, or an error naming the flow and what is allowed. */
    static Port resolveNic(Fabric fabric, Routing routing, String ref, String which, int flow) {
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

    /** Every network flow and local task has finished. */
    private boolean allDone() {
        return flowsRemaining == 0 && (local == null || local.remaining == 0);
    }

    /**
     * Network flow {@code f} has all its data at the receiver: the flows and tasks waiting for it
     * lose one dependency (the transports call this once per flow).
     */
    void releaseDependents(Flow f) {
        for (int i = 0; i < f.dependentCount; i++) {
            flowDependencyDone(f.dependents[i]);
        }
        for (int i = 0; i < f.taskDependentCount; i++) {
            local.dependencyDone(f.taskDependents[i], now);
        }
    }

    /** One of the tasks flow {@code d} waits for finished; it starts when none is left. */
    void flowDependencyDone(Flow d) {
        if (--d.waitingFor == 0) {
            events.push(Math.max(now, d.startPs) + d.spec.delayPs(), EV_FLOW_START, d.id, 0);
        }
    }

    /** Index in the workload's list of network flow {@code id}. */
    int specIndexOfFlow(int id) {
        return networkSpecIndex[id];
    }

    /** The index of {@code link} in this run, or an error naming it. */
    int linkIndexOf(Link link) {
        Integer li = linkIndex.get(link);
        if (li == null) {
            throw new IllegalArgumentException("link " + link.id() + " is not in this run");
        }
        return li;
    }

    // ----- the event loop ------------------------------------------------------------------------

    public SimResults run() {
        return run(null);
    }

    @Override
    public Engine engine() {
        return Engine.PACKET;
    }

    @Override
    public SimResults run(Progress progress) {
        if (ran) {
            throw new IllegalStateException("a Simulator runs once");
        }
        ran = true;
        int entropies = nicTransport.pathEntropies();
        if (entropies > 0 && !routingPolicy.perPacket()) {
            // Ultra Ethernet sprays every packet over the equal-cost paths (UEC 1.0 packet spraying).
            routingPolicy = new RoutingPolicy(RoutingMode.SPRAY, routingPolicy.flowletGapPs(), routingPolicy.reorderWindowPackets());
        }
        if (routingPolicy.perPacket()) {
            selector = new NextHopSelector(context, routingPolicy, ports, linkIndex, paths.routing, flows, cfg.seed(),
                    switches.size(), new EcmpHash(cfg.seed(), cfg.perSwitchEcmpSeed()));
            // Ultra Ethernet's spraying: each packet carries the entropy value its sender chose.
            entropySpray = entropies > 0 && routingPolicy.mode() == RoutingMode.SPRAY;
            if (entropySpray) {
                selector.setPathEntropies(entropies);
            }
            if (paths.tables != null) {
                selector.tablesChanged(paths.tables);
            }
        }
        long wallStart = System.nanoTime();
        // A focus run's background first: in force before a flow that starts at the same time sends.
        if (backgroundPs != null) {
            for (int p = 0; p < ports.length; p++) {
                if (backgroundPs[p] != null) {
                    events.push(backgroundPs[p][0], EV_BACKGROUND, p, 0);
                }
            }
        }
        for (Flow f : flows) {
            if (f.waitingFor == 0) {
                events.push(f.startPs + f.spec.delayPs(), EV_FLOW_START, f.id, 0);
            }
        }
        if (local != null) {
            local.scheduleInitial();
        }
        events.push(cfg.sampleIntervalPs(), EV_SAMPLE, 0, 0);
        linkEvents.scheduleAll(linkIndex);
        if (live.snapshotSink != null) {
            events.push(live.snapshotEveryPs, EV_SNAPSHOT, 0, 0);
        }
        live.applyCommands();
        boolean completion = cfg.durationPs() == 0;
        long end = completion ? cfg.maxTimePs() : cfg.durationPs();
        endPs = end;
        horizonPs = end;
        if (gate != null) {
            eventLimit = 0; // ask the gate before the first event (a run may start paused)
        }
        SimResults.StopReason reason = SimResults.StopReason.NO_EVENTS;
        if (completion && allDone()) {
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
                if (completion && flowsRemaining == 0 && allDone()) {
                    reason = SimResults.StopReason.COMPLETED;
                    break;
                }
                if ((eventCount & 0xFFF) == 0 && !live.commands.isEmpty()) {
                    live.applyCommands();
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
            case EV_FLOW_START -> nicTransport.startFlow(flows[target]);
            case EV_NIC_WAKE -> {
                EgressPort p = ports[target];
                if (p.wakeAtPs == now) {
                    p.wakeAtPs = -1;
                }
                transmit(p);
            }
            case EV_PAUSE_EXPIRE -> transmit(ports[target]);
            case EV_PFC_REFRESH -> pfc.refresh(ports[EgressPort.portOf(target)], EgressPort.classOf(target), arg);
            case EV_RATE_TIMER, EV_RTO -> nicTransport.timer(type, flows[target], arg);
            case EV_SAMPLE -> telemetry.sample();
            case EV_WATCHDOG -> pfc.watchdog(ports[EgressPort.portOf(target)], EgressPort.classOf(target), arg);
            case EV_LINK_DOWN -> linkEvents.down(target);
            case EV_LINK_UP -> linkEvents.up(target);
            case EV_REROUTE -> linkEvents.reroute();
            case EV_SNAPSHOT -> live.snapshot();
            case EV_LINK_SPEED -> linkEvents.speed(target, arg);
            case EV_PFC_APPLY -> pfc.apply(ports[EgressPort.portOf(target)], EgressPort.classOf(target), arg);
            case EV_TASK_READY -> local.ready(target, now);
            case EV_TASK_DONE -> local.computeDone(target, now);
            case EV_NVLINK_ACTIVE -> local.nvlinkActive(target, now);
            case EV_NVLINK_NEXT -> local.nvlinkNext(target, arg, now);
            case EV_BACKGROUND -> background(target, arg);
            case EV_STORED -> stored(target, arg);
            case EventQueue.NOP -> { }
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
        if (credits != null) {
            return lookaheadCredited(type, target, arg);
        }
        if (type == EV_ARRIVE) {
            int h = pkts.touch(target);
            EgressPort in = ports[arg ^ 1];
            FlowPaths fp = paths;
            int i = pkts.pathBase(target) + ((h >>> 8) & 0xFF) + 1;
            int out = i < fp.size ? fp.store[i] : arg;
            int sum = h + in.losslessMask + ports[out].nonEmpty;
            int stored = storedPkt[arg];
            // A packet stored from the same wire, which this head may queue first (headIn).
            return stored < 0 ? sum : sum + pkts.touch(stored) + ports[storedOut[arg]].nonEmpty;
        }
        if (type == EV_STORED) {
            return pkts.touch(target) + ports[storedOut[arg]].nonEmpty;
        }
        if (type == EV_TX_DONE) {
            return ports[target].nonEmpty;
        }
        return 0;
    }

    /**
     * {@link #lookahead} of an InfiniBand run, which reads further ahead: at an arrival, the credit
     * record it updates (the receiver's for a data packet or ACK, the sender's for a flow-control
     * packet) and, at a switch, the egress queue the packet joins and is often sent from at once
     * (its counters, ring head and credits), at an HCA the queue pair; at a frame's end, the queue
     * a switch port will probably serve next (the highest class that holds packets) or the queue
     * pair an HCA serves next. Each of these was a cache miss per packet in the JFR profile of the
     * k=16 bench (the 4096 B MTU makes 2.2x the packets, and every packet that leaves a buffer
     * sends a flow-control packet back); read ahead, the misses of a bucket's events overlap.
     * Pure reads, as {@link #lookahead}.
     */
    private int lookaheadCredited(int type, int target, int arg) {
        if (type == EV_ARRIVE) {
            int h = pkts.touch(target);
            int c = (h >>> 3) & 7;
            EgressPort in = ports[arg ^ 1];
            if ((h & 7) == PacketPool.FC) {
                // A flow-control packet ends at the sender of that link direction.
                return h + in.nonEmpty + credits.touch(arg ^ 1, c);
            }
            FlowPaths fp = paths;
            int i = pkts.pathBase(target) + ((h >>> 8) & 0xFF) + 1;
            int out = i < fp.size ? fp.store[i] : arg;
            int sum = h + in.nonEmpty + credits.touch(arg, c);
            if (in.sw == null) {
                // At an HCA: the queue pair's state (a data packet's responder, an ACK's requester).
                int fl = pkts.flow(target);
                if (fl < 0 || fl >= flows.length) {
                    return sum;
                }
                Flow f = flows[fl];
                return sum + f.expected + f.sndUna;
            }
            // At a switch: the ingress buffer's counters, and the egress queue the packet joins and
            // is often sent from at once (its counters, ring, head and credits).
            EgressPort o = ports[out];
            int outAt = EgressPort.at(out, c, 0);
            sum += o.nonEmpty + (int) pcs[EgressPort.at(arg ^ 1, c, EgressPort.INGRESS_BYTES)] + credits.touch(out, c)
                    + (int) pcs[outAt + EgressPort.QUEUE_BYTES] + (int) pcs[outAt + EgressPort.DEQ_PACKETS]
                    + (int) pcs[outAt + EgressPort.RING_SEGMENT];
            return (o.nonEmpty & (1 << c)) == 0 ? sum : sum + o.headBytes(c);
        }
        if (type == EV_TX_DONE) {
            EgressPort p = ports[target];
            Nic nic = p.nic;
            if (nic != null) {
                // An HCA: the queue pair its round robin serves next.
                int n = nic.activeCount;
                int rr = nic.roundRobin;
                return rr >= n ? n : n + nic.active[rr].sndNxt;
            }
            int ready = p.nonEmpty & 0xFF;
            if (ready == 0) {
                return 0;
            }
            int c = 31 - Integer.numberOfLeadingZeros(ready);
            return p.headBytes(c) + credits.touch(target, c) + (int) pcs[EgressPort.at(target, c, EgressPort.DEQ_PACKETS)];
        }
        return 0;
    }

    // ----- transmission ------------------------------------------------------------------------

    void transmit(EgressPort p) {
        if (p.busyUntilPs > now || p.down) {
            return;
        }
        if (p.nic != null) {
            nicScheduler.transmit(p);
        } else {
            switchTransmit(p);
        }
    }

    private void switchTransmit(EgressPort p) {
        int pkt;
        int bytes;
        if (p.hasPackets(EgressPort.CONTROL)) {
            // Link-level frames (PAUSE, flow control) do not cross the forwarding pipeline.
            pkt = popControl(p);
            bytes = p.polledBytes();
            startTx(p, pkt, bytes, 0);
        } else {
            CreditFlowControl cr = credits;
            int c = schedule(p, cr == null ? 0 : cr.blockedClasses(p));
            if (c < 0) {
                return;
            }
            pkt = pop(p, c);
            // Read before leaveSwitch: a PFC frame it sends may be dequeued through p's polled entry.
            bytes = p.polledBytes();
            int ingress = p.polledIngress();
            long waited = p.polledLatencyPs(now);
            // Sent as its head came in (it claimed the idle egress then, switchArrive).
            boolean atHead = pkt == headPkt;
            long earliest = Long.MIN_VALUE;
            if (cr != null) {
                earliest = cr.earliestStartPs(p, c, bytes);
                cr.consume(p, c, bytes);
            }
            leaveSwitch(p, c, pkt);
            int wire = bytes + wireOverheadBytes;
            long ser = p.serializationPs(wire);
            startTx(p, pkt, bytes, pipeline.delayPs(p, ingress < 0 ? null : ports[ingress], wire, atHead, waited, ser,
                    now, earliest));
        }
    }

    /**
     * The class to serve next: strict-priority classes highest first, then DWRR over the others
     * (Shreedhar and Varghese): a queue's deficit grows by its quantum (weight x MTU) on each visit
     * and it sends while its head fits in the deficit. Paused classes, and classes in
     * {@code blocked} (InfiniBand: the receiver's credits do not cover their head), are skipped.
     * -1 if none.
     */
    private int schedule(EgressPort p, int blocked) {
        final long t = now;
        // Strict classes that hold packets, highest first.
        for (int ready = p.strictMask & p.nonEmpty & ~blocked & 0xFF; ready != 0; ready &= ~Integer.highestOneBit(ready)) {
            int c = 31 - Integer.numberOfLeadingZeros(ready);
            if (!p.paused(c, t)) {
                return c;
            }
        }
        for (int i = 0; i < 2 * EgressPort.CLASSES + 1; i++) {
            int c = p.roundRobin;
            boolean queued = p.hasPackets(c);
            if (queued && !p.isStrict(c) && !p.paused(c, t) && (blocked & (1 << c)) == 0) {
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
    void startTx(EgressPort p, int pkt, int frame) {
        startTx(p, pkt, frame, 0);
    }

    /**
     * Puts packet {@code pkt} of {@code frame} bytes on the wire of {@code p}; it reaches the peer
     * {@code pipelinePs} later than serialization and propagation alone (a switch's port-to-port
     * latency, {@link SwitchPipeline}).
     */
    void startTx(EgressPort p, int pkt, int frame, long pipelinePs) {
        int wire = frame + wireOverheadBytes;
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
        // record are then fetched from memory in parallel at arrival. At a switch that arbitrates
        // at the head (Ethernet cut-through), a forwarded packet arrives when its first bit is in.
        long arrival = done + p.propagationPs + pipelinePs;
        if (pipeline.headArrival(p.id)) {
            int kind = pkts.kind(pkt);
            if (kind != PacketPool.PAUSE && kind != PacketPool.FC) {
                arrival -= ser;
                // The train of back-to-back heads this one continues, or starts (store reads it).
                if (arrival != p.trainEndPs || p.rateBps != p.trainRateBps) {
                    p.trainFromPs = arrival;
                    p.trainRateBps = p.rateBps;
                }
                p.trainEndPs = arrival + ser;
            } else {
                // A frame that arrives at its last bit ends the train.
                p.trainFromPs = Long.MAX_VALUE;
            }
        }
        events.push(arrival, EV_ARRIVE, pkt, p.id);
        // The end of a frame is an event only when something may wait for the wire: a switch queue
        // that is not empty, or a NIC (its queue pairs generate the next frame).
        if (p.nic != null || p.queuedPackets > 0) {
            events.push(done, EV_TX_DONE, p.id, 0);
            p.txDonePending = true;
        }
    }

    void touch(EgressPort p) {
        p.touched = true;
        touchedPorts.add(p);
        p.utilizationSeries = new TimeSeries(cfg.maxSeriesPoints(), TimeSeries.Merge.MEAN);
    }

    /**
     * Queues packet {@code pkt} of {@code bytes} in class {@code c} of {@code p}; {@code ingress} is
     * the switch port it was admitted through (-1 at a NIC), {@code ect} whether it is ECN-capable.
     */
    void enqueue(EgressPort p, int c, int pkt, int bytes, int ingress, boolean ect) {
        p.offer(c, pkt, bytes, ingress, now, ect);
        p.queuedPackets++;
        wakeAtFrameEnd(p);
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

    /**
     * InfiniBand: queues flow-control packet {@code pkt} in the CONTROL queue of {@code p}, as
     * {@link #enqueue} would (the same queued count, bit and end-of-frame event), but linked through
     * the packet records ({@link EgressPort#fcHead}) instead of the ring: nothing reads a CONTROL
     * queue's byte count, and a flow-control packet's size is fixed.
     */
    void enqueueFc(EgressPort p, int pkt) {
        int tail = p.fcTail;
        pkts.setQueueNext(pkt, -1);
        if (tail < 0) {
            p.fcHead = pkt;
        } else {
            pkts.setQueueNext(tail, pkt);
        }
        p.fcTail = pkt;
        p.nonEmpty |= 1 << EgressPort.CONTROL;
        p.queuedPackets++;
        wakeAtFrameEnd(p);
    }

    /** A packet was queued at {@code p}: the end of the frame on its wire, if one is, serves it. */
    private void wakeAtFrameEnd(EgressPort p) {
        if (!p.txDonePending && p.busyUntilPs > now) {
            events.push(p.busyUntilPs, EV_TX_DONE, p.id, 0);
            p.txDonePending = true;
        }
    }

    /**
     * Removes the front packet of the CONTROL queue (which must not be empty): on InfiniBand a
     * flow-control packet ({@link #enqueueFc}), else a PFC frame from the ring. Its size stays in
     * {@code p}'s polled entry (no ingress, not ECN-capable).
     */
    int popControl(EgressPort p) {
        if (credits == null) {
            return pop(p, EgressPort.CONTROL);
        }
        int pkt = p.fcHead;
        int next = pkts.queueNext(pkt);
        pkts.setQueueNext(pkt, 0);
        p.fcHead = next;
        if (next < 0) {
            p.fcTail = -1;
            p.nonEmpty &= ~(1 << EgressPort.CONTROL);
        }
        p.queuedPackets--;
        p.setPolled(pkt, -1, CreditFlowControl.FC_PACKET_BYTES);
        return pkt;
    }

    /** Removes the front packet of queue {@code c}; its size, ingress and enqueue time stay in {@code p}'s polled entry. */
    int pop(EgressPort p, int c) {
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
        // ect first: a packet that is not ECN-capable (every InfiniBand packet) does not load the curves.
        if (ect && !p.markAtEnqueue && p.wred[c] != null) {
            // At dequeue the packet sees the queue that is still behind it.
            markEcn(p, c, pkt, pcs[p.at(c, EgressPort.QUEUE_BYTES)]);
        }
    }

    /**
     * {@code bytes} of class {@code c} that came in through switch port {@code in} (-1: none) leave
     * the switch: its priority group's headroom is emptied first (as the MMU returns headroom
     * cells before shared ones), the rest goes back to the shared pool. A group that paused its
     * peer resumes it once it is at or below XON (see {@link Pfc#xonThreshold}).
     */
    void releaseIngress(int in, int c, int bytes) {
        if (in < 0) {
            return;
        }
        if (credits != null) {
            // InfiniBand: the blocks go back to the upstream sender as credits.
            pcs[EgressPort.at(in, c, EgressPort.INGRESS_BYTES)] -= bytes;
            credits.released(in, c, bytes);
            return;
        }
        EgressPort ip = ports[in];
        SwitchState sw = ip.sw;
        int shared = bytes;
        if ((ip.headroomUsedMask & (1 << c)) != 0) {
            int k = EgressPort.portClass(in, c);
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
        if ((ip.xoffSentMask & (1 << c)) != 0 && occ <= Pfc.xonThreshold(ip, sw)) {
            pfc.xon(ip, c);
        }
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

    /** The packet being queued as its head came in ({@link #switchArrive} from {@link #arrive}), -1 otherwise. */
    private int headPkt = -1;
    /**
     * Per sending port id: the packet stored at the switch it feeds whose last bit is not yet in
     * ({@link #store}; -1: none; one at most, as the next packet's head comes after it), and the
     * egress port chosen for it.
     */
    private int[] storedPkt;
    private int[] storedOut;
    /**
     * Per sending port id: its stored packet ({@link #storedPkt}) has no {@link #EV_STORED} event:
     * the next packet's head on the wire, scheduled already, comes in at its last bit and queues
     * it ({@link #store}).
     */
    private boolean[] storedByNext;
    /** Per sending port id: when its stored packet's last bit is in. */
    private long[] storedLastBitPs;
    /**
     * The wires with a packet stored for each egress, as a list per egress port id
     * ({@code storingHead}) linked through the wires' ids ({@code storingNext}, {@code storingPrev}):
     * {@link #join} finds there the stored packets that join an egress in the same picosecond.
     */
    private int[] storingHead;
    private int[] storingNext;
    private int[] storingPrev;

    void arrive(int pkt, int fromId) {
        if (downLinkCount > 0 && ports[fromId].down) {
            // The link failed while the frame was on the wire.
            drop(ports[fromId], pkts.priority(pkt), pkt, DropCause.LINK_DOWN);
            int before = storedPkt[fromId];
            if (before >= 0 && storedByNext[fromId]) {
                // The stored packet before it, whose last bit is in now and which has no event of
                // its own (store), is lost too, as EV_STORED would find it.
                unstore(fromId);
                drop(ports[fromId], pkts.priority(before), before, DropCause.LINK_DOWN);
            }
            return;
        }
        int inId = fromId ^ 1;
        EgressPort in = ports[inId];
        byte kind = (byte) pkts.kind(pkt);
        // Link-level packets end at the receiving port (TRIMMED, a data packet's header, travels on).
        if (kind == PacketPool.PAUSE) {
            pfc.receive(in, pkts.priority(pkt), pkts.psn(pkt));
            pkts.free(pkt);
            return;
        }
        if (kind == PacketPool.FC) {
            credits.receive(in, pkt);
            return;
        }
        if (in.nic != null) {
            if (credits != null) {
                // An HCA takes packets at line rate: the blocks are free as soon as they arrive.
                int vl = pkts.priority(pkt);
                int size = pkts.frameBytes(pkt);
                credits.arrived(inId, vl, size);
                credits.released(inId, vl, size);
            }
            nicTransport.receive(in, pkt, kind);
            return;
        }
        int outId = forward(pkt, in, kind);
        if (pipeline.headArrival(fromId)) {
            headIn(pkt, fromId, inId, outId, kind);
            return;
        }
        switchArrive(pkt, inId, outId, kind);
    }

    /**
     * Packet {@code pkt}'s head is in at a cut-through switch (through port {@code inId}, sent by
     * {@code fromId}), which chose its egress {@code outId} from the header. It claims the egress now
     * if the egress is idle, holds nothing, expects no stored packet and its class is not paused,
     * ahead of any packet whose last bit comes in later; otherwise the switch stores it until its
     * last bit. Heads that request the same egress in the same picosecond are granted in the
     * egress's round-robin order ({@link #arbitrate}).
     */
    private void headIn(int pkt, int fromId, int inId, int outId, byte kind) {
        if (storedPkt[fromId] >= 0) {
            // The packet before it on the wire was stored and its last bit is in now, as this
            // head: it joins its queue first (the event for its last bit, at this instant too,
            // may come after this one).
            join(fromId);
        }
        EgressPort out = ports[outId];
        if (!claimable(out, pkt)) {
            store(pkt, fromId, outId);
            return;
        }
        if (!arbitrating && events.hasPendingAt(now) && arbitrate(pkt, fromId, inId, out, kind)) {
            return;
        }
        claim(pkt, inId, out, kind);
    }

    /** Whether packet {@code pkt}'s head may claim egress {@code out} now (idle, empty, nothing stored for it, its class not paused). */
    private boolean claimable(EgressPort out, int pkt) {
        return out.busyUntilPs <= now && out.queuedPackets == 0 && out.storing == 0
                && !out.paused(pkts.priority(pkt), now);
    }

    /** Packet {@code pkt}, in through {@code inId}, claims idle egress {@code out} at its head and starts on it. */
    private void claim(int pkt, int inId, EgressPort out, byte kind) {
        headPkt = pkt;
        switchArrive(pkt, inId, out.id, kind);
        headPkt = -1;
    }

    /** Set while {@link #arbitrate} runs the requests of one instant (they are not arbitrated again). */
    private boolean arbitrating;
    /** Scratch of {@link #arbitrate}: per request, its pending event's index (-1: the packet at hand), ingress, packet and sender. */
    private int[] reqIndex = new int[8];
    private int[] reqIn = new int[8];
    private int[] reqPkt = new int[8];
    private int[] reqFrom = new int[8];

    /**
     * Packet {@code pkt}'s head (in through {@code inId}, from {@code fromId}) may claim idle egress
     * {@code out}: if other heads request the same egress in the same picosecond (pending arrivals
     * of this instant at the same switch, by a head-arbitrated wire, whose egress is {@code out}
     * and whose class is not paused), the egress's round-robin arbiter grants the one whose
     * ingress comes first from its pointer ({@link EgressPort#arbiterNext}, cyclic in port ids),
     * as a switch's output arbiter does, instead of the simulator's event order; the others
     * find the egress taken and are stored, in the same order. Returns false when there is no
     * other request (the packet claims the egress as before); true when the requests, this one
     * included, have been run. Requests whose egress a stateful next-hop choice makes (adaptive
     * routing, random spraying, flowlets) are not known before they run: they keep event order.
     */
    private boolean arbitrate(int pkt, int fromId, int inId, EgressPort out, byte kind) {
        EventQueue q = events;
        if (headsAtPs != now || headsLayout != q.layout()) {
            indexHeads();
        }
        int outId = out.id;
        if (headsStamp[outId] != headsInstant) {
            return false;
        }
        int first = q.firstPending();
        int m = 0;
        for (int e = headsFirst[outId]; e >= 0; e = headsNext[e]) {
            int pos = headsPos[e];
            if (pos < first || q.typeAt(pos) != EV_ARRIVE) {
                // Run already, or cancelled (run by an earlier tie).
                continue;
            }
            int from = q.argAt(pos);
            int rp = q.targetAt(pos);
            if ((downLinkCount > 0 && ports[from].down) || out.paused(pkts.priority(rp), now)
                    || egressAhead(rp, ports[from ^ 1], (byte) pkts.kind(rp)) != outId) {
                continue;
            }
            if (m + 1 == reqIndex.length) {
                reqIndex = java.util.Arrays.copyOf(reqIndex, 2 * m + 2);
                reqIn = java.util.Arrays.copyOf(reqIn, 2 * m + 2);
                reqPkt = java.util.Arrays.copyOf(reqPkt, 2 * m + 2);
                reqFrom = java.util.Arrays.copyOf(reqFrom, 2 * m + 2);
            }
            reqIndex[m] = pos;
            reqIn[m] = from ^ 1;
            reqPkt[m] = rp;
            reqFrom[m] = from;
            m++;
        }
        if (m == 0) {
            return false;
        }
        // The rivals run now (below): their own events run as nothing.
        for (int i = 0; i < m; i++) {
            q.cancelAt(reqIndex[i]);
        }
        reqIndex[m] = -1;
        reqIn[m] = inId;
        reqPkt[m] = pkt;
        reqFrom[m] = fromId;
        m++;
        sortByArbiter(reqIndex, reqIn, reqPkt, reqFrom, m, out);
        // The runs below do not arbitrate again, so the scratch holds.
        arbitrating = true;
        for (int i = 0; i < m; i++) {
            if (reqIndex[i] < 0) {
                if (claimable(out, pkt)) {
                    claim(pkt, inId, out, kind);
                } else {
                    store(pkt, fromId, out.id);
                }
            } else {
                // A rival's arrival event, run now instead of later in this instant (within this
                // event: a live run's single step runs one event, the arbiter's grant of the tie).
                arrive(reqPkt[i], reqFrom[i]);
            }
        }
        arbitrating = false;
        return true;
    }

    /**
     * The heads that may request each egress at the current instant, read once per instant (when
     * {@link #arbitrate} first asks): the pending arrivals at this picosecond by wires into a
     * switch that arbitrates at the head, listed per egress they will take ({@link #egressAhead};
     * none for a stateful choice), by their position among the pending events. An arrival
     * scheduled within the instant after this is not listed (it would need a zero-delay hop).
     */
    private void indexHeads() {
        EventQueue q = events;
        headsAtPs = now;
        headsLayout = q.layout();
        headsInstant++;
        int n = 0;
        int end = q.endPending();
        for (int pos = q.firstPending(); pos < end && q.timeAt(pos) == now; pos++) {
            if (q.typeAt(pos) != EV_ARRIVE) {
                continue;
            }
            int from = q.argAt(pos);
            if (!pipeline.headArrival(from)) {
                continue;
            }
            int rp = q.targetAt(pos);
            int rk = pkts.kind(rp);
            if (rk == PacketPool.PAUSE || rk == PacketPool.FC) {
                continue;
            }
            int e = egressAhead(rp, ports[from ^ 1], (byte) rk);
            if (e < 0) {
                continue;
            }
            if (n == headsPos.length) {
                headsPos = java.util.Arrays.copyOf(headsPos, 2 * n);
                headsNext = java.util.Arrays.copyOf(headsNext, 2 * n);
            }
            if (headsStamp[e] != headsInstant) {
                headsStamp[e] = headsInstant;
                headsFirst[e] = -1;
            }
            headsPos[n] = pos;
            headsNext[n] = headsFirst[e];
            headsFirst[e] = n;
            n++;
        }
    }

    /** {@link #indexHeads}: the instant and the event queue's layout it was read at, and its number. */
    private long headsAtPs = -1;
    private int headsLayout;
    private int headsInstant;
    /** Per egress port id: its first entry, valid when its stamp is the instant's number. */
    private int[] headsFirst;
    private int[] headsStamp;
    /** Per entry: the pending event's position and the egress's next entry (-1: none). */
    private int[] headsPos = new int[64];
    private int[] headsNext = new int[64];

    /**
     * The egress packet {@code pkt} (of {@code kind}), whose head is in at switch port {@code in}
     * and not yet taken, will leave by, as {@link #forward} will choose it, without choosing it:
     * -1 when the choice is stateful (adaptive routing, random spraying, flowlets) and so cannot be
     * read ahead.
     */
    private int egressAhead(int pkt, EgressPort in, byte kind) {
        return statefulChoice(kind) ? -1 : statelessEgress(pkt, in, kind, pkts.hop(pkt) + 1);
    }

    /**
     * A packet whose head is in at a switch that arbitrates at the head but cannot cut through:
     * it is queued at {@code outId} when its last bit is in, one serialization on the ingress
     * link later ({@link #EV_STORED}).
     */
    private void store(int pkt, int fromId, int outId) {
        storedPkt[fromId] = pkt;
        storedOut[fromId] = outId;
        ports[outId].storing++;
        EgressPort w = ports[fromId];
        long lastBit = now + w.serializationPs(pkts.frameBytes(pkt) + wireOverheadBytes);
        storedLastBitPs[fromId] = lastBit;
        int first = storingHead[outId];
        storingNext[fromId] = first;
        storingPrev[fromId] = -1;
        if (first >= 0) {
            storingPrev[first] = fromId;
        }
        storingHead[outId] = fromId;
        if (w.trainFromPs <= now && lastBit < w.trainEndPs && w.rateBps == w.trainRateBps && !eventPerStoredPacket) {
            // The next packet on this wire follows it back to back (its head comes in at this
            // one's last bit), and its arrival was scheduled before this instant: that arrival
            // queues this packet first (headIn), and the event for the last bit, scheduled now,
            // would come after it at the same picosecond and find it queued. So no event.
            storedByNext[fromId] = true;
            return;
        }
        storedByNext[fromId] = false;
        events.push(lastBit, EV_STORED, pkt, fromId);
    }

    /** Tests: every stored packet gets its {@link #EV_STORED} event, as before {@link #store} left some out. */
    private boolean eventPerStoredPacket;

    void setEventPerStoredPacket(boolean on) {
        eventPerStoredPacket = on;
    }

    /** {@link #EV_STORED}: the last bit of stored packet {@code pkt} is in; it joins its egress queue. */
    private void stored(int pkt, int fromId) {
        if (storedPkt[fromId] != pkt) {
            // Queued already, when the next packet's head came in at this instant.
            return;
        }
        if (downLinkCount > 0 && ports[fromId].down) {
            // The link failed while the frame's tail was on the wire.
            unstore(fromId);
            drop(ports[fromId], pkts.priority(pkt), pkt, DropCause.LINK_DOWN);
            return;
        }
        join(fromId);
    }

    /**
     * The packet stored from wire {@code fromId} ({@link #storedPkt}) has its last bit in now: it
     * joins the egress chosen at its head. Stored packets of other wires that join the same egress
     * in the same picosecond (their last-bit events, or the next heads on their wires, pending at
     * this instant) join in the egress's round-robin order ({@link EgressPort#arbiterNext}) instead
     * of the simulator's event order, all now; their pending events then find them gone.
     */
    private void join(int fromId) {
        int outId = storedOut[fromId];
        int m = 0;
        if (ports[outId].storing > 1) {
            // Others stored for the egress (storing counts this one too): those whose last bits are
            // in now join with it; their events (EV_STORED, or the next head on their wire) are
            // pending at this instant, and will find them queued.
            int[] next = storingNext;
            for (int w = storingHead[outId]; w >= 0; w = next[w]) {
                if (w == fromId || storedLastBitPs[w] != now || (downLinkCount > 0 && ports[w].down)) {
                    continue;
                }
                if (m + 1 == joinFrom.length) {
                    joinFrom = java.util.Arrays.copyOf(joinFrom, 2 * m + 2);
                    joinIn = java.util.Arrays.copyOf(joinIn, 2 * m + 2);
                }
                joinFrom[m] = w;
                joinIn[m] = w ^ 1;
                m++;
            }
        }
        if (m == 0) {
            joinNow(fromId);
            return;
        }
        joinFrom[m] = fromId;
        joinIn[m] = fromId ^ 1;
        m++;
        sortByArbiter(joinFrom, joinIn, null, null, m, ports[outId]);
        for (int i = 0; i < m; i++) {
            joinNow(joinFrom[i]);
        }
    }

    /** Scratch of {@link #join}: the wires whose stored packets join an egress at one instant, and their ingress ports. */
    private int[] joinFrom = new int[8];
    private int[] joinIn = new int[8];

    /** The packet stored from wire {@code fromId} joins its egress's queue now. */
    private void joinNow(int fromId) {
        int pkt = storedPkt[fromId];
        int outId = storedOut[fromId];
        unstore(fromId);
        switchArrive(pkt, fromId ^ 1, outId, (byte) pkts.kind(pkt));
    }

    /** Wire {@code fromId}'s stored packet leaves the switch's storing state (queued or lost). */
    private void unstore(int fromId) {
        int outId = storedOut[fromId];
        storedPkt[fromId] = -1;
        ports[outId].storing--;
        int prev = storingPrev[fromId];
        int next = storingNext[fromId];
        if (prev >= 0) {
            storingNext[prev] = next;
        } else {
            storingHead[outId] = next;
        }
        if (next >= 0) {
            storingPrev[next] = prev;
        }
    }

    /**
     * Sorts the {@code m} requests of one instant for egress {@code out} (parallel arrays
     * {@code a} .. {@code d}, ingress port ids in {@code in}; {@code c} and {@code d} may be null) in
     * the order its round-robin arbiter serves them: by the distance of the ingress id from the
     * arbiter's pointer, cyclic over the port ids; then moves the pointer one past the first, so
     * that the ingress served first rotates among the ports that keep tying (McKeown's iSLIP
     * grant pointer). An insertion sort: a handful of requests.
     */
    private void sortByArbiter(int[] a, int[] in, int[] c, int[] d, int m, EgressPort out) {
        int ptr = out.arbiterNext;
        int span = ports.length;
        for (int i = 1; i < m; i++) {
            int va = a[i], vin = in[i], vc = c == null ? 0 : c[i], vd = d == null ? 0 : d[i];
            int dist = Math.floorMod(vin - ptr, span);
            int j = i;
            while (j > 0 && Math.floorMod(in[j - 1] - ptr, span) > dist) {
                a[j] = a[j - 1];
                in[j] = in[j - 1];
                if (c != null) {
                    c[j] = c[j - 1];
                    d[j] = d[j - 1];
                }
                j--;
            }
            a[j] = va;
            in[j] = vin;
            if (c != null) {
                c[j] = vc;
                d[j] = vd;
            }
        }
        out.arbiterNext = in[0] + 1;
    }

    /**
     * Switch {@code ports[inId].sw} takes packet {@code pkt} (of {@code kind}), forwarded to egress
     * {@code outId}: trimming, admission to the buffer (PFC, shared pool), ECN at enqueue, the
     * egress queue, and the wire if the egress is idle.
     */
    private void switchArrive(int pkt, int inId, int outId, byte kind) {
        EgressPort in = ports[inId];
        EgressPort out = ports[outId];
        int c = pkts.priority(pkt);
        // Class state by port id: fetched in parallel with the port objects, not through them.
        int outAt = EgressPort.at(outId, c, 0);
        SwitchState sw = in.sw;
        if (trimming != null && kind == PacketPool.DATA
                && trimming.trims(sw, pcs[outAt + EgressPort.QUEUE_BYTES], pkts.frameBytes(pkt))) {
            // Ultra Ethernet: the buffer would drop it (or the queue is at a fixed trim threshold);
            // its trimmed header goes on at high priority.
            int whole = pkt;
            pkt = trimming.trim(pkt, out);
            if (headPkt == whole) {
                headPkt = pkt;
            }
            c = pkts.priority(pkt);
            outAt = EgressPort.at(outId, c, 0);
        }
        int bytes = pkts.frameBytes(pkt);
        int inAt = EgressPort.at(inId, c, 0);
        if (out.down) {
            if (credits != null) {
                // The switch discards it: its blocks in the ingress buffer are free at once.
                credits.arrived(inId, c, bytes);
                credits.released(inId, c, bytes);
            }
            drop(out, c, pkt, DropCause.LINK_DOWN);
            return;
        }
        if (credits != null) {
            arriveCredited(pkt, inId, out, c, bytes);
            return;
        }
        if ((out.stormedMask & (1 << c)) != 0 && out.watchdogDrops) {
            drop(out, c, pkt, DropCause.WATCHDOG);
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
            head = (in.headroomUsedMask & (1 << c)) != 0 ? pgHeadroom[EgressPort.portClass(inId, c)] : 0;
            if (pcs[inAt + EgressPort.INGRESS_BYTES] - head > threshold || sw.occupiedBytes + bytes > sw.poolBytes) {
                if (head + bytes > in.headroomBytes) {
                    drop(in, c, pkt, DropCause.HEADROOM_OVERFLOW);
                    return;
                }
                toHeadroom = true;
            }
        } else if (!sw.admitsLossy(pcs[outAt + EgressPort.QUEUE_BYTES], bytes)) {
            drop(out, c, pkt, DropCause.BUFFER);
            return;
        }
        long occ = pcs[inAt + EgressPort.INGRESS_BYTES] += bytes;
        if (occ > pcs[inAt + EgressPort.MAX_INGRESS]) {
            pcs[inAt + EgressPort.MAX_INGRESS] = occ;
        }
        if (toHeadroom) {
            head += bytes;
            pgHeadroom[EgressPort.portClass(inId, c)] = head;
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
            pfc.xoff(in, c);
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
     * InfiniBand: a packet the upstream sender had credits for enters ingress {@code inId}'s VL
     * buffer (never beyond what it advertised: {@link CreditFlowControl#arrived} checks) and the
     * egress queue of {@code out}; no shared-pool admission, no PFC, no ECN.
     */
    private void arriveCredited(int pkt, int inId, EgressPort out, int c, int bytes) {
        credits.arrived(inId, c, bytes);
        int inAt = EgressPort.at(inId, c, 0);
        long occ = pcs[inAt + EgressPort.INGRESS_BYTES] += bytes;
        if (occ > pcs[inAt + EgressPort.MAX_INGRESS]) {
            pcs[inAt + EgressPort.MAX_INGRESS] = occ;
        }
        if (ibcc != null && pkts.kind(pkt) == PacketPool.DATA) {
            // IB congestion control: FECN if this port's VL queue ahead of the packet is above the threshold.
            ibcc.atSwitchEgress(out, c, pkt, bytes, pcs[EgressPort.at(out.id, c, EgressPort.QUEUE_BYTES)]);
        }
        enqueue(out, c, pkt, bytes, inId, false);
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
        if (statefulChoice(kind)) {
            int chosen = selector.next(in, pkts.flow(pkt), h, now);
            if (chosen >= 0) {
                return chosen;
            }
            return paths.store[pkts.pathBase(pkt) + h];
        }
        return statelessEgress(pkt, in, kind, h);
    }

    /** Whether a packet of {@code kind} takes its next hop from a stateful choice (adaptive routing, random spraying, flowlets). */
    private boolean statefulChoice(byte kind) {
        return selector != null && !entropySpray && (kind == PacketPool.DATA || kind == PacketPool.TRIMMED);
    }

    /**
     * The egress of packet {@code pkt} (of {@code kind}) at hop {@code h} from switch port {@code in}
     * when no stateful choice makes it: spraying by the packet's entropy, else its flow's path.
     */
    private int statelessEgress(int pkt, EgressPort in, byte kind, int h) {
        if (entropySpray && selector != null && (kind == PacketPool.DATA || kind == PacketPool.TRIMMED)) {
            int chosen = selector.nextByEntropy(in, pkts.flow(pkt), pkts.entropy(pkt));
            if (chosen >= 0) {
                return chosen;
            }
        }
        return paths.store[pkts.pathBase(pkt) + h];
    }

    /** Loses packet {@code pkt} of class {@code c} at {@code at}, counted under {@code cause} (a {@link DropCause}). */
    void drop(EgressPort at, int c, int pkt, int cause) {
        switch (cause) {
            case DropCause.BUFFER -> at.dropsBuffer[c]++;
            case DropCause.HEADROOM_OVERFLOW -> at.dropsHeadroom[c]++;
            case DropCause.WATCHDOG -> at.dropsWatchdog[c]++;
            default -> at.dropsLinkDown[c]++;
        }
        long[] first = cause == DropCause.HEADROOM_OVERFLOW ? at.firstHeadroomDropPs : at.firstDropPs;
        if (first[c] < 0) {
            first[c] = now;
        }
        if (!at.touched) {
            touch(at);
        }
        if (trace != null) {
            trace.drop(now, at.ref(), c, DropCause.name(cause));
        }
        pkts.free(pkt);
    }


    // ----- settings of the mechanisms --------------------------------------------------------------

    /**
     * From a PFC frame's arrival until it takes effect on an egress of {@code gbps} (see
     * {@link Pfc#reactionPs}).
     */
    static long pfcReactionPs(int gbps, long rateBps) {
        return Pfc.reactionPs(gbps, rateBps);
    }

    /**
     * Fails a link at {@code downPs} and, if {@code upPs > downPs}, restores it then. Call before
     * {@link #run()}. Routing reconverges {@link #setReconvergencePs reconvergence} after each change.
     */
    public void scheduleFailure(LinkFailure failure) {
        if (!linkIndex.containsKey(failure.link())) {
            throw new IllegalArgumentException("link " + failure.link().id() + " is not in fabric " + fabric.name());
        }
        linkEvents.failures.add(failure);
    }

    /** Time from a link change until routing uses the new topology (BFD detection plus BGP convergence). */
    public void setReconvergencePs(long ps) {
        if (ps < 0) {
            throw new IllegalArgumentException("reconvergence must be >= 0");
        }
        linkEvents.reconvergencePs = ps;
    }

    /**
     * Queues paused continuously this long, in a cycle of waits, are reported as a deadlock
     * (checked at every telemetry sample); 0 switches detection off. Default 500 us.
     */
    public void setDeadlockThresholdPs(long ps) {
        if (ps < 0) {
            throw new IllegalArgumentException("deadlock threshold must be >= 0");
        }
        telemetry.deadlockThresholdPs = ps;
    }

    List<DeadlockDetector.Deadlock> deadlocksFound() {
        return telemetry.deadlocksFound();
    }

    int reroutes() {
        return linkEvents.reroutes;
    }

    // ----- live view: snapshots out, commands in (LiveControl) -----------------------------------

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
        live.snapshotSink = sink;
        live.snapshotEveryPs = everyPs;
        live.snapshotMinWallNanos = minWallNanos;
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
        live.commands.add(command);
    }

    /** Runs the queued commands; returns how many ran. */
    int applyCommands() {
        return live.applyCommands();
    }

    /**
     * Builds and publishes a snapshot of the state at {@code atPs} (between the last event and the
     * next) outside the interval schedule, e.g. when a live run pauses. Simulator thread only.
     */
    void publishSnapshot(long atPs) {
        live.publishSnapshot(atPs);
    }

    /**
     * Snapshots list every egress port of the fabric, not only those traffic can have reached
     * (see {@link SnapshotBuilder}; bench live compares the two). Call before the first snapshot.
     */
    public void setWholeFabricSnapshots(boolean whole) {
        live.wholeFabricSnapshots = whole;
    }

    /** The live snapshot builder, or null before the first snapshot (its cost counters; LiveRun reads them). */
    SnapshotBuilder snapshotBuilder() {
        return live.snapshots;
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
        return pfc.log;
    }

    /** InfiniBand's credit results per (port, VL); empty in a RoCEv2 run. */
    List<SimResults.CreditResult> creditResults(long endPs) {
        return credits == null ? List.of() : credits.results(endPs);
    }


    // ----- the context the mechanisms see (SimContext) ---------------------------------------------

    /**
     * The run as its mechanisms see it ({@link SimContext}): the time, the trace and the datapath
     * actions each needs, each a call into this simulator; nothing else of it is reachable
     * through the context.
     */
    private final class Context implements SimContext.Nic, SimContext.Ports {
        @Override
        public long now() {
            return now;
        }

        @Override
        public SimTrace trace() {
            return trace;
        }

        @Override
        public void transmit(EgressPort p) {
            Simulator.this.transmit(p);
        }

        @Override
        public void nicTransmit(EgressPort p) {
            nicScheduler.transmit(p);
        }

        @Override
        public void startTx(EgressPort p, int pkt, int frame) {
            Simulator.this.startTx(p, pkt, frame, 0);
        }

        @Override
        public void enqueue(EgressPort p, int c, int pkt, int bytes, int ingress, boolean ect) {
            Simulator.this.enqueue(p, c, pkt, bytes, ingress, ect);
        }

        @Override
        public void enqueueFc(EgressPort p, int pkt) {
            Simulator.this.enqueueFc(p, pkt);
        }

        @Override
        public int pop(EgressPort p, int c) {
            return Simulator.this.pop(p, c);
        }

        @Override
        public int popControl(EgressPort p) {
            return Simulator.this.popControl(p);
        }

        @Override
        public void releaseIngress(int in, int c, int bytes) {
            Simulator.this.releaseIngress(in, c, bytes);
        }

        @Override
        public void drop(EgressPort at, int c, int pkt, int cause) {
            Simulator.this.drop(at, c, pkt, cause);
        }

        @Override
        public void touch(EgressPort p) {
            Simulator.this.touch(p);
        }

        @Override
        public boolean anyLinkDown() {
            return downLinkCount > 0;
        }

        @Override
        public void flowStarted(Flow f) {
            f.started = true;
            flowPhase[f.id] = FLOW_ACTIVE;
            f.startedPs = now;
            f.lastProgressPs = now;
            f.rateSeries = new TimeSeries(cfg.maxSeriesPoints(), TimeSeries.Merge.MEAN);
        }

        @Override
        public void flowDelivered(Flow f) {
            f.done = true;
            flowPhase[f.id] = FLOW_DONE;
            f.finishPs = now;
            flowsRemaining--;
            releaseDependents(f);
        }

        @Override
        public void doneFlowChanged(Flow f) {
            flowPhase[f.id] = FLOW_DONE_CHANGED;
        }

        @Override
        public boolean perPacketRouting() {
            return selector != null;
        }

        @Override
        public int reorderWindowPackets() {
            return routingPolicy.reorderWindowPackets();
        }

        @Override
        public long unloadedPathPs(int[] path, int wireBytes) {
            long t = 0;
            for (int p : path) {
                t += Units.serializationPs(wireBytes, ports[p].lineRateBps) + ports[p].propagationPs
                        + (ports[p].sw != null ? pipeline.latencyPs(ports[p].sw) : 0);
            }
            return t;
        }
    }
}
