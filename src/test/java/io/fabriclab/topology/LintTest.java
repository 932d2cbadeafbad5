package io.fabriclab.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import io.fabriclab.model.BufferConfig;
import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.EcnConfig;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.PfcConfig;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.TestFabrics;
import io.fabriclab.model.WredEcn;
import io.fabriclab.topology.Finding.Severity;

import org.junit.jupiter.api.Test;

class LintTest {

    /**
     * A rail-optimized fabric with nothing wrong: 2 units of 2 servers x 2 rails, leaves 2 down /
     * 2 up at 400G (1:1), every NIC on its rail, RoCEv2 profile with 400 KB of headroom (the 200 m
     * spine-core cables at 400G need 168,083 B).
     */
    private static Fabric clean() {
        Fabric f = TestFabrics.railThreeTier(2, 2, 2, 1, 2, 1, 1);
        QosProfile q = f.qosProfile("rdma");
        f.putQosProfile(q.withPfc(q.pfc().withThresholds(1_000_000, 800_000, 400_000)));
        return f;
    }

    private static List<Finding> codes(Fabric f, String code) {
        return Lint.check(f).stream().filter(x -> x.code().equals(code)).toList();
    }

    private static void setProfile(Fabric f, QosProfile q) {
        f.putQosProfile(q.withName("rdma"));
    }

    @Test
    void aCleanFabricHasNoFindings() {
        assertEquals(List.of(), Lint.check(clean()));
    }

    @Test
    void pfcOnMoreThanTwoPrioritiesAndOnPrioritiesWithoutEcn() {
        Fabric f = clean();
        QosProfile q = f.qosProfile("rdma");
        setProfile(f, q.withPfc(new PfcConfig(true, Set.of(3, 4, 5), 1_000_000, 800_000, 400_000, 0, null)));
        assertEquals(1, codes(f, "PFC_TOO_MANY_PRIORITIES").size());
        // Priorities 4 and 5 have no ECN curve and are not the RDMA priority.
        assertEquals(2, codes(f, "PFC_WITHOUT_ECN").size());
        // Two priorities, the second ECN-marked: neither rule fires.
        setProfile(f, q.withPfc(new PfcConfig(true, Set.of(3, 4), 1_000_000, 800_000, 400_000, 0, null))
                .withEcn(q.ecn().withClass(4, new WredEcn(100_000, 400_000, 0.1))));
        assertTrue(codes(f, "PFC_TOO_MANY_PRIORITIES").isEmpty());
        assertTrue(codes(f, "PFC_WITHOUT_ECN").isEmpty());
    }

    @Test
    void kminMustBeBelowKmax() {
        Fabric f = clean();
        QosProfile q = f.qosProfile("rdma");
        setProfile(f, q.withEcn(new EcnConfig(true, Map.of(3, new WredEcn(2_000_000, 1_000_000, 0.2)), null)));
        List<Finding> found = codes(f, "ECN_KMIN_NOT_BELOW_KMAX");
        assertEquals(1, found.size());
        assertEquals(Severity.ERROR, found.get(0).severity());
        assertEquals("rdma", found.get(0).subject());
    }

    @Test
    void kmaxAboveTheLargestQueueTheBufferAllows() {
        Fabric f = clean();
        QosProfile q = f.qosProfile("rdma");
        // Static 1 MB per queue: maxQueueBytes = min(1 MB, pool) + 0 reserved = 1,000,000 B < Kmax 3.2 MB.
        setProfile(f, q.withBuffer(new BufferConfig(64L << 20, BufferConfig.ThresholdMode.STATIC, 1_000_000, 0, 0)));
        assertEquals(1, codes(f, "ECN_KMAX_ABOVE_BUFFER").size());
        // 3.2 MB static limit: Kmax = 3,200,000 fits exactly.
        setProfile(f, q.withBuffer(new BufferConfig(64L << 20, BufferConfig.ThresholdMode.STATIC, 3_200_000, 0, 0)));
        assertTrue(codes(f, "ECN_KMAX_ABOVE_BUFFER").isEmpty());
    }

