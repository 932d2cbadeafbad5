package io.fabriclab.io;

import java.util.List;

import io.fabriclab.model.Fabric;
import io.fabriclab.sim.QosResolver;
import io.fabriclab.sim.SimConfig;
import io.fabriclab.workload.FlowSpec;
import io.fabriclab.workload.Workload;

/**
 * A scenario ready to run: the fabric, QoS in force (profile and overrides applied), the flows of
 * every workload, and the run settings. {@code sha256} is the hash of the scenario file's bytes.
 */
public record Scenario(String name, String description, Fabric fabric, String profile, QosResolver qos,
                       List<Workload> workloads, List<FlowSpec> flows, SimConfig config, String sha256) {
}
