package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import io.fabriclab.io.FabricReader;
import io.fabriclab.io.ResultsJson;
import io.fabriclab.io.Scenario;
import io.fabriclab.io.ScenarioJson;

import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.text.PDFTextStripper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `fabriclab report`: exit codes, results files from simulate, the comparison, bad input. */
class ReportCommandTest {

    @Test
    void aFabricGetsAnHtmlReportAndExitZeroWhenNoCheckFails(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("classic.html");
        CliRun r = CliRun.of("report", "resources/examples/classic-leaf-spine.json", "-o", out.toString(), "--quiet",
                "--author", "A. Reviewer", "--date", "2026-02-03");
        assertEquals(0, r.code(), r.err());
        String html = Files.readString(out);
        assertTrue(html.contains("A. Reviewer") && html.contains("2026-02-03"));
        // No failure or warning, the checklist not simulated: the verdict says so and lists no zero counts.
        assertTrue(r.out().contains(": ready pending simulation (") && !r.out().contains("failure")
                && !r.out().contains("warning"), r.out());
    }

    @Test
    void aFabricThatDeadlocksAfterAFailureExitsOne(@TempDir Path tmp) {
        CliRun r = CliRun.of("report", "resources/examples/deadlock-after-failure.json", "-o", tmp.resolve("d.html").toString(),
                "--quiet");
        assertEquals(1, r.code(), r.err() + r.out());
        assertTrue(Files.exists(tmp.resolve("d.html")), "the report is written all the same");
    }

    @Test
    void twoResultsFilesGiveAPdfWithTheComparison(@TempDir Path tmp) throws Exception {
        Path a = tmp.resolve("pfc.json");
        Path b = tmp.resolve("ecn.json");
        simulate("resources/scenarios/incast-pfc-only.json", a);
        simulate("resources/scenarios/incast-pfc-dcqcn.json", b);
        Path out = tmp.resolve("cmp.pdf");
        CliRun r = CliRun.of("report", "resources/scenarios/incast-pfc-dcqcn.json", "--results", a.toString(), b.toString(),
                "-o", out.toString(), "--quiet", "--no-failure-sweep");
        assertTrue(r.code() == 0 || r.code() == 1, r.err());
        try (PDDocument doc = Loader.loadPDF(Files.readAllBytes(out))) {
            String text = new PDFTextStripper().getText(doc).replaceAll("\\s+", " ");
            assertTrue(text.contains("Comparison of runs"));
            assertTrue(text.contains("R1: 8:1 incast, PFC only") || text.contains("R1: "), "run labels");
            // Both runs cover the incast item of the checklist, so it is not "not simulated".
            assertFalse(text.contains("not simulated: no results given cover it (many senders"), "incast covered");
        }
    }

    /** What `fabriclab simulate -o` writes (in-process, without the command's swappable fabric reader). */
    private static void simulate(String scenario, Path out) throws Exception {
        Path file = Path.of(scenario);
        Scenario s = ScenarioJson.read(file, FabricReader.FILES);
        ResultsJson.write(s.simulator(s.config()).run(), new ResultsJson.Metadata(ResultsJson.fabriclabVersion(), s.name(),
                file.toString(), s.sha256(), s.fabric().name(), s.profile()), out, true);
    }

    @Test
    void badInputIsExitTwoWithAClearMessage(@TempDir Path tmp) {
        CliRun ext = CliRun.of("report", "resources/examples/rail-1su.json", "-o", tmp.resolve("r.docx").toString());
        assertEquals(2, ext.code());
        assertTrue(ext.err().contains(".html or .pdf"), ext.err());
        CliRun missing = CliRun.of("report", "nope.json", "-o", tmp.resolve("r.html").toString());
        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("nope.json"), missing.err());
        CliRun results = CliRun.of("report", "resources/examples/rail-1su.json", "--results",
                "resources/examples/rail-1su.json", "-o", tmp.resolve("r.html").toString(), "--quiet");
        assertEquals(2, results.code());
        assertTrue(results.err().contains("$.kind"), results.err());
        assertFalse(Files.exists(tmp.resolve("r.html")), "nothing written on bad input");
        CliRun sim = CliRun.of("report", "resources/examples/rail-1su.json", "--simulate", "-o", tmp.resolve("s.html").toString());
        assertEquals(2, sim.code());
    }
}
