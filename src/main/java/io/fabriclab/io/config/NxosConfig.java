package io.fabriclab.io.config;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.fabriclab.io.config.SwitchQosPlan.ConnectedPort;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.PfcConfig;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.WredEcn;

/**
 * Cisco NX-OS (Nexus 9000, 8-queue system classes) configuration of one switch's QoS: DSCP
 * classification into qos-groups, a network-qos policy with a no-drop class per lossless priority
 * ("pause pfc-cos", mtu), one queuing policy per FabricLab QoS profile (bandwidth remaining percent,
 * priority level, WRED-ECN), the PFC watchdog, and per connected interface the policies and
 * "priority-flow-control mode on". Syntax as in Cisco's Nexus 9000 QoS configuration guide and
 * its RoCEv2 examples. NX-OS thresholds are written in kbytes (1 kbyte = 1000 B, rounded).
 */
public final class NxosConfig implements SwitchConfigFormat {
    static final String CLASSIFY = "FL-CLASSIFY";
    static final String NETWORK_QOS = "FL-NETWORK-QOS";
    private static final String I1 = "  ";
    private static final String I2 = "    ";
    /** The watchdog polls every 100-1000 ms and shuts a queue after 1-10 polls (NX-OS ranges). */
    private static final long WD_INTERVAL_MIN_MS = 100;
    private static final long WD_INTERVAL_MAX_MS = 1000;
    private static final int WD_SHUTDOWN_MULTIPLIER_MAX = 10;

    @Override
    public Vendor vendor() {
        return Vendor.NXOS;
    }

    @Override
    public String render(Fabric fabric, Device device) {
        SwitchQosPlan plan = SwitchQosPlan.of(fabric, device);
        Set<Integer> lossless = plan.losslessPriorities();
        for (ConnectedPort cp : plan.ports()) {
            if (cp.pfcOn() && !cp.losslessPriorities().equals(lossless)) {
                throw new UnexportableQosException("NX-OS no-drop classes are system-wide, but on " + device.id()
                        + " port " + cp.port().name() + " is lossless on " + cp.losslessPriorities()
                        + " while the switch's PFC ports together use " + lossless);
            }
        }
        Map<QosProfile, String> queuing = policyNames(plan);
        StringBuilder out = new StringBuilder();
        line(out, "! FabricLab QoS export for Cisco NX-OS: switch " + device.id() + " of fabric \"" + fabric.name() + "\"");
        line(out, "! qos-group = DSCP >> 3 (RoCEv2 DSCP 26 -> 3, CNP DSCP 48 -> 6); qos-group k -> queue k");
        for (int tc = 1; tc < DscpClassification.TRAFFIC_CLASSES; tc++) {
            List<Integer> d = DscpClassification.dscpsOf(tc);
            line(out, "!");
            line(out, "class-map type qos match-all FL-TC" + tc);
            line(out, I1 + "match dscp " + d.get(0) + "-" + d.get(d.size() - 1));
        }
        line(out, "!");
        line(out, "policy-map type qos " + CLASSIFY);
        for (int tc = 1; tc < DscpClassification.TRAFFIC_CLASSES; tc++) {
            line(out, I1 + "class FL-TC" + tc);
            line(out, I2 + "set qos-group " + tc);
        }
        line(out, "!");
        line(out, "policy-map type network-qos " + NETWORK_QOS);
        for (int p : lossless) {
            line(out, I1 + "class type network-qos c-8q-nq" + p);
            line(out, I2 + "pause pfc-cos " + p);
            line(out, I2 + "mtu " + fabric.mtuBytes());
        }
        line(out, I1 + "class type network-qos c-8q-nq-default");
        line(out, I2 + "mtu " + fabric.mtuBytes());
        for (QosProfile q : plan.profilesInOrder()) {
            if (plan.ports().stream().noneMatch(cp -> cp.qos() == q)) {
                continue;
            }
            String where = "QoS profile \"" + q.name() + "\" on " + device.id();
            Map<Integer, Integer> shares = DwrrShares.percents(q.scheduler(), where);
            List<Integer> strict = q.scheduler().strictPriorityClasses().stream().sorted().toList();
            line(out, "!");
            line(out, "policy-map type queuing " + queuing.get(q));
            for (int c = 0; c < 8; c++) {
                line(out, I1 + "class type queuing " + (c == 0 ? "c-out-8q-q-default" : "c-out-8q-q" + c));
                if (strict.contains(c)) {
                    // Level 1 is served first: the highest strict class gets it.
                    line(out, I2 + "priority level " + (strict.size() - strict.indexOf(c)));
                } else {
                    line(out, I2 + "bandwidth remaining percent " + shares.get(c));
                }
                WredEcn w = q.ecn().forClass(c);
                if (w != null) {
                    line(out, I2 + "random-detect minimum-threshold " + kbytes(w.kminBytes()) + " kbytes maximum-threshold "
                            + kbytes(w.kmaxBytes()) + " kbytes drop-probability "
                            + QosValues.percent(w.pmax(), where + ", ECN class " + c) + " weight 0 ecn");
                }
            }
        }
        line(out, "!");
        line(out, "system qos");
        line(out, I1 + "service-policy type network-qos " + NETWORK_QOS);
        Optional<SwitchWatchdog> wd = SwitchWatchdog.of(plan, Vendor.NXOS);
        if (wd.isPresent()) {
            if (wd.get().action() != PfcConfig.WatchdogAction.DROP) {
                throw new UnexportableQosException("switch " + device.id() + ": the PFC watchdog action is "
                        + wd.get().action() + ", NX-OS's watchdog can only drop a stormed queue");
            }
            long ms = wd.get().ms();
            int multiplier = shutdownMultiplier(ms, device);
            long interval = ms / multiplier;
            line(out, "!");
            line(out, "priority-flow-control watch-dog-interval on");
            line(out, "priority-flow-control watch-dog interval " + interval);
            line(out, "priority-flow-control watch-dog shutdown-multiplier " + multiplier);
            // Restoration after as long as detection took: the same number of polls.
            line(out, "priority-flow-control auto-restore multiplier " + multiplier);
        }
        for (ConnectedPort cp : plan.ports()) {
            line(out, "!");
            line(out, "interface " + PortNumbering.nxos(cp.port()));
            line(out, I1 + "description " + SwitchQosPlan.description(cp));
            line(out, I1 + "service-policy type qos input " + CLASSIFY);
            line(out, I1 + "service-policy type queuing output " + queuing.get(cp.qos()));
            if (cp.pfcOn()) {
                line(out, I1 + "priority-flow-control mode on");
            }
        }
        line(out, "!");
        return out.toString();
    }

