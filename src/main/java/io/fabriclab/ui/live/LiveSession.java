package io.fabriclab.ui.live;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.fabriclab.io.FabricReader;
import io.fabriclab.io.ResultsJson;
import io.fabriclab.io.Scenario;
import io.fabriclab.io.ScenarioJson;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Transport;
import io.fabriclab.model.Units;
import io.fabriclab.report.TransportRuns;
import io.fabriclab.sim.LiveRun;
import io.fabriclab.sim.QosResolver;
import io.fabriclab.sim.SimConfig;
import io.fabriclab.sim.SimProfiles;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.Simulator;
import io.fabriclab.workload.FlowSpec;

/**
 * One live run of the open fabric, without any JavaFX: builds the simulator from the run panel's
 * settings over a copy of the fabric (editing the drawing during a run cannot disturb it), wraps
 * it in a {@link LiveRun}, records what was shown, and knows the flows' labels for the dashboard.
 */
public final class LiveSession {
    private final Fabric drawn;
    private final Fabric simulated;
    private final RunSettings settings;
    private final List<FlowSpec> flows;
    private final LiveRun run;
    private final long endPs;
    private final RunRecording recording;
    private final String profileName;
    private final io.fabriclab.sim.RoutingPolicy routing;
    private final Transport transport;
    private final io.fabriclab.sim.TransportProfile transportProfile;

    LiveSession(Fabric drawn, Fabric simulated, RunSettings settings, List<FlowSpec> flows, Simulator sim,
                long endPs, String profileName, long recordingBytes) {
        this.drawn = drawn;
        this.simulated = simulated;
        this.settings = settings;
        // The network flows only, in order: their place is their flow id in every snapshot (NVLink
        // transfers and compute run in the simulator but are not flows of the fabric).
        this.flows = flows.stream().filter(FlowSpec::network).toList();
        this.run = new LiveRun(sim, settings.snapshotIntervalUs() * Units.PS_PER_US);
        this.endPs = endPs;
        this.profileName = profileName;
        this.recording = new RunRecording(recordingBytes);
        // Configuration fixed at construction, read before the simulator thread starts.
        this.routing = sim.routingPolicy();
        this.transport = sim.transport();
        this.transportProfile = sim.transportProfile();
    }

    /** The transport the simulator runs (the run panel's choice). */
    public Transport transport() {
        return transport;
    }

    /** The transport with the parameters the simulator runs it with. */
    public io.fabriclab.sim.TransportProfile transportProfile() {
        return transportProfile;
    }

    /** How switches pick among equal-cost next hops in this run (ECMP, or a per-packet mode). */
    public io.fabriclab.sim.RoutingPolicy routing() {
        return routing;
    }

    /** Builds a run of {@code settings} on a copy of {@code drawn}; bad settings throw IllegalArgumentException. */
    public static LiveSession create(Fabric drawn, RunSettings settings) throws IOException {
        return create(drawn, settings, RunRecording.DEFAULT_MAX_BYTES);
    }

    public static LiveSession create(Fabric drawn, RunSettings settings, long recordingBytes) throws IOException {
        return create(drawn, drawn.copy(), settings, recordingBytes);
    }

    /**
     * As {@link #create(Fabric, RunSettings, long)} from a copy of the drawn fabric taken earlier
     * (on the FX thread, {@link Fabric#copy()}), so the rest can run on a background thread while
     * the user keeps editing.
     */
    public static LiveSession create(Fabric drawn, Fabric copy, RunSettings settings, long recordingBytes)
            throws IOException {
        LiveSession s = build(drawn, copy, settings, recordingBytes);
        // Made here, on the caller's (background) thread, with the simulator: the dashboard asks
        // for them at the first frame, and making them reads every member flow.
        s.collectiveTrackers();
        return s;
    }

    private static LiveSession build(Fabric drawn, Fabric copy, RunSettings settings, long recordingBytes)
            throws IOException {
        if (settings.scenarioFile() != null) {
            // Read by the strict reader against the open fabric's copy; the run panel's transport,
            // seed and duration are typed edits of it (as `fabriclab compare` makes its variants).
            List<String> notes = new ArrayList<>();
            Scenario sc = scenario(settings, copy, notes::add);
            long end = sc.config().durationPs() > 0 ? sc.config().durationPs() : sc.config().maxTimePs();
            return new LiveSession(drawn, copy, settings, sc.flows(), io.fabriclab.app.RunService.simulator(sc), end,
                    sc.profile() == null ? "fabric QoS" : sc.profile(), recordingBytes);
        }
        if (settings.training() != null) {
            return TrainingRun.session(drawn, copy, settings, recordingBytes);
        }
        Scenario sc = presetScenario(copy, settings);
        long end = sc.config().durationPs() > 0 ? sc.config().durationPs() : sc.config().maxTimePs();
        return new LiveSession(drawn, copy, settings, sc.flows(), io.fabriclab.app.RunService.simulator(sc), end,
                settings.profile() == null ? "fabric QoS" : settings.profile(), recordingBytes);
    }

