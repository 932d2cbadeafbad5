package io.fabriclab.io;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Currency;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabriclab.topology.PriceBook;

/**
 * Reads and writes a {@link PriceBook} as JSON (docs/pricebook.md):
 * <pre>
 * { "schemaVersion": 1, "currency": "USD", "description": "...",
 *   "prices": { "switch:64x400G": 45000, "nic:400G": 1800, ... } }
 * </pre>
 * Every problem is reported as a {@link PriceBookException} naming the file, the JSON path, the
 * value and what is allowed.
 */
public final class PriceBookFile {
    public static final int SCHEMA_VERSION = 1;
    /** Where the shipped sample sits on the classpath (resources/pricebook in the source tree). */
    public static final String SAMPLE_RESOURCE = "/fabriclab/pricebook/sample-pricebook.json";

    private static final List<String> FIELDS = List.of("schemaVersion", "currency", "description", "prices");
    /** Writes price books (plain decimals, indented). */
    private static final ObjectMapper MAPPER = JsonInput.writingMapper()
            .enable(SerializationFeature.INDENT_OUTPUT);

    static {
        MAPPER.getFactory().enable(com.fasterxml.jackson.core.JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);
    }
    /** Reads them: the strict reader of every FabricLab file, prices kept as exact decimals. */
    private static final ObjectMapper READER = JsonInput.jsonMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private PriceBookFile() {
    }

    public static PriceBook load(Path file) throws IOException {
        // Read as every FabricLab file is (size limit, UTF-8, byte-order mark); each failure names the file.
        Problems problems = new Problems(file.toString());
        String text = JsonInput.readText(file, problems, JsonInput.MAX_FILE_BYTES, "a price book");
        if (text == null) {
            InputProblem p = problems.list().get(0);
            throw new PriceBookException(file.toString(), p.jsonPath(), p.message(), p.value(), p.allowed());
        }
        return read(text, file.toString());
    }

    /** The illustrative sample shipped with FabricLab. */
    public static PriceBook sample() throws IOException {
        try (InputStream in = PriceBookFile.class.getResourceAsStream(SAMPLE_RESOURCE)) {
            if (in == null) {
                throw new PriceBookException(SAMPLE_RESOURCE, "$", "sample price book missing from the classpath", null,
                        null);
            }
            return read(new String(in.readAllBytes(), StandardCharsets.UTF_8), SAMPLE_RESOURCE);
        }
    }

    /** Parses a price book; {@code source} names it in error messages. */
    public static PriceBook read(String json, String source) throws PriceBookException {
        Problems problems = new Problems(source);
        JsonNode root = JsonInput.parse(READER, json.startsWith("\uFEFF") ? json.substring(1) : json, problems, "JSON");
        if (root == null) {
            InputProblem p = problems.list().get(0);
            throw new PriceBookException(source, p.jsonPath(), p.message(), p.value(),
                    "{\"schemaVersion\": 1, \"currency\": ..., \"prices\": {...}}");
        }
        if (!root.isObject()) {
            throw new PriceBookException(source, "$", "a price book is a JSON object", root.toString(),
                    "{\"schemaVersion\": 1, \"currency\": ..., \"prices\": {...}}");
        }
        for (Iterator<String> it = root.fieldNames(); it.hasNext();) {
            String f = it.next();
            if (!FIELDS.contains(f)) {
                throw new PriceBookException(source, "$." + f, "unknown field", quote(f), String.join(", ", FIELDS));
            }
        }
        JsonNode version = root.get("schemaVersion");
        if (version == null) {
            throw new PriceBookException(source, "$.schemaVersion", "missing", null, Integer.toString(SCHEMA_VERSION));
        }
        if (!version.isInt() || version.intValue() != SCHEMA_VERSION) {
            throw new PriceBookException(source, "$.schemaVersion", "unsupported schema version", version.toString(),
                    Integer.toString(SCHEMA_VERSION));
        }
        JsonNode currency = root.get("currency");
        if (currency == null) {
            throw new PriceBookException(source, "$.currency", "missing", null, "an ISO 4217 code such as USD or EUR");
        }
        if (!currency.isTextual() || !isCurrency(currency.textValue())) {
            throw new PriceBookException(source, "$.currency", "not a currency code", currency.toString(),
                    "an ISO 4217 code such as USD or EUR");
        }
        JsonNode description = root.get("description");
        if (description != null && !description.isTextual() && !description.isNull()) {
            throw new PriceBookException(source, "$.description", "must be text", description.toString(), "a string");
        }
        JsonNode prices = root.get("prices");
        if (prices == null) {
            throw new PriceBookException(source, "$.prices", "missing", null, "an object of price key to unit price");
        }
        if (!prices.isObject()) {
            throw new PriceBookException(source, "$.prices", "must be an object", prices.toString(),
                    "an object of price key to unit price");
        }
        Map<String, BigDecimal> map = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : prices.properties()) {
            String path = "$.prices[" + quote(e.getKey()) + "]";
            if (!PriceBook.isValidKey(e.getKey())) {
                throw new PriceBookException(source, path, "unknown price key", quote(e.getKey()), PriceBook.KEY_FORMS);
            }
            JsonNode v = e.getValue();
            if (!v.isNumber() || v.decimalValue().signum() < 0) {
                throw new PriceBookException(source, path, "a unit price must be a number >= 0", v.toString(),
                        "a number >= 0 in " + currency.textValue());
            }
            map.put(e.getKey(), v.decimalValue());
        }
        return new PriceBook(currency.textValue(), description == null || description.isNull() ? "" : description.textValue(),
                map);
    }

    public static void save(PriceBook book, Path file) throws IOException {
        AtomicFiles.write(file, write(book).getBytes(StandardCharsets.UTF_8));
    }

    public static String write(PriceBook book) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("schemaVersion", SCHEMA_VERSION);
        root.put("currency", book.currency());
        root.put("description", book.description());
        ObjectNode prices = root.putObject("prices");
        book.prices().forEach(prices::put);
        try {
            return MAPPER.writeValueAsString(root) + System.lineSeparator();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("writing a JSON tree cannot fail", e);
        }
    }

    private static boolean isCurrency(String code) {
        if (code == null || !code.matches("[A-Z]{3}")) {
            return false;
        }
        try {
            Currency.getInstance(code);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static String quote(String s) {
        return "\"" + s.replace("\"", "\\\"") + "\"";
    }
}
