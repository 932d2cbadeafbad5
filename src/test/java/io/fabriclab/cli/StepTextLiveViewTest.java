package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.ScaleUp;
import io.fabriclab.model.Transport;
import io.fabriclab.report.TransportRuns;
import io.fabriclab.sim.QosResolver;
import io.fabriclab.sim.SimConfig;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.StepAnalysis;
import io.fabriclab.sim.TestFabrics;
import io.fabriclab.ui.live.TrainingRun;
import io.fabriclab.workload.TrainingJob;

/**
 * The live view says a training step's analysis in the words {@code fabriclab simulate} prints:
 * the UI may not call the CLI (ArchitectureTest), so it has its own formatter, kept the same here.
 */
class StepTextLiveViewTest {
    @Test
    void theLiveViewsStepTextIsTheClis() {
        Fabric f = TestFabrics.railStar(2, 4, 400, 1.0, null, ScaleUp.DEFAULT, false);
        TrainingJob.Model m = new TrainingJob.Model("tiny", 10_000_000, 10_000_000, 0, 4, 256, 256, 8, 1, 0, 0);
        TrainingJob job = new TrainingJob("tiny", m, 4, 1, 2, 1, 0, 20, true, 5_000_000, false, 4);
        TrainingJob.Built b = job.build(f);
        Fabric copy = f.copy();
        SimResults r = TransportRuns.simulator(copy, b.tasks(), SimConfig.defaults(), QosResolver.of(copy),
                Transport.ROCEV2).run();
        StepAnalysis.Result a = StepAnalysis.of(b.tasks(), job.name(), r, job.tokensPerStep(), b.collectives());
        assertTrue(a.completed());
        assertTrue(!a.heldBy().isEmpty() && !a.communication().isEmpty(), "every part of the text is exercised");
        assertEquals(StepText.training(job, a), TrainingRun.text(job, a));
        // A step that did not complete.
        SimResults cut = TransportRuns.simulator(f.copy(), b.tasks(), SimConfig.defaults().withDurationPs(1_000_000),
                QosResolver.of(f), Transport.ROCEV2).run();
        StepAnalysis.Result partial = StepAnalysis.of(b.tasks(), job.name(), cut, job.tokensPerStep(), b.collectives());
        assertEquals(StepText.training(job, partial), TrainingRun.text(job, partial));
    }
}
