package io.fabriclab.edit;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;

/** Adds one device at a position. Redo adds the very same device object again. */
public final class AddDeviceCommand implements FabricCommand {
    private final Fabric fabric;
    private final Device device;
    private final double x;
    private final double y;

    public AddDeviceCommand(Fabric fabric, Device device, double x, double y) {
        this.fabric = fabric;
        this.device = device;
        this.x = x;
        this.y = y;
    }

    /** A device from a template with the next free id of its prefix. */
    public static AddDeviceCommand fromTemplate(Fabric fabric, DeviceTemplate t, double x, double y) {
        return new AddDeviceCommand(fabric, t.create(t.nextFreeId(fabric)), x, y);
    }

    public Device device() {
        return device;
    }

    @Override
    public String description() {
        return "Add " + device.role() + " " + device.id();
    }

    @Override
    public void execute() {
        fabric.addDevice(device);
        fabric.layout().setPosition(device.id(), x, y);
    }

    @Override
    public void undo() {
        if (!fabric.linksOf(device).isEmpty()) {
            throw new IllegalStateException("cannot undo adding " + device.id() + ": it has links (undo those first)");
        }
        fabric.removeDevice(device);
    }
}
