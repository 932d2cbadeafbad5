package io.fabriclab.ui.live;

import java.nio.file.Path;

import io.fabriclab.workload.WorkloadPreset;

/** A choice of the Workload box: a preset, a live preset, a scenario file, or "choose a scenario file…". */
public record LiveWorkload(WorkloadPreset preset, Path scenario, LivePreset live) {
    /** The entry that opens a file chooser. */
    public static final LiveWorkload CHOOSE_FILE = new LiveWorkload(null, null, null);

    public static LiveWorkload of(WorkloadPreset p) {
        return new LiveWorkload(p, null, null);
    }

    public static LiveWorkload file(Path p) {
        return new LiveWorkload(null, p, null);
    }

    public static LiveWorkload of(LivePreset p) {
        return new LiveWorkload(null, null, p);
    }

    @Override
    public String toString() {
        return preset != null ? preset.label() : live != null ? live.toString()
                : scenario != null ? "scenario: " + scenario.getFileName() : "scenario file…";
    }
}
