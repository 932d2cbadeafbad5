package io.fabriclab.io;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;

import io.fabriclab.model.BufferConfig;
import io.fabriclab.model.CableType;
import io.fabriclab.model.DcqcnConfig;
import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.EcnConfig;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.FabricLimits;
import io.fabriclab.model.Layout;
import io.fabriclab.model.Link;
import io.fabriclab.model.LinkState;
import io.fabriclab.model.PfcConfig;
import io.fabriclab.model.Port;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.ScaleUp;
import io.fabriclab.model.SchedulerConfig;
import io.fabriclab.model.Units;
import io.fabriclab.model.WredEcn;

/**
 * Turns a parsed fabric file (a Jackson tree) into a {@link Fabric}, checking everything a user can
 * get wrong and collecting every problem with its JSON path. Where a value is wrong a stand-in is
 * used so that checking goes on; the fabric is only returned when no problem was found.
 */
final class FabricJsonReader {
    static final List<String> TOP_FIELDS = List.of("schemaVersion", "name", "description", "mtuBytes",
            "qosProfiles", "defaultQosProfile", "devices", "links", "layout");
    static final List<String> PROFILE_FIELDS = List.of("description", "pfc", "ecn", "dcqcn", "buffer", "scheduler");
    static final List<String> PFC_FIELDS = List.of("enabled", "priorities", "xoffBytes", "xonBytes",
            "headroomBytes", "watchdogUs", "watchdogAction");
    static final List<String> ECN_FIELDS = List.of("enabled", "markAt", "classes");
    static final List<String> WRED_FIELDS = List.of("kminBytes", "kmaxBytes", "pmax");
    static final List<String> DCQCN_FIELDS = List.of("enabled", "cnpIntervalUs", "alphaTimerUs",
            "rateIncreaseTimerUs", "byteCounterBytes", "fastRecoverySteps", "g", "rateAiMbps", "rateHaiMbps",
            "initialAlpha", "minRateMbps", "minCutIntervalUs", "maxCutFraction", "clampTargetRate",
            "clampTargetRateAfterTimeIncrease");
    static final List<String> BUFFER_FIELDS = List.of("poolBytes", "mode", "staticLimitBytes", "alpha",
            "reservedPerQueueBytes");
    static final List<String> SCHEDULER_FIELDS = List.of("strictPriorityClasses", "dwrrWeights");
    static final List<String> DEVICE_FIELDS = List.of("id", "role", "model", "unit", "rail", "pod", "gpus",
            "scaleUp", "qosProfile", "labels", "ports");
    static final List<String> SCALE_UP_FIELDS = List.of("gpu", "technology", "bandwidthGBps", "latencyNs");
    static final List<String> PORT_FIELDS = List.of("name", "speedGbps", "nic", "qosProfile");
    static final List<String> LINK_FIELDS = List.of("id", "a", "b", "speedGbps", "cableLengthM", "cableType", "state");
    static final List<String> LAYOUT_FIELDS = List.of("positions", "foldedGroups");
    static final List<String> POINT_FIELDS = List.of("x", "y");

    static final String ALLOWED_SPEEDS = Units.allowedSpeeds();
    static final int MAX_DEVICES = FabricLimits.MAX_DEVICES;
    static final int MAX_LINKS = FabricLimits.MAX_LINKS;
    static final int MAX_PORTS_PER_DEVICE = FabricLimits.MAX_PORTS_PER_DEVICE;
    static final int MAX_QOS_PROFILES = 1000;
    static final int MAX_LABELS_PER_DEVICE = 256;
    static final int MAX_ID_CHARS = FabricLimits.MAX_ID_CHARS;
    /** Thresholds and pools above 16 GiB are typing mistakes: the deepest switch buffers hold a few hundred MB. */
    static final long MAX_BYTES = 16L * 1024 * 1024 * 1024;
    /** Timers above 1000 s are typing mistakes (DCQCN and watchdog timers are microseconds to seconds). */
    static final double MAX_US = 1e9;
    /** No rate exceeds the fastest allowed port, 1.6 Tb/s. */
    static final double MAX_MBPS = 1_600_000;
    static final double MAX_CABLE_M = FabricLimits.MAX_CABLE_M;
    /** The fastest scale-up link per GPU is 900 GB/s each way (B200, NVLink 5); 100 TB/s is a typing mistake. */
    static final double MAX_SCALE_UP_GBPS = 100_000;
    /** An NVLink hop takes well under a microsecond; a millisecond is a typing mistake. */
    static final long MAX_SCALE_UP_LATENCY_NS = 1_000_000;
    /** GPU model names: free text such as "H100-SXM5" or "MI300X", up to this many characters. */
    static final int MAX_GPU_NAME_CHARS = 64;
    /** The technology of a scale-up domain whose GPU is not a known generation and whose file does not say. */
    static final String CUSTOM_SCALE_UP_TECHNOLOGY = "custom scale-up";
    static final int MIN_MTU_BYTES = 256;
    static final int MAX_MTU_BYTES = 16_384;
    static final String LINK_ID_RULE = "1 to " + MAX_ID_CHARS * 3
            + " characters, no spaces, control, format or bidirectional characters";
    static final String ID_RULE = "1 to " + MAX_ID_CHARS
            + " characters, no ':', no spaces, control, format or bidirectional characters";

