package io.fabriclab.ui.live;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

import io.fabriclab.diagram.CongestionFrame;
import io.fabriclab.diagram.CongestionPainter;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.WredEcn;
import io.fabriclab.sim.LiveRun;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.SimSnapshot;
import io.fabriclab.workload.WorkloadPreset;
import javafx.application.Platform;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.DoubleProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleDoubleProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The live view's state and commands, without widgets: the run settings as properties (the panel
 * binds its fields to them), the run itself (build in the background, play, pause, step, reset,
 * thresholds, save), what is shown (the snapshot, its frame for the canvas, the clock, progress,
 * dashboard, requested and achieved speed) and the per-frame work ({@link #onFrame}). Tests drive
 * it directly; {@link LivePanel} is its view. FX thread only (it reads the run through
 * {@link LiveRun#take()}, which never waits).
 *
 * <p>About 780 lines: it is one state machine (building, running, paused, stepped, ended,
 * scrubbed) whose fields change together; what does not share that state is split out: commands
 * to the run ({@link LiveCommands}), the speed scale ({@link LiveSpeed}), progress
 * ({@link RunProgress}), the after-run review ({@link RunReview}) and the widgets ({@link LivePanel},
 * {@link LiveSelectionPane}).
 */
public final class LiveViewModel {
    static final double SPEED_MAX_POSITION = LiveSpeed.MAX_POSITION;
    /**
     * At full speed ("max") the view draws at most one snapshot per this much wall time (20 frames
     * a second), like an emulator's fast-forward; every snapshot still goes into the recording. At
     * a set speed every snapshot taken is drawn, up to the screen's 60 Hz.
     */
    static final long FULL_SPEED_FRAME_NANOS = 50_000_000L;
    /** Dashboard, clock and progress refresh at most this often (they show one snapshot together). */
    static final long DASHBOARD_NANOS = 200_000_000L;

    // ----- settings --------------------------------------------------------------------------------
    public final ObjectProperty<LiveWorkload> workload = new SimpleObjectProperty<>(LiveWorkload.of(WorkloadPreset.INCAST));
    /** The run's transport (a scenario file's own gives way to it; choosing a file sets it to the file's). */
    public final ObjectProperty<io.fabriclab.model.Transport> transport =
            new SimpleObjectProperty<>(io.fabriclab.model.Transport.ROCEV2);
    /** The engine: packet (animated here) or flow (run to its end, shown as a finished run). */
    public final ObjectProperty<io.fabriclab.sim.Engine> engine = new SimpleObjectProperty<>(io.fabriclab.sim.Engine.PACKET);
    /** The last flow-engine run, set on the FX thread when it has finished (LivePanel opens its window). */
    public final ObjectProperty<LiveSession.Finished> flowResult = new SimpleObjectProperty<>();
    /** The flow-engine run in flight, for Stop. */
    private volatile io.fabriclab.app.RunService.Run flowRun;
    /** "fabric QoS" or a named simulator profile. */
    public final StringProperty profile = new SimpleStringProperty(FABRIC_QOS);
    public final StringProperty sizeMb = new SimpleStringProperty("2");
    public final StringProperty fanIn = new SimpleStringProperty("8");
    public final StringProperty loadPercent = new SimpleStringProperty("50");
    public final BooleanProperty toCompletion = new SimpleBooleanProperty(true);
    public final StringProperty durationUs = new SimpleStringProperty("500");
    public final StringProperty seed = new SimpleStringProperty("1");
    public final DoubleProperty speedPosition = new SimpleDoubleProperty(8);
    public final ObjectProperty<CongestionPainter.ColourBy> colourBy =
            new SimpleObjectProperty<>(CongestionPainter.ColourBy.QUEUE);
    /** The selected flow id, -1 for none. */
    public final IntegerProperty selectedFlow = new SimpleIntegerProperty(-1);
    /** The selected collective's label, or null. */
    public final StringProperty collective = new SimpleStringProperty();
    public final BooleanProperty clickFails = new SimpleBooleanProperty(false);

    static final String FABRIC_QOS = "fabric QoS";

    // ----- what is shown -------------------------------------------------------------------------
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("Choose a workload and press Play.");
    private final ReadOnlyStringWrapper clock = new ReadOnlyStringWrapper("t = 0 µs");
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper(0);
    private final ReadOnlyStringWrapper progressText = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper dashboard = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper speedText = new ReadOnlyStringWrapper();
    private final ReadOnlyStringWrapper achievedText = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper behind = new ReadOnlyBooleanWrapper(false);
    private final ReadOnlyBooleanWrapper running = new ReadOnlyBooleanWrapper(false);
    private final ReadOnlyBooleanWrapper canSave = new ReadOnlyBooleanWrapper(false);
    private final ReadOnlyBooleanWrapper active = new ReadOnlyBooleanWrapper(false);
    private final ReadOnlyStringWrapper thresholdStatus = new ReadOnlyStringWrapper("");

    /** Maps snapshots onto the drawn fabric; made anew when the fabric is replaced or a run starts. */
    private FrameBuilder frames;
    /** The fabric the editor shows now (the document's; a fabric replaced under the panel is noticed here). */
    private java.util.function.Supplier<Fabric> drawnFabric;
    private final List<LiveViewListener> listeners = new ArrayList<>();
    private final SpeedMeter meter = new SpeedMeter();
    private final LiveCommands commands = new LiveCommands(this);
    private Runnable redraw = () -> { };
    private Consumer<Throwable> errorHandler = t -> { };

    private LiveSession session;
    private boolean preparing;
    /** The build in flight; a build whose run was cleared meanwhile (Reset, a new fabric) is dropped. */
    private Object pendingBuild;
    private final List<Consumer<LiveRun>> whenReady = new ArrayList<>();
    private SimSnapshot shown;
    /** Taken and recorded but not drawn yet (at full speed the view skips frames). */
    private SimSnapshot undrawn;
    private SimSnapshot previousShown;
    private SimSnapshot dashboardShows;
    private CongestionFrame frame;
    private SimResults results;
    private boolean errorShown;
    private boolean scrubbing;
    private long lastDrawNanos;
    private long lastDashboardNanos;
    private long framesDrawn;
    private long meterSpeed = Long.MIN_VALUE;
    private RunProgress runProgress;

    LiveViewModel(Fabric drawn) {
        this.frames = new FrameBuilder(drawn);
        this.drawnFabric = () -> frames.fabric();
        speedPosition.addListener((o, a, b) -> applySpeed());
        workload.addListener((o, a, b) -> {
            if (b != null && b.live() != null) {
                // A live preset comes with the speed it is watchable at and says what to look for.
                speedPosition.set(b.live().speedPosition());
                status.set(b.live().label() + ": " + b.live().shows() + ". Written for the shipped example "
                        + b.live().fabric() + "; press Play.");
            }
            if (b != null && b.scenario() != null) {
                // A scenario file that names its transport is shown (and run) as that transport.
                scenarioTransport(b.scenario()).ifPresent(transport::set);
            }
        });
        // A run that has ended shows what it did with its settings: change one and that picture no
        // longer answers them, so it goes (the old totals stayed until Play; issue 35).
        for (javafx.beans.Observable setting : List.of(workload, transport, engine, profile, sizeMb, fanIn, loadPercent,
                toCompletion, durationUs, seed)) {
            setting.addListener(o -> settingsChanged());
        }
        colourBy.addListener((o, a, b) -> rebuildFrame());
        selectedFlow.addListener((o, a, b) -> rebuildFrame());
        collective.addListener((o, a, b) -> rebuildFrame());
        applySpeed();
    }

    /** Where the drawn fabric comes from (the editor's document, which New and Open replace). */
    void setDrawnFabric(java.util.function.Supplier<Fabric> source) {
        this.drawnFabric = source;
    }

    /**
     * The editor now shows another fabric (New from Template, Import containerlab, Open example,
     * undo of one of them): the run of the old one stops and everything that showed it goes (the
     * canvas's congestion layer, clock, progress, dashboard, totals), so nothing of it is drawn on
     * the new fabric's links by matching device names.
     */
    public void fabricReplaced(Fabric now) {
        if (now == frames.fabric()) {
            return;
        }
        boolean hadRun = session != null || preparing;
        stopRun();
        clearRun();
        frames = new FrameBuilder(now);
        clearReadouts();
        status.set(hadRun ? "The fabric was replaced (" + now.name() + "): the run on the previous one was stopped."
                + " Press Play to run on this one." : "Choose a workload and press Play.");
        refreshState();
        redraw.run();
    }

    /** A run setting changed: a run that has ended no longer shows these settings, so its picture goes. */
    private void settingsChanged() {
        if (session != null && ended()) {
            clearRun();
            clearReadouts();
            status.set("Settings changed: press Play to run " + describeSettings() + ".");
            refreshState();
            redraw.run();
        }
    }

    private String describeSettings() {
        try {
            return settings().describe();
        } catch (IllegalArgumentException e) {
            return "them";
        }
    }

    private void clearReadouts() {
        clock.set("t = 0 µs");
        progress.set(0);
        progressText.set("");
        dashboard.set("");
        thresholdStatus.set("");
    }

    void setRedraw(Runnable r) {
        this.redraw = r;
    }

    void setErrorHandler(Consumer<Throwable> h) {
        this.errorHandler = h;
    }

    void addListener(LiveViewListener l) {
        listeners.add(l);
    }

    // ----- read-only state -----------------------------------------------------------------------

    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }

    public String status() {
        return status.get();
    }

    void setStatus(String s) {
        status.set(s);
    }

    public ReadOnlyStringProperty clockProperty() {
        return clock.getReadOnlyProperty();
    }

    public ReadOnlyDoubleProperty progressProperty() {
        return progress.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty progressTextProperty() {
        return progressText.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty dashboardProperty() {
        return dashboard.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty speedTextProperty() {
        return speedText.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty achievedTextProperty() {
        return achievedText.getReadOnlyProperty();
    }

    /** True while the run measurably falls short of the requested speed. */
    public ReadOnlyBooleanProperty behindProperty() {
        return behind.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty runningProperty() {
        return running.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty canSaveProperty() {
        return canSave.getReadOnlyProperty();
    }

    /** True while a run is being built or has not ended: only then does the view need animation frames. */
    public ReadOnlyBooleanProperty activeProperty() {
        return active.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty thresholdStatusProperty() {
        return thresholdStatus.getReadOnlyProperty();
    }

    public LiveSession session() {
        return session;
    }

    public boolean preparing() {
        return preparing;
    }

    public SimSnapshot shownSnapshot() {
        return shown;
    }

    SimSnapshot previousShown() {
        return previousShown;
    }

    public SimResults results() {
        return results;
    }

    /** The frame on the canvas now (tests read it). */
    public CongestionFrame frame() {
        return frame;
    }

    FrameBuilder frames() {
        return frames;
    }

    boolean scrubbing() {
        return scrubbing;
    }

    /** Canvas frames this model asked for since the last call (the view counts its paint time). */
    long takeFramesDrawn() {
        long n = framesDrawn;
        framesDrawn = 0;
        return n;
    }

    /** Flow ids of the selected collective (empty: none). */
    public List<Integer> collectiveMembers() {
        String c = collective.get();
        if (session == null || c == null) {
            return List.of();
        }
        return session.collectives().getOrDefault(c, List.of());
    }

    boolean ended() {
        if (session == null) {
            return false;
        }
        LiveRun.State s = session.run().state();
        return s == LiveRun.State.FINISHED || s == LiveRun.State.STOPPED || s == LiveRun.State.FAILED;
    }

    // ----- settings ----------------------------------------------------------------------------------

    /** True when the workload uses the incast sender count (the other presets and scenarios ignore it). */
    public boolean usesFanIn() {
        return workload.get().preset() == WorkloadPreset.INCAST;
    }

    /** True when the workload uses the background load. */
    public boolean usesLoad() {
        return workload.get().preset() == WorkloadPreset.BACKGROUND;
    }

    /** True when the workload uses the size field (every preset; a scenario file has its own sizes). */
    public boolean usesSize() {
        return workload.get().preset() != null;
    }

    /** What the settings say; throws IllegalArgumentException naming the field that is wrong. */
    public RunSettings settings() {
        LiveWorkload w = workload.get();
        if (w == null || w.preset() == null && w.scenario() == null && w.live() == null && w.training() == null) {
            throw new IllegalArgumentException("Workload: choose a preset or a scenario file");
        }
        Path scenario = w.scenario();
        if (w.live() != null) {
            try {
                scenario = w.live().scenarioFile();
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException("Workload: " + e.getMessage(), e);
            }
        }
        long bytes = Math.round(number(sizeMb, "Size (MB)") * 1e6);
        int fans = (int) number(fanIn, "Incast senders");
        long dur = toCompletion.get() ? 0 : (long) number(durationUs, "Duration (µs)");
        long s = (long) number(seed, "Seed");
        String prof = profile.get() == null || FABRIC_QOS.equals(profile.get()) ? null : profile.get();
        double load = number(loadPercent, "Background load (%)");
        if (transport.get() == null) {
            throw new IllegalArgumentException("Transport: choose one of " + io.fabriclab.model.Transport.allowedNames());
        }
        if (engine.get() == null) {
            throw new IllegalArgumentException("Engine: choose one of " + io.fabriclab.sim.Engine.names());
        }
        return new RunSettings(w.preset(), scenario, prof, dur, s, bytes, Math.max(1, fans), 5, load, transport.get(),
                w.training(), engine.get());
    }

    /** The transport a scenario file names ($.transport or $.transport.name), if it names one. */
    static java.util.Optional<io.fabriclab.model.Transport> scenarioTransport(Path file) {
        try {
            // A scenario with its workloads is a few kilobytes; a very large one is left to the run to read.
            if (java.nio.file.Files.size(file) > 1 << 20) {
                return java.util.Optional.empty();
            }
            com.fasterxml.jackson.databind.JsonNode tr = io.fabriclab.io.JsonInput.treeOf(file, "a scenario").path("transport");
            String name = tr.isObject() ? tr.path("name").asText("") : tr.asText("");
            return io.fabriclab.model.Transport.fromJsonName(name);
        } catch (java.io.IOException | RuntimeException e) {
            return java.util.Optional.empty(); // the run reads it and says what is wrong
        }
    }

    static double number(StringProperty f, String name) {
        return number(f.get() == null ? "" : f.get(), name);
    }

    /** A form field's number, at least 0; IllegalArgumentException naming the field otherwise. */
    static double number(String text, String name) {
        try {
            double v = Double.parseDouble(text.trim());
            if (Double.isNaN(v) || v < 0) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": '" + text + "' is not a number >= 0");
        }
    }

    // ----- speed -------------------------------------------------------------------------------------

    public long speed() {
        return LiveSpeed.psPerSecond(speedPosition.get());
    }

    /** One arrow-key step of the speed: the next 1-2-5 value up or down ({@link LiveSpeed#step}). */
    public void stepSpeed(int direction) {
        speedPosition.set(LiveSpeed.position(LiveSpeed.step(speed(), direction)));
    }

    static String speedText(long psPerS) {
        return LiveSpeed.text(psPerS);
    }

    private void applySpeed() {
        long psPerS = speed();
        speedText.set(speedText(psPerS));
        if (session != null && !ended()) {
            session.run().setSpeed(psPerS);
        }
        meter.restart();
        updateAchieved();
    }

    private void updateAchieved() {
        boolean measuring = session != null && !ended() && session.run().state() == LiveRun.State.RUNNING;
        achievedText.set(measuring ? meter.achievedText() : "");
        behind.set(measuring && meter.behind(speed()));
    }

    // ----- run control ---------------------------------------------------------------------------------

    /** Starts a new run (or resumes a paused one). */
    public void play() {
        if (preparing) {
            whenReady.add(LiveRun::resume);
            return;
        }
        if (session != null && !ended()) {
            session.run().resume();
            meter.restart();
            refreshState();
            return;
        }
        start(false);
    }

    /**
     * Builds a run from the settings in a background task (building routes and flows of a large
     * fabric takes seconds; the FX thread never waits for it) and starts it, paused or not. False
     * (with a message) on bad settings; actions asked for meanwhile (a step) run once it is ready.
     */
    public boolean start(boolean paused) {
        stopRun();
        RunSettings settings;
        try {
            settings = settings();
        } catch (IllegalArgumentException e) {
            status.set("Cannot start: " + e.getMessage());
            return false;
        }
        clearRun();
        if (settings.engine() == io.fabriclab.sim.Engine.FLOW) {
            return startFlow(settings);
        }
        preparing = true;
        status.set("Preparing " + settings.describe() + " …");
        Fabric drawn = drawnFabric.get();
        // Snapshots map onto the fabric as drawn now, with the links added or removed since the last run.
        frames = new FrameBuilder(drawn);
        // The copy is taken on the FX thread (the drawing may change later); routes and flows are built off it.
        Fabric copy = drawn.copy();
        Object token = new Object();
        pendingBuild = token;
        javafx.concurrent.Task<LiveSession> task = new javafx.concurrent.Task<>() {
            @Override
            protected LiveSession call() throws Exception {
                return LiveSession.create(drawn, copy, settings, RunRecording.DEFAULT_MAX_BYTES);
            }
        };
        task.setOnSucceeded(e -> {
            if (pendingBuild != token) {
                return; // reset or replaced while it was built
            }
            pendingBuild = null;
            preparing = false;
            session = task.getValue();
            runProgress = new RunProgress(session);
            applySpeed();
            session.run().start(paused);
            status.set("Running " + session.settings().describe() + " (" + session.flows().size() + " flows)");
            listeners.forEach(l -> l.started(session));
            List<Consumer<LiveRun>> todo = new ArrayList<>(whenReady);
            whenReady.clear();
            todo.forEach(a -> a.accept(session.run()));
            refreshState();
        });
        task.setOnFailed(e -> {
            if (pendingBuild != token) {
                return;
            }
            pendingBuild = null;
            preparing = false;
            whenReady.clear();
            Throwable t = task.getException();
            status.set("Cannot start: " + (t == null ? "unknown error" : t.getMessage()));
            refreshState();
        });
        // Routes and flows are built on the application's one executor (shown in the status bar).
        io.fabriclab.ui.BackgroundTasks.shared().execute(task, "Preparing the live run");
        refreshState();
        return true;
    }

    /**
     * A flow-engine run: built and run to its end by the run service on the background executor
     * (the flow engine has no snapshots to animate); its results are then shown as a finished run
     * ({@link #flowResult}, FlowRunWindow) and said in the status line.
     */
    private boolean startFlow(RunSettings settings) {
        Fabric copy = drawnFabric.get().copy();
        Object token = new Object();
        pendingBuild = token;
        preparing = true;
        status.set("Running " + settings.describe() + " on the flow engine …");
        javafx.concurrent.Task<LiveSession.Finished> task = new javafx.concurrent.Task<>() {
            @Override
            protected LiveSession.Finished call() throws Exception {
                return LiveSession.runOnFlowEngine(copy, settings, run -> flowRun = run);
            }
        };
        task.setOnSucceeded(e -> {
            flowRun = null;
            if (pendingBuild != token) {
                return;
            }
            pendingBuild = null;
            preparing = false;
            LiveSession.Finished f = task.getValue();
            SimResults.RunInfo run = f.results().run();
            status.set(String.format(java.util.Locale.ROOT, "Flow engine: %s after %.1f µs simulated, %d/%d flows completed "
                            + "(no packets to animate: the results are in their own window)",
                    run.stopReason().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '), run.simulatedPs() / 1e6,
                    run.flowsCompleted(), run.flows()));
            flowResult.set(f);
            refreshState();
        });
        task.setOnFailed(e -> {
            flowRun = null;
            if (pendingBuild != token) {
                return;
            }
            pendingBuild = null;
            preparing = false;
            Throwable t = task.getException();
            status.set("Cannot start: " + (t == null ? "unknown error" : t.getMessage()));
            refreshState();
        });
        io.fabriclab.ui.BackgroundTasks.shared().execute(task, "Running on the flow engine");
        refreshState();
        return true;
    }

    public void pauseRun() {
        if (preparing) {
            whenReady.add(LiveRun::pause);
            return;
        }
        if (session != null) {
            session.run().pause();
        }
        refreshState();
    }

    /** Single step: one event or one snapshot interval (starts a paused run if none). */
    public void step(boolean oneEvent) {
        Consumer<LiveRun> action = oneEvent ? LiveRun::stepEvent : LiveRun::stepInterval;
        if (!preparing && (session == null || ended())) {
            if (!start(true)) {
                return;
            }
        }
        if (preparing) {
            whenReady.add(action);
            return;
        }
        action.accept(session.run());
        refreshState();
    }

    /** Stops the run and clears what showed it. */
    public void reset() {
        stopRun();
        clearRun();
        clearReadouts();
        status.set("Reset. Press Play to start again.");
        refreshState();
        redraw.run();
    }

    private void clearRun() {
        pendingBuild = null;
        preparing = false;
        session = null;
        shown = null;
        undrawn = null;
        previousShown = null;
        dashboardShows = null;
        frame = null;
        results = null;
        errorShown = false;
        collective.set(null);
        meter.restart();
        listeners.forEach(LiveViewListener::cleared);
    }

    /** Ends the run, if one is going (the panel closes, or a new run replaces it). */
    void stopRun() {
        if (session != null && !ended()) {
            session.run().stop();
        }
        io.fabriclab.app.RunService.Run f = flowRun;
        if (f != null) {
            f.cancel();
        }
        whenReady.clear();
    }

    private void refreshState() {
        boolean going = session != null && !ended();
        running.set(going);
        canSave.set(session != null && ended());
        active.set(preparing || going || (session != null && results == null && !errorShown));
        updateAchieved();
    }

    // ----- the animation frame -------------------------------------------------------------------------

    /** Whether the view draws a snapshot waiting at wall time {@code now}, last drawn at {@code lastDraw}. */
    static boolean drawNow(long nowNanos, long lastDrawNanos, long speedPsPerS) {
        return nowNanos - lastDrawNanos >= (speedPsPerS == LiveRun.UNTHROTTLED ? FULL_SPEED_FRAME_NANOS : 0);
    }

    /**
     * One animation frame at wall time {@code nowNanos}: takes the newest snapshot (recording it),
     * decides whether to draw it, refreshes dashboard and speed, notices the end of the run.
     * Returns true when the canvas should repaint.
     */
    boolean onFrame(long nowNanos) {
        if (session == null) {
            return false;
        }
        LiveRun run = session.run();
        takeNewest(run, nowNanos);
        boolean fresh = false;
        if (drawNow(nowNanos, lastDrawNanos, speed()) && showUndrawn(nowNanos)) {
            fresh = true;
        } else if (!scrubbing) {
            refreshDashboard(nowNanos, false);
        }
        LiveRun.State state = run.state();
        if (meterSpeed != run.speed() || state != LiveRun.State.RUNNING) {
            meterSpeed = run.speed();
            meter.restart();
        }
        if (state == LiveRun.State.FAILED && !errorShown) {
            errorShown = true;
            status.set("The simulator stopped with an error: " + run.failure());
            refreshState();
            Throwable t = run.failure();
            Platform.runLater(() -> errorHandler.accept(t));
        } else if ((state == LiveRun.State.FINISHED || state == LiveRun.State.STOPPED) && results == null
                && run.result().isDone() && (session.training() == null || session.training().analysed())) {
            // The final picture may have been published after this frame's take: show it first.
            takeNewest(run, nowNanos);
            showUndrawn(nowNanos);
            undrawn = null;
            results = run.result().getNow(null);
            finished();
            fresh = true;
        }
        updateAchieved();
        if (fresh || (animated(frame) && nowNanos - lastDrawNanos >= 50_000_000L)
                || nowNanos - lastDrawNanos >= 500_000_000L) {
            lastDrawNanos = nowNanos;
            framesDrawn++;
            return true;
        }
        return false;
    }

    /** Records the newest snapshot, if one came; it waits in {@link #undrawn} until drawn. */
    private void takeNewest(LiveRun run, long nowNanos) {
        SimSnapshot s = run.take();
        if (s != null && !scrubbing) {
            session.recording().add(s);
            undrawn = s;
            if (run.state() == LiveRun.State.RUNNING) {
                meter.sample(nowNanos, s.timePs());
            }
        }
    }

    private boolean showUndrawn(long nowNanos) {
        if (undrawn == null || scrubbing) {
            return false;
        }
        show(undrawn, nowNanos);
        undrawn = null;
        return true;
    }

    private static boolean animated(CongestionFrame f) {
        if (f == null) {
            return false;
        }
        for (int i = 0; i < f.paused.length; i++) {
            if (f.paused[i] || f.marksPerUs[i] > 0 || f.dropFlash[i] > 0 || f.cnpsPerUs[i] > 0 || f.stormed[i]
                    || f.carrying[i] > 0) {
                return true;
            }
        }
        return false;
    }

    private void show(SimSnapshot s, long nowNanos) {
        previousShown = shown;
        shown = s;
        frame = frames.frame(s, previousShown, colourBy.get(), selectedFlow.get(), collectiveMembers(), nowNanos);
        // A paused or stepped run shows its instant at once; a running one at the dashboard's pace.
        refreshDashboard(nowNanos, session.run().state() != LiveRun.State.RUNNING);
    }

    /**
     * Clock, progress, dashboard and the view's selection figures, all of one snapshot (so the
     * clock and the dashboard never disagree), at most five times a second unless {@code now}.
     */
    private void refreshDashboard(long nowNanos, boolean now) {
        if (shown == null || shown == dashboardShows || (!now && nowNanos - lastDashboardNanos < DASHBOARD_NANOS)) {
            return;
        }
        lastDashboardNanos = nowNanos;
        dashboardShows = shown;
        showFigures(shown, "");
        listeners.forEach(l -> l.pictureChanged(shown));
    }

    private void showFigures(SimSnapshot s, String suffix) {
        clock.set(String.format(Locale.ROOT, "t = %.3f µs%s", s.timePs() / 1e6, suffix));
        double p = runProgress.of(s);
        progress.set(p);
        progressText.set(runProgress.label(s, p));
        // A training step's analysis heads the dashboard once the run has ended.
        String step = session.training() == null ? null : session.training().text();
        dashboard.set((step == null ? "" : step + "\n\n")
                + String.join("\n", Dashboard.lines(s, session.collectiveTrackers().values())));
    }

    private void finished() {
        if (session != null && session.training() != null) {
            session.training().analyse(results);
        }
        refreshState();
        if (shown != null) {
            showFigures(shown, "");
            dashboardShows = shown;
            listeners.forEach(l -> l.pictureChanged(shown));
        }
        if (results != null) {
            SimResults.Summary sum = results.summary();
            status.set(endingText(results, session.transport()));
            if (session.training() != null && session.training().headline() != null) {
                status.set(status.get() + "; " + session.training().headline() + " (Dashboard: the step analysis)");
            }
        }
        listeners.forEach(LiveViewListener::finished);
        if (quiet(frame) && session != null && !session.recording().frames().isEmpty()) {
            // The queues drained before the end: an empty picture would hide what happened, so the
            // canvas shows the run's totals (largest queue, ever paused, marks per µs) instead.
            showTotals();
            status.set(status.get() + ". The queues had drained by the end: the canvas shows the run totals"
                    + " (largest queue, paused, ECN marks); Worst moment or the timeline show one instant.");
        }
    }

    /**
     * The run's ending in words ({@link io.fabriclab.report.RunEnding#headline}: a PFC deadlock first,
     * never the raw stop reason), then its transport and counters.
     */
    static String endingText(SimResults results, io.fabriclab.model.Transport transport) {
        SimResults.Summary sum = results.summary();
        return String.format(Locale.ROOT, "%s (%s). Drops %,d, ECN marks %,d, PAUSE %,d%s",
                io.fabriclab.report.RunEnding.headline(results, "µs"), transport.displayName(), sum.drops(),
                sum.ecnMarked(), sum.pauseFramesSent(), transportText(results) + collectivesText(results));
    }

    /** True when a picture shows nothing: no queue, pause, mark, drop or watchdog storm anywhere. */
    static boolean quiet(CongestionFrame f) {
        if (f == null) {
            return false;
        }
        for (int i = 0; i < f.paused.length; i++) {
            if (f.queueBytes[i] > 0 || f.paused[i] || f.marksPerUs[i] > 0 || f.dropFlash[i] > 0 || f.stormed[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * What the transport's own flow control did: InfiniBand's credit-stalled time, Ultra Ethernet's
     * trimmed packets (RoCEv2's PAUSE frames are in the line already).
     */
    static String transportText(SimResults r) {
        if (r.ultraEthernet() != null) {
            return String.format(Locale.ROOT, ", trimmed %d, retransmitted %d", r.ultraEthernet().trimmedPackets(),
                    r.ultraEthernet().retransmittedPackets());
        }
        if (r.credits() != null && !r.credits().isEmpty()) {
            return String.format(Locale.ROOT, ", credit-stalled %.1f µs",
                    r.credits().stream().mapToLong(SimResults.CreditResult::creditStalledPs).sum() / 1e6);
        }
        return "";
    }

    private static String collectivesText(SimResults r) {
        StringBuilder sb = new StringBuilder();
        for (SimResults.CollectiveResult c : r.collectives()) {
            sb.append(String.format(Locale.ROOT, "; %s %.1f µs busbw %.1f GB/s", c.name(), c.timePs() / 1e6,
                    c.busbwGBps()));
        }
        return sb.toString();
    }

    /** Shows the recorded snapshot nearest {@code timePs} (the timeline after a run). */
    void scrubTo(long timePs) {
        if (session == null) {
            return;
        }
        SimSnapshot s = session.recording().at(timePs);
        if (s != null) {
            showRecorded(s, " (recorded)");
        }
    }

    private void showRecorded(SimSnapshot s, String suffix) {
        List<SimSnapshot> rec = session.recording().frames();
        int i = rec.indexOf(s);
        previousShown = i > 0 ? rec.get(i - 1) : null;
        shown = s;
        frame = frames.frame(s, previousShown, colourBy.get(), selectedFlow.get(), collectiveMembers(), System.nanoTime());
        showFigures(s, suffix);
        dashboardShows = s;
        listeners.forEach(l -> l.pictureChanged(s));
        redraw.run();
    }

    /** The hottest egress port of the picture shown ({@link RunReview#hottestPort}), or null. */
    public String hottestPort() {
        return shown == null ? null : RunReview.hottestPort(shown);
    }

    /** After a run: shows its worst moment (most bytes queued); the timeline moves there. */
    public SimSnapshot showWorstMoment() {
        SimSnapshot s = session == null ? null : RunReview.worstMoment(session.recording().frames());
        if (s != null) {
            showRecorded(s, " (worst moment: most bytes queued)");
        }
        return s;
    }

    /**
     * After a run: the canvas shows its totals instead of the last picture (where the queues have
     * drained): per direction the largest queue any recorded snapshot saw, whether it was ever
     * paused, and its ECN marks per µs over the run ({@link FrameBuilder#totals}).
     */
    public CongestionFrame showTotals() {
        if (session == null || session.recording().frames().isEmpty()) {
            return null;
        }
        frame = frames.totals(session.recording().frames(), colourBy.get());
        clock.set(String.format(Locale.ROOT, "run totals, 0 – %.3f µs", session.recording().frames()
                .get(session.recording().size() - 1).timePs() / 1e6));
        redraw.run();
        return frame;
    }

    void setScrubbing(boolean s) {
        scrubbing = s;
    }

    void rebuildFrame() {
        if (shown != null) {
            frame = frames.frame(shown, previousShown, colourBy.get(), selectedFlow.get(), collectiveMembers(),
                    System.nanoTime());
            redraw.run();
        }
    }

    /** Commands to the run (thresholds, link failures) and what it leaves (results, recording). */
    public LiveCommands commands() {
        return commands;
    }

    void setThresholdStatus(String s) {
        thresholdStatus.set(s);
    }
}
