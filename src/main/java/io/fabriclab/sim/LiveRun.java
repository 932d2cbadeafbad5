package io.fabriclab.sim;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import io.fabriclab.model.Link;
import io.fabriclab.model.WredEcn;

/**
 * A simulation under live control, as the live view (or a test) drives it: the {@link Simulator}
 * runs on its own thread ("fabriclab-simulator"), which owns every piece of simulation state;
 * other threads only call the methods here, which never wait for the simulator.
 *
 * <ul>
 *   <li><b>Run control</b>: {@link #start}, {@link #pause}, {@link #resume}, {@link #stop},
 *       single steps and {@link #setSpeed speed}. Pausing takes effect within 4096 events (the
 *       simulator polls its command queue that often), or at once when the run is throttled.</li>
 *   <li><b>Steps</b> (the run is paused first): {@link #stepEvent()} runs exactly one event of the
 *       event queue (a packet arrival, the end of a transmission, a timer...);
 *       {@link #stepInterval()} advances simulated time to the next multiple of the snapshot
 *       interval: it runs every event up to that instant, counted from the later of the current
 *       time and the previous interval step's end, so repeated interval steps land on the
 *       snapshot grid (5, 10, 15 us...) even across idle gaps. Each step publishes a snapshot of
 *       the instant it reached and completes its future with that simulated time. A step once
 *       begun runs to its end: a pause or speed request met on the way (a step's own pause
 *       request can reach the simulator after the step) waits for it; only stop cuts it short.</li>
 *   <li><b>Speed</b>: simulated picoseconds per wall second, from {@link #MIN_SPEED_PS_PER_S}
 *       (1 ns per second) to {@link #MAX_SPEED_PS_PER_S} (1 ms per second), or
 *       {@link #UNTHROTTLED}. A throttled run never lets simulated time run ahead of the wall
 *       clock: before an event it waits until wall time catches up with the event's time.</li>
 *   <li><b>Commands</b> (fail / restore a link, ECN curve or PFC thresholds of a port or a QoS
 *       profile) run on the simulator thread between events; each returns a future completed
 *       with the simulated time at which it took effect, or failed with the reason it was
 *       refused (unknown port, Kmax below Kmin...), which leaves the run going.</li>
 *   <li><b>Snapshots</b>: one every snapshot interval of simulated time, but published at most
 *       once per {@code minPublishNanos} of wall time (default one per 60 Hz frame), plus one
 *       on pause, after each step, while throttled between sparse events, and at the end. They
 *       go into a single-slot handoff ({@link AtomicReference}): publishing overwrites the slot
 *       and never waits; the consumer polls {@link #take()} and gets only the newest.
 *       {@link #published()} and {@link #taken()} count both sides.</li>
 *   <li><b>Errors</b>: an exception thrown inside the engine ends the run; {@link #result()}
 *       completes exceptionally with it, {@link #state()} becomes {@link State#FAILED},
 *       {@link #failure()} returns it, and every pending step or command future fails with it.
 *       Nothing waits forever.</li>
 * </ul>
 *
 * <p>Pausing, stepping, throttling and publishing only read state or wait between events, so a
 * run driven any way ends with the same results as an uninterrupted one (tested).
 */
public final class LiveRun {
    /** Where a live run is. */
    public enum State { READY, RUNNING, PAUSED, FINISHED, STOPPED, FAILED }

    /** Speed value meaning "as fast as the simulator can". */
    public static final long UNTHROTTLED = 0;
    /** Slowest speed: 1 ns of simulated time per wall second. */
    public static final long MIN_SPEED_PS_PER_S = 1_000L;
    /** Fastest throttled speed: 1 ms of simulated time per wall second. */
    public static final long MAX_SPEED_PS_PER_S = 1_000_000_000L;
    /** Default bound on the publishing rate: one snapshot per 60 Hz animation frame. */
    public static final long FRAME_NANOS = 16_666_667L;

    private static final long IDLE_WAIT_NANOS = 50_000_000L;

