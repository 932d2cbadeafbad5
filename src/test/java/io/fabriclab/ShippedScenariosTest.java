package io.fabriclab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import io.fabriclab.io.FabricReader;
import io.fabriclab.io.Scenario;
import io.fabriclab.io.ScenarioJson;
import io.fabriclab.sim.SimResults;

import org.junit.jupiter.api.Test;

/**
 * The scenarios shipped in resources/scenarios load, and the small ones (the classic 4-leaf fabric,
 * 8:1 incast of 2 MB per sender = 16 MB into one 100G port) show the behaviour each one is shipped
 * to demonstrate.
 */
class ShippedScenariosTest {
    private static final Path DIR = Path.of("resources/scenarios");

    private static SimResults run(String name) throws Exception {
        Scenario s = ScenarioJson.read(DIR.resolve(name + ".json"), FabricReader.FILES);
        return s.simulator(s.config()).run();
    }

    @Test
    void everyShippedScenarioLoads() throws Exception {
        try (Stream<Path> files = Files.list(DIR)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".json")).toList()) {
                Scenario s = ScenarioJson.read(p, FabricReader.FILES);
                assertTrue(!s.flows().isEmpty(), p + " has flows");
            }
        }
    }

    @Test
    void pfcKeepsTheIncastLosslessAndTheReceiverAtLineRate() throws Exception {
        for (String name : new String[] {"incast-pfc-dcqcn", "incast-pfc-only"}) {
            SimResults r = run(name);
            assertEquals(SimResults.StopReason.COMPLETED, r.run().stopReason(), name);
            assertEquals(0, r.summary().drops(), name);
            assertTrue(r.summary().pauseFramesSent() > 0, name + " pauses");
        }
        // PFC only: the 100G receiver link is the bottleneck and never idles, so the last byte
        // arrives no earlier than 16 MB of payload at 100 Gb/s = 1.28 ms.
        SimResults pfcOnly = run("incast-pfc-only");
        assertTrue(pfcOnly.summary().fctMaxUs() >= 1280.0, "fct " + pfcOnly.summary().fctMaxUs());
        assertTrue(pfcOnly.summary().fctMaxUs() < 1280.0 * 1.1, "fct " + pfcOnly.summary().fctMaxUs());
    }

    @Test
    void withoutPfcTheIncastDropsAndRetransmits() throws Exception {
        SimResults none = run("incast-no-pfc-no-cc");
        assertTrue(none.summary().bufferDrops() > 0);
        assertTrue(none.summary().retransmittedBytes() > 0);
        SimResults dcqcn = run("incast-dcqcn-no-pfc");
        assertTrue(dcqcn.summary().cnpsSent() > 0);
        // DCQCN slows the senders, so fewer packets are lost than with no congestion control at all.
        assertTrue(dcqcn.summary().bufferDrops() < none.summary().bufferDrops());
    }

    @Test
    void ecnThresholdsAboveXoffNeverMarkWhileTunedOnesDo() throws Exception {
        // Kmin 5 MB: the egress queue is held near its PFC-limited size (~1.2 MB here) and never reaches it.
        SimResults high = run("ecn-too-high");
        assertEquals(0, high.summary().ecnMarked());
        SimResults tuned = run("ecn-tuned");
        assertTrue(tuned.summary().ecnMarked() > 0);
        assertTrue(tuned.summary().pauseFramesSent() < high.summary().pauseFramesSent());
    }

    @Test
    void theVictimIsPausedWithoutBeingCongested() throws Exception {
        SimResults r = run("hol-victim");
        assertEquals(0, r.summary().drops());
        SimResults.FlowResult victim = r.flows().stream().filter(f -> "victim".equals(f.label())).findFirst().orElseThrow();
        // Alone, 12 MB at 100G takes 960 us; pauses of its shared uplink make it take longer.
        assertTrue(victim.fctPs() > 960_000_000L * 1.05, "victim fct " + victim.fctPs());
    }
}
