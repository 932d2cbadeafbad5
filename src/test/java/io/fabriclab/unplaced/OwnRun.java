package io.fabriclab.unplaced;

import io.fabriclab.io.Scenario;
import io.fabriclab.sim.SimResults;

/**
 * A test fixture for ArchitectureTest: a class that builds a run itself from a scenario (what
 * simulate, compare, the sweep runner and the report each once did) instead of asking the run
 * service. Never used; the rule must find it.
 */
public final class OwnRun {
    private OwnRun() {
    }

    static SimResults run(Scenario s) {
        return s.simulator(s.config()).run();
    }
}
