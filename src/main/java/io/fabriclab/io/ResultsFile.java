package io.fabriclab.io;

import java.nio.file.Path;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fabriclab.sim.SimResults;

/**
 * Reads a results file written by {@link ResultsJson} back (for reports and comparisons). Fields a
 * newer FabricLab added are ignored and fields an older one lacked read as 0 / empty, so results
 * stay readable across versions of the same schemaVersion; anything else is an {@link InputException}
 * naming the file, the JSON path and what is allowed.
 */
public final class ResultsFile {
    /** The strict reader of every FabricLab file (duplicate keys, trailing data, limits), results-sized. */
    private static final ObjectMapper MAPPER = JsonInput.jsonMapper(JsonInput.MAX_RESULTS_BYTES)
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, false);

    /** A results file as read: where it came from, what produced it, and what the run measured. */
    public record Loaded(Path file, ResultsJson.Metadata metadata, SimResults results) {
    }

    private ResultsFile() {
    }

    public static Loaded read(Path file) throws InputException {
        Problems problems = new Problems(file.toString());
        String text = JsonInput.readText(file, problems, JsonInput.MAX_RESULTS_BYTES, "a results file");
        problems.throwIfAny();
        return parse(text, file);
    }

    public static Loaded parse(String json, Path file) throws InputException {
        Problems problems = new Problems(String.valueOf(file));
        JsonNode root = JsonInput.parse(MAPPER, json.startsWith("\uFEFF") ? json.substring(1) : json, problems, "JSON");
        problems.throwIfAny();
        if (root == null || !root.isObject()) {
            throw InputException.of(String.valueOf(file), "$", null, "not a results object",
                    "an object with \"kind\": \"fabriclab-results\" (written by fabriclab simulate -o)");
        }
        if (!"fabriclab-results".equals(root.path("kind").asText())) {
            throw InputException.of(String.valueOf(file), "$.kind", root.path("kind").toString(), "not a results file",
                    "\"fabriclab-results\" (a file written by fabriclab simulate -o)");
        }
        int version = root.path("schemaVersion").asInt(-1);
        if (version != ResultsJson.SCHEMA_VERSION) {
            throw InputException.of(String.valueOf(file), "$.schemaVersion", root.path("schemaVersion").toString(),
                    "unsupported results schema version", String.valueOf(ResultsJson.SCHEMA_VERSION));
        }
        for (String required : new String[] {"metadata", "run", "summary"}) {
            if (!root.path(required).isObject()) {
                throw InputException.of(String.valueOf(file), "$." + required, null, "missing", "an object");
            }
        }
        try {
            ResultsJson.Metadata meta = MAPPER.treeToValue(root.get("metadata"), ResultsJson.Metadata.class);
            // Lists a file leaves out (an older FabricLab had none) read as empty, never null; a list
            // that is there with another type is wrong, never read as empty.
            com.fasterxml.jackson.databind.node.ObjectNode r = root.deepCopy();
            for (java.lang.reflect.RecordComponent c : SimResults.class.getRecordComponents()) {
                JsonNode v = r.get(c.getName());
                if (c.getType() == java.util.List.class && v == null) {
                    r.putArray(c.getName());
                } else if (c.getType() == java.util.List.class && !v.isArray()) {
                    problems.add("$." + c.getName(), v.isTextual() ? v.asText() : v.toString(),
                            "wrong type: " + kind(v), "an array (a results file written by fabriclab simulate -o)");
                }
            }
            problems.throwIfAny();
            SimResults results = MAPPER.treeToValue(r, SimResults.class);
            return new Loaded(file, meta, results);
        } catch (com.fasterxml.jackson.databind.exc.MismatchedInputException e) {
            // Jackson's own words name Java types; the user gets the JSON path, the value and what fits there.
            String at = path(e);
            JsonNode found = root.at(at.substring(1).replaceAll("\\.", "/").replaceAll("\\[(\\d+)]", "/$1"));
            throw InputException.of(String.valueOf(file), at, found.isMissingNode() ? null : InputProblem.shorten(found.toString()),
                    "wrong type" + (found.isMissingNode() ? "" : ": " + kind(found)), expected(e.getTargetType()));
        } catch (JsonMappingException e) {
            throw InputException.of(String.valueOf(file), path(e), null, e.getOriginalMessage(), null);
        } catch (JsonProcessingException e) {
            throw InputException.of(String.valueOf(file), "$", null, e.getOriginalMessage(), null);
        }
    }

    /** "a string (\"x\")": the kind of a value and the value as it stands in the file, shortened. */
    private static String kind(JsonNode v) {
        String k = v.isTextual() ? "a string" : v.isNumber() ? "a number" : v.isBoolean() ? "a boolean" : v.isNull() ? "null"
                : v.isArray() ? "an array" : "an object";
        return v.isContainerNode() || v.isNull() ? k : k + " (" + InputProblem.shorten(v.toString()) + ")";
    }

    private static String expected(Class<?> type) {
        if (type == null) {
            return null;
        }
        if (java.util.Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "an array";
        }
        if (type.isPrimitive() || Number.class.isAssignableFrom(type)) {
            return type == boolean.class ? "true or false" : "a number";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type == Boolean.class) {
            return "true or false";
        }
        return type.isEnum() ? "one of " + java.util.Arrays.toString(type.getEnumConstants()) : "an object";
    }

    /** The JSON path of a mapping error, e.g. $.flows[3].bytes. */
    private static String path(JsonMappingException e) {
        StringBuilder sb = new StringBuilder("$");
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                sb.append('.').append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                sb.append('[').append(r.getIndex()).append(']');
            }
        }
        return sb.toString();
    }
}
