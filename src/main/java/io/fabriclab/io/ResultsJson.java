package io.fabriclab.io;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabriclab.sim.SimResults;

/**
 * The results file (JSON, schemaVersion 1; docs/format-scenario.md): run metadata (FabricLab
 * version, seed, scenario SHA-256, events, wall time), summary, per flow / queue / PFC / link / NIC
 * results with their time series, switch buffers, drops by port and cause, and the PFC event log. Time series can also be written as CSV files into a directory.
 */
public final class ResultsJson {
    public static final int SCHEMA_VERSION = 1;
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** What produced the results. */
    public record Metadata(String fabriclabVersion, String scenarioName, String scenarioFile, String scenarioSha256,
                           String fabric, String profile) {
    }

    private ResultsJson() {
    }

    /** FabricLab's version from the build, or "dev". */
    public static String fabriclabVersion() {
        try (InputStream in = ResultsJson.class.getResourceAsStream("/io/fabriclab/version.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version");
                if (v != null && !v.contains("${")) {
                    return v;
                }
            }
        } catch (IOException e) {
            // fall through to the package version
        }
        String v = ResultsJson.class.getPackage().getImplementationVersion();
        return v != null ? v : "dev";
    }

    /**
     * The results as JSON text. With {@code reproducible}, the two wall-clock fields (wallNanos,
     * eventsPerSecond) are written as 0 so that the same scenario and seed give identical bytes.
     */
    public static String toJson(SimResults r, Metadata meta, boolean reproducible) {
        try {
            return MAPPER.writeValueAsString(tree(r, meta, reproducible)) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("results could not be serialized", e);
        }
    }

    private static ObjectNode tree(SimResults r, Metadata meta, boolean reproducible) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("schemaVersion", SCHEMA_VERSION);
        root.put("kind", "fabriclab-results");
        root.set("metadata", MAPPER.valueToTree(meta));
        ObjectNode run = MAPPER.valueToTree(r.run());
        if (reproducible) {
            run.put("wallNanos", 0);
            run.put("eventsPerSecond", 0.0);
        }
        root.set("run", run);
        root.set("summary", MAPPER.valueToTree(r.summary()));
        root.set("flows", MAPPER.valueToTree(r.flows()));
        root.set("queues", MAPPER.valueToTree(r.queues()));
        root.set("pfc", MAPPER.valueToTree(r.pfc()));
        root.set("links", MAPPER.valueToTree(r.links()));
        root.set("nics", MAPPER.valueToTree(r.nics()));
        root.set("ecmp", MAPPER.valueToTree(r.ecmp()));
        root.set("collectives", MAPPER.valueToTree(r.collectives()));
        root.set("deadlocks", MAPPER.valueToTree(r.deadlocks()));
        root.set("uplinks", MAPPER.valueToTree(r.uplinks()));
        root.set("dcqcnReactions", MAPPER.valueToTree(r.dcqcnReactions()));
        root.set("buffers", MAPPER.valueToTree(r.buffers()));
        root.set("drops", MAPPER.valueToTree(r.drops()));
        root.set("pfcEvents", MAPPER.valueToTree(r.pfcEvents()));
        root.put("pfcEventsDropped", r.pfcEventsDropped());
        if (!r.credits().isEmpty()) {
            // Only on an InfiniBand run, so RoCEv2 results files stay as they were.
            root.set("credits", MAPPER.valueToTree(r.credits()));
        }
        if (r.ultraEthernet() != null) {
            // Only on an ultra-ethernet run, so RoCEv2 results files stay as they were.
            root.set("ultraEthernet", MAPPER.valueToTree(r.ultraEthernet()));
        }
        return root;
    }

    /** Writes the results file atomically (the old results stay until the new file is complete), streaming the JSON. */
    public static void write(SimResults r, Metadata meta, Path out, boolean reproducible) throws IOException {
        ObjectNode root = tree(r, meta, reproducible);
        AtomicFiles.write(out, stream -> {
            MAPPER.writer().without(com.fasterxml.jackson.core.JsonGenerator.Feature.AUTO_CLOSE_TARGET)
                    .writeValue(stream, root);
            stream.write('\n');
        });
    }

    /** The CSV files {@link #writeCsv} writes into its directory. */
    public static final java.util.List<String> CSV_FILES = java.util.List.of("queue_depth.csv", "link_utilization.csv",
            "flow_rate.csv", "flows.csv");

    /**
     * Writes the time series as CSV (long format, one row per point): queue_depth.csv (port,
     * traffic_class, time_us, bytes), link_utilization.csv (from, to, time_us, utilization) and
     * flow_rate.csv (flow, src, dst, time_us, rate_gbps); plus flows.csv with one row per flow.
     * The four files are written together through {@link AtomicFiles#writeAll}.
     */
    public static void writeCsv(SimResults r, Path dir) throws IOException {
        Files.createDirectories(dir);
        java.util.Map<Path, AtomicFiles.Content> files = new java.util.LinkedHashMap<>();
        files.put(dir.resolve(CSV_FILES.get(0)), csv(w -> {
            w.write("port,peer,traffic_class,time_us,bytes\n");
            for (SimResults.QueueResult q : r.queues()) {
                series(w, q.port() + "," + q.peer() + "," + q.trafficClass(), q.depthBytes());
            }
        }));
        files.put(dir.resolve(CSV_FILES.get(1)), csv(w -> {
            w.write("from,to,time_us,utilization\n");
            for (SimResults.LinkResult l : r.links()) {
                series(w, l.from() + "," + l.to(), l.utilization());
            }
        }));
        files.put(dir.resolve(CSV_FILES.get(2)), csv(w -> {
            w.write("flow,src,dst,time_us,rate_gbps\n");
            for (SimResults.FlowResult f : r.flows()) {
                series(w, f.id() + "," + f.src() + "," + f.dst(), f.rateGbps());
            }
        }));
        files.put(dir.resolve(CSV_FILES.get(3)), csv(w -> {
            w.write("flow,src,dst,priority,label,bytes,start_us,fct_us,throughput_gbps,retransmitted_bytes,"
                    + "stall_us,cnps_received,min_rate_gbps\n");
            for (SimResults.FlowResult f : r.flows()) {
                w.write(String.format(Locale.ROOT, "%d,%s,%s,%d,%s,%d,%.6f,%s,%.6f,%d,%.6f,%d,%.6f%n", f.id(), f.src(),
                        f.dst(), f.priority(), f.label(), f.bytes(), f.startPs() / 1e6,
                        f.fctPs() < 0 ? "" : String.format(Locale.ROOT, "%.6f", f.fctPs() / 1e6), f.throughputGbps(),
                        f.retransmittedBytes(), f.stallPs() / 1e6, f.cnpsReceived(), f.minRateGbps()));
            }
        }));
        AtomicFiles.writeAll(files);
    }

    private interface CsvBody {
        void write(Writer w) throws IOException;
    }

    private static AtomicFiles.Content csv(CsvBody body) {
        return out -> {
            Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
            body.write(w);
            w.flush();
        };
    }

    private static void series(Writer w, String key, SimResults.Series s) throws IOException {
        if (s == null) {
            return;
        }
        long[] t = s.timesPs();
        double[] v = s.values();
        for (int i = 0; i < t.length; i++) {
            w.write(key);
            w.write(',');
            w.write(String.format(Locale.ROOT, "%.6f", t[i] / 1e6));
            w.write(',');
            w.write(Double.toString(v[i]));
            w.write('\n');
        }
    }
}