    private final Simulator sim;
    private final long intervalPs;
    private final long minPublishNanos;
    private final AtomicReference<SimSnapshot> slot = new AtomicReference<>();
    private volatile SimSnapshot newest;
    private final AtomicLong published = new AtomicLong();
    private final AtomicLong taken = new AtomicLong();
    private final CompletableFuture<SimResults> result = new CompletableFuture<>();
    private final ConcurrentLinkedQueue<Step> steps = new ConcurrentLinkedQueue<>();
    private final Set<CompletableFuture<?>> pending = ConcurrentHashMap.newKeySet();

    /** Guards {@link #changes}; the simulator thread waits on it while paused or throttled. */
    private final Object lock = new Object();
    private long changes;
    private volatile boolean pauseRequested;
    private volatile boolean stopRequested;
    private volatile long speedPsPerSecond = UNTHROTTLED;
    private volatile State state = State.READY;
    private volatile Throwable failure;
    private volatile boolean ended;
    private Thread thread;

    // Simulator thread only.
    private Step activeStep;
    private long stepClockPs;
    /** The event count a one-event step ends at. */
    private long stepEventLimit;
    private boolean pausePublished;
    private long epochWallNanos = -1;
    private long epochSimPs;
    private long epochSpeed;
    private long lastWaitPublishNanos;

    /**
     * Test seam (LiveRunTest): runs on the simulator thread in the gate, after the queued commands
     * and before the pause and step requests are read, so a test can hold the simulator exactly
     * there while it queues a step. Null in the product.
     */
    volatile Runnable afterGateCommands;

    private record Step(boolean oneEvent, CompletableFuture<Long> done) {
    }

    /** A live run publishing a snapshot every {@code snapshotIntervalPs}, at most one per 60 Hz frame. */
    public LiveRun(Simulator sim, long snapshotIntervalPs) {
        this(sim, snapshotIntervalPs, FRAME_NANOS);
    }

    /**
     * @param snapshotIntervalPs simulated time between snapshots, also the stride of {@link #stepInterval()}
     * @param minPublishNanos    wall time between published snapshots (0: publish every interval)
     */
    public LiveRun(Simulator sim, long snapshotIntervalPs, long minPublishNanos) {
        if (snapshotIntervalPs <= 0 || minPublishNanos < 0) {
            throw new IllegalArgumentException("snapshot interval must be > 0");
        }
        this.sim = sim;
        this.intervalPs = snapshotIntervalPs;
        this.minPublishNanos = minPublishNanos;
        sim.setSnapshotSink(this::publish, snapshotIntervalPs, minPublishNanos);
        sim.setGate(this::reached);
    }

    // ----- run control (any thread) ------------------------------------------------------------------

    /** Starts the simulator thread, running or paused before the first event. Once only. */
    public synchronized void start(boolean paused) {
        if (thread != null) {
            throw new IllegalStateException("a live run starts once");
        }
        pauseRequested = paused;
        state = paused ? State.PAUSED : State.RUNNING;
        thread = new Thread(this::body, "fabriclab-simulator");
        thread.setDaemon(true);
        thread.start();
    }

    /** Pauses before the next event (within 4096 events); a snapshot of the paused instant is published. */
    public void pause() {
        change(() -> pauseRequested = true);
        sim.submit(c -> sim.askGate());
    }

    /** Resumes a paused run at the set speed. */
    public void resume() {
        change(() -> pauseRequested = false);
    }

    /** Ends the run before the next event; {@link #result()} then holds results with stop reason STOPPED. */
    public void stop() {
        change(() -> stopRequested = true);
        sim.submit(c -> sim.askGate());
    }

    /**
     * Simulated picoseconds per wall second, {@link #MIN_SPEED_PS_PER_S} to
     * {@link #MAX_SPEED_PS_PER_S}, or {@link #UNTHROTTLED}.
     */
    public void setSpeed(long psPerWallSecond) {
        if (psPerWallSecond != UNTHROTTLED
                && (psPerWallSecond < MIN_SPEED_PS_PER_S || psPerWallSecond > MAX_SPEED_PS_PER_S)) {
            throw new IllegalArgumentException("speed must be between 1 ns and 1 ms of simulated time per second"
                    + " (" + MIN_SPEED_PS_PER_S + ".." + MAX_SPEED_PS_PER_S + " ps/s) or unthrottled, got "
                    + psPerWallSecond);
        }
        change(() -> speedPsPerSecond = psPerWallSecond);
        sim.submit(c -> sim.askGate());
    }

