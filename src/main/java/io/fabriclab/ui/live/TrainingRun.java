package io.fabriclab.ui.live;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Units;
import io.fabriclab.report.TransportRuns;
import io.fabriclab.sim.QosResolver;
import io.fabriclab.sim.SimConfig;
import io.fabriclab.sim.SimProfiles;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.Simulator;
import io.fabriclab.sim.StepAnalysis;
import io.fabriclab.workload.FlowSpec;
import io.fabriclab.workload.NcclCollective;
import io.fabriclab.workload.TrainingJob;

/**
 * A training step in the live view: the job's tasks (network flows, NVLink transfers and compute
 * intervals) on the simulated copy of the fabric, as {@code fabriclab simulate --workload
 * training:MODEL} runs them (the job's collectives reported by the step analysis, not in the
 * results' collective list; the time limit ten times the step's compute, at least the default
 * second), and, once the run has ended, its {@link StepAnalysis} (step time, exposed
 * communication, tokens/s, critical path) as text, in the words {@code fabriclab simulate} prints
 * it (the CLI's own formatter is below the UI's reach, docs/architecture.md; CliStepTextTest keeps
 * the two the same).
 */
public final class TrainingRun {
    private final TrainingJob job;
    private final List<FlowSpec> tasks;
    private final Map<String, NcclCollective> collectives;
    private StepAnalysis.Result result;

    private TrainingRun(TrainingJob job, TrainingJob.Built built) {
        this.job = job;
        this.tasks = built.tasks();
        this.collectives = built.collectives();
    }

    /** Builds the session of {@code settings.training()} on {@code copy}; a job that cannot run throws IllegalArgumentException. */
    static LiveSession session(Fabric drawn, Fabric copy, RunSettings settings, long recordingBytes) {
        TrainingJob job = settings.training();
        String problem = job.problem(copy);
        if (problem != null) {
            throw new IllegalArgumentException("Training step: " + problem);
        }
        TrainingJob.Built built = job.build(copy);
        QosResolver qos = settings.profile() == null ? QosResolver.of(copy)
                : SimProfiles.resolver(copy, settings.profile(), null);
        SimConfig cfg = SimConfig.defaults().withSeed(settings.seed())
                .withDurationPs(settings.durationUs() * Units.PS_PER_US).withMaxTimePs(maxTimePs(job));
        long end = cfg.durationPs() > 0 ? cfg.durationPs() : cfg.maxTimePs();
        Simulator sim = TransportRuns.simulator(copy, built.tasks(), cfg, qos, settings.transport());
        // The job's collectives are the step analysis's to report (as a training scenario's are).
        String ofJob = ":" + job.name() + "-";
        sim.reportElsewhere(l -> l.contains(ofJob));
        LiveSession s = new LiveSession(drawn, copy, settings, built.tasks(), sim, end,
                settings.profile() == null ? "fabric QoS" : settings.profile(), recordingBytes);
        TrainingRun training = new TrainingRun(job, built);
        s.setTraining(training);
        // Analysed on the simulator's thread as the run ends (a large step's graph takes seconds),
        // never on the FX thread, which only shows it once it is there.
        training.analysis = s.run().result().thenApply(training::compute);
        return s;
    }

    static long maxTimePs(TrainingJob job) {
        return StepAnalysis.maxTimePs(job);
    }

    private java.util.concurrent.CompletableFuture<StepAnalysis.Result> analysis;

    /** Whether the analysis is there (or the run failed): the FX thread waits for this to show the end. */
    public boolean analysed() {
        return analysis == null || analysis.isDone();
    }

    public TrainingJob job() {
        return job;
    }

    /** Every task of the step, in the order the simulator got them (network flows are a subset). */
    public List<FlowSpec> tasks() {
        return tasks;
    }

    /**
     * Analyses the step from the run's results (once; later calls return the same): what the
     * simulator's thread computed as the run ended when it is there, else computed here.
     */
    public synchronized StepAnalysis.Result analyse(SimResults r) {
        if (result == null && r != null) {
            StepAnalysis.Result ready = analysis != null && analysis.isDone() && !analysis.isCompletedExceptionally()
                    ? analysis.join() : null;
            result = ready != null ? ready : compute(r);
        }
        return result;
    }

    private StepAnalysis.Result compute(SimResults r) {
        return StepAnalysis.of(tasks, job.name(), r, job.tokensPerStep(), collectives);
    }

    /** The analysis, or null before the run has ended. */
    public synchronized StepAnalysis.Result result() {
        return result;
    }

    /** The analysis as {@code fabriclab simulate} prints it, or null before the run has ended. */
    public synchronized String text() {
        return result == null ? null : text(job, result).stripTrailing();
    }

    /** A training step's analysis as text: the job, the step and its parts, communication by kind, the critical path. */
    public static String text(TrainingJob job, StepAnalysis.Result a) {
        return StepAnalysis.text(job, a);
    }

    /** One line: step time, exposed communication, tokens/s (or that the step did not complete); null before the end. */
    public synchronized String headline() {
        if (result == null) {
            return null;
        }
        if (!result.completed()) {
            return "the training step did not complete within the run";
        }
        return String.format(Locale.ROOT, "training step %.3f ms, exposed communication %.3f ms (%.1f %%), %,.0f tokens/s",
                result.stepPs() / 1e9, result.exposedCommPs() / 1e9, 100 * result.exposedShare(),
                result.tokensPerSecond());
    }
}
