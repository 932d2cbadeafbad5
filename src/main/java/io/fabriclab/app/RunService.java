package io.fabriclab.app;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.fabriclab.io.Scenario;
import io.fabriclab.model.Transport;
import io.fabriclab.sim.Engine;
import io.fabriclab.sim.QosResolver;
import io.fabriclab.sim.SimConfig;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.SimRun;
import io.fabriclab.sim.Simulator;
import io.fabriclab.workload.FlowSpec;

/**
 * The one place that turns a fabric plus a scenario (typed values: {@link Scenario}, never text)
 * into a run, on either engine, with progress, cancellation and bounded memory. {@code simulate},
 * {@code compare}, {@code sweep} / {@code tune} (and the Spark job, through the sweep runner),
 * {@code report --simulate}, {@code bench sim}, the live view and the app's Compare Transports
 * window all build their runs here (docs/architecture.md, "Building a run").
 *
 * <ul>
 * <li>{@link #prepare}: one run, built (routes, flows, failures scheduled) and ready; refused with
 *     an {@link IllegalArgumentException} saying why (a transport this build does not simulate,
 *     telemetry too big to record, no route) before anything runs.</li>
 * <li>{@link Run#run}: runs it on the calling thread, reporting progress; {@link Run#cancel} from
 *     any thread stops it where the engine next looks (the results say so). The engine's state is dropped as
 *     soon as the results exist.</li>
 * <li>{@link #runAll}: several runs (the transports of {@code compare}, a sweep's variants) on a
 *     pool of threads, each built only when it starts, started only while their memory estimates
 *     ({@link #memoryEstimate}) fit in {@link #memoryBudget()} together; a run of more than
 *     {@link #aloneTasks} tasks runs alone. {@link Batch#cancel} stops them all.</li>
 * </ul>
 */
public final class RunService {
    /**
     * Above this many tasks a run has the machine's memory to itself: the 1.7 M-task training step
     * on 256 GPUs held about 6 GB in one packet-level run. (Tests lower it.)
     */
    public static volatile int aloneTasks = 200_000;

    private RunService() {
    }

    /**
     * One run asked for: its label in messages and listeners (a transport's name, "point 3 seed 1"),
     * the scenario as it is to run (its variant made with {@code Scenario.with...}) and the engine.
     */
    public record Request(String label, Scenario scenario, Engine engine) {
        public Request {
            java.util.Objects.requireNonNull(scenario, "scenario");
            engine = engine == null ? Engine.PACKET : engine;
            label = label == null ? scenario.name() : label;
        }

        /** The scenario under its own configuration on the packet engine. */
        public static Request of(Scenario scenario) {
            return new Request(scenario.name(), scenario, Engine.PACKET);
        }
    }

    /** What runs report while they go; called from the runs' threads. */
    public interface Listener {
        /** A run is built and about to start ({@code run.cancel()} stops it). */
        default void started(Request request, Run run) {
        }

        /** Progress, as {@link Simulator.Progress} reports it. */
        default void progress(Request request, long simulatedPs, long endPs, long events, long wallNanos, int done,
                              int flows) {
        }

        /** A run ended with {@code results}. */
        default void finished(Request request, SimResults results) {
        }
    }

    /** No progress wanted. */
    public static final Listener QUIET = new Listener() {
    };

    /**
     * Builds the run of {@code request}: its scenario under its own configuration on its engine
     * (failures, routing, switch latency and collectives set up as the scenario says).
     *
     * @throws IllegalArgumentException why it cannot run (the scenario's words, naming the JSON path)
     */
    public static Run prepare(Request request) {
        Scenario s = request.scenario();
        return new Run(request, s.run(s.config(), request.engine()));
    }

    /**
     * The packet engine's simulator of {@code scenario}, for callers that drive it themselves (the
     * live view wraps it in a {@code LiveRun} for snapshots, steps and commands).
     */
    public static Simulator simulator(Scenario scenario) {
        return scenario.simulator(scenario.config());
    }

    /**
     * A scenario of ready-made {@code flows} (a workload preset of the app or a benchmark) on
     * {@code fabric} under transport {@code t} with its default parameters: no failures, ECMP, the
     * scenario reader's defaults for reconvergence (50 us) and the deadlock detector (500 us), so it
     * runs as a scenario file with the same flows would.
     */
    public static Scenario scenarioOf(String name, io.fabriclab.model.Fabric fabric, String qosProfile, QosResolver qos,
                                      List<FlowSpec> flows, SimConfig cfg, Transport t) {
        return scenarioOf(name, fabric, qosProfile, qos, List.of(), java.util.Map.of(), flows, cfg, t);
    }