    public long speed() {
        return speedPsPerSecond;
    }

    /** Pauses if running, then runs exactly one event; completes with the simulated time after it. */
    public CompletableFuture<Long> stepEvent() {
        return step(true);
    }

    /** Pauses if running, then advances one snapshot interval of simulated time; completes with the time reached. */
    public CompletableFuture<Long> stepInterval() {
        return step(false);
    }

    private CompletableFuture<Long> step(boolean oneEvent) {
        Step s = new Step(oneEvent, new CompletableFuture<>());
        steps.add(s);
        pause();
        if (ended) {
            finishSteps();
        }
        return s.done;
    }

    // ----- commands (any thread) ---------------------------------------------------------------------

    /** Fails a link now: what is on its wire and in its queues is lost; routing reconverges after the set delay. */
    public CompletableFuture<Long> failLink(Link link) {
        return command(c -> {
            c.failLink(link);
            return c.nowPs();
        });
    }

    /** Restores a failed link; routing reconverges after the set delay. */
    public CompletableFuture<Long> restoreLink(Link link) {
        return command(c -> {
            c.restoreLink(link);
            return c.nowPs();
        });
    }

    /** Sets the ECN curve (Kmin, Kmax, Pmax) of one egress queue ("device:port", class); null: no marking. */
    public CompletableFuture<Long> setEcn(String port, int trafficClass, WredEcn curve) {
        return command(c -> {
            c.setWred(port, trafficClass, curve);
            return c.nowPs();
        });
    }

    /** Sets the ECN curve of class {@code trafficClass} on every port of QoS profile {@code profile}. */
    public CompletableFuture<Long> setEcnForProfile(String profile, int trafficClass, WredEcn curve) {
        return command(c -> {
            if (c.setWredForProfile(profile, trafficClass, curve) == 0) {
                throw new IllegalArgumentException("no port runs QoS profile '" + profile + "'");
            }
            return c.nowPs();
        });
    }

    /** Sets PFC XOFF / XON of one switch port ("device:port") as an ingress. */
    public CompletableFuture<Long> setPfc(String port, long xoffBytes, long xonBytes) {
        return command(c -> {
            c.setPfcThresholds(port, xoffBytes, xonBytes);
            return c.nowPs();
        });
    }

    /** Sets PFC XOFF / XON on every switch port of QoS profile {@code profile}. */
    public CompletableFuture<Long> setPfcForProfile(String profile, long xoffBytes, long xonBytes) {
        return command(c -> {
            if (c.setPfcThresholdsForProfile(profile, xoffBytes, xonBytes) == 0) {
                throw new IllegalArgumentException("no switch port runs QoS profile '" + profile + "'");
            }
            return c.nowPs();
        });
    }

    /**
     * Sends a raw command to the simulator thread (as {@link Simulator#submit}). Unlike the typed
     * commands, an exception it throws is an engine error: it ends the run.
     */
    public void submit(java.util.function.Consumer<Simulator.Control> command) {
        sim.submit(command);
        change(() -> { });
    }

    private <T> CompletableFuture<T> command(Function<Simulator.Control, T> body) {
        CompletableFuture<T> f = new CompletableFuture<>();
        pending.add(f);
        sim.submit(c -> {
            if (!pending.remove(f)) {
                return;
            }
            try {
                f.complete(body.apply(c));
            } catch (IllegalArgumentException e) {
                // A refused command leaves the run going.
                f.completeExceptionally(e);
            }
        });
        if (ended) {
            failPending(endedError());
        }
        change(() -> { });
        return f;
    }

    // ----- snapshots and outcome (any thread) -------------------------------------------------------

