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
 */
public record Scenario(String name, String description, Fabric fabric, String profile, QosResolver qos,
                       List<Workload> workloads, List<FlowSpec> flows, SimConfig config, String sha256,
                       List<LinkFailure> failures, long reconvergencePs, long deadlockThresholdPs,
                       io.fabriclab.sim.RoutingPolicy routing) {

    /** A simulator for this scenario, failures scheduled. */
    public Simulator simulator(SimConfig cfg) {
        Simulator sim = new Simulator(fabric, flows, cfg, qos);
        sim.setReconvergencePs(reconvergencePs);
        sim.setDeadlockThresholdPs(deadlockThresholdPs);
        failures.forEach(sim::scheduleFailure);
        sim.setRoutingPolicy(routing);
        sim.describeCollectives(workloads.stream().filter(w -> w instanceof io.fabriclab.workload.Collective)
                .map(w -> (io.fabriclab.workload.Collective) w).toList());
        return sim;
    }
}
