package io.fabriclab.ui.live;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fabriclab.io.FabricJson;
import io.fabriclab.model.Fabric;
import io.fabriclab.sim.FlowValues;
import io.fabriclab.sim.SimSnapshot;
import io.fabriclab.workload.FlowSpec;
import io.fabriclab.workload.WorkloadPreset;

/** The recording behind the timeline and replay: bounded memory, whole-run coverage, file round trip. */
class RunRecordingTest {

    static List<SimSnapshot> incastFrames() throws Exception {
        Fabric f = FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json"));
        RunSettings s = RunSettings.incast().withBytes(500_000);
        LiveSession session = LiveSession.create(f, s);
        List<SimSnapshot> all = new ArrayList<>();
        // Step through the run one 5 us interval at a time, keeping the snapshot of each step.
        io.fabriclab.sim.LiveRun run = session.run();
        run.start(true);
        while (!run.result().isDone()) {
            long t = run.stepInterval().get(30, TimeUnit.SECONDS);
            SimSnapshot snap = run.latest();
            if (all.isEmpty() || snap.timePs() > all.get(all.size() - 1).timePs()) {
                all.add(snap);
            }
            if (t > 2_000_000_000L) {
                break;
            }
        }
        return all;
    }

    @Test
    void aRecordingPastItsBoundThinsItselfButStillCoversTheWholeRun() throws Exception {
        List<SimSnapshot> all = incastFrames();
        assertTrue(all.size() > 40, "frames: " + all.size());
        long one = RunRecording.sizeOf(all.get(0));
        RunRecording r = new RunRecording(one * 16);
        for (SimSnapshot s : all) {
            r.add(s);
            assertTrue(r.bytes() <= r.maxBytes(), "within its bound after every frame");
        }
        assertTrue(r.thinnings() > 0, "it had to thin");
        List<SimSnapshot> kept = r.frames();
        assertEquals(all.get(0).timePs(), kept.get(0).timePs(), "the first frame stays");
        assertEquals(all.get(all.size() - 1).timePs(), kept.get(kept.size() - 1).timePs(), "the newest stays");
        for (int i = 1; i < kept.size(); i++) {
            assertTrue(kept.get(i).timePs() > kept.get(i - 1).timePs());
        }
        // at(t) is the last frame at or before t.
        SimSnapshot mid = kept.get(kept.size() / 2);
        assertEquals(mid.timePs(), r.at(mid.timePs() + 1).timePs());
    }

    @Test
    void aSavedRunLoadsBackWithItsFabricResultsAndIdenticalFrames(@TempDir Path dir) throws Exception {
        Fabric f = FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json"));
        RunRecording r = new RunRecording(RunRecording.DEFAULT_MAX_BYTES);
        List<SimSnapshot> all = incastFrames();
        all.forEach(r::add);
        Path file = dir.resolve("x" + RunRecording.EXTENSION);
        r.save(file, "test run", f, "{\"summary\":{\"drops\":0}}");
        RunRecording.Saved back = RunRecording.load(file);
        assertEquals("test run", back.title());
        assertEquals(f.links().size(), back.fabric().links().size());
        assertEquals(0, back.results().path("summary").path("drops").asInt());
        assertEquals(all.size(), back.frames().size());
        for (int i = 0; i < all.size(); i++) {
            SimSnapshot a = all.get(i);
            SimSnapshot b = back.frames().get(i);
            assertEquals(a.timePs(), b.timePs());
            assertArrayEquals(a.queueBytes(), b.queueBytes());
            assertArrayEquals(a.pausedMask(), b.pausedMask());
            assertArrayEquals(a.ecnMarksTotal(), b.ecnMarksTotal());
            assertEquals(a.thresholds(), b.thresholds());
            assertEquals(a.ports(), b.ports());
            assertEquals(a.flowRateGbps(), b.flowRateGbps());
            assertEquals(a.flowTargetGbps(), b.flowTargetGbps());
            assertEquals(a.flowProgress(), b.flowProgress());
            assertEquals(a.flowCnpsTotal(), b.flowCnpsTotal());
            assertEquals(a.flowPaths().size(), b.flowPaths().size());
            for (int fl = 0; fl < a.flowPaths().size(); fl++) {
                assertArrayEquals(a.flowPaths().get(fl), b.flowPaths().get(fl));
                assertArrayEquals(a.flowReversePaths().get(fl), b.flowReversePaths().get(fl));
            }
            if (i > 0 && a.flowPaths() == all.get(i - 1).flowPaths()) {
                // Written once, carried over: shared again after reading, as when recorded.
                assertSame(back.frames().get(i - 1).flowPaths(), b.flowPaths());
            }
        }
        // Read back, consecutive frames share the per-flow blocks that did not change, as they did
        // when recorded: the replayed recording counts no more bytes than the live one.
        RunRecording replayed = new RunRecording(Long.MAX_VALUE);
        back.frames().forEach(replayed::add);
        RunRecording live = new RunRecording(Long.MAX_VALUE);
        all.forEach(live::add);
        assertTrue(replayed.bytes() <= live.bytes(), replayed.bytes() + " vs " + live.bytes());
    }

