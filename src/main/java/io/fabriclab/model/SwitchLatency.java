package io.fabriclab.model;

import java.util.List;
import java.util.Locale;

/**
 * Port-to-port latency of a switch, a property of its model for every transport: the pipeline
 * delay of an unloaded switch on a minimum-size packet (what datasheets quote), queueing excluded.
 * The class follows from the run's transport and the device's model text: an InfiniBand run uses
 * InfiniBand switches of the same radix; an Ethernet run (RoCEv2, Ultra Ethernet) uses
 * shallow-buffer cut-through switches unless the model names a deep-buffer family. A
 * store-and-forward switch also waits for the whole packet before forwarding it; that
 * serialization is not part of this figure. A product recognised in the model text
 * ({@link SwitchModel}: Spectrum, Tomahawk, Jericho, Quantum generations) brings its maker's
 * published figure where there is one. The simulator applies the figure and the forwarding
 * mode at every switch (sim.SwitchPipeline); {@code topology.FabricSwitchLatency} lists them per
 * switch model of a fabric. A property of the device's model, so it lives in the model package.
 * docs/model.md, Transports, cites the figures.
 */
public final class SwitchLatency {

    public enum Forwarding {
        CUT_THROUGH, STORE_AND_FORWARD
    }

    /** The switch classes FabricLab tells apart, each with its port-to-port latency and where it comes from. */
    public enum SwitchClass {
        /**
         * NVIDIA Quantum-class InfiniBand: 130 ns port to port on Quantum (HDR, QM8700 product
         * brief); third-party figures for Quantum-2 (NDR) range from under 150 ns to about 330 ns.
         * 150 ns is taken.
         */
        INFINIBAND("InfiniBand, cut-through (Quantum-class)", Forwarding.CUT_THROUGH, 150 * Units.PS_PER_NS,
                "NVIDIA Quantum QM8700 brief 130 ns; Quantum-2 quoted 150-330 ns"),
        /**
         * Shallow-buffer Ethernet merchant silicon forwarding cut-through (NVIDIA Spectrum,
         * Broadcom Tomahawk class): 300 ns, the port-to-port latency of the Mellanox Spectrum
         * SN2700 product brief (Mellanox gave the same for Spectrum-2 at its launch; NVIDIA's
         * datasheets give none for Spectrum-3/4, Broadcom none for Tomahawk 3/4/5; see
         * {@link SwitchModel}). Until issue #29 this class took 600 ns against its own citation.
         */
        ETHERNET_CUT_THROUGH("Ethernet, cut-through (Spectrum/Tomahawk-class)", Forwarding.CUT_THROUGH,
                300 * Units.PS_PER_NS, "Mellanox Spectrum SN2700 product brief: 300 ns port to port"),
        /**
         * Deep-buffer Ethernet with virtual output queues and off-chip packet memory (Broadcom
         * Jericho class: Arista 7280R3/7800R3, Cisco NCS 5500): store-and-forward, about 3-4 us
         * unloaded. 3.5 us is taken.
         */
        ETHERNET_DEEP_BUFFER("Ethernet, deep-buffer store-and-forward (Jericho-class)", Forwarding.STORE_AND_FORWARD,
                3_500 * Units.PS_PER_NS, "Jericho-class VoQ switches (Arista 7280R3/7800R3 datasheets) 3-4 us");

        private final String label;
        private final Forwarding forwarding;
        private final long portToPortPs;
        private final String source;

        SwitchClass(String label, Forwarding forwarding, long portToPortPs, String source) {
            this.label = label;
            this.forwarding = forwarding;
            this.portToPortPs = portToPortPs;
            this.source = source;
        }

        public String label() {
            return label;
        }

        public Forwarding forwarding() {
            return forwarding;
        }

        /** Port-to-port latency of an unloaded switch, picoseconds. */
        public long portToPortPs() {
            return portToPortPs;
        }

        public String source() {
            return source;
        }
    }

