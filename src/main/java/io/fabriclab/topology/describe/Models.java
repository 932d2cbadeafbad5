package io.fabriclab.topology.describe;

import java.util.Map;

import io.fabriclab.model.Transport;
import io.fabriclab.model.SwitchLatency.SwitchModel;

/** The words describe writes for each switch product of the switch-latency table, and which transport it belongs to. */
final class Models {
    private static final Map<SwitchModel, String> WORDS = Map.ofEntries(
            Map.entry(SwitchModel.SPECTRUM_4, "Spectrum-4"), Map.entry(SwitchModel.SPECTRUM_3, "Spectrum-3"),
            Map.entry(SwitchModel.SPECTRUM_2, "Spectrum-2"), Map.entry(SwitchModel.SPECTRUM, "Spectrum-1"),
            Map.entry(SwitchModel.TOMAHAWK_5, "Tomahawk 5"), Map.entry(SwitchModel.TOMAHAWK_4, "Tomahawk 4"),
            Map.entry(SwitchModel.TOMAHAWK_3, "Tomahawk 3"), Map.entry(SwitchModel.JERICHO_3_AI, "Jericho 3"),
            Map.entry(SwitchModel.JERICHO_2, "Jericho 2"), Map.entry(SwitchModel.QUANTUM_X800, "Quantum-X800"),
            Map.entry(SwitchModel.QUANTUM_2, "Quantum-2"), Map.entry(SwitchModel.QUANTUM_HDR, "Quantum-1"));

    private Models() {
    }

    static String words(SwitchModel m) {
        return WORDS.get(m);
    }

    /** InfiniBand for a Quantum switch, else null (an Ethernet product runs under RoCEv2 or Ultra Ethernet). */
    static boolean infiniband(SwitchModel m) {
        return m.appliesTo(Transport.INFINIBAND);
    }
}
