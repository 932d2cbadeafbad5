package io.fabriclab.edit;

import java.util.List;
import java.util.Optional;

import io.fabriclab.model.CableType;
import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;

/**
 * Cables two devices on their first free ports of equal speed. A server prefers the NIC of the
 * switch's rail (NIC k to the rail-k leaf), so drawing a rail-optimised unit by hand stays
 * rail-aligned. Without an equal-speed pair the first free ports are used at the slower port's
 * speed. The link runs at that speed; the cable length defaults to 3 m (DAC in the rack) from a
 * server and 30 m between switches, and the cable type follows from the length.
 */
public final class AddLinkCommand implements FabricCommand {
    public static final double SERVER_CABLE_M = 3;
    public static final double SWITCH_CABLE_M = 30;

    /** The ports chosen for a new link and the speed it runs at. */
    public record PortChoice(Port a, Port b, int speedGbps, boolean speedsMatch) {
    }

    private final Fabric fabric;
    private final Link link;

    /** Chooses the ports now; throws IllegalArgumentException when a device has no free port. */
    public AddLinkCommand(Fabric fabric, Device a, Device b) {
        this.fabric = fabric;
        if (a == b) {
            throw new IllegalArgumentException("a link needs two different devices");
        }
        PortChoice c = choosePorts(fabric, a, b).orElseThrow(() -> new IllegalArgumentException(
                "no free port on " + (fabric.freePorts(a).isEmpty() ? a.id() : b.id())));
        double length = a.role() == DeviceRole.SERVER || b.role() == DeviceRole.SERVER ? SERVER_CABLE_M : SWITCH_CABLE_M;
        this.link = new Link(Link.idFor(c.a(), c.b()), c.a(), c.b(), c.speedGbps(), length, CableType.forLength(length));
    }

    /** Links two given ports (e.g. from a port-level dialog or the command line). */
    public AddLinkCommand(Fabric fabric, Link link) {
        this.fabric = fabric;
        this.link = link;
    }

    public Link link() {
        return link;
    }

    /** The ports a new link between a and b would use, or empty when either has no free port. */
    public static Optional<PortChoice> choosePorts(Fabric fabric, Device a, Device b) {
        List<Port> fa = fabric.freePorts(a);
        List<Port> fb = fabric.freePorts(b);
        if (fa.isEmpty() || fb.isEmpty()) {
            return Optional.empty();
        }
        fa = railFirst(fa, b);
        fb = railFirst(fb, a);
        for (Port pa : fa) {
            for (Port pb : fb) {
                if (pa.speedGbps() == pb.speedGbps()) {
                    return Optional.of(new PortChoice(pa, pb, pa.speedGbps(), true));
                }
            }
        }
        Port pa = fa.get(0);
        Port pb = fb.get(0);
        return Optional.of(new PortChoice(pa, pb, Math.min(pa.speedGbps(), pb.speedGbps()), false));
    }

    /** A server's free ports with the NIC matching the peer's rail moved to the front. */
    private static List<Port> railFirst(List<Port> free, Device peer) {
        if (peer.rail() == null || free.isEmpty() || free.get(0).device().role() != DeviceRole.SERVER) {
            return free;
        }
        int rail = peer.rail();
        List<Port> matching = free.stream().filter(p -> p.nic() != null && p.nic() == rail).toList();
        if (matching.isEmpty()) {
            return free;
        }
        List<Port> out = new java.util.ArrayList<>(matching);
        free.stream().filter(p -> !matching.contains(p)).forEach(out::add);
        return out;
    }

    @Override
    public String description() {
        return "Link " + link.a().ref() + " to " + link.b().ref();
    }

    @Override
    public void execute() {
        fabric.addLink(link);
    }

    @Override
    public void undo() {
        fabric.removeLink(link);
    }
}
