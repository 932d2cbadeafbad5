package io.fabriclab.app;

import java.util.List;

import io.fabriclab.io.Scenario;
import io.fabriclab.sim.Engine;
import io.fabriclab.sim.FocusRun;
import io.fabriclab.sim.SimConfig;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.Simulator;

/**
 * Builds the focus run of a finished flow-level run ({@link FocusRun}; docs/model.md, "Focus run")
 * as every run is built (a {@link RunService.Run}): the scenario's fabric, QoS, transport, routing,
 * failures and switch latency, over the flows that cross the focus, on the packet engine, with the
 * flow run's UDP ports and the background applied. {@code simulate --focus} and the app's flow-run
 * window both come here.
 */
public final class FocusRuns {
    private FocusRuns() {
    }

    /** A focus run built and ready: run it once on the calling thread, cancel it from any thread. */
    public record Prepared(FocusRun.Plan plan, RunService.Run run, SimResults flowRun) {
        /** Runs the packet engine and compares its results with the flow run's. */
        public FocusRun.Result run(Simulator.Progress progress) {
            SimResults packet = run.run(progress);
            return FocusRun.compare(plan, flowRun, packet);
        }

        public void cancel() {
            run.cancel();
        }
    }

    /**
     * The focus run of {@code focus} (a link, device, "unit N" or "pod N": {@link FocusRun#resolve})
     * after {@code flowRun}, the flow-level run of {@code scenario} under {@code cfg}. When other
     * flows share the focus flows' links, the flow-level run is run once more here (the calling
     * thread) to follow their rates: call it off the FX thread.
     *
     * @throws IllegalArgumentException an unknown focus (naming the forms allowed), a focus no flow
     *                                  crosses, or a run the packet engine refuses (its reason)
     */
    public static Prepared prepare(Scenario scenario, SimConfig cfg, SimResults flowRun, String focus) {
        FocusRun.Focus f = FocusRun.resolve(scenario.fabric(), focus);
        FocusRun.Plan plan = FocusRun.plan(scenario.fabric(), scenario.flows(), flowRun, f, () -> scenario.flowEngine(cfg));
        // The focus flows only: no workload (a collective of which only some flows run would be
        // reported wrongly), the rest of the scenario as it is.
        Scenario focused = new Scenario(scenario.name() + " (focus " + f.describe() + ")", scenario.description(),
                scenario.fabric(), scenario.profile(), scenario.qos(), List.of(), plan.flows(), cfg, scenario.sha256(),
                scenario.failures(), scenario.reconvergencePs(), scenario.deadlockThresholdPs(), scenario.routing(),
                scenario.transport(), scenario.warnings(), scenario.switchLatencyPs(), scenario.ibEngine(),
                scenario.infinibandWarnings(), java.util.Map.of());
        SimConfig run = cfg;
        // Few ports are in use in a focus run, but the telemetry bound counts every link of the
        // fabric: on a whole-cluster fabric keep fewer points per series rather than refuse.
        while (focused.portTelemetryProblem(run) != null && run.maxSeriesPoints() > 64) {
            run = run.withMaxSeriesPoints(run.maxSeriesPoints() / 2);
        }
        focused = focused.withConfig(run);
        Simulator sim = focused.simulator(run);
        plan.apply(sim);
        return new Prepared(plan, new RunService.Run(new RunService.Request(focused.name(), focused, Engine.PACKET), sim),
                flowRun);
    }
}
