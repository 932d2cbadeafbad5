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
 */
public record Scenario(String name, String description, Fabric fabric, String profile, QosResolver qos,
                       List<Workload> workloads, List<FlowSpec> flows, SimConfig config, String sha256,
                       List<LinkFailure> failures, long reconvergencePs, long deadlockThresholdPs,
                       io.fabriclab.sim.RoutingPolicy routing, io.fabriclab.sim.TransportProfile transport,
                       List<InputProblem> warnings, long switchLatencyPs,
                       io.fabriclab.routing.IbRoutingEngine ibEngine) {

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
