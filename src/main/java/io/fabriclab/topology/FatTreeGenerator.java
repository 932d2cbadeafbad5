package io.fabriclab.topology;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;

/**
 * Builds a k-ary fat tree ({@link FatTreeParams}). Edge switches are LEAF, aggregation switches
 * SPINE, core switches CORE. Names: {@code pod1-edge1}, {@code pod1-agg1}, {@code core01},
 * hosts {@code pod1-host01} (host h of a pod sits under edge h / (k/2)). Aggregation switch a of
 * every pod connects to cores a*(k/2)+1 .. (a+1)*(k/2), so each core reaches every pod once.
 * Pod devices carry {@code unit} = {@code pod} = pod index; cores carry label coreGroup = a. With
 * {@link FatTreeParams#sparePorts()} every switch has that many free ports after the k it uses.
 */
public final class FatTreeGenerator {
    private FatTreeGenerator() {
    }

    public static Fabric generate(int k) {
        return generate(FatTreeParams.of(k));
    }

    public static Fabric generate(FatTreeParams p) {
        int k = p.k();
        int half = k / 2;
        int speed = p.speedGbps();
        Fabric f = new Fabric("fat-tree k=" + k);
        f.setDescription(k + "-ary fat tree: " + k + " pods, " + p.hosts() + " hosts, " + p.switches() + " switches of "
                + p.switchPorts() + "x" + speed + "G" + (p.sparePorts() > 0 ? " (" + p.sparePorts() + " spare ports each)" : ""));
        f.putQosProfile(QosProfile.roceLossless(LeafSpineGenerator.QOS_PROFILE, speed));
        Cabling c = new Cabling(f);

        Device[] cores = new Device[half * half];
        for (int i = 0; i < cores.length; i++) {
            cores[i] = c.addSwitch("core" + Cabling.pad(i + 1, cores.length), DeviceRole.CORE, p.switchPorts(), speed);
            cores[i].setModel(SwitchSku.of(cores[i]));
            cores[i].labels().put("coreGroup", Integer.toString(i / half));
        }
        int hostsPerPod = half * half;
        for (int pod = 0; pod < k; pod++) {
            String prefix = "pod" + Cabling.pad(pod + 1, k);
            Device[] edges = new Device[half];
            Device[] aggs = new Device[half];
            for (int i = 0; i < half; i++) {
                edges[i] = podSwitch(c, prefix + "-edge" + Cabling.pad(i + 1, half), DeviceRole.LEAF, p.switchPorts(), speed, pod);
                aggs[i] = podSwitch(c, prefix + "-agg" + Cabling.pad(i + 1, half), DeviceRole.SPINE, p.switchPorts(), speed, pod);
            }
            for (int h = 0; h < hostsPerPod; h++) {
                Device host = c.addServer(prefix + "-host" + Cabling.pad(h + 1, hostsPerPod), 1, speed);
                host.setUnit(pod);
                host.setPod(pod);
                host.setScaleUp(p.scaleUp());
                c.nicToSwitch(host, 0, edges[h / half], speed, p.hostCableM());
            }
            for (Device edge : edges) {
                for (Device agg : aggs) {
                    c.switchToSwitch(edge, agg, speed, p.edgeAggCableM());
                }
            }
            for (int a = 0; a < half; a++) {
                for (int j = 0; j < half; j++) {
                    c.switchToSwitch(aggs[a], cores[a * half + j], speed, p.aggCoreCableM());
                }
            }
        }
        return f;
    }

    private static Device podSwitch(Cabling c, String id, DeviceRole role, int ports, int speed, int pod) {
        Device d = c.addSwitch(id, role, ports, speed);
        d.setModel(SwitchSku.of(d));
        d.setUnit(pod);
        d.setPod(pod);
        return d;
    }
}
