package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `fabriclab report --counters`: the "Measured vs simulated" section beside the simulated run. */
class ReportCountersTest {

    @Test
    void theSectionHasBothMapsThePortTableAndTheFindings(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("review.html");
        List<String> args = new ArrayList<>(List.of("report", "resources/scenarios/incast-pfc-dcqcn.json", "--simulate", "--quiet",
                "-o", out.toString(), "--counters-map", "resources/counters/classic-leaf-spine/port-map.json", "--counters"));
        try (var s = Files.list(Path.of("resources/counters/classic-leaf-spine/sonic-show"))) {
            s.sorted().forEach(p -> args.add(p.toString()));
        }
        CliRun r = CliRun.of(args.toArray(String[]::new));
        assertTrue(r.code() == ExitCode.OK || r.code() == ExitCode.FINDINGS, r.err());
        String html = Files.readString(out);
        int at = html.indexOf("<div class=\"section\" id=\"measured\">");
        assertTrue(at > 0, "the section is there");
        String section = html.substring(at, html.indexOf("</table>", html.indexOf("Findings from the counters", at)));
        assertTrue(section.contains("<h2>Measured vs simulated</h2>"));
        assertEquals(2, section.split("<svg", -1).length - 1, "the measured map and the difference map");
        assertTrue(section.contains("Simulated: R1"), section.substring(0, 600));
        assertTrue(section.contains("status warn"), "a largest difference is marked");
        assertTrue(section.contains("COUNTER_LOSSLESS_DROP") && section.contains("leaf1:eth1: 3.0 drops/s on lossless priority 3"));
    }

    @Test
    void counterOptionsWithoutCountersAreRefused(@TempDir Path dir) {
        CliRun r = CliRun.of("report", "resources/examples/classic-leaf-spine.json", "-o", dir.resolve("r.html").toString(),
                "--counters-interval", "5");
        assertEquals(ExitCode.BAD_INPUT, r.code());
        assertTrue(r.err().contains("go with --counters"), r.err());
    }
}