    /** The newest snapshot not yet taken, or null; never waits. */
    public SimSnapshot take() {
        SimSnapshot s = slot.getAndSet(null);
        if (s != null) {
            taken.incrementAndGet();
        }
        return s;
    }

    /** The newest snapshot published (taken or not), or null before the first. */
    public SimSnapshot latest() {
        return newest;
    }

    /** Snapshots published so far. */
    public long published() {
        return published.get();
    }

    /** Snapshots taken so far; published - taken were overwritten unseen (or wait in the slot). */
    public long taken() {
        return taken.get();
    }

    public State state() {
        return state;
    }

    /**
     * Where the run is, in words, for a test's or a log's message when a run does not get where it
     * was asked to: state, newest snapshot, snapshots published and taken, steps and commands queued.
     */
    public String diagnostics() {
        SimSnapshot s = newest;
        return String.format(java.util.Locale.ROOT, "run %s, newest snapshot %s, %d published, %d taken,"
                        + " %d steps and %d commands queued", state,
                s == null ? "none" : String.format(java.util.Locale.ROOT, "at %d ps (%d events)", s.timePs(), s.events()),
                published.get(), taken.get(), steps.size(), sim.live.commands.size());
    }

    /** The exception that ended the run, or null. */
    public Throwable failure() {
        return failure;
    }

    /** The run's results; fails with the engine's exception if the run failed. */
    public CompletableFuture<SimResults> result() {
        return result;
    }

    /** Snapshots built so far (published or not: a snapshot built within a frame of the last one is dropped). */
    public long snapshotsBuilt() {
        SnapshotBuilder b = sim.snapshotBuilder();
        return b == null ? 0 : b.built();
    }

    /** Wall time the simulator thread has spent building snapshots, in nanoseconds. */
    public long snapshotBuildNanos() {
        SnapshotBuilder b = sim.snapshotBuilder();
        return b == null ? 0 : b.buildNanos();
    }

    /** Egress ports the snapshots carry now (the links traffic can have reached; see SnapshotBuilder). */
    public int snapshotPortsCarried() {
        SnapshotBuilder b = sim.snapshotBuilder();
        return b == null ? 0 : b.carried();
    }

    /** Snapshots list every port of the fabric (bench live's "before"); call before {@link #start}. */
    public void setWholeFabricSnapshots(boolean whole) {
        if (thread != null) {
            throw new IllegalStateException("set before the run starts");
        }
        sim.setWholeFabricSnapshots(whole);
    }

    /** Simulated time between snapshots (and the stride of an interval step). */
    public long snapshotIntervalPs() {
        return intervalPs;
    }

    // ----- the simulator thread --------------------------------------------------------------------

    private void body() {
        try {
            SimResults r = sim.run();
            sim.publishSnapshot(sim.now());
            ended = true;
            state = r.run().stopReason() == SimResults.StopReason.STOPPED ? State.STOPPED : State.FINISHED;
            if (activeStep != null) {
                activeStep.done.complete(sim.now());
                activeStep = null;
            }
            finishSteps();
            failPending(endedError());
            result.complete(r);
        } catch (Throwable t) {
            failure = t;
            ended = true;
            state = State.FAILED;
            if (activeStep != null) {
                activeStep.done.completeExceptionally(t);
                activeStep = null;
            }
            finishSteps();
            failPending(t);
            result.completeExceptionally(t);
        }
    }

    private void publish(SimSnapshot s) {
        newest = s;
        slot.set(s);
        published.incrementAndGet();
    }