    /**
     * The run panel's preset on {@code copy} as a scenario of its flows (app.RunService.scenarioOf):
     * the transport's defaults, the profile, the seed and the duration of the panel; an all-reduce or
     * all-to-all is reported with its declared size over its flows and NVLink transfers, as simulate does.
     */
    static Scenario presetScenario(Fabric copy, RunSettings settings) {
        List<FlowSpec> flows = settings.preset().flows(copy, settings.bytes(), settings.fanIn(), settings.seed(),
                settings.loadPercent() / 100.0, settings.durationUs() * Units.PS_PER_US);
        QosResolver qos = settings.profile() == null ? QosResolver.of(copy)
                : SimProfiles.resolver(copy, settings.profile(), null);
        SimConfig cfg = SimConfig.defaults().withSeed(settings.seed())
                .withDurationPs(settings.durationUs() * Units.PS_PER_US);
        List<io.fabriclab.workload.Workload> described = settings.preset() == io.fabriclab.workload.WorkloadPreset.ALL_REDUCE
                || settings.preset() == io.fabriclab.workload.WorkloadPreset.ALL_TO_ALL
                ? List.of(settings.preset().collective(copy, settings.bytes())) : List.of();
        return io.fabriclab.app.RunService.scenarioOf(settings.preset().label() + " on " + copy.name(), copy,
                settings.profile(), qos, described, java.util.Map.of(), flows, cfg, settings.transport());
    }

    /** A training step of the run panel on {@code copy} as a scenario of its tasks (its collectives the step's to report). */
    static Scenario trainingScenario(Fabric copy, RunSettings settings) {
        io.fabriclab.workload.TrainingJob job = settings.training();
        String problem = job.problem(copy);
        if (problem != null) {
            throw new IllegalArgumentException("Training step: " + problem);
        }
        io.fabriclab.workload.TrainingJob.Built built = job.build(copy);
        QosResolver qos = settings.profile() == null ? QosResolver.of(copy)
                : SimProfiles.resolver(copy, settings.profile(), null);
        SimConfig cfg = SimConfig.defaults().withSeed(settings.seed())
                .withDurationPs(settings.durationUs() * Units.PS_PER_US).withMaxTimePs(TrainingRun.maxTimePs(job));
        return io.fabriclab.app.RunService.scenarioOf(job.describe(), copy, settings.profile(), qos, List.of(job),
                built.collectives(), built.tasks(), cfg, settings.transport());
    }

    /**
     * A run of the settings on the flow engine, finished: what the live view shows for it. The flow
     * engine has no snapshots to animate (it computes rates, not packets), so the run goes to its
     * end off the FX thread through the run service and its results are shown as a finished run.
     *
     * @param title    the run's title
     * @param notes    what the variant said (a transport's settings left out)
     * @param training the training step's analysis as text, or null
     * @param scenario the scenario that ran (what a focus run of it builds on: FlowRunWindow), or null
     */
    public record Finished(String title, RunSettings settings, SimResults results, List<String> notes, String training,
                           Scenario scenario) {
    }

    /**
     * Builds the settings' run on the flow engine (app.RunService) over {@code copy} and runs it on
     * the calling thread (a background thread); {@code started} gets the run (its cancel stops it).
     */
    public static Finished runOnFlowEngine(Fabric copy, RunSettings settings,
                                           java.util.function.Consumer<io.fabriclab.app.RunService.Run> started)
            throws IOException {
        List<String> notes = new ArrayList<>();
        Scenario sc = settings.scenarioFile() != null ? scenario(settings, copy, notes::add)
                : settings.training() != null ? trainingScenario(copy, settings) : presetScenario(copy, settings);
        io.fabriclab.app.RunService.Run run = io.fabriclab.app.RunService.prepare(
                new io.fabriclab.app.RunService.Request(settings.describe(), sc, io.fabriclab.sim.Engine.FLOW));
        started.accept(run);
        SimResults r = run.run(null);
        String training = null;
        if (settings.training() != null) {
            io.fabriclab.workload.TrainingJob job = settings.training();
            io.fabriclab.sim.StepAnalysis.Result a = io.fabriclab.sim.StepAnalysis.of(sc.flows(), job.name(), r,
                    job.tokensPerStep(), sc.collectives());
            training = io.fabriclab.sim.StepAnalysis.text(job, a);
        }
        return new Finished(copy.name() + ": " + settings.describe(), settings, r, notes, training, sc);
    }

    /**
     * The run panel's scenario file as it runs: read by the strict reader against {@code copy} (the
     * open fabric), under the panel's transport ({@link Scenario#withTransport}), seed and duration.
     */
    static Scenario scenario(RunSettings settings, Fabric copy, java.util.function.Consumer<String> notes)
            throws IOException {
        Scenario sc = readScenario(settings.scenarioFile(), copy);
        SimConfig cfg = sc.config().withSeed(settings.seed());
        if (settings.durationUs() > 0) {
            cfg = cfg.withDurationPs(settings.durationUs() * Units.PS_PER_US);
        }
        return sc.withTransport(settings.transport(), notes).withConfig(cfg);
    }