    /** containerlab node labels with this prefix carry FabricLab's own fields, so users may not set them. */
    static final String RESERVED_LABEL_PREFIX = "fabriclab-";

    private final Problems problems;
    private final Set<String> profileNames = new HashSet<>();

    FabricJsonReader(Problems problems) {
        this.problems = problems;
    }

    Fabric read(JsonNode root) {
        JsonObjectReader top = new JsonObjectReader(root, "$", problems, TOP_FIELDS);
        if (!top.isObject()) {
            return null;
        }
        if (!schemaVersionSupported(top)) {
            return null;
        }
        String name = top.string("name", true, "unnamed", "a non-empty string");
        if (name != null && name.isBlank()) {
            problems.notAllowed(top.path("name"), "\"\"", "a non-empty string");
        }
        Fabric f = new Fabric(name == null ? "unnamed" : name);
        f.setDescription(top.string("description", false, "", "a string"));
        f.setMtuBytes(top.intValue("mtuBytes", false, Fabric.DEFAULT_MTU_BYTES, MIN_MTU_BYTES, MAX_MTU_BYTES));

        readProfiles(top, f);
        String def = top.string("defaultQosProfile", false, null, "the name of a profile in qosProfiles");
        if (def != null && !profileNames.contains(def)) {
            unknownProfile(top.path("defaultQosProfile"), def);
            def = null;
        }
        if (f.qosProfiles().containsKey(def) || def == null) {
            f.setDefaultQosProfile(def);
        }
        readDevices(top, f);
        readLinks(top, f);
        readLayout(top, f);
        return f;
    }

    private boolean schemaVersionSupported(JsonObjectReader top) {
        JsonNode v = top.get("schemaVersion");
        String allowed = Integer.toString(FabricJson.SCHEMA_VERSION);
        if (v == null || v.isNull()) {
            problems.add(top.path("schemaVersion"), null,
                    "required field \"schemaVersion\" is missing; is this a FabricLab fabric file?", allowed);
            return false;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt() || v.intValue() < 1) {
            problems.notAllowed(top.path("schemaVersion"), JsonObjectReader.text(v), allowed);
            return false;
        }
        if (v.intValue() > FabricJson.SCHEMA_VERSION) {
            problems.add(top.path("schemaVersion"), v.toString(), "schemaVersion " + v.intValue()
                    + " is newer than this FabricLab understands; update FabricLab to read this file", allowed);
            return false;
        }
        return true;
    }

    // ----- QoS profiles ------------------------------------------------------------------------

    private void readProfiles(JsonObjectReader top, Fabric f) {
        List<Map.Entry<String, JsonNode>> entries = top.entries("qosProfiles", false, "an object: profile name -> profile");
        if (entries == null) {
            return;
        }
        if (entries.size() > MAX_QOS_PROFILES) {
            problems.add(top.path("qosProfiles"), entries.size() + " profiles", "too many QoS profiles",
                    "at most " + MAX_QOS_PROFILES);
            return;
        }
        for (Map.Entry<String, JsonNode> e : entries) {
            String path = JsonPaths.field(top.path("qosProfiles"), e.getKey());
            if (!validId(e.getKey())) {
                problems.add(path, quote(e.getKey()), "bad profile name", ID_RULE);
            }
            profileNames.add(e.getKey());
            QosProfile p = readProfile(e.getKey(), e.getValue(), path);
            if (p != null) {
                f.putQosProfile(p);
            }
        }
    }

    QosProfile readProfile(String name, JsonNode node, String path) {
        JsonObjectReader r = new JsonObjectReader(node, path, problems, PROFILE_FIELDS);
        if (!r.isObject()) {
            return null;
        }
        String description = r.string("description", false, "", "a string");
        PfcConfig pfc = r.has("pfc") ? readPfc(r.get("pfc"), r.path("pfc"), FabricJson.defaultPfc()) : PfcConfig.off();
        EcnConfig ecn = r.has("ecn") ? readEcn(r.get("ecn"), r.path("ecn"), DEFAULT_ECN) : EcnConfig.off();
        DcqcnConfig dcqcn = r.has("dcqcn") ? readDcqcn(r.get("dcqcn"), r.path("dcqcn"), DcqcnConfig.nicFirmware())
                : DcqcnConfig.off();
        BufferConfig buffer = r.has("buffer") ? readBuffer(r.get("buffer"), r.path("buffer"), FabricJson.defaultBuffer())
                : FabricJson.defaultBuffer();
        SchedulerConfig scheduler = r.has("scheduler")
                ? readScheduler(r.get("scheduler"), r.path("scheduler"), SchedulerConfig.defaults())
                : SchedulerConfig.defaults();
        return new QosProfile(name, description, pfc, ecn, dcqcn, buffer, scheduler);
    }

    /** ECN fields left out of a present "ecn" section: enabled, marking at dequeue, no class marked. */
    static final EcnConfig DEFAULT_ECN = new EcnConfig(true, Map.of(), EcnConfig.MarkingPoint.DEQUEUE);

    /*
     * The QoS section readers take the values that fields left out keep: the format's defaults
     * for a fabric file's profile, the port's own profile for a scenario's "qos" overrides
     * (ScenarioJson), so both are checked by the same code with the same ranges and spellings.
     */

