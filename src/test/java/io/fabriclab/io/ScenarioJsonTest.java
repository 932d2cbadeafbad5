package io.fabriclab.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.Simulator;
import io.fabriclab.sim.TestFabrics;

class ScenarioJsonTest {

    /** Stands in for the fabric file format: any path or inline object gives the same test fabric. */
    static FabricReader star(int n) {
        return new FabricReader() {
            @Override
            public Fabric read(Path file) {
                return TestFabrics.star(n, 100, 1.0, QosProfile.roceLossless("lossless", 100));
            }

            @Override
            public Fabric read(JsonNode inline, String where) {
                return read(Path.of("inline"));
            }
        };
    }

    static final String INCAST = """
            {
              "schemaVersion": 1,
              "name": "incast 4:1",
              "fabric": {"name": "inline"},
              "profile": "production-ecn",
              "qos": {"pfc": {"xoffBytes": 200000, "xonBytes": 150000}},
              "seed": 7,
              "telemetry": {"sampleIntervalUs": 5},
              "workloads": [
                {"type": "incast", "senders": ["s1:nic0", "s2:nic0", "s3:nic0", "s4:nic0"],
                 "receiver": "s0:nic0", "bytesPerSender": 2000000, "startUs": 1.5},
                {"type": "flows", "flows": [{"src": "s5:nic0", "dst": "s6:nic0", "bytes": 100000, "priority": 3}]}
              ]
            }
            """;

    static SimResults run(Scenario s) {
        return s.simulator(s.config()).run();
    }

    @Test
    void aScenarioGivesItsFlowsProfileOverridesAndSettings() {
        Scenario s = ScenarioJson.parse(INCAST, "incast.json", null, star(7), null);
        assertEquals("incast 4:1", s.name());
        assertEquals(5, s.flows().size());
        assertEquals(1_500_000, s.flows().get(0).startPs());
        assertEquals(7, s.config().seed());
        assertEquals(5_000_000, s.config().sampleIntervalPs());
        QosProfile q = s.qos().qosFor(s.fabric().port("leaf0:eth0"));
        // production-ecn at 100G: Kmin 400 KB, Kmax 1600 KB, Pmax 0.2 on the lossless priority 3.
        assertEquals(400_000, q.ecn().forClass(3).kminBytes());
        assertEquals(0.2, q.ecn().forClass(3).pmax());
        assertTrue(q.dcqcn().enabled());
        // The override changed XOFF/XON and kept the rest of PFC.
        assertEquals(200_000, q.pfc().xoffBytes());
        assertEquals(150_000, q.pfc().xonBytes());
        // Headroom kept from roceLossless at 100G (QosProfile.headroomFor: 120,000 B).
        assertEquals(120_000, q.pfc().headroomBytes());
        assertEquals(64, s.sha256().length());
    }

    @Test
    void ecnOverridesReplaceTheCurveAndTheMarkingPoint() {
        Scenario s = ScenarioJson.parse(INCAST.replace("\"qos\": {", "\"qos\": {\"ecn\": {\"markAt\": \"enqueue\", "
                + "\"classes\": {\"3\": {\"kminBytes\": 1000, \"kmaxBytes\": 9000, \"pmax\": 0.5}}}, "), "x.json", null,
                star(7), null);
        QosProfile q = s.qos().qosFor(s.fabric().port("leaf0:eth0"));
        assertEquals(io.fabriclab.model.EcnConfig.MarkingPoint.ENQUEUE, q.ecn().markAt());
        assertEquals(new io.fabriclab.model.WredEcn(1000, 9000, 0.5), q.ecn().forClass(3));
        assertTrue(run(s).summary().ecnMarked() > 0);
    }

