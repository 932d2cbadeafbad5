package io.fabriclab.sweep;

import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabriclab.io.JsonInput;

/** Canonical JSON (sorted keys, no whitespace), hashes, and number formatting shared by the sweep classes. */
final class SweepJson {
    static final ObjectMapper MAPPER = JsonInput.jsonMapper(64L * 1024 * 1024);
    private static final MathContext SIGNIFICANT = new MathContext(12);

    private SweepJson() {
    }

    /** The node with every object's keys sorted, recursively (a new tree; the input is unchanged). */
    static JsonNode sorted(JsonNode n) {
        if (n.isObject()) {
            TreeMap<String, JsonNode> m = new TreeMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                m.put(e.getKey(), sorted(e.getValue()));
            }
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            m.forEach(o::set);
            return o;
        }
        if (n.isArray()) {
            ArrayNode a = JsonNodeFactory.instance.arrayNode();
            n.forEach(x -> a.add(sorted(x)));
            return a;
        }
        return n;
    }

    /** Canonical text: keys sorted, no whitespace. */
    static String canonical(JsonNode n) {
        try {
            return MAPPER.writeValueAsString(sorted(n));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A JSON literal's text (a value of a RunSpec). */
    static String literal(JsonNode n) {
        try {
            return MAPPER.writeValueAsString(sorted(n));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A generated number as a JSON value: a whole number for a field that holds one (bytes, counts),
     * else rounded to 12 significant digits so that 0.1 + k x step prints as the number a user wrote.
     */
    static JsonNode number(double v, boolean integral) {
        if (integral) {
            return LongNode.valueOf(Math.round(v));
        }
        if (v == 0) {
            return DoubleNode.valueOf(0.0);
        }
        return DoubleNode.valueOf(new BigDecimal(v).round(SIGNIFICANT).doubleValue());
    }

    /** A number for a CSV cell or a label: integers without ".0", NaN as empty. */
    static String cell(double v) {
        if (Double.isNaN(v)) {
            return "";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return new BigDecimal(v).round(SIGNIFICANT).stripTrailingZeros().toPlainString();
    }

    /** The segments of a parameter path ({@code $.a.b[0].c}, {@code a.b.3.c}): names and indices; null when malformed. */
    static List<Object> segments(String path) {
        String p = path.strip();
        if (p.startsWith("$.")) {
            p = p.substring(2);
        } else if (p.startsWith("$[")) {
            p = p.substring(1);
        }
        List<Object> out = new ArrayList<>();
        int i = 0;
        while (i < p.length()) {
            char c = p.charAt(i);
            if (c == '[') {
                int j = p.indexOf(']', i);
                if (j < 0) {
                    return null;
                }
                String num = p.substring(i + 1, j);
                if (!num.matches("\\d{1,9}")) {
                    return null;
                }
                out.add(Integer.parseInt(num));
                i = j + 1;
                if (i < p.length() && p.charAt(i) == '.') {
                    i++;
                    if (i == p.length()) {
                        return null;
                    }
                }
            } else {
                int j = i;
                while (j < p.length() && p.charAt(j) != '.' && p.charAt(j) != '[') {
                    j++;
                }
                if (j == i) {
                    return null;
                }
                out.add(p.substring(i, j));
                i = j;
                if (i < p.length() && p.charAt(i) == '.') {
                    i++;
                    if (i == p.length()) {
                        return null;
                    }
                }
            }
        }
        return out.isEmpty() ? null : out;
    }

    static String kind(JsonNode n) {
        return JsonInput.kind(n); // the readers' own wording
    }
}
