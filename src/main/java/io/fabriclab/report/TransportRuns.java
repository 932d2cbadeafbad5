package io.fabriclab.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabriclab.io.FabricReader;
import io.fabriclab.io.Scenario;
import io.fabriclab.io.ScenarioException;
import io.fabriclab.io.ScenarioJson;
import io.fabriclab.model.Transport;
import io.fabriclab.sim.IbFraming;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.Simulator;
import io.fabriclab.sim.TransportProfile;
import io.fabriclab.topology.BillOfMaterials;
import io.fabriclab.topology.PriceBook;

/**
 * One scenario under several transports on the same drawing, as {@code fabriclab compare} and the
 * app's Compare Transports window both run it: the scenario read once per transport (its own
 * {@code transport} replaced, fields of another transport left out, an Ethernet MTU giving way to
 * InfiniBand's), each simulated transport run on its own thread while cores allow, and the
 * results with each transport's bill of materials put together as a {@link TransportComparison}.
 * No output of its own: notes (a replaced MTU, a scenario's warnings) go to the caller.
 */
public final class TransportRuns {
    /** The strict reader (duplicate keys refused): a variant is never made of text the scenario reader would refuse. */
    private static final ObjectMapper JSON = io.fabriclab.io.JsonInput.strictMapper();

    private TransportRuns() {
    }

    /** What a run reports while it goes (any thread). */
    public interface Listener {
        /** A transport's simulator is built and about to run ({@link Simulator#requestStop} stops it). */
        default void started(Transport t, Simulator sim) {
        }

        /** Progress of a running transport, as {@link Simulator.Progress} reports it. */
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
     * The scenario {@code text} read once per transport of {@code set}, in that order.
     *
     * @param source  the scenario's name in messages (its file)
     * @param baseDir where its relative fabric path resolves
     * @param fabric  null to read the scenario's own fabric; else gives the fabric each transport's
     *                run uses (one object per call: runs in parallel must not share a fabric)
     * @param note    gets each note and warning, prefixed with the transport's json name
     * @throws IllegalArgumentException naming the transport when a variant does not read
     */
    public static Map<Transport, Scenario> scenarios(String text, String source, Path baseDir, FabricReader reader,
                                                     Supplier<io.fabriclab.model.Fabric> fabric, List<Transport> set,
                                                     Consumer<String> note) {
        Map<Transport, Scenario> out = new LinkedHashMap<>();
        for (Transport t : set) {
            Scenario s;
            try {
                s = ScenarioJson.parse(variant(text, t, note), source, baseDir, reader,
                        fabric == null ? null : fabric.get());
            } catch (ScenarioException | IllegalArgumentException e) {
                throw new IllegalArgumentException(t.jsonName() + ": " + e.getMessage(), e);
            }
            s.warnings().forEach(w -> note.accept("warning: " + t.jsonName() + ": " + w.render()));
            out.put(t, s);
        }
        return out;
    }

    /**
     * The scenario text with its transport set to {@code t}: fields of another transport are left
     * out, and on InfiniBand a top-level mtuBytes that is not an InfiniBand MTU (an Ethernet frame
     * size such as 9000) gives way to InfiniBand's 4096, said to {@code note}.
     */
    public static String variant(String text, Transport t, Consumer<String> note) {
        JsonNode root;
        try {
            root = JSON.readTree(text.startsWith("\uFEFF") ? text.substring(1) : text);
        } catch (IOException e) {
            return text; // the scenario reader reports the syntax error with its location
        }
        if (root == null || !root.isObject()) {
            return text;
        }
        ObjectNode o = (ObjectNode) root;
        JsonNode tr = o.get("transport");
        if (tr != null && tr.isObject()) {
            ObjectNode copy = ((ObjectNode) tr).deepCopy();
            copy.put("name", t.jsonName());
            if (t != Transport.INFINIBAND) {
                copy.remove(List.of("dataVls", "vlBufferBytes", "congestionControl"));
            }
            if (t != Transport.ULTRA_ETHERNET) {
                copy.remove("trimThresholdPackets");
            }
            o.set("transport", copy);
        } else {
            o.put("transport", t.jsonName());
        }
        JsonNode mtu = o.get("mtuBytes");
        if (t == Transport.INFINIBAND && mtu != null && mtu.isIntegralNumber() && !IbFraming.isMtu(mtu.asLong())) {
            note.accept("compare: infiniband: $.mtuBytes " + mtu.asLong() + " is an Ethernet frame size; InfiniBand runs "
                    + "at its MTU of " + IbFraming.MAX_MTU_BYTES + " B of payload");
            o.remove("mtuBytes");
        }
        try {
            return JSON.writeValueAsString(o);
        } catch (IOException e) {
            return text;
        }
    }

