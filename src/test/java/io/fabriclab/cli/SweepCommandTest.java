package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad sweep files: exit 2, the file and the JSON path named, nothing run. */
class SweepCommandTest {
    static final String SCENARIO = Path.of("resources/scenarios/ecn-too-high.json").toAbsolutePath().toString()
            .replace("\\", "\\\\");

    static Path sweep(Path dir, String parameters, String extra) throws Exception {
        Path f = dir.resolve("s.json");
        Files.writeString(f, "{\"schemaVersion\": 1, \"scenario\": \"" + SCENARIO + "\", \"parameters\": [" + parameters
                + "], \"metrics\": [\"fctP99Us\"]" + extra + "}");
        return f;
    }

    static void assertBad(CliRun r, Path file, String jsonPath, String words) {
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains(file + ": " + jsonPath + ": "), r.err());
        assertTrue(r.err().contains(words), r.err());
    }

    @Test
    void anUnknownJsonPathIsNamedWithTheFieldsThatExist(@TempDir Path dir) throws Exception {
        Path f = sweep(dir, "{\"path\": \"qos.ecnn.classes.3.kminBytes\", \"values\": [1000, 2000]}", "");
        CliRun r = CliRun.of("sweep", f.toString(), "-o", dir.resolve("out").toString());
        assertBad(r, f, "$.parameters[0].path", "unknown JSON path: $.qos has no field \"ecnn\"");
        assertTrue(r.err().contains("allowed: the fields at $.qos: pfc, ecn"), r.err());
        assertFalse(Files.exists(dir.resolve("out")), "nothing written");
    }

    @Test
    void aFabricQosProfilePathThatDoesNotExistIsRefused(@TempDir Path dir) throws Exception {
        Path f = sweep(dir, "{\"path\": \"qosProfiles.no-such-profile.ecn.classes.3.kminBytes\", \"values\": [1000]}", "");
        assertBad(CliRun.of("sweep", f.toString(), "-o", dir.resolve("out").toString()), f, "$.parameters[0].path",
                "has no field \"no-such-profile\"");
    }

    @Test
    void anEmptyRangeIsRefused(@TempDir Path dir) throws Exception {
        Path f = sweep(dir, "{\"path\": \"qos.ecn.classes.3.kminBytes\", \"range\": {\"from\": 5000, \"to\": 5000, \"count\": 3}}", "");
        assertBad(CliRun.of("sweep", f.toString(), "-o", dir.resolve("out").toString()), f, "$.parameters[0].range",
                "is an empty range");
        Path g = sweep(dir, "{\"path\": \"qos.ecn.classes.3.kminBytes\", \"values\": []}", "");
        assertBad(CliRun.of("sweep", g.toString(), "-o", dir.resolve("out").toString()), g, "$.parameters[0].values",
                "is an empty list");
    }

    @Test
    void aValueOfTheWrongTypeIsRefused(@TempDir Path dir) throws Exception {
        Path f = sweep(dir, "{\"path\": \"qos.ecn.classes.3.kminBytes\", \"values\": [100000, \"100 KB\"]}", "");
        assertBad(CliRun.of("sweep", f.toString(), "-o", dir.resolve("out").toString()), f, "$.parameters[0].values[1]",
                "wrong value type: a string where the scenario has a number (5000000)");
    }

    @Test
    void aValueTheScenarioReaderRefusesIsNamedWithThePoint(@TempDir Path dir) throws Exception {
        // Kmax 1 MB below the scenario's Kmin 5 MB: each value is a number, the combination does not read.
        Path f = sweep(dir, "{\"path\": \"qos.ecn.classes.3.kmaxBytes\", \"values\": [1000000, 30000000]}", "");
        CliRun r = CliRun.of("sweep", f.toString(), "-o", dir.resolve("out").toString());
        assertBad(r, f, "$.parameters", "point 0 (qos.ecn.classes.3.kmaxBytes = 1000000) gives a scenario that does not read");
        assertTrue(r.err().contains("Kmin 5000000 B must be below Kmax 1000000 B"), r.err());
    }

    @Test
    void aGridOfTenMillionPointsNeedsYes(@TempDir Path dir) throws Exception {
        // 10,000 Kmin values x 1,000 Kmax values = 10^7 points.
        Path f = sweep(dir, "{\"path\": \"qos.ecn.classes.3.kminBytes\", \"range\": {\"from\": 1000, \"to\": 200000, \"count\": 10000}},"
                + "{\"path\": \"qos.ecn.classes.3.kmaxBytes\", \"range\": {\"from\": 300000, \"to\": 30000000, \"count\": 1000}}", "");
        assertBad(CliRun.of("sweep", f.toString(), "-o", dir.resolve("out").toString()), f, "$.design",
                "the grid has 10000000 points x 1 seed = 10000000 runs; more than 10000 runs need confirming");
        assertFalse(Files.exists(dir.resolve("out")));
    }

    @Test
    void aConstraintOrMetricOnAnUnknownMetricIsRefused(@TempDir Path dir) throws Exception {
        Path f = sweep(dir, "{\"path\": \"qos.ecn.classes.3.kminBytes\", \"values\": [100000]}",
                ", \"constraints\": [{\"metric\": \"dropz\", \"max\": 0}]");
        CliRun r = CliRun.of("sweep", f.toString(), "-o", dir.resolve("out").toString());
        assertBad(r, f, "$.constraints[0].metric", "unknown metric \"dropz\"");
        assertTrue(r.err().contains("allowed: fctP50Us, fctP99Us"), r.err());
    }

    @Test
    void aGridNeedsFiniteValuesAndUnknownFieldsAreNamed(@TempDir Path dir) throws Exception {
        Path f = sweep(dir, "{\"path\": \"qos.ecn.classes.3.pmax\", \"distribution\": {\"type\": \"uniform\", \"min\": 0.01, \"max\": 0.5}}",
                ", \"desing\": \"grid\"");
        CliRun r = CliRun.of("sweep", f.toString(), "-o", dir.resolve("out").toString());
        assertBad(r, f, "$.desing", "unknown field \"desing\"");
        assertTrue(r.err().contains(f + ": $.parameters[0]: a grid needs a finite set of values"), r.err());
    }

    @Test
    void aGoodSweepWritesTablesChartsAndTheReportSectionAndASecondRunRunsNothing(@TempDir Path dir) throws Exception {
        Path f = sweep(dir, "{\"path\": \"qos.ecn.classes.3.kminBytes\", \"name\": \"Kmin\", \"values\": [50000, 200000]},"
                + "{\"path\": \"qos.ecn.classes.3.kmaxBytes\", \"name\": \"Kmax\", \"values\": [400000, 30000000]}",
                ", \"objectives\": [{\"metric\": \"fctP99Us\"}, {\"metric\": \"pausedUs\"}]");
        Path out = dir.resolve("out");
        CliRun r = CliRun.of("sweep", f.toString(), "-o", out.toString(), "--workers", "2");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("4 runs (4 run now, 0 already done, 0 not ok)"), r.out());
        for (String chart : new String[] {"fctp99us-by-kmin", "heatmap-fctp99us", "pareto-fctp99us-pausedus"}) {
            assertTrue(Files.size(out.resolve("charts/" + chart + ".svg")) > 1000, chart);
            assertTrue(Files.size(out.resolve("charts/" + chart + ".png")) > 1000, chart);
        }
        String html = Files.readString(out.resolve("report.html"));
        assertTrue(html.contains("<h2>Sweep: s</h2>") && html.contains("<svg") && html.contains("qos.ecn.classes.3.kmaxBytes"), html);
        String points = Files.readString(out.resolve("summary-points.csv"));
        CliRun again = CliRun.of("sweep", f.toString(), "-o", out.toString(), "--no-charts");
        assertEquals(0, again.code(), again.err());
        assertTrue(again.out().contains("4 runs (0 run now, 4 already done, 0 not ok)"), again.out());
        assertEquals(points, Files.readString(out.resolve("summary-points.csv")));
    }

    @Test
    void tuneRefusesAnUnknownObjectiveOrConstraintBeforeRunningAnything(@TempDir Path dir) {
        CliRun a = CliRun.of("tune", "resources/scenarios/ecn-too-high.json", "--objective", "pausedTime", "-o", dir.toString());
        assertEquals(ExitCode.BAD_INPUT, a.code(), a.err());
        assertTrue(a.err().contains("--objective pausedTime: unknown metric; allowed: fctP50Us"), a.err());
        CliRun b = CliRun.of("tune", "resources/scenarios/ecn-too-high.json", "--objective", "pausedUs", "--constraint", "dropz<=0",
                "-o", dir.toString());
        assertEquals(ExitCode.BAD_INPUT, b.code(), b.err());
        assertTrue(b.err().contains("--constraint dropz<=0: unknown metric dropz"), b.err());
        CliRun c = CliRun.of("tune", "resources/scenarios/ecn-too-high.json", "--objective", "pausedUs", "--constraint", "drops<0",
                "-o", dir.toString());
        assertEquals(ExitCode.BAD_INPUT, c.code(), c.err());
        assertFalse(Files.exists(dir.resolve("runs")), "nothing run");
    }

    @Test
    void progressIsOneUpdatingLineOnATerminalAndPlainLinesWhenPiped() {
        java.io.StringWriter piped = new java.io.StringWriter();
        SweepCommand.Progress p = new SweepCommand.Progress(new java.io.PrintWriter(piped), false);
        p.progress(0, 2, 4, 0, Double.NaN);
        p.progress(1, 2, 4, 1, 3.0);
        p.progress(1, 1, 4, 1, 3.0); // nothing finished since the last line: no new line
        p.progress(4, 0, 4, 1, 0.0);
        p.finish();
        assertEquals("0/4 done (0 already done before), 2 running, ETA ?\n"
                + "1/4 done (1 already done before), 2 running, ETA 3 s\n"
                + "4/4 done (1 already done before), 0 running, ETA 0 s\n", piped.toString());
        java.io.StringWriter tty = new java.io.StringWriter();
        SweepCommand.Progress t = new SweepCommand.Progress(new java.io.PrintWriter(tty), true);
        t.progress(2, 2, 4, 0, 10.0);
        t.finish();
        assertEquals("\r[###############...............] 2/4 done (0 already done before), 2 running, ETA 10 s   \n", tty.toString());
    }
}
