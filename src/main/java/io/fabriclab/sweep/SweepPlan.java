package io.fabriclab.sweep;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.commons.math3.distribution.LogNormalDistribution;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.distribution.RealDistribution;
import org.apache.commons.math3.distribution.UniformRealDistribution;
import org.apache.commons.math3.random.RandomDataGenerator;
import org.apache.commons.math3.random.RandomGenerator;
import org.apache.commons.math3.random.Well19937c;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabriclab.io.FabricFiles;
import io.fabriclab.io.FabricJson;
import io.fabriclab.io.FabricReader;
import io.fabriclab.io.InputException;
import io.fabriclab.io.InputProblem;
import io.fabriclab.io.JsonInput;
import io.fabriclab.io.ScenarioException;
import io.fabriclab.io.ScenarioJson;
import io.fabriclab.sim.Engine;

/**
 * A sweep file read and checked (docs/format-sweep.md): the base scenario resolved (fabric inlined),
 * the parameters, the design's points, the seeds and the metrics; and every run it asks for as a
 * {@link RunSpec}. Immutable and safe to share between threads.
 *
 * <p>The reader is strict like every FabricLab reader: an unknown field, an unknown JSON path, an
 * empty range or list, a value of the wrong type (or one the scenario reader refuses), a metric or
 * constraint on an unknown metric, or more than {@link #CONFIRM_RUNS} runs without confirmation are
 * each an {@link InputProblem} naming the sweep file, the JSON path in it, and what is allowed; all
 * are collected and thrown together as one {@link InputException}.
 */
public final class SweepPlan {
    public static final int SCHEMA_VERSION = 1;
    /** Runs (points x seeds) a sweep may have without {@code --yes}: past this, a typo in a grid costs days. */
    public static final long CONFIRM_RUNS = 10_000;
    /** Most runs a sweep may have at all (run indices are ints). */
    public static final long MAX_RUNS = Integer.MAX_VALUE;
    /** Largest sweep file, bytes. */
    static final long MAX_FILE_BYTES = 16L * 1024 * 1024;
    /** Design points whose scenarios are read while the plan is read (all of a smaller sweep). */
    static final int CHECKED_POINTS = 64;

    private static final List<String> TOP = List.of("schemaVersion", "name", "description", "scenario", "parameters",
            "design", "seeds", "metrics", "constraints", "objectives", "engine");
    private static final List<String> PARAM = List.of("path", "name", "values", "range", "distribution");
    private static final List<String> RANGE = List.of("from", "to", "count", "scale");
    private static final List<String> DIST = List.of("type", "min", "max", "mean", "sd", "mu", "sigma");
    private static final List<String> DESIGNS = List.of("grid", "random", "latin-hypercube");
    private static final List<String> DIST_TYPES = List.of("uniform", "log-uniform", "normal", "lognormal");

    /** A metric's bound: a run (or a point's mean) is feasible when min <= value <= max. Null bounds are open. */
    public record Constraint(String metric, Double min, Double max) implements java.io.Serializable {
        public boolean holds(double v) {
            return !Double.isNaN(v) && (min == null || v >= min) && (max == null || v <= max);
        }

        @Override
        public String toString() {
            if (min != null && max != null) {
                return SweepJson.cell(min) + " <= " + metric + " <= " + SweepJson.cell(max);
            }
            return min != null ? metric + " >= " + SweepJson.cell(min) : metric + " <= " + SweepJson.cell(max);
        }
    }

    /** An objective for the Pareto front: a metric and whether smaller is better. */
    public record Objective(String metric, boolean minimize) implements java.io.Serializable {
    }

    /** How one parameter takes its values. */
    private static final class Parameter {
        String path;
        String name;
        List<Object> segments;
        boolean integral;
        List<JsonNode> values;        // a list
        double from;
        double to;
        int count;                    // range: 0 when continuous
        boolean log;
        boolean isRange;
        RealDistribution dist;        // distribution
        String distType;

        boolean discrete() {
            return values != null || (isRange && count > 0);
        }

        int size() {
            return values != null ? values.size() : count;
        }

        /** The k-th value of a discrete parameter. */
        JsonNode at(int k) {
            if (values != null) {
                return values.get(k);
            }
            return SweepJson.number(rangeValue(count == 1 ? 0 : (double) k / (count - 1)), integral);
        }

        double rangeValue(double u) {
            return log ? Math.exp(Math.log(from) + u * (Math.log(to) - Math.log(from))) : from + u * (to - from);
        }

        /** The value at quantile u in [0, 1). */
        JsonNode quantile(double u) {
            if (discrete()) {
                return at(Math.min(size() - 1, (int) Math.floor(u * size())));
            }
            if (isRange) {
                return SweepJson.number(rangeValue(u), integral);
            }
            return SweepJson.number(dist.inverseCumulativeProbability(u), integral);
        }
    }

    private final String file;
    private final String name;
    private final String description;
    private final JsonNode base;
    private final String baseName;
    private final List<Parameter> parameters;
    private final String design;
    private final int points;
    private final long designSeed;
    /** random and latin-hypercube: the quantile of every (point, parameter); null for a grid. */
    private final double[][] quantiles;
    private final List<Long> seeds;
    private final List<String> metrics;
    private final List<Constraint> constraints;
    private final List<Objective> objectives;
    private final List<Path> inputFiles;
    /** The engine every run uses: the file's {@code engine} (packet unless it says flow), or a command's --engine. */
    private final Engine engine;

    private SweepPlan(Builder b) {
        this.file = b.file;
        this.name = b.name;
        this.description = b.description;
        this.base = b.base;
        this.baseName = b.baseName;
        this.parameters = List.copyOf(b.parameters);
        this.design = b.design;
        this.points = b.points;
        this.designSeed = b.designSeed;
        this.quantiles = b.quantiles;
        this.seeds = List.copyOf(b.seeds);
        this.metrics = List.copyOf(b.metrics);
        this.constraints = List.copyOf(b.constraints);
        this.objectives = List.copyOf(b.objectives);
        this.inputFiles = List.copyOf(b.inputFiles);
        this.engine = b.engine;
    }

