package io.fabriclab.edit;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;

/**
 * Copies devices with everything that describes them (role, model, unit, rail, pod, GPUs, scale-up domain, QoS,
 * labels, every port) and the links among them, cabled on the same port names with the same
 * speed, cable and state: copy/paste that keeps links. Copies get the next free id of the
 * original's name stem ("leaf3" gives "leaf5" when leaf4 exists) and sit at an offset.
 */
public final class DuplicateCommand implements FabricCommand {
    private final CompoundCommand steps;
    private final List<Device> copies = new ArrayList<>();
    private final List<Link> copiedLinks = new ArrayList<>();

    public DuplicateCommand(Fabric fabric, Collection<Device> originals, double dx, double dy) {
        this(fabric, fabric, originals, dx, dy);
    }

    /**
     * Copies devices of {@code source} (with the links among them and their positions, offset by
     * dx, dy) into {@code fabric}: the clipboard is a small fabric of its own, so a cut device can
     * still be pasted after it left the drawing.
     */
    public DuplicateCommand(Fabric source, Fabric fabric, Collection<Device> originals, double dx, double dy) {
        Set<Device> set = new LinkedHashSet<>(originals);
        Map<Device, Device> copyOf = new IdentityHashMap<>();
        Set<String> taken = new HashSet<>();
        fabric.devices().forEach(d -> taken.add(d.id()));
        List<FabricCommand> parts = new ArrayList<>();
        for (Device d : set) {
            String id = nextFreeId(stem(d.id()), taken);
            taken.add(id);
            Device c = copy(d, id);
            copyOf.put(d, c);
            copies.add(c);
            Layout.Point p = source.layout().position(d.id());
            parts.add(new AddDeviceCommand(fabric, c, p == null ? dx : p.x() + dx, p == null ? dy : p.y() + dy));
        }
        for (Link l : source.links()) {
            Device a = copyOf.get(l.a().device());
            Device b = copyOf.get(l.b().device());
            if (a != null && b != null) {
                Port pa = a.port(l.a().name());
                Port pb = b.port(l.b().name());
                Link c = new Link(Link.idFor(pa, pb), pa, pb, l.speedGbps(), l.cableLengthM(), l.cableType());
                c.setState(l.state());
                copiedLinks.add(c);
                parts.add(new AddLinkCommand(fabric, c));
            }
        }
        steps = new CompoundCommand("Duplicate " + (set.size() == 1 ? set.iterator().next().id() : set.size()
                + " devices"), parts);
    }

    /** The new devices, in the order of the originals. */
    public List<Device> copies() {
        return List.copyOf(copies);
    }

    public List<Link> copiedLinks() {
        return List.copyOf(copiedLinks);
    }

    @Override
    public String description() {
        return steps.description();
    }

    @Override
    public void execute() {
        steps.execute();
    }

    @Override
    public void undo() {
        steps.undo();
    }

    private static Device copy(Device d, String id) {
        Device c = new Device(id, d.role());
        c.setModel(d.model());
        c.setUnit(d.unit());
        c.setRail(d.rail());
        c.setPod(d.pod());
        c.setGpus(d.gpusOverride());
        c.setScaleUp(d.scaleUp());
        c.setQosProfile(d.qosProfile());
        c.labels().putAll(d.labels());
        for (Port p : d.ports()) {
            c.addPort(p.name(), p.speedGbps(), p.nic()).setQosProfile(p.qosProfile());
        }
        return c;
    }

    /** "su0-rail3" gives "su0-rail", "spine" gives "spine". */
    static String stem(String id) {
        int i = id.length();
        while (i > 0 && Character.isDigit(id.charAt(i - 1))) {
            i--;
        }
        return id.substring(0, i);
    }

    private static String nextFreeId(String stem, Set<String> taken) {
        for (int n = 1; ; n++) {
            String id = stem + n;
            if (!taken.contains(id)) {
                return id;
            }
        }
    }
}
