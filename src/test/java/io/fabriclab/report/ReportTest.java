package io.fabriclab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import io.fabriclab.io.FabricFiles;
import io.fabriclab.io.FabricReader;
import io.fabriclab.io.PriceBookFile;
import io.fabriclab.io.Scenario;
import io.fabriclab.io.ScenarioJson;
import io.fabriclab.model.Fabric;
import io.fabriclab.topology.FabricAnalysis;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.w3c.dom.Document;

/**
 * Reports of every shipped example fabric and every shipped scenario, written as HTML and PDF and
 * read back: the HTML parses as XML and cannot run or load anything, the PDF's text holds every
 * section, and the figures in it are the analysis' own.
 */
class ReportTest {
    private static final Path EXAMPLES = Path.of("resources/examples");
    private static final Path SCENARIOS = Path.of("resources/scenarios");

    static ReportInput fabricInput(Fabric fabric, String source, List<ReportRun> runs) throws Exception {
        return new ReportInput(fabric, source, null, null, null,
                FabricAnalysis.Options.defaults(PriceBookFile.sample()), runs, "Test Author", LocalDate.of(2026, 1, 2), "test");
    }

    /** Every shipped example fabric, one test case each (a failure in one does not hide the rest). */
    static List<Path> examples() throws Exception {
        List<Path> files;
        try (Stream<Path> s = Files.list(EXAMPLES)) {
            files = s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        assertTrue(files.size() >= 5, "shipped examples found");
        return files;
    }

    /** Every shipped scenario, one test case each. */
    /**
     * Scenarios whose report is also rendered to PDF here: one of each kind (RoCEv2 incast, each
     * Ultra Ethernet incast, the rail cluster, a failure and a deadlock, a collective, a benchmark fat tree). Rendering all
     * 29 took about a minute of the suite for what these cover.
     */
    static final List<String> PDF_TOO = List.of("incast-pfc-only.json", "incast-ultra-ethernet.json",
            "transports-incast-rail-4su.json", "deadlock-after-failure.json", "link-failure-mid-collective.json",
            "allreduce-rail-1su-naive.json", "bench-fattree-k8-permutation.json");

    @Test
    void everyScenarioChosenForThePdfIsShipped() throws Exception {
        List<String> names = scenarios().stream().map(p -> p.getFileName().toString()).toList();
        for (String f : PDF_TOO) {
            assertTrue(names.contains(f), f + " is a shipped scenario");
        }
    }

    static List<Path> scenarios() throws Exception {
        List<Path> files;
        try (Stream<Path> s = Files.list(SCENARIOS)) {
            files = s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        assertTrue(files.size() >= 9, "shipped scenarios found");
        return files;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void everyShippedExampleGetsAWellFormedSelfContainedHtmlAndPdfReport(Path file, @TempDir Path tmp) throws Exception {
        Fabric fabric = FabricFiles.load(file);
        ReportInput in = new ReportInput(fabric, file.toString(), ScenarioJson.sha256(Files.readAllBytes(file)), null,
                null, FabricAnalysis.Options.defaults(PriceBookFile.sample()), List.of(), "Test Author",
                LocalDate.of(2026, 1, 2), "test");
        DesignReview review = DesignReview.build(in, DesignReview.Progress.NONE);
        String html = new String(ReportWriter.render(review, ReportFormat.HTML, DesignReview.Progress.NONE),
                StandardCharsets.UTF_8);
        Document doc = ReportChecks.checkSelfContainedHtml(html);
        ReportChecks.checkSections(doc.getDocumentElement().getTextContent(), false);
        byte[] pdf = ReportWriter.render(review, ReportFormat.PDF, DesignReview.Progress.NONE);
        String text = ReportChecks.pdfText(pdf);
        ReportChecks.checkSections(text, false);
        String flat = text.replaceAll("\\s+", " ");
        assertTrue(flat.contains(fabric.name()), file + ": fabric name on the cover");
        assertTrue(flat.contains("Test Author") && flat.contains("2026-01-02"), file + ": author and date");
        assertTrue(flat.contains(in.sourceSha256()), file + ": source hash");
        // The figures are the analysis' own: the bill's total and the GPU count.
        String total = String.format(java.util.Locale.ROOT, "%,.2f", review.analysis().billOfMaterials().total());
        assertTrue(flat.contains(total), file + ": BOM total " + total);
        assertTrue(flat.contains(Fmt.count(review.analysis().counts().gpus()) + " GPUs"), file + ": GPU count");
        // No results: every checklist item is honestly open.
        assertTrue(review.checklist().items().stream().allMatch(i -> i.status() == Status.NOT_SIMULATED), file.toString());
        assertEquals(review.checklist().items().size(), count(flat, "not simulated: no results given cover it"), file.toString());
        Files.write(tmp.resolve(file.getFileName() + ".pdf"), pdf);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void everyShippedScenarioSimulatedShortlyGetsAReportWithChartsAndAComparison(Path file) throws Exception {
        Scenario sc = ScenarioJson.read(file, FabricReader.FILES);
        String text = Files.readString(file);
        // Short runs: 200 us shows the queues build, the pauses and the marks of every small scenario;
        // the large ones (the benchmarks' 1,000 flows and k=16 fat trees, the 1,024-GPU rail cluster of
        // the transport scenarios) get one run of 20 us.
        boolean bench = file.getFileName().toString().startsWith("bench-") || sc.fabric().linkCount() > 1000;
        double us = bench ? 20 : 200;
        ReportRun a = ReportRuns.simulate(sc, file, text, 1, us);
        List<ReportRun> runs = new ArrayList<>(List.of(a));
        if (!bench) {
            Scenario again = ScenarioJson.read(file, FabricReader.FILES);
            runs.add(ReportRuns.simulate(again, file, text, 2, 100));
        }
        ReportInput in = new ReportInput(sc.fabric(), file.toString(), sc.sha256(), sc, text,
                FabricAnalysis.Options.defaults(PriceBookFile.sample()).withoutFailureSweep(), runs, "Test Author",
                LocalDate.of(2026, 1, 2), "test");
        DesignReview review = DesignReview.build(in, DesignReview.Progress.NONE);
        String html = HtmlReport.render(review);
        Document doc = ReportChecks.checkSelfContainedHtml(html);
        boolean comparison = runs.size() > 1;
        ReportChecks.checkSections(doc.getDocumentElement().getTextContent(), comparison);
        int svgs = doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "svg").getLength();
        assertTrue(svgs >= 3, file + ": topology and charts as inline SVG, found " + svgs);
        boolean queued = a.results().queues().stream().anyMatch(q -> q.depthBytes() != null && q.maxBytes() > 0);
        assertTrue(html.contains(queued ? "Egress queue depth over time" : "No egress queue depth series"),
                file + ": queue depth chart, or the note that no queue built up");
        assertTrue(html.contains(sc.sha256()), file + ": scenario hash");
        // The run map's legend explains only marks a results file can produce: no watchdog
        // storm, CNP or selection rows (those are the live view's).
        assertTrue(html.contains("each link: one line per direction"), file + ": run map legend");
        for (String liveOnly : List.of("PFC watchdog storm", "CNPs going back", "selected collective")) {
            assertFalse(html.contains(liveOnly), file + ": live-only legend row \"" + liveOnly + "\" in the report");
        }
        if (!PDF_TOO.contains(file.getFileName().toString())) {
            return; // the HTML is what the PDF is rendered from; the PDF itself for one scenario of each kind
        }
        byte[] pdf = PdfReport.render(html);
        String pdfText = ReportChecks.pdfText(pdf).replaceAll("\\s+", " ");
        ReportChecks.checkSections(pdfText, comparison);
        assertTrue(pdfText.contains(sc.sha256()), file + ": scenario hash in the PDF");
        assertTrue(pdfText.contains("simulated for this report (stopped at " + Fmt.usValue(us) + ")"), file + ": run source");
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