    /**
     * The default parameters of {@code t} on a fabric of {@code fabricMtuBytes}: for InfiniBand the
     * largest IBTA MTU not above the fabric's (what a scenario naming {@code infiniband} gets when
     * it sets no MTU of its own; ScenarioJson).
     */
    public static TransportProfile profile(Transport t, int fabricMtuBytes) {
        TransportProfile p = TransportProfile.of(t);
        if (t != Transport.INFINIBAND) {
            return p;
        }
        int best = -1;
        for (int m : IbFraming.MTUS) {
            if (m <= fabricMtuBytes) {
                best = m;
            }
        }
        return best < 0 ? p : TransportProfile.infiniband(p.ib().withMtuBytes(best));
    }

    /**
     * A simulator of {@code flows} on {@code fabric} under {@code t} with its default parameters,
     * as a scenario naming that transport builds it (InfiniBand's VL buffer advertised by every
     * receiver); the run panel's presets run this way.
     */
    public static Simulator simulator(io.fabriclab.model.Fabric fabric, List<io.fabriclab.workload.FlowSpec> flows,
                                      io.fabriclab.sim.SimConfig cfg, io.fabriclab.sim.QosResolver qos, Transport t) {
        TransportProfile p = profile(t, fabric.mtuBytes());
        Simulator sim = new Simulator(fabric, flows, cfg, qos, p);
        if (p.ib() != null) {
            sim.setVlCreditBytes(p.ib().vlBufferBytes());
        }
        return sim;
    }

    /**
     * A scenario of ready-made {@code flows} (a workload preset of the app) on {@code fabric} under
     * {@code t}: no failures, ECMP, the scenario reader's defaults for reconvergence (50 us) and the
     * deadlock detector (500 us), so it runs as a scenario file with the same flows would.
     */
    public static Scenario ofFlows(String name, io.fabriclab.model.Fabric fabric, String qosProfile,
                                   io.fabriclab.sim.QosResolver qos, List<io.fabriclab.workload.FlowSpec> flows,
                                   io.fabriclab.sim.SimConfig cfg, Transport t) {
        return new Scenario(name, "", fabric, qosProfile, qos, List.of(), flows, cfg, "-", List.of(),
                50 * io.fabriclab.model.Units.PS_PER_US, 500 * io.fabriclab.model.Units.PS_PER_US,
                io.fabriclab.sim.RoutingPolicy.ecmp(), profile(t, fabric.mtuBytes()), List.of(), -1L, null);
    }

    /** The transports of {@code set} this build simulates, in order. */
    public static List<Transport> simulated(List<Transport> set) {
        return set.stream().filter(TransportProfile::simulated).toList();
    }

    /** Worker threads for {@code runs} runs: one each while cores allow. */
    public static int threads(int runs) {
        return Math.max(1, Math.min(runs, Runtime.getRuntime().availableProcessors()));
    }

    /**
     * A simulator for one transport's scenario; refused (IllegalArgumentException naming the
     * transport) when the simulator cannot run it (no route, telemetry too big).
     */
    public static Simulator simulator(Transport t, Scenario s) {
        try {
            return s.simulator(s.config());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(t.jsonName() + ": " + e.getMessage(), e);
        }
    }

    /** Runs one transport's simulator to its end, telling {@code listener}. */
    public static SimResults runOne(Transport t, Simulator sim, Listener listener) {
        listener.started(t, sim);
        SimResults r = listener == QUIET ? sim.run()
                : sim.run((now, end, events, wall, done, flows) -> listener.progress(t, now, end, done, flows));
        listener.finished(t, r);
        return r;
    }

    /**
     * Runs the transports of {@code toRun}, each on its own thread while cores allow, and returns
     * their results in that order. Each simulator is built before its run is handed to a thread;
     * one that cannot be built stops the lot (IllegalArgumentException naming the transport).
     */
    public static Map<Transport, SimResults> run(Map<Transport, Scenario> scenarios, List<Transport> toRun,
                                                 int threads, Listener listener) throws InterruptedException {
        Map<Transport, SimResults> results = new LinkedHashMap<>();
        if (toRun.isEmpty()) {
            return results;
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            Map<Transport, Future<SimResults>> futures = new LinkedHashMap<>();
            for (Transport t : toRun) {
                Simulator sim = simulator(t, scenarios.get(t));
                futures.put(t, pool.submit(() -> runOne(t, sim, listener)));
            }
            for (Map.Entry<Transport, Future<SimResults>> e : futures.entrySet()) {
                try {
                    results.put(e.getKey(), e.getValue().get());
                } catch (ExecutionException ex) {
                    throw new IllegalStateException(e.getKey().jsonName() + " run failed: " + ex.getCause(), ex.getCause());
                }
            }
        } finally {
            pool.shutdownNow();
        }
        return results;
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
