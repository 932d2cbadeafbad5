package io.fabriclab.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

/** The published API: plan, specs, one run, the summary. */
class SweepApiTest {
    static final Path SWEEP = Path.of("resources/sweeps/ecn-kmin-kmax.json");

    @Test
    void theShippedGridHasNinePointsOfTwoSeedsEachWithItsValuesInItsScenario() throws Exception {
        SweepPlan plan = SweepPlan.read(SWEEP);
        assertEquals(9, plan.points());
        assertEquals(List.of(1L, 2L), plan.seeds());
        assertEquals(18, plan.runs().size());
        // Log range 20 KB to 200 KB in 3 values: 20000, sqrt(20000 x 200000) = 63245.55 -> 63246, 200000.
        // Grid order: last parameter fastest, so points 0..2 share Kmin 20000 and cycle Kmax.
        assertEquals(List.of("20000", "250000"), plan.pointValues(0));
        assertEquals(List.of("20000", "1000000"), plan.pointValues(1));
        assertEquals(List.of("63246", "250000"), plan.pointValues(3));
        assertEquals(List.of("200000", "20000000"), plan.pointValues(8));
        RunSpec r = plan.runs().get(7); // point 3, seed index 1
        assertEquals(3, r.point());
        assertEquals(1, r.seedIndex());
        assertEquals(2L, r.seed());
        JsonNode sc = SweepJson.MAPPER.readTree(r.scenarioJson());
        assertEquals(63246, sc.at("/qos/ecn/classes/3/kminBytes").asLong());
        assertEquals(250000, sc.at("/qos/ecn/classes/3/kmaxBytes").asLong());
        assertEquals(2, sc.get("seed").asLong());
        assertTrue(sc.get("fabric").isObject(), "the fabric is inlined");
        assertEquals(SweepJson.sha256(r.scenarioJson()), r.hash());
        assertEquals(r, plan.runs().get(7), "a spec is the same each time it is built");
        assertNotEquals(r.hash(), plan.runs().get(6).hash(), "another seed is another run");
    }

    @Test
    void oneRunIsDeterministicApartFromWallClockFields(@TempDir Path dir) throws Exception {
        SweepPlan plan = SweepPlan.read(SWEEP);
        RunSpec spec = plan.runs().get(0);
        RunRow a = SweepRunner.runOne(spec);
        RunRow b = SweepRunner.runOne(spec);
        assertEquals(RunRow.OK, a.status(), a.message());
        assertEquals(a.withoutWallClock(), b.withoutWallClock());
        assertEquals(a, RunRow.fromJson(a.toJson()));
        assertTrue(a.metric("ecnMarked") > 0, "Kmin 20 KB below XOFF 300 KB: ECN marks");
        assertEquals(0.0, a.metric("drops"));
        SweepSummary s = SweepSummary.write(plan, List.of(a), dir);
        assertEquals(1, s.points().get(0).runs());
        assertEquals(0, s.points().get(1).runs());
        assertTrue(Files.readString(dir.resolve(SweepSummary.POINTS_CSV)).startsWith("point,qos.ecn.classes.3.kminBytes,"));
        assertTrue(Files.readString(dir.resolve(SweepSummary.WALLCLOCK_CSV)).contains(a.ranBy()));
    }

    @Test
    void aRunIsBoundedByItsMemoryEstimate() throws Exception {
        SweepPlan plan = SweepPlan.read(SWEEP);
        RunSpec spec = plan.runs().get(0);
        io.fabriclab.io.Scenario sc = SweepRunner.read(spec);
        // ecn-too-high: maxTimeUs 20000 sampled every 5 us = 4000 instants, kept in at most 1024 points;
        // 8 flows. Estimate = 4 x links x 1024 x 16 B (port series) + 8 x (1024 x 16 + 2048) B (flows)
        // + links x 16384 B + 32 MiB.
        long links = sc.fabric().links().size();
        long expected = 4 * links * 1024 * 16 + 8 * (1024 * 16 + 2048) + links * 16384 + 32L * 1024 * 1024;
        assertEquals(expected, SweepRunner.memoryEstimate(sc));
        RunRow refused = SweepRunner.runOne(spec, expected - 1);
        assertEquals(RunRow.REFUSED, refused.status());
        assertTrue(refused.message().contains("more than the 0 MB") || refused.message().contains("a sweep's runs may use"),
                refused.message());
        assertTrue(refused.metrics().isEmpty());
    }

