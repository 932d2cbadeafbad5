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
        Scenario s = parse(plain("\"transport\": {\"name\": \"infiniband\", \"dataVls\": 2, \"congestionControl\": true},"));
        List<String> w = s.warnings().stream().map(InputProblem::render).toList();
        assertEquals(List.of("s.json: $.transport.dataVls: ignored by this build's simulator, which runs one data VL; allowed: 1",
                "s.json: $.transport.congestionControl: ignored by this build's simulator, which does not model InfiniBand "
                        + "congestion control; allowed: false"), w);
    }
}
