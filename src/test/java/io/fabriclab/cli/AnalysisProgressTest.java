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
}
