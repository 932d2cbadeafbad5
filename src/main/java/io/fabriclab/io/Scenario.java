package io.fabriclab.io;

import java.util.List;

import io.fabriclab.model.Fabric;
import io.fabriclab.sim.LinkFailure;
import io.fabriclab.sim.QosResolver;
import io.fabriclab.sim.SimConfig;
import io.fabriclab.sim.Simulator;
import io.fabriclab.workload.FlowSpec;
import io.fabriclab.workload.Workload;

/**
 * A scenario ready to run: the fabric, QoS in force (profile and overrides applied), the flows of
 * every workload, and the run settings. {@code sha256} is the hash of the scenario file's bytes.
 * {@code transport} is the run's transport with its parameters; {@code warnings} are settings the
 * file gives that the transport ignores (each with file and JSON path). {@code switchLatencyPs} is
 * every switch's port-to-port latency when the scenario sets one ({@code switchLatencyNs}), or -1
 * for each switch model's own (model.SwitchLatency). {@code ibEngine} is an InfiniBand run's
 * subnet-manager routing engine ({@code routing.ibEngine}), or null for the fabric's ECMP routing.
 * {@code infinibandWarnings} are the settings an InfiniBand run of this scenario reads and ignores
 * (its {@code warnings} when the transport is InfiniBand), so {@link #withTransport} can name them.
 * {@code collectives} are the NCCL collectives its workloads declare, by label, a training step's
 * bucket collectives included: what the step's analysis reads their bus bandwidth from, kept from
 * when the step was built (building a whole-cluster step again costs as much as the first time).
 *
 * <p>Variants (another transport, another seed, another run configuration) are made with the
 * {@code with...} methods on these typed values, never by rewriting the file's text; a run is built
 * by the run service ({@code io.fabriclab.app.RunService}) from a scenario and an engine.
 */
