package io.fabriclab.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

import io.fabriclab.io.FabricJson;
import io.fabriclab.topology.RailOptimizedGenerator;

/** {@link Fabric#copy()}: the same fabric as the file format sees it, sharing no mutable object. */
class FabricCopyTest {

    /** A fabric that uses every field the file format has: labels, overrides, QoS, a failed link, folds. */
    private static Fabric everyField() {
        Fabric f = RailOptimizedGenerator.generate(2);
        f.setDescription("copy test");
        f.setMtuBytes(9000);
        f.putQosProfile(QosProfile.bestEffort("be"));
        Device s = f.servers().get(0);
        s.setModel("8-GPU server");
        s.setGpus(4);
        s.setQosProfile("be");
        s.labels().put("kind", "linux");
        s.ports().get(0).setQosProfile("be");
        Link l = f.links().iterator().next();
        l.setState(LinkState.DOWN);
        l.setCableLengthM(42.5);
        f.layout().foldedGroups().add("unit 1");
        f.layout().setPosition(s.id(), 123, 456);
        return f;
    }

    @Test
    void theCopyWritesTheSameFile() {
        Fabric f = everyField();
        Fabric c = f.copy();
        assertEquals(FabricJson.write(f), FabricJson.write(c));
        assertEquals(f.devices().size(), c.devices().size());
        assertEquals(f.linkCount(), c.linkCount());
        assertEquals(f.gpuCount(), c.gpuCount());
        assertEquals(f.defaultQosProfile(), c.defaultQosProfile());
        // The graph is rebuilt over the copied devices: the same degree everywhere.
        for (Device d : f.devices()) {
            assertEquals(f.linksOf(d).size(), c.linksOf(c.device(d.id())).size(), d.id());
        }
    }

    @Test
    void theCopySharesNoMutableObject() {
        Fabric f = everyField();
        Fabric c = f.copy();
        for (Device d : f.devices()) {
            Device cd = c.device(d.id());
            assertNotSame(d, cd);
            assertNotSame(d.labels(), cd.labels());
            for (Port p : d.ports()) {
                assertNotSame(p, cd.port(p.name()));
                assertSame(cd, cd.port(p.name()).device(), "a copied port belongs to the copied device");
            }
        }
        for (Link l : f.links()) {
            Link cl = c.link(l.id());
            assertNotSame(l, cl);
            assertSame(cl, c.linkAt(cl.a()), "the copy indexes its own ports");
            assertNull(c.linkAt(l.a()), "an original port is not part of the copy");
        }
        assertNotSame(f.layout(), c.layout());
    }

    @Test
    void editingTheCopyLeavesTheOriginal() {
        Fabric f = everyField();
        String before = FabricJson.write(f);
        Fabric c = f.copy();
        Device leaf = c.devices(DeviceRole.LEAF).get(0);
        c.removeDevice(leaf);
        c.links().iterator().next().setSpeedGbps(100);
        c.servers().get(0).labels().put("changed", "yes");
        c.servers().get(0).ports().get(1).setSpeedGbps(25);
        c.layout().setPosition(c.servers().get(0).id(), -1, -1);
        c.layout().foldedGroups().clear();
        c.putQosProfile(QosProfile.roceLossless("other", 400));
        c.setName("changed");
        assertEquals(before, FabricJson.write(f));
        assertNotEquals(before, FabricJson.write(c));
        assertEquals(Map.copyOf(f.qosProfiles()).size() + 1, c.qosProfiles().size());
    }

    @Test
    void editingTheOriginalLeavesTheCopy() {
        Fabric f = everyField();
        Fabric c = f.copy();
        String copied = FabricJson.write(c);
        Link l = f.links().iterator().next();
        l.setState(LinkState.UP);
        l.setSpeedGbps(100);
        f.removeLink(f.links().stream().skip(3).findFirst().orElseThrow());
        f.removeDevice(f.devices(DeviceRole.LEAF).get(0));
        Device s = f.servers().get(0);
        s.setModel("changed");
        s.labels().put("changed", "yes");
        s.ports().get(0).setNic(7);
        f.layout().setPosition(s.id(), -5, -5);
        f.layout().foldedGroups().add("unit 0");
        f.removeQosProfile("be");
        f.setMtuBytes(1500);
        assertEquals(copied, FabricJson.write(c));
        assertNotEquals(copied, FabricJson.write(f));
    }

    /**
     * The copy builds its graph and link indexes on first use: they must come out in the original's
     * order (the simulator and the analyses walk them), whichever of its methods is called first.
     */
    @Test
    void theCopysGraphHasTheOriginalsOrder() {
        Fabric f = everyField();
        // Edits that move links and a device to the end of the original's orders.
        Link moved = f.links().iterator().next();
        f.removeLink(moved);
        f.addLink(moved);
        Device spine = f.devices(DeviceRole.SPINE).get(0);
        List<Link> spineLinks = f.linksOf(spine);
        f.removeDevice(spine);
        f.addDevice(spine);
        spineLinks.forEach(f::addLink);
        Fabric c = f.copy();
        assertEquals(ids(f.graph().vertexSet()), ids(c.graph().vertexSet()));
        assertEquals(ids(f.graph().edgeSet()), ids(c.graph().edgeSet()));
        for (Device d : f.devices()) {
            Device cd = c.device(d.id());
            assertEquals(ids(f.linksOf(d)), ids(c.linksOf(cd)), d.id());
            assertEquals(ids(f.neighbors(d)), ids(c.neighbors(cd)), d.id());
        }
        assertEquals(ids(f.links()), ids(c.links()));
        // A copy of a copy whose index was never built, and a copy whose first use is a mutation.
        Fabric cc = f.copy().copy();
        assertEquals(FabricJson.write(f), FabricJson.write(cc));
        assertEquals(ids(f.graph().edgeSet()), ids(cc.graph().edgeSet()));
        Fabric m = f.copy();
        Device extra = m.addDevice("extra", DeviceRole.SPINE);
        assertEquals(List.of(), m.linksOf(extra));
        assertEquals(f.linkCount(), m.linkCount());
        assertThrows(IllegalArgumentException.class, () -> m.addLink(m.links().iterator().next()));
    }

    /** Every port linked (the links clear their ports), then a free port too (a last pass clears it). */
    @Test
    void theOriginalKeepsNoReferenceToItsCopy() {
        Fabric f = everyField();
        assertEquals(2 * f.linkCount(), f.devices().stream().mapToInt(Device::portCount).sum());
        f.copy();
        assertNoCopyKept(f);
        f.servers().get(1).addPort("spare", 400);
        f.copy();
        assertNoCopyKept(f);
    }

    private static void assertNoCopyKept(Fabric f) {
        for (Device d : f.devices()) {
            for (Port p : d.ports()) {
                assertNull(p.copy, p.ref());
            }
        }
    }

    /** Workers may copy one fabric at once (a transport comparison copies its copy per run). */
    @Test
    void copiesTakenAtOnceOnSeveralThreadsAreAllWhole() throws Exception {
        Fabric f = RailOptimizedGenerator.generate(4);
        String json = FabricJson.write(f);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Fabric>> copies = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                copies.add(pool.submit(f::copy));
            }
            for (Future<Fabric> c : copies) {
                Fabric copy = c.get();
                assertEquals(json, FabricJson.write(copy));
                for (Link l : copy.links()) {
                    assertSame(copy.device(l.a().device().id()), l.a().device(), l.id());
                    assertSame(copy.device(l.b().device().id()), l.b().device(), l.id());
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static List<String> ids(java.util.Collection<?> xs) {
        return xs.stream().map(Object::toString).toList();
    }
}
