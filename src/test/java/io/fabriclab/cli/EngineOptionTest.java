package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 32, one choice of engine everywhere: {@code --engine packet|flow} in every command that
 * runs a simulation (simulate, compare, sweep, tune, report, bench sim), a sweep file's
 * {@code engine}, and the engine named in what each prints. A refused value names the allowed ones.
 */
class EngineOptionTest {
    @TempDir
    Path dir;

    /** A two-sender incast on the shipped leaf-spine: small, runs on both engines in a moment. */
    private Path scenario() throws Exception {
        Files.copy(Path.of("resources/examples/classic-leaf-spine.json"), dir.resolve("f.json"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return Files.writeString(dir.resolve("s.json"), """
                {"schemaVersion": 1, "name": "small incast", "fabric": "f.json", "seed": 1,
                 "workloads": [{"type": "incast", "senders": ["server02:nic0", "server03:nic0"],
                                "receiver": "server01:nic0", "bytesPerSender": 100000}]}
                """);
    }

    private Path sweep(String engine) throws Exception {
        Path s = scenario();
        return Files.writeString(dir.resolve("sw.json"), "{\"schemaVersion\": 1, \"scenario\": \"" + s.getFileName()
                + "\", \"metrics\": [\"fctP99Us\"], " + engine + "\"parameters\": [{\"path\": \"workloads[0].bytesPerSender\", "
                + "\"values\": [50000, 100000]}]}");
    }

    @Test
    void everyCommandRefusesAnUnknownEngineNamingTheAllowedOnes() throws Exception {
        Path s = scenario();
        Path sw = sweep("");
        for (List<String> args : List.of(
                List.of("simulate", s.toString(), "-o", dir.resolve("r.json").toString(), "--engine", "warp"),
                List.of("compare", s.toString(), "--engine", "warp"),
                List.of("sweep", sw.toString(), "-o", dir.resolve("out").toString(), "--engine", "warp"),
                List.of("tune", s.toString(), "-o", dir.resolve("t").toString(), "--objective", "drops", "--engine", "warp"),
                List.of("report", s.toString(), "-o", dir.resolve("r.html").toString(), "--simulate", "--engine", "warp"),
                List.of("bench", "sim", "--scenario", s.toString(), "--runs", "1", "--engine", "warp"))) {
            CliRun r = CliRun.of(args.toArray(String[]::new));
            assertEquals(ExitCode.BAD_INPUT, r.code(), args + ": " + r.err());
            assertTrue(r.err().contains("--engine") && r.err().contains("allowed: packet, flow"), args + ": " + r.err());
        }
        assertFalse(Files.exists(dir.resolve("r.json")));
        assertFalse(Files.exists(dir.resolve("out")));
        assertFalse(Files.exists(dir.resolve("r.html")));
    }

    @Test
    void compareRunsEveryTransportOnTheFlowEngineAndSaysSo() throws Exception {
        Path json = dir.resolve("cmp.json");
        CliRun r = CliRun.of("compare", scenario().toString(), "--engine", "flow", "-o", json.toString(), "--quiet");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("engine: flow (flow level"), r.out());
        assertTrue(Files.readString(json).contains("\"engine\" : \"flow\""), Files.readString(json));
        CliRun packet = CliRun.of("compare", dir.resolve("s.json").toString(), "--quiet");
        assertEquals(0, packet.code(), packet.err());
        assertTrue(packet.out().contains("engine: packet (packet level)"), packet.out());
    }

    @Test
    void simulateNamesThePacketEngineToo() throws Exception {
        CliRun r = CliRun.of("simulate", scenario().toString(), "-o", dir.resolve("r.json").toString(), "--quiet");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("engine: packet level"), r.out());
        assertTrue(Files.readString(dir.resolve("r.json")).contains("\"engine\" : \"packet\""));
    }

    @Test
    void theReportSimulatesOnTheEngineAskedForAndNamesIt() throws Exception {
        Path html = dir.resolve("r.html");
        CliRun r = CliRun.of("report", scenario().toString(), "-o", html.toString(), "--simulate", "--engine", "flow", "--quiet");
        assertEquals(0, r.code(), r.err());
        String page = Files.readString(html);
        assertTrue(page.contains("on the flow engine"), "the run's source names the engine");
        assertTrue(page.contains(">engine</td><td class=\"txt\">flow<"), "the run's parameters name the engine");
        // Without --simulate there is no run for --engine to choose the engine of.
        CliRun bad = CliRun.of("report", dir.resolve("s.json").toString(), "-o", dir.resolve("x.html").toString(),
                "--engine", "flow");
        assertEquals(ExitCode.BAD_INPUT, bad.code(), bad.err());
        assertTrue(bad.err().contains("--engine applies to the run --simulate makes"), bad.err());
    }

    @Test
    void aSweepFileOrSweepEngineChoosesTheEngineAndTheRunKeysNameIt() throws Exception {
        Path sw = sweep("\"engine\": \"flow\", ");
        CliRun flow = CliRun.of("sweep", sw.toString(), "-o", dir.resolve("flow").toString(), "--no-charts", "--quiet");
        assertEquals(0, flow.code(), flow.err());
        assertTrue(flow.out().contains("engine: flow"), flow.out());
        assertTrue(Files.readString(dir.resolve("flow/summary.json")).contains("\"engine\":\"flow\"")
                || Files.readString(dir.resolve("flow/summary.json")).contains("\"engine\" : \"flow\""));
        // --engine over the file's: packet runs, under other keys (a flow run is never reused for a packet one).
        CliRun packet = CliRun.of("sweep", sw.toString(), "-o", dir.resolve("flow").toString(), "--no-charts", "--quiet",
                "--engine", "packet");
        assertEquals(0, packet.code(), packet.err());
        assertTrue(packet.out().contains("(2 run now, 0 already done"), packet.out());
        try (var runs = Files.list(dir.resolve("flow/runs"))) {
            assertEquals(4, runs.count(), "two flow and two packet run files");
        }
    }

    @Test
    void aSweepFileNamingAnUnknownEngineIsRefusedWithItsPath() throws Exception {
        Path sw = sweep("\"engine\": \"fluid\", ");
        CliRun r = CliRun.of("sweep", sw.toString(), "-o", dir.resolve("out").toString());
        SweepCommandTest.assertBad(r, sw, "$.engine", "allowed: one of packet, flow");
    }

    @Test
    void tuneRefusesTheFlowEngineSayingWhy() throws Exception {
        CliRun r = CliRun.of("tune", scenario().toString(), "-o", dir.resolve("t").toString(), "--objective", "drops",
                "--engine", "flow");
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("does not model") && r.err().contains("allowed: packet"), r.err());
        assertFalse(Files.exists(dir.resolve("t")));
    }

    @Test
    void benchSimRunsEitherEngineAndSaysWhich() throws Exception {
        CliRun r = CliRun.of("bench", "sim", "--scenario", scenario().toString(), "--runs", "1", "--engine", "flow");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("flow engine"), r.out());
        CliRun p = CliRun.of("bench", "sim", "--scenario", dir.resolve("s.json").toString(), "--runs", "1");
        assertEquals(0, p.code(), p.err());
        assertTrue(p.out().contains("packet engine"), p.out());
        assertNotEquals(r.out(), p.out());
    }
}