    PfcConfig readPfc(JsonNode node, String path, PfcConfig d) {
        JsonObjectReader r = new JsonObjectReader(node, path, problems, PFC_FIELDS);
        boolean enabled = r.bool("enabled", false, d.enabled());
        Set<Integer> priorities = r.has("priorities") ? classSet(r, "priorities") : d.priorities();
        long xoff = r.integer("xoffBytes", false, d.xoffBytes(), 0, MAX_BYTES);
        long xon = r.integer("xonBytes", false, d.xonBytes(), 0, MAX_BYTES);
        long headroom = r.integer("headroomBytes", false, d.headroomBytes(), 0, MAX_BYTES);
        long watchdog = r.integer("watchdogUs", false, d.watchdogUs(), 0, (long) MAX_US);
        PfcConfig.WatchdogAction action = enumValue(r, "watchdogAction", PfcConfig.WatchdogAction.class,
                d.watchdogAction());
        if (r.isObject() && enabled && xon >= xoff) {
            problems.add(r.path("xonBytes"), Long.toString(xon), "XON " + xon + " B must be below XOFF " + xoff
                    + " B, or the port would resume while still above its pause threshold",
                    "a whole number from 0 to " + Math.max(0, xoff - 1) + " (below xoffBytes)");
        }
        if (r.isObject() && enabled && priorities.isEmpty()) {
            problems.add(r.path("priorities"), "[]", "PFC is enabled on no priority", "one or more classes 0-7");
        }
        return new PfcConfig(enabled, priorities, xoff, xon, headroom, watchdog, action);
    }

    EcnConfig readEcn(JsonNode node, String path, EcnConfig d) {
        JsonObjectReader r = new JsonObjectReader(node, path, problems, ECN_FIELDS);
        boolean enabled = r.bool("enabled", false, d.enabled());
        EcnConfig.MarkingPoint markAt = enumValue(r, "markAt", EcnConfig.MarkingPoint.class, d.markAt());
        if (!r.has("classes")) {
            return new EcnConfig(enabled, d.classes(), markAt);
        }
        Map<Integer, WredEcn> classes = new TreeMap<>();
        List<Map.Entry<String, JsonNode>> entries = r.entries("classes", false,
                "an object: traffic class \"0\"-\"7\" -> { kminBytes, kmaxBytes, pmax }");
        if (entries != null) {
            for (Map.Entry<String, JsonNode> e : entries) {
                String cpath = JsonPaths.field(r.path("classes"), e.getKey());
                int tc = trafficClassKey(e.getKey());
                if (tc < 0) {
                    problems.add(cpath, quote(e.getKey()), "traffic class key must be \"0\" to \"7\"", "\"0\" .. \"7\"");
                    continue;
                }
                WredEcn w = readWred(e.getValue(), cpath);
                if (w != null) {
                    classes.put(tc, w);
                }
            }
        }
        return new EcnConfig(enabled, classes, markAt);
    }

    private static int trafficClassKey(String key) {
        return key.length() == 1 && key.charAt(0) >= '0' && key.charAt(0) <= '7' ? key.charAt(0) - '0' : -1;
    }

    private WredEcn readWred(JsonNode node, String path) {
        JsonObjectReader r = new JsonObjectReader(node, path, problems, WRED_FIELDS);
        if (!r.isObject()) {
            return null;
        }
        Long kmin = r.integer("kminBytes", true, null, 0, MAX_BYTES);
        Long kmax = r.integer("kmaxBytes", true, null, 0, MAX_BYTES);
        Double pmax = r.number("pmax", true, null, 0, true, 1, false);
        if (kmin != null && kmax != null && kmin >= kmax) {
            problems.add(r.path("kminBytes"), Long.toString(kmin), "Kmin " + kmin + " B must be below Kmax " + kmax
                    + " B", "a whole number from 0 to " + Math.max(0, kmax - 1) + " (below kmaxBytes)");
        }
        if (kmin == null || kmax == null || pmax == null) {
            return null;
        }
        return new WredEcn(kmin, kmax, pmax);
    }

    DcqcnConfig readDcqcn(JsonNode node, String path, DcqcnConfig d) {
        JsonObjectReader r = new JsonObjectReader(node, path, problems, DCQCN_FIELDS);
        boolean enabled = r.bool("enabled", false, d.enabled());
        double cnp = r.number("cnpIntervalUs", false, d.cnpIntervalUs(), 0, false, MAX_US, false);
        double alphaTimer = r.number("alphaTimerUs", false, d.alphaTimerUs(), 0, true, MAX_US, false);
        double rateTimer = r.number("rateIncreaseTimerUs", false, d.rateIncreaseTimerUs(), 0, true, MAX_US, false);
        long bc = r.integer("byteCounterBytes", false, d.byteCounterBytes(), 1, MAX_BYTES);
        int f = r.intValue("fastRecoverySteps", false, d.fastRecoverySteps(), 0, 1000);
        double g = r.number("g", false, d.g(), 0, true, 1, false);
        double ai = r.number("rateAiMbps", false, d.rateAiMbps(), 0, true, MAX_MBPS, false);
        double hai = r.number("rateHaiMbps", false, d.rateHaiMbps(), 0, true, MAX_MBPS, false);
        double alpha0 = r.number("initialAlpha", false, d.initialAlpha(), 0, false, 1, false);
        double minRate = r.number("minRateMbps", false, d.minRateMbps(), 0, true, MAX_MBPS, false);
        double minCut = r.number("minCutIntervalUs", false, d.minCutIntervalUs(), 0, false, MAX_US, false);
        double maxCut = r.number("maxCutFraction", false, d.maxCutFraction(), 0, true, 1, false);
        boolean clamp = r.bool("clampTargetRate", false, d.clampTargetRate());
        boolean clampAfter = r.bool("clampTargetRateAfterTimeIncrease", false, d.clampTargetAfterTimeIncrease());
        return new DcqcnConfig(enabled, cnp, alphaTimer, rateTimer, bc, f, g, ai, hai, alpha0, minRate, minCut, maxCut,
                clamp, clampAfter);
    }