    /**
     * Switch products FabricLab recognises in a device's model text, each with the port-to-port
     * latency its maker publishes and where that figure is, or none where no primary figure was
     * found (then the switch takes its class's figure, and says so). A product's figure applies
     * under the transports of its own kind (an Ethernet product under RoCEv2 and Ultra Ethernet,
     * an InfiniBand product under InfiniBand); under the other kind the run uses the class figure
     * of its transport, as for a switch with no model text. docs/model.md, Switch port-to-port
     * latency, has the table.
     */
    public enum SwitchModel {
        SPECTRUM_4("NVIDIA Spectrum-4 (SN5600, SN5400; Spectrum-X)", false, SwitchClass.ETHERNET_CUT_THROUGH, null,
                "no port-to-port figure in NVIDIA's SN5000 material found (the Spectrum-4 launch names "
                        + "\"port-to-port cut-through latency\" without a number)",
                "sn5\\d{3}", "spectrum[- ]?4\\b", "spectrum[- ]?x(800)?\\b"),
        SPECTRUM_3("NVIDIA Spectrum-3 (SN4600, SN4700, SN4410)", false, SwitchClass.ETHERNET_CUT_THROUGH, null,
                "no port-to-port figure in NVIDIA's SN4000 material found", "sn4\\d{3}", "spectrum[- ]?3\\b"),
        SPECTRUM_2("NVIDIA Spectrum-2 (SN3700, SN3420, SN3800)", false, SwitchClass.ETHERNET_CUT_THROUGH, 300L,
                "Mellanox's Spectrum-2 launch figure, 300 ns, as the Linley Group newsletter \"Spectrum-2 Debuts "
                        + "200GbE\" (31 July 2017) reports it (no figure in NVIDIA's SN3000 datasheets found)",
                "sn3\\d{3}", "spectrum[- ]?2\\b"),
        SPECTRUM("Mellanox Spectrum (SN2700, SN2410, SN2100, SN2010)", false, SwitchClass.ETHERNET_CUT_THROUGH,
                300L, "Mellanox Spectrum SN2700 product brief: 300 ns port to port", "sn2\\d{3}",
                "spectrum[- ]?1\\b"),
        TOMAHAWK_5("Broadcom Tomahawk 5 (BCM78900, 51.2 Tb/s)", false, SwitchClass.ETHERNET_CUT_THROUGH, null,
                "Broadcom publishes no port-to-port figure for Tomahawk 5; none found in the switch datasheets searched",
                "tomahawk[- ]?5\\b", "\\bth5\\b", "bcm789\\d\\d"),
        TOMAHAWK_4("Broadcom Tomahawk 4 (BCM56990, 25.6 Tb/s)", false, SwitchClass.ETHERNET_CUT_THROUGH, null,
                "Broadcom publishes no port-to-port figure for Tomahawk 4; none found in the switch datasheets searched",
                "tomahawk[- ]?4\\b", "\\bth4\\b", "bcm5699\\d"),
        TOMAHAWK_3("Broadcom Tomahawk 3 (BCM56980, 12.8 Tb/s)", false, SwitchClass.ETHERNET_CUT_THROUGH, null,
                "Broadcom publishes no port-to-port figure for Tomahawk 3; none found in the switch datasheets searched",
                "tomahawk[- ]?3\\b", "\\bth3\\b", "bcm5698\\d"),
        JERICHO_3_AI("Broadcom Jericho 3-AI (BCM88890)", false, SwitchClass.ETHERNET_DEEP_BUFFER, null,
                "Broadcom publishes no port-to-port figure for Jericho 3-AI; none found",
                "jericho[- ]?3", "\\bj3[- ]?ai\\b", "\\bj3\\b", "bcm8889\\d"),
        JERICHO_2("Broadcom Jericho 2 (BCM88690; Arista 7280R3, 7800R3)", false, SwitchClass.ETHERNET_DEEP_BUFFER, null,
                "no port-to-port figure for Jericho 2 found beyond the class's", "jericho[- ]?2", "\\bj2c?\\b",
                "bcm8869\\d", "7280r3", "7800r3"),
        QUANTUM_X800("NVIDIA Quantum-X800 (Q3400, Q3200; XDR)", true, SwitchClass.INFINIBAND, null,
                "no port-to-port figure in NVIDIA's Q3200/Q3400 material found", "\\bq3[24]\\d\\d",
                "quantum[- ]?x800\\b"),
        QUANTUM_2("NVIDIA Quantum-2 (QM9700, QM9790; NDR)", true, SwitchClass.INFINIBAND, null,
                "no port-to-port figure in NVIDIA's QM9700/QM9790 material found; third-party product pages "
                        + "quote \"under 150 ns\", the class figure", "qm97\\d\\d", "quantum[- ]?2\\b"),
        QUANTUM_HDR("NVIDIA Quantum (QM8700, QM8790; HDR)", true, SwitchClass.INFINIBAND, 130L,
                "NVIDIA Quantum QM8700 product brief: 130 ns port to port", "qm87\\d\\d", "quantum[- ]?hdr",
                "quantum[- ]?1\\b");

        private final String displayName;
        private final boolean infiniband;
        private final SwitchClass switchClass;
        private final Long ownLatencyNs;
        private final String source;
        private final List<java.util.regex.Pattern> patterns;

        SwitchModel(String displayName, boolean infiniband, SwitchClass switchClass, Long ownLatencyNs, String source,
                    String... patterns) {
            this.displayName = displayName;
            this.infiniband = infiniband;
            this.switchClass = switchClass;
            this.ownLatencyNs = ownLatencyNs;
            this.source = source;
            this.patterns = java.util.Arrays.stream(patterns).map(java.util.regex.Pattern::compile).toList();
        }

        /** e.g. "NVIDIA Quantum-2 (QM9700, QM9790; NDR)". */
        public String displayName() {
            return displayName;
        }

        /** The class the product belongs to (its forwarding, and its figure when it has none of its own). */
        public SwitchClass switchClass() {
            return switchClass;
        }

        /** True when the maker publishes a port-to-port figure (and FabricLab found it). */
        public boolean hasOwnFigure() {
            return ownLatencyNs != null;
        }

