package io.fabriclab.io;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Reads the fields of one JSON object with type and range checks, recording every problem (with
 * its path) in a {@link Problems} and returning a fallback so that reading continues. Unknown
 * fields are errors that name the allowed ones: a misspelt {@code xofBytes} must not be silently
 * ignored in a design review.
 */
final class JsonObjectReader {
    private final JsonNode node;
    private final String path;
    private final Problems problems;
    private final boolean valid;

    /**
     * @param allowedFields field names the object may have, in the order the documentation lists them
     */
    JsonObjectReader(JsonNode node, String path, Problems problems, List<String> allowedFields) {
        this.path = path;
        this.problems = problems;
        this.valid = node != null && node.isObject();
        this.node = node;
        if (node != null && !node.isObject()) {
            problems.add(path, text(node), "must be a JSON object, not " + kind(node), "{ " + String.join(", ", allowedFields) + " }");
        }
        if (valid) {
            Iterator<String> names = node.fieldNames();
            while (names.hasNext()) {
                String n = names.next();
                if (!allowedFields.contains(n)) {
                    problems.add(JsonPaths.field(path, n), null, "unknown field \"" + InputProblem.shorten(n) + "\"",
                            String.join(", ", allowedFields));
                }
            }
        }
    }

    boolean isObject() {
        return valid;
    }

    String path() {
        return path;
    }

    String path(String field) {
        return JsonPaths.field(path, field);
    }

    boolean has(String field) {
        return valid && node.has(field) && !node.get(field).isNull();
    }

    JsonNode get(String field) {
        return valid ? node.get(field) : null;
    }

    /** The raw node, or null (also recording a problem) when a required field is missing. */
    JsonNode require(String field, String allowed) {
        JsonNode n = get(field);
        if (n == null || n.isNull()) {
            if (valid) {
                problems.add(path(field), null, "required field \"" + field + "\" is missing", allowed);
            }
            return null;
        }
        return n;
    }

    String string(String field, boolean required, String fallback, String allowed) {
        JsonNode n = required ? require(field, allowed) : get(field);
        if (n == null || n.isNull()) {
            return fallback;
        }
        if (!n.isTextual()) {
            problems.add(path(field), text(n), "must be a string, not " + kind(n), allowed);
            return fallback;
        }
        return n.textValue();
    }

    Boolean bool(String field, boolean required, Boolean fallback) {
        JsonNode n = required ? require(field, "true, false") : get(field);
        if (n == null || n.isNull()) {
            return fallback;
        }
        if (!n.isBoolean()) {
            problems.add(path(field), text(n), "must be true or false, not " + kind(n), "true, false");
            return fallback;
        }
        return n.booleanValue();
    }

    /** A whole number in [min, max]; fractions, strings, and out-of-range values are problems. */
    Long integer(String field, boolean required, Long fallback, long min, long max) {
        JsonNode n = required ? require(field, range(min, max)) : get(field);
        if (n == null || n.isNull()) {
            return fallback;
        }
        return integerValue(n, () -> path(field), fallback, min, max, problems);
    }

    static Long integerValue(JsonNode n, String p, Long fallback, long min, long max, Problems problems) {
        return integerValue(n, () -> p, fallback, min, max, problems);
    }

    /** The path is built only when there is a problem: most values are fine, and files can hold millions. */
    static Long integerValue(JsonNode n, Supplier<String> p, Long fallback, long min, long max, Problems problems) {
        if (n.isIntegralNumber() && n.canConvertToLong() && n.longValue() >= min && n.longValue() <= max) {
            return n.longValue();
        }
        if (!n.isNumber()) {
            problems.add(p.get(), text(n), "must be a whole number, not " + kind(n), range(min, max));
        } else if (!n.isIntegralNumber()) {
            problems.add(p.get(), text(n), "must be a whole number", range(min, max));
        } else {
            problems.notAllowed(p.get(), text(n), range(min, max));
        }
        return fallback;
    }

    Integer intValue(String field, boolean required, Integer fallback, int min, int max) {
        Long v = integer(field, required, fallback == null ? null : fallback.longValue(), min, max);
        return v == null ? null : (int) (long) v;
    }

    /**
     * A finite number in the given interval (bounds inclusive unless marked exclusive).
     */
    Double number(String field, boolean required, Double fallback, double min, boolean minExclusive,
                  double max, boolean maxExclusive) {
        JsonNode n = get(field);
        if (n != null && n.isNumber()) {
            double v = n.doubleValue();
            if (Double.isFinite(v) && v >= min && v <= max && !(minExclusive && v == min) && !(maxExclusive && v == max)) {
                return v;
            }
        }
        String allowed = interval(min, minExclusive, max, maxExclusive);
        if (required) {
            n = require(field, allowed);
        }
        if (n == null || n.isNull()) {
            return fallback;
        }
        if (!n.isNumber()) {
            problems.add(path(field), text(n), "must be a number, not " + kind(n), allowed);
            return fallback;
        }
        double v = n.doubleValue();
        if (!Double.isFinite(v)) {
            problems.add(path(field), text(n), "must be a finite number", allowed);
            return fallback;
        }
        if (v < min || v > max || (minExclusive && v == min) || (maxExclusive && v == max)) {
            problems.notAllowed(path(field), text(n), allowed);
            return fallback;
        }
        return v;
    }

    /** An array field; null (and a problem) when present but not an array. */
    List<JsonNode> array(String field, boolean required, String allowed) {
        JsonNode n = required ? require(field, allowed) : get(field);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isArray()) {
            problems.add(path(field), text(n), "must be a JSON array, not " + kind(n), allowed);
            return null;
        }
        List<JsonNode> out = new ArrayList<>(n.size());
        n.forEach(out::add);
        return out;
    }

    /** An object field as (name, value) entries in file order; null when absent or not an object. */
    List<Map.Entry<String, JsonNode>> entries(String field, boolean required, String allowed) {
        JsonNode n = required ? require(field, allowed) : get(field);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isObject()) {
            problems.add(path(field), text(n), "must be a JSON object, not " + kind(n), allowed);
            return null;
        }
        List<Map.Entry<String, JsonNode>> out = new ArrayList<>(n.size());
        n.fields().forEachRemaining(out::add);
        return out;
    }

    static String range(long min, long max) {
        if (max == Long.MAX_VALUE) {
            return "a whole number >= " + min;
        }
        return "a whole number from " + min + " to " + max;
    }

    static String interval(double min, boolean minExclusive, double max, boolean maxExclusive) {
        if (max == Double.MAX_VALUE) {
            return "a number " + (minExclusive ? "> " : ">= ") + num(min);
        }
        return "a number in " + (minExclusive ? "(" : "[") + num(min) + ", " + num(max) + (maxExclusive ? ")" : "]");
    }

    private static String num(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }

    /** The node as JSON text, for echoing the offending value. */
    static String text(JsonNode n) {
        if (n == null) {
            return null;
        }
        if (n.isContainerNode()) {
            return n.isArray() ? "[...]" : "{...}";
        }
        return n.toString();
    }

    static String kind(JsonNode n) {
        return JsonInput.kind(n);
    }
}
