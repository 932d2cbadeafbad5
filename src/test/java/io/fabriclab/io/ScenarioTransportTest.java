package io.fabriclab.io;

import static io.fabriclab.io.ScenarioJsonTest.INCAST;
import static io.fabriclab.io.ScenarioJsonTest.star;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.fabriclab.model.Transport;
import io.fabriclab.sim.IbCongestionSettings;
import io.fabriclab.sim.SimConfig;

/** The scenario's "transport": its name, each transport's own fields, and the messages bad input gets. */
class ScenarioTransportTest {

    /** INCAST with its profile and qos removed and {@code extra} top-level fields added. */
    private static String plain(String extra) {
        return INCAST.replace("\"profile\": \"production-ecn\",", "")
                .replace("\"qos\": {\"pfc\": {\"xoffBytes\": 200000, \"xonBytes\": 150000}},", extra);
    }

    private static Scenario parse(String json) {
        return ScenarioJson.parse(json, "s.json", null, star(7), null);
    }

    private static String problems(String json) {
        return assertThrows(ScenarioException.class, () -> parse(json)).getMessage();
    }

    @Test
    void theTransportIsRoceV2UnlessTheFileSaysOtherwise() {
        Scenario s = parse(plain(""));
        assertEquals(Transport.ROCEV2, s.transportName());
        assertNull(s.transportProblem());
        assertTrue(s.warnings().isEmpty());
        assertEquals(Transport.INFINIBAND, parse(plain("\"transport\": \"infiniband\",")).transportName());
        assertEquals(Transport.ULTRA_ETHERNET, parse(plain("\"transport\": {\"name\": \"ultra-ethernet\"},")).transportName());
        // The object form without a name keeps RoCEv2 and its NIC settings.
        Scenario r = parse(plain("\"transport\": {\"ackEveryPackets\": 4},"));
        assertEquals(Transport.ROCEV2, r.transportName());
        assertEquals(4, r.config().ackEveryPackets());
    }

