package io.fabriclab.ui.live;

import java.nio.file.Path;

import io.fabriclab.workload.WorkloadPreset;

/**
 * What the run panel asks for: a workload preset (or a scenario file), the QoS profile, how long,
 * the seed and the sizes.
 *
 * @param preset            the workload, or null when {@code scenarioFile} is set
 * @param scenarioFile      a scenario JSON run against the open fabric (its own workloads and QoS), or null
 * @param profile           named simulator profile (SimProfiles) applied over the fabric's QoS; null = the fabric's own
 * @param durationUs        stop after this much simulated time; 0 = run until every flow completes
 * @param seed              seeds ECMP ports, ECN marking and the permutation
 * @param bytes             bytes per sender (incast, permutation) or the collective's size S
 * @param fanIn             incast senders
 * @param snapshotIntervalUs simulated time between snapshots and the stride of an interval step
 */
public record RunSettings(WorkloadPreset preset, Path scenarioFile, String profile, long durationUs, long seed,
                          long bytes, int fanIn, long snapshotIntervalUs) {

    public RunSettings {
        if (preset == null && scenarioFile == null) {
            throw new IllegalArgumentException("choose a workload or a scenario file");
        }
        if (durationUs < 0 || bytes <= 0 || fanIn < 1 || snapshotIntervalUs <= 0) {
            throw new IllegalArgumentException("duration >= 0, size > 0, fan-in >= 1 and snapshot interval > 0 are required");
        }
    }

    /** An incast of 8 senders x 2 MB under the fabric's own QoS, to completion, seed 1, snapshots every 5 us. */
    public static RunSettings incast() {
        return new RunSettings(WorkloadPreset.INCAST, null, null, 0, 1, 2_000_000, 8, 5);
    }

    public RunSettings withPreset(WorkloadPreset p) {
        return new RunSettings(p, null, profile, durationUs, seed, bytes, fanIn, snapshotIntervalUs);
    }

    public RunSettings withScenario(Path file) {
        return new RunSettings(null, file, profile, durationUs, seed, bytes, fanIn, snapshotIntervalUs);
    }

    public RunSettings withProfile(String p) {
        return new RunSettings(preset, scenarioFile, p, durationUs, seed, bytes, fanIn, snapshotIntervalUs);
    }

    public RunSettings withBytes(long b) {
        return new RunSettings(preset, scenarioFile, profile, durationUs, seed, b, fanIn, snapshotIntervalUs);
    }

    public RunSettings withDurationUs(long d) {
        return new RunSettings(preset, scenarioFile, profile, d, seed, bytes, fanIn, snapshotIntervalUs);
    }

    public RunSettings withSeed(long s) {
        return new RunSettings(preset, scenarioFile, profile, durationUs, s, bytes, fanIn, snapshotIntervalUs);
    }

    public RunSettings withFanIn(int f) {
        return new RunSettings(preset, scenarioFile, profile, durationUs, seed, bytes, f, snapshotIntervalUs);
    }

    /** What the run is, for titles and the recording. */
    public String describe() {
        String what = preset != null ? preset.label() : "scenario " + scenarioFile.getFileName();
        return what + ", " + (profile == null ? "fabric QoS" : profile) + ", seed " + seed
                + (durationUs == 0 ? ", to completion" : ", " + durationUs + " us");
    }
}
