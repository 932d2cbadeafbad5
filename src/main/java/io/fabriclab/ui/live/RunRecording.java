package io.fabriclab.ui.live;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

import io.fabriclab.io.AtomicFiles;
import io.fabriclab.io.FabricJson;
import io.fabriclab.io.InputException;
import io.fabriclab.model.Fabric;
import io.fabriclab.sim.FlowValues;
import io.fabriclab.sim.SimSnapshot;

/**
 * The snapshots a live run showed, kept for scrubbing a timeline after the run and saved with
 * the run's results for replay. Memory is bounded: past {@link #maxBytes} the recording thins
 * itself, keeping every second frame (the first and newest always stay), and from then on
 * accepts a frame only once the simulated time has advanced by the doubled spacing, so a long
 * run is covered end to end at a coarser step.
 *
 * <p>File: gzip-compressed JSON {@code {"schemaVersion":2, "kind":"fabriclab-run", "title",
 * "fabric": {fabric JSON}, "results": {results JSON, as simulate -o writes it}, "frames":
 * [SimSnapshot...]}} (extension {@code .fabriclab-run.json.gz}); saved atomically, written as a
 * stream. In a frame, each per-flow field (rates, targets, progress, CNPs) is
 * {@code {"size": flows, "blocks": {"k": [values of flows 256k..256k+255], ...}}}: the blocks that
 * differ from the frame before (from all zeros in the first frame); the others carry over. Version
 * 1 wrote every value of every frame as a plain array, which still reads; at 260,096 flows that
 * was a million numbers a frame, and a recording of 80 frames did not fit a 6 GB heap as a tree.
 */
public final class RunRecording {
    public static final int SCHEMA_VERSION = 2;
    public static final String EXTENSION = ".fabriclab-run.json.gz";
    /** Default memory bound of a recording. */
    public static final long DEFAULT_MAX_BYTES = 96L << 20;
    /**
     * Most bytes a recording may unpack to (gzip): the recording's own memory bound is 96 MB by
     * default, and its JSON text is a few times larger; beyond this a small file is a gzip bomb.
     */
    public static final long MAX_UNPACKED_BYTES = 2L << 30;
    /** The strict reader of every FabricLab file (io.JsonInput: duplicate keys, trailing data, limits). */
    private static final ObjectMapper MAPPER = io.fabriclab.io.JsonInput.jsonMapper(MAX_UNPACKED_BYTES)
            .registerModule(new SimpleModule("flow-values")
            .addSerializer(FlowValues.class, new FlowValuesWriter())
            .addDeserializer(FlowValues.class, new FlowValuesReader()));
    /** Reader attribute: the previous frame's per-flow values by field name, to share blocks with. */
    private static final String PREVIOUS_FRAME = "fabriclab.previousFrameFlowValues";

    private final long maxBytes;
    private final List<SimSnapshot> frames = new ArrayList<>();
    /** Heap bytes each kept frame adds to the one kept before it ({@link #bytesBeyond}). */
    private final List<Long> frameBytes = new ArrayList<>();
    private long bytes;
    private long minSpacingPs;
    private int thinnings;

