package io.fabriclab.sweep;

import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabriclab.io.JsonInput;

/**
 * What one run of a sweep measured: its place in the sweep, every metric of
 * {@link SweepMetrics#NAMES}, and two wall-clock fields kept apart from the rest.
 * Everything but {@link #wallMillis} and {@link #ranBy} is a function of the {@link RunSpec}
 * alone: the same spec gives the same row on any machine, in any process.
 *
 * @param point      the spec's point index
 * @param seedIndex  the spec's seed index
 * @param seed       the run seed
 * @param hash       the spec's hash (the run's key)
 * @param values     the spec's parameter values (JSON literals)
 * @param status     {@link #OK}, {@link #REFUSED} (the run would not fit: too much telemetry for the
 *                   memory a worker may use, or the scenario reader refused the resolved scenario)
 *                   or {@link #FAILED} (the simulator threw); metrics are empty unless OK
 * @param message    why a run was refused or failed; empty when OK
 * @param metrics    metric name to value, sorted by name; NaN where a metric does not apply
 * @param wallMillis wall-clock time of the run (wall-clock field: differs between identical runs)
 * @param ranBy      which process ran it, {@code pid@host} (wall-clock field: differs between runs)
 */
public record RunRow(int point, int seedIndex, long seed, String hash, List<String> values, String status,
                     String message, SortedMap<String, Double> metrics, long wallMillis, String ranBy)
        implements Serializable {
    private static final long serialVersionUID = 1L;

    public static final String OK = "ok";
    public static final String REFUSED = "refused";
    public static final String FAILED = "failed";

    /** Names of the fields that may differ between two runs of the same spec. */
    public static final List<String> WALL_CLOCK_FIELDS = List.of("wallMillis", "ranBy");

    private static final ObjectMapper JSON = JsonInput.jsonMapper(16L * 1024 * 1024);

    public RunRow {
        values = List.copyOf(values);
        metrics = new TreeMap<>(metrics);
        message = message == null ? "" : message;
    }

    public boolean ok() {
        return OK.equals(status);
    }

    /** The metric's value, NaN when absent. */
    public double metric(String name) {
        Double v = metrics.get(name);
        return v == null ? Double.NaN : v;
    }

    /** The row with the wall-clock fields zeroed (what must be identical between two runs of a spec). */
    public RunRow withoutWallClock() {
        return new RunRow(point, seedIndex, seed, hash, values, status, message, metrics, 0, "");
    }

    /** The run file's content (UTF-8 JSON, fields in a fixed order, NaN written as null). */
    public byte[] toJson() {
        ObjectNode o = JSON.createObjectNode();
        o.put("schemaVersion", 1);
        o.put("hash", hash);
        o.put("point", point);
        o.put("seedIndex", seedIndex);
        o.put("seed", seed);
        ArrayNode vs = o.putArray("values");
        values.forEach(vs::add);
        o.put("status", status);
        o.put("message", message);
        ObjectNode m = o.putObject("metrics");
        metrics.forEach((k, v) -> {
            if (v == null || !Double.isFinite(v)) {
                m.putNull(k);
            } else {
                m.put(k, v);
            }
        });
        ObjectNode w = o.putObject("wallClock");
        w.put("wallMillis", wallMillis);
        w.put("ranBy", ranBy);
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(o).concat("\n").getBytes(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Reads a run file written by {@link #toJson()}, checked as strictly as it was written: a
     * resumed sweep trusts what it reads here, so an edited or foreign file (a negative count, an
     * unknown metric, a status that does not exist) is refused, never summarised.
     *
     * @throws IOException naming the field and what is allowed when the bytes are not a complete,
     *                     valid run file (a resumed sweep then runs it again and says so)
     */
    public static RunRow fromJson(byte[] bytes) throws IOException {
        JsonNode o = JSON.readTree(bytes);
        if (o == null || !o.isObject() || o.path("schemaVersion").asInt() != 1 || !o.path("hash").isTextual()
                || !o.path("metrics").isObject() || !o.path("values").isArray() || !o.path("wallClock").isObject()) {
            throw new IOException("not a sweep run file");
        }
        String status = o.path("status").asText();
        if (!List.of(OK, REFUSED, FAILED).contains(status)) {
            throw new IOException("status: \"" + o.path("status").asText() + "\" is not a run status; allowed: ok, refused, failed");
        }
        for (String f : List.of("point", "seedIndex")) {
            if (!o.path(f).canConvertToInt() || !o.path(f).isIntegralNumber() || o.path(f).asInt() < 0) {
                throw new IOException(f + ": " + o.path(f) + " is not allowed; allowed: a whole number >= 0");
            }
        }
        if (!o.path("seed").isIntegralNumber() || !o.path("seed").canConvertToLong()) {
            throw new IOException("seed: " + o.path("seed") + " is not allowed; allowed: a whole number");
        }
        List<String> values = new ArrayList<>();
        o.get("values").forEach(v -> values.add(v.asText()));
        SortedMap<String, Double> metrics = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = o.get("metrics").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode v = e.getValue();
            if (!SweepMetrics.exists(e.getKey())) {
                throw new IOException("metrics." + e.getKey() + ": not a metric; allowed: " + String.join(", ", SweepMetrics.NAMES));
            }
            // Every metric is a count, a time, a size or a bandwidth: 0 or more; null where it does not apply.
            if (!v.isNull() && !(v.isNumber() && Double.isFinite(v.asDouble()) && v.asDouble() >= 0)) {
                throw new IOException("metrics." + e.getKey() + ": " + v + " is not allowed; allowed: a number >= 0, or null");
            }
            metrics.put(e.getKey(), v.isNumber() ? v.asDouble() : Double.NaN);
        }
        if (OK.equals(status) && !metrics.keySet().containsAll(SweepMetrics.NAMES)) {
            List<String> missing = new ArrayList<>(SweepMetrics.NAMES);
            missing.removeAll(metrics.keySet());
            throw new IOException("metrics: a finished run records every metric; missing: " + String.join(", ", missing));
        }
        return new RunRow(o.path("point").asInt(), o.path("seedIndex").asInt(), o.path("seed").asLong(),
                o.get("hash").asText(), values, status, o.path("message").asText(), metrics,
                o.get("wallClock").path("wallMillis").asLong(), o.get("wallClock").path("ranBy").asText());
    }
}
