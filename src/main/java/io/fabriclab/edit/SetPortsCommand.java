package io.fabriclab.edit;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.model.Units;

/**
 * Sets the speed or the QoS profile of one or more ports, as one undo step. A link never runs
 * faster than its slower port, so lowering a port's speed lowers the speed of the link on it too
 * (and undo gives both back). A per-port QoS profile wins over the device's (docs/format.md);
 * null makes the port inherit the device's again.
 */
public final class SetPortsCommand implements FabricCommand {
    private final String description;
    private final List<Port> ports;
    private final Integer speedGbps;
    private final String qosProfile;
    private final boolean setsQos;
    private final Fabric fabric;
    private final Map<Port, Integer> oldSpeed = new LinkedHashMap<>();
    private final Map<Port, String> oldQos = new LinkedHashMap<>();
    private final Map<Link, Integer> oldLinkSpeed = new LinkedHashMap<>();

    private SetPortsCommand(Fabric fabric, String description, List<Port> ports, Integer speedGbps, String qosProfile,
                            boolean setsQos) {
        this.fabric = Objects.requireNonNull(fabric, "fabric");
        if (ports.isEmpty()) {
            throw new IllegalArgumentException("no port to change");
        }
        this.description = description;
        this.ports = List.copyOf(ports);
        this.speedGbps = speedGbps;
        this.qosProfile = qosProfile;
        this.setsQos = setsQos;
    }

    /** @throws IllegalArgumentException when the speed is not a link speed */
    public static SetPortsCommand speed(Fabric fabric, List<Port> ports, int speedGbps) {
        if (!Units.isAllowedSpeed(speedGbps)) {
            throw new IllegalArgumentException("port speed " + speedGbps + " is not a link speed; allowed: "
                    + Units.allowedSpeeds());
        }
        return new SetPortsCommand(fabric, "Set speed of " + what(ports) + " to " + speedGbps + "G", ports, speedGbps,
                null, false);
    }

    /** @throws IllegalArgumentException when the fabric has no profile of that name (null: inherit) */
    public static SetPortsCommand qos(Fabric fabric, List<Port> ports, String profile) {
        if (profile != null && fabric.qosProfile(profile) == null) {
            throw new IllegalArgumentException("no QoS profile named '" + profile + "'; have "
                    + fabric.qosProfiles().keySet());
        }
        return new SetPortsCommand(fabric, (profile == null ? "Clear QoS profile of " : "Set QoS profile " + profile
                + " on ") + what(ports), ports, null, profile, true);
    }

    private static String what(List<Port> ports) {
        return ports.size() == 1 ? ports.get(0).ref() : ports.size() + " ports";
    }

    /** True when no port changes (the editor then skips the command). */
    public boolean isNoOp() {
        return ports.stream().allMatch(p -> setsQos ? Objects.equals(p.qosProfile(), qosProfile)
                : p.speedGbps() == speedGbps);
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public void execute() {
        oldSpeed.clear();
        oldQos.clear();
        oldLinkSpeed.clear();
        for (Port p : ports) {
            if (setsQos) {
                oldQos.put(p, p.qosProfile());
                p.setQosProfile(qosProfile);
            } else {
                oldSpeed.put(p, p.speedGbps());
                p.setSpeedGbps(speedGbps);
                Link l = fabric.linkAt(p);
                if (l != null && l.speedGbps() > speedGbps) {
                    oldLinkSpeed.putIfAbsent(l, l.speedGbps());
                    l.setSpeedGbps(speedGbps);
                }
            }
        }
    }

    @Override
    public void undo() {
        oldLinkSpeed.forEach(Link::setSpeedGbps);
        oldSpeed.forEach(Port::setSpeedGbps);
        oldQos.forEach(Port::setQosProfile);
    }
}
