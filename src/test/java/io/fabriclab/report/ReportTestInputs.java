package io.fabriclab.report;

import java.time.LocalDate;
import java.util.List;

import io.fabriclab.io.PriceBookFile;
import io.fabriclab.model.Fabric;
import io.fabriclab.topology.FabricAnalysis;

/** Report inputs for tests: the sample price book, a fixed author and date. */
final class ReportTestInputs {
    private ReportTestInputs() {
    }

    static ReportInput of(Fabric f, List<ReportRun> runs) {
        try {
            return new ReportInput(f, f.name() + ".json", null, null, null,
                    FabricAnalysis.Options.defaults(PriceBookFile.sample()), runs, "Test Author", LocalDate.of(2026, 1, 2), "");
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
