package io.fabriclab.io;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabriclab.sim.SimResults;

/**
 * Reads a results file written by {@link ResultsJson} back (for reports and comparisons). Fields a
 * newer FabricLab added are ignored and fields an older one lacked read as 0 / empty, so results
 * stay readable across versions of the same schemaVersion; anything else (a list of another type
 * too) is an {@link InputException} naming the file, the JSON path and what is allowed.
 *
 * <p>The file is read as a stream: its per-flow, per-queue... lists go straight into the results'
 * records, with no copy of the text and no JSON tree of them, so a file costs the memory of the
 * results it holds (as in the run that wrote it), not several times its size. The small parts
 * (kind, version, metadata, run, summary) are read as trees and checked first.
 */
public final class ResultsFile {
    /**
     * Largest results file read, and written: {@link ResultsJson#write} refuses to finish a file
     * larger than this, so simulate never writes what report refuses. A run at the scenario limit
     * of {@link ScenarioJson#MAX_FLOWS} flows writes about 900 bytes per flow (3.6 GB).
     */
    public static final long MAX_BYTES = JsonInput.MAX_RESULTS_BYTES;

    /** The strict reader of every FabricLab file (duplicate keys, trailing data, limits), results-sized. */
    private static final ObjectMapper MAPPER = JsonInput.jsonMapper(MAX_BYTES)
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, false);

    /** Reads one field's value in the middle of the document (the trailing-data check is the document's). */
    private static final com.fasterxml.jackson.databind.ObjectReader FIELD = MAPPER.reader()
            .without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private static final Map<String, RecordComponent> COMPONENTS = new HashMap<>();

    static {
        for (RecordComponent c : SimResults.class.getRecordComponents()) {
            COMPONENTS.put(c.getName(), c);
        }
    }

    /** A results file as read: where it came from, what produced it, and what the run measured. */
    public record Loaded(Path file, ResultsJson.Metadata metadata, SimResults results) {
    }

    private ResultsFile() {
    }

    public static Loaded read(Path file) throws InputException {
        Problems problems = new Problems(file.toString());
        try {
            if (!Files.exists(file)) {
                problems.add("$", null, "file does not exist", null);
            } else if (!Files.isRegularFile(file)) {
                problems.add("$", null, "is not a regular file", null);
            } else if (Files.size(file) > MAX_BYTES) {
                long size = Files.size(file);
                problems.add("$", size + " bytes", String.format(java.util.Locale.ROOT,
                        "file is %.1f MB, too large to be a results file", size / 1048576.0), "at most " + MAX_BYTES / 1048576 + " MB");
            }
            problems.throwIfAny();
            try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
                    JsonParser p = MAPPER.createParser(in)) {
                return parse(p, file, problems);
            }
        } catch (NoSuchFileException e) {
            problems.add("$", null, "file does not exist", null);
        } catch (IOException | SecurityException e) {
            problems.add("$", null, "cannot read file: " + e.getMessage(), null);
        }
        problems.throwIfAny();
        throw new IllegalStateException("unreachable");
    }

    public static Loaded parse(String json, Path file) throws InputException {
        Problems problems = new Problems(String.valueOf(file));
        String text = json.startsWith("\uFEFF") ? json.substring(1) : json;
        if (text.isBlank()) {
            throw InputException.of(String.valueOf(file), "$", null, "file is empty", "a results document");
        }
        try (JsonParser p = MAPPER.createParser(text)) {
            return parse(p, file, problems);
        } catch (IOException e) {
            throw InputException.of(String.valueOf(file), "$", null, "cannot read: " + e.getMessage(), null);
        }
    }

    /** Reads the document on {@code p}: the lists streamed into records, the rest as small trees. */
    private static Loaded parse(JsonParser p, Path file, Problems problems) throws InputException, IOException {
        String name = String.valueOf(file);
        ObjectNode small = MAPPER.createObjectNode();
        Map<String, Object> lists = new HashMap<>();
        String at = "$";
        try {
            JsonToken first = p.nextToken();
            if (first == null) {
                throw InputException.of(name, "$", null, "file is empty", "a results document");
            }
            if (first != JsonToken.START_OBJECT) {
                throw notResults(name);
            }
            boolean confirmed = false;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                at = "$." + field;
                JsonToken t = p.nextToken();
                RecordComponent c = COMPONENTS.get(field);
                if (confirmed && c != null && c.getType() == List.class && t == JsonToken.START_ARRAY) {
                    // The long lists: straight into records, never a tree.
                    lists.put(field, FIELD.forType(type(c)).readValue(p));
                } else {
                    small.set(field, FIELD.readTree(p));
                    confirmed = confirmed || isResultsHead(small);
                }
            }
            at = "$";
            if (p.nextToken() != null) {
                problems.add("$", null, "not valid JSON" + JsonInput.at(p.currentLocation())
                        + ": trailing data after the results object", "a results document");
                problems.throwIfAny();
            }
        } catch (StreamConstraintsException e) {
            problems.add("$", null, "document exceeds a size limit" + JsonInput.at(e.getLocation()) + ": "
                    + e.getOriginalMessage(), "at most " + MAX_BYTES / 1048576 + " MB");
            problems.throwIfAny();
        } catch (MismatchedInputException e) {
            throw mismatch(name, at, null, e);
        } catch (JsonProcessingException e) {
            String msg = e.getOriginalMessage();
            int nl = msg == null ? -1 : msg.indexOf('\n');
            problems.add("$", null, "not valid JSON" + JsonInput.at(e.getLocation()) + ": "
                    + (nl < 0 ? msg : msg.substring(0, nl)), "a results document");
            problems.throwIfAny();
        }
        checkText(small, problems);
        problems.throwIfAny();
        if (!"fabriclab-results".equals(small.path("kind").asText())) {
            throw InputException.of(name, "$.kind", small.path("kind").toString(), "not a results file",
                    "\"fabriclab-results\" (a file written by fabriclab simulate -o)");
        }
        int version = small.path("schemaVersion").asInt(-1);
        if (version != ResultsJson.SCHEMA_VERSION) {
            throw InputException.of(name, "$.schemaVersion", small.path("schemaVersion").toString(),
                    "unsupported results schema version", String.valueOf(ResultsJson.SCHEMA_VERSION));
        }
        for (String required : new String[] {"metadata", "run", "summary"}) {
            if (!small.path(required).isObject()) {
                throw InputException.of(name, "$." + required, null, "missing", "an object");
            }
        }
        // A list that is there with another type is wrong, never read as empty.
        for (RecordComponent c : SimResults.class.getRecordComponents()) {
            JsonNode v = small.get(c.getName());
            if (c.getType() == List.class && v != null && !v.isArray()) {
                problems.add("$." + c.getName(), null, "wrong type: " + kind(v),
                        "an array (a results file written by fabriclab simulate -o)");
            }
        }
        problems.throwIfAny();
        ResultsJson.Metadata meta = value(name, small, "metadata", MAPPER.constructType(ResultsJson.Metadata.class));
        Object[] args = new Object[COMPONENTS.size()];
        RecordComponent[] cs = SimResults.class.getRecordComponents();
        Class<?>[] types = new Class<?>[cs.length];
        for (int i = 0; i < cs.length; i++) {
            RecordComponent c = cs[i];
            types[i] = c.getType();
            Object v = lists.containsKey(c.getName()) ? lists.get(c.getName()) : value(name, small, c.getName(), type(c));
            if (v == null && c.getType() == List.class) {
                v = List.of(); // a list an older FabricLab did not write reads as empty, never null
            } else if (v == null && c.getType().isPrimitive()) {
                v = java.lang.reflect.Array.get(java.lang.reflect.Array.newInstance(c.getType(), 1), 0); // 0, 0.0, false
            }
            args[i] = v;
        }
        try {
            Constructor<SimResults> k = SimResults.class.getDeclaredConstructor(types);
            return new Loaded(file, meta, k.newInstance(args));
        } catch (ReflectiveOperationException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw InputException.of(name, "$", null, "the results do not hold together: " + cause.getMessage(), null);
        }
    }

    private static boolean isResultsHead(ObjectNode small) {
        return "fabriclab-results".equals(small.path("kind").asText())
                && small.path("schemaVersion").asInt(-1) == ResultsJson.SCHEMA_VERSION;
    }

    private static JavaType type(RecordComponent c) {
        return MAPPER.getTypeFactory().constructType(c.getGenericType());
    }

    /** A small part of the file as its record, or null when absent. */
    private static <T> T value(String file, ObjectNode small, String field, JavaType type) throws InputException {
        JsonNode n = small.get(field);
        if (n == null || n.isNull()) {
            return null;
        }
        try {
            return MAPPER.treeToValue(n, type);
        } catch (MismatchedInputException e) {
            throw mismatch(file, "$." + field, n, e);
        } catch (JsonMappingException e) {
            throw InputException.of(file, path("$." + field, e), null, e.getOriginalMessage(), null);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw InputException.of(file, "$." + field, null, e.getMessage(), null);
        }
    }

    /** Jackson's own words name Java types; the user gets the JSON path, the value and what fits there. */
    private static InputException mismatch(String file, String base, JsonNode tree, MismatchedInputException e) {
        String at = path(base, e);
        JsonNode found = tree == null ? com.fasterxml.jackson.databind.node.MissingNode.getInstance()
                : tree.at(at.substring(base.length()).replace('.', '/').replaceAll("\\[(\\d+)]", "/$1"));
        return InputException.of(file, at, null, "wrong type" + (found.isMissingNode() ? "" : ": " + kind(found)),
                expected(e.getTargetType()));
    }

    private static InputException notResults(String file) {
        return InputException.of(file, "$", null, "not a results object",
                "an object with \"kind\": \"fabriclab-results\" (written by fabriclab simulate -o)");
    }

    private static void checkText(ObjectNode small, Problems problems) {
        JsonInput.checkText(small, "$", problems);
    }

    /** "a string (\"x\")": the kind of a value and the value as it stands in the file, shortened. */
    private static String kind(JsonNode v) {
        String k = JsonInput.kind(v);
        return v.isContainerNode() || v.isNull() ? k : k + " (" + InputProblem.shorten(v.toString()) + ")";
    }

    private static String path(String base, JsonMappingException e) {
        return JsonInput.path(base, e);
    }

    private static String expected(Class<?> type) {
        return JsonInput.expected(type);
    }
}
