package io.fabriclab.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Transport;
import io.fabriclab.model.Units;

/**
 * Port-to-port latency of a switch, a property of its model for every transport: the pipeline
 * delay of an unloaded switch on a minimum-size packet (what datasheets quote), queueing excluded.
 * The class follows from the run's transport and the device's model text: an InfiniBand run uses
 * InfiniBand switches of the same radix; an Ethernet run (RoCEv2, Ultra Ethernet) uses
 * shallow-buffer cut-through switches unless the model names a deep-buffer family. A
 * store-and-forward switch also waits for the whole packet before forwarding it; that
 * serialization is not part of this figure. The simulator applies the figure and the forwarding
 * mode at every switch (sim.SwitchPipeline).
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
         * Broadcom Tomahawk class): about 300 ns (Spectrum SN2700 brief) to 800 ns (Tomahawk-class
         * 400G/800G datasheets). 600 ns is taken.
         */
        ETHERNET_CUT_THROUGH("Ethernet, cut-through (Spectrum/Tomahawk-class)", Forwarding.CUT_THROUGH,
                600 * Units.PS_PER_NS, "Spectrum SN2700 brief 300 ns; Tomahawk-class 400G/800G datasheets up to 800 ns"),
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
        String model = sw.model() == null ? "" : sw.model().toLowerCase(Locale.ROOT);
        for (String w : DEEP_BUFFER_WORDS) {
            if (model.contains(w)) {
                return SwitchClass.ETHERNET_DEEP_BUFFER;
            }
        }
        return SwitchClass.ETHERNET_CUT_THROUGH;
    }

    /** The port-to-port latency the simulator adds at switch {@code sw} under transport {@code t}, picoseconds. */
    public static long portToPortPs(Device sw, Transport t) {
        return classOf(sw, t).portToPortPs();
    }

    /**
     * Switches of one model (the model text, or the port configuration when there is none) and the
     * class and latency they get under each transport.
     *
     * @param model    the model text or port configuration
     * @param switches how many switches of the fabric have it
     * @param byTransport class under RoCEv2, InfiniBand and Ultra Ethernet, in {@link Transport} order
     */
    public record ModelLatency(String model, int switches, List<SwitchClass> byTransport) {
    }

    /** One row per switch model of the fabric, in model order. */
    public static List<ModelLatency> of(Fabric fabric) {
        Map<String, List<Device>> byModel = new TreeMap<>();
        for (Device sw : fabric.switches()) {
            String key = sw.model() == null || sw.model().isBlank() ? SwitchSku.of(sw) : sw.model();
            byModel.computeIfAbsent(key, k -> new ArrayList<>()).add(sw);
        }
        List<ModelLatency> out = new ArrayList<>();
        byModel.forEach((model, devices) -> {
            List<SwitchClass> classes = new ArrayList<>();
            for (Transport t : Transport.values()) {
                classes.add(classOf(devices.get(0), t));
            }
            out.add(new ModelLatency(model, devices.size(), List.copyOf(classes)));
        });
        return out;
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