    /**
     * NX-OS detects a storm after interval x shutdown-multiplier: the largest multiplier (finest
     * polling) that splits the design's time into a whole interval of 100-1000 ms.
     */
    static int shutdownMultiplier(long ms, Device device) {
        for (int m = WD_SHUTDOWN_MULTIPLIER_MAX; m >= 1; m--) {
            if (ms % m == 0 && ms / m >= WD_INTERVAL_MIN_MS && ms / m <= WD_INTERVAL_MAX_MS) {
                return m;
            }
        }
        throw new UnexportableQosException("switch " + device.id() + ": PFC watchdog " + ms + " ms is not a whole "
                + "interval of 100-1000 ms times a shutdown multiplier of 1-10 (NX-OS)");
    }

    private static long kbytes(long bytes) {
        return Math.round(bytes / 1000.0);
    }

    private static Map<QosProfile, String> policyNames(SwitchQosPlan plan) {
        Map<QosProfile, String> names = new HashMap<>();
        Map<String, String> taken = new HashMap<>();
        for (QosProfile q : plan.profilesInOrder()) {
            String t = "FL-QUEUING-" + ConfigNames.token(q.name());
            String clash = taken.putIfAbsent(t, q.name());
            if (clash != null) {
                throw new UnexportableQosException("QoS profiles \"" + clash + "\" and \"" + q.name() + "\" on "
                        + plan.device().id() + " give the same NX-OS policy name " + t);
            }
            names.put(q, t);
        }
        return names;
    }

    private static void line(StringBuilder out, String s) {
        out.append(s).append('\n');
    }
}