    BufferConfig readBuffer(JsonNode node, String path, BufferConfig d) {
        JsonObjectReader r = new JsonObjectReader(node, path, problems, BUFFER_FIELDS);
        long pool = r.integer("poolBytes", false, d.poolBytes(), 1, MAX_BYTES);
        BufferConfig.ThresholdMode mode = enumValue(r, "mode", BufferConfig.ThresholdMode.class, d.mode());
        long staticLimit = r.integer("staticLimitBytes", false, d.staticLimitBytes(), 0, MAX_BYTES);
        double alpha = r.number("alpha", false, d.alpha(), 0, true, 1024, false);
        long reserved = r.integer("reservedPerQueueBytes", false, d.reservedPerQueueBytes(), 0, MAX_BYTES);
        if (r.isObject() && mode == BufferConfig.ThresholdMode.STATIC && staticLimit == 0) {
            problems.add(r.path("staticLimitBytes"), "0", "a STATIC buffer needs a per-queue limit above 0",
                    "a whole number from 1 to " + MAX_BYTES);
        }
        return new BufferConfig(pool, mode, staticLimit, alpha, reserved);
    }

    SchedulerConfig readScheduler(JsonNode node, String path, SchedulerConfig d) {
        JsonObjectReader r = new JsonObjectReader(node, path, problems, SCHEDULER_FIELDS);
        Set<Integer> strict = r.has("strictPriorityClasses") ? classSet(r, "strictPriorityClasses")
                : d.strictPriorityClasses();
        List<Integer> weights = d.dwrrWeights();
        List<JsonNode> w = r.array("dwrrWeights", false, "8 whole numbers from 1 to 1000, one per class 0-7");
        if (w != null) {
            if (w.size() != 8) {
                problems.add(r.path("dwrrWeights"), w.size() + " weights", "needs exactly 8 weights, one per class 0-7",
                        "8 whole numbers from 1 to 1000");
            } else {
                List<Integer> parsed = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    Long v = JsonObjectReader.integerValue(w.get(i), JsonPaths.index(r.path("dwrrWeights"), i), 1L,
                            1, 1000, problems);
                    parsed.add((int) (long) v);
                }
                weights = parsed;
            }
        }
        return new SchedulerConfig(strict, weights);
    }

    /** A set of traffic classes 0-7 written as a JSON array; duplicates are errors. */
    private Set<Integer> classSet(JsonObjectReader r, String field) {
        Set<Integer> out = new LinkedHashSet<>();
        List<JsonNode> items = r.array(field, false, "an array of traffic classes 0-7");
        if (items == null) {
            return out;
        }
        for (int i = 0; i < items.size(); i++) {
            String p = JsonPaths.index(r.path(field), i);
            Long v = JsonObjectReader.integerValue(items.get(i), p, null, 0, 7, problems);
            if (v != null && !out.add((int) (long) v)) {
                problems.add(p, v.toString(), "class " + v + " is listed twice", "each class 0-7 at most once");
            }
        }
        return out;
    }

    // ----- devices -----------------------------------------------------------------------------

    private void readDevices(JsonObjectReader top, Fabric f) {
        List<JsonNode> devices = top.array("devices", true, "an array of devices");
        if (devices == null) {
            return;
        }
        if (devices.size() > MAX_DEVICES) {
            problems.add(top.path("devices"), devices.size() + " devices", "too many devices",
                    "at most " + MAX_DEVICES);
            return;
        }
        Map<String, String> firstPathOfId = new HashMap<>();
        for (int i = 0; i < devices.size(); i++) {
            readDevice(devices.get(i), JsonPaths.index(top.path("devices"), i), f, firstPathOfId);
        }
    }

    private void readDevice(JsonNode node, String path, Fabric f, Map<String, String> firstPathOfId) {
        JsonObjectReader r = new JsonObjectReader(node, path, problems, DEVICE_FIELDS);
        if (!r.isObject()) {
            return;
        }
        String id = r.string("id", true, null, ID_RULE);
        String roleName = r.string("role", true, null, DeviceRole.allowedNames());
        DeviceRole role = null;
        if (roleName != null) {
            role = DeviceRole.fromJsonName(roleName).orElse(null);
            if (role == null || !roleName.equals(role.jsonName())) {
                problems.notAllowed(r.path("role"), quote(roleName), DeviceRole.allowedNames());
                role = null;
            }
        }
        // Without a valid role the checks that depend on it (GPUs, NICs) are skipped, not guessed.
        boolean roleKnown = role != null;
        if (role == null) {
            role = DeviceRole.SERVER;
        }
        boolean idOk = id != null;
        if (id != null && !validId(id)) {
            problems.add(r.path("id"), quote(id), "bad device id", ID_RULE);
            idOk = false;
        }
        if (idOk && firstPathOfId.containsKey(id)) {
            problems.add(r.path("id"), quote(id), "duplicate device id \"" + id + "\" (first used at "
                    + firstPathOfId.get(id) + ")", "an id used by no other device");
            idOk = false;
        }
        // A device with a bad id is still checked, under a private stand-in id, so its other problems show too.
        Device d = new Device(idOk ? id : "\u0000invalid#" + path, role);
        if (idOk) {
            firstPathOfId.put(id, r.path("id"));
        }
        d.setModel(r.string("model", false, null, "a string"));
        d.setUnit(r.intValue("unit", false, null, 0, MAX_DEVICES));
        d.setRail(r.intValue("rail", false, null, 0, MAX_DEVICES));
        d.setPod(r.intValue("pod", false, null, 0, MAX_DEVICES));
        Integer gpus = r.intValue("gpus", false, null, 0, 1024);
        if (gpus != null && roleKnown && role != DeviceRole.SERVER) {
            problems.add(r.path("gpus"), gpus.toString(), "only servers have GPUs; this device is a " + role,
                    "omit gpus on switches");
        }
        d.setGpus(gpus);
        if (r.has("scaleUp")) {
            ScaleUp scaleUp = readScaleUp(r.get("scaleUp"), r.path("scaleUp"));
            if (roleKnown && role != DeviceRole.SERVER) {
                problems.add(r.path("scaleUp"), JsonObjectReader.text(r.get("scaleUp")), "only servers have a scale-up "
                        + "domain (NVLink / NVSwitch between their GPUs); this device is a " + role,
                        "omit scaleUp on switches");
            } else {
                d.setScaleUp(scaleUp);
            }
        }
        d.setQosProfile(profileRef(r, "qosProfile"));
        readLabels(r, d);
        readPorts(r, d);
        if (idOk) {
            f.addDevice(d);
        }
    }

    /**
     * A server's scale-up domain: {@code {"gpu": "H100"}} takes that generation's cited figures
     * ({@link ScaleUp#known()}); {@code bandwidthGBps}, {@code latencyNs} and {@code technology}
     * given next to it override them; a GPU FabricLab does not know needs both figures.
     * Null after a problem.
     */
    ScaleUp readScaleUp(JsonNode node, String path) {
        JsonObjectReader r = new JsonObjectReader(node, path, problems, SCALE_UP_FIELDS);
        if (!r.isObject()) {
            return null;
        }
        String gpuRule = "a GPU model: " + ScaleUp.knownNames()
                + " (their datasheet figures), or any name with bandwidthGBps and latencyNs";
        String gpu = r.string("gpu", true, null, gpuRule);
        String technology = r.string("technology", false, null, "a non-empty string, e.g. \"NVLink 4 / NVSwitch\"");
        Double bandwidth = r.number("bandwidthGBps", false, null, 0, true, MAX_SCALE_UP_GBPS, false);
        Long latency = r.integer("latencyNs", false, null, 1, MAX_SCALE_UP_LATENCY_NS);
        boolean ok = gpu != null && (bandwidth != null || !r.has("bandwidthGBps"))
                && (latency != null || !r.has("latencyNs"));
        if (gpu != null && !validGpuName(gpu)) {
            problems.add(r.path("gpu"), quote(gpu), "bad GPU model name", "1 to " + MAX_GPU_NAME_CHARS
                    + " characters, no leading or trailing spaces, no control or format characters");
            return null;
        }
        if (technology != null && !validGpuName(technology)) {
            problems.add(r.path("technology"), quote(technology), "bad scale-up technology name", "1 to "
                    + MAX_GPU_NAME_CHARS + " characters, no leading or trailing spaces, no control or format characters");
            ok = false;
        }
        if (gpu == null) {
            return null;
        }
        ScaleUp known = ScaleUp.of(gpu);
        if (known == null && !(r.has("bandwidthGBps") && r.has("latencyNs"))) {
            String missing = !r.has("bandwidthGBps") && !r.has("latencyNs") ? "bandwidthGBps and latencyNs"
                    : !r.has("bandwidthGBps") ? "bandwidthGBps" : "latencyNs";
            problems.add(r.path("gpu"), quote(gpu), "FabricLab knows no figures for GPU \"" + InputProblem.shorten(gpu)
                    + "\"; name a known GPU or give " + missing, ScaleUp.knownNames() + ", or any name with "
                    + "bandwidthGBps and latencyNs");
            return null;
        }
        if (!ok) {
            return null;
        }
        return new ScaleUp(gpu, technology != null ? technology : defaultTechnology(gpu),
                bandwidth != null ? bandwidth : known.bandwidthGBps(),
                latency != null ? latency : known.latencyNs());
    }

    /**
     * A scale-up domain written as one line of JSON (the containerlab label {@code fabriclab-scaleup}),
     * checked as the fabric file's {@code scaleUp} field is; problems are reported under {@code path}.
     */
    static ScaleUp readScaleUpText(String text, String path, Problems problems) {
        JsonNode n;
        try {
            n = JsonInput.jsonMapper().readTree(text);
        } catch (com.fasterxml.jackson.core.JacksonException | RuntimeException e) {
            n = null;
        }
        if (n == null || !n.isObject()) {
            problems.add(path, quote(text), "not a scale-up domain", "one line of JSON: {\"gpu\": \"H100\", "
                    + "\"bandwidthGBps\": 450, \"latencyNs\": 470}");
            return null;
        }
        return new FabricJsonReader(problems).readScaleUp(n, path);
    }

    /** The technology a scale-up domain has when its file does not say: the known generation's, else "custom scale-up". */
    static String defaultTechnology(String gpu) {
        ScaleUp known = ScaleUp.of(gpu);
        return known != null ? known.technology() : CUSTOM_SCALE_UP_TECHNOLOGY;
    }

    /** GPU and technology names: free text, but what a terminal shows must be what the file says. */
    static boolean validGpuName(String s) {
        return !s.isEmpty() && s.length() <= MAX_GPU_NAME_CHARS && s.strip().equals(s)
                && s.codePoints().noneMatch(c -> Character.isISOControl(c)
                        || Character.getType(c) == Character.FORMAT || Character.getType(c) == Character.SURROGATE);
    }

    private void readLabels(JsonObjectReader r, Device d) {
        List<Map.Entry<String, JsonNode>> labels = r.entries("labels", false, "an object: string -> string");
        if (labels == null) {
            return;
        }
        if (labels.size() > MAX_LABELS_PER_DEVICE) {
            problems.add(r.path("labels"), labels.size() + " labels", "too many labels",
                    "at most " + MAX_LABELS_PER_DEVICE);
            return;
        }
        for (Map.Entry<String, JsonNode> e : labels) {
            String p = JsonPaths.field(r.path("labels"), e.getKey());
            if (e.getKey().isEmpty()) {
                problems.add(p, "\"\"", "label name is empty", "a non-empty string");
            } else if (e.getKey().equals("clab-") || e.getKey().equals("clab-labels")) {
                problems.add(p, quote(e.getKey()), "a clab- label names a containerlab node field; this one has none",
                        "clab-<field> with a field other than labels, e.g. clab-kind, clab-image, clab-startup-config");
            } else if (e.getKey().startsWith(RESERVED_LABEL_PREFIX)) {
                problems.add(p, quote(e.getKey()), "label names starting with \"" + RESERVED_LABEL_PREFIX
                        + "\" are reserved (they carry device fields through containerlab)", "any other name");
            } else if (!e.getValue().isTextual()) {
                problems.add(p, JsonObjectReader.text(e.getValue()), "label value must be a string, not "
                        + JsonObjectReader.kind(e.getValue()), "a string");
            } else {
                d.labels().put(e.getKey(), e.getValue().textValue());
            }
        }
    }

    private void readPorts(JsonObjectReader r, Device d) {
        List<JsonNode> ports = r.array("ports", false, "an array of { name, speedGbps, nic, qosProfile }");
        if (ports == null) {
            return;
        }
        if (ports.size() > MAX_PORTS_PER_DEVICE) {
            problems.add(r.path("ports"), ports.size() + " ports", "too many ports on one device",
                    "at most " + MAX_PORTS_PER_DEVICE);
            return;
        }
        for (int i = 0; i < ports.size(); i++) {
            String path = JsonPaths.index(r.path("ports"), i);
            JsonObjectReader pr = new JsonObjectReader(ports.get(i), path, problems, PORT_FIELDS);
            if (!pr.isObject()) {
                continue;
            }
            String name = pr.string("name", true, null, ID_RULE);
            int speed = speed(pr, "speedGbps", true, 0);
            Integer nic = pr.intValue("nic", false, null, 0, 1023);
            String qos = profileRef(pr, "qosProfile");
            if (name == null) {
                continue;
            }
            if (!validId(name)) {
                problems.add(pr.path("name"), quote(name), "bad port name", ID_RULE);
                continue;
            }
            if (d.port(name) != null) {
                problems.add(pr.path("name"), quote(name), "device " + printable(d) + " already has a port named \""
                        + name + "\"", "a port name unique within the device");
                continue;
            }
            if (nic != null && d.role() != DeviceRole.SERVER) {
                problems.add(pr.path("nic"), nic.toString(), "only server ports belong to a NIC", "omit nic on switch ports");
            }
            Port p = d.addPort(name, speed, nic);
            p.setQosProfile(qos);
        }
    }

    /** A link or port speed in whole Gb/s from the allowed set; 0 (stand-in) after a problem. */
    private int speed(JsonObjectReader r, String field, boolean required, int fallback) {
        JsonNode n = required ? r.require(field, ALLOWED_SPEEDS) : r.get(field);
        if (n == null || n.isNull()) {
            return fallback;
        }
        if (!n.isIntegralNumber() || !n.canConvertToInt() || !Units.isAllowedSpeed(n.intValue())) {
            String what = !n.isNumber() ? " (" + JsonObjectReader.kind(n) + "; write the number of Gb/s)"
                    : !n.isIntegralNumber() ? " (speeds are whole Gb/s)" : "";
            problems.add(r.path(field), JsonObjectReader.text(n), InputProblem.shorten(JsonObjectReader.text(n))
                    + " is not allowed" + what, ALLOWED_SPEEDS);
            return fallback;
        }
        return n.intValue();
    }

    private String profileRef(JsonObjectReader r, String field) {
        String name = r.string(field, false, null, "the name of a profile in qosProfiles");
        if (name != null && !profileNames.contains(name)) {
            unknownProfile(r.path(field), name);
            return null;
        }
        return name;
    }

    private void unknownProfile(String path, String name) {
        problems.add(path, quote(name), "no QoS profile named \"" + InputProblem.shorten(name) + "\"",
                profileNames.isEmpty() ? "define it under qosProfiles first" : String.join(", ", new java.util.TreeSet<>(profileNames)));
    }

    // ----- links -------------------------------------------------------------------------------

    private void readLinks(JsonObjectReader top, Fabric f) {
        List<JsonNode> links = top.array("links", false, "an array of links");
        if (links == null) {
            return;
        }
        if (links.size() > MAX_LINKS) {
            problems.add(top.path("links"), links.size() + " links", "too many links", "at most " + MAX_LINKS);
            return;
        }
        Map<Port, String> usedAt = new IdentityHashMap<>();
        Map<String, String> idAt = new HashMap<>();
        for (int i = 0; i < links.size(); i++) {
            readLink(links.get(i), JsonPaths.index(top.path("links"), i), f, usedAt, idAt);
        }
    }

    private void readLink(JsonNode node, String path, Fabric f, Map<Port, String> usedAt, Map<String, String> idAt) {
        JsonObjectReader r = new JsonObjectReader(node, path, problems, LINK_FIELDS);
        if (!r.isObject()) {
            return;
        }
        String id = r.string("id", false, null, ID_RULE);
        Port a = portRef(r, "a", f);
        Port b = portRef(r, "b", f);
        int speed = speed(r, "speedGbps", false, -1);
        double length = r.number("cableLengthM", true, 1.0, 0, false, MAX_CABLE_M, false);
        CableType type = null;
        String typeName = r.string("cableType", false, null, CableType.allowedNames());
        if (typeName != null) {
            type = CableType.fromJsonName(typeName).filter(t -> t.jsonName().equals(typeName)).orElse(null);
            if (type == null) {
                problems.notAllowed(r.path("cableType"), quote(typeName), CableType.allowedNames());
            }
        }
        if (type == null) {
            type = CableType.forLength(length);
        }
        LinkState state = LinkState.UP;
        String stateName = r.string("state", false, null, "up, down");
        if (stateName != null) {
            state = "up".equals(stateName) ? LinkState.UP : "down".equals(stateName) ? LinkState.DOWN : null;
            if (state == null) {
                problems.notAllowed(r.path("state"), quote(stateName), "up, down");
                state = LinkState.UP;
            }
        }
        if (a == null || b == null) {
            return;
        }
        boolean ok = true;
        if (a.device() == b.device()) {
            problems.add(path, quote(a.ref()) + " -- " + quote(b.ref()), "self-loop: both ends are on device "
                    + printable(a.device()), "two ports on different devices");
            ok = false;
        }
        for (Map.Entry<String, Port> end : List.of(Map.entry("a", a), Map.entry("b", b))) {
            String first = usedAt.get(end.getValue());
            if (first != null) {
                problems.add(r.path(end.getKey()), quote(end.getValue().ref()), "port " + end.getValue().ref()
                        + " is already used by the link at " + first, "a port that carries no other link");
                ok = false;
            }
        }
        if (a == b) {
            ok = false;
        }
        if (speed == -1) {
            speed = Math.min(a.speedGbps(), b.speedGbps());
        } else if (speed > 0) {
            for (Map.Entry<String, Port> end : List.of(Map.entry("a", a), Map.entry("b", b))) {
                Port p = end.getValue();
                if (p.speedGbps() > 0 && speed > p.speedGbps()) {
                    problems.add(r.path("speedGbps"), Integer.toString(speed), "link speed " + speed
                            + "G exceeds the speed of port " + p.ref() + " (" + p.speedGbps() + "G)",
                            "at most " + Math.min(a.speedGbps(), b.speedGbps()) + "G");
                    ok = false;
                    break;
                }
            }
        }
        String linkId = id != null ? id : Link.idFor(a, b);
        if (id != null && !validLinkId(id)) {
            problems.add(r.path("id"), quote(id), "bad link id", LINK_ID_RULE);
            ok = false;
        } else if (idAt.containsKey(linkId)) {
            problems.add(id != null ? r.path("id") : path, quote(linkId), "duplicate link id \"" + linkId
                    + "\" (first used at " + idAt.get(linkId) + ")", "an id used by no other link");
            ok = false;
        }
        usedAt.putIfAbsent(a, path);
        usedAt.putIfAbsent(b, path);
        idAt.putIfAbsent(linkId, path);
        if (ok) {
            Link l = new Link(linkId, a, b, speed, length, type);
            l.setState(state);
            f.addLink(l);
        }
    }

    /** Resolves "device:port" to a port of the fabric, reporting unknown devices and ports precisely. */
    private Port portRef(JsonObjectReader r, String field, Fabric f) {
        String ref = r.string(field, true, null, "\"device:port\"");
        if (ref == null) {
            return null;
        }
        int i = ref.lastIndexOf(':');
        if (i <= 0 || i == ref.length() - 1) {
            problems.add(r.path(field), quote(ref), "a link end must be written \"device:port\"",
                    "\"device:port\", e.g. \"leaf1:eth1\"");
            return null;
        }
        String devId = ref.substring(0, i);
        String portName = ref.substring(i + 1);
        Device d = f.device(devId);
        if (d == null) {
            problems.add(r.path(field), quote(ref), "no device \"" + InputProblem.shorten(devId) + "\"",
                    "a device id from devices[]" + someOf(f.devices().stream().map(Device::id).toList()));
            return null;
        }
        Port p = d.port(portName);
        if (p == null) {
            problems.add(r.path(field), quote(ref), "device " + d.id() + " has no port \""
                    + InputProblem.shorten(portName) + "\"", someOf(d.ports().stream().map(Port::name).toList()).replaceFirst("^: ", "").strip());
            return null;
        }
        return p;
    }

    /** ": a, b, c ..." listing up to 10 names, for "allowed" texts. */
    private static String someOf(List<String> names) {
        if (names.isEmpty()) {
            return " (none defined)";
        }
        String shown = String.join(", ", names.subList(0, Math.min(10, names.size())));
        return ": " + shown + (names.size() > 10 ? ", ... (" + names.size() + " in all)" : "");
    }

    // ----- layout ------------------------------------------------------------------------------

    private void readLayout(JsonObjectReader top, Fabric f) {
        if (!top.has("layout")) {
            return;
        }
        JsonObjectReader r = new JsonObjectReader(top.get("layout"), top.path("layout"), problems, LAYOUT_FIELDS);
        if (!r.isObject()) {
            return;
        }
        Layout layout = new Layout();
        List<Map.Entry<String, JsonNode>> positions = r.entries("positions", false,
                "an object: device id -> { x, y }");
        if (positions != null) {
            for (Map.Entry<String, JsonNode> e : positions) {
                String p = JsonPaths.field(r.path("positions"), e.getKey());
                JsonObjectReader pr = new JsonObjectReader(e.getValue(), p, problems, POINT_FIELDS);
                if (!pr.isObject()) {
                    continue;
                }
                Double x = pr.number("x", true, null, -FabricLimits.MAX_COORDINATE, false, FabricLimits.MAX_COORDINATE, false);
                Double y = pr.number("y", true, null, -FabricLimits.MAX_COORDINATE, false, FabricLimits.MAX_COORDINATE, false);
                if (f.device(e.getKey()) == null) {
                    problems.add(p, quote(e.getKey()), "position of an unknown device", "a device id from devices[]");
                } else if (x != null && y != null) {
                    layout.setPosition(e.getKey(), x, y);
                }
            }
        }
        List<JsonNode> folded = r.array("foldedGroups", false, "an array of group names (strings)");
        if (folded != null) {
            for (int i = 0; i < folded.size(); i++) {
                JsonNode g = folded.get(i);
                if (!g.isTextual() || g.textValue().isEmpty()) {
                    problems.add(JsonPaths.index(r.path("foldedGroups"), i), JsonObjectReader.text(g),
                            "a folded group is named by a non-empty string", "a non-empty string");
                } else {
                    layout.foldedGroups().add(g.textValue());
                }
            }
        }
        f.setLayout(layout);
    }

    // ----- helpers -----------------------------------------------------------------------------

    private <E extends Enum<E>> E enumValue(JsonObjectReader r, String field, Class<E> type, E fallback) {
        List<String> names = new ArrayList<>();
        for (E e : type.getEnumConstants()) {
            names.add(FabricJson.enumName(e));
        }
        String allowed = String.join(", ", names);
        String v = r.string(field, false, null, allowed);
        if (v == null) {
            return fallback;
        }
        for (E e : type.getEnumConstants()) {
            if (FabricJson.enumName(e).equals(v)) {
                return e;
            }
        }
        problems.notAllowed(r.path(field), quote(v), allowed);
        return fallback;
    }

    static boolean validId(String id) {
        if (id.isEmpty() || id.length() > MAX_ID_CHARS) {
            return false;
        }
        return id.indexOf(':') < 0 && id.codePoints().noneMatch(FabricJsonReader::badIdCodePoint);
    }

    static boolean validLinkId(String id) {
        if (id.isEmpty() || id.length() > MAX_ID_CHARS * 3) {
            return false;
        }
        return id.codePoints().noneMatch(FabricJsonReader::badIdCodePoint);
    }

    /**
     * Characters an id may not hold: spaces, control characters, and format characters (Unicode
     * category Cf: zero-width U+200B-U+200D, the bidirectional embeddings, overrides and isolates
     * U+202A-U+202E and U+2066-U+2069, U+FEFF), which make two different ids look the same or
     * reorder what a terminal shows (an id ending in U+202E displays its neighbours reversed);
     * and lone surrogates, which are half a character.
     */
    static boolean badIdCodePoint(int c) {
        int type = Character.getType(c);
        return Character.isWhitespace(c) || Character.isISOControl(c) || Character.isSpaceChar(c)
                || type == Character.FORMAT || type == Character.SURROGATE;
    }

    private static String printable(Device d) {
        return d.id().startsWith("\u0000") ? "(with the bad id)" : d.id();
    }

    static String quote(String s) {
        return "\"" + s + "\"";
    }
}