    /**
     * A recording counts a per-flow block that several frames share once. The incast's frames after
     * its flows completed share every block, so 10 copies of the last frame cost its per-port arrays
     * 10 times but its per-flow blocks once, plus a table of block references per column each.
     */
    @Test
    void perFlowBlocksSharedBetweenFramesAreCountedOnce() throws Exception {
        List<SimSnapshot> all = incastFrames();
        SimSnapshot last = all.get(all.size() - 1);
        RunRecording r = new RunRecording(Long.MAX_VALUE);
        for (int i = 0; i < 10; i++) {
            r.add(new SimSnapshot(last.timePs() + i, last.events() + i, last.flowsCompleted(), last.ports(),
                    last.queueBytes(), last.ingressBytes(), last.pausedMask(), last.linkDown(), last.ecnMarks(),
                    last.drops(), last.utilization(), last.ecnMarksTotal(), last.dropsTotal(),
                    last.pauseFramesTotal(), last.pausedPsTotal(), last.cnpsTotal(), last.wireBytesTotal(),
                    last.thresholds(), last.flowRateGbps(), last.flowTargetGbps(), last.flowProgress(),
                    last.flowPaths(), 0, 0, last.reroutes(), last.deadlocks(), last.stormedMask(),
                    last.stormsTotal(), last.flowReversePaths(), last.flowCnpsTotal(), last.creditStalledMask(),
                    last.trimmedTotal(), last.scaleUp()));
        }
        long blockTables = 4 * (16 + 8L * ((last.flowCount() + FlowValues.BLOCK - 1) / FlowValues.BLOCK));
        long alone = RunRecording.sizeOf(last);
        assertEquals(alone + 9 * (RunRecording.portBytes(last) + blockTables), r.bytes());
    }

