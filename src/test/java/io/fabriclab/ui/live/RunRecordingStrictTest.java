package io.fabriclab.ui.live;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Saved runs are parsed by the strict reader of every FabricLab file (io.JsonInput). */
class RunRecordingStrictTest {

    @Test
    void duplicateKeysInASavedRunAreRefused(@TempDir Path dir) throws Exception {
        Path run = dir.resolve("dup" + RunRecording.EXTENSION);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(run))) {
            out.write("{\"schemaVersion\": 2, \"kind\": \"fabriclab-run\", \"kind\": \"other\"}"
                    .getBytes(StandardCharsets.UTF_8));
        }
        IOException e = assertThrows(IOException.class, () -> RunRecording.load(run));
        assertTrue(e.getMessage().contains("Duplicate field 'kind'"), e.getMessage());
    }

    /** A saved run's JSON text, and its head and first frame as trees, to build hostile files from. */
    private static com.fasterxml.jackson.databind.node.ObjectNode savedRun(Path dir) throws Exception {
        io.fabriclab.model.Fabric f = io.fabriclab.io.FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json"));
        RunRecording r = new RunRecording(RunRecording.DEFAULT_MAX_BYTES);
        RunRecordingTest.incastFrames().forEach(r::add);
        Path file = dir.resolve("real" + RunRecording.EXTENSION);
        r.save(file, "t", f, null);
        try (java.io.InputStream in = new java.util.zip.GZIPInputStream(Files.newInputStream(file))) {
            return (com.fasterxml.jackson.databind.node.ObjectNode) new com.fasterxml.jackson.databind.ObjectMapper().readTree(in);
        }
    }

    /**
     * Writes a recording whose frames are the first real frame with flowRateGbps replaced by
     * {@code values} numbers (value {@code k % 2} in frame k), streamed so the test holds no text of it.
     */
    private static Path bomb(Path dir, com.fasterxml.jackson.databind.node.ObjectNode run, int frames, int values) throws IOException {
        Path file = dir.resolve("bomb" + RunRecording.EXTENSION);
        com.fasterxml.jackson.databind.ObjectMapper m = new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.node.ObjectNode frame = ((com.fasterxml.jackson.databind.node.ObjectNode) run.get("frames").get(0)).deepCopy();
        frame.remove("flowRateGbps");
        String rest = m.writeValueAsString(frame).substring(1); // the frame without its opening brace
        try (OutputStream gz = new GZIPOutputStream(Files.newOutputStream(file), 1 << 16);
             java.io.Writer w = new java.io.BufferedWriter(new java.io.OutputStreamWriter(gz, StandardCharsets.UTF_8), 1 << 16)) {
            w.write("{\"schemaVersion\": 2, \"kind\": \"fabriclab-run\", \"title\": \"b\", \"fabric\": "
                    + m.writeValueAsString(run.get("fabric")) + ", \"results\": null, \"frames\": [");
            for (int k = 0; k < frames; k++) {
                w.write(k == 0 ? "{\"flowRateGbps\": [" : ", {\"flowRateGbps\": [");
                String v = Integer.toString(k % 2);
                for (int i = 0; i < values; i++) {
                    w.write(i == 0 ? v : "," + v);
                }
                w.write("], " + rest);
            }
            w.write("]}");
        }
        return file;
    }

    /** Item 8 of issue 31: a 1 MB file that unpacked to 1 GB of small numbers exhausted a 2 GB heap. */
    @Test
    void whatASavedRunUnpacksToIsBoundedAsItIsRead(@TempDir Path dir) throws Exception {
        com.fasterxml.jackson.databind.node.ObjectNode run = savedRun(dir);
        // One column longer than any scenario's flows: refused at the value past the limit.
        Path longColumn = bomb(dir, run, 1, RunRecording.MAX_FLOW_VALUES + 1);
        IOException e = assertThrows(IOException.class, () -> RunRecording.load(longColumn));
        assertTrue(e.getMessage().startsWith(longColumn + ": $.frames[0] is not a snapshot: flowRateGbps holds more than 4000000 values"),
                e.getMessage());
        // Frames that each bring 8 MB of new values: refused once they pass the bound (here 20 MB, so
        // the test stays small; a real load's bound is MAX_LOADED_BYTES), at the third frame.
        Path many = bomb(dir, run, 6, 1_000_000);
        assertTrue(Files.size(many) < 1024 * 1024, "a small file: " + Files.size(many));
        IOException big = assertThrows(IOException.class, () -> RunRecording.load(many, 20L << 20));
        assertTrue(big.getMessage().startsWith(many + ": $.frames[2]: the frames so far take 2"), big.getMessage());
        assertTrue(big.getMessage().contains("a run recording keeps at most 20 MB"), big.getMessage());
        assertTrue(RunRecording.MAX_LOADED_BYTES <= Runtime.getRuntime().maxMemory() / 4,
                "the bound fits a 2 GB heap with room: " + (RunRecording.MAX_LOADED_BYTES >> 20) + " MB");
    }

    /** Item 8 of issue 31: malformed saved runs gave the parser's words without the file's name. */
    @Test
    void everyMalformedSavedRunNamesTheFile(@TempDir Path dir) throws Exception {
        com.fasterxml.jackson.databind.node.ObjectNode run = savedRun(dir);
        String good = run.toString();
        Path real = dir.resolve("real" + RunRecording.EXTENSION);
        byte[] gz = Files.readAllBytes(real);
        java.util.Map<String, byte[]> files = new java.util.LinkedHashMap<>();
        files.put("cut", java.util.Arrays.copyOf(gz, gz.length / 2));
        files.put("plain", good.getBytes(StandardCharsets.UTF_8));
        files.put("empty", gzip(""));
        files.put("syntax", gzip(good.substring(0, good.length() / 3) + "}}}"));
        files.put("array", gzip("[1, 2]"));
        files.put("framesNotArray", gzip(good.replaceFirst("\"frames\":\\[", "\"frames\":7,\"x\":[")));
        files.put("trailing", gzip(good + " {}"));
        files.put("noFrames", gzip(good.replaceFirst("\"frames\":\\[.*\\]}$", "\"frames\":[]}")));
        files.put("wrongValue", gzip(good.replaceFirst("\"timePs\":", "\"timePs\":\"soon\",\"x\":")));
        for (java.util.Map.Entry<String, byte[]> f : files.entrySet()) {
            Path file = dir.resolve(f.getKey() + RunRecording.EXTENSION);
            Files.write(file, f.getValue());
            IOException e = assertThrows(IOException.class, () -> RunRecording.load(file), f.getKey());
            assertTrue(e.getMessage().startsWith(file + ": "), f.getKey() + ": " + e.getMessage());
            assertTrue(!e.getMessage().contains("Source: REDACTED") && !e.getMessage().contains("`"),
                    f.getKey() + ": " + e.getMessage());
        }
    }

    private static byte[] gzip(String text) throws IOException {
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        try (OutputStream out = new GZIPOutputStream(b)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return b.toByteArray();
    }
}
