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
import io.fabriclab.model.Units;
import io.fabriclab.sim.LinkFailure;
import io.fabriclab.sim.QosResolver;
import io.fabriclab.sim.SimConfig;
import io.fabriclab.sim.SimProfiles;
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
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
    private static final Set<String> TOP = Set.of("schemaVersion", "name", "description", "fabric", "profile", "qos",
            "mtuBytes", "seed", "durationUs", "maxTimeUs", "telemetry", "transport", "ecmp", "workloads", "failures", "reconvergenceUs", "deadlockThresholdUs", "routing");

    /** The fabric format's MTU bounds (docs/format.md). */
    private static final int MIN_MTU_BYTES = 256;
    private static final int MAX_MTU_BYTES = 16_384;

    private final String file;
    private final Path baseDir;
    private Fabric fabricForWorkloads;

    private ScenarioJson(String file, Path baseDir) {
        this.file = file;
        this.baseDir = baseDir;
    }

    /** Reads a scenario file; a fabric given by path is resolved against the scenario's directory. */
    public static Scenario read(Path scenarioFile, FabricReader fabrics) throws IOException {
        byte[] bytes = Files.readAllBytes(scenarioFile);
        Path dir = scenarioFile.toAbsolutePath().getParent();
        return new ScenarioJson(scenarioFile.toString(), dir).parse(bytes, fabrics, null);
    }

    /** Parses scenario text; {@code fabricOverride}, when not null, is used instead of the file's fabric. */
    public static Scenario parse(String json, String name, Path baseDir, FabricReader fabrics, Fabric fabricOverride) {
        try {
            return new ScenarioJson(name, baseDir).parse(json.getBytes(StandardCharsets.UTF_8), fabrics, fabricOverride);
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

    private Scenario parse(byte[] bytes, FabricReader fabrics, Fabric fabricOverride) throws IOException {
        JsonNode root;
        try {
            root = MAPPER.readTree(bytes);
        } catch (JsonProcessingException e) {
            throw new ScenarioException(file + ": not valid JSON: " + e.getOriginalMessage()
                    + (e.getLocation() != null ? " (line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr() + ")" : ""));
        }
        if (root == null || !root.isObject()) {
            throw error("$", root, "a JSON object");
        }
        checkFields(root, "$", TOP);
        JsonNode sv = root.get("schemaVersion");
        if (sv == null || !sv.canConvertToInt() || sv.asInt() != SCHEMA_VERSION) {
            throw error("$.schemaVersion", sv, "1");
        }
        String name = text(root, "name", "$", "scenario");
        String description = text(root, "description", "$", "");

        Fabric fabric = fabricOverride != null ? fabricOverride : readFabric(root.get("fabric"), fabrics);
        fabricForWorkloads = fabric;
        if (root.has("mtuBytes")) {
            // The same fabric at another MTU (e.g. the 1500 B variant of a benchmark). Only the
            // scenario's own fabric is changed: a fabric handed in by the caller (the open one) is not.
            long mtu = longValue(root.get("mtuBytes"), "$.mtuBytes", MIN_MTU_BYTES);
            if (mtu > MAX_MTU_BYTES) {
                throw error("$.mtuBytes", root.get("mtuBytes"), "an integer " + MIN_MTU_BYTES + " to " + MAX_MTU_BYTES);
            }
            if (fabricOverride == null) {
                fabric.setMtuBytes((int) mtu);
            }
        }

        String profile = null;
        if (root.hasNonNull("profile")) {
            profile = root.get("profile").asText();
            if (!SimProfiles.exists(profile)) {
                throw error("$.profile", root.get("profile"), "one of " + String.join(", ", SimProfiles.NAMES));
            }
        }
        UnaryOperator<QosProfile> overrides = qosOverrides(root.get("qos"));
        QosResolver qos = SimProfiles.resolver(fabric, profile, overrides);

        SimConfig cfg = SimConfig.defaults();
        long seed = root.has("seed") ? longValue(root.get("seed"), "$.seed", Long.MIN_VALUE) : 1;
        cfg = cfg.withSeed(seed);
        if (root.has("durationUs")) {
            cfg = cfg.withDurationPs(psOf(root.get("durationUs"), "$.durationUs", true));
        }
        if (root.has("maxTimeUs")) {
            cfg = cfg.withMaxTimePs(psOf(root.get("maxTimeUs"), "$.maxTimeUs", false));
        }
        JsonNode tel = root.get("telemetry");
        if (tel != null) {
            checkFields(tel, "$.telemetry", Set.of("sampleIntervalUs", "maxPoints"));
            if (tel.has("sampleIntervalUs")) {
                cfg = cfg.withSampleIntervalPs(psOf(tel.get("sampleIntervalUs"), "$.telemetry.sampleIntervalUs", false));
            }
            if (tel.has("maxPoints")) {
                long n = longValue(tel.get("maxPoints"), "$.telemetry.maxPoints", 2);
                if (n % 2 != 0 || n > 1_000_000) {
                    throw error("$.telemetry.maxPoints", tel.get("maxPoints"), "an even number from 2 to 1000000");
                }
                cfg = cfg.withMaxSeriesPoints((int) n);
            }
        }
        JsonNode tr = root.get("transport");
        if (tr != null) {
            checkFields(tr, "$.transport", Set.of("ackEveryPackets", "retransmitTimeoutUs", "ect"));
            if (tr.has("ackEveryPackets")) {
                long n = longValue(tr.get("ackEveryPackets"), "$.transport.ackEveryPackets", 1);
                cfg = cfg.withAckEveryPackets((int) Math.min(n, 1 << 20));
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
            checkFields(ecmp, "$.ecmp", Set.of("perSwitchSeed"));
            if (ecmp.has("perSwitchSeed")) {
                boolean ps = bool(ecmp.get("perSwitchSeed"), "$.ecmp.perSwitchSeed");
                cfg = new SimConfig(cfg.seed(), cfg.durationPs(), cfg.maxTimePs(), cfg.sampleIntervalPs(),
                        cfg.maxSeriesPoints(), cfg.ackEveryPackets(), cfg.retransmitTimeoutPs(), cfg.ectData(), ps);
            }
        }

        io.fabriclab.sim.RoutingPolicy routing = routing(root.get("routing"));

        JsonNode ws = root.get("workloads");
        if (ws == null || !ws.isArray() || ws.isEmpty()) {
            throw error("$.workloads", ws, "a non-empty array of workloads");
        }
        List<Workload> workloads = new ArrayList<>();
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < ws.size(); i++) {
            String path = "$.workloads[" + i + "]";
            Workload w = workload(ws.get(i), path, seed);
            List<FlowSpec> fl;
            try {
                fl = w.flows(fabric);
            } catch (IllegalArgumentException e) {
                throw new ScenarioException(file + ": " + path + ": " + e.getMessage());
            }
            for (int k = 0; k < fl.size(); k++) {
                FlowSpec f = fl.get(k);
                for (String nic : List.of(f.src(), f.dst())) {
                    if (Nics.resolve(fabric, nic) == null) {
                        throw new ScenarioException(file + ": " + path + ": NIC '" + nic + "' is not in fabric '"
                                + fabric.name() + "' (use server:port or server:nicK)");
                    }
                }
                if (Nics.resolve(fabric, f.src()) == Nics.resolve(fabric, f.dst())) {
                    throw new ScenarioException(file + ": " + path + ": flow " + k + " goes from " + f.src() + " to "
                            + f.dst() + ", the same NIC; a flow needs two different NICs");
                }
            }
            workloads.add(w);
            flows.addAll(fl);
        }
        if (cfg.durationPs() > 0) {
            long first = flows.stream().mapToLong(FlowSpec::startPs).min().orElse(0);
            if (first >= cfg.durationPs()) {
                // Nothing would be sent: a zero-length run.
                throw error("$.durationUs", root.get("durationUs"), "0 (run to completion) or a time after the first "
                        + "flow starts (" + first / (double) Units.PS_PER_US + " us)");
            }
        }
        List<LinkFailure> failures = new ArrayList<>();
        JsonNode fs = root.get("failures");
        if (fs != null) {
            if (!fs.isArray()) {
                throw error("$.failures", fs, "an array of link failures");
            }
            for (int i = 0; i < fs.size(); i++) {
                String fp = "$.failures[" + i + "]";
                JsonNode f = fs.get(i);
                checkFields(f, fp, Set.of("link", "switch", "downAtUs", "upAtUs", "degradedGbps"));
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
                        throw error(fp + ".switch", sw, "the id of a switch in fabric '" + fabric.name() + "'");
                    }
                    for (var port : d.ports()) {
                        Link pl = fabric.linkAt(port);
                        if (pl != null) {
                            failures.add(new LinkFailure(pl, down, up, 0));
                        }
                    }
                    continue;
                }
                String spec = requiredText(f, "link", fp);
                Link l = fabric.findLink(spec);
                if (l == null) {
                    throw error(fp + ".link", f.get("link"), "a link id, one of its ports (device:port) or devA--devB");
                }
                int degraded = 0;
                if (f.has("degradedGbps")) {
                    long g = longValue(f.get("degradedGbps"), fp + ".degradedGbps", 1);
                    if (!Units.isAllowedSpeed((int) Math.min(g, Integer.MAX_VALUE))) {
                        throw error(fp + ".degradedGbps", f.get("degradedGbps"), "a link speed in Gb/s: " + Units.allowedSpeeds());
                    }
                    if (g > l.speedGbps()) {
                        throw error(fp + ".degradedGbps", f.get("degradedGbps"), "a speed below the link's "
                                + l.speedGbps() + " Gb/s (a degraded link cannot run above its line rate)");
                    }
                    degraded = (int) g;
                }
                failures.add(new LinkFailure(l, down, up, degraded));
            }
        }
        long reconvergence = root.has("reconvergenceUs") ? psOf(root.get("reconvergenceUs"), "$.reconvergenceUs", true)
                : 50 * Units.PS_PER_US;
        long deadlockThreshold = root.has("deadlockThresholdUs")
                ? psOf(root.get("deadlockThresholdUs"), "$.deadlockThresholdUs", true) : 500 * Units.PS_PER_US;
        return new Scenario(name, description, fabric, profile, qos, List.copyOf(workloads), List.copyOf(flows), cfg,
                sha256(bytes), List.copyOf(failures), reconvergence, deadlockThreshold, routing);
    }

    private io.fabriclab.sim.RoutingPolicy routing(JsonNode r) {
        if (r == null) {
            return io.fabriclab.sim.RoutingPolicy.ecmp();
        }
        checkFields(r, "$.routing", Set.of("mode", "flowletGapUs", "reorderWindowPackets"));
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
            long w = longValue(r.get("reorderWindowPackets"), "$.routing.reorderWindowPackets", 1);
            if (w > 65536) {
                throw error("$.routing.reorderWindowPackets", r.get("reorderWindowPackets"), "an integer from 1 to 65536");
            }
            window = (int) w;
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
                pts.add(new double[] {p.get(0).asDouble(), p.get(1).asDouble()});
            }
            try {
                return new io.fabriclab.workload.FlowSizeDistribution("custom", pts);
            } catch (IllegalArgumentException e) {
                throw new ScenarioException(file + ": " + path + ": " + e.getMessage());
            }
        }
        throw error(path, v, "one of " + String.join(", ", io.fabriclab.workload.FlowSizeDistribution.SHIPPED)
                + " or an array of [bytes, cumulative percent] points");
    }

    private Fabric readFabric(JsonNode node, FabricReader fabrics) throws IOException {
        if (node == null || node.isNull()) {
            throw error("$.fabric", node, "a path to a fabric file or an inline fabric object");
        }
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
        throw error("$.fabric", node, "a path to a fabric file or an inline fabric object");
    }

    private Workload workload(JsonNode w, String path, long scenarioSeed) {
        if (w == null || !w.isObject()) {
            throw error(path, w, "an object with a \"type\"");
        }
        String type = w.path("type").asText("");
        switch (type) {
            case "flows" -> {
                checkFields(w, path, Set.of("type", "flows"));
                JsonNode fl = w.get("flows");
                if (fl == null || !fl.isArray() || fl.isEmpty()) {
                    throw error(path + ".flows", fl, "a non-empty array of flows");
                }
                List<FlowSpec> out = new ArrayList<>();
                for (int i = 0; i < fl.size(); i++) {
                    String fp = path + ".flows[" + i + "]";
                    JsonNode f = fl.get(i);
                    if (!f.isObject()) {
                        throw error(fp, f, "a flow object");
                    }
                    checkFields(f, fp, Set.of("src", "dst", "bytes", "startUs", "priority", "label", "id", "after"));
                    List<String> after = new ArrayList<>();
                    if (f.has("after")) {
                        if (!f.get("after").isArray()) {
                            throw error(fp + ".after", f.get("after"), "an array of flow ids");
                        }
                        f.get("after").forEach(x -> after.add(x.asText()));
                    }
                    out.add(new FlowSpec(requiredText(f, "src", fp), requiredText(f, "dst", fp),
                            longValue(f.get("bytes"), fp + ".bytes", 1),
                            f.has("startUs") ? psOf(f.get("startUs"), fp + ".startUs", true) : 0,
                            priority(f, fp), text(f, "label", fp, ""), text(f, "id", fp, ""), after));
                    if (out.get(i).src().equals(out.get(i).dst())) {
                        throw error(fp + ".dst", f.get("dst"), "a NIC other than the source");
                    }
                }
                return new FlowList(out);
            }
            case "incast" -> {
                checkFields(w, path, Set.of("type", "senders", "receiver", "bytesPerSender", "startUs", "priority"));
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
                return new Incast(senders, receiver, longValue(w.get("bytesPerSender"), path + ".bytesPerSender", 1),
                        w.has("startUs") ? psOf(w.get("startUs"), path + ".startUs", true) : 0, priority(w, path));
            }
            case "permutation" -> {
                checkFields(w, path, Set.of("type", "nics", "bytes", "startUs", "priority", "seed"));
                List<String> nics = new ArrayList<>();
                if (w.has("nics")) {
                    if (!w.get("nics").isArray()) {
                        throw error(path + ".nics", w.get("nics"), "an array of NICs (omit for all NICs)");
                    }
                    w.get("nics").forEach(x -> nics.add(x.asText()));
                }
                return new Permutation(nics, longValue(w.get("bytes"), path + ".bytes", 1),
                        w.has("startUs") ? psOf(w.get("startUs"), path + ".startUs", true) : 0, priority(w, path),
                        w.has("seed") ? longValue(w.get("seed"), path + ".seed", Long.MIN_VALUE) : scenarioSeed);
            }
            case "background" -> {
                checkFields(w, path, Set.of("type", "nics", "sizes", "load", "startUs", "durationUs", "priority", "seed", "label"));
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
                            w.has("seed") ? longValue(w.get("seed"), path + ".seed", Long.MIN_VALUE) : scenarioSeed,
                            text(w, "label", path, "background"));
                } catch (IllegalArgumentException e) {
                    throw new ScenarioException(file + ": " + path + ": " + e.getMessage());
                }
            }
            case "microburst" -> {
                checkFields(w, path, Set.of("type", "senders", "receiver", "bytesPerSender", "startUs", "periodUs", "count", "priority"));
                try {
                    return new io.fabriclab.workload.Microburst(nicList(w, "senders", path, true), requiredText(w, "receiver", path),
                            longValue(w.get("bytesPerSender"), path + ".bytesPerSender", 1),
                            w.has("startUs") ? psOf(w.get("startUs"), path + ".startUs", true) : 0,
                            psOf(w.get("periodUs"), path + ".periodUs", false),
                            (int) Math.min(longValue(w.get("count"), path + ".count", 1), 100_000),
                            w.has("priority") ? priority(w, path) : 0);
                } catch (IllegalArgumentException e) {
                    throw new ScenarioException(file + ": " + path + ": " + e.getMessage());
                }
            }
            case "checkpoint" -> {
                checkFields(w, path, Set.of("type", "clients", "targets", "bytesPerClient", "startUs", "periodUs", "count", "priority"));
                int count = w.has("count") ? (int) Math.min(longValue(w.get("count"), path + ".count", 1), 100_000) : 1;
                try {
                    return new io.fabriclab.workload.CheckpointBurst(nicList(w, "clients", path, true),
                            nicList(w, "targets", path, true), longValue(w.get("bytesPerClient"), path + ".bytesPerClient", 1),
                            w.has("startUs") ? psOf(w.get("startUs"), path + ".startUs", true) : 0,
                            w.has("periodUs") ? psOf(w.get("periodUs"), path + ".periodUs", false) : 0, count,
                            w.has("priority") ? priority(w, path) : 1);
                } catch (IllegalArgumentException e) {
                    throw new ScenarioException(file + ": " + path + ": " + e.getMessage());
                }
            }
            case "allreduce", "reducescatter", "allgather", "alltoall" -> {
                checkFields(w, path, Set.of("type", "name", "ranks", "bytes", "startUs", "priority", "channels", "ringOrder"));
                int channels = w.has("channels") ? (int) Math.min(longValue(w.get("channels"), path + ".channels", 1), 1000) : 1;
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
                            longValue(w.get("bytes"), path + ".bytes", 1),
                            w.has("startUs") ? psOf(w.get("startUs"), path + ".startUs", true) : 0, priority(w, path),
                            channels, order);
                } catch (IllegalArgumentException e) {
                    throw new ScenarioException(file + ": " + path + ": " + e.getMessage());
                }
            }
            default -> throw error(path + ".type", w.get("type"), "one of flows, incast, permutation, allreduce, "
                    + "reducescatter, allgather, alltoall, background, microburst, checkpoint");
        }
    }

    /** Partial overrides of the QoS records, merged field by field over each port's profile. */
    private UnaryOperator<QosProfile> qosOverrides(JsonNode qos) {
        if (qos == null || qos.isNull()) {
            return null;
        }
        checkFields(qos, "$.qos", Set.of("pfc", "ecn", "dcqcn", "buffer", "scheduler"));
        // Validate once against a reference profile so errors surface while reading, not mid-run.
        UnaryOperator<QosProfile> op = base -> {
            QosProfile q = base;
            if (qos.has("pfc")) {
                q = q.withPfc(merge(q.pfc(), qos.get("pfc"), PfcConfig.class, "$.qos.pfc"));
                JsonNode pr = qos.get("pfc").get("priorities");
                if (!q.pfc().enabled() && pr != null && pr.isArray() && !pr.isEmpty()) {
                    // A class declared lossless with PFC off would silently be lossy.
                    throw error("$.qos.pfc.priorities", pr, "no lossless priorities while $.qos.pfc.enabled is false "
                            + "(a lossless class needs PFC: enable it or drop the priorities)");
                }
            }
            if (qos.has("ecn")) {
                q = q.withEcn(merge(q.ecn(), qos.get("ecn"), EcnConfig.class, "$.qos.ecn"));
            }
            if (qos.has("dcqcn")) {
                q = q.withDcqcn(merge(q.dcqcn(), qos.get("dcqcn"), DcqcnConfig.class, "$.qos.dcqcn"));
            }
            if (qos.has("buffer")) {
                q = q.withBuffer(merge(q.buffer(), qos.get("buffer"), BufferConfig.class, "$.qos.buffer"));
            }
            if (qos.has("scheduler")) {
                q = new QosProfile(q.name(), q.description(), q.pfc(), q.ecn(), q.dcqcn(), q.buffer(),
                        merge(q.scheduler(), qos.get("scheduler"), SchedulerConfig.class, "$.qos.scheduler"));
            }
            validate(q);
            return q;
        };
        op.apply(QosProfile.roceLossless("check", 100));
        return op;
    }

    private void validate(QosProfile q) {
        PfcConfig p = q.pfc();
        if (p.enabled() && (p.xonBytes() >= p.xoffBytes() || p.xonBytes() < 0 || p.headroomBytes() < 0)) {
            throw new ScenarioException(file + ": $.qos.pfc: need 0 <= xonBytes < xoffBytes and headroomBytes >= 0, got xon "
                    + p.xonBytes() + ", xoff " + p.xoffBytes() + ", headroom " + p.headroomBytes());
        }
        for (int c : p.priorities()) {
            if (c < 0 || c > 7) {
                throw new ScenarioException(file + ": $.qos.pfc.priorities: " + c + " is not a priority 0-7");
            }
        }
        for (Map.Entry<Integer, io.fabriclab.model.WredEcn> e : q.ecn().classes().entrySet()) {
            var w = e.getValue();
            if (e.getKey() < 0 || e.getKey() > 7 || w.kminBytes() < 0 || w.kmaxBytes() <= w.kminBytes()
                    || w.pmax() < 0 || w.pmax() > 1) {
                throw new ScenarioException(file + ": $.qos.ecn.classes." + e.getKey()
                        + ": need class 0-7, 0 <= kminBytes < kmaxBytes and 0 <= pmax <= 1, got " + w);
            }
        }
        if (q.buffer().poolBytes() <= 0) {
            throw new ScenarioException(file + ": $.qos.buffer.poolBytes: must be > 0, got " + q.buffer().poolBytes());
        }
        if (q.scheduler().dwrrWeights().size() != 8 || q.scheduler().dwrrWeights().stream().anyMatch(x -> x == null || x < 1)) {
            throw new ScenarioException(file + ": $.qos.scheduler.dwrrWeights: need 8 weights >= 1, got "
                    + q.scheduler().dwrrWeights());
        }
    }

    private <T> T merge(T base, JsonNode override, Class<T> type, String path) {
        if (!override.isObject()) {
            throw error(path, override, "an object with the fields to change");
        }
        ObjectNode tree = MAPPER.valueToTree(base);
        Iterator<Map.Entry<String, JsonNode>> it = override.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!tree.has(e.getKey())) {
                List<String> names = new ArrayList<>();
                tree.fieldNames().forEachRemaining(names::add);
                throw new ScenarioException(file + ": " + path + "." + e.getKey() + ": unknown field; allowed: "
                        + String.join(", ", names));
            }
            tree.set(e.getKey(), e.getValue());
        }
        try {
            return MAPPER.treeToValue(tree, type);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            String msg = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
            throw new ScenarioException(file + ": " + path + ": " + msg);
        }
    }

    // ----- small typed readers -------------------------------------------------------------------

    private void checkFields(JsonNode node, String path, Set<String> allowed) {
        if (!node.isObject()) {
            throw error(path, node, "an object");
        }
        Iterator<String> it = node.fieldNames();
        while (it.hasNext()) {
            String f = it.next();
            if (!allowed.contains(f)) {
                throw new ScenarioException(file + ": " + path + "." + f + ": unknown field; allowed: "
                        + String.join(", ", new java.util.TreeSet<>(allowed)));
            }
        }
    }

    private int priority(JsonNode n, String path) {
        if (!n.has("priority")) {
            return QosProfile.RDMA_PRIORITY;
        }
        long p = longValue(n.get("priority"), path + ".priority", 0);
        if (p > 7) {
            throw error(path + ".priority", n.get("priority"), "a priority 0-7");
        }
        return (int) p;
    }

    private long longValue(JsonNode v, String path, long min) {
        if (v == null || !v.isIntegralNumber() || !v.canConvertToLong()) {
            throw error(path, v, "an integer" + (min == Long.MIN_VALUE ? "" : " >= " + min));
        }
        if (v.asLong() < min) {
            throw error(path, v, "an integer >= " + min);
        }
        return v.asLong();
    }

    /** Microseconds (integer or decimal) to picoseconds. */
    private long psOf(JsonNode v, String path, boolean zeroAllowed) {
        if (v == null || !v.isNumber()) {
            throw error(path, v, "a number of microseconds");
        }
        double us = v.asDouble();
        if (Double.isNaN(us) || us < 0 || (!zeroAllowed && us == 0) || us > 1e9) {
            throw error(path, v, (zeroAllowed ? "0" : "more than 0") + " to 1e9 microseconds");
        }
        return Math.round(us * Units.PS_PER_US);
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

    private ScenarioException error(String path, JsonNode value, String allowed) {
        String found = value == null ? "nothing" : value.toString();
        if (found.length() > 80) {
            found = found.substring(0, 77) + "...";
        }
        return new ScenarioException(file + ": " + path + ": found " + found + ", expected " + allowed);
    }
}
