package io.fabriclab.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.ArrayList;
import java.util.List;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;

/** Deep structural comparison of two fabrics, with a message that says where they differ. */
final class FabricAssertions {
    private FabricAssertions() {
    }

    static void assertSameFabric(Fabric expected, Fabric actual) {
        assertSameFabric(expected, actual, true, true);
    }

    /**
     * @param withQos    compare QoS profiles and profile references (containerlab does not carry them)
     * @param withLayout compare the layout
     */
    static void assertSameFabric(Fabric expected, Fabric actual, boolean withQos, boolean withLayout) {
        assertNotNull(actual, "fabric");
        assertEquals(expected.name(), actual.name(), "name");
        if (withQos) {
            assertEquals(expected.description(), actual.description(), "description");
            assertEquals(expected.mtuBytes(), actual.mtuBytes(), "mtuBytes");
            assertEquals(new ArrayList<>(expected.qosProfiles().keySet()), new ArrayList<>(actual.qosProfiles().keySet()),
                    "profile names in order");
            for (String n : expected.qosProfiles().keySet()) {
                assertEquals(expected.qosProfile(n), actual.qosProfile(n), "profile " + n);
            }
            assertEquals(expected.defaultQosProfile(), actual.defaultQosProfile(), "defaultQosProfile");
        }
        assertEquals(ids(expected), ids(actual), "device ids in order");
        for (Device e : expected.devices()) {
            Device a = actual.device(e.id());
            String w = "device " + e.id() + ": ";
            assertEquals(e.role(), a.role(), w + "role");
            assertEquals(e.model(), a.model(), w + "model");
            assertEquals(e.unit(), a.unit(), w + "unit");
            assertEquals(e.rail(), a.rail(), w + "rail");
            assertEquals(e.pod(), a.pod(), w + "pod");
            assertEquals(e.gpusOverride(), a.gpusOverride(), w + "gpus");
            assertEquals(e.scaleUp(), a.scaleUp(), w + "scaleUp");
            if (withQos) {
                assertEquals(e.qosProfile(), a.qosProfile(), w + "qosProfile");
                assertEquals(e.labels(), a.labels(), w + "labels");
            }
            assertEquals(e.portCount(), a.portCount(), w + "port count");
            for (int i = 0; i < e.portCount(); i++) {
                Port pe = e.ports().get(i);
                Port pa = a.ports().get(i);
                assertEquals(pe.name(), pa.name(), w + "port " + i + " name");
                assertEquals(pe.speedGbps(), pa.speedGbps(), w + pe.name() + " speed");
                assertEquals(pe.nic(), pa.nic(), w + pe.name() + " nic");
                if (withQos) {
                    assertEquals(pe.qosProfile(), pa.qosProfile(), w + pe.name() + " qosProfile");
                }
            }
        }
        assertEquals(expected.linkCount(), actual.linkCount(), "link count");
        List<Link> el = new ArrayList<>(expected.links());
        List<Link> al = new ArrayList<>(actual.links());
        for (int i = 0; i < el.size(); i++) {
            Link e = el.get(i);
            Link a = al.get(i);
            String w = "link " + e.id() + ": ";
            assertEquals(e.id(), a.id(), "link " + i + " id");
            assertEquals(e.a().ref(), a.a().ref(), w + "a");
            assertEquals(e.b().ref(), a.b().ref(), w + "b");
            assertEquals(e.speedGbps(), a.speedGbps(), w + "speed");
            assertEquals(e.cableLengthM(), a.cableLengthM(), 0.0, w + "length");
            assertEquals(e.cableType(), a.cableType(), w + "cable type");
            assertEquals(e.state(), a.state(), w + "state");
            // The graph must agree with the link list: same two devices at the ends.
            assertEquals(actual.graph().getEdgeSource(a).id() + actual.graph().getEdgeTarget(a).id(),
                    expected.graph().getEdgeSource(e).id() + expected.graph().getEdgeTarget(e).id(), w + "graph ends");
        }
        if (withLayout) {
            assertEquals(new ArrayList<>(expected.layout().positions().entrySet()),
                    new ArrayList<>(actual.layout().positions().entrySet()), "layout positions");
            assertEquals(expected.layout().foldedGroups(), actual.layout().foldedGroups(), "folded groups");
        }
    }

    private static List<String> ids(Fabric f) {
        return f.devices().stream().map(Device::id).toList();
    }
}
