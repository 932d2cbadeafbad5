package io.fabriclab.edit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Port;

/**
 * Assigns a QoS profile to devices (their ports without a profile of their own then use it) or to every
 * port of those devices (a per-port profile, which wins over the device's), as one undo step. Undo gives
 * each device and port back the profile name it had, null included.
 */
public final class AssignQosProfileCommand implements FabricCommand {

    /** What the profile is assigned to. */
    public enum Target { DEVICES, PORTS }

    private final Fabric fabric;
    private final String profile;
    private final List<Device> devices;
    private final Target target;
    private final Map<Device, String> oldDevice = new LinkedHashMap<>();
    private final Map<Port, String> oldPort = new LinkedHashMap<>();
    private boolean captured;

    public AssignQosProfileCommand(Fabric fabric, String profile, List<Device> devices, Target target) {
        this.fabric = Objects.requireNonNull(fabric, "fabric");
        this.profile = Objects.requireNonNull(profile, "profile");
        this.devices = List.copyOf(devices);
        this.target = Objects.requireNonNull(target, "target");
        if (fabric.qosProfile(profile) == null) {
            throw new IllegalArgumentException("no QoS profile named '" + profile + "' in the fabric");
        }
    }

    /** How many devices or ports change. */
    public int count() {
        return target == Target.DEVICES ? devices.size() : devices.stream().mapToInt(d -> d.ports().size()).sum();
    }

    @Override
    public String description() {
        return "Assign QoS profile " + profile + " to " + count() + (target == Target.DEVICES ? " device(s)" : " port(s)");
    }

    @Override
    public void execute() {
        if (!captured) {
            for (Device d : devices) {
                if (target == Target.DEVICES) {
                    oldDevice.put(d, d.qosProfile());
                } else {
                    for (Port p : new ArrayList<>(d.ports())) {
                        oldPort.put(p, p.qosProfile());
                    }
                }
            }
            captured = true;
        }
        oldDevice.keySet().forEach(d -> d.setQosProfile(profile));
        oldPort.keySet().forEach(p -> p.setQosProfile(profile));
    }

    @Override
    public void undo() {
        oldDevice.forEach(Device::setQosProfile);
        oldPort.forEach(Port::setQosProfile);
    }
}
