package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bad scenarios issue 3 names (unknown device in a flow, a lossless class without PFC,
 * Kmin > Kmax, a zero-length run, a flow to itself, a rate above line rate) are refused by
 * {@code fabriclab simulate} before the run starts: exit 2, the file and the JSON path named, no
 * stack trace, no results file.
 */
class BadScenarioCliTest {
    @TempDir
    Path dir;

    @org.junit.jupiter.api.BeforeEach
    void wireFabricFiles() {
        SimulateCommand.setFabricReader(io.fabriclab.io.FabricReader.FILES);
    }

    private static final String GOOD = """
            {
              "schemaVersion": 1,
              "fabric": "%s",
              "qos": { "pfc": { "xoffBytes": 300000, "xonBytes": 250000 } },
              "durationUs": 0,
              "workloads": [
                { "type": "flows", "flows": [
                    { "src": "server02:nic0", "dst": "server01:nic0", "bytes": 100000, "priority": 3 } ] }
              ],
              "failures": []
            }
            """;

    private String good() {
        return GOOD.formatted(Path.of("resources/examples/classic-leaf-spine.json").toAbsolutePath().toString()
                .replace("\\", "\\\\"));
    }

    private void refused(String name, String json, String... expected) throws Exception {
        Path scenario = dir.resolve(name + ".json");
        Files.writeString(scenario, json);
        Path out = dir.resolve(name + "-results.json");
        CliRun r = CliRun.of("simulate", scenario.toString(), "-o", out.toString(), "--quiet");
        assertEquals(ExitCode.BAD_INPUT, r.code(), name + ": " + r.out() + r.err());
        assertTrue(r.err().contains(name + ".json"), name + " names the file: " + r.err());
        for (String e : expected) {
            assertTrue(r.err().contains(e), name + " says '" + e + "': " + r.err());
        }
        assertFalse(r.err().contains("\tat ") || r.err().contains("Exception"), "no stack trace: " + r.err());
        assertFalse(Files.exists(out), name + ": nothing ran, nothing written");
    }

    @Test
    void theGoodScenarioRuns() {
        try {
            Path scenario = dir.resolve("good.json");
            Files.writeString(scenario, good());
            CliRun r = CliRun.of("simulate", scenario.toString(), "-o", dir.resolve("good-results.json").toString(), "--quiet");
            assertEquals(0, r.code(), r.err());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void anUnknownDeviceInAFlow() throws Exception {
        refused("unknown-device", good().replace("server02:nic0", "server99:nic0"),
                "$.workloads[0]", "NIC 'server99:nic0' is not in fabric");
    }

    @Test
    void aLosslessClassWithoutPfc() throws Exception {
        refused("lossless-without-pfc", good().replace("\"pfc\": { \"xoffBytes\": 300000, \"xonBytes\": 250000 }",
                "\"pfc\": { \"enabled\": false, \"priorities\": [3] }"), "$.qos.pfc.priorities", "a lossless class needs PFC");
    }

    @Test
    void kminAboveKmax() throws Exception {
        refused("kmin-above-kmax", good().replace("\"qos\": {", "\"qos\": { \"ecn\": { \"classes\": "
                + "{ \"3\": { \"kminBytes\": 500000, \"kmaxBytes\": 100000, \"pmax\": 0.2 } } },"),
                "$.qos.ecn.classes['3'].kminBytes", "must be below Kmax");
    }

    @Test
    void aZeroLengthRun() throws Exception {
        // A duration that ends before the first flow starts sends nothing; a zero safety limit runs nothing.
        refused("zero-length", good().replace("\"durationUs\": 0", "\"durationUs\": 5")
                .replace("\"bytes\": 100000,", "\"bytes\": 100000, \"startUs\": 10,"), "$.durationUs", "after the first flow starts");
        refused("zero-max-time", good().replace("\"durationUs\": 0", "\"durationUs\": 0, \"maxTimeUs\": 0"),
                "$.maxTimeUs", "more than 0");
    }

    @Test
    void aFlowToItself() throws Exception {
        refused("flow-to-itself", good().replace("server01:nic0", "server02:nic0"), "$.workloads[0].flows[0].dst",
                "a NIC other than the source");
        // An incast whose receiver is also one of its senders.
        refused("incast-to-itself", good().replace("{ \"type\": \"flows\", \"flows\": [\n"
                        + "        { \"src\": \"server02:nic0\", \"dst\": \"server01:nic0\", \"bytes\": 100000, \"priority\": 3 } ] }",
                "{ \"type\": \"incast\", \"senders\": [\"server02:nic0\", \"server01:nic0\"], \"receiver\": \"server01:nic0\", "
                        + "\"bytesPerSender\": 1000 }"), "$.workloads[0].receiver", "a NIC that is not also a sender");
    }

    @Test
    void aRateAboveLineRate() throws Exception {
        // server01's access link runs at 100G: "degrading" it to 400G would run it above its line rate.
        refused("rate-above-line-rate", good().replace("\"failures\": []",
                "\"failures\": [ { \"link\": \"server01:nic0\", \"downAtUs\": 1, \"degradedGbps\": 400 } ]"),
                "$.failures[0].degradedGbps", "below the link's 100 Gb/s");
    }
}