    /** A scenario file read by the strict reader (duplicate keys refused) against {@code copy}, the open fabric. */
    static Scenario readScenario(java.nio.file.Path file, Fabric copy) throws IOException {
        return ScenarioJson.parse(io.fabriclab.io.JsonInput.textOf(file, "a scenario"), file.toString(),
                file.toAbsolutePath().getParent(), FabricReader.FILES, copy);
    }

    public LiveRun run() {
        return run;
    }

    /** The training step this session runs (its tasks, collectives and analysis), or null for another workload. */
    private TrainingRun training;

    void setTraining(TrainingRun t) {
        this.training = t;
    }

    /** The training step of this run, or null when it runs a preset or a scenario. */
    public TrainingRun training() {
        return training;
    }

    public RunSettings settings() {
        return settings;
    }

    public List<FlowSpec> flows() {
        return flows;
    }

    /** The fabric the simulator runs on (a copy of the drawn one: fail links here by id). */
    public Fabric simulatedFabric() {
        return simulated;
    }

    public Fabric drawnFabric() {
        return drawn;
    }

    public RunRecording recording() {
        return recording;
    }

    /** Simulated end: the duration, or the safety limit of a run to completion. */
    public long endPs() {
        return endPs;
    }

    public String profileName() {
        return profileName;
    }

    /** Title of the run for windows and the recording. */
    public String title() {
        return simulated.name() + ": " + settings.describe();
    }

    /** The link of the simulated copy with the id of a drawn link, or null. */
    public io.fabriclab.model.Link simulatedLink(io.fabriclab.model.Link drawnLink) {
        for (io.fabriclab.model.Link l : simulated.links()) {
            if (l.id().equals(drawnLink.id())) {
                return l;
            }
        }
        return null;
    }

    private Map<String, List<Integer>> collectives;

    /** Flow indexes per collective label ("allreduce:rail0"), in first-seen order (computed once). */
    public synchronized Map<String, List<Integer>> collectives() {
        if (collectives == null) {
            collectives = computeCollectives();
        }
        return collectives;
    }

    private Map<String, CollectiveProgress.Tracker> trackers;

    /**
     * A progress tracker per collective, in the order of {@link #collectives}, built once: a
     * tracker reads its member flows (bytes, ring step from the flow id, ranks) when it is made,
     * which for the 260,096 flows of an all-reduce on four units took most of the FX thread's time
     * when the dashboard made them anew for every snapshot.
     */
    public synchronized Map<String, CollectiveProgress.Tracker> collectiveTrackers() {
        if (trackers == null) {
            Map<String, CollectiveProgress.Tracker> out = new LinkedHashMap<>();
            for (Map.Entry<String, List<Integer>> c : collectives().entrySet()) {
                out.put(c.getKey(), new CollectiveProgress.Tracker(flows, c.getKey(), c.getValue()));
            }
            trackers = out;
        }
        return trackers;
    }

    private Map<String, List<Integer>> computeCollectives() {
        Map<String, List<Integer>> out = new LinkedHashMap<>();
        String lastLabel = null;
        List<Integer> last = null;
        for (int i = 0; i < flows.size(); i++) {
            String label = flows.get(i).label();
            if (label != null && label.contains(":")) {
                // A collective's flows come in a row: look the list up only when the label changes.
                if (!label.equals(lastLabel)) {
                    last = out.computeIfAbsent(label, k -> new ArrayList<>());
                    lastLabel = label;
                }
                last.add(i);
            }
        }
        return out;
    }

    /**
     * Saves the recording with the run's results (null while it has none) and the fabric as it
     * was simulated. Reads nothing the user can edit, so it may run off the FX thread.
     */
    public void save(java.nio.file.Path file, SimResults results) throws IOException {
        recording.save(file, title(), simulated, results == null ? null : resultsJson(results));
    }

    /** The run's results as {@code fabriclab simulate -o} writes them, with this run's title and profile. */
    public String resultsJson(SimResults results) {
        return ResultsJson.toJson(results, new ResultsJson.Metadata(ResultsJson.fabriclabVersion(), title(),
                settings.scenarioFile() == null ? "live view" : settings.scenarioFile().toString(), "-",
                simulated.name(), profileName), false);
    }

    /**
     * Writes the run's results as a results file (atomically), which Export Report takes under
     * "Simulation results" like the output of {@code fabriclab simulate}: the adapter that lets a
     * live run go into the design-review report.
     */
    public void writeResults(java.nio.file.Path file, SimResults results) throws IOException {
        io.fabriclab.io.AtomicFiles.write(file, resultsJson(results).getBytes(StandardCharsets.UTF_8));
    }
}
