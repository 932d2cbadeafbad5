package io.fabriclab.io;

import static io.fabriclab.io.ScenarioJsonTest.INCAST;
import static io.fabriclab.io.ScenarioJsonTest.star;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The scenario's switch settings: "switchLatencyNs", "routing.ibEngine", and the messages bad input gets. */
class ScenarioSwitchSettingsTest {

    private static Scenario parse(String extra) {
        return ScenarioJson.parse(INCAST.replace("\"seed\": 7,", "\"seed\": 7, " + extra), "s.json", null, star(7), null);
    }

    @Test
    void switchLatencyIsEachModelsUnlessTheScenarioSetsOne() {
        assertEquals(-1, parse("").switchLatencyPs());
        assertEquals(0, parse("\"switchLatencyNs\": 0,").switchLatencyPs());
        assertEquals(250_000, parse("\"switchLatencyNs\": 250,").switchLatencyPs());
    }

    @Test
    void aScenarioLatencyReachesTheSimulator() {
        // The scenario's latency is what the simulator runs with: the same as setting it on a
        // simulator of the default scenario, and different from each model's (300 ns here).
        for (long ns : new long[] {0, 2_000}) {
            Scenario set = parse("\"switchLatencyNs\": " + ns + ",");
            Scenario dflt = parse("");
            io.fabriclab.sim.Simulator direct = dflt.simulator(dflt.config());
            direct.setSwitchLatencyPs(ns * 1000);
            assertEquals(finishes(direct), finishes(set.simulator(set.config())), "switchLatencyNs " + ns);
            assertTrue(!finishes(dflt.simulator(dflt.config())).equals(finishes(set.simulator(set.config()))));
        }
    }

    private static java.util.List<Long> finishes(io.fabriclab.sim.Simulator sim) {
        return sim.run().flows().stream().map(f -> f.finishPs()).toList();
    }

    @Test
    void anInfinibandRunTakesTheSubnetManagersEngine() {
        Scenario s = parse("\"transport\": \"infiniband\", \"routing\": {\"ibEngine\": \"updn\", \"mode\": \"adaptive\"},");
        assertEquals(io.fabriclab.routing.IbRoutingEngine.UPDN, s.ibEngine());
        io.fabriclab.sim.Simulator sim = s.simulator(s.config());
        assertEquals(io.fabriclab.routing.IbRoutingEngine.UPDN, sim.forwardingTables().engine());
        assertEquals(io.fabriclab.routing.IbRoutingEngine.FTREE,
                parse("\"transport\": \"infiniband\", \"routing\": {\"ibEngine\": \"FTree\"},").ibEngine());
        // Without one, an InfiniBand run keeps the fabric's ECMP routing.
        Scenario plain = parse("\"transport\": \"infiniband\",");
        assertEquals(null, plain.ibEngine());
        assertEquals(null, plain.simulator(plain.config()).forwardingTables());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "\"transport\": \"infiniband\"‚ \"routing\": {\"ibEngine\": \"lash\"}, | s.json: $.routing.ibEngine: found \"lash\", expected one of minhop, updn, ftree (OpenSM's routing engines)",
            "\"transport\": \"infiniband\"‚ \"routing\": {\"ibEngine\": 1}, | s.json: $.routing.ibEngine: found 1, expected one of minhop, updn, ftree",
            "\"routing\": {\"ibEngine\": \"updn\"}, | s.json: $.routing.ibEngine: found \"updn\", expected no ibEngine unless $.transport.name is infiniband",
            "\"transport\": \"infiniband\"‚ \"routing\": {\"ibEngin\": \"updn\"}, | s.json: $.routing.ibEngin: unknown field \"ibEngin\"",
            "\"switchLatencyNs\": -1, | s.json: $.switchLatencyNs: found -1, expected an integer 0 to 100000",
            "\"switchLatencyNs\": 100001, | s.json: $.switchLatencyNs: found 100001, expected an integer 0 to 100000",
            "\"switchLatencyNs\": 1.5, | s.json: $.switchLatencyNs: found 1.5, expected an integer 0 to 100000",
            "\"switchLatencyNs\": \"fast\", | s.json: $.switchLatencyNs: found \"fast\", expected an integer 0 to 100000",
    })
    void badSwitchLatencyNamesFilePathAndWhatIsAllowed(String fields, String message) {
        // ‚ (a low quotation mark) stands for the commas inside a field of this table.
        String msg = assertThrows(ScenarioException.class, () -> parse(fields.replace('‚', ',') + " ")).getMessage();
        assertTrue(msg.contains(message), msg);
    }
}
