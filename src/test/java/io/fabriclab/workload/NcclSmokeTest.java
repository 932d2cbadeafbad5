package io.fabriclab.workload;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.ScaleUp;
import io.fabriclab.sim.SimConfig;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.Simulator;
import io.fabriclab.sim.StepAnalysis;
import io.fabriclab.sim.TestFabrics;

class NcclSmokeTest {
    @Test
    void smoke() {
        Fabric f = TestFabrics.railStar(4, 4, 100, 1.0, null, ScaleUp.DEFAULT, true);
        TrainingJob.Model m = new TrainingJob.Model("t", 1_000_000_000L, 1_000_000_000L, 0, 8, 1024, 1024, 32, 1, 0, 0);
        for (boolean overlap : new boolean[] {true, false}) {
            TrainingJob job = new TrainingJob("job", m, 4, 2, 2, 1, 400, 0, overlap, 25_000_000, false, 4);
            TrainingJob.Built b = job.build(f);
            SimResults r = new Simulator(f, b.tasks(), SimConfig.defaults()).run();
            StepAnalysis.Result a = StepAnalysis.of(b.tasks(), 0, b.tasks().size(), r, job.tokensPerStep(), b.collectives());
            System.out.println("overlap " + overlap + " tasks " + b.tasks().size() + " stop " + r.run().stopReason() + " " + a);
        }
    }
}
