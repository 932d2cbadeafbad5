package io.fabriclab.io.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertLinesMatch;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.EcnConfig;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.PfcConfig;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.WredEcn;

class NxosConfigTest {

    private static List<String> render(Fabric f, String sw) {
        return new NxosConfig().render(f, f.device(sw)).lines().toList();
    }

    /**
     * The whole of spine1, written by hand. DWRR shares as for EOS: 15 % for queues 0 and 1, 14 %
     * for 2-5 and 7, queue 6 strict. ECN in kbytes: 800 000 B = 800, 3 200 000 B = 3200, 20 %.
     * Watchdog 200 ms = interval 100 ms x shutdown multiplier 2 (20 ms x 10 is below NX-OS's
     * 100 ms minimum interval), restoring after the same 2 intervals. Frames of 4200 B.
     */
    @Test
    void spineConfigurationMatchesTheHandWrittenOne() {
        List<String> expected = List.of(
                "! FabricLab QoS export for Cisco NX-OS: switch spine1 of fabric \"lab\"",
                "! qos-group = DSCP >> 3 (RoCEv2 DSCP 26 -> 3, CNP DSCP 48 -> 6); qos-group k -> queue k",
                "!",
                "class-map type qos match-all FL-TC1",
                "  match dscp 8-15",
                "!",
                "class-map type qos match-all FL-TC2",
                "  match dscp 16-23",
                "!",
                "class-map type qos match-all FL-TC3",
                "  match dscp 24-31",
                "!",
                "class-map type qos match-all FL-TC4",
                "  match dscp 32-39",
                "!",
                "class-map type qos match-all FL-TC5",
                "  match dscp 40-47",
                "!",
                "class-map type qos match-all FL-TC6",
                "  match dscp 48-55",
                "!",
                "class-map type qos match-all FL-TC7",
                "  match dscp 56-63",
                "!",
                "policy-map type qos FL-CLASSIFY",
                "  class FL-TC1",
                "    set qos-group 1",
                "  class FL-TC2",
                "    set qos-group 2",
                "  class FL-TC3",
                "    set qos-group 3",
                "  class FL-TC4",
                "    set qos-group 4",
                "  class FL-TC5",
                "    set qos-group 5",
                "  class FL-TC6",
                "    set qos-group 6",
                "  class FL-TC7",
                "    set qos-group 7",
                "!",
                "policy-map type network-qos FL-NETWORK-QOS",
                "  class type network-qos c-8q-nq3",
                "    pause pfc-cos 3",
                "    mtu 4200",
                "  class type network-qos c-8q-nq-default",
                "    mtu 4200",
                "!",
                "policy-map type queuing FL-QUEUING-roce",
                "  class type queuing c-out-8q-q-default",
                "    bandwidth remaining percent 15",
                "  class type queuing c-out-8q-q1",
                "    bandwidth remaining percent 15",
                "  class type queuing c-out-8q-q2",
                "    bandwidth remaining percent 14",
                "  class type queuing c-out-8q-q3",
                "    bandwidth remaining percent 14",
                "    random-detect minimum-threshold 800 kbytes maximum-threshold 3200 kbytes drop-probability 20 weight 0 ecn",
                "  class type queuing c-out-8q-q4",
                "    bandwidth remaining percent 14",
                "  class type queuing c-out-8q-q5",
                "    bandwidth remaining percent 14",
                "  class type queuing c-out-8q-q6",
                "    priority level 1",
                "  class type queuing c-out-8q-q7",
                "    bandwidth remaining percent 14",
                "!",
                "system qos",
                "  service-policy type network-qos FL-NETWORK-QOS",
                "!",
                "priority-flow-control watch-dog-interval on",
                "priority-flow-control watch-dog interval 100",
                "priority-flow-control watch-dog shutdown-multiplier 2",
                "priority-flow-control auto-restore multiplier 2",
                "!",
                "interface Ethernet1/1",
                "  description to leaf1:eth3",
                "  service-policy type qos input FL-CLASSIFY",
                "  service-policy type queuing output FL-QUEUING-roce",
                "  priority-flow-control mode on",
                "!",
                "interface Ethernet1/2",
                "  description to leaf2:eth3",
                "  service-policy type qos input FL-CLASSIFY",
                "  service-policy type queuing output FL-QUEUING-roce",
                "  priority-flow-control mode on",
                "!");
        assertLinesMatch(expected, render(ExportFixtures.lab(), "spine1"));
    }