public record Scenario(String name, String description, Fabric fabric, String profile, QosResolver qos,
                       List<Workload> workloads, List<FlowSpec> flows, SimConfig config, String sha256,
                       List<LinkFailure> failures, long reconvergencePs, long deadlockThresholdPs,
                       io.fabriclab.sim.RoutingPolicy routing, io.fabriclab.sim.TransportProfile transport,
                       List<InputProblem> warnings, long switchLatencyPs,
                       io.fabriclab.routing.IbRoutingEngine ibEngine, List<InputProblem> infinibandWarnings,
                       java.util.Map<String, io.fabriclab.workload.NcclCollective> collectives) {

    public Scenario {
        collectives = java.util.Map.copyOf(collectives);
        workloads = List.copyOf(workloads);
        flows = List.copyOf(flows);
        failures = List.copyOf(failures);
        warnings = List.copyOf(warnings);
        infinibandWarnings = List.copyOf(infinibandWarnings);
    }

    /** This scenario under another run configuration (seed, duration, telemetry, transport timers). */
    public Scenario withConfig(SimConfig cfg) {
        return new Scenario(name, description, fabric, profile, qos, workloads, flows, cfg, sha256, failures,
                reconvergencePs, deadlockThresholdPs, routing, transport, warnings, switchLatencyPs, ibEngine,
                infinibandWarnings, collectives);
    }

    /** This scenario resolving each port's QoS with {@code resolver}. */
    public Scenario withQos(QosResolver resolver) {
        return new Scenario(name, description, fabric, profile, java.util.Objects.requireNonNull(resolver, "resolver"),
                workloads, flows, config, sha256, failures, reconvergencePs, deadlockThresholdPs, routing, transport,
                warnings, switchLatencyPs, ibEngine, infinibandWarnings, collectives);
    }

    /**
     * A QoS resolver that variants of one scenario share, safe to ask from several runs at once:
     * the scenario reader's resolver caches what it computed per profile and speed in a plain map
     * (sim.SimProfiles), so the variants' runs, built in parallel, ask it one at a time.
     */
    static final class SharedQos implements QosResolver {
        private final QosResolver inner;

        private SharedQos(QosResolver inner) {
            this.inner = inner;
        }

        static QosResolver of(QosResolver q) {
            return q == null || q instanceof SharedQos ? q : new SharedQos(q);
        }

        @Override
        public io.fabriclab.model.QosProfile qosFor(io.fabriclab.model.Port port) {
            synchronized (inner) {
                return inner.qosFor(port);
            }
        }
    }

    /** This scenario under another routing policy (ECMP, spraying, adaptive). */
    public Scenario withRouting(io.fabriclab.sim.RoutingPolicy policy) {
        return new Scenario(name, description, fabric, profile, qos, workloads, flows, config, sha256, failures,
                reconvergencePs, deadlockThresholdPs, java.util.Objects.requireNonNull(policy, "policy"), transport, warnings,
                switchLatencyPs, ibEngine, infinibandWarnings, collectives);
    }

    /** This scenario with another run seed (ECMP source ports, ECN marking); the flows stay as read. */
    public Scenario withSeed(long seed) {
        return withConfig(config.withSeed(seed));
    }

    /** This scenario stopped at {@code durationPs} of simulated time (0: run to completion). */
    public Scenario withDurationPs(long durationPs) {
        return withConfig(config.withDurationPs(durationPs));
    }

    /**
     * This scenario on transport {@code t}, as {@code fabriclab compare} runs it: the same drawing,
     * workloads, QoS, failures, routing and run settings; the transport's parameters are its
     * defaults ({@link #defaultTransport}) unless {@code t} is this scenario's own transport (then
     * its own parameters are kept). Settings of another transport
     * have no meaning on {@code t} and are left out: InfiniBand's VLs, VL buffer and congestion
     * control, Ultra Ethernet's trim threshold, and the subnet manager's routing engine (said to
     * {@code note}). On InfiniBand the settings it ignores are this scenario's warnings
     * ({@link #infinibandWarnings}). The fabric object is shared: a run only reads it.
     */
    public Scenario withTransport(io.fabriclab.model.Transport t, java.util.function.Consumer<String> note) {
        if (t == transportName()) {
            return withQos(SharedQos.of(qos));
        }
        io.fabriclab.sim.TransportProfile p = defaultTransport(t, fabric.mtuBytes());
        io.fabriclab.routing.IbRoutingEngine engine = ibEngine;
        if (engine != null && t != io.fabriclab.model.Transport.INFINIBAND) {
            note.accept(t.jsonName() + ": $.routing.ibEngine applies to InfiniBand's subnet manager only; "
                    + t.displayName() + " routes by the fabric's ECMP");
            engine = null;
        }
        if (p.ib() != null && p.ib().mtuBytes() < io.fabriclab.sim.TransportProfile.of(t).ib().mtuBytes()) {
            note.accept(t.jsonName() + ": the fabric's MTU is " + fabric.mtuBytes() + " B, so InfiniBand packets carry "
                    + p.ib().mtuBytes() + " B of payload (the largest IBTA MTU not above it)");
        }
        List<InputProblem> w = t == io.fabriclab.model.Transport.INFINIBAND ? infinibandWarnings : List.of();
        return new Scenario(name, description, fabric, profile, SharedQos.of(qos), workloads, flows, config, sha256, failures,
                reconvergencePs, deadlockThresholdPs, routing, p, w, switchLatencyPs, engine, infinibandWarnings, collectives);
    }

    /**
     * The default parameters of {@code t} on a fabric of {@code fabricMtuBytes}: for InfiniBand the
     * largest IBTA MTU not above the fabric's (what a scenario naming {@code infiniband} gets when
     * it sets no MTU of its own; ScenarioJson).
     */
    public static io.fabriclab.sim.TransportProfile defaultTransport(io.fabriclab.model.Transport t, int fabricMtuBytes) {
        io.fabriclab.sim.TransportProfile p = io.fabriclab.sim.TransportProfile.of(t);
        if (t != io.fabriclab.model.Transport.INFINIBAND) {
            return p;
        }
        int best = -1;
        for (int m : io.fabriclab.sim.IbFraming.MTUS) {
            if (m <= fabricMtuBytes) {
                best = m;
            }
        }
        return best < 0 ? p : io.fabriclab.sim.TransportProfile.infiniband(p.ib().withMtuBytes(best));
    }

    /** Sampling work FabricLab does in one run at most: sampling instants x (flows + 1). */
    public static final double MAX_SAMPLING_WORK = 1e12;

    /**
     * Why a run under {@code cfg} is refused before it starts, or null. Every sampling instant
     * ({@code horizon / sampleInterval}, the horizon being durationUs, or maxTimeUs for a run to
     * completion) scans every flow and samples each port in use, so the work is at least samples x
     * (flows + 1); and each port in use keeps its utilization and at least one queue depth, up to
     * maxPoints points of 16 bytes (a time and a value) each, which must fit in the Java heap.
     */
    public String telemetryProblem(SimConfig cfg) {
        String sampling = samplingProblem(cfg);
        return sampling != null ? sampling : portTelemetryProblem(cfg);
    }

    /**
     * Why sampling the run under {@code cfg} could never finish, or null: every sampling instant
     * scans every flow, so the work is at least samples x (flows + 1). Either engine.
     */
    public String samplingProblem(SimConfig cfg) {
        long horizon = cfg.durationPs() > 0 ? cfg.durationPs() : cfg.maxTimePs();
        double samples = Math.ceil((double) horizon / cfg.sampleIntervalPs());
        double work = samples * (flows.size() + 1.0);
        if (work > MAX_SAMPLING_WORK) {
            return String.format(java.util.Locale.ROOT, "the run would sample %.3g times (%.6g us every %.6g us), "
                    + "each over %d flows: %.3g samples, more than the %.0g FabricLab takes on", samples,
                    horizon / 1e6, cfg.sampleIntervalPs() / 1e6, flows.size(), work, MAX_SAMPLING_WORK);
        }
        return null;
    }

    /**
     * Why the packet engine's port telemetry under {@code cfg} would not fit in the Java heap, or
     * null: each port in use keeps its utilization and at least one queue depth, up to maxPoints
     * points of 16 bytes. The flow engine keeps its own bounded series (sim.FlowEngine).
     */
    public String portTelemetryProblem(SimConfig cfg) {
        long horizon = cfg.durationPs() > 0 ? cfg.durationPs() : cfg.maxTimePs();
        double samples = Math.ceil((double) horizon / cfg.sampleIntervalPs());
        double portSeries = 2.0 * 2 * fabric.links().size();
        double points = Math.min(samples, cfg.maxSeriesPoints());
        double bytes = portSeries * points * 16;
        long heap = Runtime.getRuntime().maxMemory();
        if (bytes > heap / 2.0) {
            return String.format(java.util.Locale.ROOT, "the port telemetry alone could keep %.3g GB (%.0f series x "
                    + "%.0f points x 16 B), more than half of the %d MB Java heap", bytes / 1e9, portSeries, points,
                    heap >> 20);
        }
        return null;
    }

    /** The transport the scenario chooses ({@code rocev2} unless it says otherwise). */
    public io.fabriclab.model.Transport transportName() {
        return transport.transport();
    }

    /**
     * Why this build cannot simulate the scenario's transport, or null. A scenario naming a
     * transport the simulator does not run is refused, never simulated as another.
     */
    public String transportProblem() {
        if (io.fabriclab.sim.TransportProfile.simulated(transportName())) {
            return null;
        }
        return "$.transport: " + transportName().displayName() + " (" + transportName().jsonName()
                + ") is read and checked but not simulated in this build, which simulates "
                + io.fabriclab.sim.TransportProfile.simulatedNames() + "; nothing was run";
    }

    /**
     * A run of this scenario on {@code engine} under {@code cfg}, failures scheduled; refused
     * (IllegalArgumentException) when too big to record or when this build does not simulate its
     * transport.
     */
    public io.fabriclab.sim.SimRun run(SimConfig cfg, io.fabriclab.sim.Engine engine) {
        return engine == io.fabriclab.sim.Engine.FLOW ? flowEngine(cfg) : simulator(cfg);
    }

    /** A flow-level run of this scenario (io.fabriclab.sim.FlowEngine), failures scheduled. */
    public io.fabriclab.sim.FlowEngine flowEngine(SimConfig cfg) {
        String notSimulated = transportProblem();
        if (notSimulated != null) {
            throw new IllegalArgumentException(notSimulated);
        }
        io.fabriclab.sim.FlowEngine e = new io.fabriclab.sim.FlowEngine(fabric, flows, cfg, transport);
        if (switchLatencyPs >= 0) {
            e.setSwitchLatencyPs(switchLatencyPs);
        }
        e.setReconvergencePs(reconvergencePs);
        failures.forEach(e::scheduleFailure);
        e.setRoutingPolicy(routing);
        if (ibEngine != null) {
            e.setIbRoutingEngine(ibEngine);
        }
        e.reportElsewhere(trainingLabels());
        e.describeNcclCollectives(ncclWorkloads());
        e.describeCollectives(ringWorkloads());
        return e;
    }

    /**
     * A simulator for this scenario, failures scheduled; refused (IllegalArgumentException) when too
     * big to record or when this build does not simulate its transport.
     */
    public Simulator simulator(SimConfig cfg) {
        String notSimulated = transportProblem();
        if (notSimulated != null) {
            throw new IllegalArgumentException(notSimulated);
        }
        String tooBig = telemetryProblem(cfg);
        if (tooBig != null) {
            throw new IllegalArgumentException("$.telemetry: " + tooBig
                    + "; allowed: a longer sampleIntervalUs or a shorter run");
        }
        // The scenario's transport with its parameters: Ultra Ethernet's trim threshold reaches the
        // simulator through the profile; InfiniBand's VL buffer is what every receiver advertises.
        Simulator sim = new Simulator(fabric, flows, cfg, qos, transport);
        if (transport.ib() != null) {
            sim.setVlCreditBytes(transport.ib().vlBufferBytes());
        }
        if (switchLatencyPs >= 0) {
            sim.setSwitchLatencyPs(switchLatencyPs);
        }
        sim.setReconvergencePs(reconvergencePs);
        sim.setDeadlockThresholdPs(deadlockThresholdPs);
        failures.forEach(sim::scheduleFailure);
        sim.setRoutingPolicy(routing);
        if (ibEngine != null) {
            sim.setIbRoutingEngine(ibEngine);
        }
        sim.reportElsewhere(trainingLabels());
        sim.describeNcclCollectives(ncclWorkloads());
        sim.describeCollectives(ringWorkloads());
        return sim;
    }

    /** A training step's many bucket collectives are read by StepAnalysis, not listed one by one. */
    private java.util.function.Predicate<String> trainingLabels() {
        List<String> jobs = workloads.stream().filter(w -> w instanceof io.fabriclab.workload.TrainingJob)
                .map(w -> ":" + ((io.fabriclab.workload.TrainingJob) w).name() + "-").toList();
        return l -> jobs.stream().anyMatch(l::contains);
    }

    private List<io.fabriclab.workload.NcclCollective> ncclWorkloads() {
        return workloads.stream().filter(w -> w instanceof io.fabriclab.workload.NcclCollective)
                .map(w -> (io.fabriclab.workload.NcclCollective) w).toList();
    }

    private List<io.fabriclab.workload.Collective> ringWorkloads() {
        return workloads.stream().filter(w -> w instanceof io.fabriclab.workload.Collective)
                .map(w -> (io.fabriclab.workload.Collective) w).toList();
    }
}
