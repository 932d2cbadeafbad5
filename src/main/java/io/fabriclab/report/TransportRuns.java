package io.fabriclab.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import io.fabriclab.app.RunService;
import io.fabriclab.io.Scenario;
import io.fabriclab.io.ScenarioJson;
import io.fabriclab.model.Transport;
import io.fabriclab.sim.Engine;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.Simulator;
import io.fabriclab.sim.TransportProfile;
import io.fabriclab.topology.BillOfMaterials;
import io.fabriclab.topology.PriceBook;

/**
 * One scenario under several transports on the same drawing, as {@code fabriclab compare} and the
 * app's Compare Transports window both run it: a sweep over the transport. The scenario is read
 * once (the strict reader, as {@code simulate} reads it); each transport's variant is made on the
 * typed scenario ({@link Scenario#withTransport}: the transport's own defaults, settings of another
 * transport left out), never by rewriting its text; the runs go through the run service
 * ({@link RunService#runAll}: in parallel while cores and memory allow) on the engine chosen; the
 * results with each transport's bill of materials are put together as a {@link TransportComparison}.
 * No output of its own: notes (a transport's warnings) go to the caller.
 */
public final class TransportRuns {
    private TransportRuns() {
    }

    /** What a run reports while it goes (any thread). */
    public interface Listener {
        /** A transport's run is built and about to start ({@link RunService.Run#cancel} stops it). */
        default void started(Transport t, RunService.Run run) {
        }

        /** Progress of a running transport, as {@link io.fabriclab.sim.Simulator.Progress} reports it. */
        default void progress(Transport t, long simulatedPs, long endPs, int flowsCompleted, int flows) {
        }

        /** A transport's run ended with {@code results}. */
        default void finished(Transport t, SimResults results) {
        }
    }

    /** No progress wanted (the CLI's runs, bit for bit what they were). */
    public static final Listener QUIET = new Listener() {
    };

    /**
     * The scenario {@code base} under each transport of {@code set}, in that order
     * ({@link Scenario#withTransport}); each variant's warnings and notes go to {@code note},
     * prefixed with the transport's json name.
     */
    public static Map<Transport, Scenario> scenarios(Scenario base, List<Transport> set, Consumer<String> note) {
        Map<Transport, Scenario> out = new LinkedHashMap<>();
        for (Transport t : set) {
            Scenario s = base.withTransport(t, n -> note.accept("compare: " + n));
            s.warnings().forEach(w -> note.accept("warning: " + t.jsonName() + ": " + w.render()));
            out.put(t, s);
        }
        return out;
    }

    /**
     * The default parameters of {@code t} on a fabric of {@code fabricMtuBytes}
     * ({@link Scenario#defaultTransport}).
     */
    public static TransportProfile profile(Transport t, int fabricMtuBytes) {
        return Scenario.defaultTransport(t, fabricMtuBytes);
    }

    /**
     * A packet-level simulator of {@code flows} on {@code fabric} under {@code t} with its default
     * parameters, built by the run service as a scenario of those flows ({@link RunService#scenarioOf});
     * the live view's presets and training step run this way.
     */
    public static Simulator simulator(io.fabriclab.model.Fabric fabric, List<io.fabriclab.workload.FlowSpec> flows,
                                      io.fabriclab.sim.SimConfig cfg, io.fabriclab.sim.QosResolver qos, Transport t) {
        return RunService.simulator(RunService.scenarioOf("flows", fabric, null, qos, flows, cfg, t));
    }

    /** A scenario of ready-made {@code flows} on {@code fabric} under {@code t} ({@link RunService#scenarioOf}). */
    public static Scenario ofFlows(String name, io.fabriclab.model.Fabric fabric, String qosProfile,
                                   io.fabriclab.sim.QosResolver qos, List<io.fabriclab.workload.FlowSpec> flows,
                                   io.fabriclab.sim.SimConfig cfg, Transport t) {
        return RunService.scenarioOf(name, fabric, qosProfile, qos, flows, cfg, t);
    }

    /** The transports of {@code set} this build simulates, in order. */
    public static List<Transport> simulated(List<Transport> set) {
        return set.stream().filter(TransportProfile::simulated).toList();
    }

    /** Worker threads for {@code runs} runs: one each while cores allow. */
    public static int threads(int runs) {
        return RunService.threads(runs);
    }

    /**
     * Runs the transports of {@code toRun} on {@code engine} through the run service, each on its
     * own thread while cores and memory allow, and returns their results in that order. A run that
     * cannot be built stops the lot (IllegalArgumentException naming the transport).
     */
    public static Map<Transport, SimResults> run(Map<Transport, Scenario> scenarios, List<Transport> toRun,
                                                 int threads, Engine engine, Listener listener) throws InterruptedException {
        return start(scenarios, toRun, threads, engine, listener).results();
    }