    private SweepPlan(SweepPlan p, Engine engine) {
        this.file = p.file;
        this.name = p.name;
        this.description = p.description;
        this.base = p.base;
        this.baseName = p.baseName;
        this.parameters = p.parameters;
        this.design = p.design;
        this.points = p.points;
        this.designSeed = p.designSeed;
        this.quantiles = p.quantiles;
        this.seeds = p.seeds;
        this.metrics = p.metrics;
        this.constraints = p.constraints;
        this.objectives = p.objectives;
        this.inputFiles = p.inputFiles;
        this.engine = engine;
    }

    /** The engine every run of the plan uses (the sweep file's {@code engine}, packet by default). */
    public Engine engine() {
        return engine;
    }

    /**
     * This plan on {@code e} (a command's {@code --engine} over the file's): every run's key
     * ({@link RunSpec#hash}) names the engine, so a flow run is never reused for a packet run.
     */
    public SweepPlan withEngine(Engine e) {
        return e == null || e == engine ? this : new SweepPlan(this, e);
    }

    /**
     * The files this plan was read from: the sweep file (when read from one), its scenario file and
     * the scenario's fabric file (when named by path), so a command can refuse to write over them.
     */
    public List<Path> inputFiles() {
        return inputFiles;
    }

    /**
     * Reads and checks a sweep file, refusing more than {@link #CONFIRM_RUNS} runs.
     *
     * @throws InputException every problem found, each naming the file, the JSON path and what is allowed
     */
    public static SweepPlan read(Path sweepFile) throws InputException {
        return read(sweepFile, false);
    }

    /**
     * Reads and checks a sweep file.
     *
     * @param confirmLarge true when the user confirmed (CLI {@code --yes}) a sweep of more than
     *                     {@link #CONFIRM_RUNS} runs; never more than {@link #MAX_RUNS}
     * @throws InputException every problem found, each naming the file, the JSON path and what is allowed
     */
    public static SweepPlan read(Path sweepFile, boolean confirmLarge) throws InputException {
        Builder b = new Builder(sweepFile.toString());
        b.inputFiles.add(sweepFile);
        String text = b.readText(sweepFile);
        if (text == null) {
            b.throwIfAny();
        }
        return b.parse(text, sweepFile.toAbsolutePath().getParent(), confirmLarge);
    }

    /**
     * Reads sweep text (for callers that hold it in memory, e.g. the tuner or a distributed driver);
     * a scenario or fabric named by path is resolved against {@code baseDir}.
     */
    public static SweepPlan parse(String text, String sourceName, Path baseDir, boolean confirmLarge) throws InputException {
        return new Builder(sourceName).parse(text, baseDir, confirmLarge);
    }

    /** The sweep file as the user named it. */
    public String file() {
        return file;
    }

    public String name() {
        return name;
    }

    public String description() {
        return description;
    }

    /** The parameter paths as written in the sweep file, in file order. */
    public List<String> parameterPaths() {
        return parameters.stream().map(p -> p.path).toList();
    }

    /** The parameters' short names (the {@code name} field, or the path's last name), for tables and charts. */
    public List<String> parameterNames() {
        return parameters.stream().map(p -> p.name).toList();
    }

    /** {@code grid}, {@code random} or {@code latin-hypercube}. */
    public String design() {
        return design;
    }

    /** Number of design points. */
    public int points() {
        return points;
    }

    /** The run seeds of every point, in order. */
    public List<Long> seeds() {
        return seeds;
    }

    /** The metrics the sweep file asks for, in file order. */
    public List<String> metrics() {
        return metrics;
    }

    /**
     * The metrics the summary reports: {@link #metrics()}, then those only named by a constraint or
     * an objective, without repeats.
     */
    public List<String> summaryMetrics() {
        Set<String> s = new LinkedHashSet<>(metrics);
        constraints.forEach(c -> s.add(c.metric()));
        objectives.forEach(o -> s.add(o.metric()));
        return List.copyOf(s);
    }

    public List<Constraint> constraints() {
        return constraints;
    }

    public List<Objective> objectives() {
        return objectives;
    }

    /** points() x seeds().size(). */
    public int runCount() {
        return (int) ((long) points * seeds.size());
    }

    /** The parameter values of a design point as JSON literals, in {@link #parameterPaths()} order. */
    public List<String> pointValues(int point) {
        return pointNodes(point).stream().map(SweepJson::literal).toList();
    }

    /**
     * Every run, point-major (all seeds of point 0, then of point 1, ...): run {@code i} is point
     * {@code i / seeds().size()}, seed index {@code i % seeds().size()}. The list is computed on
     * demand (a 10^6-run sweep does not hold 10^6 scenarios) and each {@code get} builds the spec
     * again; equal calls give equal specs.
     */
    public List<RunSpec> runs() {
        return new AbstractList<>() {
            @Override
            public RunSpec get(int index) {
                if (index < 0 || index >= runCount()) {
                    throw new IndexOutOfBoundsException(index);
                }
                return run(index / seeds.size(), index % seeds.size());
            }

            @Override
            public int size() {
                return runCount();
            }
        };
    }

    /** The run of one point and seed index. */
    public RunSpec run(int point, int seedIndex) {
        List<JsonNode> vs = pointNodes(point);
        long seed = seeds.get(seedIndex);
        JsonNode scenario = resolve(vs, seed);
        String json = SweepJson.canonical(scenario);
        return new RunSpec(point, seedIndex, seed, vs.stream().map(SweepJson::literal).toList(), json,
                RunSpec.key(json, engine), engine);
    }