    public RunRecording(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** Adds a frame (simulated time must not go back); may thin the recording to stay within its bound. */
    public synchronized void add(SimSnapshot s) {
        if (!frames.isEmpty()) {
            SimSnapshot last = frames.get(frames.size() - 1);
            if (s.timePs() < last.timePs() || (s.timePs() == last.timePs() && s.events() == last.events())) {
                return;
            }
            if (minSpacingPs > 0 && frames.size() >= 2
                    && s.timePs() - frames.get(frames.size() - 2).timePs() < minSpacingPs) {
                // Too close to the previous kept frame: the newest replaces the last one.
                frames.remove(frames.size() - 1);
                bytes -= frameBytes.remove(frameBytes.size() - 1);
            }
        }
        long b = bytesBeyond(s, frames.isEmpty() ? null : frames.get(frames.size() - 1));
        frames.add(s);
        frameBytes.add(b);
        bytes += b;
        while (bytes > maxBytes && frames.size() > 2) {
            thin();
        }
    }

    private void thin() {
        List<SimSnapshot> kept = new ArrayList<>();
        for (int i = 0; i < frames.size(); i++) {
            if (i % 2 == 0 || i == frames.size() - 1) {
                kept.add(frames.get(i));
            }
        }
        long span = frames.get(frames.size() - 1).timePs() - frames.get(0).timePs();
        minSpacingPs = Math.max(minSpacingPs * 2, span / Math.max(1, kept.size()));
        frames.clear();
        frameBytes.clear();
        bytes = 0;
        for (SimSnapshot s : kept) {
            long b = bytesBeyond(s, frames.isEmpty() ? null : frames.get(frames.size() - 1));
            frames.add(s);
            frameBytes.add(b);
            bytes += b;
        }
        thinnings++;
    }

    /**
     * Heap bytes a frame adds to a recording whose last kept frame is {@code earlier}: its per-port
     * arrays, and the per-flow blocks it does not share with {@code earlier} (consecutive frames
     * share the blocks of the flows that did not move, so a quarter-million-flow run costs what
     * moved, not 8 MB a frame).
     */
    static long bytesBeyond(SimSnapshot s, SimSnapshot earlier) {
        List<FlowValues> now = flowColumns(s);
        List<FlowValues> before = earlier == null ? null : flowColumns(earlier);
        long b = portBytes(s);
        for (int i = 0; i < now.size(); i++) {
            b += now.get(i).bytesBeyond(before == null ? null : before.get(i));
        }
        return b;
    }

    /** Heap bytes of a frame recorded alone (nothing shared with other frames). */
    static long sizeOf(SimSnapshot s) {
        return bytesBeyond(s, null);
    }

    private static List<FlowValues> flowColumns(SimSnapshot s) {
        return List.of(s.flowRateGbps(), s.flowTargetGbps(), s.flowProgress(), s.flowCnpsTotal());
    }

    /** Heap bytes of a snapshot's per-port arrays (ten of longs and doubles, two of ints, one of booleans). */
    static long portBytes(SimSnapshot s) {
        long n = s.ports().size();
        return 200 + n * (10 * 8 + 2 * 4 + 1 + 8);
    }

    public synchronized List<SimSnapshot> frames() {
        return Collections.unmodifiableList(new ArrayList<>(frames));
    }

    public synchronized int size() {
        return frames.size();
    }

    public synchronized long bytes() {
        return bytes;
    }

    public long maxBytes() {
        return maxBytes;
    }

    /** How often the recording halved itself to stay within its bound. */
    public synchronized int thinnings() {
        return thinnings;
    }

    /** The last frame at or before {@code timePs} (the first frame if none), or null when empty. */
    public synchronized SimSnapshot at(long timePs) {
        SimSnapshot best = frames.isEmpty() ? null : frames.get(0);
        for (SimSnapshot s : frames) {
            if (s.timePs() <= timePs) {
                best = s;
            } else {
                break;
            }
        }
        return best;
    }

    // ----- files ---------------------------------------------------------------------------------

    /** A saved run: its fabric, results JSON and frames. */
    public record Saved(String title, Fabric fabric, JsonNode results, List<SimSnapshot> frames) {
    }

    /** Writes the run (atomically): fabric, results JSON text (from ResultsJson) and the recorded frames. */
    public void save(Path file, String title, Fabric fabric, String resultsJson) throws IOException {
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        try (OutputStream gz = new GZIPOutputStream(buf);
             JsonGenerator g = MAPPER.getFactory().createGenerator(gz)) {
            g.writeStartObject();
            g.writeNumberField("schemaVersion", SCHEMA_VERSION);
            g.writeStringField("kind", "fabriclab-run");
            g.writeStringField("title", title);
            g.writeFieldName("fabric");
            g.writeRawValue(FabricJson.write(fabric));
            g.writeFieldName("results");
            if (resultsJson == null) {
                g.writeNull();
            } else {
                g.writeRawValue(resultsJson);
            }
            g.writeArrayFieldStart("frames");
            // Frame by frame: each per-flow field as the blocks that changed since the frame before,
            // and the flow paths only when they changed (a reroute), else left out.
            ObjectWriter w = MAPPER.writer().withAttribute(PREVIOUS_FRAME, new HashMap<String, FlowValues>())
                    .without(com.fasterxml.jackson.databind.SerializationFeature.FLUSH_AFTER_WRITE_VALUE);
            SimSnapshot before = null;
            for (SimSnapshot s : frames()) {
                g.writeStartObject();
                for (java.lang.reflect.RecordComponent c : SimSnapshot.class.getRecordComponents()) {
                    Object value;
                    try {
                        value = c.getAccessor().invoke(s);
                    } catch (ReflectiveOperationException e) {
                        throw new IllegalStateException(e);
                    }
                    if (before != null && PATHS.contains(c.getName()) && value == pathsOf(before, c.getName())) {
                        continue;
                    }
                    g.writeFieldName(c.getName());
                    w.writeValue(g, value);
                }
                g.writeEndObject();
                before = s;
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        AtomicFiles.write(file, buf.toByteArray());
    }

    /** Per-flow path fields, shared by reference between snapshots until a reroute. */
    private static final List<String> PATHS = List.of("flowPaths", "flowReversePaths");

    private static List<int[]> pathsOf(SimSnapshot s, String field) {
        return field.equals("flowPaths") ? s.flowPaths() : s.flowReversePaths();
    }

    /**
     * Most heap the frames of a loaded run may take, as {@link #bytesBeyond} counts it: a recording
     * keeps itself within its bound ({@link #DEFAULT_MAX_BYTES}) while it records, so a file over
     * four times that was not written by FabricLab (a small gzip file of many numbers is refused
     * here, not when the heap is gone).
     */
    public static final long MAX_LOADED_BYTES = 4 * DEFAULT_MAX_BYTES;
    /** Most values in one per-flow column of a frame: a scenario holds at most 4,000,000 flows. */
    static final int MAX_FLOW_VALUES = 4_000_000;

    /**
     * Reads a saved run as a stream, frame by frame (never a tree of all frames), within
     * {@link #MAX_UNPACKED_BYTES} of text and {@link #MAX_LOADED_BYTES} of frames; every problem
     * (not gzip, cut short, not JSON, a field of the wrong kind, too large) is an IOException whose
     * message names the file, where in it, and what is wrong.
     */
    public static Saved load(Path file) throws IOException {
        return load(file, MAX_LOADED_BYTES);
    }

    /** As {@link #load(Path)} with another bound on the frames' heap (tests). */
    static Saved load(Path file, long maxLoadedBytes) throws IOException {
        try (InputStream in = new GZIPInputStream(new java.io.BufferedInputStream(Files.newInputStream(file), 1 << 16));
             JsonParser p = MAPPER.createParser(in)) {
            return load(file, p, maxLoadedBytes);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IOException(file + ": no such file", e);
        } catch (java.util.zip.ZipException e) {
            throw new IOException(file + ": not a FabricLab run recording (expected gzip-compressed JSON)", e);
        } catch (java.io.EOFException e) {
            throw new IOException(file + ": the file is cut short (gzip data ends early); not a complete run recording", e);
        } catch (com.fasterxml.jackson.core.exc.StreamConstraintsException e) {
            throw new IOException(file + ": unpacks to more than a run recording may hold (at most "
                    + (MAX_UNPACKED_BYTES >> 20) + " MB of JSON): " + firstLine(e.getOriginalMessage()), e);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IOException(file + ": not valid JSON" + at(e.getLocation()) + ": " + firstLine(e.getOriginalMessage()), e);
        } catch (IOException e) {
            String m = String.valueOf(e.getMessage());
            throw m.startsWith(file.toString()) ? e : new IOException(file + ": " + m, e);
        }
    }

    private static Saved load(Path file, JsonParser p, long maxLoadedBytes) throws IOException {
        if (p.nextToken() != JsonToken.START_OBJECT) {
            throw new IOException(file + ": $: not a FabricLab run recording (expected a JSON object)");
        }
        ObjectReader fieldReader = MAPPER.reader().without(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        ObjectNode head = MAPPER.createObjectNode();
        List<SimSnapshot> frames = new ArrayList<>();
        boolean sawFrames = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            if (field.equals("frames")) {
                checkHead(file, head);
                if (t != JsonToken.START_ARRAY) {
                    throw new IOException(file + ": $.frames must be an array of snapshots");
                }
                readFrames(file, p, fieldReader, frames, maxLoadedBytes);
                sawFrames = true;
            } else {
                head.set(field, fieldReader.readTree(p));
            }
        }
        if (p.nextToken() != null) {
            throw new IOException(file + ": not valid JSON" + at(p.currentLocation()) + ": data after the recording");
        }
        checkHead(file, head);
        if (!sawFrames || frames.isEmpty()) {
            throw new IOException(file + ": $.frames is empty; nothing to replay");
        }
        Fabric fabric;
        try {
            fabric = FabricJson.read(MAPPER.writeValueAsString(head.path("fabric")), file + " $.fabric");
        } catch (InputException e) {
            throw new IOException(e.getMessage(), e);
        }
        JsonNode results = head.get("results");
        return new Saved(head.path("title").asText(file.getFileName().toString()), fabric,
                results == null || results.isNull() ? null : results, frames);
    }

    /** The kind and version, checked as soon as the frames start (they come after the head in every file written). */
    private static void checkHead(Path file, ObjectNode head) throws IOException {
        if (!"fabriclab-run".equals(head.path("kind").asText())) {
            throw new IOException(file + ": $.kind must be \"fabriclab-run\"");
        }
        int version = head.path("schemaVersion").asInt(-1);
        if (version < 1 || version > SCHEMA_VERSION) {
            throw new IOException(file + ": $.schemaVersion " + head.path("schemaVersion") + " is not supported (expected 1 to "
                    + SCHEMA_VERSION + ")");
        }
    }

    /** The frames, one at a time, each counted against {@link #MAX_LOADED_BYTES} as it is read. */
    private static void readFrames(Path file, JsonParser p, ObjectReader fieldReader, List<SimSnapshot> frames,
                                   long maxLoadedBytes) throws IOException {
        ObjectReader reader = fieldReader.forType(SimSnapshot.class).withAttribute(PREVIOUS_FRAME, new HashMap<>());
        long loaded = 0;
        for (int i = 0; p.nextToken() != JsonToken.END_ARRAY; i++) {
            if (p.currentToken() == null) {
                throw new IOException(file + ": the file ends inside $.frames");
            }
            SimSnapshot earlier = frames.isEmpty() ? null : frames.get(frames.size() - 1);
            SimSnapshot s;
            try {
                if (p.currentToken() != JsonToken.START_OBJECT) {
                    throw new IOException("a snapshot is an object, not " + p.currentToken().asString());
                }
                s = reader.readValue(p);
                // Paths left out by the writer: unchanged since the frame before.
                // (An absent reverse-path list reads as empty; a run's flows are fixed, so an empty one
                // after a frame that had them is the writer's "unchanged".)
                boolean samePaths = earlier != null && s.flowPaths() == null;
                boolean sameReverse = earlier != null && s.flowReversePaths().isEmpty();
                if (s.flowPaths() == null && !samePaths) {
                    throw new IOException("flowPaths is missing");
                }
                if (samePaths || sameReverse) {
                    s = s.withFlowPaths(samePaths ? earlier.flowPaths() : s.flowPaths(),
                            sameReverse ? earlier.flowReversePaths() : s.flowReversePaths());
                }
            } catch (com.fasterxml.jackson.core.exc.StreamConstraintsException | com.fasterxml.jackson.core.JsonParseException
                     | java.io.EOFException | java.util.zip.ZipException e) {
                throw e; // the whole file's problem: load names it
            } catch (com.fasterxml.jackson.databind.exc.MismatchedInputException e) {
                String expected = io.fabriclab.io.JsonInput.expected(e.getTargetType());
                throw new IOException(file + ": " + io.fabriclab.io.JsonInput.path("$.frames[" + i + "]", e)
                        + ": wrong type" + (expected == null ? "" : "; allowed: " + expected), e);
            } catch (IOException | RuntimeException e) {
                String why = e instanceof com.fasterxml.jackson.databind.JsonMappingException m ? m.getOriginalMessage() : e.getMessage();
                throw new IOException(file + ": $.frames[" + i + "] is not a snapshot: " + firstLine(why), e);
            }
            loaded += bytesBeyond(s, earlier);
            if (loaded > maxLoadedBytes) {
                throw new IOException(String.format(java.util.Locale.ROOT, "%s: $.frames[%d]: the frames so far take %d MB; "
                        + "a run recording keeps at most %d MB, so this is not one FabricLab wrote", file, i, loaded >> 20,
                        maxLoadedBytes >> 20));
            }
            frames.add(s);
        }
    }

    private static String at(com.fasterxml.jackson.core.JsonLocation loc) {
        return loc == null || loc.getLineNr() < 1 ? "" : " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
    }

    /** A parser's message without its notes on Jackson's own settings, one line. */
    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        String line = (nl < 0 ? s : s.substring(0, nl)).strip()
                .replaceAll("Source: REDACTED \\(`[^`]*` disabled\\); ", "").replaceAll(" \\(for `[^`]*`\\)", "")
                .replace("`", "");
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }

    /**
     * Per-flow values: within a saved run (the writer carries {@link #PREVIOUS_FRAME}), the blocks
     * that differ from the previous frame's; elsewhere a plain array. Whole numbers are written
     * without a fraction (CNP counts, zeros).
     */
    private static final class FlowValuesWriter extends StdSerializer<FlowValues> {
        FlowValuesWriter() {
            super(FlowValues.class);
        }

        @Override
        public void serialize(FlowValues v, JsonGenerator gen, SerializerProvider provider) throws IOException {
            @SuppressWarnings("unchecked")
            Map<String, FlowValues> previous = (Map<String, FlowValues>) provider.getAttribute(PREVIOUS_FRAME);
            String field = gen.getOutputContext().getCurrentName();
            if (previous == null || field == null) {
                gen.writeStartArray(v, v.size());
                writeValues(gen, v, 0, v.size());
                gen.writeEndArray();
                return;
            }
            FlowValues before = previous.get(field);
            gen.writeStartObject();
            gen.writeNumberField("size", v.size());
            gen.writeObjectFieldStart("blocks");
            for (int b = 0; b < v.blockCount(); b++) {
                if (!v.sameBlock(before != null && before.size() == v.size() ? before : null, b)) {
                    gen.writeArrayFieldStart(Integer.toString(b));
                    writeValues(gen, v, b * FlowValues.BLOCK, Math.min(v.size(), (b + 1) * FlowValues.BLOCK));
                    gen.writeEndArray();
                }
            }
            gen.writeEndObject();
            gen.writeEndObject();
            previous.put(field, v);
        }

        private static void writeValues(JsonGenerator gen, FlowValues v, int from, int to) throws IOException {
            for (int i = from; i < to; i++) {
                double x = v.get(i);
                if (x == Math.rint(x) && Math.abs(x) < 1e15) {
                    gen.writeNumber((long) x);
                } else {
                    gen.writeNumber(x);
                }
            }
        }
    }

    /**
     * Reads per-flow values back: a plain array (version 1, or outside a file), or the changed
     * blocks over the previous frame's values (version 2); unchanged blocks are shared with the
     * previous frame, as they were when recorded.
     */
    private static final class FlowValuesReader extends StdDeserializer<FlowValues> {
        FlowValuesReader() {
            super(FlowValues.class);
        }

        @Override
        public FlowValues deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            String field = p.currentName();
            @SuppressWarnings("unchecked")
            Map<String, FlowValues> previous = (Map<String, FlowValues>) ctxt.getAttribute(PREVIOUS_FRAME);
            FlowValues before = previous == null || field == null ? null : previous.get(field);
            FlowValues v;
            if (p.currentToken() == JsonToken.START_OBJECT) {
                JsonNode n = ctxt.readTree(p);
                if (!n.path("size").canConvertToInt() || n.path("size").asInt() < 0 || n.path("size").asInt() > MAX_FLOW_VALUES) {
                    throw JsonMappingException.from(p, field + ".size must be a whole number from 0 to " + MAX_FLOW_VALUES);
                }
                Map<Integer, double[]> blocks = new HashMap<>();
                for (Map.Entry<String, JsonNode> e : n.path("blocks").properties()) {
                    int index;
                    try {
                        index = Integer.parseInt(e.getKey());
                    } catch (NumberFormatException bad) {
                        throw JsonMappingException.from(p, field + ".blocks: \"" + e.getKey()
                                + "\" is not a block number");
                    }
                    if (!e.getValue().isArray() || e.getValue().size() > FlowValues.BLOCK) {
                        throw JsonMappingException.from(p, field + ".blocks." + e.getKey() + " must be an array of at most "
                                + FlowValues.BLOCK + " numbers");
                    }
                    double[] values = new double[e.getValue().size()];
                    for (int i = 0; i < values.length; i++) {
                        if (!e.getValue().get(i).isNumber()) {
                            throw JsonMappingException.from(p, field + ".blocks." + index + "[" + i + "] must be a number");
                        }
                        values[i] = e.getValue().get(i).asDouble();
                    }
                    blocks.put(index, values);
                }
                try {
                    v = FlowValues.patched(before != null && before.size() == n.path("size").asInt() ? before : null,
                            n.path("size").asInt(), blocks);
                } catch (IllegalArgumentException bad) {
                    throw JsonMappingException.from(p, field + ": " + bad.getMessage());
                }
            } else {
                v = FlowValues.of(plainValues(p, field)).sharingWith(before);
            }
            if (previous != null && field != null) {
                previous.put(field, v);
            }
            return v;
        }

        /** A plain array of numbers, at most {@link #MAX_FLOW_VALUES} of them, counted as read (never grown unbounded). */
        private static double[] plainValues(JsonParser p, String field) throws IOException {
            if (p.currentToken() != JsonToken.START_ARRAY) {
                throw JsonMappingException.from(p, field + " must be an array of numbers or a {size, blocks} object");
            }
            double[] out = new double[256];
            int n = 0;
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                if (t == null || !t.isNumeric()) {
                    throw JsonMappingException.from(p, field + "[" + n + "] must be a number");
                }
                if (n == MAX_FLOW_VALUES) {
                    throw JsonMappingException.from(p, field + " holds more than " + MAX_FLOW_VALUES
                            + " values (a scenario has at most that many flows)");
                }
                if (n == out.length) {
                    out = java.util.Arrays.copyOf(out, Math.min(MAX_FLOW_VALUES, out.length * 2));
                }
                out[n++] = p.getDoubleValue();
            }
            return java.util.Arrays.copyOf(out, n);
        }
    }
}