    @Test
    void portLevelOverrideShowsOnThatInterfaceOnly() {
        Fabric f = ExportFixtures.lab();
        f.putQosProfile(QosProfile.roceLossless("roce-deep", 400)
                .withEcn(new EcnConfig(true, Map.of(3, new WredEcn(1_000_000, 4_000_000, 0.05)), null)));
        f.port("leaf1:eth2").setQosProfile("roce-deep");
        List<String> lines = render(f, "leaf1");
        assertLinesMatch(List.of(
                ">> classification, network-qos, queuing policy of roce >>",
                "policy-map type queuing FL-QUEUING-roce-deep",
                ">> queues 0 to 2 >>",
                "  class type queuing c-out-8q-q3",
                "    bandwidth remaining percent 14",
                "    random-detect minimum-threshold 1000 kbytes maximum-threshold 4000 kbytes drop-probability 5 weight 0 ecn",
                ">> system qos, watchdog >>",
                "interface Ethernet1/1",
                "  description to srv1:eth1",
                "  service-policy type qos input FL-CLASSIFY",
                "  service-policy type queuing output FL-QUEUING-roce",
                "  priority-flow-control mode on",
                "!",
                "interface Ethernet1/2",
                "  description to srv2:eth1",
                "  service-policy type qos input FL-CLASSIFY",
                "  service-policy type queuing output FL-QUEUING-roce-deep",
                "  priority-flow-control mode on",
                "!",
                "interface Ethernet1/3",
                ">> eth3 >>",
                "  service-policy type queuing output FL-QUEUING-roce",
                "  priority-flow-control mode on",
                "!"), lines);
    }

    @Test
    void everyAppliedPolicyIsDefinedOnce() {
        Fabric f = ExportFixtures.lab();
        f.putQosProfile(QosProfile.bestEffort("be"));
        f.port("leaf1:eth1").setQosProfile("be");
        for (String sw : List.of("leaf1", "leaf2", "spine1")) {
            List<String> lines = render(f, sw);
            lines.stream().filter(l -> l.contains("service-policy type ")).forEach(l -> {
                String[] w = l.trim().split(" ");
                String type = w[2];
                String name = w[w.length - 1];
                assertEquals(1, lines.stream().filter(d -> d.equals("policy-map type " + type + " " + name)).count(), sw + ": " + l);
            });
            lines.stream().filter(l -> l.startsWith("  class FL-TC")).forEach(l -> assertTrue(
                    lines.contains("class-map type qos match-all " + l.trim().substring(6)), l));
        }
    }

    @Test
    void fabricWithoutPfcHasNoPfcLines() {
        List<String> lines = render(ExportFixtures.lab(QosProfile.bestEffort("be")), "leaf1");
        assertTrue(lines.stream().noneMatch(l -> l.contains("priority-flow-control") || l.contains("pause")),
                String.join("\n", lines));
        assertTrue(lines.stream().noneMatch(l -> l.contains("random-detect")));
    }

    @Test
    void losslessPrioritiesThatDifferBetweenPortsAreRefused() {
        Fabric f = ExportFixtures.lab();
        f.putQosProfile(QosProfile.roceLossless("two", 400)
                .withPfc(new PfcConfig(true, Set.of(3, 4), 1_000_000, 800_000, 200_000, 200_000, null)));
        f.port("leaf1:eth1").setQosProfile("two");
        UnexportableQosException e = assertThrows(UnexportableQosException.class, () -> render(f, "leaf1"));
        assertTrue(e.getMessage().contains("system-wide"), e.getMessage());
    }

    @Test
    void forwardingWatchdogIsRefused() {
        QosProfile q = QosProfile.roceLossless("roce", 400)
                .withPfc(new PfcConfig(true, Set.of(3), 1_000_000, 800_000, 200_000, 200_000, PfcConfig.WatchdogAction.FORWARD));
        Fabric f = ExportFixtures.lab(q);
        assertThrows(UnexportableQosException.class, () -> render(f, "leaf1"));
    }

    @Test
    void watchdogTimeSplitsIntoTheFinestWholeInterval() {
        Device d = new Device("x", DeviceRole.LEAF);
        // 150 ms: only 150 x 1 keeps the interval at or above 100 ms.
        assertEquals(1, NxosConfig.shutdownMultiplier(150, d));
        // 1000 ms = 100 ms x 10; 3000 ms = 300 ms x 10.
        assertEquals(10, NxosConfig.shutdownMultiplier(1000, d));
        assertEquals(10, NxosConfig.shutdownMultiplier(3000, d));
        // 1003 ms = 17 x 59: no whole interval of 100-1000 ms; 50 ms is below the minimum interval.
        assertThrows(UnexportableQosException.class, () -> NxosConfig.shutdownMultiplier(1003, d));
        assertThrows(UnexportableQosException.class, () -> NxosConfig.shutdownMultiplier(50, d));
    }
}
