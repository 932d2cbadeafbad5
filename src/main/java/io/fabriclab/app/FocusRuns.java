package io.fabriclab.app;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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
        FocusRun.Plan plan = FocusRun.plan(scenario.fabric(), scenario.flows(), flowRun, f,
                new FocusRun.Timing(scenario.transportName(), scenario.switchLatencyPs()), () -> scenario.flowEngine(cfg));
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
        // Only some flows of a collective run: no per-collective figures (they would be of a part).
        sim.reportElsewhere(label -> true);
        return new Prepared(plan, new RunService.Run(new RunService.Request(focused.name(), focused, Engine.PACKET), sim),
                flowRun);
    }

    /**
     * What the results file of a focus run carries beside the packet run's own fields (its
     * "focus" field): the focus, the method, every focus flow's FCT in both runs, the focus links'
     * figures and the background schedule of every link direction.
     */
    public static Map<String, Object> json(FocusRun.Result r) {
        Map<String, Object> m = new LinkedHashMap<>();
        FocusRun.Plan plan = r.plan();
        m.put("focus", plan.focus().name());
        m.put("kind", plan.focus().kind().jsonName());
        m.put("links", plan.focus().links().stream().map(io.fabriclab.model.Link::id).toList());
        m.put("note", r.note());
        m.put("sprayed", plan.sprayed());
        List<Map<String, Object>> flows = new ArrayList<>();
        for (FocusRun.FlowComparison c : r.flows()) {
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("flowRunId", c.flowRunId());
            f.put("src", c.src());
            f.put("dst", c.dst());
            f.put("label", c.label());
            f.put("bytes", c.bytes());
            f.put("startPs", c.startPs());
            f.put("flowFctPs", c.flowFctPs());
            f.put("packetFctPs", c.packetFctPs());
            f.put("samePath", plan.sprayed() ? null : c.flowPath().equals(c.packetPath()));
            flows.add(f);
        }
        m.put("flows", flows);
        m.put("focusLinks", r.focusLinks());
        List<Map<String, Object>> bg = new ArrayList<>();
        for (FocusRun.Background b : plan.background()) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("from", b.fromRef());
            x.put("to", b.toRef());
            x.put("flows", b.flows());
            x.put("atPs", b.atPs());
            x.put("share", b.share());
            bg.add(x);
        }
        m.put("background", bg);
        return m;
    }

    /**
     * The comparison as text (simulate --focus, the app's focus window): the note, the focus
     * flows' FCTs in both runs (the {@code maxFlows} the packet run slowed most), the focus links'
     * queue peaks, marks and pauses.
     */
    public static String text(FocusRun.Result r, int maxFlows) {
        StringBuilder sb = new StringBuilder();
        sb.append(r.note()).append('\n');
        List<FocusRun.FlowComparison> flows = new ArrayList<>(r.flows());
        flows.sort(java.util.Comparator.comparingDouble((FocusRun.FlowComparison c) -> Double.isNaN(c.ratio())
                ? Double.MAX_VALUE : c.ratio()).reversed().thenComparingInt(FocusRun.FlowComparison::flowRunId));
        double[] ratios = r.flows().stream().mapToDouble(FocusRun.FlowComparison::ratio).filter(x -> !Double.isNaN(x))
                .sorted().toArray();
        if (ratios.length > 0) {
            sb.append(String.format(Locale.ROOT, "focus flows: FCT packet / flow run median %.2f, max %.2f (%d of %d "
                    + "finished in both)%n", ratios[ratios.length / 2], ratios[ratios.length - 1], ratios.length,
                    r.flows().size()));
        }
        sb.append(String.format(Locale.ROOT, "%-6s %-22s %-22s %12s %12s %12s %7s%n", "flow", "src", "dst", "MB",
                "flow us", "packet us", "ratio"));
        for (FocusRun.FlowComparison c : flows.subList(0, Math.min(maxFlows, flows.size()))) {
            sb.append(String.format(Locale.ROOT, "%-6d %-22s %-22s %12.3f %12s %12s %7s%n", c.flowRunId(), c.src(),
                    c.dst(), c.bytes() / 1e6, us(c.flowFctPs()), us(c.packetFctPs()),
                    Double.isNaN(c.ratio()) ? "-" : String.format(Locale.ROOT, "%.2f", c.ratio())));
        }
        if (flows.size() > maxFlows) {
            sb.append("(").append(flows.size() - maxFlows).append(" more in the results file)\n");
        }
        if (!r.focusLinks().isEmpty()) {
            sb.append(String.format(Locale.ROOT, "%-40s %12s %10s %10s %10s %8s %12s%n", "focus link direction",
                    "queue KB", "ECN marks", "pauses in", "paused us", "drops", "background"));
            for (FocusRun.LinkFigures l : r.focusLinks().subList(0, Math.min(12, r.focusLinks().size()))) {
                sb.append(String.format(Locale.ROOT, "%-40s %12.1f %10d %10d %10.1f %8d %11.0f%%%n",
                        l.from() + " -> " + l.to(), l.maxQueueBytes() / 1000.0, l.ecnMarked(), l.pauseFramesReceived(),
                        l.pausedPs() / 1e6, l.drops(), 100 * l.backgroundPeakShare()));
            }
            if (r.focusLinks().size() > 12) {
                sb.append("(").append(r.focusLinks().size() - 12).append(" more focus link directions in the results file)\n");
            }
        }
        return sb.toString();
    }

    private static String us(long ps) {
        return ps < 0 ? "-" : String.format(Locale.ROOT, "%.1f", ps / 1e6);
    }
}
