package io.fabriclab.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Map;

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
}
