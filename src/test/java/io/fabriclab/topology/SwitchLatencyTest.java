package io.fabriclab.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Transport;
import io.fabriclab.topology.SwitchLatency.SwitchClass;

class SwitchLatencyTest {

    private static Device sw(Fabric f, String id, String model) {
        Device d = f.addDevice(id, DeviceRole.LEAF);
        d.addPorts("eth", 0, 4, 400);
        d.setModel(model);
        return d;
    }

    @Test
    void theClassFollowsTheTransportAndTheModelText() {
        Fabric f = new Fabric("f");
        Device th5 = sw(f, "a", "64x800G TH5");
        Device jericho = sw(f, "b", "Arista 7800R3 (Jericho2)");
        Device none = sw(f, "c", null);
        // Ethernet transports: cut-through unless the model names a deep-buffer family.
        assertEquals(SwitchClass.ETHERNET_CUT_THROUGH, SwitchLatency.classOf(th5, Transport.ROCEV2));
        assertEquals(SwitchClass.ETHERNET_CUT_THROUGH, SwitchLatency.classOf(none, Transport.ULTRA_ETHERNET));
        assertEquals(SwitchClass.ETHERNET_DEEP_BUFFER, SwitchLatency.classOf(jericho, Transport.ROCEV2));
        assertEquals(SwitchClass.ETHERNET_DEEP_BUFFER, SwitchLatency.classOf(jericho, Transport.ULTRA_ETHERNET));
        // InfiniBand: the same drawing with InfiniBand switches of the same radix.
        for (Device d : List.of(th5, jericho, none)) {
            assertEquals(SwitchClass.INFINIBAND, SwitchLatency.classOf(d, Transport.INFINIBAND));
        }
        // The figures docs/model.md cites: 150 ns, 600 ns, 3.5 us.
        assertEquals(150_000, SwitchLatency.portToPortPs(th5, Transport.INFINIBAND));
        assertEquals(600_000, SwitchLatency.portToPortPs(th5, Transport.ROCEV2));
        assertEquals(3_500_000, SwitchLatency.portToPortPs(jericho, Transport.ROCEV2));
        assertEquals(SwitchLatency.Forwarding.STORE_AND_FORWARD, SwitchClass.ETHERNET_DEEP_BUFFER.forwarding());
        assertEquals(SwitchLatency.Forwarding.CUT_THROUGH, SwitchClass.INFINIBAND.forwarding());
    }

    @Test
    void analyzeListsEachSwitchModelUnderEachTransport() {
        Fabric f = new Fabric("f");
        sw(f, "a", "64x800G TH5");
        sw(f, "b", "64x800G TH5");
        sw(f, "c", null);
        List<SwitchLatency.ModelLatency> rows = SwitchLatency.of(f);
        // A model without text is named by its port configuration, 4x400G.
        assertEquals(List.of("4x400G", "64x800G TH5"), rows.stream().map(SwitchLatency.ModelLatency::model).toList());
        assertEquals(2, rows.get(1).switches());
        assertEquals(List.of(SwitchClass.ETHERNET_CUT_THROUGH, SwitchClass.INFINIBAND, SwitchClass.ETHERNET_CUT_THROUGH),
                rows.get(1).byTransport());
        String text = AnalysisText.of(f, "f.json", FabricAnalysis.run(f, FabricAnalysis.Options.defaults(new PriceBook("USD", "", java.util.Map.of()))), 5);
        assertTrue(text.contains("Switch port-to-port latency"), text);
        assertTrue(text.contains("0.15 us cut-through"), text);
        assertTrue(text.contains("0.60 us cut-through"), text);
    }
}