    /**
     * As {@link #scenarioOf(String, io.fabriclab.model.Fabric, String, QosResolver, List, SimConfig, Transport)},
     * with the {@code workloads} the flows come from (an NCCL collective or a training step is then
     * reported as a scenario naming it reports it) and the NCCL collectives they declare by label
     * beyond the workloads' own ({@code TrainingJob.Built.collectives()} for a training step;
     * Scenario.collectives).
     */
    public static Scenario scenarioOf(String name, io.fabriclab.model.Fabric fabric, String qosProfile, QosResolver qos,
                                      List<io.fabriclab.workload.Workload> workloads,
                                      java.util.Map<String, io.fabriclab.workload.NcclCollective> collectives,
                                      List<FlowSpec> flows, SimConfig cfg, Transport t) {
        java.util.Map<String, io.fabriclab.workload.NcclCollective> declared = new java.util.LinkedHashMap<>(collectives);
        for (io.fabriclab.workload.Workload w : workloads) {
            if (w instanceof io.fabriclab.workload.NcclCollective c) {
                declared.put(c.label(), c);
            }
        }
        return new Scenario(name, "", fabric, qosProfile, qos, workloads, flows, cfg, "-", List.of(),
                50 * io.fabriclab.model.Units.PS_PER_US, 500 * io.fabriclab.model.Units.PS_PER_US,
                io.fabriclab.sim.RoutingPolicy.ecmp(), Scenario.defaultTransport(t, fabric.mtuBytes()), List.of(), -1L,
                null, List.of(), declared);
    }

    /** One built run: run it once, cancel it from any thread. */
    public static final class Run {
        private final Request request;
        private final Engine engine;
        private volatile SimRun engineRun;
        private volatile boolean cancelled;

        Run(Request request, SimRun engineRun) {
            this.request = request;
            this.engineRun = engineRun;
            this.engine = request.engine();
        }

        public Request request() {
            return request;
        }

        /** The engine this run is on. */
        public Engine engine() {
            return engine;
        }

        /**
         * Runs to the end (or to a cancel) on the calling thread; {@code progress} may be null. The
         * engine's queues, rings and per-flow state are let go once the results exist.
         *
         * @throws IllegalStateException when run a second time
         */
        public SimResults run(Simulator.Progress progress) {
            SimRun r = engineRun;
            if (r == null) {
                throw new IllegalStateException(request.label() + ": a run runs once");
            }
            if (cancelled) {
                r.requestStop();
            }
            SimResults out = r.run(progress);
            engineRun = null;
            return out;
        }

        /**
         * Stops the run where its engine next looks at its stop flag (the packet engine every
         * 262,144 events; a run that ends before that completes); its results say it was stopped.
         */
        public void cancel() {
            cancelled = true;
            SimRun r = engineRun;
            if (r != null) {
                r.requestStop();
            }
        }

        public boolean cancelled() {
            return cancelled;
        }
    }

    /** The memory all runs in flight may use together: 60 % of the maximum heap. */
    public static long memoryBudget() {
        return (long) (Runtime.getRuntime().maxMemory() * 0.6);
    }

    /**
     * A run's memory estimate, bytes: port telemetry (2 directions x 2 series x links x points x 16 B,
     * the count {@link Scenario#telemetryProblem} uses), each flow's rate series (points x 16 B) and
     * record (2 KB), each link's ports and queues (16 KB), and 32 MB for the simulator's pools.
     */
    public static long memoryEstimate(Scenario s) {
        SimConfig cfg = s.config();
        long horizon = cfg.durationPs() > 0 ? cfg.durationPs() : cfg.maxTimePs();
        double samples = Math.ceil((double) horizon / cfg.sampleIntervalPs());
        double points = Math.min(samples, cfg.maxSeriesPoints());
        double bytes = 4.0 * s.fabric().links().size() * points * 16
                + s.flows().size() * (points * 16 + 2048)
                + s.fabric().links().size() * 16384.0
                + 32.0 * 1024 * 1024;
        return (long) Math.min(bytes, Long.MAX_VALUE / 2);
    }

    /** Worker threads for {@code runs} runs: one each while cores allow. */
    public static int threads(int runs) {
        return Math.max(1, Math.min(runs, Runtime.getRuntime().availableProcessors()));
    }

    /** Whether {@code r} runs alone (more than {@link #aloneTasks} tasks). */
    public static boolean alone(Request r) {
        return r.scenario().flows().size() > aloneTasks;
    }

    /** As {@link #start} and {@link Batch#results}: the results of {@code requests}, in order. */
    public static List<SimResults> runAll(List<Request> requests, int threads, Listener listener)
            throws InterruptedException {
        return start(requests, threads, listener).results();
    }

