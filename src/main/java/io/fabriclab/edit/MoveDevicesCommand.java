package io.fabriclab.edit;

import java.util.HashMap;
import java.util.Map;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;

/**
 * Moves devices in the layout (one drag, or an automatic layout). A null "from" position means
 * the device had none, and undo removes it again.
 */
public final class MoveDevicesCommand implements FabricCommand {
    private final Fabric fabric;
    private final String description;
    private final Map<String, Layout.Point> from;
    private final Map<String, Layout.Point> to;

    public MoveDevicesCommand(Fabric fabric, String description, Map<String, Layout.Point> from,
                              Map<String, Layout.Point> to) {
        this.fabric = fabric;
        this.description = description;
        this.from = new HashMap<>(from);
        this.to = Map.copyOf(to);
    }

    /** Moves every device to the positions of {@code target}, remembering where each one was. */
    public static MoveDevicesCommand toLayout(Fabric fabric, String description, Layout target) {
        Map<String, Layout.Point> from = new HashMap<>();
        for (String id : target.positions().keySet()) {
            from.put(id, fabric.layout().position(id));
        }
        return new MoveDevicesCommand(fabric, description, from, target.positions());
    }

    public Map<String, Layout.Point> to() {
        return to;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public void execute() {
        to.forEach((id, p) -> fabric.layout().setPosition(id, p.x(), p.y()));
    }

    @Override
    public void undo() {
        for (String id : to.keySet()) {
            Layout.Point p = from.get(id);
            if (p == null) {
                fabric.layout().positions().remove(id);
            } else {
                fabric.layout().setPosition(id, p.x(), p.y());
            }
        }
    }
}
