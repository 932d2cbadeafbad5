package io.fabriclab.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabriclab.model.BufferConfig;
import io.fabriclab.model.DcqcnConfig;
import io.fabriclab.model.EcnConfig;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.PfcConfig;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.SchedulerConfig;
import io.fabriclab.model.Transport;
import io.fabriclab.model.Units;
import io.fabriclab.sim.IbCongestionSettings;
import io.fabriclab.sim.IbFraming;
import io.fabriclab.sim.LinkFailure;
import io.fabriclab.sim.QosResolver;
import io.fabriclab.sim.SimConfig;
import io.fabriclab.sim.SimProfiles;
import io.fabriclab.sim.TransportProfile;
import io.fabriclab.sim.TransportProfileIb;
import io.fabriclab.sim.TransportProfileUec;
import io.fabriclab.workload.FlowList;
import io.fabriclab.workload.FlowSpec;
import io.fabriclab.workload.Incast;
import io.fabriclab.workload.Nics;
import io.fabriclab.workload.Permutation;
import io.fabriclab.workload.Collective;
import io.fabriclab.workload.Workload;

/**
 * The scenario file (JSON, schemaVersion 1; docs/format-scenario.md): which fabric, which QoS
 * profile and overrides, which traffic, how long, which seed. Errors name the file, the JSON path,
 * the value found and what is allowed.
 */
public final class ScenarioJson {
    public static final int SCHEMA_VERSION = 1;
    private static final ObjectMapper MAPPER = JsonInput.jsonMapper();
    private static final List<String> TOP = List.of("schemaVersion", "name", "description", "fabric", "profile", "qos",
            "mtuBytes", "seed", "durationUs", "maxTimeUs", "telemetry", "transport", "ecmp", "routing", "workloads",
            "failures", "reconvergenceUs", "deadlockThresholdUs", "switchLatencyNs");
    /**
     * Largest switch port-to-port latency a scenario may set, ns: 100 us, far above any switch
     * (the deep-buffer class is 3.5 us; docs/model.md, Switch port-to-port latency).
     */
    static final long MAX_SWITCH_LATENCY_NS = 100_000;
    private static final List<String> QOS = List.of("pfc", "ecn", "dcqcn", "buffer", "scheduler");

    /** Bytes of one flow, one sender's share or one collective buffer: 10^15 B (1 PB) is far past any run. */
    public static final long MAX_FLOW_BYTES = 1_000_000_000_000_000L;
    /** Flows of one scenario, counted (or estimated, for background traffic) before they are built. */
    public static final long MAX_FLOWS = 4_000_000;
    /** Longest time field, microseconds (1000 s). */
    static final double MAX_US = 1e9;

    private final String file;
    private final Path baseDir;
    private final Problems problems;
    /** The NCCL collectives the workloads declare, by label (Scenario.collectives). */
    private final java.util.Map<String, io.fabriclab.workload.NcclCollective> declared = new java.util.LinkedHashMap<>();
    private Fabric fabricForWorkloads;
    /** Flow ids of "flows" workloads: id -> JSON path of its first use. */
    private final Map<String, String> flowIds = new java.util.LinkedHashMap<>();
    /** "after" references: (path of the flow, its id or null, the ids it waits for). */
    private final List<Object[]> waits = new ArrayList<>();

