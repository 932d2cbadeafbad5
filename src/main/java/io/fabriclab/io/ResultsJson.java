package io.fabriclab.io;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;

import io.fabriclab.sim.SimResults;

/**
 * The results file (JSON, schemaVersion 1; docs/format-scenario.md): run metadata (FabricLab
 * version, seed, scenario SHA-256, events, wall time), summary, per flow / queue / PFC / link / NIC
 * results with their time series, switch buffers, drops by port and cause, and the PFC event log. Time series can also be written as CSV files into a directory.
 */
public final class ResultsJson {
    public static final int SCHEMA_VERSION = 1;
    private static final ObjectMapper MAPPER = JsonInput.writingMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .disable(SerializationFeature.FLUSH_AFTER_WRITE_VALUE);
    private static final ObjectWriter WRITER = MAPPER.writer();

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
        StringWriter text = new StringWriter();
        try (JsonGenerator g = MAPPER.createGenerator(text)) {
            write(g, r, meta, reproducible, java.util.Map.of());
        } catch (IOException e) {
            throw new IllegalStateException("results could not be serialized", e);
        }
        return text + "\n";
    }

    /**
     * Writes the results file atomically (the old results stay until the new file is complete).
     * Each part is serialized straight from the results into the file: no JSON tree or string
     * copy of the results is built in memory (on a k=16 permutation the file is 15 MB and the
     * tree was several times that).
     */
    public static void write(SimResults r, Metadata meta, Path out, boolean reproducible) throws IOException {
        write(r, meta, out, reproducible, ResultsFile.MAX_BYTES, java.util.Map.of());
    }

    /**
     * As {@link #write(SimResults, Metadata, Path, boolean)} with more top-level fields after the
     * run's own (e.g. "training": what a training step's run says); readers that do not know a
     * field pass over it.
     */
    public static void write(SimResults r, Metadata meta, Path out, boolean reproducible,
                             java.util.Map<String, Object> more) throws IOException {
        write(r, meta, out, reproducible, ResultsFile.MAX_BYTES, more);
    }

    static void write(SimResults r, Metadata meta, Path target, boolean reproducible, long maxBytes) throws IOException {
        write(r, meta, target, reproducible, maxBytes, java.util.Map.of());
    }

    /**
     * As {@link #write(SimResults, Metadata, Path, boolean)}, refusing to finish a file over
     * {@code maxBytes} (the old file stays, no part of the new one is left): what simulate writes,
     * report can read.
     */
    static void write(SimResults r, Metadata meta, Path target, boolean reproducible, long maxBytes,
                      java.util.Map<String, Object> more) throws IOException {
        AtomicFiles.write(target, stream -> {
            java.io.OutputStream capped = new java.io.FilterOutputStream(stream) {
                private long written;

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    written += len;
                    if (written > maxBytes) {
                        throw new TooLargeException(target + ": the results file would be larger than " + maxBytes / 1048576
                                + " MB, the most fabriclab report reads back; nothing was written (write fewer flows or "
                                + "a coarser telemetry.sampleIntervalUs)");
                    }
                    this.out.write(b, off, len);
                }

                @Override
                public void write(int b) throws IOException {
                    write(new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public void close() {
                    // The file is AtomicFiles' to close.
                }
            };
            try (JsonGenerator g = MAPPER.createGenerator(capped, JsonEncoding.UTF8)
                    .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)) {
                write(g, r, meta, reproducible, more);
            }
            capped.write('\n');
            capped.flush();
        });
    }

    /** A results file over the size the readers accept: nothing was written. */
    public static final class TooLargeException extends IOException {
        private static final long serialVersionUID = 1L;

        TooLargeException(String message) {
            super(message);
        }
    }

    /** One results document on {@code g}, field by field in the file's order (docs/format-scenario.md). */
    private static void write(JsonGenerator g, SimResults r, Metadata meta, boolean reproducible,
                              java.util.Map<String, Object> more) throws IOException {
        g.useDefaultPrettyPrinter();
        g.writeStartObject();
        g.writeNumberField("schemaVersion", SCHEMA_VERSION);
        g.writeStringField("kind", "fabriclab-results");
        field(g, "metadata", meta);
        SimResults.RunInfo run = r.run();
        if (reproducible) {
            run = new SimResults.RunInfo(run.seed(), run.stopReason(), run.simulatedPs(), run.events(), 0, 0.0,
                    run.flows(), run.flowsCompleted(), run.maxPacketsInFlight(), run.sampleIntervalPs(),
                    run.reroutes(), run.routing(), run.engine());
        }
        field(g, "run", run);
        field(g, "summary", r.summary());
        field(g, "flows", r.flows());
        field(g, "queues", r.queues());
        field(g, "pfc", r.pfc());
        field(g, "links", r.links());
        field(g, "nics", r.nics());
        field(g, "ecmp", r.ecmp());
        field(g, "collectives", r.collectives());
        field(g, "deadlocks", r.deadlocks());
        field(g, "uplinks", r.uplinks());
        field(g, "dcqcnReactions", r.dcqcnReactions());
        field(g, "buffers", r.buffers());
        field(g, "drops", r.drops());
        field(g, "pfcEvents", r.pfcEvents());
        g.writeNumberField("pfcEventsDropped", r.pfcEventsDropped());
        if (r.credits() != null && !r.credits().isEmpty()) {
            // Only on an InfiniBand run, so RoCEv2 results files stay as they were.
            field(g, "credits", r.credits());
        }
        if (r.ibCongestionControl() != null) {
            // Only on an InfiniBand run with congestion control on, so every other results file stays as it was.
            field(g, "ibCongestionControl", r.ibCongestionControl());
        }
        if (r.local() != null) {
            // Only on a run with NVLink transfers or compute: how many finished and each GPU's compute
            // time (the task list itself stays in memory; simulate prints what it says).
            g.writeObjectFieldStart("gpuTasks");
            g.writeNumberField("tasks", r.local().tasks().size());
            g.writeNumberField("tasksCompleted", r.local().tasksCompleted());
            field(g, "gpus", r.local().gpus());
            g.writeEndObject();
        }
        if (r.ultraEthernet() != null) {
            // Only on an ultra-ethernet run, so RoCEv2 results files stay as they were.
            field(g, "ultraEthernet", r.ultraEthernet());
        }
        for (java.util.Map.Entry<String, Object> e : more.entrySet()) {
            field(g, e.getKey(), e.getValue());
        }
        g.writeEndObject();
    }

    private static void field(JsonGenerator g, String name, Object value) throws IOException {
        g.writeFieldName(name);
        WRITER.writeValue(g, value);
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
