package io.fabriclab.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * Reading a text file and parsing it to a Jackson tree under hard limits, turning every failure
 * (missing file, bad UTF-8, syntax error, limit exceeded) into an {@link InputProblem} with line
 * and column instead of an exception a user would see as a stack trace. Every FabricLab JSON
 * reader (fabric, scenario, results, price book, containerlab annotations, saved runs) parses
 * through {@link #jsonMapper}: the same strictness everywhere.
 */
public final class JsonInput {
    /** Files larger than this are refused before they are read, so junk cannot exhaust memory. */
    public static final long MAX_FILE_BYTES = 64L * 1024 * 1024;
    /** Deepest object/array nesting accepted; a fabric file needs 7. */
    static final int MAX_NESTING_DEPTH = 64;
    /** Longest single string (a description, a label); longer ones are junk or an attack. */
    static final int MAX_STRING_CHARS = 1_000_000;
    /** Longest number literal, in digits. */
    static final int MAX_NUMBER_CHARS = 100;
    /**
     * Results files hold every flow's record and time series and grow with the run (a million-flow
     * run writes 760-918 MB, about 900 bytes a flow; the scenario limit of 4,000,000 flows about
     * 3.6 GB), so they get a larger cap than hand-written inputs. They are read as a stream
     * (ResultsFile), so the cap bounds reading time, not memory; the writer keeps to it too.
     */
    static final long MAX_RESULTS_BYTES = 8L * 1024 * 1024 * 1024;

    private JsonInput() {
    }

    static StreamReadConstraints constraints() {
        return constraints(MAX_FILE_BYTES);
    }

    static StreamReadConstraints constraints(long maxDocumentBytes) {
        return StreamReadConstraints.builder()
                .maxNestingDepth(MAX_NESTING_DEPTH)
                .maxStringLength(MAX_STRING_CHARS)
                .maxNumberLength(MAX_NUMBER_CHARS)
                .maxNameLength(MAX_STRING_CHARS)
                .maxDocumentLength(maxDocumentBytes)
                .build();
    }

    /** The JSON reader every FabricLab JSON format uses: strict, limited, duplicate keys refused. */
    static ObjectMapper jsonMapper() {
        return jsonMapper(MAX_FILE_BYTES);
    }

    /**
     * The strict reader with another document-length cap, for files that legitimately grow with a
     * run (saved runs are read as a stream; the cap then bounds what a small gzip file may unpack to).
     */
    public static ObjectMapper jsonMapper(long maxDocumentBytes) {
        JsonMapper m = JsonMapper.builder()
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
                .build();
        m.getFactory().setStreamReadConstraints(constraints(maxDocumentBytes));
        return m;
    }

    /**
     * The strict reader, for a reader outside this package (a sweep, a saved run, a scenario's
     * transport): the same mapper every FabricLab file is read with.
     */
    public static ObjectMapper strictMapper() {
        return jsonMapper();
    }

    /**
     * A mapper for writing FabricLab's own JSON (results, reports, configurations, trees built in
     * code). Never for reading a user's file: that is {@link #strictMapper}, {@link #readTree} or a
     * format reader. Jackson mappers are created here only (ArchitectureTest.oneJsonReader), so a
     * lenient reader cannot come back through a side door.
     */
    public static ObjectMapper writingMapper() {
        return JsonMapper.builder().build();
    }

    /**
     * A user's JSON file as text, read as every FabricLab file is: at most 64 MB, UTF-8 (byte-order
     * mark dropped); {@code what} names the kind of file ("a scenario").
     *
     * @throws InputException naming the file and what is wrong (missing, too large, not UTF-8)
     */
    public static String readText(Path file, String what) throws InputException {
        Problems problems = new Problems(file.toString());
        String text = readText(file, problems, MAX_FILE_BYTES, what);
        problems.throwIfAny();
        return text;
    }

    /** As {@link #readText(Path, String)}, for a caller that reports an IOException (the same message). */
    public static String textOf(Path file, String what) throws IOException {
        try {
            return readText(file, what);
        } catch (InputException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /** As {@link #readTree(Path, String)}, for a caller that reports an IOException (the same message). */
    public static JsonNode treeOf(Path file, String what) throws IOException {
        try {
            return readTree(file, what);
        } catch (InputException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /**
     * A user's JSON file as a tree, by the strict reader ({@link #readText(Path, String)}, then
     * duplicate keys, trailing data and the limits refused, each with line and column).
     */
    public static JsonNode readTree(Path file, String what) throws InputException {
        return parseTree(readText(file, what), file.toString(), what);
    }

    /** JSON text as a tree, by the strict reader; {@code source} names it in messages. */
    public static JsonNode parseTree(String text, String source, String what) throws InputException {
        Problems problems = new Problems(source);
        JsonNode root = parse(jsonMapper(), text.startsWith("\uFEFF") ? text.substring(1) : text, problems, "JSON");
        problems.throwIfAny();
        return root;
    }

    /** The file's text, or null after recording why it cannot be read. */
    static String readText(Path file, Problems problems) {
        return readText(file, problems, MAX_FILE_BYTES, "a fabric");
    }

    /** As {@link #readText(Path, Problems)} with another size cap; {@code what} names the kind of file. */
    static String readText(Path file, Problems problems, long maxBytes, String what) {
        try {
            if (!Files.exists(file)) {
                problems.add("$", null, "file does not exist", null);
                return null;
            }
            if (!Files.isRegularFile(file)) {
                problems.add("$", null, "is not a regular file", null);
                return null;
            }
            long size = Files.size(file);
            if (size > maxBytes) {
                problems.add("$", size + " bytes", String.format(java.util.Locale.ROOT,
                        "file is %.1f MB, too large to be %s", size / 1048576.0, what),
                        "at most " + maxBytes / 1048576 + " MB");
                return null;
            }
            byte[] bytes = Files.readAllBytes(file);
            return decodeUtf8(bytes, problems);
        } catch (NoSuchFileException e) {
            problems.add("$", null, "file does not exist", null);
            return null;
        } catch (IOException | SecurityException e) {
            problems.add("$", null, "cannot read file: " + e.getMessage(), null);
            return null;
        }
    }

    static String decodeUtf8(byte[] bytes, Problems problems) {
        try {
            String text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
            // Some Windows editors start UTF-8 files with a byte-order mark; it is not content.
            return text.startsWith("\uFEFF") ? text.substring(1) : text;
        } catch (CharacterCodingException e) {
            problems.add("$", null, "file is not UTF-8 text", "UTF-8 encoded text");
            return null;
        }
    }

    /**
     * Parses a whole document; null (with a problem) when it is empty, malformed or over a limit.
     */
    static JsonNode parse(ObjectMapper mapper, String text, Problems problems, String formatName) {
        long max = mapper.getFactory().streamReadConstraints().getMaxDocumentLength();
        if (max > 0 && text.length() > max) {
            problems.add("$", null, "document is longer than " + max / 1048576 + " MB",
                    "at most " + max / 1048576 + " MB");
            return null;
        }
        if (text.isBlank()) {
            problems.add("$", null, "file is empty", "a " + formatName + " document");
            return null;
        }
        try {
            JsonNode root = mapper.readTree(text);
            if (root == null || root.isMissingNode()) {
                problems.add("$", null, "file is empty", "a " + formatName + " document");
                return null;
            }
            int before = problems.size();
            checkText(root, "$", problems);
            return problems.size() > before ? null : root;
        } catch (StreamConstraintsException e) {
            problems.add("$", null, "document exceeds a size limit" + at(e.getLocation()) + ": "
                    + firstLine(e.getOriginalMessage()), limitsText());
            return null;
        } catch (JsonProcessingException e) {
            problems.add("$", null, "not valid " + formatName + at(e.getLocation()) + ": "
                    + firstLine(e.getOriginalMessage()), "a " + formatName + " document");
            return null;
        } catch (IOException | RuntimeException e) {
            // Parsers may throw unchecked exceptions on pathological input; it is still the input's fault.
            problems.add("$", null, "not valid " + formatName + ": " + firstLine(String.valueOf(e.getMessage())),
                    "a " + formatName + " document");
            return null;
        }
    }

    /**
     * Refuses lone surrogates in every string and field name of a document: a JSON escape such as
     * {@code "\ud800"} decodes to half a character, which no UTF-8 output (PDF, GraphML, configs)
     * can encode. Valid UTF-8 bytes never produce one; only escapes do.
     */
    static void checkText(JsonNode node, String path, Problems problems) {
        if (node.isTextual()) {
            int at = loneSurrogate(node.textValue());
            if (at >= 0) {
                problems.add(path, InputProblem.shorten(node.textValue()), String.format(java.util.Locale.ROOT,
                        "holds a lone surrogate \\u%04x at character %d (half of a character)",
                        (int) node.textValue().charAt(at), at), "text of whole Unicode characters");
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                checkText(node.get(i), JsonPaths.index(path, i), problems);
            }
        } else if (node.isObject()) {
            for (java.util.Iterator<java.util.Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();) {
                java.util.Map.Entry<String, JsonNode> e = it.next();
                int at = loneSurrogate(e.getKey());
                if (at >= 0) {
                    problems.add(JsonPaths.field(path, e.getKey()), null, String.format(java.util.Locale.ROOT,
                            "field name holds a lone surrogate \\u%04x (half of a character)",
                            (int) e.getKey().charAt(at)), "text of whole Unicode characters");
                }
                checkText(e.getValue(), JsonPaths.field(path, e.getKey()), problems);
            }
        }
    }

    /** Index of the first surrogate that is not half of a pair, or -1. */
    static int loneSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }

    static String limitsText() {
        return "nesting depth <= " + MAX_NESTING_DEPTH + ", strings <= " + MAX_STRING_CHARS
                + " characters, numbers <= " + MAX_NUMBER_CHARS + " digits, file <= "
                + MAX_FILE_BYTES / 1048576 + " MB";
    }

    static String at(JsonLocation loc) {
        if (loc == null || loc.getLineNr() < 1) {
            return "";
        }
        return " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int i = s.indexOf('\n');
        String line = (i < 0 ? s : s.substring(0, i)).strip()
                // Jackson's notes on its own settings mean nothing to a user.
                .replaceAll("Source: REDACTED \\(`[^`]*` disabled\\); ", "")
                .replaceAll(", from `[^`]*`", "");
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }


    /**
     * Where a mapping error is below {@code base}, in the JSON path style of every message
     * ({@code $.frames[3].timePs}).
     */
    public static String path(String base, com.fasterxml.jackson.databind.JsonMappingException e) {
        StringBuilder sb = new StringBuilder(base);
        for (com.fasterxml.jackson.databind.JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                sb.append('.').append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                sb.append('[').append(r.getIndex()).append(']');
            }
        }
        return sb.toString();
    }

    /**
     * What fits where a value of the wrong type was found, in a user's words ("a number", "an
     * array", "true or false"), not Jackson's Java type names; null when nothing useful can be said.
     */
    public static String expected(Class<?> type) {
        if (type == null) {
            return null;
        }
        if (java.util.Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "an array";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type.isPrimitive() || Number.class.isAssignableFrom(type)) {
            return "a number";
        }
        if (type == String.class) {
            return "a string";
        }
        return type.isEnum() ? "one of " + java.util.Arrays.toString(type.getEnumConstants()) : "an object";
    }

    /**
     * What a JSON value is, as error messages name it ("a string", "a number", "an object", ...;
     * "nothing" for an absent value): the one wording of every FabricLab reader.
     */
    public static String kind(JsonNode n) {
        if (n == null || n.isMissingNode()) {
            return "nothing";
        }
        if (n.isTextual()) {
            return "a string";
        }
        if (n.isNumber()) {
            return "a number";
        }
        if (n.isBoolean()) {
            return "a boolean";
        }
        if (n.isArray()) {
            return "an array";
        }
        if (n.isObject()) {
            return "an object";
        }
        if (n.isNull()) {
            return "null";
        }
        return n.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
    }
}
