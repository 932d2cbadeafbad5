package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** `analyze` shows each transport's payload efficiency and switch latency (docs/model.md, Transports). */
class AnalyzeTransportsTest {

    @Test
    void analyzeGivesPayloadEfficiencyAndSwitchLatencyPerTransport() throws Exception {
        // rail-1su.json: MTU 4200 B. RoCEv2 carries 4200 - 62 = 4138 B: 4138 / (4200 + 20) = 98.06 %, ring
        // 4138 / (4220 + 86) = 96.10 %; Ultra Ethernet 4200 - 102 = 4098 B: 4098 / 4220 = 97.11 %;
        // InfiniBand 4096 B at its own MTU: 4096 / 4122 = 99.37 %, ring 4096 / 4158 = 98.51 %.
        CliRun text = CliRun.of("analyze", "resources/examples/rail-1su.json", "--no-failure-sweep");
        assertTrue(text.code() == 0 || text.code() == 1, text.err());
        assertTrue(text.out().contains("Payload efficiency by transport (MTU 4200 B"), text.out());
        assertTrue(text.out().contains("98.06 %") && text.out().contains("96.10 %") && text.out().contains("99.37 %"),
                text.out());
        assertTrue(text.out().contains("Switch port-to-port latency"), text.out());
        // A rail-optimized leaf-spine: every engine's routes go up then down, no credit loop, one VL.
        assertTrue(text.out().contains("InfiniBand credit loops by subnet-manager routing engine"), text.out());
        assertTrue(text.out().matches("(?s).*updn\\s+none\\s+1\\s.*"), text.out());
        CliRun json = CliRun.of("analyze", "resources/examples/rail-1su.json", "--no-failure-sweep", "--json");
        JsonNode root = new ObjectMapper().readTree(json.out());
        JsonNode eff = root.get("payloadEfficiency");
        assertEquals(4138, eff.get("rocev2").get("payloadBytes").asInt());
        assertEquals(4138.0 / 4220, eff.get("rocev2").get("dataOnly").asDouble(), 1e-12);
        assertEquals(4096.0 / 4158, eff.get("infiniband").get("ringDirection").asDouble(), 1e-12);
        assertEquals(4098, eff.get("ultra-ethernet").get("payloadBytes").asInt());
        JsonNode lat = root.get("switchLatency").get(0).get("byTransport");
        assertEquals(150.0, lat.get("infiniband").get("portToPortNs").asDouble(), 0);
        assertEquals("cut-through", lat.get("rocev2").get("forwarding").asText());
    }
}