    /**
     * Starts {@code requests} on up to {@code threads} threads (never more than the cores, one when
     * a run is to run alone), each built when its turn comes and admitted while the estimates of
     * the runs in flight fit in {@link #memoryBudget()} (a run that does not fit with others waits
     * until it can run alone).
     */
    public static Batch start(List<Request> requests, int threads, Listener listener) {
        return new Batch(List.copyOf(requests), threads, listener == null ? QUIET : listener);
    }

    /** Runs in flight: their results in request order, or cancel them all. */
    public static final class Batch {
        private final List<Request> requests;
        private final Listener listener;
        private final List<Run> running = new ArrayList<>();
        private final List<Future<SimResults>> futures = new ArrayList<>();
        private final ExecutorService pool;
        private final long budget = memoryBudget();
        private long inFlightBytes;
        private int inFlight;
        private boolean aloneInFlight;
        private volatile boolean cancelled;
        /** The first run that could not be built: the rest are cancelled and it is thrown. */
        private volatile IllegalArgumentException refused;

        Batch(List<Request> requests, int threads, Listener listener) {
            this.requests = requests;
            this.listener = listener;
            int n = Math.max(1, Math.min(threads, threads(requests.size())));
            if (requests.stream().anyMatch(RunService::alone)) {
                n = 1;
            }
            this.pool = Executors.newFixedThreadPool(n, r -> {
                Thread t = new Thread(r, "fabriclab-run");
                t.setDaemon(true);
                return t;
            });
            for (Request q : requests) {
                futures.add(pool.submit(() -> runOne(q)));
            }
            pool.shutdown();
        }

        /** How many threads run at once. */
        public static int threadsFor(List<Request> requests, int threads) {
            int n = Math.max(1, Math.min(threads, RunService.threads(requests.size())));
            return requests.stream().anyMatch(RunService::alone) ? 1 : n;
        }

        private SimResults runOne(Request q) throws InterruptedException {
            long need = memoryEstimate(q.scenario());
            boolean alone = alone(q);
            synchronized (this) {
                while (!cancelled && inFlight > 0 && (alone || aloneInFlight || inFlightBytes + need > budget)) {
                    wait();
                }
                if (cancelled) {
                    return null;
                }
                inFlight++;
                inFlightBytes += need;
                aloneInFlight |= alone;
            }
            Run run = null;
            try {
                try {
                    run = prepare(q);
                } catch (IllegalArgumentException e) {
                    synchronized (this) {
                        if (refused == null) {
                            refused = new IllegalArgumentException(q.label() + ": " + e.getMessage(), e);
                        }
                    }
                    cancel();
                    return null;
                }
                synchronized (this) {
                    running.add(run);
                    if (cancelled) {
                        run.cancel();
                    }
                }
                listener.started(q, run);
                SimResults r = run.run(listener == QUIET ? null
                        : (now, end, events, wall, done, flows) -> listener.progress(q, now, end, events, wall, done, flows));
                listener.finished(q, r);
                return r;
            } finally {
                synchronized (this) {
                    if (run != null) {
                        running.remove(run);
                    }
                    inFlight--;
                    inFlightBytes -= need;
                    aloneInFlight &= !alone;
                    notifyAll();
                }
            }
        }

        /** Stops the runs in flight and starts no more; their results say they were stopped. */
        public void cancel() {
            List<Run> now;
            synchronized (this) {
                cancelled = true;
                now = List.copyOf(running);
                notifyAll();
            }
            now.forEach(Run::cancel);
        }

        /**
         * Waits for every run and returns their results in request order (null for a run cancelled
         * before it started).
         *
         * @throws IllegalArgumentException when a run could not be built (naming its label); the
         *                                  others were stopped
         * @throws IllegalStateException    when a run failed inside the engine
         */
        public List<SimResults> results() throws InterruptedException {
            List<SimResults> out = new ArrayList<>();
            try {
                for (int i = 0; i < futures.size(); i++) {
                    try {
                        out.add(futures.get(i).get());
                    } catch (ExecutionException ex) {
                        cancel();
                        throw new IllegalStateException(requests.get(i).label() + " run failed: " + ex.getCause(),
                                ex.getCause());
                    }
                }
            } catch (InterruptedException e) {
                cancel();
                throw e;
            } finally {
                pool.shutdownNow();
            }
            if (refused != null) {
                throw refused;
            }
            return out;
        }
    }

    /** "packet" or "flow" as a person reads it in a result's heading. */
    public static String describe(Engine e) {
        return e == Engine.FLOW ? "flow level (max-min fair rates)" : "packet level";
    }

    /** The engine's line in a printed result: "engine: packet". */
    public static String engineLine(SimResults r) {
        return String.format(Locale.ROOT, "engine: %s", r.run().engine());
    }
}
