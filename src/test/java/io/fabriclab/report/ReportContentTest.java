package io.fabriclab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import io.fabriclab.io.FabricReader;
import io.fabriclab.io.InputException;
import io.fabriclab.io.ResultsFile;
import io.fabriclab.io.ResultsJson;
import io.fabriclab.io.Scenario;
import io.fabriclab.io.ScenarioJson;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.TestFabrics;
import io.fabriclab.sim.SimResults;
import io.fabriclab.topology.ExampleFabrics;
import io.fabriclab.topology.Finding;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** What the report says: escaping of user text, the checklist's honesty, deadlock with a failure, results read back. */
class ReportContentTest {
    private static final String XSS = "<img src=x onerror=alert(1)>";

    private static DesignReview withChecks(Status... statuses) {
        List<Check> checks = new java.util.ArrayList<>();
        for (Status st : statuses) {
            checks.add(new Check("Area", "check " + checks.size(), st, ""));
        }
        return new DesignReview(null, null, null, java.util.Map.of(), checks, List.of(), null);
    }

    @Test
    void theVerdictNeverContradictsItsCounts() {
        // Passed and not simulated, no warning: was "ready with warnings (... 0 warnings ...)".
        DesignReview r = withChecks(Status.PASS, Status.PASS, Status.NOT_SIMULATED);
        assertEquals("ready pending simulation", r.verdictWord());
        assertEquals("2 passed, 1 not simulated", r.tally());
        r = withChecks(Status.PASS, Status.WARN, Status.NOT_SIMULATED);
        assertEquals("ready with warnings", r.verdictWord());
        assertEquals("1 passed, 1 warning, 1 not simulated", r.tally());
        r = withChecks(Status.FAIL, Status.WARN, Status.WARN);
        assertEquals("not ready", r.verdictWord());
        assertEquals("0 passed, 2 warnings, 1 failure", r.tally());
        assertEquals("ready", withChecks(Status.PASS).verdictWord());
        // Whatever the mix, "warnings" appears in the word only when a warning is counted.
        for (Status a : Status.values()) {
            for (Status b : Status.values()) {
                DesignReview x = withChecks(a, b);
                assertEquals(x.count(Status.WARN) > 0 && x.count(Status.FAIL) == 0, x.verdictWord().contains("warning"),
                        a + ", " + b + ": " + x.verdictWord() + " (" + x.tally() + ")");
            }
        }
    }

