package io.fabriclab.cli;

import java.util.List;
import java.util.Locale;

import io.fabriclab.io.Scenario;
import io.fabriclab.model.Fabric;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.StepAnalysis;
import io.fabriclab.workload.FlowSpec;
import io.fabriclab.workload.NcclCollective;
import io.fabriclab.workload.TrainingJob;
import io.fabriclab.workload.Workload;

/** What a run says about its NCCL collectives and training steps, as text (simulate, compare). */
final class StepText {
    private StepText() {
    }

    /** One training job's analysis. */
    static StepAnalysis.Result analyze(TrainingJob job, Scenario scenario, SimResults r) {
        return StepAnalysis.of(scenario.flows(), job.name(), r, job.tokensPerStep(), scenario.collectives());
    }

    /**
     * Lines for every NCCL collective and training job of {@code scenario}, with training steps
     * already analysed in {@code done}.
     */
    static String of(Scenario scenario, SimResults r, java.util.Map<TrainingJob, StepAnalysis.Result> done) {
        Fabric fabric = scenario.fabric();
        List<FlowSpec> all = scenario.flows();
        StringBuilder b = new StringBuilder();
        for (Workload w : scenario.workloads()) {
            if (w instanceof NcclCollective c) {
                // The results' own entry (sim.ResultsBuilder: its flows and NVLink transfers, S as declared).
                SimResults.CollectiveResult run = r.collective(c.op().jsonName(), c.name());
                boolean completed = run != null && run.finishPs() >= 0;
                b.append(String.format(Locale.ROOT, "%s: %s; %s%n", c.label(), c.plan(fabric).describe(), completed
                        ? String.format(Locale.ROOT, "%.1f us, algbw %.2f GB/s, busbw %.2f GB/s", run.timePs() / 1e6,
                        run.algbwGBps(), run.busbwGBps()) : "did not complete"));
            } else if (w instanceof TrainingJob job) {
                StepAnalysis.Result a = done.get(job);
                b.append(training(job, a != null ? a : analyze(job, scenario, r)));
                if (all.stream().anyMatch(f -> f.id().contains("/steady/") && f.label().contains(":" + job.name() + "-"))) {
                    b.append(String.format(Locale.ROOT, "  rings in their steady state: step by step the job would "
                            + "need more than %,d tasks (docs/model.md, Steady rings)%n", TrainingJob.STEP_BY_STEP_TASKS));
                }
            }
        }
        return b.toString();
    }

    static String training(TrainingJob job, StepAnalysis.Result a) {
        return StepAnalysis.text(job, a);
    }
}
