package io.fabriclab.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import io.fabriclab.io.FabricReader;
import io.fabriclab.io.InputException;
import io.fabriclab.io.ResultsFile;
import io.fabriclab.io.ResultsJson;
import io.fabriclab.io.Scenario;
import io.fabriclab.io.ScenarioException;
import io.fabriclab.io.ScenarioJson;
import io.fabriclab.app.RunService;
import io.fabriclab.sim.Engine;
import io.fabriclab.sim.SimResults;

/** Where a report's runs come from: results files, or a scenario simulated for the report. */
public final class ReportRuns {
    private ReportRuns() {
    }

    /**
     * A results file, with its scenario when the file it names can still be read (as named, which is
     * relative to where simulate ran, else next to the results file).
     *
     * @param n the run's number in the report (labels read "R1: ...")
     */
    public static ReportRun fromResults(Path file, int n) throws InputException {
        ResultsFile.Loaded loaded = ResultsFile.read(file);
        Scenario scenario = null;
        String text = null;
        String named = loaded.metadata() == null ? null : loaded.metadata().scenarioFile();
        if (named != null && !named.isBlank()) {
            Path parent = file.toAbsolutePath().getParent();
            for (Path candidate : new Path[] {Path.of(named), parent == null ? null : parent.resolve(Path.of(named).getFileName())}) {
                if (candidate == null || !Files.isRegularFile(candidate)) {
                    continue;
                }
                try {
                    byte[] bytes = Files.readAllBytes(candidate);
                    // Only the scenario that produced these results: same hash.
                    if (loaded.metadata().scenarioSha256() != null
                            && !loaded.metadata().scenarioSha256().equals(ScenarioJson.sha256(bytes))) {
                        continue;
                    }
                    scenario = ScenarioJson.read(candidate, FabricReader.FILES);
                    text = new String(bytes, StandardCharsets.UTF_8);
                    break;
                } catch (IOException | ScenarioException | IllegalArgumentException e) {
                    // The scenario changed or went away: the report works from the results alone.
                }
            }
        }
        String name = loaded.metadata() != null && loaded.metadata().scenarioName() != null
                ? loaded.metadata().scenarioName() : file.getFileName().toString();
        return new ReportRun("R" + n + ": " + name, file.toString(), loaded.metadata(), loaded.results(), scenario, text);
    }

    /**
     * Simulates a scenario for the report on the packet engine ({@link #simulate(Scenario, Path, String, int,
     * double, Engine)}).
     */
    public static ReportRun simulate(Scenario scenario, Path scenarioFile, String scenarioText, int n, double durationUs) {
        return simulate(scenario, scenarioFile, scenarioText, n, durationUs, Engine.PACKET);
    }

    /**
     * Simulates a scenario for the report on {@code engine}, through the run service.
     * {@code durationUs} > 0 stops the run at that simulated time (a short look at a long
     * scenario); otherwise the scenario's own duration applies.
     */
    public static ReportRun simulate(Scenario scenario, Path scenarioFile, String scenarioText, int n, double durationUs,
                                     Engine engine) {
        Scenario run = durationUs > 0 ? scenario.withDurationPs(Math.round(durationUs * 1e6)) : scenario;
        SimResults r = RunService.prepare(new RunService.Request(scenario.name(), run, engine)).run(null);
        ResultsJson.Metadata meta = new ResultsJson.Metadata(ResultsJson.fabriclabVersion(), scenario.name(),
                scenarioFile == null ? "" : scenarioFile.toString(), scenario.sha256(), scenario.fabric().name(),
                scenario.profile());
        String source = "simulated for this report on the " + engine.jsonName() + " engine"
                + (durationUs > 0 ? " (stopped at " + Fmt.usValue(durationUs) + ")" : "");
        return new ReportRun("R" + n + ": " + scenario.name(), source, meta, r, scenario, scenarioText);
    }

    /** The engine that ran {@code r}: "packet" or "flow" (results written before engines were named: packet). */
    public static String engine(SimResults r) {
        String e = r.run().engine();
        return e == null || e.isBlank() ? Engine.PACKET.jsonName() : e;
    }
}