        /** The product's port-to-port latency: its own published figure, else its class's, picoseconds. */
        public long portToPortPs() {
            return ownLatencyNs != null ? ownLatencyNs * Units.PS_PER_NS : switchClass.portToPortPs();
        }

        /** Where the figure comes from, or that there is none and the class figure is used. */
        public String source() {
            return ownLatencyNs != null ? source : source + "; class figure used: " + switchClass.source();
        }

        /** True when this product's figure applies to a run under {@code t}: an InfiniBand product under InfiniBand, an Ethernet one under the others. */
        public boolean appliesTo(Transport t) {
            return infiniband == (t == Transport.INFINIBAND);
        }

        boolean matches(String lowerCaseModel) {
            for (java.util.regex.Pattern p : patterns) {
                if (p.matcher(lowerCaseModel).find()) {
                    return true;
                }
            }
            return false;
        }
    }

    /** The product named by switch {@code sw}'s model text, or null when FabricLab recognises none. */
    public static SwitchModel modelOf(Device sw) {
        return modelOf(sw.model());
    }

    /** The product named by a model text ("NVIDIA SN5600", "64x800G TH5", "QM9700"), or null. */
    public static SwitchModel modelOf(String modelText) {
        if (modelText == null || modelText.isBlank()) {
            return null;
        }
        String m = modelText.toLowerCase(Locale.ROOT);
        for (SwitchModel s : SwitchModel.values()) {
            if (s.matches(m)) {
                return s;
            }
        }
        return null;
    }

    /** Words in a model's text that name a deep-buffer (VoQ, off-chip memory) Ethernet switch family. */
    private static final List<String> DEEP_BUFFER_WORDS = List.of("jericho", "j2c", "j3-ai", "j3ai", "7280r", "7800r",
            "ncs55", "ncs-55", "qfx10", "ptx", "deep-buffer", "deep buffer", "deepbuffer", "voq");

    private SwitchLatency() {
    }

    /** The class of switch {@code sw} is under transport {@code t}. */
    public static SwitchClass classOf(Device sw, Transport t) {
        if (t == Transport.INFINIBAND) {
            return SwitchClass.INFINIBAND;
        }
        SwitchModel product = modelOf(sw);
        if (product != null && product.appliesTo(t)) {
            return product.switchClass();
        }
        String model = sw.model() == null ? "" : sw.model().toLowerCase(Locale.ROOT);
        for (String w : DEEP_BUFFER_WORDS) {
            if (model.contains(w)) {
                return SwitchClass.ETHERNET_DEEP_BUFFER;
            }
        }
        return SwitchClass.ETHERNET_CUT_THROUGH;
    }

    /**
     * The port-to-port latency of switch {@code sw} under transport {@code t}, picoseconds: its
     * recognised product's published figure when it has one and applies to {@code t}
     * ({@link SwitchModel}), else its class's.
     */
    public static long portToPortPs(Device sw, Transport t) {
        SwitchModel product = modelOf(sw);
        if (product != null && product.appliesTo(t)) {
            return product.portToPortPs();
        }
        return classOf(sw, t).portToPortPs();
    }

    /** Where the figure {@link #portToPortPs(Device, Transport)} gives comes from. */
    public static String sourceOf(Device sw, Transport t) {
        SwitchModel product = modelOf(sw);
        if (product != null && product.appliesTo(t)) {
            return product.displayName() + ": " + product.source();
        }
        return classOf(sw, t).label() + ": " + classOf(sw, t).source();
    }

    // ----- Packet trimming (Ultra Ethernet): the size a switch model trims to -----

    /** Words in a model's text that name an NVIDIA Spectrum-4 (or later) switch, which trims to a configured size. */
    private static final List<String> SPECTRUM_TRIM_WORDS = List.of("spectrum-4", "spectrum4", "spectrum-x", "sn5600",
            "sn5400", "sn5610", "sn5640", "spectrum-5", "spectrum-6");

    /**
     * Largest frame, in bytes, a switch of model {@code sw} leaves of a data packet it trims (UEC
     * 1.0 packet trimming leaves the trimmed size to the switch as long as the headers survive).
     * NVIDIA Spectrum-4 and later trim to a configurable 256-1024 B, 256 B by default (Cumulus
     * Linux 5.14 and later, Packet Trimming: "nv set system forwarding packet-trim size", default
     * 256); any other model keeps the headers only ({@code headerBytes}, the least the receiver
     * needs to name the packet). A packet already at or below the size is not shortened.
     * docs/model.md, Ultra Ethernet in the simulator, cites both.
     */
    public static int trimmedFrameBytes(Device sw, int headerBytes) {
        String model = sw.model() == null ? "" : sw.model().toLowerCase(Locale.ROOT);
        for (String w : SPECTRUM_TRIM_WORDS) {
            if (model.contains(w)) {
                return Math.max(headerBytes, SPECTRUM_TRIM_BYTES);
            }
        }
        return headerBytes;
    }

    /** NVIDIA Spectrum-4's default trimmed size (Cumulus Linux 5.14+, Packet Trimming). */
    public static final int SPECTRUM_TRIM_BYTES = 256;
}
