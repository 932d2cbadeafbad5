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
 * port and link objects with their positions, so every port is cabled exactly as before, and in
 * the same order as before: device, link and position order decide the order of saved files and
 * of the graph's iteration (and so of any index built from it), so an undo must not change them.
 */
public final class DeleteSelectionCommand implements FabricCommand {
    private final Fabric fabric;
    private final List<Device> devices;
    private final List<Link> explicitLinks;
    private final List<Link> removedLinks = new ArrayList<>();
    private final Map<String, Layout.Point> positions = new LinkedHashMap<>();
    private List<Device> deviceOrder = List.of();
    private List<Link> linkOrder = List.of();
    private Map<String, Layout.Point> positionOrder = Map.of();

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
        deviceOrder = List.copyOf(fabric.devices());
        linkOrder = List.copyOf(fabric.links());
        positionOrder = new LinkedHashMap<>(fabric.layout().positions());
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
        // Devices from the first deleted one on, and links from the first missing one on, are
        // taken out and put back in their original order (the public API only appends).
        int firstDevice = deviceOrder.size();
        for (int i = 0; i < deviceOrder.size(); i++) {
            if (fabric.device(deviceOrder.get(i).id()) != deviceOrder.get(i)) {
                firstDevice = i;
                break;
            }
        }
        List<Device> tail = deviceOrder.subList(firstDevice, deviceOrder.size());
        for (Device d : tail) {
            if (fabric.device(d.id()) == d) {
                fabric.removeDevice(d);
            }
        }
        int firstLink = linkOrder.size();
        for (int i = 0; i < linkOrder.size(); i++) {
            if (fabric.link(linkOrder.get(i).id()) != linkOrder.get(i)) {
                firstLink = i;
                break;
            }
        }
        List<Link> linkTail = linkOrder.subList(firstLink, linkOrder.size());
        for (Link l : linkTail) {
            fabric.removeLink(l);
        }
        tail.forEach(fabric::addDevice);
        linkTail.forEach(fabric::addLink);
        Map<String, Layout.Point> now = fabric.layout().positions();
        now.clear();
        now.putAll(positionOrder);
    }

    /** Every link the last execute removed (explicit ones and those attached to deleted devices). */
    public List<Link> removedLinks() {
        return List.copyOf(removedLinks);
    }
}