    @Test
    void failuresNameALinkAndItsTimes() {
        Scenario s = ScenarioJson.parse(INCAST.replace("\"seed\": 7,", "\"seed\": 7, \"reconvergenceUs\": 20, "
                + "\"failures\": [{\"link\": \"s5:nic0\", \"downAtUs\": 1, \"upAtUs\": 30}],"), "f.json", null, star(7), null);
        assertEquals(1, s.failures().size());
        assertEquals("s5:nic0--leaf0:eth5", s.failures().get(0).link().id());
        assertEquals(30_000_000, s.failures().get(0).upPs());
        assertEquals(20_000_000, s.reconvergencePs());
        SimResults r = run(s);
        assertEquals(5, r.run().flowsCompleted());
        assertEquals(2, r.run().reroutes());
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioJson.parse(INCAST.replace("\"seed\": 7,",
                "\"seed\": 7, \"failures\": [{\"link\": \"nowhere\", \"downAtUs\": 1}],"), "f.json", null, star(7), null));
        assertTrue(e.getMessage().startsWith("f.json: $.failures[0].link: found \"nowhere\""), e.getMessage());
    }

    @Test
    void anAllReduceWorkloadReportsItsCollectiveBandwidth() {
        String json = """
                {"schemaVersion": 1, "fabric": {}, "profile": "nic-firmware",
                 "workloads": [{"type": "allreduce", "name": "grad", "ranks": ["s0:nic0", "s1:nic0", "s2:nic0", "s3:nic0"],
                                "bytes": 4000000}]}
                """;
        Scenario s = ScenarioJson.parse(json, "ar.json", null, star(4), null);
        assertEquals(2 * 3 * 4, s.flows().size());
        SimResults r = run(s);
        SimResults.CollectiveResult c = r.collectives().get(0);
        assertEquals("grad", c.name());
        assertTrue(c.busbwGBps() > 10 && c.busbwGBps() < 12.5, "busbw " + c.busbwGBps());
        assertTrue(ResultsJson.toJson(r, new ResultsJson.Metadata("t", "x", "x", "x", "x", null), true)
                .contains("\"busbwGBps\""));
    }

    @Test
    void theResultsCarryTheDcqcnReactionLogAndReadItBack() throws Exception {
        // INCAST: 4 x 2 MB into s0 with production ECN and firmware DCQCN, plus one more flow; all
        // five flows are within the log's first 16, none gets 256 CNPs: every CNP is logged.
        Scenario s = ScenarioJson.parse(INCAST, "incast.json", null, star(7), null);
        SimResults r = run(s);
        String json = ResultsJson.toJson(r, new ResultsJson.Metadata("t", "x", "x", "x", "x", null), true);
        JsonNode log = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json).path("dcqcnReactions");
        assertEquals("[0,1,2,3,4]", log.path("flows").toString());
        assertEquals(256, log.path("maxPerFlow").asInt());
        assertEquals(0, log.path("notLogged").asLong());
        assertTrue(r.summary().cnpsReceived() > 0, "the incast cut its senders");
        assertEquals(r.summary().cnpsReceived(), log.path("reactions").size());
        JsonNode first = log.path("reactions").get(0);
        for (String field : new String[] {"flow", "timePs", "cut", "alpha", "rateBeforeGbps", "rateAfterGbps", "targetGbps"}) {
            assertTrue(first.has(field), field);
        }
        // A flow's first CNP finds the initial alpha (1) and its first cut is the largest allowed
        // (firmware: 50 %): the sender was at line rate, 100 G -> 50 G.
        assertEquals(1.0, first.path("alpha").asDouble());
        assertEquals(100.0, first.path("rateBeforeGbps").asDouble());
        assertEquals(50.0, first.path("rateAfterGbps").asDouble());
        // A saved results file reads the log back as it was written.
        assertEquals(r.dcqcnReactions(), ResultsFile.parse(json, Path.of("r.json")).results().dcqcnReactions());
    }

    @Test
    void theSameScenarioAndSeedGiveByteIdenticalResults() {
        Scenario a = ScenarioJson.parse(INCAST, "incast.json", null, star(7), null);
        Scenario b = ScenarioJson.parse(INCAST, "incast.json", null, star(7), null);
        ResultsJson.Metadata meta = new ResultsJson.Metadata("test", a.name(), "incast.json", a.sha256(), "star", a.profile());
        String ra = ResultsJson.toJson(run(a), meta, true);
        String rb = ResultsJson.toJson(run(b), meta, true);
        assertEquals(ra, rb);
        assertTrue(ra.contains("\"ecnMarked\""));
        // A different seed changes the random ECN marks, so the results differ.
        Scenario c = ScenarioJson.parse(INCAST.replace("\"seed\": 7", "\"seed\": 8"), "incast.json", null, star(7), null);
        assertNotEquals(ra, ResultsJson.toJson(run(c), meta, true));
    }

    @Test
    void pfcOnlyProfileMarksNothingAndSendsNoCnp() {
        Scenario s = ScenarioJson.parse(INCAST.replace("production-ecn", "pfc-only"), "x.json", null, star(7), null);
        SimResults r = run(s);
        assertEquals(0, r.summary().ecnMarked());
        assertEquals(0, r.summary().cnpsSent());
        assertTrue(r.summary().pauseFramesSent() > 0);
        assertEquals(0, r.summary().drops());
    }

    @Test
    void ecnAndDcqcnSwitchOffOnTheirOwn() {
        // ECN on, DCQCN off: marks and CNPs flow but no sender changes its rate.
        Scenario s = ScenarioJson.parse(INCAST.replace("\"qos\": {", "\"qos\": {\"dcqcn\": {\"enabled\": false}, "),
                "x.json", null, star(7), null);
        SimResults r = run(s);
        assertTrue(r.summary().ecnMarked() > 0);
        assertTrue(r.flows().stream().allMatch(f -> f.rateCuts() == 0));
        // PFC off (lossy): pause frames disappear.
        Scenario t = ScenarioJson.parse(INCAST.replace("\"xoffBytes\": 200000, \"xonBytes\": 150000", "\"enabled\": false"),
                "x.json", null, star(7), null);
        assertEquals(0, run(t).summary().pauseFramesSent());
    }

    @Test
    void mtuBytesRunsTheScenariosFabricAtAnotherMtuButNeverChangesAFabricHandedIn() {
        Scenario s = ScenarioJson.parse(INCAST.replace("\"seed\": 7,", "\"seed\": 7, \"mtuBytes\": 1500,"), "m.json", null,
                star(7), null);
        assertEquals(1500, s.fabric().mtuBytes());
        Fabric open = TestFabrics.star(7, 100, 1.0, QosProfile.roceLossless("lossless", 100));
        int before = open.mtuBytes();
        Scenario o = ScenarioJson.parse(INCAST.replace("\"seed\": 7,", "\"seed\": 7, \"mtuBytes\": 1500,"), "m.json", null,
                star(7), open);
        assertEquals(before, o.fabric().mtuBytes());
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioJson.parse(
                INCAST.replace("\"seed\": 7,", "\"seed\": 7, \"mtuBytes\": 100,"), "bad.json", null, star(7), null));
        assertEquals("bad.json: $.mtuBytes: found 100, expected an integer 256 to 16384", e.getMessage());
        e = assertThrows(ScenarioException.class, () -> ScenarioJson.parse(
                INCAST.replace("\"seed\": 7,", "\"seed\": 7, \"mtuBytes\": 20000,"), "bad.json", null, star(7), null));
        assertEquals("bad.json: $.mtuBytes: found 20000, expected an integer 256 to 16384", e.getMessage());
    }

    @Test
    void badInputNamesTheFileThePathTheValueAndWhatIsAllowed() {
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioJson.parse(
                INCAST.replace("\"bytesPerSender\": 2000000", "\"bytesPerSender\": -5"), "bad.json", null, star(7), null));
        assertEquals("bad.json: $.workloads[0].bytesPerSender: found -5, expected an integer 1 to 1000000000000000", e.getMessage());
        e = assertThrows(ScenarioException.class, () -> ScenarioJson.parse(
                INCAST.replace("production-ecn", "fastest"), "bad.json", null, star(7), null));
        assertTrue(e.getMessage().contains("$.profile: found \"fastest\", expected one of paper, nic-firmware"), e.getMessage());
        e = assertThrows(ScenarioException.class, () -> ScenarioJson.parse(
                INCAST.replace("\"xoffBytes\"", "\"xoff\""), "bad.json", null, star(7), null));
        assertTrue(e.getMessage().startsWith("bad.json: $.qos.pfc.xoff: unknown field \"xoff\"; allowed: enabled, priorities"),
                e.getMessage());
        e = assertThrows(ScenarioException.class, () -> ScenarioJson.parse(
                INCAST.replace("s3:nic0", "s99:nic0"), "bad.json", null, star(7), null));
        assertTrue(e.getMessage().contains("$.workloads[0]: NIC 's99:nic0' is not in fabric"), e.getMessage());
        e = assertThrows(ScenarioException.class, () -> ScenarioJson.parse(
                INCAST.replace("\"schemaVersion\": 1", "\"schemaVersion\": 2"), "bad.json", null, star(7), null));
        assertEquals("bad.json: $.schemaVersion: found 2, expected 1", e.getMessage());
        e = assertThrows(ScenarioException.class, () -> ScenarioJson.parse("{\"schemaVersion\": 1,", "bad.json", null,
                star(7), null));
        assertTrue(e.getMessage().startsWith("bad.json: $: not valid JSON"), e.getMessage());
        e = assertThrows(ScenarioException.class, () -> ScenarioJson.parse(
                INCAST.replace("\"xonBytes\": 150000", "\"xonBytes\": 300000"), "bad.json", null, star(7), null));
        assertTrue(e.getMessage().contains("$.qos.pfc.xonBytes: XON 300000 B must be below XOFF"), e.getMessage());
    }

    @Test
    void aFabricPathIsResolvedAgainstTheScenarioDirectoryAndResultsGoToJsonAndCsv(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("fab.json"), "{}");
        Files.writeString(dir.resolve("sc.json"), INCAST.replace("{\"name\": \"inline\"}", "\"fab.json\""));
        Path[] seen = new Path[1];
        FabricReader reader = new FabricReader() {
            @Override
            public Fabric read(Path file) {
                seen[0] = file;
                return TestFabrics.star(7, 100, 1.0, QosProfile.roceLossless("lossless", 100));
            }

            @Override
            public Fabric read(JsonNode inline, String where) {
                throw new AssertionError("not inline");
            }
        };
        Scenario s = ScenarioJson.read(dir.resolve("sc.json"), reader);
        assertEquals(dir.resolve("fab.json").toAbsolutePath(), seen[0]);
        assertEquals(ScenarioJson.sha256(Files.readAllBytes(dir.resolve("sc.json"))), s.sha256());
        SimResults r = run(s);
        ResultsJson.write(r, new ResultsJson.Metadata("t", s.name(), "sc.json", s.sha256(), "star", s.profile()),
                dir.resolve("out/results.json"), false);
        ResultsJson.writeCsv(r, dir.resolve("csv"));
        String json = Files.readString(dir.resolve("out/results.json"));
        assertTrue(json.contains("\"scenarioSha256\" : \"" + s.sha256() + "\""));
        assertTrue(Files.readAllLines(dir.resolve("csv/queue_depth.csv")).size() > 10);
        assertFalse(Files.readAllLines(dir.resolve("csv/flows.csv")).get(1).isBlank());
        assertThrows(ScenarioException.class, () -> ScenarioJson.read(dir.resolve("sc.json"), FabricReader.NONE));
    }
}
