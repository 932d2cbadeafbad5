package io.fabriclab.io.config;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertLinesMatch;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.EcnConfig;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.PfcConfig;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.WredEcn;

class EosConfigTest {

    private static List<String> render(Fabric f, String sw) {
        return new EosConfig().render(f, f.device(sw)).lines().toList();
    }

    /**
     * The whole of leaf1, written by hand. DWRR: classes 0-5 and 7 have weight 1 (6 is strict), so
     * each gets 100/7 = 14 % with 2 points left over, given to the lowest classes 0 and 1 (15 %).
     * ECN on tx-queue 3: Kmin 800 000 B, Kmax 3 200 000 B, Pmax 0.2 = 20 %. Watchdog 200 ms =
     * 0.2 s. Leaf ports are 400G, so eth1 is Ethernet1/1; MTU 4200 B frames = 4182 B IP MTU.
     */
    @Test
    void leafConfigurationMatchesTheHandWrittenOne() {
        List<String> expected = List.of(
                "! FabricLab QoS export for Arista EOS: switch leaf1 of fabric \"lab\"",
                "! traffic class = DSCP >> 3 (RoCEv2 DSCP 26 -> 3, CNP DSCP 48 -> 6); traffic class k -> tx-queue k",
                "!",
                "qos map dscp 0 1 2 3 4 5 6 7 to traffic-class 0",
                "qos map dscp 8 9 10 11 12 13 14 15 to traffic-class 1",
                "qos map dscp 16 17 18 19 20 21 22 23 to traffic-class 2",
                "qos map dscp 24 25 26 27 28 29 30 31 to traffic-class 3",
                "qos map dscp 32 33 34 35 36 37 38 39 to traffic-class 4",
                "qos map dscp 40 41 42 43 44 45 46 47 to traffic-class 5",
                "qos map dscp 48 49 50 51 52 53 54 55 to traffic-class 6",
                "qos map dscp 56 57 58 59 60 61 62 63 to traffic-class 7",
                "qos map traffic-class 0 to tx-queue 0",
                "qos map traffic-class 1 to tx-queue 1",
                "qos map traffic-class 2 to tx-queue 2",
                "qos map traffic-class 3 to tx-queue 3",
                "qos map traffic-class 4 to tx-queue 4",
                "qos map traffic-class 5 to tx-queue 5",
                "qos map traffic-class 6 to tx-queue 6",
                "!",
                "priority-flow-control pause watchdog default timeout 0.2",
                "priority-flow-control pause watchdog default recovery-time 0.2",
                "priority-flow-control pause watchdog action drop",
                "!",
                "qos profile roce",
                "   !",
                "   tx-queue 0",
                "      no priority",
                "      bandwidth percent 15",
                "   !",
                "   tx-queue 1",
                "      no priority",
                "      bandwidth percent 15",
                "   !",
                "   tx-queue 2",
                "      no priority",
                "      bandwidth percent 14",
                "   !",
                "   tx-queue 3",
                "      no priority",
                "      bandwidth percent 14",
                "      random-detect ecn minimum-threshold 800000 bytes maximum-threshold 3200000 bytes max-mark-probability 20",
                "   !",
                "   tx-queue 4",
                "      no priority",
                "      bandwidth percent 14",
                "   !",
                "   tx-queue 5",
                "      no priority",
                "      bandwidth percent 14",
                "   !",
                "   tx-queue 6",
                "      priority strict",
                "   !",
                "   tx-queue 7",
                "      no priority",
                "      bandwidth percent 14",
                "!",
                "interface Ethernet1/1",
                "   description to srv1:eth1",
                "   mtu 4182",
                "   qos trust dscp",
                "   priority-flow-control on",
                "   priority-flow-control priority 3 no-drop",
                "   service-profile roce",
                "!",
                "interface Ethernet2/1",
                "   description to srv2:eth1",
                "   mtu 4182",
                "   qos trust dscp",
                "   priority-flow-control on",
                "   priority-flow-control priority 3 no-drop",
                "   service-profile roce",
                "!",
                "interface Ethernet3/1",
                "   description to spine1:eth1",
                "   mtu 4182",
                "   qos trust dscp",
                "   priority-flow-control on",
                "   priority-flow-control priority 3 no-drop",
                "   service-profile roce",
                "!");
        assertLinesMatch(expected, render(ExportFixtures.lab(), "leaf1"));
    }

