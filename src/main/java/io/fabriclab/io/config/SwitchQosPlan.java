package io.fabriclab.io.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

import io.fabriclab.model.Device;
import io.fabriclab.model.EcnConfig;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.PfcConfig;
import io.fabriclab.model.Port;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.WredEcn;

/**
 * What one switch gets, resolved once for every vendor: its connected ports in front-panel order,
 * the QoS profile in force on each ({@link Fabric#qosFor}: port, else device, else fabric default)
 * and the switch-wide profile (device, else fabric default) that sets what a switch has only once
 * (buffer pools, the PFC watchdog timer on EOS and NX-OS). Unconnected ports are not exported.
 */
public final class SwitchQosPlan {

    /** A port that carries a link, with the profile in force on it. */
    public record ConnectedPort(Port port, Link link, QosProfile qos) {
        public Port peer() {
            return link.opposite(port);
        }

        /** The lossless priorities of this port; empty when PFC is off. */
        public Set<Integer> losslessPriorities() {
            return qos.pfc().enabled() ? qos.pfc().priorities() : Set.of();
        }

        public boolean pfcOn() {
            return !losslessPriorities().isEmpty();
        }
    }

    private final Fabric fabric;
    private final Device device;
    private final QosProfile switchQos;
    private final List<ConnectedPort> ports;
    private final Map<String, QosProfile> profiles;

    private SwitchQosPlan(Fabric fabric, Device device, QosProfile switchQos, List<ConnectedPort> ports,
                          Map<String, QosProfile> profiles) {
        this.fabric = fabric;
        this.device = device;
        this.switchQos = switchQos;
        this.ports = ports;
        this.profiles = profiles;
    }

    public static SwitchQosPlan of(Fabric fabric, Device device) {
        Objects.requireNonNull(fabric, "fabric");
        Objects.requireNonNull(device, "device");
        if (fabric.device(device.id()) != device) {
            throw new IllegalArgumentException("device " + device.id() + " is not in fabric " + fabric.name());
        }
        if (!device.role().isSwitch()) {
            throw new IllegalArgumentException(device.id() + " is a " + device.role() + ", not a switch");
        }
        String switchProfileName = device.qosProfile() != null ? device.qosProfile() : fabric.defaultQosProfile();
        QosProfile switchQos = switchProfileName == null ? null : fabric.qosProfile(switchProfileName);
        if (switchQos == null) {
            throw new UnexportableQosException("switch " + device.id() + " has no QoS profile"
                    + (switchProfileName == null ? " (set one on the device or a fabric default)"
                    : " (profile \"" + switchProfileName + "\" is not defined in the fabric)"));
        }
        List<ConnectedPort> ports = new ArrayList<>();
        for (Port p : device.ports()) {
            Link l = fabric.linkAt(p);
            if (l == null) {
                continue;
            }
            QosProfile q = fabric.qosFor(p);
            if (q == null) {
                throw new UnexportableQosException("port " + p.ref() + ": QoS profile \"" + p.qosProfile()
                        + "\" is not defined in the fabric");
            }
            ports.add(new ConnectedPort(p, l, q));
        }
        ports.sort(Comparator.comparingInt(cp -> PortNumbering.number(cp.port())));
        for (int i = 1; i < ports.size(); i++) {
            if (PortNumbering.number(ports.get(i).port()) == PortNumbering.number(ports.get(i - 1).port())) {
                throw new UnexportableQosException("ports " + ports.get(i - 1).port().ref() + " and "
                        + ports.get(i).port().ref() + " have the same front-panel number");
            }
        }
        Map<String, QosProfile> profiles = new LinkedHashMap<>();
        profiles.put(switchQos.name(), switchQos);
        ports.forEach(cp -> profiles.putIfAbsent(cp.qos().name(), cp.qos()));
        profiles.values().forEach(SwitchQosPlan::validate);
        return new SwitchQosPlan(fabric, device, switchQos, List.copyOf(ports), Map.copyOf(profiles));
    }

    private static void validate(QosProfile q) {
        PfcConfig pfc = q.pfc();
        for (int p : pfc.priorities()) {
            if (p < 0 || p > 7) {
                throw new UnexportableQosException("QoS profile \"" + q.name() + "\": PFC priority " + p
                        + " is not 0-7");
            }
        }
        if (pfc.enabled() && !pfc.priorities().isEmpty() && pfc.xonBytes() > pfc.xoffBytes()) {
            throw new UnexportableQosException("QoS profile \"" + q.name() + "\": PFC XON (" + pfc.xonBytes()
                    + " B) is above XOFF (" + pfc.xoffBytes() + " B)");
        }
        EcnConfig ecn = q.ecn();
        if (ecn.enabled()) {
            for (Map.Entry<Integer, WredEcn> e : ecn.classes().entrySet()) {
                WredEcn w = e.getValue();
                if (e.getKey() < 0 || e.getKey() > 7) {
                    throw new UnexportableQosException("QoS profile \"" + q.name() + "\": ECN class " + e.getKey()
                            + " is not 0-7");
                }
                if (w.kminBytes() < 0 || w.kmaxBytes() < w.kminBytes()) {
                    throw new UnexportableQosException("QoS profile \"" + q.name() + "\": ECN class " + e.getKey()
                            + " needs 0 <= Kmin <= Kmax, has Kmin " + w.kminBytes() + " B, Kmax " + w.kmaxBytes() + " B");
                }
                if (!(w.pmax() > 0 && w.pmax() <= 1)) {
                    throw new UnexportableQosException("QoS profile \"" + q.name() + "\": ECN class " + e.getKey()
                            + " Pmax " + w.pmax() + " is not in (0, 1]");
                }
            }
        }
        if (q.scheduler().dwrrWeights().size() != 8) {
            throw new UnexportableQosException("QoS profile \"" + q.name() + "\": the scheduler needs 8 DWRR weights "
                    + "(classes 0-7), has " + q.scheduler().dwrrWeights().size());
        }
    }

    public Fabric fabric() {
        return fabric;
    }

    public Device device() {
        return device;
    }

    /** The switch-wide profile: the device's own, else the fabric default. */
    public QosProfile switchQos() {
        return switchQos;
    }

    /** Connected ports in front-panel order. */
    public List<ConnectedPort> ports() {
        return ports;
    }

    /** Every profile in force on this switch, by name (the switch-wide one included). */
    public Map<String, QosProfile> profiles() {
        return profiles;
    }

    /** The profiles in a stable order: the switch-wide one first, then the others by name. */
    public List<QosProfile> profilesInOrder() {
        List<QosProfile> l = new ArrayList<>();
        l.add(switchQos);
        profiles.values().stream().filter(q -> q != switchQos).sorted(Comparator.comparing(QosProfile::name))
                .forEach(l::add);
        return l;
    }

    /** The union of the lossless priorities of all connected ports. */
    public Set<Integer> losslessPriorities() {
        Set<Integer> s = new TreeSet<>();
        ports.forEach(cp -> s.addAll(cp.losslessPriorities()));
        return s;
    }

    public boolean anyPfc() {
        return ports.stream().anyMatch(ConnectedPort::pfcOn);
    }

    /** "to peer:port", the interface description every vendor gets. */
    public static String description(ConnectedPort cp) {
        return "to " + cp.peer().ref();
    }
}
