package io.fabriclab.counters;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.PfcConfig;
import io.fabriclab.model.Port;
import io.fabriclab.model.QosProfile;
import io.fabriclab.sim.QosResolver;
import io.fabriclab.topology.Finding;

/**
 * What measured counters say is wrong, as findings beside lint's (the same codes in the Problems
 * panel, the CLI and the report):
 * <ul>
 * <li>{@code COUNTER_PAUSE_UNEXPECTED}: PFC frames on a priority the port's QoS does not make
 * lossless (a peer configured differently from the drawing);</li>
 * <li>{@code COUNTER_PAUSE_NOT_SIMULATED}: pauses on a port where the simulation paused nothing;</li>
 * <li>{@code COUNTER_LOSSLESS_DROP}: drops on a lossless priority (PFC should have prevented them:
 * headroom overflow, a watchdog, or a class mapped elsewhere);</li>
 * <li>{@code COUNTER_CNP_WITHOUT_ECN}: a NIC sending CNPs while no ECN marks were counted upstream
 * (the NIC's own marked-packet counter, else every measured switch egress);</li>
 * <li>{@code COUNTER_ECMP_IMBALANCE}: a switch's uplinks carrying unequal traffic, the busiest more
 * than {@link #DEFAULT_IMBALANCE} above their mean.</li>
 * </ul>
 */
public final class CounterFindings {
    /**
     * How far above the mean the busiest uplink may run before it is flagged: FabricLab's own bound
     * (ECMP over a few long flows is lumpy by nature; 25 % is where a collision shows as a slower
     * job step on a 2-uplink leaf), adjustable with {@code --imbalance}.
     */
    public static final double DEFAULT_IMBALANCE = 0.25;

    private CounterFindings() {
    }

    public static List<Finding> of(Fabric fabric, Measured m, Map<String, PortFigures> sim, double imbalanceBound) {
        List<Finding> out = new ArrayList<>();
        QosResolver qos = QosResolver.of(fabric);
        double ecnAtSwitches = Double.NaN;
        for (Map.Entry<String, Measured.PortCounters> e : m.ports().entrySet()) {
            Port p = fabric.port(e.getKey());
            if (p != null && p.device().role().isSwitch()) {
                ecnAtSwitches = PortFigures.nanSum(ecnAtSwitches, e.getValue().rate(CounterKind.ECN_MARKED));
            }
        }
        for (Map.Entry<String, Measured.PortCounters> e : m.ports().entrySet()) {
            String ref = e.getKey();
            Port p = fabric.port(ref);
            if (p == null) {
                continue;
            }
            Measured.PortCounters c = e.getValue();
            QosProfile q = qos.qosFor(p);
            PfcConfig pfc = q == null ? PfcConfig.off() : q.pfc();
            // Pauses on a class that is not lossless here.
            for (CounterKind k : List.of(CounterKind.PFC_RX, CounterKind.PFC_TX)) {
                Map<Integer, Double> byPrio = c.rates().get(k);
                if (byPrio == null) {
                    continue;
                }
                for (Map.Entry<Integer, Double> pr : byPrio.entrySet()) {
                    int prio = pr.getKey();
                    boolean lossless = pfc.enabled() && (prio < 0 || pfc.isLossless(prio));
                    if (pr.getValue() > 0 && !lossless) {
                        out.add(new Finding(Finding.Severity.WARNING, "COUNTER_PAUSE_UNEXPECTED", ref, String.format(Locale.ROOT,
                                "%s %.1f PFC frames/s on priority %s, which %s does not make lossless (%s)",
                                k == CounterKind.PFC_RX ? "received" : "sent", pr.getValue(), prio < 0 ? "?" : prio,
                                q == null ? "the port's QoS" : q.name(), pfc.enabled() ? "lossless: " + pfc.priorities() : "PFC off"),
                                "make the switch's and the NIC's PFC priorities match the drawing's QoS (or correct the drawing)"));
                    }
                }
            }
            PortFigures f = c.figures();
            if (sim != null && f.pfcPerS() > 0) {
                PortFigures s = sim.get(ref);
                if (s == null || !(s.pfcPerS() > 0)) {
                    out.add(new Finding(Finding.Severity.INFO, "COUNTER_PAUSE_NOT_SIMULATED", ref, String.format(Locale.ROOT,
                            "%.1f PFC frames/s measured; the simulated run paused nothing here", f.pfcPerS()),
                            "check the scenario's traffic against the real job's, or the switch's XOFF against the drawing's"));
                }
            }
            // Drops on a lossless class.
            Map<Integer, Double> drops = c.rates().get(CounterKind.DROPS);
            if (drops != null && pfc.enabled()) {
                for (Map.Entry<Integer, Double> d : drops.entrySet()) {
                    if (d.getKey() >= 0 && pfc.isLossless(d.getKey()) && d.getValue() > 0) {
                        out.add(new Finding(Finding.Severity.ERROR, "COUNTER_LOSSLESS_DROP", ref, String.format(Locale.ROOT,
                                "%.1f drops/s on lossless priority %d", d.getValue(), d.getKey()),
                                "check PFC headroom (fabriclab analyze), the PFC watchdog and the DSCP-to-priority map"));
                    }
                }
            }
            // CNPs with no ECN marks upstream.
            if (p.device().role() == DeviceRole.SERVER && c.rate(CounterKind.CNP_SENT) > 0) {
                double upstream = c.rate(CounterKind.ECN_RECEIVED);
                if (Double.isNaN(upstream)) {
                    upstream = ecnAtSwitches;
                }
                if (upstream == 0) {
                    out.add(new Finding(Finding.Severity.WARNING, "COUNTER_CNP_WITHOUT_ECN", ref, String.format(Locale.ROOT,
                            "the NIC sent %.1f CNPs/s but no ECN-marked packets were counted upstream", c.rate(CounterKind.CNP_SENT)),
                            "check that the switches' ECN counters are read (and cleared) at the same time, and the NIC's CNP settings"));
                }
            }
        }
        out.addAll(imbalance(fabric, m, imbalanceBound));
        return out;
    }