    @Test
    void portLevelOverrideShowsOnThatInterfaceOnly() {
        Fabric f = ExportFixtures.lab();
        f.putQosProfile(QosProfile.roceLossless("roce-deep", 400)
                .withEcn(new EcnConfig(true, Map.of(3, new WredEcn(1_000_000, 4_000_000, 0.05)), null)));
        f.port("leaf1:eth2").setQosProfile("roce-deep");
        List<String> lines = render(f, "leaf1");
        assertLinesMatch(List.of(
                ">> the maps, the watchdog and profile roce >>",
                "qos profile roce-deep",
                ">> tx-queue 0 to 2 >>",
                "   tx-queue 3",
                "      no priority",
                "      bandwidth percent 14",
                "      random-detect ecn minimum-threshold 1000000 bytes maximum-threshold 4000000 bytes max-mark-probability 5",
                ">> the rest of the profile >>",
                "interface Ethernet1/1",
                ">> eth1 settings >>",
                "   service-profile roce",
                "!",
                "interface Ethernet2/1",
                ">> eth2 settings >>",
                "   service-profile roce-deep",
                "!",
                "interface Ethernet3/1",
                ">> eth3 settings >>",
                "   service-profile roce",
                "!"), lines);
        assertTrue(lines.stream().filter(l -> l.equals("   service-profile roce-deep")).count() == 1);
        // leaf2 has no port on the override: its profile is not even defined there.
        assertFalse(render(f, "leaf2").contains("qos profile roce-deep"));
    }

    @Test
    void everyServiceProfileIsDefinedOnce() {
        Fabric f = ExportFixtures.lab();
        f.putQosProfile(QosProfile.bestEffort("be"));
        f.port("leaf1:eth1").setQosProfile("be");
        f.device("leaf2").setQosProfile("be");
        for (String sw : List.of("leaf1", "leaf2", "spine1")) {
            List<String> lines = render(f, sw);
            lines.stream().filter(l -> l.startsWith("   service-profile ")).map(l -> l.substring(19)).forEach(p ->
                    assertTrue(lines.stream().filter(l -> l.equals("qos profile " + p)).count() == 1, sw + " " + p));
        }
    }

    @Test
    void fabricWithoutPfcHasNoPfcLines() {
        List<String> lines = render(ExportFixtures.lab(QosProfile.bestEffort("be")), "leaf1");
        assertTrue(lines.stream().noneMatch(l -> l.contains("priority-flow-control")), String.join("\n", lines));
        assertTrue(lines.stream().noneMatch(l -> l.contains("random-detect")));
        assertTrue(lines.contains("   qos trust dscp"));
    }

    @Test
    void watchdogFinerThanTenMillisecondsIsRefused() {
        QosProfile q = QosProfile.roceLossless("roce", 400)
                .withPfc(new PfcConfig(true, Set.of(3), 1_000_000, 800_000, 200_000, 205_000, null));
        Fabric f = ExportFixtures.lab(q);
        assertThrows(UnexportableQosException.class, () -> render(f, "leaf1"));
    }

    @Test
    void portsThatDisagreeOnTheWatchdogAreRefused() {
        Fabric f = ExportFixtures.lab();
        f.putQosProfile(QosProfile.roceLossless("slow-wd", 400)
                .withPfc(new PfcConfig(true, Set.of(3), 1_000_000, 800_000, 200_000, 500_000, null)));
        f.port("leaf1:eth1").setQosProfile("slow-wd");
        UnexportableQosException e = assertThrows(UnexportableQosException.class, () -> render(f, "leaf1"));
        assertTrue(e.getMessage().contains("once per switch"), e.getMessage());
    }

    @Test
    void forwardingWatchdogBecomesNoDrop() {
        QosProfile q = QosProfile.roceLossless("roce", 400)
                .withPfc(new PfcConfig(true, Set.of(3), 1_000_000, 800_000, 200_000, 1_000_000, PfcConfig.WatchdogAction.FORWARD));
        List<String> lines = render(ExportFixtures.lab(q), "leaf1");
        assertTrue(lines.contains("priority-flow-control pause watchdog default timeout 1"));
        assertTrue(lines.contains("priority-flow-control pause watchdog action no-drop"));
    }
}
