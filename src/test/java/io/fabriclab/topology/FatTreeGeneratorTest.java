package io.fabriclab.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FatTreeGeneratorTest {

    /**
     * k-ary fat tree: k pods x k/2 edge + k/2 aggregation = k^2 pod switches, (k/2)^2 cores,
     * k^3/4 hosts. k=4: 16 hosts, 16 + 4 = 20 switches. k=16: 1024 hosts, 256 + 64 = 320 switches.
     * Links: one per host, (k/2)^2 edge-agg per pod, k/2 x k/2 agg-core per pod: k=4 gives
     * 16 + 4x4 + 4x4 = 48; k=16 gives 1024 + 16x64 + 16x64 = 3072.
     */
    @ParameterizedTest(name = "k={0}")
    @CsvSource({"4, 16, 8, 8, 4, 48", "16, 1024, 128, 128, 64, 3072"})
    void countsFollowTheKAryFatTree(int k, int hosts, int edges, int aggs, int cores, int links) {
        Fabric f = FatTreeGenerator.generate(k);
        assertEquals(hosts, f.servers().size());
        assertEquals(edges, f.devices(DeviceRole.LEAF).size());
        assertEquals(aggs, f.devices(DeviceRole.SPINE).size());
        assertEquals(cores, f.devices(DeviceRole.CORE).size());
        assertEquals(edges + aggs + cores, f.switches().size());
        assertEquals(links, f.linkCount());
        Map<String, Integer> byTier = RailOptimizedGeneratorTest.cablesByTier(f);
        assertEquals(hosts, byTier.get("server-leaf"));
        assertEquals(k * (k / 2) * (k / 2), byTier.get("leaf-spine"));
        assertEquals(k * (k / 2) * (k / 2), byTier.get("spine-core"));
    }

    @Test
    void everySwitchUsesExactlyItsKPortsAndEveryCoreReachesEveryPodOnce() {
        int k = 8;
        Fabric f = FatTreeGenerator.generate(k);
        for (Device sw : f.switches()) {
            assertEquals(k, sw.portCount(), sw.id());
            assertEquals(k, f.linksOf(sw).size(), sw.id());
        }
        for (Device core : f.devices(DeviceRole.CORE)) {
            Set<Integer> pods = new HashSet<>();
            f.neighbors(core).forEach(agg -> pods.add(agg.pod()));
            assertEquals(k, pods.size(), core.id());
        }
        // host 5 of pod 1 (k/2 = 4 hosts per edge) is under the second edge switch.
        Device host = f.device("pod1-host05");
        assertEquals("pod1-edge2", f.neighbors(host).get(0).id());
        assertEquals(0, host.pod());
    }

    @Test
    void refusesAnOddK() {
        assertThrows(IllegalArgumentException.class, () -> FatTreeGenerator.generate(5));
    }

    /**
     * Room to grow (issue 16 item 8): k=4 with 4 spare ports gives 8-port switches whose first 4
     * ports carry the tree's links (eth1..eth4) and eth5..eth8 free: 20 switches x 4 = 80 free ports.
     * The links are those of the plain k=4 tree (48).
     */
    @Test
    void sparePortsLeaveEverySwitchWithFreePortsAfterTheOnesInUse() {
        Fabric f = FatTreeGenerator.generate(FatTreeParams.of(4).withSparePorts(4));
        assertEquals(48, f.linkCount());
        int free = 0;
        for (Device sw : f.switches()) {
            assertEquals(8, sw.portCount(), sw.id());
            assertEquals(4, f.linksOf(sw).size(), sw.id());
            assertEquals(java.util.List.of("eth5", "eth6", "eth7", "eth8"),
                    f.freePorts(sw).stream().map(io.fabriclab.model.Port::name).toList(), sw.id());
            free += f.freePorts(sw).size();
        }
        assertEquals(80, free);
        assertThrows(IllegalArgumentException.class, () -> FatTreeParams.of(4).withSparePorts(-1));
        // FabricLimits: 4 + 4093 = 4097 ports per switch is past the 4096 the reader accepts.
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FatTreeParams.of(4).withSparePorts(4093));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("4096"), e.getMessage());
    }
}