    @Test
    void randomAndLatinHypercubeDesignsAreReproducibleAndTheHypercubeUsesEveryStratumOnce(@TempDir Path dir) throws Exception {
        String scenario = Path.of("resources/scenarios/ecn-too-high.json").toAbsolutePath().toString().replace("\\", "\\\\");
        for (String design : List.of("random", "latin-hypercube")) {
            Path f = dir.resolve(design + ".json");
            Files.writeString(f, "{\"schemaVersion\": 1, \"scenario\": \"" + scenario + "\", \"parameters\": ["
                    + "{\"path\": \"qos.ecn.classes.3.kminBytes\", \"range\": {\"from\": 10000, \"to\": 1010000}},"
                    + "{\"path\": \"qos.ecn.classes.3.pmax\", \"distribution\": {\"type\": \"uniform\", \"min\": 0.1, \"max\": 0.5}}],"
                    + "\"design\": {\"type\": \"" + design + "\", \"points\": 10, \"seed\": 7}, \"metrics\": [\"drops\"]}");
            SweepPlan a = SweepPlan.read(f);
            SweepPlan b = SweepPlan.read(f);
            assertEquals(10, a.points());
            for (int p = 0; p < 10; p++) {
                assertEquals(a.pointValues(p), b.pointValues(p), "the same file gives the same points");
            }
            if (design.equals("latin-hypercube")) {
                // 10 strata of 100,000 B over [10,000, 1,010,000): each holds exactly one Kmin; and
                // 10 strata of 0.04 over [0.1, 0.5): each holds exactly one Pmax.
                java.util.Set<Long> kmin = new java.util.HashSet<>();
                java.util.Set<Long> pmax = new java.util.HashSet<>();
                for (int p = 0; p < 10; p++) {
                    kmin.add((Long.parseLong(a.pointValues(p).get(0)) - 10_000) / 100_000);
                    pmax.add((long) Math.floor((Double.parseDouble(a.pointValues(p).get(1)) - 0.1) / 0.04));
                }
                assertEquals(10, kmin.size());
                assertEquals(10, pmax.size());
            }
        }
    }

    /** Item 13 of issue 31: a resumed sweep trusted any run file that parsed (an edited run's negative metrics reached the summary). */
    @Test
    void aResumedSweepRefusesAnEditedRunFileRunsItAgainAndSaysWhatItReused(@TempDir Path dir) throws Exception {
        String scenario = Path.of("resources/scenarios/ecn-too-high.json").toAbsolutePath().toString().replace("\\", "\\\\");
        Path f = dir.resolve("one.json");
        Files.writeString(f, "{\"schemaVersion\": 1, \"scenario\": \"" + scenario + "\", \"parameters\": ["
                + "{\"path\": \"qos.ecn.classes.3.kminBytes\", \"values\": [20000]}], \"metrics\": [\"drops\"]}");
        SweepPlan plan = SweepPlan.read(f);
        Path out = dir.resolve("out");
        SweepRunner.Result first = SweepRunner.run(plan, out, 1, null);
        assertEquals(1, first.executed());
        Path runFile = SweepRunner.runFile(out, plan.run(0, 0).hash());
        String good = Files.readString(runFile);
        Files.writeString(runFile, good.replaceFirst("\"drops\" : [0-9.eE+-]+", "\"drops\" : -5"));
        List<String> rejected = new java.util.ArrayList<>();
        SweepRunner.Result second = SweepRunner.run(plan, out, 1, new SweepRunner.Listener() {
            @Override
            public void progress(int done, int running, int total, int reused, double etaSeconds) {
            }

            @Override
            public void rejected(Path file, String why) {
                rejected.add(file + ": " + why);
            }
        });
        assertEquals(List.of(runFile + ": metrics.drops: -5 is not allowed; allowed: a number >= 0, or null"), rejected);
        assertEquals(1, second.executed(), "simulated again");
        assertEquals(0.0, second.rows().get(0).metric("drops"));
        assertEquals(good.replaceAll("\"(wallMillis|ranBy)\" : [^,\\n]+", ""),
                Files.readString(runFile).replaceAll("\"(wallMillis|ranBy)\" : [^,\\n]+", ""), "the file replaced");
        SweepRunner.Result third = SweepRunner.run(plan, out, 1, null);
        assertEquals(1, third.reused());
        assertEquals("point 0 seed 1", SweepRunner.describe(third.reusedRows(), 10));
        // Other edits a file may carry: each refused with the field named.
        for (String[] edit : new String[][] {{"\"status\" : \"ok\"", "\"status\" : \"great\"", "status"},
                {"\"drops\" :", "\"dropz\" :", "metrics.dropz: not a metric"},
                {"\"seedIndex\" : 0", "\"seedIndex\" : -1", "seedIndex"}}) {
            String edited = good.replace(edit[0], edit[1]);
            java.io.IOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                    () -> RunRow.fromJson(edited.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            assertTrue(e.getMessage().startsWith(edit[2]), e.getMessage());
        }
    }
}