    @Test
    void headroomShortOnLongFastLinksIsReportedPerDevice() {
        // With 90,000 B of headroom reserved, MTU 4,200 B: at 400G the frames are 2 x 4,220 B, the PFC
        // frame 84 B, both interfaces 1,638.5 B, the response 57,920 B (67,520 + 672 + 13,108 + 463,360 =
        // 544,660 bit times) plus the cable at 500 B/m: the 200 m spine-core cables need
        // (544,660 + 800,000) / 8 = 168,083 B, the 50 m leaf-spine cables 93,083 B, the 3 m server cables
        // 69,583 B (fine).
        Fabric f = TestFabrics.railThreeTier(2, 2, 2, 1, 2, 1, 1);
        for (QosProfile q : List.copyOf(f.qosProfiles().values())) {
            f.putQosProfile(q.withPfc(q.pfc().withThresholds(q.pfc().xoffBytes(), q.pfc().xonBytes(), 90_000)));
        }
        List<Finding> found = codes(f, "HEADROOM_SHORT");
        Set<String> devices = Set.copyOf(found.stream().map(Finding::subject).toList());
        assertEquals(Set.of("leaf0_r0", "leaf0_r1", "leaf1_r0", "leaf1_r1", "spine0_0", "spine0_1", "spine1_0",
                "spine1_1", "core0_0", "core1_0"), devices);
        assertTrue(found.stream().filter(x -> x.subject().equals("core0_0")).findFirst().orElseThrow()
                .message().contains("168,083 B"));
        assertTrue(codes(clean(), "HEADROOM_SHORT").isEmpty());
    }

    /** Two switches joined by four 100G, 3 m links: each has 4 lossless ingress groups (priority 3). */
    private static Fabric fourLinks(BufferConfig buffer, long xoff, long headroom) {
        Fabric f = new Fabric("pool");
        QosProfile q = QosProfile.roceLossless("rdma", 100);
        f.putQosProfile(q.withPfc(q.pfc().withThresholds(xoff, xoff * 4 / 5, headroom)).withBuffer(buffer));
        Device a = f.addDevice("leaf", DeviceRole.LEAF);
        Device b = f.addDevice("spine", DeviceRole.SPINE);
        for (int i = 0; i < 4; i++) {
            TestFabrics.connect(f, a, b, 100, 3);
        }
        return f;
    }

    @Test
    void lossLessGroupsTimesXoffAgainstTheSharedPool() {
        long mib = 1L << 20;
        BufferConfig staticPool = new BufferConfig(mib, BufferConfig.ThresholdMode.STATIC, mib, 0, 0);
        // Issue 15's case: 1 MiB pool, XOFF 1 MB. 4 groups x 1,000,000 B = 4,000,000 B > 1,048,576 B: warning.
        List<Finding> found = codes(fourLinks(staticPool, 1_000_000, 80_000), "POOL_XOFF_OVERCOMMITTED");
        assertEquals(Set.of("leaf", "spine"), Set.copyOf(found.stream().map(Finding::subject).toList()));
        assertTrue(found.stream().allMatch(x -> x.severity() == Severity.WARNING));
        assertTrue(found.get(0).message().contains("4,000,000 B"), found.get(0).message());
        // 1,048,576 / 4 = 262,144 B per group is the most that fits.
        assertTrue(found.get(0).fix().contains("262,144 B"), found.get(0).fix());
        assertTrue(codes(fourLinks(staticPool, 262_144, 80_000), "POOL_XOFF_OVERCOMMITTED").isEmpty());
        // One group's XOFF at or above the pool: it can never pause before the pool is full.
        found = codes(fourLinks(staticPool, 2_000_000, 80_000), "POOL_XOFF_OVERCOMMITTED");
        assertEquals(2, found.size());
        assertTrue(found.stream().allMatch(x -> x.severity() == Severity.ERROR));
        // Dynamic thresholds (alpha 1): with 4 groups congested each pauses at 1 MiB / 5, together 4/5 of it.
        BufferConfig dynamic = new BufferConfig(mib, BufferConfig.ThresholdMode.DYNAMIC, 0, 1.0, 0);
        assertTrue(codes(fourLinks(dynamic, 1_000_000, 80_000), "POOL_XOFF_OVERCOMMITTED").isEmpty());
        assertTrue(codes(clean(), "POOL_XOFF_OVERCOMMITTED").isEmpty());
    }

    @Test
    void headroomReservedAgainstTheSharedPool() {
        long mib = 1L << 20;
        BufferConfig dynamic = new BufferConfig(mib, BufferConfig.ThresholdMode.DYNAMIC, 0, 1.0, 0);
        // 4 groups x 300,000 B = 1,200,000 B of headroom > 1,048,576 B: error on both switches.
        List<Finding> found = codes(fourLinks(dynamic, 100_000, 300_000), "HEADROOM_POOL_EXCEEDED");
        assertEquals(2, found.size());
        assertTrue(found.stream().allMatch(x -> x.severity() == Severity.ERROR));
        assertTrue(found.get(0).message().contains("1,200,000 B"), found.get(0).message());
        // 4 x 262,144 B = exactly the pool: allowed.
        assertTrue(codes(fourLinks(dynamic, 100_000, 262_144), "HEADROOM_POOL_EXCEEDED").isEmpty());
        assertTrue(codes(clean(), "HEADROOM_POOL_EXCEEDED").isEmpty());
    }

