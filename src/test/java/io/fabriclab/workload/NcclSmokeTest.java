package io.fabriclab.workload;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.ScaleUp;
import io.fabriclab.sim.SimConfig;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.Simulator;
import io.fabriclab.sim.TestFabrics;

class NcclSmokeTest {
    @Test
    void smoke() {
        Fabric f = TestFabrics.railStar(4, 4, 100, 1.0, null, ScaleUp.DEFAULT, true);
        for (NcclCollective.Op op : NcclCollective.Op.values()) {
            for (NcclCollective.Algorithm a : NcclCollective.Algorithm.values()) {
                if (!a.applies(op)) continue;
                NcclCollective c = new NcclCollective(op, "x", Gpus.all(f), 16 << 20, a, 2, 3);
                List<FlowSpec> t = c.flows(f);
                SimResults r = new Simulator(f, t, SimConfig.defaults()).run();
                long end = r.local() == null ? 0 : r.local().tasks().stream().mapToLong(SimResults.TaskResult::finishPs).max().orElse(0);
                for (SimResults.FlowResult fr : r.flows()) end = Math.max(end, fr.finishPs());
                System.out.printf("%s %s plan=%s tasks=%d stop=%s end=%.1f us%n", op, a, c.plan(f).describe(), t.size(),
                        r.run().stopReason(), end / 1e6);
            }
        }
    }
}
