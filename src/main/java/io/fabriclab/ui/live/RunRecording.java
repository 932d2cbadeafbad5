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
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ArrayNode;
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
 * <p>File: gzip-compressed JSON {@code {"schemaVersion":1, "kind":"fabriclab-run", "title",
 * "fabric": {fabric JSON}, "results": {results JSON, as simulate -o writes it}, "frames":
 * [SimSnapshot...]}} (extension {@code .fabriclab-run.json.gz}); saved atomically.
 */
public final class RunRecording {
    public static final int SCHEMA_VERSION = 1;
    public static final String EXTENSION = ".fabriclab-run.json.gz";
    /** Default memory bound of a recording. */
    public static final long DEFAULT_MAX_BYTES = 96L << 20;
    private static final ObjectMapper MAPPER = new ObjectMapper().registerModule(new SimpleModule("flow-values")
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
        ObjectNode root = MAPPER.createObjectNode();
        root.put("schemaVersion", SCHEMA_VERSION);
        root.put("kind", "fabriclab-run");
        root.put("title", title);
        root.set("fabric", MAPPER.readTree(FabricJson.write(fabric)));
        root.set("results", resultsJson == null ? MAPPER.nullNode() : MAPPER.readTree(resultsJson));
        ArrayNode fs = root.putArray("frames");
        for (SimSnapshot s : frames()) {
            fs.add(MAPPER.valueToTree(s));
        }
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        try (OutputStream gz = new GZIPOutputStream(buf)) {
            MAPPER.writeValue(gz, root);
        }
        AtomicFiles.write(file, buf.toByteArray());
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
        if (version != SCHEMA_VERSION) {
            throw new IOException(file + ": $.schemaVersion " + version + " is not supported (expected "
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
                frames.add(reader.treeToValue(fs.get(i), SimSnapshot.class));
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

    /** Per-flow values as a plain JSON array, whole numbers without a fraction (CNP counts, zeros). */
    private static final class FlowValuesWriter extends StdSerializer<FlowValues> {
        FlowValuesWriter() {
            super(FlowValues.class);
        }

        @Override
        public void serialize(FlowValues v, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeStartArray(v, v.size());
            for (int i = 0; i < v.size(); i++) {
                double x = v.get(i);
                if (x == Math.rint(x) && Math.abs(x) < 1e15) {
                    gen.writeNumber((long) x);
                } else {
                    gen.writeNumber(x);
                }
            }
            gen.writeEndArray();
        }
    }

    /** Reads the array back, sharing unchanged blocks with the previous frame of the same file. */
    private static final class FlowValuesReader extends StdDeserializer<FlowValues> {
        FlowValuesReader() {
            super(FlowValues.class);
        }

        @Override
        public FlowValues deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            String field = p.currentName();
            FlowValues v = FlowValues.of(ctxt.readValue(p, double[].class));
            @SuppressWarnings("unchecked")
            Map<String, FlowValues> previous = (Map<String, FlowValues>) ctxt.getAttribute(PREVIOUS_FRAME);
            if (previous != null && field != null) {
                v = v.sharingWith(previous.get(field));
                previous.put(field, v);
            }
            return v;
        }
    }
}
