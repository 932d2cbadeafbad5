package io.fabriclab.ui;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabriclab.io.FabricJson;
import io.fabriclab.io.FabricReader;
import io.fabriclab.io.InputException;
import io.fabriclab.io.Scenario;
import io.fabriclab.io.ScenarioJson;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Port;
import io.fabriclab.model.QosProfile;
import io.fabriclab.sweep.RunSpec;
import io.fabriclab.sweep.SweepPlan;

/**
 * What the Sweep window's form says, turned into a sweep file (docs/format-sweep.md) the same
 * reader checks as {@code fabriclab sweep} does, and a finished point turned back into a QoS
 * profile to apply. No JavaFX here: the window binds its fields to this and tests drive it alone.
 */
public final class SweepModel {
    static final ObjectMapper JSON = io.fabriclab.io.JsonInput.strictMapper();

    /**
     * One varied parameter: a JSON path into the scenario ({@code qos.ecn.classes.3.kminBytes}) and
     * either a list of values or a range (from, to, count, linear or log).
     */
    public record Parameter(String name, String path, String values, double from, double to, int count, boolean log) {
        /** How the window lists it: {@code kminBytes (qos.ecn.classes.3.kminBytes): 20000 … 200000, 3 log steps}. */
        @Override
        public String toString() {
            String what = values != null && !values.isBlank() ? values
                    : String.format(Locale.ROOT, "%s … %s, %d %s steps", num(from), num(to), count, log ? "log" : "linear");
            return name + " (" + path + "): " + what;
        }

        private static String num(double v) {
            return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
        }

        ObjectNode toJson() {
            ObjectNode o = JSON.createObjectNode();
            o.put("path", path);
            if (name != null && !name.isBlank()) {
                o.put("name", name);
            }
            if (values != null && !values.isBlank()) {
                ArrayNode a = o.putArray("values");
                for (String v : values.split(",")) {
                    String t = v.trim();
                    try {
                        a.add(JSON.readTree(t));
                    } catch (IOException e) {
                        a.add(t); // a word such as "ecmp": the reader says whether the field takes it
                    }
                }
            } else {
                ObjectNode r = o.putObject("range");
                r.put("from", from);
                r.put("to", to);
                r.put("count", count);
                r.put("scale", log ? "log" : "linear");
            }
            return o;
        }
    }

    /** Paths the form offers (the QoS a designer tunes first); any other scenario path can be typed. */
    public static final List<String> SUGGESTED_PATHS = List.of(
            "qos.ecn.classes.3.kminBytes", "qos.ecn.classes.3.kmaxBytes", "qos.ecn.classes.3.pmax",
            "qos.pfc.xoffBytes", "qos.pfc.xonBytes", "qos.dcqcn.g", "qos.dcqcn.rateAiMbps",
            "qos.dcqcn.rateHaiMbps", "qos.dcqcn.minRateMbps", "qos.dcqcn.cnpIntervalUs", "qos.buffer.alpha",
            "workloads[0].bytesPerSender", "seed");

    private SweepModel() {
    }

    /**
     * The suggested paths a sweep of {@code scenario} can vary: those whose parent exists in it (the
     * sweep sets a value there; a scenario without a {@code qos} block has no QoS path to vary, and
     * offering one only led to a failed sweep, issue 35 item 9).
     */
    public static List<String> validPaths(JsonNode scenario) {
        List<String> out = new java.util.ArrayList<>();
        for (String p : SUGGESTED_PATHS) {
            if (parentExists(scenario, p)) {
                out.add(p);
            }
        }
        return out;
    }

    /** Whether every segment of {@code path} but the last names something in {@code root}. */
    static boolean parentExists(JsonNode root, String path) {
        if (path.equals("seed")) {
            return root != null && root.isObject();
        }
        String[] segs = path.replaceAll("\\[(\\d+)\\]", ".$1").split("\\.");
        JsonNode n = root;
        for (int i = 0; i < segs.length - 1 && n != null; i++) {
            n = n.isArray() ? (segs[i].matches("\\d{1,9}") ? n.get(Integer.parseInt(segs[i])) : null) : n.get(segs[i]);
        }
        return n != null && (n.isObject() || n.isArray());
    }

    /** What a sweep of {@code scenario} cannot vary of the suggestions, and why, for the window's hint; "" when nothing. */
    public static String missingHint(JsonNode scenario) {
        if (scenario != null && scenario.isObject() && !scenario.has("qos")) {
            return "This scenario has no \"qos\" block: its QoS thresholds come from the fabric's profiles, so the"
                    + " ECN, PFC and DCQCN paths are not offered. Add a qos block to the scenario (docs/format-scenario.md)"
                    + " to sweep them.";
        }
        return "";
    }

    /** The name a sweep or tune of a scenario that runs on its own fabric goes by: that fabric's file name, or the scenario's. */
    public static String scenarioFabricName(Path scenarioFile, JsonNode scenario) {
        if (scenario != null && scenario.path("fabric").isTextual()) {
            String f = Path.of(scenario.path("fabric").asText()).getFileName().toString();
            return f.endsWith(".json") ? f.substring(0, f.length() - 5) : f;
        }
        String n = scenarioFile.getFileName().toString();
        return n.endsWith(".json") ? n.substring(0, n.length() - 5) : n;
    }

