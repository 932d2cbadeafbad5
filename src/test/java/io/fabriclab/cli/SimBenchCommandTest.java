package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import io.fabriclab.io.FabricReader;
import io.fabriclab.io.Scenario;
import io.fabriclab.io.ScenarioJson;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code fabriclab bench sim}: the shipped bench scenarios are on the classpath and the command reports a run. */
class SimBenchCommandTest {
    /**
     * The shipped incast scenario {@code name} with a quarter of its bytes (8 x 0.5 MB instead of 8 x 2 MB),
     * under its own file name in {@code dir}: these tests check what the command prints and computes,
     * not the simulator's speed, and ran eleven full incasts (some 10 s of CPU) for it.
     */
    static String quarterIncast(Path dir, String name) throws java.io.IOException {
        Path shipped = Path.of("resources/scenarios", name);
        String json = java.nio.file.Files.readString(shipped);
        String fabric = shipped.toAbsolutePath().getParent().resolve("../examples/classic-leaf-spine.json").normalize()
                .toString().replace("\\", "/");
        String small = json.replace("\"bytesPerSender\": 2000000", "\"bytesPerSender\": 500000")
                .replace("\"../examples/classic-leaf-spine.json\"", "\"" + fabric + "\"");
        assertTrue(!small.equals(json) && small.contains("500000") && small.contains(fabric), "the scenario was shrunk: " + small);
        Path out = dir.resolve(name);
        java.nio.file.Files.writeString(out, small);
        return out.toString();
    }

    @Test
    void theShippedBenchScenariosAreTheReferenceScenarioAtBothMtus() throws Exception {
        for (String r : new String[] {SimBench.SCENARIO_9000, SimBench.SCENARIO_1500, SimBench.FABRIC}) {
            assertNotNull(SimBench.class.getResource("/fabriclab/" + r), r);
        }
        Scenario s9000 = ScenarioJson.read(Path.of("resources", SimBench.SCENARIO_9000), FabricReader.FILES);
        Scenario s1500 = ScenarioJson.read(Path.of("resources", SimBench.SCENARIO_1500), FabricReader.FILES);
        assertEquals(9000, s9000.fabric().mtuBytes());
        assertEquals(1500, s1500.fabric().mtuBytes());
        for (Scenario s : new Scenario[] {s9000, s1500}) {
            // 1024 hosts (k^3/4 for k = 16), each sends 2 MB to a distinct host, run to completion.
            assertEquals(1024, s.flows().size());
            assertEquals(1024, s.flows().stream().map(f -> f.dst()).distinct().count());
            assertTrue(s.flows().stream().allMatch(f -> f.bytes() == 2_000_000 && !f.src().equals(f.dst())));
            assertEquals(0, s.config().durationPs());
            var q = s.qos().qosFor(s.fabric().port(s.flows().get(0).src()));
            assertTrue(q.pfc().enabled() && q.ecn().enabled() && q.dcqcn().enabled(), "PFC + ECN + DCQCN on");
        }
    }

