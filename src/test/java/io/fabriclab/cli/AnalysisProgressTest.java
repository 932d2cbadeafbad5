package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.io.PriceBookFile;
import io.fabriclab.model.Fabric;
import io.fabriclab.topology.FabricAnalysis;
import io.fabriclab.topology.FatTreeGenerator;
import io.fabriclab.topology.FatTreeParams;

/**
 * Item 5 of issue 31: analyze of a 65,536-host fat tree said nothing for minutes. Each phase of the
 * analysis and each engine of the InfiniBand credit-loop check is announced as it starts.
 */
class AnalysisProgressTest {

    @Test
    void everyPhaseIsAnnouncedInOrderThenEveryCreditLoopEngine() throws Exception {
        Fabric f = FatTreeGenerator.generate(FatTreeParams.of(4));
        List<String> seen = new ArrayList<>();
        FabricAnalysis a = FabricAnalysis.run(f, FabricAnalysis.Options.defaults(PriceBookFile.sample()),
                (phase, index, count) -> seen.add(phase + " " + (index + 1) + "/" + count));
        List<String> expected = new ArrayList<>();
        List<String> names = new ArrayList<>(a.timingsMs().keySet());
        for (int i = 0; i < names.size(); i++) {
            expected.add(names.get(i) + " " + (i + 1) + "/" + names.size());
        }
        assertEquals(expected, seen, "each phase once, in the order of its timing");
        seen.clear();
        AnalyzeCommand.creditLoopsByEngine(f, (phase, index, count) -> seen.add(phase + " " + (index + 1) + "/" + count));
        assertEquals(List.of("ibCreditLoops minhop 1/3", "ibCreditLoops updn 2/3", "ibCreditLoops ftree 3/3"), seen);
    }

    @Test
    void pipedTheProgressIsALinePerStepAndASmallFabricPrintsNothing() {
        StringWriter text = new StringWriter();
        AnalysisProgress p = new AnalysisProgress(new PrintWriter(text), false);
        p.steps(0).phase("bisection", 1, 10);
        p.steps(1).phase("ibCreditLoops ftree", 2, 3);
        p.done();
        List<String> lines = text.toString().lines().toList();
        assertEquals(2, lines.size(), text.toString());
        assertTrue(lines.get(0).matches("analyze: analysis 2/10: bisection \\(\\d+ s\\)"), lines.get(0));
        assertTrue(lines.get(1).matches("analyze: InfiniBand credit loops 3/3: ibCreditLoops ftree \\(\\d+ s\\)"), lines.get(1));
        CliRun small = CliRun.of("analyze", "resources/examples/classic-leaf-spine.json", "--no-failure-sweep");
        assertEquals("", small.err(), "fewer than " + AnalysisProgress.LARGE_NICS + " NICs and no terminal: quiet");
    }

    @Test
    void onATerminalACreditLoopEngineShowsHowFarItIsPipedNot() {
        // Each engine's tables are streamed a destination at a time: the fraction done is told as
        // it goes, from 0 toward 1, and a terminal redraws its one line with it.
        Fabric f = FatTreeGenerator.generate(FatTreeParams.of(4));
        List<Double> told = new ArrayList<>();
        AnalyzeCommand.creditLoopsByEngine(f, new FabricAnalysis.Progress() {
            @Override
            public void phase(String phase, int index, int count) {
                told.add(-1.0);
            }

            @Override
            public void within(double fraction) {
                told.add(fraction);
            }
        });
        // k=4: 16 destinations per engine, each told (a step of one destination below 100).
        assertEquals(3 * 17, told.size(), told.toString());
        assertEquals(0.0, told.get(1));
        assertEquals(15 / 16.0, told.get(16));
        StringWriter tty = new StringWriter();
        AnalysisProgress t = new AnalysisProgress(new PrintWriter(tty), true);
        FabricAnalysis.Progress p = t.steps(1);
        p.phase("ibCreditLoops minhop", 0, 3);
        p.within(0.42);
        t.done();
        assertTrue(tty.toString().matches("(?s)\\ranalyze: InfiniBand credit loops 1/3: ibCreditLoops minhop \\(\\d+ s\\) *"
                + "\\ranalyze: InfiniBand credit loops 1/3: ibCreditLoops minhop  42 % \\(\\d+ s\\) *\\r *\\r"), tty.toString());
        StringWriter piped = new StringWriter();
        AnalysisProgress q = new AnalysisProgress(new PrintWriter(piped), false);
        q.steps(1).phase("ibCreditLoops minhop", 0, 3);
        q.steps(1).within(0.42);
        assertEquals(1, piped.toString().lines().count(), piped.toString());
    }

    @Test
    void aLargeFileIsSaidToBeReadBeforeItsFabricIsKnown() {
        // Reading a 65,536-host fat tree's 58 MB takes seconds before any phase can be named.
        java.nio.file.Path file = java.nio.file.Path.of("dir", "ft64.json");
        assertEquals("analyze: reading ft64.json (58 MB)", AnalysisProgress.readingLine(file, 57_872_246));
        assertEquals(null, AnalysisProgress.readingLine(file, AnalysisProgress.LARGE_FILE_BYTES - 1));
    }
}
