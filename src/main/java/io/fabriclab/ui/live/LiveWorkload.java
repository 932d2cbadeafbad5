package io.fabriclab.ui.live;

import java.nio.file.Path;

import io.fabriclab.workload.TrainingJob;
import io.fabriclab.workload.WorkloadPreset;

/**
 * A choice of the Workload box: a preset, a live preset, a scenario file, a training step (from
 * the Training Step dialog), or one of the entries that open a chooser ("scenario file…",
 * "training step…").
 */
public record LiveWorkload(WorkloadPreset preset, Path scenario, LivePreset live, TrainingJob training,
                           boolean trainingDialog) {
    /** The entry that opens a file chooser. */
    public static final LiveWorkload CHOOSE_FILE = new LiveWorkload(null, null, null);
    /** The entry that opens the Training Step dialog ({@link TrainingJobDialog}). */
    public static final LiveWorkload TRAINING_DIALOG = new LiveWorkload(null, null, null, null, true);

    public LiveWorkload(WorkloadPreset preset, Path scenario, LivePreset live) {
        this(preset, scenario, live, null, false);
    }

    public static LiveWorkload of(WorkloadPreset p) {
        return new LiveWorkload(p, null, null);
    }

    public static LiveWorkload file(Path p) {
        return new LiveWorkload(null, p, null);
    }

    public static LiveWorkload of(LivePreset p) {
        return new LiveWorkload(null, null, p);
    }

    /** A training step of {@code job} on the open fabric. */
    public static LiveWorkload of(TrainingJob job) {
        return new LiveWorkload(null, null, null, job, false);
    }

    @Override
    public String toString() {
        if (trainingDialog) {
            return "training step…";
        }
        if (training != null) {
            return String.format(java.util.Locale.ROOT, "training: %s (TP %d, PP %d, DP %d%s)", training.model().name(),
                    training.tp(), training.pp(), training.dp(), training.ep() > 1 ? ", EP " + training.ep() : "");
        }
        return preset != null ? preset.label() : live != null ? live.toString()
                : scenario != null ? "scenario: " + scenario.getFileName() : "scenario file…";
    }
}