    /** A file of schema version 1 (every frame whole, per-flow values as plain arrays) still loads. */
    @Test
    void aVersion1FileStillLoads(@TempDir Path dir) throws Exception {
        Fabric f = FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json"));
        List<SimSnapshot> all = incastFrames();
        com.fasterxml.jackson.databind.ObjectMapper plain = new com.fasterxml.jackson.databind.ObjectMapper()
                .registerModule(new com.fasterxml.jackson.databind.module.SimpleModule().addSerializer(
                        FlowValues.class, new com.fasterxml.jackson.databind.ser.std.StdSerializer<FlowValues>(
                                FlowValues.class) {
                            @Override
                            public void serialize(FlowValues v, com.fasterxml.jackson.core.JsonGenerator g,
                                                  com.fasterxml.jackson.databind.SerializerProvider p)
                                    throws IOException {
                                g.writeArray(v.toArray(), 0, v.size());
                            }
                        }));
        com.fasterxml.jackson.databind.node.ObjectNode root = plain.createObjectNode();
        root.put("schemaVersion", 1);
        root.put("kind", "fabriclab-run");
        root.put("title", "old");
        root.set("fabric", plain.readTree(FabricJson.write(f)));
        root.putNull("results");
        com.fasterxml.jackson.databind.node.ArrayNode fs = root.putArray("frames");
        all.forEach(x -> fs.add(plain.valueToTree(x)));
        Path file = dir.resolve("old" + RunRecording.EXTENSION);
        try (java.io.OutputStream out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(file))) {
            plain.writeValue(out, root);
        }
        RunRecording.Saved back = RunRecording.load(file);
        assertEquals(all.size(), back.frames().size());
        SimSnapshot last = all.get(all.size() - 1);
        assertEquals(last.flowProgress(), back.frames().get(all.size() - 1).flowProgress());
        assertArrayEquals(last.flowPaths().get(0), back.frames().get(all.size() - 1).flowPaths().get(0));
    }

    @Test
    void aBlockOutOfRangeIsRefusedWithTheFileTheFrameAndTheField(@TempDir Path dir) throws Exception {
        Fabric f = FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json"));
        RunRecording r = new RunRecording(RunRecording.DEFAULT_MAX_BYTES);
        incastFrames().forEach(r::add);
        Path file = dir.resolve("x" + RunRecording.EXTENSION);
        r.save(file, "t", f, null);
        String json;
        try (java.io.InputStream in = new java.util.zip.GZIPInputStream(Files.newInputStream(file))) {
            json = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        // The first frame's progress: move its block 0 to block 99 (8 flows: there is one block).
        int at = json.indexOf("\"flowProgress\":{\"size\":8,\"blocks\":{\"0\"");
        assertTrue(at > 0, "the first frame writes the progress block 0");
        json = json.substring(0, at) + json.substring(at).replaceFirst("\"blocks\":\\{\"0\"", "\"blocks\":{\"99\"");
        try (java.io.OutputStream out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(file))) {
            out.write(json.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        IOException e = assertThrows(IOException.class, () -> RunRecording.load(file));
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
        assertTrue(e.getMessage().contains("$.frames[0]"), e.getMessage());
        assertTrue(e.getMessage().contains("flowProgress: block 99 is out of range (0..0)"), e.getMessage());
    }

    @Test
    void aFileThatIsNotARunIsRefusedWithItsName(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("bad" + RunRecording.EXTENSION);
        Files.writeString(file, "{}");
        IOException e = assertThrows(IOException.class, () -> RunRecording.load(file));
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }

    @Test
    void theBackgroundPresetLoadsEveryNicAtTheTargetShare() throws Exception {
        Fabric f = FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json"));
        long window = 10_000_000_000L; // 10 ms: tens of web-search flows per NIC, so rounding each NIC's count is small
        List<FlowSpec> flows = WorkloadPreset.BACKGROUND.flows(f, 1, 1, 7, 0.3, window);
        // 32 NICs at 100G, 30 % over 10 ms: 32 x 0.3 x 100e9 / 8 x 10e-3 = 1.2 GB offered; the
        // stratified sizes make the total close to it (a few % for rounding of per-NIC counts).
        long bytes = flows.stream().mapToLong(FlowSpec::bytes).sum();
        double expected = 32 * 0.3 * 100e9 / 8 * 10e-3;
        assertTrue(Math.abs(bytes - expected) / expected < 0.05, "offered " + bytes + " vs " + expected);
        assertTrue(flows.stream().allMatch(x -> x.priority() == WorkloadPreset.BACKGROUND_PRIORITY));
        assertTrue(flows.stream().allMatch(x -> x.startPs() >= 0 && x.startPs() < window));
    }
}
