package io.fabriclab.edit;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;

/**
 * Removes free ports from their devices. A port carrying a link is refused with the link's name
 * (delete the link first, itself an undoable step), so removing ports never loses a cable. Undo
 * puts the same port objects back at their old places in the port order.
 */
public final class RemovePortsCommand implements FabricCommand {
    private final Fabric fabric;
    private final List<Port> ports;
    private final List<Integer> indexes = new ArrayList<>();

    /** @throws IllegalArgumentException when there is no port or one of them carries a link */
    public RemovePortsCommand(Fabric fabric, List<Port> ports) {
        this.fabric = Objects.requireNonNull(fabric, "fabric");
        if (ports.isEmpty()) {
            throw new IllegalArgumentException("no port to remove");
        }
        for (Port p : ports) {
            Link l = fabric.linkAt(p);
            if (l != null) {
                throw new IllegalArgumentException("port " + p.ref() + " carries link " + l.id()
                        + "; delete the link first");
            }
        }
        this.ports = List.copyOf(ports);
    }

    @Override
    public String description() {
        return ports.size() == 1 ? "Remove port " + ports.get(0).ref() : "Remove " + ports.size() + " ports";
    }

    @Override
    public void execute() {
        indexes.clear();
        for (Port p : ports) {
            indexes.add(p.device().indexOfPort(p));
        }
        for (Port p : ports) {
            fabric.removePort(p);
        }
    }

    @Override
    public void undo() {
        // Ascending positions per device, so each port goes back in front of the ones that followed it.
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < ports.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.comparingInt(indexes::get));
        for (int i : order) {
            ports.get(i).device().restorePort(ports.get(i), indexes.get(i));
        }
    }
}