    @Test
    void userStringsAppearAsTextInHtmlSvgAndPdfNeverAsMarkup() throws Exception {
        Fabric f = TestFabrics.leafSpine(2, 1, 2, 1);
        f.setName("Lab <script>alert('x')</script> & \"quotes\"");
        f.setDescription("desc with </div><b>bold</b>");
        Device leaf = f.switches().stream().filter(d -> d.role() == io.fabriclab.model.DeviceRole.LEAF).findFirst().orElseThrow();
        Device named = f.addDevice(XSS, io.fabriclab.model.DeviceRole.SPINE);
        TestFabrics.connect(f, named, leaf, 400, 3);
        // The diagram drops labels too long for their box; a short one shows SVG escaping.
        Device shortName = f.addDevice("<i>&s", io.fabriclab.model.DeviceRole.SPINE);
        TestFabrics.connect(f, shortName, leaf, 400, 3);
        ReportInput in = new ReportInput(f, "lab <x>.json", null, null, null,
                io.fabriclab.topology.FabricAnalysis.Options.defaults(io.fabriclab.io.PriceBookFile.sample()), List.of(),
                "Mallory <svg onload=alert(2)>", java.time.LocalDate.of(2026, 1, 2), "fabriclab report \"<x>\"");
        DesignReview review = DesignReview.build(in, DesignReview.Progress.NONE);
        String html = HtmlReport.render(review);
        Document doc = ReportChecks.checkSelfContainedHtml(html); // no <img>, <script>, on* attribute anywhere
        String text = doc.getDocumentElement().getTextContent();
        assertTrue(text.contains(XSS), "the device name is text");
        assertTrue(text.contains("Lab <script>alert('x')</script> & \"quotes\""), "the fabric name is text");
        assertTrue(text.contains("Mallory <svg onload=alert(2)>"), "the author is text");
        // Inside the topology SVG too: a <text> element whose content is the name (shortened to fit its box).
        NodeList texts = doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "text");
        boolean inSvg = false;
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < texts.getLength(); i++) {
            inSvg |= ((Element) texts.item(i)).getTextContent().equals("<i>&s");
            all.append(texts.item(i).getTextContent()).append(" | ");
        }
        assertTrue(inSvg, "the device label in the diagram is SVG text: " + all);
        assertTrue(html.contains("&lt;img src=x onerror=alert(1)&gt;"), "escaped in the markup");
        assertTrue(html.contains(">&lt;i&gt;&amp;s</text>"), "escaped in the SVG");
        String pdf = ReportChecks.pdfText(PdfReport.render(html)).replaceAll("\\s+", " ");
        assertTrue(pdf.contains("Mallory <svg onload=alert(2)>"), "the PDF shows the author as typed");
        assertTrue(pdf.contains(XSS), "the PDF shows the device name as typed");
    }

    @Test
    void withoutResultsEveryChecklistItemIsNotSimulatedAndTheVerdictSaysSo() throws Exception {
        Fabric f = io.fabriclab.io.FabricFiles.load(Path.of("resources/examples/classic-leaf-spine.json"));
        DesignReview r = DesignReview.build(ReportTestInputs.of(f, List.of()), DesignReview.Progress.NONE);
        assertEquals(7, r.checklist().items().size());
        r.checklist().items().forEach(i -> assertEquals(Status.NOT_SIMULATED, i.status(), i.kind().title()));
        Check coverage = r.checks().stream().filter(c -> c.area().equals("Validation")).findFirst().orElseThrow();
        assertEquals(Status.NOT_SIMULATED, coverage.status());
        assertTrue(coverage.evidence().startsWith("0 of 7 items simulated"), coverage.evidence());
    }

    @Test
    void checklistTellsLinkLeafAndSpineFailuresApartAndJudgesEachRun() throws Exception {
        Path dir = Path.of("resources/scenarios");
        String base = Files.readString(dir.resolve("incast-pfc-dcqcn.json"));
        Fabric fabric = ScenarioJson.read(dir.resolve("incast-pfc-dcqcn.json"), FabricReader.FILES).fabric();
        // leaf4 has 8 server links and 2 spine uplinks in the classic fabric: failing all its links is a leaf failure.
        StringBuilder leafLinks = new StringBuilder();
        Device leaf4 = fabric.device("leaf4");
        for (var l : fabric.linksOf(leaf4)) {
            leafLinks.append(leafLinks.length() == 0 ? "" : ",").append("{\"link\":\"").append(l.id()).append("\",\"downAtUs\":20}");
        }
        StringBuilder spineLinks = new StringBuilder();
        for (var l : fabric.linksOf(fabric.device("spine2"))) {
            spineLinks.append(spineLinks.length() == 0 ? "" : ",").append("{\"link\":\"").append(l.id()).append("\",\"downAtUs\":20}");
        }
        Scenario link = withFailures(base, dir, "{\"link\":\"" + fabric.linksOf(fabric.device("spine1")).get(0).id() + "\",\"downAtUs\":20}");
        Scenario leaf = withFailures(base, dir, leafLinks.toString());
        Scenario spine = withFailures(base, dir, spineLinks.toString());
        Scenario baseline = ScenarioJson.parse(base.replaceAll("(?s)\"workloads\".*", "\"workloads\": [{\"type\":\"permutation\",\"bytes\":100000}]}"),
                "perm.json", dir, FabricReader.FILES, null);
        assertEquals(Set.of(ValidationChecklist.Kind.INCAST, ValidationChecklist.Kind.LINK_FAILURE),
                ValidationChecklist.classify(fabric, run(link)));
        assertEquals(Set.of(ValidationChecklist.Kind.INCAST, ValidationChecklist.Kind.LEAF_FAILURE),
                ValidationChecklist.classify(fabric, run(leaf)));
        assertEquals(Set.of(ValidationChecklist.Kind.INCAST, ValidationChecklist.Kind.SPINE_FAILURE),
                ValidationChecklist.classify(fabric, run(spine)));
        assertEquals(Set.of(ValidationChecklist.Kind.BASELINE), ValidationChecklist.classify(fabric, run(baseline)));
    }

    @Test
    void aDeadlockThatNeedsAFailureIsFoundAndFailsTheVerdict() {
        Fabric f = ExampleFabrics.deadlockProne();
        DesignReview r = DesignReview.build(ReportTestInputs.of(f, List.of()), DesignReview.Progress.NONE);
        assertTrue(r.analysis().deadlock().deadlockFree(), "deadlock-free as drawn");
        assertTrue(r.failureDeadlocks().exhaustive());
        List<String> deadlocking = r.failureDeadlocks().deadlocking().stream().map(FailureDeadlocks.Case::failed).toList();
        assertTrue(deadlocking.contains(ExampleFabrics.DEADLOCK_TRIGGER_LINK), "found: " + deadlocking);
        assertEquals(Status.FAIL, r.verdict());
        assertTrue(r.findings().stream().anyMatch(x -> x.code().equals("DEADLOCK_AFTER_FAILURE")
                && x.severity() == Finding.Severity.ERROR && x.subject().equals(ExampleFabrics.DEADLOCK_TRIGGER_LINK)));
    }

    @Test
    void resultsWrittenBySimulateReadBackEqual(@TempDir Path tmp) throws Exception {
        Path file = Path.of("resources/scenarios/incast-pfc-dcqcn.json");
        Scenario sc = ScenarioJson.read(file, FabricReader.FILES);
        SimResults r = sc.simulator(sc.config().withDurationPs(100_000_000L)).run();
        ResultsJson.Metadata meta = new ResultsJson.Metadata("1.2.3", sc.name(), file.toString(), sc.sha256(), "f", null);
        Path out = tmp.resolve("r.json");
        ResultsJson.write(r, meta, out, true);
        ResultsFile.Loaded back = ResultsFile.read(out);
        assertEquals(meta, back.metadata());
        assertEquals(r.summary(), back.results().summary());
        assertEquals(r.run().seed(), back.results().run().seed());
        assertEquals(r.flows().size(), back.results().flows().size());
        assertEquals(r.queues().get(0).maxBytes(), back.results().queues().get(0).maxBytes());
        assertEquals(r.queues().get(0).depthBytes().values().length, back.results().queues().get(0).depthBytes().values().length);
        // The report finds the scenario again through the metadata, checked by hash.
        ReportRun run = ReportRuns.fromResults(out, 1);
        assertNotNull(run.scenario());
        assertTrue(run.label().startsWith("R1: "));
    }

    @Test
    void aBadResultsFileIsAnErrorNamingFileAndPath(@TempDir Path tmp) throws Exception {
        Path bad = tmp.resolve("bad.json");
        Files.writeString(bad, "{\"schemaVersion\":1,\"kind\":\"fabriclab-results\",\"metadata\":{},\"run\":{},\"summary\":{},"
                + "\"flows\":[{\"id\":\"seven\"}]}");
        InputException e = assertThrows(InputException.class, () -> ResultsFile.read(bad));
        assertTrue(e.getMessage().contains("bad.json") && e.getMessage().contains("$.flows[0].id"), e.getMessage());
        Path fabric = Path.of("resources/examples/rail-1su.json");
        InputException notResults = assertThrows(InputException.class, () -> ResultsFile.read(fabric));
        assertTrue(notResults.getMessage().contains("$.kind"), notResults.getMessage());
        assertFalse(notResults.getMessage().contains("Exception"));
    }

    private static Scenario withFailures(String base, Path dir, String failures) {
        String json = base.replaceFirst("\"seed\"", "\"failures\": [" + failures + "],\n  \"seed\"");
        return ScenarioJson.parse(json, "failures.json", dir, FabricReader.FILES, null);
    }

    private static ReportRun run(Scenario s) {
        try {
            // An empty run as a results file holds it (every list empty), whatever fields SimResults grows.
            SimResults empty = ResultsFile.parse("{\"schemaVersion\":1,\"kind\":\"fabriclab-results\",\"metadata\":{},"
                    + "\"run\":{},\"summary\":{}}", Path.of("empty.json")).results();
            return new ReportRun("x", "test", null, empty, s, null);
        } catch (InputException e) {
            throw new IllegalStateException(e);
        }
    }
}