    /** As {@link #run(Map, List, int, Engine, Listener)} on the packet engine. */
    public static Map<Transport, SimResults> run(Map<Transport, Scenario> scenarios, List<Transport> toRun,
                                                 int threads, Listener listener) throws InterruptedException {
        return run(scenarios, toRun, threads, Engine.PACKET, listener);
    }

    /** The requests of a comparison: one per transport of {@code toRun}, labelled with its json name. */
    public static List<RunService.Request> requests(Map<Transport, Scenario> scenarios, List<Transport> toRun, Engine engine) {
        return toRun.stream().map(t -> new RunService.Request(t.jsonName(), scenarios.get(t), engine)).toList();
    }

    /** The transports' runs started; {@link Running#cancel} stops them. */
    public static Running start(Map<Transport, Scenario> scenarios, List<Transport> toRun, int threads, Engine engine,
                                Listener listener) {
        Map<String, Transport> byLabel = new LinkedHashMap<>();
        toRun.forEach(t -> byLabel.put(t.jsonName(), t));
        RunService.Listener l = listener == QUIET ? RunService.QUIET : new RunService.Listener() {
            @Override
            public void started(RunService.Request request, RunService.Run run) {
                listener.started(byLabel.get(request.label()), run);
            }

            @Override
            public void progress(RunService.Request request, long simulatedPs, long endPs, long events, long wallNanos,
                                 int done, int flows) {
                listener.progress(byLabel.get(request.label()), simulatedPs, endPs, done, flows);
            }

            @Override
            public void finished(RunService.Request request, SimResults results) {
                listener.finished(byLabel.get(request.label()), results);
            }
        };
        return new Running(toRun, RunService.start(requests(scenarios, toRun, engine), threads, l));
    }

    /** A comparison's runs in flight. */
    public static final class Running {
        private final List<Transport> toRun;
        private final RunService.Batch batch;

        Running(List<Transport> toRun, RunService.Batch batch) {
            this.toRun = toRun;
            this.batch = batch;
        }

        /** Stops every transport's run. */
        public void cancel() {
            batch.cancel();
        }

        /** Each transport's results, in order (absent for one stopped before it started). */
        public Map<Transport, SimResults> results() throws InterruptedException {
            List<SimResults> rs = batch.results();
            Map<Transport, SimResults> out = new LinkedHashMap<>();
            for (int i = 0; i < toRun.size(); i++) {
                if (rs.get(i) != null) {
                    out.put(toRun.get(i), rs.get(i));
                }
            }
            return out;
        }
    }

    /**
     * The comparison: a row per transport of {@code scenarios} (in order) with its results (absent
     * when not simulated) and the bill of materials of its scenario's fabric built for it.
     */
    public static TransportComparison comparison(Map<Transport, Scenario> scenarios, Map<Transport, SimResults> results,
                                                 PriceBook book, String source) {
        List<TransportComparison.Row> rows = new ArrayList<>();
        for (Map.Entry<Transport, Scenario> e : scenarios.entrySet()) {
            rows.add(new TransportComparison.Row(e.getKey(), results.get(e.getKey()),
                    BillOfMaterials.of(e.getValue().fabric(), book, e.getKey())));
        }
        Scenario first = scenarios.values().iterator().next();
        return new TransportComparison(first.name(), source, rows);
    }

    /**
     * Writes the design-review report (.html or .pdf, ReportFormat) of a comparison: the scenario
     * and its fabric reviewed as `fabriclab report` reviews them, a run per simulated transport
     * ("R1: RoCEv2", ...) and the Transport comparison section.
     *
     * @param source  the scenario file, as the report names it
     * @param bytes   the scenario file's bytes (its hash) and {@code text} its text
     * @param how     what the runs say made them ("simulated by fabriclab compare")
     * @param command the command or action the report says produced it
     */
    public static void writeReport(TransportComparison cmp, Map<Transport, Scenario> scenarios,
                                   Map<Transport, SimResults> results, PriceBook book, String source, byte[] bytes,
                                   String text, String author, String how, String command, Path output)
            throws IOException {
        List<ReportRun> runs = new ArrayList<>();
        int n = 1;
        for (Map.Entry<Transport, SimResults> e : results.entrySet()) {
            Scenario s = scenarios.get(e.getKey());
            io.fabriclab.io.ResultsJson.Metadata meta = new io.fabriclab.io.ResultsJson.Metadata(
                    io.fabriclab.io.ResultsJson.fabriclabVersion(), s.name(), source, s.sha256(), s.fabric().name(),
                    s.profile());
            runs.add(new ReportRun("R" + n++ + ": " + e.getKey().displayName(), how, meta, e.getValue(), s, text));
        }
        Scenario first = scenarios.values().iterator().next();
        ReportInput in = new ReportInput(first.fabric(), source, ScenarioJson.sha256(bytes), first, text,
                io.fabriclab.topology.FabricAnalysis.Options.defaults(book), runs, author, java.time.LocalDate.now(),
                command, cmp);
        ReportWriter.write(in, output, (f, m) -> { });
    }
}
