package io.fabriclab.cli;

import java.util.List;
import java.util.Locale;

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
    static StepAnalysis.Result analyze(TrainingJob job, Fabric fabric, List<FlowSpec> all, SimResults r) {
        return StepAnalysis.of(all, job.name(), r, job.tokensPerStep(), job.build(fabric).collectives());
    }

    /** Lines for every NCCL collective and training job among {@code workloads}. */
    static String of(List<Workload> workloads, Fabric fabric, List<FlowSpec> all, SimResults r) {
        StringBuilder b = new StringBuilder();
        for (Workload w : workloads) {
            if (w instanceof NcclCollective c) {
                StepAnalysis.CollectiveRun run = StepAnalysis.collective(all, r, c, c.plan(fabric).describe());
                b.append(String.format(Locale.ROOT, "%s: %s; %s%n", run.label(), run.plan(), run.completed()
                        ? String.format(Locale.ROOT, "%.1f us, algbw %.2f GB/s, busbw %.2f GB/s", run.timePs() / 1e6,
                        run.algbwGBps(), run.busbwGBps()) : "did not complete"));
            } else if (w instanceof TrainingJob job) {
                b.append(training(job, analyze(job, fabric, all, r)));
            }
        }
        return b.toString();
    }

    static String training(TrainingJob job, StepAnalysis.Result a) {
        StringBuilder b = new StringBuilder();
        b.append(job.describe()).append(String.format(Locale.ROOT, ", compute %.1f us per micro-batch%n",
                job.computePsPerMicroBatch() / 1e6));
        if (!a.completed()) {
            b.append("  the step did not complete within the run\n");
            return b.toString();
        }
        b.append(String.format(Locale.ROOT, "  step %.3f ms: compute %.3f ms, pipeline bubble %.3f ms, exposed "
                        + "communication %.3f ms (%.1f %%); GPUs idle %.1f %%; %,.0f tokens/s%n",
                a.stepPs() / 1e9, a.computePs() / 1e9, a.bubblePs() / 1e9, a.exposedCommPs() / 1e9,
                100 * a.exposedShare(), 100 * a.gpuIdleShare(), a.tokensPerSecond()));
        for (StepAnalysis.CommResult c : a.communication()) {
            b.append(String.format(Locale.ROOT, "  %s: %d transfers, %.1f MB%s%n", c.kind(), c.transfers(), c.bytes() / 1e6,
                    c.meanBusbwGBps() > 0 ? String.format(Locale.ROOT, ", mean busbw %.2f GB/s", c.meanBusbwGBps()) : ""));
        }
        b.append(String.format(Locale.ROOT, "  critical path: compute %.3f ms, NVLink %.3f ms, network %.3f ms%n",
                a.criticalComputePs() / 1e9, a.criticalNvlinkPs() / 1e9, a.criticalNetworkPs() / 1e9));
        for (StepAnalysis.CriticalTransfer t : a.heldBy()) {
            b.append(String.format(Locale.ROOT, "    held by %s %s -> %s (%.1f MB): %.1f us%n", t.label(), t.src(), t.dst(),
                    t.bytes() / 1e6, t.chargedPs() / 1e6));
        }
        return b.toString();
    }
}
