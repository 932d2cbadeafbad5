package io.fabriclab.edit;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;
import io.fabriclab.model.Link;

/**
 * Deletes devices (with every link attached to them) and links. Undo puts back the same device,
 * port and link objects with their positions, so every port is cabled exactly as before.
 */
public final class DeleteSelectionCommand implements FabricCommand {
    private final Fabric fabric;
    private final List<Device> devices;
    private final List<Link> explicitLinks;
    private final List<Link> removedLinks = new ArrayList<>();
    private final Map<String, Layout.Point> positions = new LinkedHashMap<>();

    public DeleteSelectionCommand(Fabric fabric, Collection<Device> devices, Collection<Link> links) {
        this.fabric = fabric;
        this.devices = List.copyOf(new LinkedHashSet<>(devices));
        this.explicitLinks = List.copyOf(new LinkedHashSet<>(links));
    }

    @Override
    public String description() {
        List<String> parts = new ArrayList<>();
        if (!devices.isEmpty()) {
            parts.add(devices.size() == 1 ? devices.get(0).id() : devices.size() + " devices");
        }
        if (!explicitLinks.isEmpty()) {
            parts.add(explicitLinks.size() == 1 ? "1 link" : explicitLinks.size() + " links");
        }
        return "Delete " + String.join(" and ", parts);
    }

    @Override
    public void execute() {
        removedLinks.clear();
        positions.clear();
        Set<Device> gone = new LinkedHashSet<>(devices);
        // Remove links in fabric order so undo can add them back in the same order.
        for (Link l : List.copyOf(fabric.links())) {
            if (explicitLinks.contains(l) || gone.contains(l.a().device()) || gone.contains(l.b().device())) {
                removedLinks.add(l);
            }
        }
        for (Device d : devices) {
            Layout.Point p = fabric.layout().position(d.id());
            if (p != null) {
                positions.put(d.id(), p);
            }
        }
        removedLinks.forEach(fabric::removeLink);
        for (Device d : devices) {
            fabric.removeDevice(d);
        }
    }

    @Override
    public void undo() {
        for (Device d : devices) {
            fabric.addDevice(d);
        }
        positions.forEach((id, p) -> fabric.layout().setPosition(id, p.x(), p.y()));
        removedLinks.forEach(fabric::addLink);
    }

    /** Every link the last execute removed (explicit ones and those attached to deleted devices). */
    public List<Link> removedLinks() {
        return List.copyOf(removedLinks);
    }
}
