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

    /** Reads a saved run; the message names the file and what is wrong. */
    public static Saved load(Path file) throws IOException {
        JsonNode root;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            root = MAPPER.readTree(in);
        } catch (java.util.zip.ZipException e) {
            throw new IOException(file + ": not a FabricLab run recording (expected gzip-compressed JSON)", e);
        }
        if (root == null || !"fabriclab-run".equals(root.path("kind").asText())) {
            throw new IOException(file + ": $.kind must be \"fabriclab-run\"");
        }
        int version = root.path("schemaVersion").asInt(-1);
        if (version < 1 || version > SCHEMA_VERSION) {
            throw new IOException(file + ": $.schemaVersion " + version + " is not supported (expected 1 to "
                    + SCHEMA_VERSION + ")");
        }
        Fabric fabric;
        try {
            fabric = FabricJson.read(MAPPER.writeValueAsString(root.path("fabric")), file + " $.fabric");
        } catch (InputException e) {
            throw new IOException(e.getMessage(), e);
        }
        List<SimSnapshot> frames = new ArrayList<>();
        JsonNode fs = root.path("frames");
        ObjectReader reader = MAPPER.readerFor(SimSnapshot.class).withAttribute(PREVIOUS_FRAME, new HashMap<>());
        for (int i = 0; i < fs.size(); i++) {
            try {
                JsonNode frame = fs.get(i);
                SimSnapshot earlier = frames.isEmpty() ? null : frames.get(frames.size() - 1);
                boolean samePaths = earlier != null && frame.isObject() && !frame.has("flowPaths");
                boolean sameReverse = earlier != null && frame.isObject() && !frame.has("flowReversePaths");
                SimSnapshot s = reader.treeToValue(frame, SimSnapshot.class);
                if (s.flowPaths() == null && !samePaths) {
                    throw new IOException("flowPaths is missing");
                }
                if (samePaths || sameReverse) {
                    // Left out by the writer: unchanged since the frame before.
                    s = s.withFlowPaths(samePaths ? earlier.flowPaths() : s.flowPaths(),
                            sameReverse ? earlier.flowReversePaths() : s.flowReversePaths());
                }
                frames.add(s);
            } catch (IOException e) {
                throw new IOException(file + ": $.frames[" + i + "] is not a snapshot: " + e.getMessage(), e);
            }
        }
        if (frames.isEmpty()) {
            throw new IOException(file + ": $.frames is empty; nothing to replay");
        }
        return new Saved(root.path("title").asText(file.getFileName().toString()), fabric,
                root.path("results").isNull() ? null : root.path("results"), frames);
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
                if (!n.path("size").canConvertToInt() || n.path("size").asInt() < 0) {
                    throw JsonMappingException.from(p, field + ".size must be a whole number >= 0");
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
                v = FlowValues.of(ctxt.readValue(p, double[].class)).sharingWith(before);
            }
            if (previous != null && field != null) {
                previous.put(field, v);
            }
            return v;
        }
    }
}