    /**
     * A run at values of the caller's choosing (the tuner's candidates): {@code values} are JSON
     * literals in {@link #parameterPaths()} order, checked only for being JSON; {@code point} and
     * {@code seedIndex} label the run.
     *
     * @throws IllegalArgumentException when the count of values is wrong or one is not JSON
     */
    public RunSpec runWith(int point, List<String> values, int seedIndex, long seed) {
        if (values.size() != parameters.size()) {
            throw new IllegalArgumentException(values.size() + " values for " + parameters.size() + " parameters");
        }
        List<JsonNode> vs = new ArrayList<>();
        for (String v : values) {
            try {
                vs.add(SweepJson.MAPPER.readTree(v));
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("not a JSON value: " + v, e);
            }
        }
        String json = SweepJson.canonical(resolve(vs, seed));
        return new RunSpec(point, seedIndex, seed, vs.stream().map(SweepJson::literal).toList(), json,
                RunSpec.key(json, engine), engine);
    }

    /** The base scenario with the fabric inlined, as canonical JSON (no parameter applied). */
    public String baseScenarioJson() {
        return SweepJson.canonical(base);
    }

    /** The scenario name of the base scenario file (or "inline"). */
    public String baseScenarioName() {
        return baseName;
    }

    private List<JsonNode> pointNodes(int point) {
        if (point < 0 || point >= points) {
            throw new IndexOutOfBoundsException(point);
        }
        List<JsonNode> out = new ArrayList<>(parameters.size());
        if (quantiles == null) {
            // Grid, last parameter fastest (like nested loops written in file order).
            int rest = point;
            int[] idx = new int[parameters.size()];
            for (int i = parameters.size() - 1; i >= 0; i--) {
                int n = parameters.get(i).size();
                idx[i] = rest % n;
                rest /= n;
            }
            for (int i = 0; i < parameters.size(); i++) {
                out.add(parameters.get(i).at(idx[i]));
            }
        } else {
            for (int i = 0; i < parameters.size(); i++) {
                out.add(parameters.get(i).quantile(quantiles[point][i]));
            }
        }
        return out;
    }

    private JsonNode resolve(List<JsonNode> values, long seed) {
        ObjectNode s = base.deepCopy();
        for (int i = 0; i < parameters.size(); i++) {
            set(s, parameters.get(i).segments, values.get(i));
        }
        s.set("seed", LongNode.valueOf(seed));
        return s;
    }

    /** Sets the value at a path whose parent exists (checked when the plan was read). */
    private static void set(JsonNode root, List<Object> segs, JsonNode value) {
        JsonNode parent = root;
        for (int i = 0; i < segs.size() - 1; i++) {
            parent = child(parent, segs.get(i));
        }
        Object last = segs.get(segs.size() - 1);
        if (parent instanceof ArrayNode a) {
            a.set(index(last), value.deepCopy());
        } else {
            ((ObjectNode) parent).set(String.valueOf(last), value.deepCopy());
        }
    }

    private static JsonNode child(JsonNode n, Object seg) {
        if (n == null) {
            return null;
        }
        if (n.isArray()) {
            int i = index(seg);
            return i >= 0 && i < n.size() ? n.get(i) : null;
        }
        if (n.isObject()) {
            return n.get(String.valueOf(seg));
        }
        return null;
    }

    private static int index(Object seg) {
        if (seg instanceof Integer i) {
            return i;
        }
        String s = String.valueOf(seg);
        return s.matches("\\d{1,9}") ? Integer.parseInt(s) : -1;
    }

    // ----- reading ---------------------------------------------------------------------------------

    private static final class Builder {
        final String file;
        final List<InputProblem> problems = new ArrayList<>();
        String name;
        String description = "";
        ObjectNode base;
        String baseName = "inline";
        Path scenarioDir;
        final List<Parameter> parameters = new ArrayList<>();
        String design = "grid";
        int points;
        long designSeed = 1;
        double[][] quantiles;
        final List<Long> seeds = new ArrayList<>();
        final List<String> metrics = new ArrayList<>();
        final List<Constraint> constraints = new ArrayList<>();
        final List<Objective> objectives = new ArrayList<>();
        final List<Path> inputFiles = new ArrayList<>();
        Engine engine = Engine.PACKET;

        Builder(String file) {
            this.file = file;
        }

        void problem(String path, JsonNode value, String message, String allowed) {
            problems.add(new InputProblem(file, path, value == null ? null : text(value), message, allowed));
        }

        void throwIfAny() throws InputException {
            if (!problems.isEmpty()) {
                throw new InputException(problems);
            }
        }