    /**
     * The sweep file for a form: the scenario file's content with, when {@code fabric} is given, the
     * open fabric inlined in place of the scenario's own (what the live view does); parameters,
     * design, seeds, metrics, a zero-drops constraint if asked, and the objective.
     */
    public static String sweepJson(String name, Path scenarioFile, Fabric fabric, List<Parameter> params, String design,
                                   int randomPoints, long firstSeed, int seeds, List<String> metrics, boolean zeroDrops,
                                   String objective, boolean minimize) throws IOException {
        return sweepJson(name, scenarioFile, fabric, params, design, randomPoints, firstSeed, seeds, metrics, zeroDrops,
                objective, minimize, io.fabriclab.sim.Engine.PACKET);
    }

    /** As above, every run on {@code engine} (the sweep file's {@code engine}). */
    public static String sweepJson(String name, Path scenarioFile, Fabric fabric, List<Parameter> params, String design,
                                   int randomPoints, long firstSeed, int seeds, List<String> metrics, boolean zeroDrops,
                                   String objective, boolean minimize, io.fabriclab.sim.Engine engine) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("schemaVersion", SweepPlan.SCHEMA_VERSION);
        root.put("name", name);
        root.put("engine", engine.jsonName());
        JsonNode scenario = io.fabriclab.io.JsonInput.treeOf(scenarioFile, "a scenario");
        if (!(scenario instanceof ObjectNode so)) {
            throw new IOException(scenarioFile + ": not a scenario (a JSON object)");
        }
        if (fabric != null) {
            onFabric(so, fabric);
        } else if (so.path("fabric").isTextual()) {
            // an inline sweep has no file of its own: make the scenario's fabric path absolute
            Path f = scenarioFile.toAbsolutePath().getParent().resolve(so.path("fabric").asText()).normalize();
            so.put("fabric", f.toString());
        }
        root.set("scenario", so);
        ArrayNode ps = root.putArray("parameters");
        params.forEach(p -> ps.add(p.toJson()));
        if ("grid".equals(design)) {
            root.put("design", design);
        } else {
            ObjectNode d = root.putObject("design");
            d.put("type", design);
            d.put("points", randomPoints);
            d.put("seed", firstSeed);
        }
        ObjectNode s = root.putObject("seeds");
        s.put("first", firstSeed);
        s.put("count", seeds);
        ArrayNode m = root.putArray("metrics");
        metrics.forEach(m::add);
        if (zeroDrops) {
            root.putArray("constraints").addObject().put("metric", "drops").put("max", 0);
        }
        if (objective != null && !objective.isBlank()) {
            root.putArray("objectives").addObject().put("metric", objective).put("goal", minimize ? "min" : "max");
        }
        return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
    }

    /**
     * The scenario run on {@code fabric} instead of its own: the fabric inlined, and the scenario's
     * {@code mtuBytes} dropped (the open fabric runs at its own MTU, as in the live view).
     */
    static ObjectNode onFabric(ObjectNode scenario, Fabric fabric) throws IOException {
        scenario.set("fabric", JSON.readTree(FabricJson.write(fabric)));
        scenario.remove("mtuBytes");
        return scenario;
    }

    /** The plan of a form's sweep file, read by the one strict reader (errors name the JSON path). */
    public static SweepPlan plan(String sweepJson, Path baseDir) throws InputException {
        return SweepPlan.parse(sweepJson, "sweep (Sweep window)", baseDir, false);
    }

    /**
     * The QoS profile a point ran with on the ports of {@code profileName}: the point's resolved
     * scenario (its first seed; the seed changes no QoS) read over {@code fabric}, and the profile
     * in force on a port that the fabric gives {@code profileName}, under that name. The caller
     * applies it as one undoable command.
     */
    public static QosProfile profileOfPoint(SweepPlan plan, int point, Fabric fabric, String profileName) {
        RunSpec spec = plan.run(point, 0);
        Scenario s = ScenarioJson.parse(spec.scenarioJson(), "sweep point " + (point + 1), Path.of("."),
                FabricReader.FILES, fabric);
        for (var d : fabric.devices()) {
            for (Port p : d.ports()) {
                QosProfile own = fabric.qosFor(p);
                if (own != null && own.name().equals(profileName)) {
                    return s.qos().qosFor(p).withName(profileName);
                }
            }
        }
        throw new IllegalArgumentException(String.format(Locale.ROOT,
                "no port of the fabric uses the QoS profile %s", profileName));
    }

    /** Parameter paths that are not QoS: applying a point then leaves them out, and the window says so. */
    public static List<String> nonQosPaths(SweepPlan plan) {
        List<String> out = new ArrayList<>();
        for (String p : plan.parameterPaths()) {
            if (!p.startsWith("qos.") && !p.startsWith("qosProfiles.") && !p.startsWith("profile")) {
                out.add(p);
            }
        }
        return out;
    }
}
