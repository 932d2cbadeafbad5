package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fabriclab.io.FabricReader;
import io.fabriclab.io.PriceBookFile;
import io.fabriclab.io.FabricJson;
import io.fabriclab.io.ResultsJson;
import io.fabriclab.io.Scenario;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Transport;
import io.fabriclab.report.TransportComparison;
import io.fabriclab.report.TransportRuns;
import io.fabriclab.sim.SimResults;

/**
 * The compare core the CLI and the app share (report.TransportRuns): run from outside the CLI it
 * gives the comparison {@code fabriclab compare} writes, figure for figure.
 */
class TransportRunsTest {
    private static final Path SCENARIO = Path.of("resources/scenarios/collective-alone.json");
    private static final List<Transport> ALL = List.of(Transport.ROCEV2, Transport.INFINIBAND, Transport.ULTRA_ETHERNET);

    @TempDir
    Path dir;

    @Test
    void theServiceGivesTheComparisonTheCliWrites() throws Exception {
        Path json = dir.resolve("cli.json");
        CliRun r = CliRun.of("compare", SCENARIO.toString(), "-o", json.toString(), "--quiet");
        assertEquals(0, r.code(), r.err());

        String text = Files.readString(SCENARIO, StandardCharsets.UTF_8);
        List<String> notes = new ArrayList<>();
        Map<Transport, Scenario> scenarios = TransportRuns.scenarios(text, SCENARIO.toString(),
                SCENARIO.toAbsolutePath().getParent(), FabricReader.FILES, null, ALL, notes::add);
        // Each transport's scenario is read as that transport.
        scenarios.forEach((t, s) -> assertEquals(t, s.transportName()));
        Map<Transport, Long> progressed = new ConcurrentHashMap<>();
        Map<Transport, SimResults> results = TransportRuns.run(scenarios, TransportRuns.simulated(ALL), 2,
                new TransportRuns.Listener() {
                    @Override
                    public void finished(Transport t, SimResults res) {
                        progressed.put(t, res.run().simulatedPs());
                    }
                });
        TransportComparison cmp = TransportRuns.comparison(scenarios, results, PriceBookFile.sample(), SCENARIO.toString());
        // The JSON holds every figure of every row: equal text, equal comparison.
        assertEquals(Files.readString(json), cmp.json(ResultsJson.fabriclabVersion()));
        assertEquals(3, progressed.size(), "every transport reported its end");
        assertEquals(List.of("rocev2", "infiniband", "ultra-ethernet"),
                cmp.rows().stream().map(x -> x.transport().jsonName()).toList());
    }

    @Test
    void anOpenFabricIsGivenToEachTransportAsItsOwnCopy() throws Exception {
        String text = """
                {"schemaVersion": 1, "name": "t", "fabric": "../examples/classic-leaf-spine.json",
                 "workloads": [{"type": "incast", "senders": ["server02:nic0"], "receiver": "server01:nic0", "bytesPerSender": 1000}]}
                """;
        Fabric open = FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json"));
        Map<Transport, Scenario> scenarios = TransportRuns.scenarios(text, "t.json", SCENARIO.toAbsolutePath().getParent(),
                FabricReader.FILES, open::copy, ALL, n -> { });
        assertNotSame(scenarios.get(Transport.ROCEV2).fabric(), scenarios.get(Transport.INFINIBAND).fabric());
        assertEquals(open.devices().size(), scenarios.get(Transport.ULTRA_ETHERNET).fabric().devices().size());
        assertTrue(scenarios.values().stream().allMatch(s -> s.fabric() != open));
    }
}
