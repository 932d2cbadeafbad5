package io.fabriclab.ui.live;

import java.nio.file.Path;

import io.fabriclab.model.Transport;
import io.fabriclab.sim.Engine;
import io.fabriclab.workload.TrainingJob;
import io.fabriclab.workload.WorkloadPreset;

/**
 * What the run panel asks for: a workload preset (or a scenario file), the transport, the QoS
 * profile, how long, the seed and the sizes.
 *
 * @param preset            the workload, or null when {@code scenarioFile} is set
 * @param scenarioFile      a scenario JSON run against the open fabric (its own workloads and QoS), or null
 * @param profile           named simulator profile (SimProfiles) applied over the fabric's QoS; null = the fabric's own
 * @param durationUs        stop after this much simulated time; 0 = run until every flow completes
 * @param seed              seeds ECMP ports, ECN marking and the permutation
 * @param bytes             bytes per sender (incast, permutation) or the collective's size S
 * @param fanIn             incast senders
 * @param snapshotIntervalUs simulated time between snapshots and the stride of an interval step
 * @param loadPercent       target load of the background preset, percent of each NIC's line rate
 * @param transport         the run's transport; a scenario file's own {@code transport} gives way to it
 *                          (as {@code fabriclab compare} runs a scenario under each transport)
 * @param training          a training step (the Training Step dialog) run instead of a preset or a
 *                          scenario, or null; its sizes are its own (size, senders and load do not apply)
 * @param engine            the engine: packet (the live view animates it) or flow (run to its end through
 *                          the run service and shown as a finished run: docs/live-view.md)
 */
public record RunSettings(WorkloadPreset preset, Path scenarioFile, String profile, long durationUs, long seed,
                          long bytes, int fanIn, long snapshotIntervalUs, double loadPercent, Transport transport,
                          TrainingJob training, Engine engine) {

    /** Settings of a packet-level run. */
    public RunSettings(WorkloadPreset preset, Path scenarioFile, String profile, long durationUs, long seed,
                       long bytes, int fanIn, long snapshotIntervalUs, double loadPercent, Transport transport,
                       TrainingJob training) {
        this(preset, scenarioFile, profile, durationUs, seed, bytes, fanIn, snapshotIntervalUs, loadPercent, transport,
                training, Engine.PACKET);
    }

    /** Settings of a preset or scenario run under {@code transport}. */
    public RunSettings(WorkloadPreset preset, Path scenarioFile, String profile, long durationUs, long seed,
                       long bytes, int fanIn, long snapshotIntervalUs, double loadPercent, Transport transport) {
        this(preset, scenarioFile, profile, durationUs, seed, bytes, fanIn, snapshotIntervalUs, loadPercent, transport,
                null);
    }

    /** Settings of a RoCEv2 run (the default transport). */
    public RunSettings(WorkloadPreset preset, Path scenarioFile, String profile, long durationUs, long seed,
                       long bytes, int fanIn, long snapshotIntervalUs, double loadPercent) {
        this(preset, scenarioFile, profile, durationUs, seed, bytes, fanIn, snapshotIntervalUs, loadPercent,
                Transport.ROCEV2);
    }

    public RunSettings {
        if (engine == null) {
            throw new IllegalArgumentException("Engine: choose one of " + Engine.names());
        }
        if (transport == null) {
            throw new IllegalArgumentException("Transport: choose one of " + Transport.allowedNames());
        }
        if (preset == null && scenarioFile == null && training == null) {
            throw new IllegalArgumentException("choose a workload or a scenario file");
        }
        if (training != null && (preset != null || scenarioFile != null)) {
            throw new IllegalArgumentException("a training step runs alone: no preset or scenario file with it");
        }
        if (durationUs < 0 || bytes <= 0 || fanIn < 1 || snapshotIntervalUs <= 0) {
            throw new IllegalArgumentException("duration >= 0, size > 0, fan-in >= 1 and snapshot interval > 0 are required");
        }
        if (!(loadPercent > 0 && loadPercent <= 100)) {
            throw new IllegalArgumentException("Load (%): must be more than 0 and at most 100, got " + loadPercent);
        }
    }

    /** An incast of 8 senders x 2 MB under the fabric's own QoS, to completion, seed 1, snapshots every 5 us. */
    public static RunSettings incast() {
        return new RunSettings(WorkloadPreset.INCAST, null, null, 0, 1, 2_000_000, 8, 5, 50);
    }

    public RunSettings withPreset(WorkloadPreset p) {
        return new RunSettings(p, null, profile, durationUs, seed, bytes, fanIn, snapshotIntervalUs, loadPercent, transport,
                null, engine);
    }

    public RunSettings withScenario(Path file) {
        return new RunSettings(null, file, profile, durationUs, seed, bytes, fanIn, snapshotIntervalUs, loadPercent, transport,
                null, engine);
    }

    /** The same settings running {@code job} (a training step) instead of the preset or scenario. */
    public RunSettings withTraining(TrainingJob job) {
        return new RunSettings(null, null, profile, durationUs, seed, bytes, fanIn, snapshotIntervalUs, loadPercent,
                transport, job, engine);
    }

    public RunSettings withProfile(String p) {
        return new RunSettings(preset, scenarioFile, p, durationUs, seed, bytes, fanIn, snapshotIntervalUs, loadPercent, transport, training, engine);
    }

    public RunSettings withBytes(long b) {
        return new RunSettings(preset, scenarioFile, profile, durationUs, seed, b, fanIn, snapshotIntervalUs, loadPercent, transport, training, engine);
    }

    public RunSettings withDurationUs(long d) {
        return new RunSettings(preset, scenarioFile, profile, d, seed, bytes, fanIn, snapshotIntervalUs, loadPercent, transport, training, engine);
    }

    public RunSettings withSeed(long s) {
        return new RunSettings(preset, scenarioFile, profile, durationUs, s, bytes, fanIn, snapshotIntervalUs, loadPercent, transport, training, engine);
    }

    public RunSettings withFanIn(int f) {
        return new RunSettings(preset, scenarioFile, profile, durationUs, seed, bytes, f, snapshotIntervalUs, loadPercent, transport, training, engine);
    }

    public RunSettings withTransport(Transport t) {
        return new RunSettings(preset, scenarioFile, profile, durationUs, seed, bytes, fanIn, snapshotIntervalUs,
                loadPercent, t, training, engine);
    }

    /** The same settings on {@code e}. */
    public RunSettings withEngine(Engine e) {
        return new RunSettings(preset, scenarioFile, profile, durationUs, seed, bytes, fanIn, snapshotIntervalUs,
                loadPercent, transport, training, e);
    }

    /** What the run is, for titles and the recording. */
    public String describe() {
        String what = training != null ? training.describe() : preset != null ? preset.label()
                : "scenario " + scenarioFile.getFileName();
        return what + ", " + transport.displayName() + ", " + (profile == null ? "fabric QoS" : profile) + ", seed " + seed
                + (durationUs == 0 ? ", to completion" : ", " + durationUs + " us")
                + (engine == Engine.FLOW ? ", flow engine" : "");
    }
}