    /** Thrown after a problem was recorded, to skip the rest of the section (one workload, one failure). */
    private static final class Skip extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Skip() {
            super(null, null, false, false);
        }
    }

    private ScenarioJson(String file, Path baseDir) {
        this.file = file;
        this.baseDir = baseDir;
        this.problems = new Problems(file);
    }

    /**
     * Reads a scenario file; a fabric given by path is resolved against the scenario's directory.
     * The file goes through the limits of every FabricLab reader (size, nesting, UTF-8, duplicate
     * keys, nothing after the object).
     *
     * @throws ScenarioException with every problem found, each with its JSON path
     */
    public static Scenario read(Path scenarioFile, FabricReader fabrics) throws IOException {
        Problems p = new Problems(scenarioFile.toString());
        String text = JsonInput.readText(scenarioFile, p, JsonInput.MAX_FILE_BYTES, "a scenario");
        if (text == null) {
            if (!Files.exists(scenarioFile)) {
                throw new java.nio.file.NoSuchFileException(scenarioFile.toString());
            }
            throw new ScenarioException(p.list());
        }
        Path dir = scenarioFile.toAbsolutePath().getParent();
        return new ScenarioJson(scenarioFile.toString(), dir).parse(text, fabrics, null);
    }

    /** Parses scenario text; {@code fabricOverride}, when not null, is used instead of the file's fabric. */
    public static Scenario parse(String json, String name, Path baseDir, FabricReader fabrics, Fabric fabricOverride) {
        try {
            String text = json.startsWith("\uFEFF") ? json.substring(1) : json;
            return new ScenarioJson(name, baseDir).parse(text, fabrics, fabricOverride);
        } catch (IOException e) {
            throw new ScenarioException(name + ": " + e.getMessage(), e);
        }
    }

    /** SHA-256 of bytes, as lowercase hex. */
    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private Scenario parse(String text, FabricReader fabrics, Fabric fabricOverride) throws IOException {
        JsonNode root = JsonInput.parse(MAPPER, text, problems, "JSON");
        if (root == null) {
            throw new ScenarioException(problems.list());
        }
        JsonObjectReader top = new JsonObjectReader(root, "$", problems, TOP);
        if (!top.isObject()) {
            throw new ScenarioException(problems.list());
        }
        JsonNode sv = root.get("schemaVersion");
        if (sv == null || !sv.isIntegralNumber() || !sv.canConvertToInt() || sv.asInt() != SCHEMA_VERSION) {
            error("$.schemaVersion", sv, "1");
            throw new ScenarioException(problems.list());
        }
        String name = section(() -> text(root, "name", "$", "scenario"), "scenario");
        String description = section(() -> text(root, "description", "$", ""), "");

        Fabric fabric = fabricOverride;
        if (fabric == null) {
            fabric = section(() -> readFabric(root.get("fabric"), fabrics), null);
        }
        fabricForWorkloads = fabric;
        Transport transport = section(() -> transportName(root.get("transport")), Transport.ROCEV2);
        Long ibMtu = null;
        if (transport == Transport.INFINIBAND && root.has("mtuBytes")) {
            // An InfiniBand MTU is a payload size from IBTA's list; the fabric's Ethernet frame MTU does not apply.
            ibMtu = section(() -> ibMtu(root.get("mtuBytes")), null);
        } else if (root.has("mtuBytes")) {
            // The same fabric at another MTU (e.g. the 1500 B variant of a benchmark). Only the
            // scenario's own fabric is changed: a fabric handed in by the caller (the open one) is not.
            // The bounds are the fabric format's (docs/format.md).
            Long mtu = section(() -> longValue(root.get("mtuBytes"), "$.mtuBytes", FabricJsonReader.MIN_MTU_BYTES,
                    FabricJsonReader.MAX_MTU_BYTES), null);
            if (mtu != null && fabricOverride == null && fabric != null) {
                fabric.setMtuBytes((int) (long) mtu);
            }
        }

        String profile = null;
        if (root.hasNonNull("profile")) {
            JsonNode pn = root.get("profile");
            if (!pn.isTextual() || !SimProfiles.exists(pn.asText())) {
                error("$.profile", pn, "one of " + String.join(", ", SimProfiles.NAMES));
            } else {
                profile = pn.asText();
            }
        }
        final String profileName = profile;
        final Fabric fab = fabric;
        UnaryOperator<QosProfile> overrides = section(() -> qosOverrides(root.get("qos"), fab, profileName), null);
        QosResolver qos = fabric == null ? null : SimProfiles.resolver(fabric, profile, overrides);

        long seed = section(() -> root.has("seed") ? longValue(root.get("seed"), "$.seed", Long.MIN_VALUE, Long.MAX_VALUE) : 1L, 1L);
        SimConfig cfg = section(() -> config(root, seed), SimConfig.defaults().withSeed(seed));
        io.fabriclab.sim.RoutingPolicy routing = section(() -> routing(root.get("routing")),
                io.fabriclab.sim.RoutingPolicy.ecmp());

        if (ibMtu != null && fabricOverride == null && fabric != null) {
            // The simulator sends InfiniBand packets of the largest IB MTU the fabric's MTU allows.
            fabric.setMtuBytes((int) (long) ibMtu);
        }
        final Long ibMtuBytes = ibMtu != null ? ibMtu : fabric == null ? null : (Long) largestIbMtu(fabric.mtuBytes());
        TransportProfile transportProfile = section(() -> transportProfile(root.get("transport"), transport, ibMtuBytes),
                TransportProfile.of(transport));
        List<InputProblem> warnings = transportWarnings(root, transport);

        List<Workload> workloads = new ArrayList<>();
        List<FlowSpec> flows = new ArrayList<>();
        JsonNode ws = root.get("workloads");
        if (ws == null || !ws.isArray() || ws.isEmpty()) {
            error("$.workloads", ws, "a non-empty array of workloads");
        } else {
            for (int i = 0; i < ws.size(); i++) {
                String path = "$.workloads[" + i + "]";
                JsonNode wn = ws.get(i);
                Workload w = section(() -> workload(wn, path, seed), null);
                if (w == null || fabric == null) {
                    continue;
                }
                List<FlowSpec> fl = section(() -> flowsOf(w, wn, path, fab, flows.size()), null);
                if (fl != null) {
                    workloads.add(w);
                    flows.addAll(fl);
                }
            }
        }
        checkWaits();
        if (cfg.durationPs() > 0 && !flows.isEmpty()) {
            long first = flows.stream().mapToLong(FlowSpec::startPs).min().orElse(0);
            if (first >= cfg.durationPs()) {
                // Nothing would be sent: a zero-length run.
                error("$.durationUs", root.get("durationUs"), "0 (run to completion) or a time after the first "
                        + "flow starts (" + first / (double) Units.PS_PER_US + " us)");
            }
        }
        List<LinkFailure> failures = new ArrayList<>();
        JsonNode fs = root.get("failures");
        if (fs != null && !fs.isNull()) {
            if (!fs.isArray()) {
                error("$.failures", fs, "an array of link failures");
            } else if (fabric != null) {
                for (int i = 0; i < fs.size(); i++) {
                    String fp = "$.failures[" + i + "]";
                    JsonNode f = fs.get(i);
                    section(() -> failure(f, fp, fab, failures), null);
                }
            }
        }
        long reconvergence = section(() -> root.has("reconvergenceUs")
                ? psOf(root.get("reconvergenceUs"), "$.reconvergenceUs", true) : 50 * Units.PS_PER_US, 0L);
        long deadlockThreshold = section(() -> root.has("deadlockThresholdUs")
                ? psOf(root.get("deadlockThresholdUs"), "$.deadlockThresholdUs", true) : 500 * Units.PS_PER_US, 0L);
        io.fabriclab.routing.IbRoutingEngine ibEngine = section(() -> ibEngine(root.get("routing"), transport), null);
        // Every switch's port-to-port latency instead of its model's; absent: each switch model's (-1).
        long switchLatency = section(() -> root.has("switchLatencyNs")
                ? longValue(root.get("switchLatencyNs"), "$.switchLatencyNs", 0, MAX_SWITCH_LATENCY_NS) * Units.PS_PER_NS
                : -1L, -1L);
        if (!problems.isEmpty()) {
            throw new ScenarioException(problems.list());
        }
        Scenario sc = new Scenario(name, description, fabric, profile, qos, List.copyOf(workloads), List.copyOf(flows),
                cfg, sha256(text.getBytes(StandardCharsets.UTF_8)), List.copyOf(failures), reconvergence,
                deadlockThreshold, routing, transportProfile, List.copyOf(warnings), switchLatency, ibEngine,
                transportWarnings(root, Transport.INFINIBAND), declared);
        // The packet engine's port telemetry is checked when it is built (Scenario.simulator): a flow run keeps less.
        String tooBig = sc.samplingProblem(cfg);
        if (tooBig != null) {
            throw new ScenarioException(List.of(new InputProblem(file, "$.telemetry.sampleIntervalUs",
                    null, tooBig, "a longer sampleIntervalUs or a shorter run")));
        }
        return sc;
    }

    /** Runs one section of the file; a problem in it is recorded and {@code fallback} stands in. */
    private static <T> T section(java.util.function.Supplier<T> read, T fallback) {
        try {
            return read.get();
        } catch (Skip e) {
            return fallback;
        }
    }

    private SimConfig config(JsonNode root, long seed) {
        SimConfig cfg = SimConfig.defaults().withSeed(seed);
        if (root.has("durationUs")) {
            cfg = cfg.withDurationPs(psOf(root.get("durationUs"), "$.durationUs", true));
        }
        if (root.has("maxTimeUs")) {
            cfg = cfg.withMaxTimePs(psOf(root.get("maxTimeUs"), "$.maxTimeUs", false));
        }
        JsonNode tel = root.get("telemetry");
        if (tel != null) {
            checkFields(tel, "$.telemetry", List.of("sampleIntervalUs", "maxPoints"));
            if (tel.has("sampleIntervalUs")) {
                cfg = cfg.withSampleIntervalPs(psOf(tel.get("sampleIntervalUs"), "$.telemetry.sampleIntervalUs", false));
            }
            if (tel.has("maxPoints")) {
                long n = longValue(tel.get("maxPoints"), "$.telemetry.maxPoints", 2, 1_000_000);
                if (n % 2 != 0) {
                    throw error("$.telemetry.maxPoints", tel.get("maxPoints"), "an even number from 2 to 1000000");
                }
                cfg = cfg.withMaxSeriesPoints((int) n);
            }
        }
        JsonNode tr = root.get("transport");
        if (tr != null && !tr.isTextual()) {
            checkFields(tr, "$.transport", TRANSPORT_FIELDS);
            if (tr.has("ackEveryPackets")) {
                long n = longValue(tr.get("ackEveryPackets"), "$.transport.ackEveryPackets", 1, 1 << 20);
                cfg = cfg.withAckEveryPackets((int) n);
            }
            if (tr.has("retransmitTimeoutUs")) {
                cfg = cfg.withRetransmitTimeoutPs(psOf(tr.get("retransmitTimeoutUs"), "$.transport.retransmitTimeoutUs", false));
            }
            if (tr.has("ect")) {
                boolean ect = bool(tr.get("ect"), "$.transport.ect");
                cfg = new SimConfig(cfg.seed(), cfg.durationPs(), cfg.maxTimePs(), cfg.sampleIntervalPs(),
                        cfg.maxSeriesPoints(), cfg.ackEveryPackets(), cfg.retransmitTimeoutPs(), ect, cfg.perSwitchEcmpSeed());
            }
        }
        JsonNode ecmp = root.get("ecmp");
        if (ecmp != null) {
            checkFields(ecmp, "$.ecmp", List.of("perSwitchSeed"));
            if (ecmp.has("perSwitchSeed")) {
                boolean ps = bool(ecmp.get("perSwitchSeed"), "$.ecmp.perSwitchSeed");
                cfg = new SimConfig(cfg.seed(), cfg.durationPs(), cfg.maxTimePs(), cfg.sampleIntervalPs(),
                        cfg.maxSeriesPoints(), cfg.ackEveryPackets(), cfg.retransmitTimeoutPs(), cfg.ectData(), ps);
            }
        }
        return cfg;
    }

    /** The flows of a workload, each NIC checked against the fabric; sizes bounded before they are built. */
    private List<FlowSpec> flowsOf(Workload w, JsonNode wn, String path, Fabric fabric, int flowsSoFar) {
        long expected;
        try {
            expected = expectedFlows(w, fabric);
        } catch (IllegalArgumentException e) {
            // E.g. a background NIC that is not in the fabric: the file and the workload named.
            problems.add(path, null, e.getMessage(), null);
            throw new Skip();
        }
        if (expected > MAX_FLOWS - flowsSoFar) {
            throw error(path, wn, "a workload of at most " + (MAX_FLOWS - flowsSoFar) + " flows (the scenario may have "
                    + MAX_FLOWS + " in all); this one would start about " + expected + " flows, roughly "
                    + String.format(java.util.Locale.ROOT, "%.1f GB", expected * 400.0 / 1e9) + " of memory before the run");
        }
        List<FlowSpec> fl;
        try {
            if (w instanceof io.fabriclab.workload.TrainingJob job) {
                // Built once here; its bucket collectives are kept for the step's analysis (Scenario.collectives).
                io.fabriclab.workload.TrainingJob.Built built = job.build(fabric);
                fl = built.tasks();
                declared.putAll(built.collectives());
            } else {
                fl = w.flows(fabric);
                if (w instanceof io.fabriclab.workload.NcclCollective c) {
                    declared.put(c.label(), c);
                }
            }
        } catch (IllegalArgumentException e) {
            problems.add(path, null, e.getMessage(), null);
            throw new Skip();
        }
        if (fl.size() > MAX_FLOWS - flowsSoFar) {
            throw error(path, wn, "a workload of at most " + (MAX_FLOWS - flowsSoFar) + " flows (the scenario may have "
                    + MAX_FLOWS + " in all); this one starts " + fl.size() + " flows");
        }
        if (w instanceof io.fabriclab.workload.PoissonBackground && fl.isEmpty()) {
            throw error(path, wn, "background traffic that starts at least one flow: at this load the mean flow size "
                    + "is too large for durationUs (raise durationUs or the load, or use smaller sizes)");
        }
        for (int k = 0; k < fl.size(); k++) {
            FlowSpec f = fl.get(k);
            if (!f.network()) {
                continue; // GPU tasks: their GPUs were checked when the workload was built
            }
            for (String nic : List.of(f.src(), f.dst())) {
                if (Nics.resolve(fabric, nic) == null) {
                    problems.add(path, null, "NIC '" + InputProblem.shorten(nic) + "' is not in fabric '"
                            + InputProblem.shorten(fabric.name()) + "' (use server:port or server:nicK)", null);
                    throw new Skip();
                }
            }
            if (Nics.resolve(fabric, f.src()) == Nics.resolve(fabric, f.dst())) {
                problems.add(path, null, "flow " + k + " goes from " + InputProblem.shorten(f.src()) + " to "
                        + InputProblem.shorten(f.dst()) + ", the same NIC; a flow needs two different NICs", null);
                throw new Skip();
            }
        }
        return fl;
    }

    /**
     * Flows a workload will start, known before building them (background: the expected Poisson
     * count), so a scenario over {@link #MAX_FLOWS} is refused before memory is spent. A workload
     * type not named here is counted once built (flowsOf checks the built list too).
     */
    static long expectedFlows(Workload w, Fabric fabric) {
        return switch (w) {
            case io.fabriclab.workload.PoissonBackground b -> b.expectedFlows(fabric);
            case Collective c -> {
                long n = c.ranks().size();
                long perChannel = c.kind() == Collective.Kind.ALL_TO_ALL ? n * (n - 1) : (long) c.kind().steps((int) n) * n;
                yield perChannel * c.channels();
            }
            case io.fabriclab.workload.Microburst m -> (long) m.senders().size() * m.count();
            case io.fabriclab.workload.CheckpointBurst cp -> (long) cp.clients().size() * cp.count();
            case io.fabriclab.workload.Incast in -> in.senders().size();
            case io.fabriclab.workload.Permutation p -> p.nics().size();
            case io.fabriclab.workload.FlowList fl -> fl.list().size();
            default -> 0;
        };
    }

    /** flows[].after: every id waited for exists, and no flows wait for each other in a cycle. */
    private void checkWaits() {
        Map<String, List<String>> deps = new java.util.HashMap<>();
        for (Object[] w : waits) {
            String fp = (String) w[0];
            String id = (String) w[1];
            @SuppressWarnings("unchecked")
            List<String> after = (List<String>) w[2];
            for (int k = 0; k < after.size(); k++) {
                if (!flowIds.containsKey(after.get(k))) {
                    problems.add(fp + ".after[" + k + "]", JsonObjectReader.text(new com.fasterxml.jackson.databind.node.TextNode(after.get(k))),
                            "no flow has the id \"" + InputProblem.shorten(after.get(k)) + "\"",
                            "the id of a flow of a \"flows\" workload");
                }
            }
            if (id != null && !id.isEmpty()) {
                deps.computeIfAbsent(id, x -> new ArrayList<>()).addAll(after);
            }
        }
        // Kahn's algorithm: ids left with unmet waits once every startable flow is removed sit on a cycle.
        Map<String, Integer> waitingOn = new java.util.HashMap<>();
        Map<String, List<String>> dependents = new java.util.HashMap<>();
        for (Map.Entry<String, List<String>> e : deps.entrySet()) {
            for (String d : e.getValue()) {
                if (deps.containsKey(d) || flowIds.containsKey(d)) {
                    waitingOn.merge(e.getKey(), 1, Integer::sum);
                    dependents.computeIfAbsent(d, x -> new ArrayList<>()).add(e.getKey());
                }
            }
        }
        java.util.ArrayDeque<String> ready = new java.util.ArrayDeque<>();
        for (String id : flowIds.keySet()) {
            if (waitingOn.getOrDefault(id, 0) == 0) {
                ready.add(id);
            }
        }
        java.util.Set<String> done = new java.util.HashSet<>();
        while (!ready.isEmpty()) {
            String id = ready.poll();
            done.add(id);
            for (String dep : dependents.getOrDefault(id, List.of())) {
                if (waitingOn.merge(dep, -1, Integer::sum) == 0) {
                    ready.add(dep);
                }
            }
        }
        List<String> stuck = flowIds.keySet().stream().filter(id -> !done.contains(id)).toList();
        if (!stuck.isEmpty()) {
            String ids = String.join(", ", stuck.stream().limit(10).map(InputProblem::shorten).toList())
                    + (stuck.size() > 10 ? ", ..." : "");
            problems.add(flowIds.get(stuck.get(0)) + ".after", null, "flows " + ids + " wait for each other in a cycle "
                    + "(through \"after\"), so none of them would ever start", "\"after\" lists that form no cycle");
        }
    }

    private Void failure(JsonNode f, String fp, Fabric fabric, List<LinkFailure> failures) {
        checkFields(f, fp, List.of("link", "switch", "downAtUs", "upAtUs", "degradedGbps"));
        if (!f.has("downAtUs")) {
            throw error(fp + ".downAtUs", null, "a number of microseconds");
        }
        long down = psOf(f.get("downAtUs"), fp + ".downAtUs", true);
        long up = f.has("upAtUs") ? psOf(f.get("upAtUs"), fp + ".upAtUs", false) : 0;
        if (f.has("upAtUs") && up <= down) {
            throw error(fp + ".upAtUs", f.get("upAtUs"), "a time after downAtUs");
        }
        if (f.has("switch")) {
            // A switch going down takes every link of it down (and its buffer with them).
            if (f.has("link") || f.has("degradedGbps")) {
                throw error(fp, f, "either \"link\" (with optional degradedGbps) or \"switch\", not both");
            }
            JsonNode sw = f.get("switch");
            var d = sw.isTextual() ? fabric.device(sw.asText()) : null;
            if (d == null || !d.role().isSwitch()) {
                throw error(fp + ".switch", sw, "the id of a switch in fabric '" + InputProblem.shorten(fabric.name()) + "'");
            }
            for (var port : d.ports()) {
                Link pl = fabric.linkAt(port);
                if (pl != null) {
                    failures.add(new LinkFailure(pl, down, up, 0));
                }
            }
            return null;
        }
        JsonNode ln = f.get("link");
        if (ln == null || !ln.isTextual() || ln.asText().isBlank()) {
            throw error(fp + ".link", ln, "a link id, one of its ports (device:port) or devA--devB");
        }
        Link l = fabric.findLink(ln.asText());
        if (l == null) {
            throw error(fp + ".link", ln, "a link id, one of its ports (device:port) or devA--devB");
        }
        int degraded = 0;
        if (f.has("degradedGbps")) {
            long g = longValue(f.get("degradedGbps"), fp + ".degradedGbps", 1, Integer.MAX_VALUE);
            if (!Units.isAllowedSpeed((int) g)) {
                throw error(fp + ".degradedGbps", f.get("degradedGbps"), "a link speed in Gb/s: " + Units.allowedSpeeds());
            }
            if (g > l.speedGbps()) {
                throw error(fp + ".degradedGbps", f.get("degradedGbps"), "a speed below the link's "
                        + l.speedGbps() + " Gb/s (a degraded link cannot run above its line rate)");
            }
            degraded = (int) g;
        }
        failures.add(new LinkFailure(l, down, up, degraded));
        return null;
    }

    /**
     * "routing.ibEngine": the subnet manager's routing engine of an InfiniBand run (null: the
     * fabric's ECMP routing); refused on another transport.
     */
    private io.fabriclab.routing.IbRoutingEngine ibEngine(JsonNode r, Transport transport) {
        if (r == null || !r.isObject() || !r.has("ibEngine")) {
            return null;
        }
        JsonNode v = r.get("ibEngine");
        if (transport != Transport.INFINIBAND) {
            throw error("$.routing.ibEngine", v, "no ibEngine unless $.transport.name is infiniband");
        }
        io.fabriclab.routing.IbRoutingEngine e = v.isTextual() ? io.fabriclab.routing.IbRoutingEngine.fromJsonName(v.asText()) : null;
        if (e == null) {
            throw error("$.routing.ibEngine", v, "one of " + io.fabriclab.routing.IbRoutingEngine.allowedNames()
                    + " (OpenSM's routing engines)");
        }
        return e;
    }

    private io.fabriclab.sim.RoutingPolicy routing(JsonNode r) {
        if (r == null) {
            return io.fabriclab.sim.RoutingPolicy.ecmp();
        }
        checkFields(r, "$.routing", List.of("mode", "flowletGapUs", "reorderWindowPackets", "ibEngine"));
        io.fabriclab.sim.RoutingMode mode = io.fabriclab.sim.RoutingMode.ECMP;
        if (r.has("mode")) {
            mode = r.get("mode").isTextual() ? io.fabriclab.sim.RoutingMode.fromJsonName(r.get("mode").asText()) : null;
            if (mode == null) {
                throw error("$.routing.mode", r.get("mode"), "one of " + io.fabriclab.sim.RoutingMode.allowedNames());
            }
        }
        long gap = r.has("flowletGapUs") ? psOf(r.get("flowletGapUs"), "$.routing.flowletGapUs", false)
                : io.fabriclab.sim.RoutingPolicy.DEFAULT_FLOWLET_GAP_PS;
        int window = io.fabriclab.sim.RoutingPolicy.DEFAULT_REORDER_WINDOW;
        if (r.has("reorderWindowPackets")) {
            window = (int) longValue(r.get("reorderWindowPackets"), "$.routing.reorderWindowPackets", 1, 65536);
        }
        return new io.fabriclab.sim.RoutingPolicy(mode, gap, window);
    }

    private List<String> nicList(JsonNode w, String field, String path, boolean required) {
        JsonNode a = w.get(field);
        if (a == null && !required) {
            return List.of();
        }
        if (a == null || !a.isArray() || a.isEmpty()) {
            throw error(path + "." + field, a, "a non-empty array of NICs");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode x : a) {
            if (!x.isTextual()) {
                throw error(path + "." + field, x, "a NIC as \"server:port\" or \"server:nicK\"");
            }
            out.add(x.asText());
        }
        return out;
    }

    private io.fabriclab.workload.FlowSizeDistribution sizeDistribution(JsonNode v, String path) {
        if (v != null && v.isTextual()) {
            if (!io.fabriclab.workload.FlowSizeDistribution.SHIPPED.contains(v.asText())) {
                throw error(path, v, "one of " + String.join(", ", io.fabriclab.workload.FlowSizeDistribution.SHIPPED)
                        + " or an array of [bytes, cumulative percent] points");
            }
            return io.fabriclab.workload.FlowSizeDistribution.shipped(v.asText());
        }
        if (v != null && v.isArray()) {
            List<double[]> pts = new ArrayList<>();
            for (JsonNode p : v) {
                if (!p.isArray() || p.size() != 2 || !p.get(0).isNumber() || !p.get(1).isNumber()) {
                    throw error(path, p, "a [bytes, cumulative percent] pair");
                }
                double b = p.get(0).asDouble();
                if (!(b >= 0 && b <= MAX_FLOW_BYTES)) {
                    throw error(path + "[" + pts.size() + "][0]", p.get(0), "a flow size from 0 to " + MAX_FLOW_BYTES + " bytes");
                }
                pts.add(new double[] {p.get(0).asDouble(), p.get(1).asDouble()});
            }
            try {
                return new io.fabriclab.workload.FlowSizeDistribution("custom", pts);
            } catch (IllegalArgumentException e) {
                throw fail(path, e.getMessage());
            }
        }
        throw error(path, v, "one of " + String.join(", ", io.fabriclab.workload.FlowSizeDistribution.SHIPPED)
                + " or an array of [bytes, cumulative percent] points");
    }

    private Fabric readFabric(JsonNode node, FabricReader fabrics) {
        if (node == null || node.isNull()) {
            throw error("$.fabric", node, "a path to a fabric file or an inline fabric object");
        }
        try {
            if (node.isTextual()) {
                Path p = baseDir == null ? Path.of(node.asText()) : baseDir.resolve(node.asText());
                if (!Files.isRegularFile(p)) {
                    throw error("$.fabric", node, "a readable fabric file (resolved to " + p + ")");
                }
                return fabrics.read(p);
            }
            if (node.isObject()) {
                return fabrics.read(node, file + ": $.fabric");
            }
        } catch (java.nio.file.InvalidPathException e) {
            throw error("$.fabric", node, "a path to a fabric file or an inline fabric object");
        } catch (ScenarioException e) {
            // The fabric's own problems, each naming the fabric file (or the inline $.fabric).
            if (e.getCause() instanceof InputException ie) {
                ie.problems().forEach(problems::add);
            } else if (!e.problems().isEmpty()) {
                e.problems().forEach(problems::add);
            } else {
                problems.add("$.fabric", null, e.getMessage(), null);
            }
            throw new Skip();
        } catch (IOException e) {
            problems.add("$.fabric", JsonObjectReader.text(node), "cannot read the fabric: " + e.getMessage(), null);
            throw new Skip();
        }
        throw error("$.fabric", node, "a path to a fabric file or an inline fabric object");
    }

    private Workload workload(JsonNode w, String path, long scenarioSeed) {
        if (w == null || !w.isObject()) {
            throw error(path, w, "an object with a \"type\"");
        }
        String type = w.path("type").asText("");
        switch (type) {
            case "flows" -> {
                checkFields(w, path, List.of("type", "flows"));
                JsonNode fl = w.get("flows");
                if (fl == null || !fl.isArray() || fl.isEmpty()) {
                    throw error(path + ".flows", fl, "a non-empty array of flows");
                }
                List<FlowSpec> out = new ArrayList<>();
                boolean bad = false;
                for (int i = 0; i < fl.size(); i++) {
                    String fp = path + ".flows[" + i + "]";
                    JsonNode f = fl.get(i);
                    FlowSpec spec = section(() -> flow(f, fp), null);
                    if (spec == null) {
                        bad = true;
                    } else {
                        out.add(spec);
                    }
                }
                if (bad) {
                    throw new Skip();
                }
                return new FlowList(out);
            }
            case "incast" -> {
                checkFields(w, path, List.of("type", "senders", "receiver", "bytesPerSender", "startUs", "priority"));
                JsonNode s = w.get("senders");
                if (s == null || !s.isArray() || s.isEmpty()) {
                    throw error(path + ".senders", s, "a non-empty array of NICs");
                }
                List<String> senders = new ArrayList<>();
                s.forEach(x -> senders.add(x.asText()));
                String receiver = requiredText(w, "receiver", path);
                if (senders.contains(receiver)) {
                    throw error(path + ".receiver", w.get("receiver"), "a NIC that is not also a sender");
                }
                return new Incast(senders, receiver, bytes(w.get("bytesPerSender"), path + ".bytesPerSender"),
                        w.has("startUs") ? psOf(w.get("startUs"), path + ".startUs", true) : 0, priority(w, path));
            }
            case "permutation" -> {
                checkFields(w, path, List.of("type", "nics", "bytes", "startUs", "priority", "seed"));
                List<String> nics = new ArrayList<>();
                if (w.has("nics")) {
                    if (!w.get("nics").isArray()) {
                        throw error(path + ".nics", w.get("nics"), "an array of NICs (omit for all NICs)");
                    }
                    w.get("nics").forEach(x -> nics.add(x.asText()));
                }
                return new Permutation(nics, bytes(w.get("bytes"), path + ".bytes"),
                        w.has("startUs") ? psOf(w.get("startUs"), path + ".startUs", true) : 0, priority(w, path),
                        w.has("seed") ? longValue(w.get("seed"), path + ".seed", Long.MIN_VALUE, Long.MAX_VALUE) : scenarioSeed);
            }
            case "background" -> {
                checkFields(w, path, List.of("type", "nics", "sizes", "load", "startUs", "durationUs", "priority", "seed", "label"));
                JsonNode load = w.get("load");
                if (load == null || !load.isNumber() || !(load.asDouble() > 0 && load.asDouble() <= 1)) {
                    throw error(path + ".load", load, "a fraction of each NIC's link rate, more than 0 and at most 1");
                }
                try {
                    return new io.fabriclab.workload.PoissonBackground(nicList(w, "nics", path, false),
                            sizeDistribution(w.get("sizes"), path + ".sizes"), load.asDouble(),
                            w.has("startUs") ? psOf(w.get("startUs"), path + ".startUs", true) : 0,
                            psOf(w.get("durationUs"), path + ".durationUs", false),
                            w.has("priority") ? priority(w, path) : 0,
                            w.has("seed") ? longValue(w.get("seed"), path + ".seed", Long.MIN_VALUE, Long.MAX_VALUE) : scenarioSeed,
                            text(w, "label", path, "background"));
                } catch (IllegalArgumentException e) {
                    throw fail(path, e.getMessage());
                }
            }
            case "microburst" -> {
                checkFields(w, path, List.of("type", "senders", "receiver", "bytesPerSender", "startUs", "periodUs", "count", "priority"));
                try {
                    return new io.fabriclab.workload.Microburst(nicList(w, "senders", path, true), requiredText(w, "receiver", path),
                            bytes(w.get("bytesPerSender"), path + ".bytesPerSender"),
                            w.has("startUs") ? psOf(w.get("startUs"), path + ".startUs", true) : 0,
                            psOf(w.get("periodUs"), path + ".periodUs", false),
                            (int) longValue(w.get("count"), path + ".count", 1, 100_000),
                            w.has("priority") ? priority(w, path) : 0);
                } catch (IllegalArgumentException e) {
                    throw fail(path, e.getMessage());
                }
            }
            case "checkpoint" -> {
                checkFields(w, path, List.of("type", "clients", "targets", "bytesPerClient", "startUs", "periodUs", "count", "priority"));
                int count = w.has("count") ? (int) longValue(w.get("count"), path + ".count", 1, 100_000) : 1;
                try {
                    return new io.fabriclab.workload.CheckpointBurst(nicList(w, "clients", path, true),
                            nicList(w, "targets", path, true), bytes(w.get("bytesPerClient"), path + ".bytesPerClient"),
                            w.has("startUs") ? psOf(w.get("startUs"), path + ".startUs", true) : 0,
                            w.has("periodUs") ? psOf(w.get("periodUs"), path + ".periodUs", false) : 0, count,
                            w.has("priority") ? priority(w, path) : 1);
                } catch (IllegalArgumentException e) {
                    throw fail(path, e.getMessage());
                }
            }
            case "allreduce", "reducescatter", "allgather", "alltoall" -> {
                checkFields(w, path, List.of("type", "name", "ranks", "bytes", "startUs", "priority", "channels", "ringOrder"));
                int channels = w.has("channels") ? (int) longValue(w.get("channels"), path + ".channels", 1, 64) : 1;
                io.fabriclab.workload.RingOrder order = io.fabriclab.workload.RingOrder.RAIL_AWARE;
                if (w.has("ringOrder")) {
                    order = w.get("ringOrder").isTextual()
                            ? io.fabriclab.workload.RingOrder.fromJsonName(w.get("ringOrder").asText()) : null;
                    if (order == null) {
                        throw error(path + ".ringOrder", w.get("ringOrder"), "rail-aware or as-given");
                    }
                }
                List<String> ranks = new ArrayList<>();
                if (w.has("ranks")) {
                    if (!w.get("ranks").isArray()) {
                        throw error(path + ".ranks", w.get("ranks"), "an array of NICs in ring order (omit for all NICs)");
                    }
                    w.get("ranks").forEach(x -> ranks.add(x.asText()));
                } else {
                    ranks.addAll(Nics.all(fabricForWorkloads));
                }
                try {
                    return new Collective(Collective.Kind.fromJsonName(type),
                            text(w, "name", path, type + path.replaceAll("\\D", "")), ranks,
                            bytes(w.get("bytes"), path + ".bytes"),
                            w.has("startUs") ? psOf(w.get("startUs"), path + ".startUs", true) : 0, priority(w, path),
                            channels, order);
                } catch (IllegalArgumentException e) {
                    throw fail(path, e.getMessage());
                }
            }
            case "nccl" -> {
                return ncclWorkload(w, path);
            }
            case "training" -> {
                return trainingWorkload(w, path);
            }
            default -> throw error(path + ".type", w.get("type"), "one of flows, incast, permutation, allreduce, "
                    + "reducescatter, allgather, alltoall, nccl, training, background, microburst, checkpoint");
        }
    }

    /**
     * {@code "type": "nccl"}: a collective over GPUs as NCCL runs it (workload.NcclCollective): op,
     * bytes, algorithm (auto), channelsPerRail (2), gpus (every GPU when absent), maxServers (the
     * GPUs of the first N servers), name, priority.
     */
    private Workload ncclWorkload(JsonNode w, String path) {
        checkFields(w, path, List.of("type", "op", "name", "gpus", "maxServers", "bytes", "algorithm",
                "channelsPerRail", "priority"));
        String opName = requiredText(w, "op", path);
        io.fabriclab.workload.NcclCollective.Op op = io.fabriclab.workload.NcclCollective.Op.fromJsonName(opName);
        if (op == null) {
            throw error(path + ".op", w.get("op"), "one of allreduce, reducescatter, allgather, broadcast, alltoall");
        }
        io.fabriclab.workload.NcclCollective.Algorithm algo = io.fabriclab.workload.NcclCollective.Algorithm.AUTO;
        if (w.has("algorithm")) {
            algo = w.get("algorithm").isTextual()
                    ? io.fabriclab.workload.NcclCollective.Algorithm.fromJsonName(w.get("algorithm").asText()) : null;
            if (algo == null || !algo.applies(op)) {
                throw error(path + ".algorithm", w.get("algorithm"), "for " + op.jsonName() + " one of "
                        + io.fabriclab.workload.NcclCollective.allowed(op));
            }
        }
        List<String> gpus = new ArrayList<>();
        if (w.has("gpus")) {
            if (!w.get("gpus").isArray()) {
                throw error(path + ".gpus", w.get("gpus"), "an array of GPUs \"server:gpuK\" (omit for every GPU)");
            }
            for (int k = 0; k < w.get("gpus").size(); k++) {
                String g = w.get("gpus").get(k).asText();
                if (!io.fabriclab.workload.Gpus.exists(fabricForWorkloads, g)) {
                    throw error(path + ".gpus[" + k + "]", w.get("gpus").get(k), "a GPU of the fabric as server:gpuK");
                }
                gpus.add(g);
            }
        } else {
            int max = w.has("maxServers") ? (int) longValue(w.get("maxServers"), path + ".maxServers", 1, 1_000_000)
                    : Integer.MAX_VALUE;
            gpus.addAll(io.fabriclab.workload.WorkloadPreset.gpusOfFirstServers(fabricForWorkloads, max));
        }
        int channels = w.has("channelsPerRail") ? (int) longValue(w.get("channelsPerRail"), path + ".channelsPerRail", 1, 32)
                : io.fabriclab.workload.NcclCollective.DEFAULT_CHANNELS_PER_RAIL;
        try {
            return new io.fabriclab.workload.NcclCollective(op, text(w, "name", path, op.jsonName()
                    + path.replaceAll("\\D", "")), gpus, bytes(w.get("bytes"), path + ".bytes"), algo, channels,
                    priority(w, path));
        } catch (IllegalArgumentException e) {
            throw fail(path, e.getMessage());
        }
    }

    /**
     * {@code "type": "training"}: one training step (workload.TrainingJob): a preset model or a
     * "model" object, "parallelism" {tp, pp, dp, ep} (absent: TP the server's GPUs, PP 1, DP the
     * rest), "gpu" {achievedTflops | computeUsPerMicroBatch}, "schedule" {overlapGradients,
     * bucketBytes, distributedOptimizer, gradientBytesPerParameter}.
     */
    private Workload trainingWorkload(JsonNode w, String path) {
        checkFields(w, path, List.of("type", "name", "preset", "model", "parallelism", "gpu", "schedule"));
        io.fabriclab.workload.TrainingJob.Model model;
        if (w.has("preset") == w.has("model")) {
            throw error(path, w, "either \"preset\" (one of " + String.join(", ",
                    new java.util.TreeSet<>(io.fabriclab.workload.TrainingJob.PRESETS.keySet())) + ") or \"model\", not both");
        }
        if (w.has("preset")) {
            model = io.fabriclab.workload.TrainingJob.PRESETS.get(w.get("preset").asText());
            if (model == null) {
                throw error(path + ".preset", w.get("preset"), "one of " + String.join(", ",
                        new java.util.TreeSet<>(io.fabriclab.workload.TrainingJob.PRESETS.keySet())));
            }
        } else {
            JsonNode m = w.get("model");
            String mp = path + ".model";
            if (!m.isObject()) {
                throw error(mp, m, "an object with the model's size");
            }
            checkFields(m, mp, List.of("name", "parameters", "activeParameters", "expertParameters", "layers", "hidden",
                    "sequence", "globalBatch", "microBatch", "experts", "topK"));
            long params = longValue(m.get("parameters"), mp + ".parameters", 1, 100_000_000_000_000L);
            try {
                model = new io.fabriclab.workload.TrainingJob.Model(text(m, "name", mp, "model"), params,
                        m.has("activeParameters") ? longValue(m.get("activeParameters"), mp + ".activeParameters", 1, params) : params,
                        m.has("expertParameters") ? longValue(m.get("expertParameters"), mp + ".expertParameters", 0, params) : 0,
                        (int) longValue(m.get("layers"), mp + ".layers", 1, 10_000),
                        (int) longValue(m.get("hidden"), mp + ".hidden", 1, 1_000_000),
                        (int) longValue(m.get("sequence"), mp + ".sequence", 1, 10_000_000),
                        (int) longValue(m.get("globalBatch"), mp + ".globalBatch", 1, 100_000_000),
                        m.has("microBatch") ? (int) longValue(m.get("microBatch"), mp + ".microBatch", 1, 100_000_000) : 1,
                        m.has("experts") ? (int) longValue(m.get("experts"), mp + ".experts", 0, 100_000) : 0,
                        m.has("topK") ? (int) longValue(m.get("topK"), mp + ".topK", 0, 100_000) : 0);
            } catch (IllegalArgumentException e) {
                throw fail(mp, e.getMessage());
            }
        }
        Integer tp = null;
        Integer pp = null;
        Integer dp = null;
        int ep = 1;
        if (w.has("parallelism")) {
            JsonNode p = w.get("parallelism");
            String pth = path + ".parallelism";
            if (!p.isObject()) {
                throw error(pth, p, "an object {tp, pp, dp, ep}");
            }
            checkFields(p, pth, List.of("tp", "pp", "dp", "ep"));
            tp = p.has("tp") ? (int) longValue(p.get("tp"), pth + ".tp", 1, 1024) : null;
            pp = p.has("pp") ? (int) longValue(p.get("pp"), pth + ".pp", 1, 100_000) : null;
            dp = p.has("dp") ? (int) longValue(p.get("dp"), pth + ".dp", 1, 1_000_000) : null;
            ep = p.has("ep") ? (int) longValue(p.get("ep"), pth + ".ep", 1, 1_000_000) : 1;
        }
        double tflops = 0;
        double computeUs = 0;
        if (w.has("gpu")) {
            JsonNode g = w.get("gpu");
            String gp = path + ".gpu";
            checkFields(g, gp, List.of("achievedTflops", "computeUsPerMicroBatch"));
            if (g.has("achievedTflops")) {
                if (!g.get("achievedTflops").isNumber() || !(g.get("achievedTflops").asDouble() > 0)
                        || g.get("achievedTflops").asDouble() > 100_000) {
                    throw error(gp + ".achievedTflops", g.get("achievedTflops"), "a number above 0, at most 100000");
                }
                tflops = g.get("achievedTflops").asDouble();
            }
            if (g.has("computeUsPerMicroBatch")) {
                if (!g.get("computeUsPerMicroBatch").isNumber() || !(g.get("computeUsPerMicroBatch").asDouble() > 0)
                        || g.get("computeUsPerMicroBatch").asDouble() > 1e9) {
                    throw error(gp + ".computeUsPerMicroBatch", g.get("computeUsPerMicroBatch"),
                            "a number of microseconds above 0, at most 1e9");
                }
                computeUs = g.get("computeUsPerMicroBatch").asDouble();
            }
        }
        boolean overlap = true;
        long bucket = io.fabriclab.workload.TrainingJob.DEFAULT_BUCKET_BYTES;
        boolean distributed = false;
        int gradBytes = io.fabriclab.workload.TrainingJob.DEFAULT_GRADIENT_BYTES;
        if (w.has("schedule")) {
            JsonNode sc = w.get("schedule");
            String sp = path + ".schedule";
            checkFields(sc, sp, List.of("overlapGradients", "bucketBytes", "distributedOptimizer", "gradientBytesPerParameter"));
            if (sc.has("overlapGradients")) {
                if (!sc.get("overlapGradients").isBoolean()) {
                    throw error(sp + ".overlapGradients", sc.get("overlapGradients"), "true or false");
                }
                overlap = sc.get("overlapGradients").asBoolean();
            }
            if (sc.has("distributedOptimizer")) {
                if (!sc.get("distributedOptimizer").isBoolean()) {
                    throw error(sp + ".distributedOptimizer", sc.get("distributedOptimizer"), "true or false");
                }
                distributed = sc.get("distributedOptimizer").asBoolean();
            }
            if (sc.has("bucketBytes")) {
                bucket = bytes(sc.get("bucketBytes"), sp + ".bucketBytes");
            }
            if (sc.has("gradientBytesPerParameter")) {
                gradBytes = (int) longValue(sc.get("gradientBytesPerParameter"), sp + ".gradientBytesPerParameter", 1, 8);
            }
        }
        try {
            io.fabriclab.workload.TrainingJob job = io.fabriclab.workload.TrainingJob.on(fabricForWorkloads,
                    text(w, "name", path, model.name()), model, tp, pp, dp, ep, tflops, computeUs, overlap, bucket,
                    distributed, gradBytes);
            String problem = job.problem(fabricForWorkloads);
            if (problem != null) {
                throw fail(path + "." + (problem.startsWith("parallelism") ? problem.substring(0, problem.indexOf(':'))
                        : "parallelism"), problem.substring(problem.indexOf(':') + 2));
            }
            return job;
        } catch (IllegalArgumentException e) {
            throw fail(path, e.getMessage());
        }
    }

    private FlowSpec flow(JsonNode f, String fp) {
        if (!f.isObject()) {
            throw error(fp, f, "a flow object");
        }
        checkFields(f, fp, List.of("src", "dst", "bytes", "startUs", "priority", "label", "id", "after"));
        List<String> after = new ArrayList<>();
        if (f.has("after")) {
            if (!f.get("after").isArray()) {
                throw error(fp + ".after", f.get("after"), "an array of flow ids");
            }
            for (int k = 0; k < f.get("after").size(); k++) {
                JsonNode x = f.get("after").get(k);
                if (!x.isTextual() || x.asText().isEmpty()) {
                    throw error(fp + ".after[" + k + "]", x, "the id of a flow (a non-empty string)");
                }
                after.add(x.asText());
            }
        }
        String id = text(f, "id", fp, "");
        if (!id.isEmpty()) {
            String first = flowIds.putIfAbsent(id, fp);
            if (first != null) {
                throw error(fp + ".id", f.get("id"), "an id no other flow has (" + first + " has it)");
            }
        }
        if (!after.isEmpty()) {
            waits.add(new Object[] {fp, id, after});
        }
        FlowSpec spec = new FlowSpec(requiredText(f, "src", fp), requiredText(f, "dst", fp),
                bytes(f.get("bytes"), fp + ".bytes"),
                f.has("startUs") ? psOf(f.get("startUs"), fp + ".startUs", true) : 0,
                priority(f, fp), text(f, "label", fp, ""), id, after);
        if (spec.src().equals(spec.dst())) {
            throw error(fp + ".dst", f.get("dst"), "a NIC other than the source");
        }
        return spec;
    }

    // ----- transport ------------------------------------------------------------------------------

    /** Fields of the "transport" object: the name, the NIC transport's, then InfiniBand's and Ultra Ethernet's own. */
    private static final List<String> TRANSPORT_FIELDS = List.of("name", "ackEveryPackets", "retransmitTimeoutUs", "ect",
            "dataVls", "vlBufferBytes", "congestionControl", "trimThresholdPackets");
    private static final List<String> IB_ONLY = List.of("dataVls", "vlBufferBytes", "congestionControl");
    private static final List<String> UEC_ONLY = List.of("trimThresholdPackets");

    /** "transport": "infiniband", or {"name": "infiniband", ...}; absent = rocev2. */
    private Transport transportName(JsonNode tr) {
        if (tr == null || tr.isNull()) {
            return Transport.ROCEV2;
        }
        JsonNode name = tr.isObject() ? tr.get("name") : tr;
        String path = tr.isObject() ? "$.transport.name" : "$.transport";
        if (name == null) {
            return Transport.ROCEV2;
        }
        if (!tr.isObject() && !tr.isTextual()) {
            throw error("$.transport", tr, "one of " + Transport.allowedNames() + ", or an object with \"name\"");
        }
        java.util.Optional<Transport> t = name.isTextual() ? Transport.fromJsonName(name.asText())
                : java.util.Optional.empty();
        if (t.isEmpty()) {
            throw error(path, name, "one of " + Transport.allowedNames());
        }
        return t.get();
    }

    /** The largest InfiniBand MTU not above {@code mtu} (what the simulator sends on a fabric of that MTU), or null. */
    private static Long largestIbMtu(int mtu) {
        Long best = null;
        for (int m : IbFraming.MTUS) {
            if (m <= mtu) {
                best = (long) m;
            }
        }
        return best;
    }

    private long ibMtu(JsonNode v) {
        if (v == null || !v.isIntegralNumber() || !IbFraming.isMtu(v.asLong())) {
            String why = v != null && v.isIntegralNumber() && v.asLong() > IbFraming.MAX_MTU_BYTES
                    ? "an InfiniBand MTU, at most " + IbFraming.MAX_MTU_BYTES + " B of payload (IBTA vol. 1 §7.7.8): "
                    : "an InfiniBand MTU in bytes of payload (IBTA vol. 1 §7.7.8): ";
            throw error("$.mtuBytes", v, why + IbFraming.MTUS.stream().map(String::valueOf)
                    .collect(java.util.stream.Collectors.joining(", ")));
        }
        return v.asLong();
    }

    /** The run's transport profile: the transport's defaults with the file's own settings. */
    private TransportProfile transportProfile(JsonNode tr, Transport transport, Long ibMtu) {
        TransportProfile dflt = TransportProfile.of(transport);
        boolean object = tr != null && tr.isObject();
        for (String f : IB_ONLY) {
            if (object && tr.has(f) && transport != Transport.INFINIBAND) {
                throw error("$.transport." + f, tr.get(f), "no " + f + " unless $.transport.name is infiniband");
            }
        }
        for (String f : UEC_ONLY) {
            if (object && tr.has(f) && transport != Transport.ULTRA_ETHERNET) {
                throw error("$.transport." + f, tr.get(f), "no " + f + " unless $.transport.name is ultra-ethernet");
            }
        }
        if (transport == Transport.INFINIBAND) {
            TransportProfileIb ib = dflt.ib();
            int mtu = ibMtu == null ? ib.mtuBytes() : (int) (long) ibMtu;
            int vls = ib.dataVls();
            int buffer = ib.vlBufferBytes();
            boolean cc = ib.congestionControl();
            IbCongestionSettings ccSettings = ib.congestionSettings();
            if (object && tr.has("dataVls")) {
                long n = longValue(tr.get("dataVls"), "$.transport.dataVls", 1, 15);
                if (n != 1 && n != 2 && n != 4 && n != 8 && n != 15) {
                    throw error("$.transport.dataVls", tr.get("dataVls"), "1, 2, 4, 8 or 15 data virtual lanes (IBTA VLCap)");
                }
                vls = (int) n;
            }
            if (object && tr.has("vlBufferBytes")) {
                long min = (long) IbFraming.credits(IbFraming.packetBytes(mtu, ib.crossSubnet())) * IbFraming.CREDIT_BLOCK_BYTES;
                long max = (long) TransportProfileIb.MAX_ADVERTISED_BLOCKS * IbFraming.CREDIT_BLOCK_BYTES;
                long b = longValue(tr.get("vlBufferBytes"), "$.transport.vlBufferBytes", min, max);
                if (b % IbFraming.CREDIT_BLOCK_BYTES != 0) {
                    throw error("$.transport.vlBufferBytes", tr.get("vlBufferBytes"), "a multiple of the 64-byte credit "
                            + "block from " + min + " (one MTU packet) to " + max + " (the 12-bit credit check's limit)");
                }
                buffer = (int) b;
            }
            if (object && tr.has("congestionControl")) {
                JsonNode ccNode = tr.get("congestionControl");
                if (ccNode.isObject()) {
                    ccSettings = congestionSettings(ccNode, ccSettings);
                    cc = !ccNode.has("enabled") || bool(ccNode.get("enabled"), CC_PATH + ".enabled");
                } else if (ccNode.isBoolean()) {
                    cc = ccNode.asBoolean();
                } else {
                    throw error(CC_PATH, ccNode, "true, false, or an object of congestion-control settings ("
                            + String.join(", ", CC_FIELDS) + ")");
                }
            }
            return TransportProfile.infiniband(new TransportProfileIb(mtu, vls, buffer, ib.fcRefreshSymbolTimes(),
                    ib.fcPacketsPerDataPacket(), cc, ib.crossSubnet(), ccSettings));
        }
        if (transport == Transport.ULTRA_ETHERNET && object && tr.has("trimThresholdPackets")) {
            TransportProfileUec u = dflt.uec();
            long n = longValue(tr.get("trimThresholdPackets"), "$.transport.trimThresholdPackets", 1, 1_000_000);
            return new TransportProfile(dflt.transport(), dflt.dataHeaderBytes(), dflt.wireOverheadBytes(), dflt.ackBytes(),
                    null, new TransportProfileUec((int) n, u.pathEntropies(), u.selectiveRetransmit(),
                    u.nsccTargetDelayRttFraction(), u.nsccMultiplicativeDecrease(), u.nsccAdditiveIncreaseMtus()));
        }
        return dflt;
    }

    private static final String CC_PATH = "$.transport.congestionControl";
    /** Fields of "congestionControl" as an object: on/off, then OpenSM's names without their cc_*_setting_ prefix. */
    private static final List<String> CC_FIELDS = List.of("enabled", "threshold", "markingRate", "packetSizeCredits",
            "cctiIncrease", "cctiTimer", "cctiMin", "cct");

    /**
     * InfiniBand congestion control settings (docs/format-scenario.md): each field left out keeps
     * {@code d}'s; ranges are the IBTA attribute fields' (annex A10, as OpenSM's options set them).
     */
    private IbCongestionSettings congestionSettings(JsonNode n, IbCongestionSettings d) {
        checkFields(n, CC_PATH, CC_FIELDS);
        int threshold = n.has("threshold") ? (int) longValue(n.get("threshold"), CC_PATH + ".threshold", 0, 15)
                : d.threshold();
        int markingRate = n.has("markingRate") ? (int) longValue(n.get("markingRate"), CC_PATH + ".markingRate", 0,
                0xFFFF) : d.markingRate();
        int size = n.has("packetSizeCredits") ? (int) longValue(n.get("packetSizeCredits"),
                CC_PATH + ".packetSizeCredits", 0, 0xFF) : d.packetSizeCredits();
        int increase = n.has("cctiIncrease") ? (int) longValue(n.get("cctiIncrease"), CC_PATH + ".cctiIncrease", 0,
                0xFF) : d.cctiIncrease();
        int timer = n.has("cctiTimer") ? (int) longValue(n.get("cctiTimer"), CC_PATH + ".cctiTimer", 0, 0xFFFF)
                : d.cctiTimer();
        List<Integer> cct = d.cct();
        if (n.has("cct")) {
            JsonNode t = n.get("cct");
            String allowed = "a CCT in OpenSM's cc_cct notation: 1 to " + IbCongestionSettings.MAX_CCT_ENTRIES
                    + " entries \"shift:multiplier\" (shift 0-3, multiplier 0-16383) separated by commas";
            if (!t.isTextual()) {
                throw error(CC_PATH + ".cct", t, allowed);
            }
            try {
                cct = IbCongestionSettings.parseCct(t.asText());
            } catch (IllegalArgumentException e) {
                throw error(CC_PATH + ".cct", t, allowed + " (" + e.getMessage() + ")");
            }
            if (cct.size() > IbCongestionSettings.MAX_CCT_ENTRIES) {
                throw error(CC_PATH + ".cct", t, allowed);
            }
        }
        int min = d.cctiMin();
        if (n.has("cctiMin")) {
            min = (int) longValue(n.get("cctiMin"), CC_PATH + ".cctiMin", 0, cct.size() - 1);
        } else if (min > cct.size() - 1) {
            throw error(CC_PATH + ".cctiMin", null, "a cctiMin at most CCTI_Limit " + (cct.size() - 1)
                    + " (the CCT's last index)");
        }
        return new IbCongestionSettings(threshold, markingRate, size, increase, timer, min, cct);
    }

    /**
     * Settings the transport does not use, read and ignored with a warning: an InfiniBand run has
     * no PFC (credit-based flow control per virtual lane replaces it), no ECN/WRED marking and no
     * DCQCN (InfiniBand's own congestion control is FECN/BECN), and no ECT bit to set.
     */
    private List<InputProblem> transportWarnings(JsonNode root, Transport transport) {
        List<InputProblem> out = new ArrayList<>();
        if (transport != Transport.INFINIBAND) {
            return out;
        }
        String why = "ignored: an InfiniBand run has ";
        if (root.hasNonNull("profile")) {
            out.add(new InputProblem(file, "$.profile", JsonObjectReader.text(root.get("profile")), why
                    + "no PFC, ECN or DCQCN for the profile to set (credit-based flow control replaces PFC)",
                    "no profile with \"transport\": \"infiniband\""));
        }
        JsonNode qos = root.get("qos");
        if (qos != null && qos.isObject()) {
            if (qos.hasNonNull("pfc")) {
                out.add(new InputProblem(file, "$.qos.pfc", "{...}", why + "no PFC: credit-based flow control per "
                        + "virtual lane keeps it lossless (IBTA vol. 1 §7.9)", "no qos.pfc with \"transport\": \"infiniband\""));
            }
            if (qos.hasNonNull("ecn")) {
                out.add(new InputProblem(file, "$.qos.ecn", "{...}", why + "no ECN marking (its congestion control "
                        + "marks FECN; $.transport.congestionControl)", null));
            }
            if (qos.hasNonNull("dcqcn")) {
                out.add(new InputProblem(file, "$.qos.dcqcn", "{...}", why + "no DCQCN (its congestion control is "
                        + "FECN/BECN with a CCT; $.transport.congestionControl)", null));
            }
        }
        JsonNode tr = root.get("transport");
        if (tr != null && tr.isObject() && tr.has("dataVls") && !"1".equals(tr.get("dataVls").asText())) {
            out.add(new InputProblem(file, "$.transport.dataVls", JsonObjectReader.text(tr.get("dataVls")),
                    "ignored by this build's simulator, which runs one data VL", "1"));
        }
        if (tr != null && tr.isObject() && tr.has("ect")) {
            out.add(new InputProblem(file, "$.transport.ect", JsonObjectReader.text(tr.get("ect")), why
                    + "no IP header and no ECT bit", null));
        }
        return out;
    }

    // ----- QoS overrides --------------------------------------------------------------------------

    /**
     * Partial overrides of the QoS records, merged field by field over each port's profile. They
     * are read by the fabric reader's own QoS readers (one validator, the same ranges and enum
     * spellings as a fabric file's qosProfiles), each field absent from the override keeping the
     * port's value. Checked while reading against every profile the run will use, so an override
     * that is wrong for one of them (XON above that profile's XOFF) is an error now, not mid-run.
     */
    private UnaryOperator<QosProfile> qosOverrides(JsonNode qos, Fabric fabric, String profile) {
        if (qos == null || qos.isNull()) {
            return null;
        }
        JsonObjectReader r = new JsonObjectReader(qos, "$.qos", problems, QOS);
        if (!r.isObject()) {
            throw new Skip();
        }
        java.util.Set<QosProfile> bases = new java.util.LinkedHashSet<>();
        if (fabric != null) {
            QosResolver resolver = SimProfiles.resolver(fabric, profile, null);
            java.util.Set<QosProfile> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            fabric.devices().forEach(d -> d.ports().forEach(p -> {
                QosProfile q = resolver.qosFor(p);
                if (seen.add(q)) {
                    bases.add(q);
                }
            }));
        }
        if (bases.isEmpty()) {
            bases.add(QosProfile.roceLossless("check", 100));
        }
        java.util.Set<String> reported = new java.util.HashSet<>();
        boolean bad = false;
        for (QosProfile base : bases) {
            Problems p = new Problems(file);
            applyQos(qos, base, p);
            for (InputProblem ip : p.list()) {
                bad = true;
                if (reported.add(ip.render())) {
                    problems.add(ip);
                }
            }
            if (reported.size() > 50) {
                break;
            }
        }
        if (bad) {
            throw new Skip();
        }
        return base -> {
            Problems p = new Problems(file);
            QosProfile q = applyQos(qos, base, p);
            if (!p.isEmpty()) {
                throw new ScenarioException(p.list());
            }
            return q;
        };
    }

    private static QosProfile applyQos(JsonNode qos, QosProfile base, Problems p) {
        FabricJsonReader reader = new FabricJsonReader(p);
        PfcConfig pfc = base.pfc();
        if (qos.hasNonNull("pfc")) {
            pfc = reader.readPfc(qos.get("pfc"), "$.qos.pfc", base.pfc());
            JsonNode pr = qos.get("pfc").get("priorities");
            if (!pfc.enabled() && pr != null && pr.isArray() && !pr.isEmpty()) {
                // A class declared lossless with PFC off would silently be lossy.
                p.add("$.qos.pfc.priorities", "[...]", "no lossless priorities while $.qos.pfc.enabled is false "
                        + "(a lossless class needs PFC: enable it or drop the priorities)", "[] or \"enabled\": true");
            }
        }
        EcnConfig ecn = qos.hasNonNull("ecn") ? reader.readEcn(qos.get("ecn"), "$.qos.ecn", base.ecn()) : base.ecn();
        DcqcnConfig dcqcn = qos.hasNonNull("dcqcn") ? reader.readDcqcn(qos.get("dcqcn"), "$.qos.dcqcn", base.dcqcn())
                : base.dcqcn();
        BufferConfig buffer = qos.hasNonNull("buffer") ? reader.readBuffer(qos.get("buffer"), "$.qos.buffer", base.buffer())
                : base.buffer();
        SchedulerConfig scheduler = qos.hasNonNull("scheduler")
                ? reader.readScheduler(qos.get("scheduler"), "$.qos.scheduler", base.scheduler()) : base.scheduler();
        try {
            return new QosProfile(base.name(), base.description(), pfc, ecn, dcqcn, buffer, scheduler);
        } catch (IllegalArgumentException e) {
            p.add("$.qos", null, e.getMessage(), null);
            return base;
        }
    }

    // ----- small typed readers -------------------------------------------------------------------

    private void checkFields(JsonNode node, String path, List<String> allowed) {
        if (!node.isObject()) {
            throw error(path, node, "an object");
        }
        Iterator<String> it = node.fieldNames();
        boolean bad = false;
        while (it.hasNext()) {
            String f = it.next();
            if (!allowed.contains(f)) {
                problems.add(JsonPaths.field(path, f), null, "unknown field \"" + InputProblem.shorten(f) + "\"",
                        String.join(", ", allowed));
                bad = true;
            }
        }
        if (bad) {
            throw new Skip();
        }
    }

    private int priority(JsonNode n, String path) {
        if (!n.has("priority")) {
            return QosProfile.RDMA_PRIORITY;
        }
        return (int) longValue(n.get("priority"), path + ".priority", 0, 7);
    }

    /** A byte count of a flow or a sender's share: 1 to {@link #MAX_FLOW_BYTES}. */
    private long bytes(JsonNode v, String path) {
        return longValue(v, path, 1, MAX_FLOW_BYTES);
    }

    private long longValue(JsonNode v, String path, long min, long max) {
        if (v == null || !v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < min || v.asLong() > max) {
            String range = min == Long.MIN_VALUE && max == Long.MAX_VALUE ? "an integer"
                    : max == Long.MAX_VALUE ? "an integer >= " + min : "an integer " + min + " to " + max;
            throw error(path, v, range);
        }
        return v.asLong();
    }

    /**
     * Microseconds (integer or decimal) to picoseconds, the simulator's resolution: a positive time
     * that rounds to 0 ps is refused here, naming the field, rather than deep in the run.
     */
    private long psOf(JsonNode v, String path, boolean zeroAllowed) {
        String allowed = zeroAllowed ? "0 to 1e9 microseconds" : "more than 0 (at least 0.000001, 1 ps) to 1e9 microseconds";
        if (v == null || !v.isNumber()) {
            throw error(path, v, allowed);
        }
        double us = v.asDouble();
        if (Double.isNaN(us) || us < 0 || us > MAX_US || (!zeroAllowed && us == 0)) {
            throw error(path, v, allowed);
        }
        long ps = Math.round(us * Units.PS_PER_US);
        if (us > 0 && ps == 0) {
            throw error(path, v, allowed + " (below 1 ps the simulator cannot tell the time from 0)");
        }
        return ps;
    }

    private boolean bool(JsonNode v, String path) {
        if (!v.isBoolean()) {
            throw error(path, v, "true or false");
        }
        return v.asBoolean();
    }

    private String text(JsonNode n, String field, String path, String dflt) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return dflt;
        }
        if (!v.isTextual()) {
            throw error(path + "." + field, v, "a string");
        }
        return v.asText();
    }

    private String requiredText(JsonNode n, String field, String path) {
        JsonNode v = n.get(field);
        if (v == null || !v.isTextual() || v.asText().isBlank()) {
            throw error(path + "." + field, v, "a NIC as \"server:port\" or \"server:nicK\"");
        }
        return v.asText();
    }

    /** Records "found X, expected Y" at a path; the caller throws the result to skip the rest of its section. */
    private Skip error(String path, JsonNode value, String allowed) {
        String found = value == null ? "nothing" : InputProblem.shorten(JsonObjectReader.text(value));
        problems.add(path, found, "found " + found + ", expected " + allowed, null);
        return new Skip();
    }

    private Skip fail(String path, String message) {
        problems.add(path, null, message, null);
        return new Skip();
    }
}
