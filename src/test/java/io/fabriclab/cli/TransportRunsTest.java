package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
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
import io.fabriclab.io.ScenarioJson;
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

        List<String> notes = new ArrayList<>();
        Map<Transport, Scenario> scenarios = TransportRuns.scenarios(ScenarioJson.read(SCENARIO, FabricReader.FILES),
                ALL, notes::add);
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

    /**
     * A transport variant is a typed edit (Scenario.withTransport), never a rewrite of the file's
     * text, and runs as the same scenario written for that transport does: byte-identical results.
     */
    @Test
    void aTransportVariantRunsAsTheFileWrittenForThatTransport() throws Exception {
        Path fabric = Path.of("resources/examples/classic-leaf-spine.json").toAbsolutePath();
        String body = """
                 "fabric": "%s", "seed": 3,
                 "workloads": [{"type": "incast", "senders": ["server02:nic0", "server03:nic0"],
                                "receiver": "server01:nic0", "bytesPerSender": 200000}]}
                """.formatted(fabric.toString().replace("\\", "/"));
        Path roce = Files.writeString(dir.resolve("roce.json"), "{\"schemaVersion\": 1, \"name\": \"v\", \"transport\": \"rocev2\",\n" + body);
        Scenario base = ScenarioJson.read(roce, FabricReader.FILES);
        for (Transport t : ALL) {
            Path own = Files.writeString(dir.resolve(t.jsonName() + ".json"), "{\"schemaVersion\": 1, \"name\": \"v\", "
                    + "\"transport\": \"" + t.jsonName() + "\",\n" + body);
            Scenario read = ScenarioJson.read(own, FabricReader.FILES);
            Scenario variant = base.withTransport(t, n -> { });
            assertEquals(read.transport(), variant.transport(), t.jsonName());
            assertEquals(read.warnings().size(), variant.warnings().size(), t.jsonName());
            assertEquals(results(read), results(variant), t.jsonName() + ": the variant runs as the file does");
        }
        assertSame(base, base.withTransport(Transport.ROCEV2, n -> { }), "its own transport: the scenario as it is");
    }

    /** Settings of another transport are left out of a variant, and a note says so when one routed the run. */
    @Test
    void settingsOfAnotherTransportAreLeftOutOfAVariant() throws Exception {
        Path fabric = Path.of("resources/examples/classic-leaf-spine.json").toAbsolutePath();
        Path ib = Files.writeString(dir.resolve("ib.json"), """
                {"schemaVersion": 1, "name": "ib", "fabric": "%s",
                 "transport": {"name": "infiniband", "vlBufferBytes": 65536, "congestionControl": true},
                 "routing": {"ibEngine": "ftree"},
                 "workloads": [{"type": "incast", "senders": ["server02:nic0"], "receiver": "server01:nic0", "bytesPerSender": 1000}]}
                """.formatted(fabric.toString().replace("\\", "/")));
        Scenario s = ScenarioJson.read(ib, FabricReader.FILES);
        List<String> notes = new ArrayList<>();
        Scenario roce = s.withTransport(Transport.ROCEV2, notes::add);
        assertEquals(io.fabriclab.sim.TransportProfile.of(Transport.ROCEV2), roce.transport());
        assertNull(roce.ibEngine());
        assertTrue(notes.stream().anyMatch(n -> n.contains("ibEngine")), notes.toString());
        // Back on InfiniBand it has InfiniBand's defaults, not the file's VL buffer.
        Scenario back = roce.withTransport(Transport.INFINIBAND, n -> { });
        assertEquals(Scenario.defaultTransport(Transport.INFINIBAND, s.fabric().mtuBytes()), back.transport());
        assertEquals(s.sha256(), roce.sha256(), "the hash stays the file's");
    }

    private int written;

    private String results(Scenario s) throws Exception {
        SimResults r = io.fabriclab.app.RunService.prepare(io.fabriclab.app.RunService.Request.of(s)).run(null);
        Path f = dir.resolve("results-" + written++ + ".json");
        ResultsJson.write(r, new ResultsJson.Metadata("x", "v", "v", "-", s.fabric().name(), s.profile()), f, true,
                Map.of());
        return Files.readString(f);
    }
}