        String readText(Path p) {
            try {
                if (!Files.isRegularFile(p)) {
                    problem("$", null, Files.exists(p) ? "is not a regular file" : "file does not exist", null);
                    return null;
                }
                long size = Files.size(p);
                if (size > MAX_FILE_BYTES) {
                    problem("$", null, "file is " + size + " bytes, too large to be a sweep file",
                            "at most " + MAX_FILE_BYTES / 1048576 + " MB");
                    return null;
                }
                return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(p))).toString();
            } catch (CharacterCodingException e) {
                problem("$", null, "file is not UTF-8 text", "UTF-8 encoded text");
                return null;
            } catch (IOException | SecurityException e) {
                problem("$", null, "cannot read file: " + e.getMessage(), null);
                return null;
            }
        }

        SweepPlan parse(String text, Path dir, boolean confirmLarge) throws InputException {
            if (text.startsWith("\uFEFF")) {
                text = text.substring(1);
            }
            JsonNode root;
            try {
                root = SweepJson.MAPPER.readTree(text);
            } catch (JsonProcessingException e) {
                String where = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr() + ", column "
                        + e.getLocation().getColumnNr();
                problem("$", null, "not valid JSON" + where + ": " + firstLine(e.getOriginalMessage()), "a sweep document");
                throw new InputException(problems);
            }
            if (root == null || !root.isObject()) {
                problem("$", root, "must be a JSON object", "a sweep document (docs/format-sweep.md)");
                throw new InputException(problems);
            }
            fields(root, "$", TOP);
            JsonNode sv = root.get("schemaVersion");
            if (sv == null || !sv.isIntegralNumber() || sv.asInt() != SCHEMA_VERSION) {
                problem("$.schemaVersion", sv, "found " + (sv == null ? "nothing" : text(sv)) + ", expected 1", "1");
            }
            name = string(root, "name", "$.name", Path.of(file).getFileName() == null ? file
                    : Path.of(file).getFileName().toString().replaceFirst("\\.json$", ""));
            description = string(root, "description", "$.description", "");
            readEngine(root.get("engine"));
            readScenario(root.get("scenario"), dir);
            readMetrics(root);
            readSeeds(root.get("seeds"));
            if (base != null) {
                readParameters(root.get("parameters"));
            }
            readDesign(root.get("design"), confirmLarge);
            throwIfAny();
            SweepPlan plan = new SweepPlan(this);
            checkPoints(plan);
            throwIfAny();
            return plan;
        }

        /** "engine": "packet" (default) or "flow": the engine of every run. */
        void readEngine(JsonNode n) {
            if (n == null) {
                return;
            }
            if (!n.isTextual()) {
                problem("$.engine", n, "must be a string", "one of " + Engine.names());
                return;
            }
            try {
                engine = Engine.parse(n.asText());
            } catch (IllegalArgumentException e) {
                problem("$.engine", n, "is not an engine", "one of " + Engine.names());
            }
        }

        void readScenario(JsonNode n, Path dir) {
            if (n == null || n.isNull()) {
                problem("$.scenario", n, "missing", "a path to a scenario file (relative to the sweep file) or an inline scenario object");
                return;
            }
            JsonNode sc;
            if (n.isTextual()) {
                Path p;
                try {
                    p = dir == null ? Path.of(n.asText()) : dir.resolve(n.asText());
                } catch (java.nio.file.InvalidPathException e) {
                    problem("$.scenario", n, "is not a path", "a path to a scenario file");
                    return;
                }
                if (!Files.isRegularFile(p)) {
                    problem("$.scenario", n, "no scenario file at " + p, "a path to a scenario file (relative to the sweep file)");
                    return;
                }
                try {
                    // Read as simulate reads it (io.JsonInput): the same limits, and the same message
                    // for a duplicate key or a syntax error, naming the scenario file.
                    sc = JsonInput.readTree(p, "a scenario");
                } catch (InputException e) {
                    problems.addAll(e.problems());
                    return;
                }
                scenarioDir = p.toAbsolutePath().getParent();
                baseName = p.getFileName().toString();
                inputFiles.add(p);
            } else if (n.isObject()) {
                sc = n;
                scenarioDir = dir;
            } else {
                problem("$.scenario", n, "must be a path or an object, not " + SweepJson.kind(n),
                        "a path to a scenario file or an inline scenario object");
                return;
            }
            if (sc == null || !sc.isObject()) {
                problem("$.scenario", n, "the scenario is not a JSON object", "a scenario (docs/format-scenario.md)");
                return;
            }
            ObjectNode s = ((ObjectNode) sc).deepCopy();
            JsonNode fab = s.get("fabric");
            if (fab != null && fab.isTextual()) {
                // Inline the fabric, so the resolved scenario is one self-contained document whose hash
                // changes when the fabric does, and qosProfiles.* paths have something to point into.
                Path fp;
                try {
                    fp = scenarioDir == null ? Path.of(fab.asText()) : scenarioDir.resolve(fab.asText());
                } catch (java.nio.file.InvalidPathException e) {
                    problem("$.scenario", n, "the scenario's fabric is not a path: " + InputProblem.shorten(fab.asText()), null);
                    return;
                }
                inputFiles.add(fp);
                try {
                    s.set("fabric", SweepJson.MAPPER.readTree(FabricJson.write(FabricFiles.load(fp))));
                } catch (InputException e) {
                    for (InputProblem q : e.problems()) {
                        problems.add(q);
                    }
                    return;
                } catch (JsonProcessingException e) {
                    throw new IllegalStateException(e);
                }
            }
            // The base scenario must read as it is, before any parameter is applied.
            String err = scenarioProblem(s);
            if (err != null) {
                problem("$.scenario", n, "the base scenario does not read: " + err, null);
                return;
            }
            base = s;
        }

        /** Why a resolved scenario does not read, or null. */
        String scenarioProblem(JsonNode scenario) {
            try {
                ScenarioJson.parse(SweepJson.MAPPER.writeValueAsString(scenario), "scenario", scenarioDir, FabricReader.FILES, null);
                return null;
            } catch (ScenarioException e) {
                if (!e.problems().isEmpty()) {
                    InputProblem q = e.problems().get(0);
                    return q.jsonPath() + ": " + q.message() + (q.allowed() == null ? "" : " (allowed there: " + q.allowed() + ")")
                            + (e.problems().size() > 1 ? " (and " + (e.problems().size() - 1) + " more)" : "");
                }
                return e.getMessage();
            } catch (JsonProcessingException | RuntimeException e) {
                return String.valueOf(e.getMessage());
            }
        }

        void readMetrics(JsonNode root) {
            JsonNode m = root.get("metrics");
            if (m == null || !m.isArray() || m.isEmpty()) {
                problem("$.metrics", m, m == null ? "missing" : "must be a non-empty array of metric names",
                        "metric names: " + String.join(", ", SweepMetrics.NAMES));
            } else {
                for (int i = 0; i < m.size(); i++) {
                    String mn = metric(m.get(i), "$.metrics[" + i + "]");
                    if (mn != null && metrics.contains(mn)) {
                        problem("$.metrics[" + i + "]", m.get(i), "is listed twice", "each metric once");
                    } else if (mn != null) {
                        metrics.add(mn);
                    }
                }
            }
            JsonNode cs = root.get("constraints");
            if (cs != null && !cs.isNull()) {
                if (!cs.isArray()) {
                    problem("$.constraints", cs, "must be an array", "[{\"metric\": \"drops\", \"max\": 0}, ...]");
                } else {
                    for (int i = 0; i < cs.size(); i++) {
                        String p = "$.constraints[" + i + "]";
                        JsonNode c = cs.get(i);
                        if (!c.isObject()) {
                            problem(p, c, "must be an object", "{\"metric\": NAME, \"min\": X, \"max\": Y} (min or max or both)");
                            continue;
                        }
                        fields(c, p, List.of("metric", "min", "max"));
                        String mn = metric(c.get("metric"), p + ".metric");
                        Double min = optNumber(c.get("min"), p + ".min");
                        Double max = optNumber(c.get("max"), p + ".max");
                        if (min == null && max == null && !c.has("min") && !c.has("max")) {
                            problem(p, c, "names no bound", "\"min\", \"max\" or both");
                        } else if (min != null && max != null && min > max) {
                            problem(p + ".min", c.get("min"), "is above max", "min <= max");
                        } else if (mn != null) {
                            constraints.add(new Constraint(mn, min, max));
                        }
                    }
                }
            }
            JsonNode os = root.get("objectives");
            if (os != null && !os.isNull()) {
                if (!os.isArray()) {
                    problem("$.objectives", os, "must be an array", "[{\"metric\": \"fctP99Us\", \"goal\": \"min\"}, ...]");
                } else {
                    for (int i = 0; i < os.size(); i++) {
                        String p = "$.objectives[" + i + "]";
                        JsonNode o = os.get(i);
                        if (!o.isObject()) {
                            problem(p, o, "must be an object", "{\"metric\": NAME, \"goal\": \"min\" or \"max\"}");
                            continue;
                        }
                        fields(o, p, List.of("metric", "goal"));
                        String mn = metric(o.get("metric"), p + ".metric");
                        JsonNode g = o.get("goal");
                        boolean minimize = true;
                        if (g != null && !(g.isTextual() && (g.asText().equals("min") || g.asText().equals("max")))) {
                            problem(p + ".goal", g, "is not a goal", "\"min\" or \"max\"");
                        } else if (g != null) {
                            minimize = g.asText().equals("min");
                        }
                        if (mn != null) {
                            objectives.add(new Objective(mn, minimize));
                        }
                    }
                }
            }
        }

        String metric(JsonNode n, String path) {
            if (n == null || !n.isTextual() || !SweepMetrics.exists(n.asText())) {
                problem(path, n, n == null ? "missing" : n.isTextual() ? "unknown metric " + text(n) : "must be a metric name",
                        String.join(", ", SweepMetrics.NAMES));
                return null;
            }
            return n.asText();
        }

        void readSeeds(JsonNode n) {
            if (n == null || n.isNull()) {
                JsonNode s = base == null ? null : base.get("seed");
                seeds.add(s != null && s.canConvertToLong() ? s.asLong() : 1L);
                return;
            }
            if (n.isArray()) {
                if (n.isEmpty() || n.size() > 1000) {
                    problem("$.seeds", n, "must list 1 to 1000 seeds", "[1, 2, 3] or {\"first\": 1, \"count\": 3}");
                    return;
                }
                for (int i = 0; i < n.size(); i++) {
                    JsonNode s = n.get(i);
                    if (!s.isIntegralNumber() || !s.canConvertToLong()) {
                        problem("$.seeds[" + i + "]", s, "must be a whole number", "a whole number (a run seed)");
                    } else if (seeds.contains(s.asLong())) {
                        problem("$.seeds[" + i + "]", s, "is listed twice", "each seed once");
                    } else {
                        seeds.add(s.asLong());
                    }
                }
                return;
            }
            if (n.isObject()) {
                fields(n, "$.seeds", List.of("first", "count"));
                JsonNode f = n.get("first");
                JsonNode c = n.get("count");
                long first = 1;
                if (f != null && (!f.isIntegralNumber() || !f.canConvertToLong())) {
                    problem("$.seeds.first", f, "must be a whole number", "a whole number (default 1)");
                } else if (f != null) {
                    first = f.asLong();
                }
                if (c == null || !c.isIntegralNumber() || c.asLong() < 1 || c.asLong() > 1000) {
                    problem("$.seeds.count", c, c == null ? "missing" : "is not allowed", "a whole number from 1 to 1000");
                    return;
                }
                for (long k = 0; k < c.asLong(); k++) {
                    seeds.add(first + k);
                }
                return;
            }
            problem("$.seeds", n, "must be an array or an object", "[1, 2, 3] or {\"first\": 1, \"count\": 3}");
        }

        void readParameters(JsonNode ps) {
            if (ps == null || !ps.isArray() || ps.isEmpty()) {
                problem("$.parameters", ps, ps == null ? "missing" : "must be a non-empty array",
                        "[{\"path\": \"qos.ecn.classes.3.kminBytes\", \"values\": [...]}, ...]");
                return;
            }
            Set<String> seen = new java.util.HashSet<>();
            for (int i = 0; i < ps.size(); i++) {
                String p = "$.parameters[" + i + "]";
                JsonNode pn = ps.get(i);
                if (!pn.isObject()) {
                    problem(p, pn, "must be an object", "{\"path\": ..., and one of \"values\", \"range\", \"distribution\"}");
                    continue;
                }
                fields(pn, p, PARAM);
                Parameter par = parameter(pn, p);
                if (par != null) {
                    String key = par.segments.toString();
                    if (!seen.add(key)) {
                        problem(p + ".path", pn.get("path"), "the same path as an earlier parameter", "each path once");
                    } else {
                        parameters.add(par);
                    }
                }
            }
        }

        Parameter parameter(JsonNode pn, String p) {
            JsonNode pathNode = pn.get("path");
            if (pathNode == null || !pathNode.isTextual()) {
                problem(p + ".path", pathNode, pathNode == null ? "missing" : "must be a string",
                        "a JSON path into the scenario, e.g. \"qos.ecn.classes.3.kminBytes\" or \"workloads[0].bytesPerSender\"");
                return null;
            }
            Parameter par = new Parameter();
            par.path = pathNode.asText();
            List<Object> segs = SweepJson.segments(par.path);
            if (segs == null) {
                problem(p + ".path", pathNode, "is not a JSON path",
                        "names separated by dots, array indices in brackets: \"workloads[0].bytesPerSender\"");
                return null;
            }
            if ("qosProfiles".equals(segs.get(0))) {
                // The fabric's QoS profiles are reached from the scenario's (inlined) fabric.
                segs = new ArrayList<>(segs);
                segs.add(0, "fabric");
            }
            par.segments = List.copyOf(segs);
            JsonNode parent = base;
            StringBuilder at = new StringBuilder("$");
            for (int k = 0; k < segs.size() - 1; k++) {
                JsonNode next = child(parent, segs.get(k));
                if (next == null || !next.isContainerNode()) {
                    problem(p + ".path", pathNode, "unknown JSON path: " + at + " has no " + describe(segs.get(k))
                            + (next != null ? " holding an object or array" : ""), allowedAt(parent, at.toString()));
                    return null;
                }
                at.append(segs.get(k) instanceof Integer ? "[" + segs.get(k) + "]" : "." + segs.get(k));
                parent = next;
            }
            Object last = segs.get(segs.size() - 1);
            JsonNode existing = child(parent, last);
            if (parent.isArray() && existing == null) {
                problem(p + ".path", pathNode, "unknown JSON path: " + at + " has " + parent.size() + " elements",
                        allowedAt(parent, at.toString()));
                return null;
            }
            if (parent.isObject() && last instanceof Integer) {
                last = String.valueOf(last);
            }
            par.integral = existing != null && existing.isIntegralNumber();
            JsonNode nm = pn.get("name");
            if (nm != null && !nm.isTextual()) {
                problem(p + ".name", nm, "must be a string", "a short name for tables and charts");
            }
            par.name = nm != null && nm.isTextual() ? nm.asText() : String.valueOf(last);

            int kinds = (pn.has("values") ? 1 : 0) + (pn.has("range") ? 1 : 0) + (pn.has("distribution") ? 1 : 0);
            if (kinds != 1) {
                problem(p, pn, kinds == 0 ? "gives no values" : "gives values more than one way",
                        "exactly one of \"values\" (a list), \"range\" or \"distribution\"");
                return null;
            }
            int before = problems.size();
            if (pn.has("values")) {
                JsonNode vs = pn.get("values");
                if (!vs.isArray() || vs.isEmpty()) {
                    problem(p + ".values", vs, vs.isArray() ? "is an empty list" : "must be a list", "a non-empty list of values");
                    return null;
                }
                par.values = new ArrayList<>();
                vs.forEach(par.values::add);
                for (int k = 0; k < par.values.size(); k++) {
                    typeCheck(existing, par.values.get(k), p + ".values[" + k + "]", pathNode.asText());
                }
                if (problems.size() > before) {
                    return null;
                }
            } else if (pn.has("range")) {
                JsonNode r = pn.get("range");
                String rp = p + ".range";
                if (!r.isObject()) {
                    problem(rp, r, "must be an object", "{\"from\": A, \"to\": B, \"count\": N, \"scale\": \"linear\" or \"log\"}");
                    return null;
                }
                fields(r, rp, RANGE);
                typeCheck(existing, LongNode.valueOf(0), rp, pathNode.asText());
                Double from = optNumber(r.get("from"), rp + ".from");
                Double to = optNumber(r.get("to"), rp + ".to");
                if (from == null || to == null) {
                    if (!r.has("from") || !r.has("to")) {
                        problem(rp, r, "needs \"from\" and \"to\"", "{\"from\": A, \"to\": B, ...}");
                    }
                    return null;
                }
                JsonNode sc = r.get("scale");
                par.log = false;
                if (sc != null && !(sc.isTextual() && List.of("linear", "log").contains(sc.asText()))) {
                    problem(rp + ".scale", sc, "is not a scale", "\"linear\" (default) or \"log\"");
                } else if (sc != null) {
                    par.log = sc.asText().equals("log");
                }
                JsonNode c = r.get("count");
                if (c != null && (!c.isIntegralNumber() || c.asLong() < 2 || c.asLong() > 1_000_000)) {
                    problem(rp + ".count", c, c.isIntegralNumber() && c.asLong() < 2 ? "gives an empty range (fewer than 2 values)"
                            : "is not allowed", "a whole number from 2 to 1000000 (a single value is a \"values\" list)");
                    return null;
                }
                if (!(from < to)) {
                    problem(rp, r, "is an empty range: from " + SweepJson.cell(from) + " is not below to " + SweepJson.cell(to),
                            "from < to");
                    return null;
                }
                if (par.log && from <= 0) {
                    problem(rp + ".from", r.get("from"), "a log range must start above 0", "from > 0 with \"scale\": \"log\"");
                    return null;
                }
                par.isRange = true;
                par.from = from;
                par.to = to;
                par.count = c == null ? 0 : c.asInt();
                if (par.integral && Math.round(from) == Math.round(to)) {
                    problem(rp, r, "is an empty range: " + pathNode.asText() + " holds whole numbers and the range rounds to one",
                            "from and to at least 1 apart");
                    return null;
                }
            } else {
                JsonNode d = pn.get("distribution");
                String dp = p + ".distribution";
                if (!d.isObject()) {
                    problem(dp, d, "must be an object", "{\"type\": \"uniform\", \"min\": A, \"max\": B} and others (docs/format-sweep.md)");
                    return null;
                }
                fields(d, dp, DIST);
                typeCheck(existing, LongNode.valueOf(0), dp, pathNode.asText());
                JsonNode t = d.get("type");
                if (t == null || !t.isTextual() || !DIST_TYPES.contains(t.asText())) {
                    problem(dp + ".type", t, t == null ? "missing" : "is not a distribution", String.join(", ", DIST_TYPES));
                    return null;
                }
                par.distType = t.asText();
                RandomGenerator none = new Well19937c(0);
                switch (par.distType) {
                    case "uniform", "log-uniform" -> {
                        Double a = need(d, "min", dp);
                        Double b = need(d, "max", dp);
                        if (a == null || b == null) {
                            return null;
                        }
                        if (!(a < b)) {
                            problem(dp, d, "is an empty range: min is not below max", "min < max");
                            return null;
                        }
                        if (par.distType.equals("log-uniform")) {
                            if (a <= 0) {
                                problem(dp + ".min", d.get("min"), "a log-uniform distribution must start above 0", "min > 0");
                                return null;
                            }
                            par.isRange = true;
                            par.log = true;
                            par.from = a;
                            par.to = b;
                        } else {
                            par.dist = new UniformRealDistribution(none, a, b);
                        }
                    }
                    case "normal" -> {
                        Double mean = need(d, "mean", dp);
                        Double sd = need(d, "sd", dp);
                        if (mean == null || sd == null) {
                            return null;
                        }
                        if (!(sd > 0)) {
                            problem(dp + ".sd", d.get("sd"), "must be above 0", "a standard deviation > 0");
                            return null;
                        }
                        par.dist = new NormalDistribution(none, mean, sd);
                    }
                    default -> {
                        Double mu = need(d, "mu", dp);
                        Double sigma = need(d, "sigma", dp);
                        if (mu == null || sigma == null) {
                            return null;
                        }
                        if (!(sigma > 0)) {
                            problem(dp + ".sigma", d.get("sigma"), "must be above 0", "sigma > 0 (of the log of the value)");
                            return null;
                        }
                        par.dist = new LogNormalDistribution(none, mu, sigma);
                    }
                }
            }
            return problems.size() > before ? null : par;
        }

        Double need(JsonNode d, String field, String dp) {
            if (!d.has(field)) {
                problem(dp + "." + field, null, "missing", "a number");
                return null;
            }
            return optNumber(d.get(field), dp + "." + field);
        }

        /** A value of another JSON type than the scenario holds at the path is refused by name. */
        void typeCheck(JsonNode existing, JsonNode value, String at, String path) {
            if (existing == null || existing.isNull()) {
                return;
            }
            boolean same = existing.isNumber() ? value.isNumber()
                    : existing.isTextual() ? value.isTextual()
                    : existing.isBoolean() ? value.isBoolean()
                    : existing.isArray() ? value.isArray()
                    : existing.isObject() == value.isObject();
            if (!same) {
                problem(at, value, "wrong value type: " + SweepJson.kind(value) + " where the scenario has "
                        + SweepJson.kind(existing) + " (" + text(existing) + ") at " + path, SweepJson.kind(existing));
            }
        }

        /**
         * The scenarios of up to {@link #CHECKED_POINTS} points (all of a small sweep, else evenly
         * spaced ones, first and last included) must read: a value the scenario reader refuses, or a
         * combination it refuses (Kmin above Kmax), is named here rather than failing run by run.
         * Points not checked that do not read become refused runs.
         */
        void checkPoints(SweepPlan plan) {
            int n = plan.points();
            int checks = Math.min(n, CHECKED_POINTS);
            int reported = 0;
            long prev = -1;
            for (int k = 0; k < checks && reported < 5; k++) {
                long point = checks == 1 ? 0 : Math.round((double) k * (n - 1) / (checks - 1));
                if (point == prev) {
                    continue;
                }
                prev = point;
                List<JsonNode> vs = plan.pointNodes((int) point);
                String err = scenarioProblem(plan.resolve(vs, plan.seeds.get(0)));
                if (err != null) {
                    reported++;
                    StringBuilder what = new StringBuilder();
                    for (int i = 0; i < vs.size(); i++) {
                        what.append(i == 0 ? "" : ", ").append(plan.parameters.get(i).path).append(" = ").append(text(vs.get(i)));
                    }
                    problems.add(new InputProblem(file, "$.parameters", null, "point " + point + " (" + what
                            + ") gives a scenario that does not read: " + err,
                            "values, alone and together, that the scenario reader accepts (docs/format-scenario.md)"));
                }
            }
        }

        void readDesign(JsonNode d, boolean confirmLarge) {
            JsonNode type = d == null ? null : d.isTextual() ? d : d.get("type");
            if (d != null && d.isObject()) {
                fields(d, "$.design", List.of("type", "points", "seed"));
            }
            if (d != null && !d.isTextual() && !d.isObject()) {
                problem("$.design", d, "must be a string or an object", "\"grid\" or {\"type\": \"random\", \"points\": N, \"seed\": S}");
                return;
            }
            if (type != null) {
                if (!type.isTextual() || !DESIGNS.contains(type.asText())) {
                    problem(d.isTextual() ? "$.design" : "$.design.type", type, "is not a design", String.join(", ", DESIGNS));
                    return;
                }
                design = type.asText();
            }
            if (parameters.isEmpty() || seeds.isEmpty()) {
                return;
            }
            String runsText = " x " + seeds.size() + " seed" + (seeds.size() == 1 ? "" : "s");
            if (design.equals("grid")) {
                if (d != null && d.isObject() && (d.has("points") || d.has("seed"))) {
                    problem("$.design", d, "a grid takes every combination: \"points\" and \"seed\" are for random and latin-hypercube",
                            "{\"type\": \"grid\"}");
                }
                double total = 1;
                for (int i = 0; i < parameters.size(); i++) {
                    Parameter par = parameters.get(i);
                    if (!par.discrete()) {
                        problem("$.parameters[" + i + "]", null, "a grid needs a finite set of values; this parameter is "
                                + (par.isRange ? "a range without \"count\"" : "a distribution"),
                                "\"values\" or a \"range\" with \"count\" (or a random or latin-hypercube design)");
                        return;
                    }
                    total *= par.size();
                }
                checkRuns(total, "the grid has " + String.format(Locale.ROOT, "%.0f", total) + " points" + runsText, confirmLarge);
                points = (int) Math.min(total, Integer.MAX_VALUE);
                return;
            }
            JsonNode pts = d.isObject() ? d.get("points") : null;
            if (pts == null || !pts.isIntegralNumber() || pts.asLong() < 1 || pts.asLong() > MAX_RUNS) {
                problem("$.design.points", pts, pts == null ? "missing" : "is not allowed",
                        "a whole number of points from 1 to " + MAX_RUNS);
                return;
            }
            JsonNode sd = d.get("seed");
            if (sd != null && (!sd.isIntegralNumber() || !sd.canConvertToLong())) {
                problem("$.design.seed", sd, "must be a whole number", "a whole number (default 1): the design's random seed");
                return;
            }
            designSeed = sd == null ? 1 : sd.asLong();
            if (!checkRuns(pts.asLong(), "the design has " + pts.asLong() + " points" + runsText, confirmLarge)) {
                return;
            }
            points = pts.asInt();
            RandomDataGenerator rng = new RandomDataGenerator(new Well19937c(designSeed));
            quantiles = new double[points][parameters.size()];
            if (design.equals("random")) {
                for (int k = 0; k < points; k++) {
                    for (int i = 0; i < parameters.size(); i++) {
                        quantiles[k][i] = rng.getRandomGenerator().nextDouble();
                    }
                }
            } else {
                // Latin hypercube: each parameter's [0, 1) cut into `points` strata, each stratum used
                // once, the strata of the parameters paired by independent random permutations.
                for (int i = 0; i < parameters.size(); i++) {
                    int[] perm = rng.nextPermutation(points, points);
                    for (int k = 0; k < points; k++) {
                        quantiles[k][i] = (perm[k] + rng.getRandomGenerator().nextDouble()) / points;
                    }
                }
            }
        }

        boolean checkRuns(double points, String what, boolean confirmLarge) {
            double runs = points * seeds.size();
            if (runs > MAX_RUNS) {
                problem("$.design", null, what + String.format(Locale.ROOT, " = %.3g runs", runs) + ", more than FabricLab runs",
                        "at most " + MAX_RUNS + " runs");
                return false;
            }
            if (runs > CONFIRM_RUNS && !confirmLarge) {
                problem("$.design", null, what + String.format(Locale.ROOT, " = %.0f runs", runs)
                        + "; more than " + CONFIRM_RUNS + " runs need confirming", "fewer runs, or --yes to run them all");
                return false;
            }
            return true;
        }

        void fields(JsonNode n, String path, List<String> allowed) {
            for (Iterator<String> it = n.fieldNames(); it.hasNext();) {
                String f = it.next();
                if (!allowed.contains(f)) {
                    problem(path + "." + f, null, "unknown field \"" + InputProblem.shorten(f) + "\"", String.join(", ", allowed));
                }
            }
        }

        String string(JsonNode root, String field, String path, String dflt) {
            JsonNode v = root.get(field);
            if (v == null || v.isNull()) {
                return dflt;
            }
            if (!v.isTextual()) {
                problem(path, v, "must be a string", "a string");
                return dflt;
            }
            return v.asText();
        }

        Double optNumber(JsonNode v, String path) {
            if (v == null || v.isNull()) {
                return null;
            }
            if (!v.isNumber() || !Double.isFinite(v.asDouble())) {
                problem(path, v, "wrong value type: " + SweepJson.kind(v) + " where a number belongs", "a finite number");
                return null;
            }
            return v.asDouble();
        }
    }

    private static String describe(Object seg) {
        return seg instanceof Integer i ? "element [" + i + "]" : "field \"" + InputProblem.shorten(String.valueOf(seg)) + "\"";
    }

    private static String allowedAt(JsonNode parent, String at) {
        if (parent == null) {
            return null;
        }
        if (parent.isArray()) {
            return parent.isEmpty() ? "nothing (" + at + " is empty)" : "an index 0 to " + (parent.size() - 1) + " at " + at;
        }
        if (parent.isObject()) {
            List<String> names = new ArrayList<>();
            parent.fieldNames().forEachRemaining(names::add);
            String list = names.stream().limit(40).collect(Collectors.joining(", "));
            return "the fields at " + at + ": " + list + (names.size() > 40 ? ", ..." : "")
                    + (at.equals("$") ? " (and qosProfiles.NAME... for the fabric's QoS profiles)" : "");
        }
        return null;
    }

    private static String text(JsonNode n) {
        if (n == null) {
            return null;
        }
        if (n.isContainerNode()) {
            return n.isArray() ? "[...]" : "{...}";
        }
        return n.toString();
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int i = s.indexOf('\n');
        String line = (i < 0 ? s : s.substring(0, i)).strip();
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }
}
