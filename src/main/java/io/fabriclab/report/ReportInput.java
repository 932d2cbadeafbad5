package io.fabriclab.report;

import java.time.LocalDate;
import java.util.List;

import io.fabriclab.io.Scenario;
import io.fabriclab.model.Fabric;
import io.fabriclab.sweep.SweepSummary;
import io.fabriclab.topology.FabricAnalysis;
import io.fabriclab.topology.PriceBook;

/**
 * What a report is made from.
 *
 * @param source        the file the user named (fabric or scenario), as shown on the cover
 * @param sourceSha256  SHA-256 of that file's bytes (null for a fabric that was never saved)
 * @param scenario      the scenario when the source is one (its hash goes on the cover), else null
 * @param scenarioText  the scenario file's text (appendix), null for a fabric
 * @param options       analysis options (price book, failure to analyse)
 * @param runs          simulation results to show (none: the simulation sections say so)
 * @param author        who prepared the review
 * @param date          the date on the cover
 * @param commandLine   how the report was produced, for the appendix (may be empty)
 * @param transports    the scenario under several transports (`fabriclab compare`), or null
 * @param sweeps        finished sweeps to include (`fabriclab report --sweep`), each its own section
 * @param counters      measured counters (`fabriclab report --counters`): the "Measured vs simulated" section; null for none
 */
public record ReportInput(Fabric fabric, String source, String sourceSha256, Scenario scenario,
                          String scenarioText, FabricAnalysis.Options options, List<ReportRun> runs, String author, LocalDate date,
                          String commandLine, TransportComparison transports, List<SweepSummary> sweeps,
                          MeasuredSection.Counters counters) {

    /** A report without measured counters. */
    public ReportInput(Fabric fabric, String source, String sourceSha256, Scenario scenario, String scenarioText,
                       FabricAnalysis.Options options, List<ReportRun> runs, String author, LocalDate date,
                       String commandLine, TransportComparison transports, List<SweepSummary> sweeps) {
        this(fabric, source, sourceSha256, scenario, scenarioText, options, runs, author, date, commandLine, transports, sweeps, null);
    }

    /** A report without sweeps. */
    public ReportInput(Fabric fabric, String source, String sourceSha256, Scenario scenario, String scenarioText,
                       FabricAnalysis.Options options, List<ReportRun> runs, String author, LocalDate date,
                       String commandLine, TransportComparison transports) {
        this(fabric, source, sourceSha256, scenario, scenarioText, options, runs, author, date, commandLine, transports, List.of(), null);
    }

    /** A report without a transport comparison. */
    public ReportInput(Fabric fabric, String source, String sourceSha256, Scenario scenario, String scenarioText,
                       FabricAnalysis.Options options, List<ReportRun> runs, String author, LocalDate date,
                       String commandLine) {
        this(fabric, source, sourceSha256, scenario, scenarioText, options, runs, author, date, commandLine, null, List.of(), null);
    }

    public ReportInput {
        runs = List.copyOf(runs);
        sweeps = sweeps == null ? List.of() : List.copyOf(sweeps);
        author = author == null || author.isBlank() ? "unknown" : author;
        date = date == null ? LocalDate.now() : date;
        commandLine = commandLine == null ? "" : commandLine;
    }

    public PriceBook priceBook() {
        return options.priceBook();
    }
}
