package io.fabriclab.io.config;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import io.fabriclab.io.config.SwitchQosPlan.ConnectedPort;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.PfcConfig;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.WredEcn;

/**
 * Arista EOS configuration of one switch's QoS: DSCP and traffic-class maps, the PFC watchdog,
 * one "qos profile" per FabricLab QoS profile (scheduling and ECN of every tx-queue) and, per
 * connected interface, DSCP trust, PFC and the service-profile of the profile in force there.
 * Syntax as in Arista's AVD eos_cli_config_gen templates (tx-queue random-detect ecn, priority-flow-control
 * pause watchdog) and Arista's RoCE deployment examples; thresholds are written in bytes, which
 * EOS accepts, so the design's values are exact.
 */
public final class EosConfig implements SwitchConfigFormat {
    private static final String I1 = "   ";
    private static final String I2 = "      ";

    @Override
    public Vendor vendor() {
        return Vendor.EOS;
    }

    @Override
    public String render(Fabric fabric, Device device) {
        SwitchQosPlan plan = SwitchQosPlan.of(fabric, device);
        Map<QosProfile, String> profileNames = profileNames(plan);
        StringBuilder out = new StringBuilder();
        line(out, "! FabricLab QoS export for Arista EOS: switch " + device.id() + " of fabric \"" + fabric.name() + "\"");
        line(out, "! traffic class = DSCP >> 3 (RoCEv2 DSCP 26 -> 3, CNP DSCP 48 -> 6); traffic class k -> tx-queue k");
        line(out, "!");
        for (int tc = 0; tc < DscpClassification.TRAFFIC_CLASSES; tc++) {
            line(out, "qos map dscp " + DscpClassification.dscpsOf(tc).stream().map(String::valueOf)
                    .collect(Collectors.joining(" ")) + " to traffic-class " + tc);
        }
        // Traffic class 7 is tied to tx-queue 7 in EOS and cannot be remapped.
        for (int tc = 0; tc < 7; tc++) {
            line(out, "qos map traffic-class " + tc + " to tx-queue " + tc);
        }
        Optional<SwitchWatchdog> wd = SwitchWatchdog.of(plan, Vendor.EOS);
        if (wd.isPresent()) {
            String seconds = seconds(wd.get().ms(), device);
            line(out, "!");
            line(out, "priority-flow-control pause watchdog default timeout " + seconds);
            line(out, "priority-flow-control pause watchdog default recovery-time " + seconds);
            line(out, "priority-flow-control pause watchdog action "
                    + (wd.get().action() == PfcConfig.WatchdogAction.DROP ? "drop" : "no-drop"));
        }
        for (QosProfile q : plan.profilesInOrder()) {
            if (plan.ports().stream().noneMatch(cp -> cp.qos() == q)) {
                continue;
            }
            String where = "QoS profile \"" + q.name() + "\" on " + device.id();
            Map<Integer, Integer> shares = DwrrShares.percents(q.scheduler(), where);
            line(out, "!");
            line(out, "qos profile " + profileNames.get(q));
            for (int tx = 0; tx < 8; tx++) {
                line(out, I1 + "!");
                line(out, I1 + "tx-queue " + tx);
                if (q.scheduler().strictPriorityClasses().contains(tx)) {
                    line(out, I2 + "priority strict");
                } else {
                    // EOS tx-queues default to strict priority; DWRR classes must leave it.
                    line(out, I2 + "no priority");
                    line(out, I2 + "bandwidth percent " + shares.get(tx));
                }
                WredEcn w = q.ecn().forClass(tx);
                if (w != null) {
                    line(out, I2 + "random-detect ecn minimum-threshold " + w.kminBytes() + " bytes maximum-threshold "
                            + w.kmaxBytes() + " bytes max-mark-probability "
                            + QosValues.percent(w.pmax(), where + ", ECN class " + tx));
                }
            }
        }
        int ipMtu = QosValues.ipMtu(fabric.mtuBytes());
        for (ConnectedPort cp : plan.ports()) {
            line(out, "!");
            line(out, "interface " + PortNumbering.eos(cp.port()));
            line(out, I1 + "description " + SwitchQosPlan.description(cp));
            line(out, I1 + "mtu " + ipMtu);
            line(out, I1 + "qos trust dscp");
            if (cp.pfcOn()) {
                line(out, I1 + "priority-flow-control on");
                for (int p : cp.losslessPriorities().stream().sorted().toList()) {
                    line(out, I1 + "priority-flow-control priority " + p + " no-drop");
                }
            }
            line(out, I1 + "service-profile " + profileNames.get(cp.qos()));
        }
        line(out, "!");
        return out.toString();
    }

    /** Watchdog times in seconds with at most two decimals, the resolution EOS takes. */
    private static String seconds(long ms, Device device) {
        if (ms % 10 != 0) {
            throw new UnexportableQosException("switch " + device.id() + ": PFC watchdog " + ms
                    + " ms is finer than EOS's 10 ms (0.01 s) resolution");
        }
        return BigDecimal.valueOf(ms, 3).stripTrailingZeros().toPlainString();
    }

    private static Map<QosProfile, String> profileNames(SwitchQosPlan plan) {
        Map<QosProfile, String> names = new HashMap<>();
        Map<String, String> taken = new HashMap<>();
        for (QosProfile q : plan.profilesInOrder()) {
            String t = ConfigNames.token(q.name());
            String clash = taken.putIfAbsent(t, q.name());
            if (clash != null) {
                throw new UnexportableQosException("QoS profiles \"" + clash + "\" and \"" + q.name() + "\" on "
                        + plan.device().id() + " give the same EOS qos profile name " + t);
            }
            names.put(q, t);
        }
        return names;
    }

    private static void line(StringBuilder out, String s) {
        out.append(s).append('\n');
    }
}