    @Test
    void infiniBandSettingsReachTheTransportProfile() {
        Scenario s = parse(plain("\"mtuBytes\": 2048, \"transport\": {\"name\": \"infiniband\", \"dataVls\": 2, "
                + "\"vlBufferBytes\": 65536, \"congestionControl\": true},"));
        assertEquals(2048, s.transport().ib().mtuBytes());
        assertEquals(2, s.transport().ib().dataVls());
        assertEquals(1024, s.transport().ib().vlCredits());
        assertTrue(s.transport().ib().congestionControl());
        // The InfiniBand MTU is the run's; the fabric's Ethernet MTU is left as it is.
        assertEquals(4096, parse(plain("\"transport\": \"infiniband\",")).transport().ib().mtuBytes());
        Scenario u = parse(plain("\"transport\": {\"name\": \"ultra-ethernet\", \"trimThresholdPackets\": 16},"));
        assertEquals(16, u.transport().uec().trimThresholdPackets());
        // The smallest buffer: one 4096 B packet of 4122 B = 65 credits = 4160 B.
        assertEquals(65, parse(plain("\"transport\": {\"name\": \"infiniband\", \"vlBufferBytes\": 4160},"))
                .transport().ib().vlCredits());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            // An unknown name lists the allowed ones.
            "\"transport\": \"infiniband2\", | s.json: $.transport: found \"infiniband2\", expected one of rocev2, infiniband, ultra-ethernet",
            "\"transport\": {\"name\": \"IB\"}, | s.json: $.transport.name: found \"IB\", expected one of rocev2, infiniband, ultra-ethernet",
            "\"transport\": 5, | s.json: $.transport: found 5, expected one of rocev2, infiniband, ultra-ethernet, or an object",
            // InfiniBand's MTU is a payload size of at most 4096 B.
            "\"transport\": \"infiniband\"‚ \"mtuBytes\": 9000, | s.json: $.mtuBytes: found 9000, expected an InfiniBand MTU, at most 4096 B of payload (IBTA vol. 1 §7.7.8): 256, 512, 1024, 2048, 4096",
            "\"transport\": \"infiniband\"‚ \"mtuBytes\": 3000, | s.json: $.mtuBytes: found 3000, expected an InfiniBand MTU in bytes of payload (IBTA vol. 1 §7.7.8): 256, 512, 1024, 2048, 4096",
            // Fields of one transport under another.
            "\"transport\": {\"name\": \"rocev2\"‚ \"dataVls\": 2}, | s.json: $.transport.dataVls: found 2, expected no dataVls unless $.transport.name is infiniband",
            "\"transport\": {\"name\": \"infiniband\"‚ \"trimThresholdPackets\": 2}, | s.json: $.transport.trimThresholdPackets: found 2, expected no trimThresholdPackets unless $.transport.name is ultra-ethernet",
            "\"transport\": {\"name\": \"infiniband\"‚ \"dataVls\": 3}, | s.json: $.transport.dataVls: found 3, expected 1, 2, 4, 8 or 15 data virtual lanes",
            "\"transport\": {\"name\": \"infiniband\"‚ \"vlBufferBytes\": 100000}, | s.json: $.transport.vlBufferBytes: found 100000, expected a multiple of the 64-byte credit block from 4160 (one MTU packet) to 131072",
            "\"transport\": {\"name\": \"infiniband\"‚ \"vlBufferBytes\": 1000000}, | s.json: $.transport.vlBufferBytes: found 1000000, expected an integer 4160 to 131072",
            "\"transport\": {\"nam\": \"infiniband\"}, | s.json: $.transport.nam: unknown field \"nam\"; allowed: name, ackEveryPackets",
            // InfiniBand congestion control: on/off or an object of OpenSM's settings, each range-checked.
            "\"transport\": {\"name\": \"infiniband\"‚ \"congestionControl\": \"yes\"}, | s.json: $.transport.congestionControl: found \"yes\", expected true, false, or an object of congestion-control settings (enabled, threshold, markingRate",
            "\"transport\": {\"name\": \"infiniband\"‚ \"congestionControl\": {\"treshold\": 3}}, | s.json: $.transport.congestionControl.treshold: unknown field \"treshold\"; allowed: enabled, threshold, markingRate, packetSizeCredits, cctiIncrease, cctiTimer, cctiMin, cct",
            "\"transport\": {\"name\": \"infiniband\"‚ \"congestionControl\": {\"threshold\": 16}}, | s.json: $.transport.congestionControl.threshold: found 16, expected an integer 0 to 15",
            "\"transport\": {\"name\": \"infiniband\"‚ \"congestionControl\": {\"markingRate\": -1}}, | s.json: $.transport.congestionControl.markingRate: found -1, expected an integer 0 to 65535",
            "\"transport\": {\"name\": \"infiniband\"‚ \"congestionControl\": {\"cctiTimer\": 70000}}, | s.json: $.transport.congestionControl.cctiTimer: found 70000, expected an integer 0 to 65535",
            "\"transport\": {\"name\": \"infiniband\"‚ \"congestionControl\": {\"cct\": \"0:0‚4:1\"}}, | s.json: $.transport.congestionControl.cct: found \"0:0,4:1\", expected a CCT in OpenSM's cc_cct notation",
            "\"transport\": {\"name\": \"infiniband\"‚ \"congestionControl\": {\"cct\": \"0:0‚0:1\"‚ \"cctiMin\": 2}}, | s.json: $.transport.congestionControl.cctiMin: found 2, expected an integer 0 to 1",
            "\"transport\": {\"name\": \"infiniband\"‚ \"congestionControl\": {\"enabled\": 1}}, | s.json: $.transport.congestionControl.enabled: found 1, expected true or false",
            "\"transport\": {\"name\": \"rocev2\"‚ \"congestionControl\": true}, | s.json: $.transport.congestionControl: found true, expected no congestionControl unless $.transport.name is infiniband",
    })
    void badTransportInputNamesFilePathAndWhatIsAllowed(String fields, String message) {
        // ‚ (a low quotation mark) stands for the commas inside a field of this table.
        String msg = problems(plain(fields.replace('‚', ',') + " "));
        assertTrue(msg.contains(message), msg);
    }

    @Test
    void pfcAndTheOtherRoceSettingsOnAnInfiniBandRunAreIgnoredWithAWarning() {
        Scenario s = parse(INCAST.replace("\"seed\": 7,", "\"seed\": 7, \"transport\": {\"name\": \"infiniband\", \"ect\": true},"));
        List<String> w = s.warnings().stream().map(InputProblem::render).toList();
        assertEquals(3, w.size(), w.toString());
        assertTrue(w.get(0).startsWith("s.json: $.profile: ignored: an InfiniBand run has no PFC, ECN or DCQCN"), w.get(0));
        assertTrue(w.get(1).startsWith("s.json: $.qos.pfc: ignored: an InfiniBand run has no PFC: credit-based flow control "
                + "per virtual lane keeps it lossless"), w.get(1));
        assertTrue(w.get(1).endsWith("allowed: no qos.pfc with \"transport\": \"infiniband\""), w.get(1));
        assertTrue(w.get(2).startsWith("s.json: $.transport.ect: ignored"), w.get(2));
        // The same settings on a RoCEv2 run are its own: no warning.
        assertTrue(parse(INCAST).warnings().isEmpty());
    }

    @Test
    void everyTransportIsSimulatedAsItselfNeverAsRoceV2() {
        // This build simulates all three; a transport it did not would be refused by transportProblem.
        for (Transport t : Transport.values()) {
            assertTrue(io.fabriclab.sim.TransportProfile.simulated(t), t.jsonName());
        }
        assertEquals("rocev2, infiniband, ultra-ethernet", io.fabriclab.sim.TransportProfile.simulatedNames());
        // RoCEv2: neither InfiniBand's credits nor Ultra Ethernet's counts.
        Scenario roce = parse(plain(""));
        io.fabriclab.sim.SimResults rr = roce.simulator(roce.config()).run();
        assertTrue(rr.credits().isEmpty());
        assertNull(rr.ultraEthernet());
        // InfiniBand runs, as InfiniBand: the simulator reports its transport and its credit flow control.
        Scenario ib = parse(plain("\"transport\": {\"name\": \"infiniband\", \"vlBufferBytes\": 65536},"));
        assertNull(ib.transportProblem());
        io.fabriclab.sim.Simulator sim = ib.simulator(ib.config());
        assertEquals(Transport.INFINIBAND, sim.transport());
        io.fabriclab.sim.SimResults r = sim.run();
        assertEquals(0, r.summary().pauseFramesSent());
        assertTrue(!r.credits().isEmpty());
        assertNull(r.ultraEthernet());
        // The scenario's VL buffer is what the receivers advertise.
        assertTrue(r.credits().stream().allMatch(c -> c.advertisedBytes() == 65536), r.credits().toString());
        // Ultra Ethernet runs, as Ultra Ethernet, with the scenario's trim threshold (UltraEthernetTest
        // checks the mechanism): its counts are in the results, no PFC frame, no credits.
        Scenario u = parse(plain("\"transport\": {\"name\": \"ultra-ethernet\", \"trimThresholdPackets\": 16},"));
        assertNull(u.transportProblem());
        io.fabriclab.sim.Simulator us = u.simulator(u.config());
        assertEquals(Transport.ULTRA_ETHERNET, us.transport());
        assertEquals(16, us.transportProfile().uec().trimThresholdPackets());
        io.fabriclab.sim.SimResults ur = us.run();
        assertTrue(ur.ultraEthernet() != null);
        assertTrue(ur.credits().isEmpty());
        assertEquals(0, ur.summary().pauseFramesSent());
    }

    @Test
    void settingsTheSimulatorDoesNotModelAreWarnedAbout() {
        // Congestion control is modelled: "true" is no longer warned about; more than one VL still is.
        Scenario s = parse(plain("\"transport\": {\"name\": \"infiniband\", \"dataVls\": 2, \"congestionControl\": true},"));
        List<String> w = s.warnings().stream().map(InputProblem::render).toList();
        assertEquals(List.of("s.json: $.transport.dataVls: ignored by this build's simulator, which runs one data VL; allowed: 1"), w);
    }

    @Test
    void congestionControlSettingsReachTheSimulator() {
        // true: on with the defaults (IbCongestionSettings.defaults()); an object: on, each field
        // given replacing the default, "enabled": false keeps it off; absent or false: off.
        IbCongestionSettings d = IbCongestionSettings.defaults();
        Scenario on = parse(plain("\"transport\": {\"name\": \"infiniband\", \"congestionControl\": true},"));
        assertTrue(on.transport().ib().congestionControl());
        assertEquals(d, on.transport().ib().congestionSettings());
        Scenario tuned = parse(plain("\"transport\": {\"name\": \"infiniband\", \"congestionControl\": {\"threshold\": 8, "
                + "\"markingRate\": 3, \"packetSizeCredits\": 2, \"cctiIncrease\": 2, \"cctiTimer\": 150, \"cctiMin\": 1, "
                + "\"cct\": \"0:0, 1:3, 0:4\"}},"));
        assertTrue(tuned.transport().ib().congestionControl());
        IbCongestionSettings t = tuned.transport().ib().congestionSettings();
        assertEquals(new IbCongestionSettings(8, 3, 2, 2, 150, 1, List.of(0, 1 << 14 | 3, 4)), t);
        assertEquals("0:0,1:3,0:4", t.cctText());
        assertEquals(2, t.cctiLimit());
        // Threshold 8: (16 - 8) / 16 of the 131,072 B VL buffer = 65,536 B.
        assertEquals(65_536, t.thresholdBytes(131_072));
        assertTrue(!parse(plain("\"transport\": {\"name\": \"infiniband\", \"congestionControl\": {\"enabled\": false, "
                + "\"threshold\": 3}},")).transport().ib().congestionControl());
        assertTrue(!parse(plain("\"transport\": \"infiniband\",")).transport().ib().congestionControl());
        // The scenario's simulator runs it: an InfiniBand run with it on has the results block.
        io.fabriclab.sim.SimResults r = tuned.simulator(tuned.config()).run();
        assertEquals(8, r.ibCongestionControl().threshold());
        assertEquals(65_536, r.ibCongestionControl().thresholdBytes());
        assertEquals(2, r.ibCongestionControl().cctiLimit());
        assertNull(parse(plain("\"transport\": \"infiniband\",")).simulator(on.config()).run().ibCongestionControl());
    }
}
