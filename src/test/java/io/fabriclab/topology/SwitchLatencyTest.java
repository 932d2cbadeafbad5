package io.fabriclab.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Transport;
import io.fabriclab.model.SwitchLatency;
import io.fabriclab.model.SwitchLatency.SwitchClass;

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
        // The figures docs/model.md cites: 150 ns, 300 ns (the SN2700 brief's, 600 ns before issue #29), 3.5 us.
        assertEquals(150_000, SwitchLatency.portToPortPs(th5, Transport.INFINIBAND));
        assertEquals(300_000, SwitchLatency.portToPortPs(th5, Transport.ROCEV2));
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
        List<FabricSwitchLatency.ModelLatency> rows = FabricSwitchLatency.of(f);
        // A model without text is named by its port configuration, 4x400G.
        assertEquals(List.of("4x400G", "64x800G TH5"), rows.stream().map(FabricSwitchLatency.ModelLatency::model).toList());
        assertEquals(2, rows.get(1).switches());
        assertEquals(List.of(SwitchClass.ETHERNET_CUT_THROUGH, SwitchClass.INFINIBAND, SwitchClass.ETHERNET_CUT_THROUGH),
                rows.get(1).byTransport());
        String text = AnalysisText.of(f, "f.json", FabricAnalysis.run(f, FabricAnalysis.Options.defaults(new PriceBook("USD", "", java.util.Map.of()))), 5);
        assertTrue(text.contains("Switch port-to-port latency"), text);
        assertTrue(text.contains("0.15 us cut-through"), text);
        assertTrue(text.contains("0.30 us cut-through"), text);
        assertTrue(text.contains("Broadcom Tomahawk 5 (BCM78900, 51.2 Tb/s): Broadcom publishes no port-to-port figure"),
                text);
    }

    @Test
    void theEthernetCutThroughDefaultIsWhatItsCitationSays() {
        // The Spectrum SN2700 brief's 300 ns; the class took 600 ns against that citation before issue #29.
        assertEquals(300_000, SwitchClass.ETHERNET_CUT_THROUGH.portToPortPs());
        assertTrue(SwitchClass.ETHERNET_CUT_THROUGH.source().contains("SN2700 product brief: 300 ns"));
        Fabric f = new Fabric("f");
        assertEquals(300_000, SwitchLatency.portToPortPs(sw(f, "a", "64x400G"), Transport.ULTRA_ETHERNET),
                "a generated switch (model text = its ports) takes the class figure");
    }

    @Test
    void eachSwitchModelIsRecognisedFromItsModelText() {
        java.util.Map<String, SwitchLatency.SwitchModel> cases = new java.util.LinkedHashMap<>();
        cases.put("NVIDIA SN5600", SwitchLatency.SwitchModel.SPECTRUM_4);
        cases.put("Spectrum-X800 SN5610", SwitchLatency.SwitchModel.SPECTRUM_4);
        cases.put("NVIDIA Spectrum-X", SwitchLatency.SwitchModel.SPECTRUM_4);
        cases.put("Spectrum-4 64x800G", SwitchLatency.SwitchModel.SPECTRUM_4);
        cases.put("SN4600C", SwitchLatency.SwitchModel.SPECTRUM_3);
        cases.put("Mellanox SN4700", SwitchLatency.SwitchModel.SPECTRUM_3);
        cases.put("Spectrum-2 SN3700", SwitchLatency.SwitchModel.SPECTRUM_2);
        cases.put("SN2700", SwitchLatency.SwitchModel.SPECTRUM);
        cases.put("64x800G TH5", SwitchLatency.SwitchModel.TOMAHAWK_5);
        cases.put("Arista 7060X6 (Tomahawk 5)", SwitchLatency.SwitchModel.TOMAHAWK_5);
        cases.put("BCM78900", SwitchLatency.SwitchModel.TOMAHAWK_5);
        cases.put("Tomahawk4 32x800G", SwitchLatency.SwitchModel.TOMAHAWK_4);
        cases.put("TH3 32x400G", SwitchLatency.SwitchModel.TOMAHAWK_3);
        cases.put("Jericho3-AI", SwitchLatency.SwitchModel.JERICHO_3_AI);
        cases.put("Arista 7800R3 (Jericho2)", SwitchLatency.SwitchModel.JERICHO_2);
        cases.put("J2C 7280R3", SwitchLatency.SwitchModel.JERICHO_2);
        cases.put("QM9700", SwitchLatency.SwitchModel.QUANTUM_2);
        cases.put("NVIDIA Quantum-2 QM9790", SwitchLatency.SwitchModel.QUANTUM_2);
        cases.put("Quantum-X800 Q3400-RA", SwitchLatency.SwitchModel.QUANTUM_X800);
        cases.put("QM8700", SwitchLatency.SwitchModel.QUANTUM_HDR);
        cases.put("Quantum 200G HDR QM8790", SwitchLatency.SwitchModel.QUANTUM_HDR);
        cases.forEach((text, expected) -> assertEquals(expected, SwitchLatency.modelOf(text), text));
        for (String none : List.of("64x400G", "Spectrum", "generic leaf", "")) {
            assertEquals(null, SwitchLatency.modelOf(none), none);
        }
        assertEquals(java.util.EnumSet.allOf(SwitchLatency.SwitchModel.class), java.util.EnumSet.copyOf(cases.values()),
                "every model has a case");
    }

    @Test
    void aModelsPublishedFigureAppliesUnderItsOwnKindOfTransport() {
        Fabric f = new Fabric("f");
        Device qm8700 = sw(f, "a", "QM8700");
        Device qm9700 = sw(f, "b", "QM9700");
        Device sn2700 = sw(f, "c", "SN2700");
        Device sn5600 = sw(f, "d", "SN5600");
        Device j3 = sw(f, "e", "Jericho3-AI 7800R4");
        // QM8700: the brief's 130 ns under InfiniBand; under RoCEv2 the Ethernet class figure.
        assertEquals(130_000, SwitchLatency.portToPortPs(qm8700, Transport.INFINIBAND));
        assertEquals(300_000, SwitchLatency.portToPortPs(qm8700, Transport.ROCEV2));
        // No published figure: the class's, and the source says so.
        assertEquals(150_000, SwitchLatency.portToPortPs(qm9700, Transport.INFINIBAND));
        assertTrue(SwitchLatency.sourceOf(qm9700, Transport.INFINIBAND).contains("class figure used"),
                SwitchLatency.sourceOf(qm9700, Transport.INFINIBAND));
        assertEquals(300_000, SwitchLatency.portToPortPs(sn2700, Transport.ROCEV2));
        assertEquals(300_000, SwitchLatency.portToPortPs(sn5600, Transport.ULTRA_ETHERNET));
        assertEquals(150_000, SwitchLatency.portToPortPs(sn5600, Transport.INFINIBAND), "the InfiniBand class figure");
        // Jericho 3-AI without "jericho" in DEEP_BUFFER_WORDS' sense still is a deep-buffer switch.
        assertEquals(SwitchClass.ETHERNET_DEEP_BUFFER, SwitchLatency.classOf(sw(f, "g", "BCM88890"), Transport.ROCEV2));
        assertEquals(3_500_000, SwitchLatency.portToPortPs(j3, Transport.ROCEV2));
        // A comparison states what it used.
        List<FabricSwitchLatency.ModelLatency> rows = FabricSwitchLatency.of(f);
        FabricSwitchLatency.ModelLatency q = rows.stream().filter(m -> m.model().equals("QM8700")).findFirst().orElseThrow();
        assertEquals(SwitchLatency.SwitchModel.QUANTUM_HDR, q.product());
        assertEquals(130_000, q.portToPortPs(Transport.INFINIBAND));
        assertEquals("QM8700 (1 switch): 130 ns cut-through; NVIDIA Quantum (QM8700, QM8790; HDR): NVIDIA Quantum "
                + "QM8700 product brief: 130 ns port to port", q.describe(Transport.INFINIBAND));
        assertTrue(FabricSwitchLatency.describe(f, Transport.ROCEV2).contains("SN2700 (1 switch): 300 ns cut-through; "
                + "Mellanox Spectrum (SN2700, SN2410, SN2100, SN2010): Mellanox Spectrum SN2700 product brief: 300 ns "
                + "port to port"), FabricSwitchLatency.describe(f, Transport.ROCEV2).toString());
    }

    @Test
    void docsModelListsEverySwitchModelWithItsFigure() throws Exception {
        String doc = java.nio.file.Files.readString(java.nio.file.Path.of("docs/model.md"));
        for (SwitchLatency.SwitchModel m : SwitchLatency.SwitchModel.values()) {
            String ns = (m.portToPortPs() / 1000) + " ns";
            String row = doc.lines().filter(l -> l.startsWith("| " + m.displayName() + " |")).findFirst()
                    .orElseThrow(() -> new AssertionError("docs/model.md has no row for " + m.displayName()));
            assertTrue(row.contains(m.portToPortPs() >= 1_000_000 ? (m.portToPortPs() / 1e6) + " us" : ns), row);
            assertTrue(row.contains(m.hasOwnFigure() ? "**" : "(class)"), row);
        }
    }
}