    @Test
    void aLeafWithNoUplinksCutsItsNicsOffAtErrorLevel() {
        // deadlockProne: 4 leaves, one server (one NIC) each; leaf4 hangs off spine2 only. Removing that
        // uplink leaves leaf4 and server4's NIC as an island: 1 NIC cut off from the other 3.
        Fabric f = ExampleFabrics.deadlockProne();
        assertTrue(codes(f, "NICS_CUT_OFF").isEmpty());
        Device leaf4 = f.device("leaf4");
        for (Link l : List.copyOf(f.linksOf(leaf4))) {
            if (l.other(leaf4).role().isSwitch()) {
                f.removeLink(l);
            }
        }
        List<Finding> found = codes(f, "NICS_CUT_OFF");
        assertEquals(1, found.size());
        assertEquals(Severity.ERROR, found.get(0).severity());
        assertEquals("leaf4", found.get(0).subject());
        assertTrue(found.get(0).message().contains("1 NIC port(s) has no path to the other 3"), found.get(0).message());
        // A down uplink cuts off the same way.
        Fabric g = ExampleFabrics.deadlockProne();
        Device l4 = g.device("leaf4");
        g.linksOf(l4).stream().filter(l -> l.other(l4).role().isSwitch())
                .forEach(l -> l.setState(io.fabriclab.model.LinkState.DOWN));
        assertEquals(List.of("leaf4"), codes(g, "NICS_CUT_OFF").stream().map(Finding::subject).toList());
    }

    @Test
    void identicalFindingsGroupWithACount() {
        List<Finding> in = List.of(
                new Finding(Severity.WARNING, "X", "a", "same", "fix it"),
                new Finding(Severity.WARNING, "X", "b", "same", "fix it"),
                new Finding(Severity.WARNING, "X", "c", "other", "fix it"),
                new Finding(Severity.WARNING, "X", "d", "same", "fix it"));
        List<Finding.Group> g = Finding.group(in);
        assertEquals(2, g.size());
        assertEquals(List.of("a", "b", "d"), g.get(0).subjects());
        assertEquals(3, g.get(0).count());
        assertEquals("a, b and 1 more", g.get(0).subjectsText(2));
        assertEquals("c", g.get(1).subjectsText(2));
    }

    @Test
    void oversubscribedGpuFacingLeaf() {
        Fabric f = clean();
        // A third server on leaf0_r0: 3 x 400G down, 2 x 400G up = 1.5:1.
        Device extra = TestFabrics.server(f, "extra", 1, 400);
        f.connect(extra.port("nic0"), TestFabrics.nextPort(f.device("leaf0_r0"), 400), 400, 3);
        List<Finding> found = codes(f, "OVERSUBSCRIBED");
        assertEquals(1, found.size());
        assertEquals("leaf0_r0", found.get(0).subject());
        assertTrue(found.get(0).message().contains("1.50:1"), found.get(0).message());
    }

    @Test
    void leafWithASingleUplink() {
        // deadlockProne's leaf4 has one uplink (to spine2); leaf1-3 have two.
        List<Finding> found = codes(ExampleFabrics.deadlockProne(), "SINGLE_UPLINK_LEAF");
        assertEquals(List.of("leaf4"), found.stream().map(Finding::subject).toList());
        assertTrue(codes(clean(), "SINGLE_UPLINK_LEAF").isEmpty());
    }

    @Test
    void railLeavesOfAUnitWithDifferentServerCounts() {
        Fabric f = clean();
        f.removeLink(f.linkAt(f.port("gpu0_1:nic1")));
        List<Finding> found = codes(f, "RAIL_ASYMMETRY");
        assertEquals(1, found.size());
        assertEquals("unit 0", found.get(0).subject());
        // Plain words, not Java's map text ({0=2, 1=1}).
        assertTrue(found.get(0).message().contains("servers per rail rail 0: 2, rail 1: 1")
                || found.get(0).message().contains("servers per rail rail 0: 1, rail 1: 2"), found.get(0).message());
        assertTrue(found.get(0).message().contains("rail 0: 400G"), found.get(0).message());
        assertFalse(found.get(0).message().matches(".*[{}=\\[\\]].*"), found.get(0).message());
        assertEquals(1, codes(f, "UNCONNECTED_SERVER_PORT").size());
    }