    /** Called by the simulator when the next event lies beyond the grant. */
    private boolean reached(long nextEventPs) {
        if (activeStep != null) {
            if (activeStep.oneEvent ? sim.eventCount() < stepEventLimit : nextEventPs <= stepClockPs) {
                // Asked before the step's end: a pause, speed or stop request queued its askGate
                // after the step began (the step's own pause() can: its request reaches the
                // command queue after the step). The step runs on to its instant; only stop ends it.
                sim.applyCommands();
                if (stopRequested) {
                    return false;
                }
                if (activeStep.oneEvent) {
                    sim.grant(Long.MAX_VALUE, stepEventLimit - sim.eventCount());
                } else {
                    sim.grant(stepClockPs, Long.MAX_VALUE);
                }
                return true;
            }
            Step s = activeStep;
            activeStep = null;
            long at = s.oneEvent ? sim.now() : stepClockPs;
            sim.publishSnapshot(at);
            s.done.complete(at);
        }
        while (true) {
            long seen;
            synchronized (lock) {
                seen = changes;
            }
            if (sim.applyCommands() > 0) {
                pausePublished = false;
            }
            Runnable hook = afterGateCommands;
            if (hook != null) {
                hook.run();
            }
            if (stopRequested) {
                return false;
            }
            if (pauseRequested) {
                state = State.PAUSED;
                epochWallNanos = -1;
                Step s = steps.poll();
                if (s != null) {
                    activeStep = s;
                    pausePublished = true;
                    if (s.oneEvent) {
                        stepEventLimit = sim.eventCount() + 1;
                        sim.grant(Long.MAX_VALUE, 1);
                    } else {
                        stepClockPs = (Math.max(stepClockPs, sim.now()) / intervalPs + 1) * intervalPs;
                        sim.grant(stepClockPs, Long.MAX_VALUE);
                    }
                    return true;
                }
                if (!pausePublished) {
                    pausePublished = true;
                    sim.publishSnapshot(Math.max(sim.now(), Math.min(stepClockPs, nextEventPs - 1)));
                }
                waitForChange(seen, IDLE_WAIT_NANOS);
                continue;
            }
            pausePublished = false;
            state = State.RUNNING;
            long speed = speedPsPerSecond;
            if (speed == UNTHROTTLED) {
                epochWallNanos = -1;
                sim.grant(Long.MAX_VALUE, Long.MAX_VALUE);
                return true;
            }
            long wall = System.nanoTime();
            if (epochWallNanos < 0 || epochSpeed != speed) {
                epochWallNanos = wall;
                epochSimPs = Math.max(sim.now(), Math.min(stepClockPs, nextEventPs));
                epochSpeed = speed;
            }
            long allowed = epochSimPs + (long) ((wall - epochWallNanos) * (speed / 1e9));
            if (nextEventPs <= allowed) {
                if (allowed - nextEventPs > speed / 5) {
                    // Fell more than 200 ms behind the wall clock (the simulator is slower than the
                    // set speed): do not race to catch up, restart the clock here.
                    epochWallNanos = wall;
                    epochSimPs = nextEventPs;
                    allowed = nextEventPs;
                }
                sim.grant(allowed, Long.MAX_VALUE);
                return true;
            }
            // Ahead of the wall clock: show the clock advancing through the gap, then wait.
            if (wall - lastWaitPublishNanos >= Math.max(minPublishNanos, 1_000_000L)) {
                lastWaitPublishNanos = wall;
                sim.publishSnapshot(Math.max(sim.now(), allowed));
            }
            long waitNanos = (long) Math.ceil((nextEventPs - allowed) * 1e9 / speed);
            waitForChange(seen, Math.min(Math.max(waitNanos, 1), FRAME_NANOS));
        }
    }

    private void waitForChange(long seen, long nanos) {
        synchronized (lock) {
            if (changes != seen) {
                return;
            }
            try {
                lock.wait(nanos / 1_000_000L, (int) (nanos % 1_000_000L));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stopRequested = true;
            }
        }
    }

    private void change(Runnable r) {
        synchronized (lock) {
            r.run();
            changes++;
            lock.notifyAll();
        }
    }

    private void finishSteps() {
        Step s;
        while ((s = steps.poll()) != null) {
            if (failure != null) {
                s.done.completeExceptionally(failure);
            } else {
                SimSnapshot last = newest;
                s.done.complete(last != null ? last.timePs() : 0L);
            }
        }
    }

    private void failPending(Throwable t) {
        for (CompletableFuture<?> f : pending) {
            if (pending.remove(f)) {
                f.completeExceptionally(t);
            }
        }
    }

    private Throwable endedError() {
        return failure != null ? failure : new IllegalStateException("the run has ended; the command was not applied");
    }
}
