package io.fabriclab.sweep;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * One run of a sweep: a point of the design and one of its seeds, with the scenario it runs fully
 * resolved. Immutable and {@link Serializable}, so a distributed runner can ship it to a worker.
 *
 * @param point        index of the design point, 0 to {@code plan.points() - 1}
 * @param seedIndex    index of the seed within the point, 0 to {@code plan.seeds().size() - 1}
 * @param seed         the run seed written into the scenario's {@code seed} field
 * @param values       the parameter values of the point as JSON literals (e.g. {@code 400000},
 *                     {@code 0.2}, {@code "adaptive"}), in the order of {@link SweepPlan#parameterPaths()}
 * @param scenarioJson the resolved scenario: the base scenario with the fabric inlined (an object,
 *                     never a path), every parameter value and the seed set, written as canonical
 *                     JSON (object keys sorted, no whitespace); readable by
 *                     {@code ScenarioJson.parse} without any other file
 * @param hash         the run's key and the name of its result file ({@code runs/<hash>.json}), {@link #key}:
 *                     SHA-256 (lowercase hex) of {@code scenarioJson} in UTF-8 for a packet-level run,
 *                     of {@code "engine: flow\n"} and the JSON for a flow-level one; two runs with the
 *                     same hash are the same simulation and are run once
 * @param engine       the engine the run uses (the plan's)
 */
public record RunSpec(int point, int seedIndex, long seed, List<String> values, String scenarioJson, String hash,
                      io.fabriclab.sim.Engine engine) implements Serializable {
    private static final long serialVersionUID = 2L;

    public RunSpec {
        values = List.copyOf(values);
        Objects.requireNonNull(scenarioJson, "scenarioJson");
        Objects.requireNonNull(hash, "hash");
        engine = engine == null ? io.fabriclab.sim.Engine.PACKET : engine;
    }

    /** A packet-level run. */
    public RunSpec(int point, int seedIndex, long seed, List<String> values, String scenarioJson, String hash) {
        this(point, seedIndex, seed, values, scenarioJson, hash, io.fabriclab.sim.Engine.PACKET);
    }

    /**
     * A run's key: the SHA-256 of its scenario JSON (packet level: the keys of sweeps run before
     * engines were named stay valid), or of {@code "engine: flow\n"} and the JSON (flow level).
     */
    public static String key(String scenarioJson, io.fabriclab.sim.Engine engine) {
        return engine == io.fabriclab.sim.Engine.FLOW ? SweepJson.sha256("engine: flow\n" + scenarioJson)
                : SweepJson.sha256(scenarioJson);
    }
}
