package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fabriclab.sweep.SweepRunner;
import io.fabriclab.sweep.SweepSummary;

/**
 * {@code fabriclab report ... --sweep SWEEP DIR}: a finished sweep becomes a section of the design
 * review with the same per-point figures as the sweep's own summary; an unfinished one is refused
 * (exit 2, nothing written).
 */
class ReportSweepTest {
    static final String SCENARIO = "resources/scenarios/ecn-too-high.json";

    /** 2 points x 2 seeds of the ECN Kmin: the shortest sweep whose table has intervals (mean \u00b1 half-width). */
    private static Path sweepFile(Path tmp) throws Exception {
        Path f = tmp.resolve("kmin.json");
        Files.writeString(f, "{\"schemaVersion\": 1, \"name\": \"kmin-check\", \"scenario\": \""
                + Path.of(SCENARIO).toAbsolutePath().toString().replace("\\", "\\\\") + "\", \"parameters\": ["
                + "{\"path\": \"qos.ecn.classes.3.kminBytes\", \"values\": [50000, 200000]},"
                + "{\"path\": \"qos.ecn.classes.3.kmaxBytes\", \"values\": [400000]}],"
                + "\"seeds\": [1, 2], \"metrics\": [\"fctP99Us\", \"drops\"]}");
        return f;
    }

    @Test
    void aFinishedSweepIsASectionWithTheSweepsOwnFigures(@TempDir Path tmp) throws Exception {
        Path sweep = sweepFile(tmp);
        Path dir = tmp.resolve("out");
        CliRun s = CliRun.of("sweep", sweep.toString(), "-o", dir.toString(), "--workers", "1", "--quiet", "--no-charts");
        assertEquals(0, s.code(), s.err());

        Path html = tmp.resolve("review.html");
        CliRun r = CliRun.of("report", SCENARIO, "--sweep", sweep.toString(), dir.toString(), "-o", html.toString(),
                "--quiet", "--no-failure-sweep");
        assertTrue(r.code() == 0 || r.code() == 1, r.err());
        String text = Files.readString(html);
        assertTrue(text.contains("<h2>Sweep: kmin-check</h2>"), "the section is there");
        assertTrue(text.contains("2 points x 2 seeds"), "the design line");
        // Every point's fctP99Us mean as the sweep's own summary-points.csv gives it (same rows, same statistic).
        List<String> csv = Files.readAllLines(dir.resolve(SweepSummary.POINTS_CSV));
        List<String> head = List.of(csv.get(0).split(","));
        int col = head.indexOf("fctP99Us.mean");
        assertTrue(col > 0, "summary-points.csv has fctP99Us.mean: " + head);
        assertEquals(3, csv.size(), "2 points");
        for (String line : csv.subList(1, csv.size())) {
            double mean = Double.parseDouble(line.split(",")[col]);
            String cell = io.fabriclab.sweep.SweepSummary.plain(mean) + " \u00b1 ";
            assertTrue(text.contains("<td class=\"num\">" + cell), "point mean " + cell + " in the report");
        }
        assertTrue(text.indexOf("id=\"sweep\"") < text.indexOf("id=\"findings\""), "before the findings");

        // The PDF renderer parses the report as XML: the section must be well-formed XHTML (no HTML-only
        // entities such as &plusmn;). Parsing the whole report is what the renderer does first.
        javax.xml.parsers.DocumentBuilderFactory f = javax.xml.parsers.DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        f.newDocumentBuilder().parse(html.toFile());
    }

    @Test
    void anUnfinishedSweepIsRefusedAndNothingWritten(@TempDir Path tmp) throws Exception {
        Path sweep = sweepFile(tmp);
        Path dir = tmp.resolve("out");
        Files.createDirectories(dir.resolve(SweepRunner.RUNS_DIR)); // the sweep never ran
        Path html = tmp.resolve("review.html");
        CliRun r = CliRun.of("report", SCENARIO, "--sweep", sweep.toString(), dir.toString(), "-o", html.toString(), "--quiet");
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("4 of 4 runs are not finished in " + dir), r.err());
        assertTrue(r.err().contains("fabriclab sweep " + sweep + " -o " + dir), r.err());
        assertFalse(Files.exists(html));

        CliRun notDir = CliRun.of("report", SCENARIO, "--sweep", sweep.toString(), tmp.resolve("nope").toString(), "-o",
                html.toString(), "--quiet");
        assertEquals(ExitCode.BAD_INPUT, notDir.code(), notDir.err());
        assertTrue(notDir.err().contains("is not a directory"), notDir.err());
        assertFalse(Files.exists(html));
    }
}
