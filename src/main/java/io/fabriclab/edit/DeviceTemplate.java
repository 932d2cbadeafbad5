package io.fabriclab.edit;

import java.util.List;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;

/**
 * A kind of device the palette offers: role, id prefix and port groups. Defaults follow today's
 * AI fabrics: 51.2 Tb/s switches (64 x 400G) and GPU servers with one 400G NIC per GPU.
 */
public record DeviceTemplate(DeviceRole role, String idPrefix, String title, List<PortGroup> portGroups) {

    /** {@code count} ports named prefix+first..; on servers each port is NIC i (and GPU i). */
    public record PortGroup(String prefix, int first, int count, int speedGbps, boolean nics) {
    }

    public DeviceTemplate {
        portGroups = List.copyOf(portGroups);
    }

    public static DeviceTemplate server8x400() {
        return new DeviceTemplate(DeviceRole.SERVER, "srv", "GPU server 8 × 400G",
                List.of(new PortGroup("nic", 0, 8, 400, true)));
    }

    public static DeviceTemplate switch64x400(DeviceRole role) {
        String prefix = role.jsonName();
        String title = switch (role) {
            case LEAF -> "Leaf";
            case RAIL -> "Rail switch";
            case SPINE -> "Spine";
            case CORE -> "Core / super-spine";
            case SERVER -> throw new IllegalArgumentException("a server is not a switch");
        } + " 64 × 400G";
        return new DeviceTemplate(role, prefix, title, List.of(new PortGroup("eth", 1, 64, 400, false)));
    }

    /** One template per role, top tier first (the palette's order). */
    public static List<DeviceTemplate> defaults() {
        return List.of(switch64x400(DeviceRole.CORE), switch64x400(DeviceRole.SPINE), switch64x400(DeviceRole.LEAF),
                switch64x400(DeviceRole.RAIL), server8x400());
    }

    /** A new device with this template's ports (not yet in any fabric). */
    public Device create(String id) {
        Device d = new Device(id, role);
        for (PortGroup g : portGroups) {
            for (int i = 0; i < g.count(); i++) {
                int n = g.first() + i;
                d.addPort(g.prefix() + n, g.speedGbps(), g.nics() ? n : null);
            }
        }
        return d;
    }

    /** The first id prefix+n (n = 1, 2, ...) not used in the fabric. */
    public String nextFreeId(Fabric fabric) {
        for (int n = 1; ; n++) {
            String id = idPrefix + n;
            if (fabric.device(id) == null) {
                return id;
            }
        }
    }
}
