package io.fabriclab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import io.fabriclab.io.FabricReader;
import io.fabriclab.io.Scenario;
import io.fabriclab.io.ScenarioJson;
import io.fabriclab.model.Transport;
import io.fabriclab.sim.SimResults;

/** The shipped Ultra Ethernet incast runs from its scenario file as docs/validation.md (U4) derives. */
class ShippedUltraEthernetScenarioTest {

    @Test
    void theShippedIncastRunsAsUltraEthernetLosslessWithoutPfcAtLineRate() throws Exception {
        Scenario s = ScenarioJson.read(Path.of("resources/scenarios/incast-ultra-ethernet.json"), FabricReader.FILES);
        assertEquals(Transport.ULTRA_ETHERNET, s.transportName());
        SimResults r = s.simulator(s.config()).run();
        SimResults.UecResult u = r.ultraEthernet();
        assertEquals(SimResults.StopReason.COMPLETED, r.run().stopReason());
        assertEquals(0, r.summary().drops());
        assertEquals(0, r.summary().pauseFramesSent());
        assertEquals("spray", r.run().routing());
        assertEquals(u.trimmedPackets(), u.retransmittedPackets());
        assertEquals(0, u.timeouts());
        // 2,000,000 B per sender in packets of 4,098 B: 488 full (4200 + 20 B on the wire) and one
        // of 176 B (176 + 102 + 20 = 298 B); the receiver's 100G link carries all eight senders'
        // 8 x (488 x 4220 + 298) = 16,477,264 B at 80 ps/B = 1,318.18 us. It can start no earlier
        // than the first packet reaches the switch's egress: 4220 B at 100G (337,600 ps) + 1 m
        // (5,000 ps) = 0.3426 us, and the cut-through switch (600 ns) delivers every packet
        // 600,000 - 337,600 ps = 0.2624 us after that egress sends it. So the last byte arrives no
        // earlier than 0.3426 + 1,318.18 + 0.2624 + 0.005 = 1,318.79 us, and within 1 % of it if the
        // link never idles.
        double wireUs = 8 * (488 * 4220 + 298) * 80 / 1e6;
        assertEquals(1318.18, wireUs, 0.01);
        double earliestUs = 0.3426 + wireUs + 0.2624 + 0.005;
        assertTrue(r.summary().fctMaxUs() >= earliestUs, "fct " + r.summary().fctMaxUs());
        assertTrue(r.summary().fctMaxUs() <= earliestUs * 1.01, "fct " + r.summary().fctMaxUs());
    }
}
