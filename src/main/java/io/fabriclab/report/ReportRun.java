package io.fabriclab.report;

import io.fabriclab.io.ResultsJson;
import io.fabriclab.io.Scenario;
import io.fabriclab.sim.QosResolver;
import io.fabriclab.sim.SimResults;

/**
 * One simulation run shown in a report: its results, what produced them, and (when it could be
 * read) the scenario, which tells the checklist what the run exercised.
 *
 * @param label    short name used in charts and the comparison ("run 1: 8:1 incast ...")
 * @param source   where the results came from (a file name, or "simulated for this report")
 * @param scenario null when the scenario file named in the results could not be read
 * @param scenarioText the scenario file's text for the appendix, null when not readable
 */
public record ReportRun(String label, String source, ResultsJson.Metadata metadata, SimResults results,
                        Scenario scenario, String scenarioText) {

    /** The QoS in force during the run (the scenario's profile and overrides), else the fabric's own. */
    public QosResolver qos(io.fabriclab.model.Fabric fabric) {
        return scenario != null ? scenario.qos() : QosResolver.of(fabric);
    }

    public String scenarioName() {
        if (metadata != null && metadata.scenarioName() != null && !metadata.scenarioName().isBlank()) {
            return metadata.scenarioName();
        }
        return scenario != null ? scenario.name() : "scenario";
    }
}