    @Test
    void benchSimRunsAScenarioAndReportsEventsCpuWallAndHeap(@TempDir Path dir) throws Exception {
        CliRun r = CliRun.of("bench", "sim", "--scenario", quarterIncast(dir, "incast-pfc-only.json"), "--runs", "1",
                "--heap-check");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("run 1 (cold): "), r.out());
        assertTrue(r.out().matches("(?s).*events, CPU [0-9.]+ s \\([0-9.]+ M events/s\\), wall [0-9.]+ s.*"), r.out());
        assertTrue(r.out().contains("completed: "), r.out());
        assertTrue(r.out().contains("8/8 flows"), r.out());
        assertTrue(r.out().contains("heap after full GC during the run (MB): "), r.out());
        assertTrue(r.out().contains("100% ("), r.out());
        assertTrue(r.out().contains("heap after full GC with the results released: "), r.out());
    }

    @Test
    void benchSimSummarisesTheWarmRuns(@TempDir Path dir) throws Exception {
        // Run 1 pays the JIT and is left out of the summary; with 3 runs the median of 2 is their mean.
        String incast = quarterIncast(dir, "incast-pfc-only.json");
        CliRun r = CliRun.of("bench", "sim", "--scenario", incast, "--runs", "3");
        assertEquals(0, r.code(), r.err());
        java.util.regex.Matcher m = java.util.regex.Pattern
                .compile("run ([23]): [0-9,]+ events, CPU [0-9.]+ s \\(([0-9.]+) M events/s\\)").matcher(r.out());
        double[] rates = new double[4];
        while (m.find()) {
            rates[Integer.parseInt(m.group(1))] = Double.parseDouble(m.group(2));
        }
        java.util.regex.Matcher sm = java.util.regex.Pattern
                .compile("warm runs \\(2\\.\\.3\\): median ([0-9.]+) M events/s of CPU, range ([0-9.]+)-([0-9.]+)")
                .matcher(r.out());
        assertTrue(sm.find(), r.out());
        // The printed rates are rounded to 0.01, so their mean may differ from the median by that.
        assertEquals((rates[2] + rates[3]) / 2, Double.parseDouble(sm.group(1)), 0.0100001, r.out());
        assertEquals(Math.min(rates[2], rates[3]), Double.parseDouble(sm.group(2)), 1e-9, r.out());
        assertEquals(Math.max(rates[2], rates[3]), Double.parseDouble(sm.group(3)), 1e-9, r.out());
        CliRun one = CliRun.of("bench", "sim", "--scenario", incast, "--runs", "1");
        assertTrue(!one.out().contains("warm runs"), "a single (cold) run has no warm summary");
    }

    @Test
    void severalScenariosAlternateAndTheLaterOnesAreRatiosOfTheFirst(@TempDir Path dir) throws Exception {
        // Two scenarios, 3 rounds: runs go A, B, A, B, A, B; each round's ratio B/A of CPU events/s, and
        // the printed figure is the median of rounds 2 and 3 (their mean), within the 0.01 rounding
        // of the printed rates it is recomputed from.
        String a = quarterIncast(dir, "incast-pfc-only.json");
        String b = quarterIncast(dir, "incast-pfc-dcqcn.json");
        CliRun r = CliRun.of("bench", "sim", "--scenario", a, "--scenario", b, "--runs", "3");
        assertEquals(0, r.code(), r.err());
        java.util.regex.Matcher m = java.util.regex.Pattern
                .compile("run ([123])(?: \\(cold\\))? (incast-[a-z-]+\\.json): [0-9,]+ events, CPU [0-9.]+ s \\(([0-9.]+) M events/s\\)")
                .matcher(r.out());
        java.util.List<String> order = new java.util.ArrayList<>();
        double[][] rates = new double[2][4];
        while (m.find()) {
            order.add(m.group(1) + m.group(2));
            rates[m.group(2).equals("incast-pfc-only.json") ? 0 : 1][Integer.parseInt(m.group(1))] = Double.parseDouble(m.group(3));
        }
        assertEquals(java.util.List.of("1incast-pfc-only.json", "1incast-pfc-dcqcn.json", "2incast-pfc-only.json", "2incast-pfc-dcqcn.json",
                "3incast-pfc-only.json", "3incast-pfc-dcqcn.json"), order, r.out());
        java.util.regex.Matcher rm = java.util.regex.Pattern
                .compile("incast-pfc-dcqcn\\.json / incast-pfc-only\\.json: median of per-round ratios of CPU events/s ([0-9.]+), range ([0-9.]+)-([0-9.]+)")
                .matcher(r.out());
        assertTrue(rm.find(), r.out());
        double r2 = rates[1][2] / rates[0][2];
        double r3 = rates[1][3] / rates[0][3];
        assertEquals((r2 + r3) / 2, Double.parseDouble(rm.group(1)), 0.02, r.out());
        assertEquals(Math.min(r2, r3), Double.parseDouble(rm.group(2)), 0.02, r.out());
        assertTrue(r.out().contains("warm runs (2..3) incast-pfc-dcqcn.json: median "), r.out());
    }

    @Test
    void onlyTheShippedMtusAreBenches() {
        CliRun r = CliRun.of("bench", "sim", "--mtu", "4200");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("the shipped benches are 9000 and 1500"), r.err());
    }
}
