package io.fabriclab.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.SwitchLatency;
import io.fabriclab.model.SwitchLatency.Forwarding;
import io.fabriclab.model.SwitchLatency.SwitchClass;
import io.fabriclab.model.SwitchLatency.SwitchModel;
import io.fabriclab.model.Transport;
import io.fabriclab.model.Units;

/**
 * The port-to-port latency of a fabric's switches, one row per switch model, under each
 * transport: {@link SwitchLatency} (the model's per-device table) applied to the switches of a
 * fabric, for analyze's table and a comparison's list of the latencies its runs used.
 */
public final class FabricSwitchLatency {

    private FabricSwitchLatency() {
    }

    /**
     * Switches of one model (the model text, or the port configuration when there is none) and the
     * class and latency they get under each transport.
     *
     * @param model    the model text or port configuration
     * @param switches how many switches of the fabric have it
     * @param byTransport class under RoCEv2, InfiniBand and Ultra Ethernet, in {@link Transport} order
     * @param product     the switch product recognised in the model text, or null
     * @param portToPortPsByTransport latency under each transport, in {@link Transport} order, picoseconds
     * @param sourceByTransport where each of those figures comes from, in {@link Transport} order
     */
    public record ModelLatency(String model, int switches, List<SwitchClass> byTransport, SwitchModel product,
                               List<Long> portToPortPsByTransport, List<String> sourceByTransport) {

        /** The latency these switches get under {@code t}, picoseconds. */
        public long portToPortPs(Transport t) {
            return portToPortPsByTransport.get(t.ordinal());
        }

        public String source(Transport t) {
            return sourceByTransport.get(t.ordinal());
        }

        /** e.g. "64x400G (4 switches): 300 ns cut-through; Ethernet, cut-through (...): Mellanox Spectrum SN2700 ...". */
        public String describe(Transport t) {
            SwitchClass c = byTransport.get(t.ordinal());
            long ps = portToPortPs(t);
            String ns = ps % Units.PS_PER_NS == 0 ? Long.toString(ps / Units.PS_PER_NS)
                    : String.format(Locale.ROOT, "%.1f", ps / (double) Units.PS_PER_NS);
            return model + " (" + switches + (switches == 1 ? " switch" : " switches") + "): " + ns + " ns "
                    + (c.forwarding() == Forwarding.CUT_THROUGH ? "cut-through" : "store-and-forward") + "; "
                    + source(t);
        }
    }

    /** The latency of every switch model of {@code fabric} under {@code t}, one line each, for a run's results. */
    public static List<String> describe(Fabric fabric, Transport t) {
        return of(fabric).stream().map(m -> m.describe(t)).toList();
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
            List<Long> latencies = new ArrayList<>();
            List<String> sources = new ArrayList<>();
            Device first = devices.get(0);
            for (Transport t : Transport.values()) {
                classes.add(SwitchLatency.classOf(first, t));
                latencies.add(SwitchLatency.portToPortPs(first, t));
                sources.add(SwitchLatency.sourceOf(first, t));
            }
            out.add(new ModelLatency(model, devices.size(), List.copyOf(classes), SwitchLatency.modelOf(first),
                    List.copyOf(latencies), List.copyOf(sources)));
        });
        return out;
    }

}
