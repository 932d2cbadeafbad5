package io.fabriclab.io;

import java.util.Map;
import java.util.Set;

import io.fabriclab.model.BufferConfig;
import io.fabriclab.model.CableType;
import io.fabriclab.model.DcqcnConfig;
import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.EcnConfig;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.LinkState;
import io.fabriclab.model.PfcConfig;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.SchedulerConfig;
import io.fabriclab.model.WredEcn;

/** Small fabrics that exercise every field of the file format. */
final class SampleFabrics {
    private SampleFabrics() {
    }

    /**
     * Two leaves, one spine, two 2-NIC servers; two profiles (one with every section non-default),
     * a parallel link, a DOWN link, a custom link id, labels, a layout and a folded group.
     */
    static Fabric everyField() {
        Fabric f = new Fabric("lab-2x1");
        f.setDescription("two leaves, one spine; \"quoted\" and unicode µ text");
        f.setMtuBytes(9216);
        f.putQosProfile(QosProfile.roceLossless("roce", 400));
        QosProfile odd = new QosProfile("odd", "every section non-default",
                new PfcConfig(true, Set.of(3, 4), 700_000, 500_000, 150_000, 0, PfcConfig.WatchdogAction.FORWARD),
                new EcnConfig(true, Map.of(3, new WredEcn(100_000, 400_000, 0.1), 5, new WredEcn(1, 2, 1.0)),
                        EcnConfig.MarkingPoint.ENQUEUE),
                new DcqcnConfig(true, 4.5, 55, 300, 10_000_000L, 5, 1.0 / 256, 40, 200, 0.75, 10, 0, 0.5),
                new BufferConfig(32L * 1024 * 1024, BufferConfig.ThresholdMode.STATIC, 2_000_000, 0.125, 4096),
                new SchedulerConfig(Set.of(6, 7), java.util.List.of(1, 2, 3, 4, 5, 6, 7, 8)));
        f.putQosProfile(odd);
        f.putQosProfile(QosProfile.bestEffort("be"));
        f.setDefaultQosProfile("roce");

        Device spine = f.addDevice("spine1", DeviceRole.SPINE);
        spine.addPorts("eth", 1, 4, 800);
        spine.setModel("64x800G TH5");
        spine.setPod(0);
        for (int l = 1; l <= 2; l++) {
            Device leaf = f.addDevice("leaf" + l, DeviceRole.LEAF);
            leaf.addPorts("eth", 1, 6, 400);
            leaf.setUnit(0);
            leaf.setRail(l - 1);
            leaf.labels().put("clab-kind", "sonic-vs");
            leaf.setQosProfile("odd");
        }
        for (int s = 1; s <= 2; s++) {
            Device srv = f.addDevice("gpu" + s, DeviceRole.SERVER);
            srv.addPort("nic0", 400, 0);
            srv.addPort("nic1", 400, 1);
            srv.port("nic1").setQosProfile("be");
            srv.setUnit(0);
        }
        f.device("gpu2").setGpus(8);
        // A known GPU with an overridden figure, and a GPU FabricLab does not know with a technology of its own.
        f.device("gpu2").setScaleUp(io.fabriclab.model.ScaleUp.of("B200").withLatencyNs(500));
        f.device("gpu1").setScaleUp(new io.fabriclab.model.ScaleUp("X1 test GPU", "test link", 123.25, 900));
        f.connect(f.port("leaf1:eth5"), f.port("spine1:eth1"), 400, 30, CableType.AOC);
        f.connect(f.port("leaf1:eth6"), f.port("spine1:eth2"), 400, 30.5);
        f.connect(f.port("leaf2:eth5"), f.port("spine1:eth3"), 400, 120.25);
        f.link("leaf2:eth5--spine1:eth3").setState(LinkState.DOWN);
        f.connect(f.port("gpu1:nic0"), f.port("leaf1:eth1"), 400, 2);
        f.connect(f.port("gpu1:nic1"), f.port("leaf2:eth1"), 400, 2.5);
        f.addLink(new io.fabriclab.model.Link("g2-rail0", f.port("gpu2:nic0"), f.port("leaf1:eth2"), 200, 1,
                CableType.DAC));
        f.layout().setPosition("spine1", 100, 0);
        f.layout().setPosition("leaf1", 0.5, 100.25);
        f.layout().setPosition("leaf2", -200, 100);
        f.layout().foldedGroups().add("unit0");
        return f;
    }

    /** The smallest legal fabric: a name and no devices. */
    static Fabric empty() {
        return new Fabric("empty");
    }
}
