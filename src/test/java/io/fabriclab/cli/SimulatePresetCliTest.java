package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fabriclab.io.FabricJson;
import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;
import io.fabriclab.sim.TestFabrics;

/**
 * {@code fabriclab simulate FABRIC --workload W}: each preset on the shipped 2 x 4 leaf-spine
 * (8 servers x one 100G NIC: server1:nic0 .. server8:nic0), the default output name, bad options.
 */
class SimulatePresetCliTest {
    static final Path FABRIC = Path.of("resources/examples/leaf-spine-2x4-100g.json");

    @TempDir
    Path dir;

    @AfterEach
    void back() {
        SimulateCommand.workingDirectory = Path.of("");
    }

    private JsonNode run(String out, String... args) throws Exception {
        String[] all = new String[args.length + 6];
        all[0] = "simulate";
        all[1] = FABRIC.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        all[args.length + 2] = "-o";
        all[args.length + 3] = dir.resolve(out).toString();
        all[args.length + 4] = "--quiet";
        all[args.length + 5] = "--reproducible";
        CliRun r = CliRun.of(all);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("completed after"), r.out());
        return new ObjectMapper().readTree(dir.resolve(out).toFile());
    }

    @Test
    void incastDefaultsToEverySenderTheFabricHasUpToEightOfOneMebibyte() throws Exception {
        JsonNode r = run("i.json", "--workload", "incast");
        // 8 NICs: the receiver is the first (server1:nic0); the default 8 senders are capped at the 7 others.
        assertEquals(7, r.at("/run/flows").asInt());
        assertEquals(7, r.at("/run/flowsCompleted").asInt());
        for (JsonNode f : r.get("flows")) {
            assertEquals("server1:nic0", f.get("dst").asText());
            assertEquals(1 << 20, f.get("bytes").asLong()); // 1 MiB per sender
            assertEquals(3, f.get("priority").asInt()); // the scenario default priority
        }
        assertEquals("leaf-spine-2x4-100g", r.at("/metadata/fabric").asText());
    }

    @Test
    void incastTakesSendersBytesAndPriority() throws Exception {
        JsonNode r = run("i.json", "--workload", "incast", "--senders", "3", "--bytes", "50000", "--priority", "0");
        assertEquals(3, r.at("/run/flows").asInt());
        Set<String> src = new HashSet<>();
        for (JsonNode f : r.get("flows")) {
            src.add(f.get("src").asText());
            assertEquals(50000, f.get("bytes").asLong());
            assertEquals(0, f.get("priority").asInt());
        }
        // The live view's choice (WorkloadPreset.incastNics): 3 of the 7 other servers spread evenly,
        // positions 1 + round(i x (8 - 2) / (3 - 1)) = 1, 4, 7 of the 8 servers' first NICs.
        assertEquals(Set.of("server2:nic0", "server5:nic0", "server8:nic0"), src);
    }

    @Test
    void allReduceIsARingOverEveryNic() throws Exception {
        JsonNode r = run("ar.json", "--workload", "all-reduce", "--bytes", "80000");
        JsonNode c = r.get("collectives").get(0);
        assertEquals("allreduce", c.get("kind").asText().toLowerCase().replace("-", "").replace("_", ""));
        assertEquals(8, c.get("ranks").asInt());
        assertEquals(80000, c.get("bytes").asLong());
        // One GPU per server (one NIC each): NCCL's ring over the 8 NICs, 2 channels; 2(n-1) = 14 steps,
        // each rank sends one flow per step and channel: 2 x 14 x 8 = 224 flows.
        assertEquals(224, r.at("/run/flows").asInt());
        assertTrue(c.get("timePs").asLong() > 0);
    }

    @Test
    void allToAllSendsFromEveryRankToEveryOther() throws Exception {
        JsonNode r = run("a2a.json", "--workload", "all-to-all", "--bytes", "80000");
        assertEquals(8, r.get("collectives").get(0).get("ranks").asInt());
        // 8 ranks, each to the 7 others: 56 flows of ceil(80000 / 8) = 10000 B.
        assertEquals(56, r.at("/run/flows").asInt());
        assertEquals(10000, r.get("flows").get(0).get("bytes").asLong());
    }

    @Test
    void permutationIsASeededDerangement() throws Exception {
        JsonNode r = run("p.json", "--workload", "permutation", "--bytes", "100000", "--seed", "7");
        assertEquals(8, r.at("/run/flows").asInt());
        Set<String> src = new HashSet<>();
        Set<String> dst = new HashSet<>();
        for (JsonNode f : r.get("flows")) {
            assertFalse(f.get("src").asText().equals(f.get("dst").asText()), "a derangement sends to another NIC");
            src.add(f.get("src").asText());
            dst.add(f.get("dst").asText());
        }
        assertEquals(8, src.size());
        assertEquals(8, dst.size());
        assertEquals(7, r.at("/run/seed").asLong());
        JsonNode again = run("p2.json", "--workload", "permutation", "--bytes", "100000", "--seed", "7");
        assertEquals(r.get("flows").toString(), again.get("flows").toString(), "same seed, same permutation");
    }

    @Test
    void aSavedPresetIsAScenarioFileThatRunsTheSameFlows() throws Exception {
        Path saved = dir.resolve("sub/preset.json");
        JsonNode r = run("p.json", "--workload", "permutation", "--bytes", "100000", "--seed", "3",
                "--save-scenario", saved.toString());
        JsonNode sc = new ObjectMapper().readTree(saved.toFile());
        assertEquals("permutation", sc.at("/workloads/0/type").asText());
        assertEquals(3, sc.get("seed").asLong());
        // The fabric is named relative to the scenario's directory, so the file runs where it was written.
        assertEquals(saved.getParent().relativize(FABRIC.toAbsolutePath()).toString(), sc.get("fabric").asText());
        CliRun again = CliRun.of("simulate", saved.toString(), "-o", dir.resolve("p2.json").toString(), "--quiet",
                "--reproducible");
        assertEquals(0, again.code(), again.err());
        JsonNode r2 = new ObjectMapper().readTree(dir.resolve("p2.json").toFile());
        assertEquals(r.get("flows").toString(), r2.get("flows").toString());
        assertEquals(r.at("/metadata/scenarioSha256").asText(), r2.at("/metadata/scenarioSha256").asText(),
                "the preset's text is the saved file's");
    }

    @Test
    void withoutOutputTheResultsGoToFabricNameWorkloadResults() throws Exception {
        SimulateCommand.workingDirectory = dir;
        CliRun r = CliRun.of("simulate", FABRIC.toString(), "--workload", "permutation", "--bytes", "20000", "--quiet");
        assertEquals(0, r.code(), r.err());
        Path expected = dir.resolve("leaf-spine-2x4-100g-permutation-results.json");
        assertTrue(Files.isRegularFile(expected), r.out());
        assertTrue(r.out().contains("results: " + expected), r.out());
        assertEquals("leaf-spine-2x4-100g-all-reduce-results.json",
                ScenarioPreset.defaultOutputName("leaf-spine-2x4-100g", ScenarioPreset.Kind.ALL_REDUCE));
        assertEquals("my-fabric--1-incast-results.json",
                ScenarioPreset.defaultOutputName("my fabric/#1", ScenarioPreset.Kind.INCAST));
    }

    @Test
    void theDefaultOutputNeverOverwritesTheFabric() throws Exception {
        // A fabric file that happens to carry the default name in the current directory.
        Path f = dir.resolve("leaf-spine-2x4-100g-incast-results.json");
        Files.copy(FABRIC, f);
        byte[] before = Files.readAllBytes(f);
        SimulateCommand.workingDirectory = dir;
        CliRun r = CliRun.of("simulate", f.toString(), "--workload", "incast", "--quiet");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("is an input of this run"), r.err());
        assertEquals(new String(before), Files.readString(f));
    }

    @Test
    void badOptionsAreRefusedNamingTheOptionAndWhatIsAllowed() {
        CliRun r = CliRun.of("simulate", FABRIC.toString(), "--workload", "ring", "-o", dir.resolve("x.json").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("'ring' is not a preset workload; one of incast, all-reduce, all-to-all, permutation"), r.err());

        r = CliRun.of("simulate", FABRIC.toString(), "--workload", "incast", "--senders", "8", "-o", dir.resolve("x.json").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--senders 8: allowed 1 to 7"), r.err());

        r = CliRun.of("simulate", FABRIC.toString(), "--workload", "incast", "--priority", "9", "-o", dir.resolve("x.json").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--priority: found 9, expected an integer 0 to 7"), r.err());

        r = CliRun.of("simulate", FABRIC.toString(), "--workload", "all-reduce", "--profile", "nope", "-o", dir.resolve("x.json").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--profile: found \"nope\", expected one of"), r.err());

        r = CliRun.of("simulate", FABRIC.toString(), "--workload", "all-reduce", "--senders", "3", "-o", dir.resolve("x.json").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--senders applies to --workload incast only"), r.err());

        // Preset options without --workload, and a scenario without -o: refused, not ignored.
        r = CliRun.of("simulate", "resources/scenarios/incast-pfc-only.json", "--bytes", "5", "-o", dir.resolve("x.json").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--bytes only with --workload"), r.err());
        r = CliRun.of("simulate", "resources/scenarios/incast-pfc-only.json");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("-o RESULTS is required when simulating a scenario file"), r.err());
        assertFalse(Files.exists(dir.resolve("x.json")));
    }

    @Test
    void aFabricWithoutWorkloadOrAScenarioWithItGetsAHint() {
        CliRun r = CliRun.of("simulate", FABRIC.toString(), "-o", dir.resolve("x.json").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("hint: " + FABRIC + " is a fabric file; add --workload"), r.err());
        r = CliRun.of("simulate", "resources/scenarios/incast-pfc-only.json", "--workload", "incast",
                "-o", dir.resolve("x.json").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("is a scenario file; run it without --workload"), r.err());
        assertFalse(Files.exists(dir.resolve("x.json")));
    }

    @Test
    void nicsThatCannotReachOneAnotherAreRefused() throws Exception {
        // Two stars with no link between them: s0, s1 on leaf0 and t0, t1 on leaf1.
        Fabric f = TestFabrics.star(2, 100, 1.0, QosProfile.roceLossless("lossless", 100));
        Device leaf1 = f.addDevice("leaf1", DeviceRole.LEAF);
        leaf1.addPorts("eth", 0, 2, 100);
        for (int i = 0; i < 2; i++) {
            Device t = TestFabrics.server(f, "t" + i, 100);
            f.connect(t.port("nic0"), leaf1.port("eth" + i), 100, 1.0);
        }
        Path file = dir.resolve("islands.json");
        Files.writeString(file, FabricJson.write(f));
        CliRun r = CliRun.of("simulate", file.toString(), "--workload", "all-to-all", "-o", dir.resolve("x.json").toString(),
                "--save-scenario", dir.resolve("s.json").toString());
        assertEquals(2, r.code(), r.out());
        assertFalse(Files.exists(dir.resolve("s.json")), "a refused preset saves no scenario");
        assertTrue(r.err().contains("no route between"), r.err());
        assertTrue(r.err().contains("the preset needs NICs that can reach one another"), r.err());
        assertFalse(Files.exists(dir.resolve("x.json")));
    }
}