    /** Each switch whose measured uplinks carry unequal traffic beyond {@code bound}. */
    static List<Finding> imbalance(Fabric fabric, Measured m, double bound) {
        List<Finding> out = new ArrayList<>();
        for (Device d : fabric.devices()) {
            if (!d.role().isSwitch()) {
                continue;
            }
            List<double[]> up = new ArrayList<>();
            List<String> names = new ArrayList<>();
            boolean bytes = true;
            for (Port p : d.ports()) {
                Link l = fabric.linkAt(p);
                if (l == null || l.opposite(p).device().role().tier() <= d.role().tier()) {
                    continue;
                }
                Measured.PortCounters c = m.ports().get(p.ref());
                if (c == null) {
                    continue;
                }
                double v = c.rate(CounterKind.TX_BYTES);
                if (Double.isNaN(v)) {
                    v = c.rate(CounterKind.TX_PACKETS);
                    bytes = false;
                }
                if (!Double.isNaN(v)) {
                    up.add(new double[] {v});
                    names.add(p.name());
                }
            }
            if (up.size() < 2) {
                continue;
            }
            double mean = up.stream().mapToDouble(a -> a[0]).average().orElse(0);
            double max = up.stream().mapToDouble(a -> a[0]).max().orElse(0);
            double min = up.stream().mapToDouble(a -> a[0]).min().orElse(0);
            if (mean > 0 && max / mean - 1 > bound) {
                String unit = bytes ? "Gb/s" : "kpackets/s";
                double scale = bytes ? 8 / 1e9 : 1 / 1e3;
                out.add(new Finding(Finding.Severity.WARNING, "COUNTER_ECMP_IMBALANCE", d.id(), String.format(Locale.ROOT,
                        "uplinks %s carry %.2f to %.2f %s: the busiest %.0f %% above their mean (bound %.0f %%)",
                        String.join(", ", names), min * scale, max * scale, unit, (max / mean - 1) * 100, bound * 100),
                        "look for few large flows hashing together (fabriclab simulate shows the ECMP spread); consider adaptive routing or more QPs per connection"));
            }
        }
        return out;
    }
}
