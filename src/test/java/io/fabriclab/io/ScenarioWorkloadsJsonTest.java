package io.fabriclab.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.fabriclab.sim.RoutingMode;
import io.fabriclab.sim.SimResults;
import io.fabriclab.workload.Collective;
import io.fabriclab.workload.RingOrder;

/** Scenario syntax of routing modes, background load, bursts, collective channels and ring order, switch failures. */
class ScenarioWorkloadsJsonTest {
    static final String BASE = """
            {
              "schemaVersion": 1,
              "fabric": {"name": "inline"},
              "seed": 3,
              ROUTING
              "workloads": [WORKLOAD]
            }
            """;

    static Scenario parse(String routing, String workload) {
        return ScenarioJson.parse(BASE.replace("ROUTING", routing).replace("WORKLOAD", workload), "w.json", null,
                ScenarioJsonTest.star(8), null);
    }

    static String error(String routing, String workload) {
        return assertThrows(ScenarioException.class, () -> parse(routing, workload)).getMessage();
    }

    @Test
    void theNewWorkloadsAndRoutingModeReachTheSimulator() {
        Scenario s = parse("\"routing\": {\"mode\": \"spray\", \"reorderWindowPackets\": 64},",
                "{\"type\": \"allreduce\", \"name\": \"g\", \"ranks\": [\"s0:nic0\", \"s1:nic0\", \"s2:nic0\"], \"bytes\": 3000000,"
                        + " \"channels\": 2, \"ringOrder\": \"as-given\"},"
                        + "{\"type\": \"background\", \"sizes\": \"hadoop\", \"load\": 0.3, \"durationUs\": 200},"
                        + "{\"type\": \"microburst\", \"senders\": [\"s4:nic0\", \"s5:nic0\"], \"receiver\": \"s6:nic0\","
                        + " \"bytesPerSender\": 10000, \"periodUs\": 50, \"count\": 3},"
                        + "{\"type\": \"checkpoint\", \"clients\": [\"s4:nic0\", \"s5:nic0\"], \"targets\": [\"s7:nic0\"],"
                        + " \"bytesPerClient\": 100000}");
        assertEquals(RoutingMode.SPRAY, s.routing().mode());
        assertEquals(64, s.routing().reorderWindowPackets());
        Collective c = (Collective) s.workloads().get(0);
        assertEquals(2, c.channels());
        assertEquals(RingOrder.AS_GIVEN, c.order());
        // 2 channels x 4 steps x 3 ranks ring flows; 3 bursts x 2 microburst flows; 2 checkpoint writes.
        assertEquals(24, s.flows().stream().filter(f -> f.label().startsWith("allreduce")).count());
        assertEquals(6, s.flows().stream().filter(f -> f.label().equals("microburst")).count());
        assertEquals(2, s.flows().stream().filter(f -> f.label().equals("checkpoint") && f.priority() == 1).count());
        assertTrue(s.flows().stream().anyMatch(f -> f.label().equals("background") && f.priority() == 0));
        SimResults r = s.simulator(s.config()).run();
        assertEquals("spray", r.run().routing());
        assertEquals(3_000_000, r.collectives().get(0).bytes());
        assertEquals(4, r.collectives().get(0).steps().size());
        assertEquals(r.run().flows(), r.run().flowsCompleted());
    }

    @Test
    void ringsAreRailAwareByDefault() {
        Scenario s = parse("", "{\"type\": \"allgather\", \"bytes\": 800000}");
        assertEquals(RingOrder.RAIL_AWARE, ((Collective) s.workloads().get(0)).order());
    }

    @Test
    void badInputNamesThePathAndWhatIsAllowed() {
        assertEquals("w.json: $.routing.mode: found \"random\", expected one of ecmp, spray, flowlet, adaptive",
                error("\"routing\": {\"mode\": \"random\"},", "{\"type\": \"allgather\", \"bytes\": 800000}"));
        assertEquals("w.json: $.workloads[0].load: found 1.5, expected a fraction of each NIC's link rate, more than 0 and at most 1",
                error("", "{\"type\": \"background\", \"sizes\": \"websearch\", \"load\": 1.5, \"durationUs\": 100}"));
        assertTrue(error("", "{\"type\": \"background\", \"sizes\": \"video\", \"load\": 0.5, \"durationUs\": 100}")
                .startsWith("w.json: $.workloads[0].sizes: found \"video\", expected one of websearch, hadoop or an array"));
        assertEquals("w.json: $.workloads[0]: size CDF must start at 0 % and end at 100 %", error("",
                "{\"type\": \"background\", \"sizes\": [[0, 0], [1000, 90]], \"load\": 0.5, \"durationUs\": 100}")
                .replace(".sizes", ""));
        assertEquals("w.json: $.workloads[0].ringOrder: found \"random\", expected rail-aware or as-given",
                error("", "{\"type\": \"allreduce\", \"bytes\": 800000, \"ringOrder\": \"random\"}"));
        assertEquals("w.json: $.workloads[0].channels: found 0, expected an integer 1 to 64",
                error("", "{\"type\": \"allreduce\", \"bytes\": 800000, \"channels\": 0}"));
    }

    @Test
    void aSwitchFailureTakesEveryLinkOfTheSwitchDown() {
        Scenario s = ScenarioJson.parse(BASE.replace("ROUTING", "\"failures\": [{\"switch\": \"leaf0\", \"downAtUs\": 10}],")
                .replace("WORKLOAD", "{\"type\": \"allgather\", \"bytes\": 800000}"), "w.json", null, ScenarioJsonTest.star(8), null);
        assertEquals(8, s.failures().size());
        assertTrue(s.failures().stream().allMatch(f -> f.downPs() == 10_000_000L && f.degradedGbps() == 0));
        String e = assertThrows(ScenarioException.class, () -> ScenarioJson.parse(BASE.replace("ROUTING",
                "\"failures\": [{\"switch\": \"s0\", \"downAtUs\": 10}],").replace("WORKLOAD",
                "{\"type\": \"allgather\", \"bytes\": 800000}"), "w.json", null, ScenarioJsonTest.star(8), null)).getMessage();
        assertEquals("w.json: $.failures[0].switch: found \"s0\", expected the id of a switch in fabric 'star8'", e);
    }
}