    @Test
    void nicCabledToTheWrongRailLeaf() {
        Fabric f = clean();
        Link l0 = f.linkAt(f.port("gpu0_0:nic0"));
        Link l1 = f.linkAt(f.port("gpu0_0:nic1"));
        f.removeLink(l0);
        f.removeLink(l1);
        f.connect(f.port("gpu0_0:nic0"), l1.b(), 400, 3);
        f.connect(f.port("gpu0_0:nic1"), l0.b(), 400, 3);
        List<Finding> found = codes(f, "NIC_RAIL_MISMATCH");
        assertEquals(Set.of("gpu0_0:nic0", "gpu0_0:nic1"), Set.copyOf(found.stream().map(Finding::subject).toList()));
        // Each rail leaf still has 2 servers at 400G: no asymmetry, the mismatch is the only symptom.
        assertTrue(codes(f, "RAIL_ASYMMETRY").isEmpty());
    }

    @Test
    void mixedSpeedsOnOneRail() {
        Fabric f = clean();
        f.linkAt(f.port("gpu1_0:nic0")).setSpeedGbps(200);
        List<Finding> found = codes(f, "MIXED_RAIL_SPEEDS");
        assertEquals(1, found.size());
        assertEquals("rail 0", found.get(0).subject());
        assertTrue(found.get(0).message().contains("(200, 400 Gb/s)"), found.get(0).message());
        assertTrue(codes(clean(), "MIXED_RAIL_SPEEDS").isEmpty());
    }

    @Test
    void singleHomedServers() {
        // One NIC to one leaf: INFO. Two NICs both to the same leaf: WARNING.
        Fabric f = TestFabrics.leafSpine(2, 2, 1, 1);
        Device two = TestFabrics.server(f, "two", 2, 400);
        f.connect(two.port("nic0"), TestFabrics.nextPort(f.device("leaf0"), 400), 400, 3);
        f.connect(two.port("nic1"), TestFabrics.nextPort(f.device("leaf0"), 400), 400, 3);
        List<Finding> found = codes(f, "SINGLE_HOMED_SERVER");
        assertEquals(3, found.size());
        assertEquals(Severity.WARNING, found.get(0).severity());
        assertEquals("two", found.get(0).subject());
        assertEquals(Severity.INFO, found.get(1).severity());
        assertTrue(codes(clean(), "SINGLE_HOMED_SERVER").isEmpty());
    }

    @Test
    void caseInsensitiveDuplicateDeviceAndPortNames() {
        Fabric f = clean();
        f.addDevice("LEAF0_R0", DeviceRole.LEAF);
        f.device("leaf1_r0").addPort("ETH1", 400);
        assertEquals(1, codes(f, "DUPLICATE_DEVICE_NAME").size());
        List<Finding> ports = codes(f, "DUPLICATE_PORT_NAME");
        assertEquals(1, ports.size());
        assertTrue(ports.get(0).subject().startsWith("leaf1_r0:"));
    }

    @Test
    void linkSpeedAgainstPortSpeed() {
        Fabric f = clean();
        Link slow = f.linkAt(f.port("leaf0_r0:eth1"));
        slow.setSpeedGbps(100);
        Link fast = f.linkAt(f.port("leaf1_r0:eth1"));
        fast.a().setSpeedGbps(200);
        assertEquals(List.of(slow.id()), codes(f, "LINK_SLOWER_THAN_PORTS").stream().map(Finding::subject).toList());
        assertEquals(List.of(fast.id()), codes(f, "LINK_FASTER_THAN_PORT").stream().map(Finding::subject).toList());
    }

    @Test
    void unconnectedServerPortsAndIsolatedDevices() {
        Fabric f = clean();
        f.device("gpu0_0").addPort("nic2", 400, 2);
        f.addDevice("spare", DeviceRole.SPINE);
        assertEquals(List.of("gpu0_0:nic2"), codes(f, "UNCONNECTED_SERVER_PORT").stream().map(Finding::subject).toList());
        assertEquals(List.of("spare"), codes(f, "ISOLATED_DEVICE").stream().map(Finding::subject).toList());
    }

    @Test
    void unknownQosProfileNamesOnDevicesAndPorts() {
        Fabric f = clean();
        f.device("spine0_0").setQosProfile("lossless-typo");
        f.port("leaf0_r0:eth1").setQosProfile("other-typo");
        List<Finding> found = codes(f, "UNKNOWN_QOS_PROFILE");
        assertEquals(Set.of("spine0_0", "leaf0_r0:eth1"), Set.copyOf(found.stream().map(Finding::subject).toList()));
        assertFalse(found.isEmpty());
        found.forEach(x -> assertEquals(Severity.ERROR, x.severity()));
    }

    @Test
    void findingsComeWorstFirst() {
        Fabric f = clean();
        f.addDevice("spare", DeviceRole.SPINE);
        f.device("spine0_0").setQosProfile("nope");
        List<Finding> all = Lint.check(f);
        assertEquals(Severity.ERROR, all.get(0).severity());
        assertEquals(Severity.WARNING, all.get(all.size() - 1).severity());
    }
}
