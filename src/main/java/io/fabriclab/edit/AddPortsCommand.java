package io.fabriclab.edit;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.FabricLimits;
import io.fabriclab.model.Port;
import io.fabriclab.model.Units;

/**
 * Adds free ports to a device, so a generated fabric can grow (issue 16 item 8). A switch gets the
 * next {@code ethN} names after its highest one (the generators' naming, docs/generators.md); a
 * server gets NIC ports {@code nicK} with NIC index K, so each new port is a new NIC (and GPU when the
 * GPU count follows the NICs). Undo removes exactly these ports; redo puts the same port objects back.
 */
public final class AddPortsCommand implements FabricCommand {
    private final Fabric fabric;
    private final Device device;
    private final int count;
    private final int speedGbps;
    private final List<Port> added = new ArrayList<>();
    private final List<Integer> indexes = new ArrayList<>();

    /**
     * @throws IllegalArgumentException when the count is below 1, the speed is not a link speed, or
     *                                  the device would pass {@link FabricLimits#MAX_PORTS_PER_DEVICE}
     */
    public AddPortsCommand(Fabric fabric, Device device, int count, int speedGbps) {
        this.fabric = Objects.requireNonNull(fabric, "fabric");
        this.device = Objects.requireNonNull(device, "device");
        if (count < 1) {
            throw new IllegalArgumentException("ports to add must be at least 1, was " + count);
        }
        if (!Units.isAllowedSpeed(speedGbps)) {
            throw new IllegalArgumentException("port speed " + speedGbps + " is not a link speed; allowed: "
                    + Units.allowedSpeeds());
        }
        if ((long) device.portCount() + count > FabricLimits.MAX_PORTS_PER_DEVICE) {
            throw new IllegalArgumentException(device.id() + " has " + device.portCount() + " ports; " + count
                    + " more would pass the " + FabricLimits.MAX_PORTS_PER_DEVICE + " ports per device FabricLab reads");
        }
        this.count = count;
        this.speedGbps = speedGbps;
    }

    /** The ports added (empty before the first execute). */
    public List<Port> added() {
        return List.copyOf(added);
    }

    @Override
    public String description() {
        return "Add " + count + (count == 1 ? " port" : " ports") + " to " + device.id();
    }

    @Override
    public void execute() {
        if (added.isEmpty()) {
            boolean server = device.role() == DeviceRole.SERVER;
            String prefix = server ? "nic" : "eth";
            int next = server ? nextNic(device) : highestNumber(device, prefix) + 1;
            for (int i = 0; i < count; i++) {
                String name = prefix + next;
                while (device.port(name) != null) {
                    name = prefix + ++next;
                }
                Port p = device.addPort(name, speedGbps, server ? next : null);
                added.add(p);
                indexes.add(device.indexOfPort(p));
                next++;
            }
            return;
        }
        for (int i = 0; i < added.size(); i++) {
            device.restorePort(added.get(i), indexes.get(i));
        }
    }

    @Override
    public void undo() {
        for (int i = added.size() - 1; i >= 0; i--) {
            fabric.removePort(added.get(i)); // refuses a port that carries a link: undo that link first
        }
    }

    /** Highest number N among the device's ports named prefix+N (0 when none). */
    static int highestNumber(Device d, String prefix) {
        int max = 0;
        for (Port p : d.ports()) {
            String n = p.name();
            if (n.startsWith(prefix) && n.length() > prefix.length()) {
                try {
                    max = Math.max(max, Integer.parseInt(n.substring(prefix.length())));
                } catch (NumberFormatException ignored) {
                    // a port named otherwise (eth1/1, ethX) does not take part in the numbering
                }
            }
        }
        return max;
    }

    private static int nextNic(Device d) {
        int next = 0;
        for (Port p : d.ports()) {
            if (p.nic() != null) {
                next = Math.max(next, p.nic() + 1);
            }
        }
        return Math.max(next, d.ports().stream().anyMatch(p -> p.name().startsWith("nic"))
                ? highestNumber(d, "nic") + 1 : 0);
    }
}
