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
}
