package io.fabriclab.ui;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.controlsfx.control.PropertySheet;
import org.controlsfx.property.editor.DefaultPropertyEditorFactory;

import io.fabriclab.diagram.FabricPainter;
import io.fabriclab.edit.SetPropertyCommand;
import io.fabriclab.model.CableType;
import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.LinkState;
import io.fabriclab.model.Port;
import io.fabriclab.model.ScaleUp;
import io.fabriclab.model.Units;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.scene.control.Label;
import javafx.scene.layout.BorderPane;

/**
 * The properties of the selection (or of the fabric when nothing is selected) in a ControlsFX
 * PropertySheet. Every change is a {@link SetPropertyCommand} on the document's stack, so it can
 * be undone like any drawing edit.
 */
public final class InspectorPane extends BorderPane {
    private final FabricDocument doc;
    private final PropertySheet sheet = new PropertySheet();
    private final Label title = new Label();
    private Consumer<String> messages = m -> { };
    private boolean refreshPending;
    private final PortTable ports;
    private final javafx.scene.layout.VBox body;

    static final String UNIT_HINT = "scalable unit, numbered from 1 as the generated names are (su01 is unit 1;"
            + " the file stores it 0-based); empty for none";
    static final String POD_HINT = "pod / spine group, numbered from 1 as the generated names are (pod01, sg01 is"
            + " pod 1; the file stores it 0-based); empty for none";

    public InspectorPane(FabricDocument doc) {
        this.doc = doc;
        title.getStyleClass().add("inspector-title");
        title.setPadding(new Insets(6, 8, 6, 8));
        title.setStyle("-fx-font-weight: bold;");
        setTop(title);
        ports = new PortTable(doc, m -> messages.accept(m));
        body = new javafx.scene.layout.VBox(sheet);
        javafx.scene.layout.VBox.setVgrow(sheet, javafx.scene.layout.Priority.ALWAYS);
        setCenter(body);
        sheet.setMode(PropertySheet.Mode.NAME);
        sheet.setModeSwitcherVisible(false);
        sheet.setSearchBoxVisible(false);
        DefaultPropertyEditorFactory fallback = new DefaultPropertyEditorFactory();
        sheet.setPropertyEditorFactory(item -> item instanceof FabricProperty<?> fp ? fp.createEditor()
                : fallback.call(item));
        setPrefWidth(300);
        doc.selection().addListener(this::requestRefresh);
        doc.stack().addListener(this::requestRefresh);
        refresh();
    }

    public void setOnMessage(Consumer<String> c) {
        messages = c;
    }

    public PropertySheet sheet() {
        return sheet;
    }

    /** The editable port list, shown under the properties of a single selected device. */
    PortTable ports() {
        return ports;
    }

    /** Rebuilds after the current event: an editor may be committing when the stack changes. */
    private void requestRefresh() {
        if (!refreshPending) {
            refreshPending = true;
            Platform.runLater(() -> {
                refreshPending = false;
                refresh();
            });
        }
    }

    public void refresh() {
        List<PropertySheet.Item> items = new ArrayList<>();
        var sel = doc.selection();
        Device single = sel.devices().size() == 1 && sel.links().isEmpty() ? sel.devices().iterator().next() : null;
        if (single != null) {
            title.setText("Device " + single.id());
            deviceItems(single, items);
        } else if (sel.links().size() == 1 && sel.devices().isEmpty()) {
            Link l = sel.links().iterator().next();
            title.setText("Link " + ends(l));
            linkItems(l, items);
        } else if (!sel.isEmpty()) {
            title.setText(sel.links().isEmpty() ? sel.devices().size() + " devices"
                    : sel.devices().isEmpty() ? sel.links().size() + " links" : "Selection");
            int gpus = sel.devices().stream().mapToInt(Device::gpus).sum();
            items.add(FabricProperty.readOnly("Selection", "Devices", "selected devices",
                    () -> String.valueOf(sel.devices().size())));
            items.add(FabricProperty.readOnly("Selection", "Links", "selected links",
                    () -> String.valueOf(sel.links().size())));
            items.add(FabricProperty.readOnly("Selection", "GPUs", "GPUs in the selected servers",
                    () -> String.valueOf(gpus)));
            if (sel.links().isEmpty()) {
                multiDeviceItems(List.copyOf(sel.devices()), items);
            } else if (sel.devices().isEmpty()) {
                multiLinkItems(List.copyOf(sel.links()), items);
            }
        } else {
            title.setText("Fabric " + doc.fabric().name());
            fabricItems(doc.fabric(), items);
        }
        sheet.getItems().setAll(items);
        ports.show(single);
        if (single != null && !body.getChildren().contains(ports)) {
            body.getChildren().add(ports);
        } else if (single == null) {
            body.getChildren().remove(ports);
        }
    }

    private void fabricItems(Fabric f, List<PropertySheet.Item> items) {
        items.add(FabricProperty.text("Fabric", "Name", "fabric name", f::name,
                v -> edit("Rename fabric", f::name, f::setName, v), FabricProperty::nonEmpty, s -> s));
        items.add(FabricProperty.text("Fabric", "Description", "free text", f::description,
                v -> edit("Edit description", f::description, f::setDescription, v), s -> s, s -> s));
        items.add(FabricProperty.text("Fabric", "MTU (bytes)", "largest frame on the wire, headers included",
                f::mtuBytes, v -> edit("Set MTU", f::mtuBytes, f::setMtuBytes, v),
                s -> FabricProperty.intIn(s, 1500, 9216), String::valueOf));
        items.add(FabricProperty.readOnly("Counts", "Devices", "", () -> String.valueOf(f.devices().size())));
        items.add(FabricProperty.readOnly("Counts", "Links", "", () -> String.valueOf(f.linkCount())));
        items.add(FabricProperty.readOnly("Counts", "GPUs", "", () -> String.valueOf(f.gpuCount())));
        items.add(FabricProperty.readOnly("Counts", "QoS profiles", "",
                () -> String.join(", ", f.qosProfiles().keySet())));
    }

    private void deviceItems(Device d, List<PropertySheet.Item> items) {
        Fabric f = doc.fabric();
        items.add(FabricProperty.readOnly("Device", "Id", "unique name", d::id));
        items.add(FabricProperty.choice("Device", "Role", "what the device is in the fabric", d::role,
                v -> edit("Set role of " + d.id(), d::role, d::setRole, v), DeviceRole.values()));
        items.add(FabricProperty.text("Device", "Model", "hardware model / SKU", d::model,
                v -> edit("Set model of " + d.id(), d::model, d::setModel, v), FabricProperty::nullIfBlank,
                FabricProperty::blankIfNull));
        items.add(FabricProperty.text("Placement", "Unit", UNIT_HINT, d::unit,
                v -> edit("Set unit of " + d.id(), d::unit, d::setUnit, v), InspectorPane::ordinal,
                InspectorPane::ordinalText));
        items.add(FabricProperty.text("Placement", "Rail", "rail index of a rail leaf, 0-based; empty for none", d::rail,
                v -> edit("Set rail of " + d.id(), d::rail, d::setRail, v), FabricProperty::optionalIndex,
                FabricProperty::blankIfNull));
        items.add(FabricProperty.text("Placement", "Pod", POD_HINT, d::pod,
                v -> edit("Set pod of " + d.id(), d::pod, d::setPod, v), InspectorPane::ordinal,
                InspectorPane::ordinalText));
        if (d.role() == DeviceRole.SERVER) {
            // Shows the count the model uses (Device.gpus(): the set count, else one per NIC), not only
            // an explicit override, which generated servers do not have.
            long nics = d.ports().stream().map(Port::nic).filter(java.util.Objects::nonNull).distinct().count();
            items.add(FabricProperty.text("Device", "GPUs", (d.gpusOverride() == null ? "one per NIC (" + nics
                            + " NICs); a number sets it" : "set explicitly; empty = one per NIC (" + nics + " NICs)"),
                    () -> (Integer) d.gpus(), v -> edit("Set GPUs of " + d.id(), d::gpusOverride, d::setGpus, v),
                    FabricProperty::optionalIndex, FabricProperty::blankIfNull));
            scaleUpItems(d, items);
        }
        items.add(FabricProperty.text("QoS", "QoS profile", "profile name; empty inherits the fabric default "
                        + f.defaultQosProfile(), d::qosProfile,
                v -> edit("Set QoS of " + d.id(), d::qosProfile, d::setQosProfile, v), s -> qosName(f, s),
                FabricProperty::blankIfNull));
        int free = f.freePorts(d).size();
        items.add(FabricProperty.readOnly("Ports", "Ports", "ports by speed", () -> portSummary(d)));
        items.add(FabricProperty.readOnly("Ports", "In use", "ports carrying a link",
                () -> (d.portCount() - free) + " used, " + free + " free"));
        items.add(FabricProperty.readOnly("Ports", "Neighbours", "devices cabled to this one",
                () -> String.valueOf(f.neighbors(d).size())));
    }

    /**
     * A server's scale-up domain (docs/format.md, scaleUp): its GPU, chosen among the generations
     * FabricLab cites (which brings their figures), and the two figures, each editable (a figure
     * typed over a known GPU overrides that figure alone, as in the file). Each change is one
     * undoable step.
     */
    private void scaleUpItems(Device d, List<PropertySheet.Item> items) {
        String unset = d.scaleUp() == null ? "; not set in the file: " + ScaleUp.DEFAULT.gpu() + "'s assumed" : "";
        items.add(FabricProperty.options("Scale-up", "GPU", "the GPUs' NVLink / NVSwitch generation ("
                        + d.scaleUpOrDefault().technology() + "); choosing one takes its datasheet figures: "
                        + String.join(", ", ScaleUp.known().stream().map(k -> k.gpu() + " " + k.bandwidthText() + " GB/s")
                        .toList()) + "; * = figures of its own" + unset, d::scaleUp,
                v -> edit("Set GPU of " + d.id() + " to " + v.gpu(), d::scaleUp, d::setScaleUp, v),
                gpuChoices(d.scaleUp()), InspectorPane::gpuLabel));
        items.add(FabricProperty.text("Scale-up", "NVLink GB/s", "per GPU, each direction (GB/s = 10^9 bytes/s); "
                        + "above 0, at most 100000" + unset, () -> d.scaleUpOrDefault().bandwidthGBps(),
                v -> edit("Set NVLink bandwidth of " + d.id(), d::scaleUp, d::setScaleUp,
                        d.scaleUpOrDefault().withBandwidthGBps(v)), InspectorPane::scaleUpBandwidth,
                v -> d.scaleUpOrDefault().withBandwidthGBps(v).bandwidthText()));
        items.add(FabricProperty.text("Scale-up", "NVLink ns", "NVLink latency per transfer, GPU to GPU through the "
                        + "NVSwitch, in ns; 1 to 1000000" + unset, () -> d.scaleUpOrDefault().latencyNs(),
                v -> edit("Set NVLink latency of " + d.id(), d::scaleUp, d::setScaleUp,
                        d.scaleUpOrDefault().withLatencyNs(v)), InspectorPane::scaleUpLatency, String::valueOf));
    }

    /** The known GPUs, and the server's own domain when it is not one of them (custom figures). */
    static ScaleUp[] gpuChoices(ScaleUp current) {
        List<ScaleUp> out = new ArrayList<>(ScaleUp.known());
        if (current != null && !out.contains(current)) {
            out.add(current);
        }
        return out.toArray(ScaleUp[]::new);
    }

    /**
     * "H100", or "H100*" when its figures are not the generation's (the rows below show them; the
     * row's description says what the star means): short enough for the inspector's narrow column.
     */
    static String gpuLabel(ScaleUp s) {
        return ScaleUp.known().contains(s) ? s.gpu() : s.gpu() + "*";
    }

    static Double scaleUpBandwidth(String s) {
        try {
            double v = Double.parseDouble(s.trim());
            if (!(v > 0) || v > 100_000) {
                throw new IllegalArgumentException("NVLink bandwidth must be above 0 and at most 100000 GB/s");
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a number: " + s);
        }
    }

    static Long scaleUpLatency(String s) {
        try {
            long v = Long.parseLong(s.trim());
            if (v < 1 || v > 1_000_000) {
                throw new IllegalArgumentException("NVLink latency must be a whole number of ns from 1 to 1000000");
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a whole number of ns: " + s);
        }
    }

    /** A link by its two ends with device names, "leaf1:eth3 — spine2:eth1". */
    static String ends(Link l) {
        return l.a().ref() + " — " + l.b().ref();
    }

    private void linkItems(Link l, List<PropertySheet.Item> items) {
        items.add(FabricProperty.readOnly("Link", "Ends", "device:port at each end", () -> ends(l)));
        items.add(FabricProperty.text("Link", "Port A (" + l.a().device().id() + ")", "port on " + l.a().device().id()
                        + "; free: " + freeNames(l.a().device()), () -> l.a().name(),
                v -> moveEnd(l, true, v), v -> freePort(l.a().device(), l.a(), v), s -> s).withId("port-a"));
        items.add(FabricProperty.text("Link", "Port B (" + l.b().device().id() + ")", "port on " + l.b().device().id()
                        + "; free: "
                        + freeNames(l.b().device()), () -> l.b().name(),
                v -> moveEnd(l, false, v), v -> freePort(l.b().device(), l.b(), v), s -> s).withId("port-b"));
        int maxSpeed = Math.min(l.a().speedGbps(), l.b().speedGbps());
        items.add(FabricProperty.text("Link", "Speed (Gb/s)", "allowed: " + Units.allowedSpeeds() + ", at most "
                        + FabricPainter.speedText(maxSpeed) + " (the slower port)", l::speedGbps,
                v -> edit("Set speed of " + l.id(), l::speedGbps, l::setSpeedGbps, v),
                s -> FabricProperty.speed(s, maxSpeed), String::valueOf));
        items.add(FabricProperty.text("Cable", "Length (m)", "cable length; propagation 5 ns per metre",
                l::cableLengthM, v -> edit("Set cable length of " + l.id(), l::cableLengthM, l::setCableLengthM, v),
                FabricProperty::length, String::valueOf));
        items.add(FabricProperty.choice("Cable", "Type", "DAC up to 3 m, AOC 30 m, MMF 100 m, SMF beyond",
                l::cableType, v -> edit("Set cable type of " + l.id(), l::cableType, l::setCableType, v),
                CableType.values()));
        items.add(FabricProperty.choice("Link", "State", "a down link stays in the drawing, dashed red", l::state,
                v -> edit((v == LinkState.DOWN ? "Fail " : "Restore ") + l.id(), l::state, l::setState, v),
                LinkState.values()));
    }

    /** The free ports of a device, for the hint ("eth5, eth6, … 12 more"). */
    private String freeNames(Device d) {
        List<Port> free = doc.fabric().freePorts(d);
        if (free.isEmpty()) {
            return "none";
        }
        String shown = String.join(", ", free.stream().limit(8).map(Port::name).toList());
        return free.size() > 8 ? shown + ", … " + (free.size() - 8) + " more" : shown;
    }

    /** The name of a free port of the device (or the one the link already uses). */
    private String freePort(Device d, Port current, String name) {
        String n = name.trim();
        Port p = d.port(n);
        if (p == null) {
            throw new IllegalArgumentException(d.id() + " has no port " + n + "; free: " + freeNames(d));
        }
        if (p != current && !doc.fabric().isFree(p)) {
            throw new IllegalArgumentException(p.ref() + " is in use; free: " + freeNames(d));
        }
        return n;
    }

    /**
     * Moves one end of a link to another free port of the same device: the link is re-cabled
     * (same cable, state, and speed unless the new port is slower) as one undoable step.
     */
    private void moveEnd(Link l, boolean endA, String portName) {
        Port a = endA ? l.a().device().port(portName) : l.a();
        Port b = endA ? l.b() : l.b().device().port(portName);
        if (a == l.a() && b == l.b()) {
            return;
        }
        int speed = Math.min(l.speedGbps(), Math.min(a.speedGbps(), b.speedGbps()));
        Link moved = new Link(Link.idFor(a, b), a, b, speed, l.cableLengthM(), l.cableType());
        moved.setState(l.state());
        String what = "Move " + (endA ? l.a().ref() : l.b().ref()) + " to " + portName;
        doc.execute(new io.fabriclab.edit.CompoundCommand(what, List.of(
                new io.fabriclab.edit.DeleteSelectionCommand(doc.fabric(), List.of(), List.of(l)),
                new io.fabriclab.edit.AddLinkCommand(doc.fabric(), moved))));
        doc.selection().set(List.of(), List.of(moved));
        messages.accept(what + (speed < l.speedGbps() ? " (now " + FabricPainter.speedText(speed) + ", the slower port)"
                : ""));
    }

    /**
     * Multi-edit: a row shows the value the selected devices share (empty when they differ) and a
     * change applies to all of them as one undoable step.
     */
    private void multiDeviceItems(List<Device> ds, List<PropertySheet.Item> items) {
        Fabric f = doc.fabric();
        String n = ds.size() + " devices";
        items.add(FabricProperty.choice("All selected", "Role", "set the role of every selected device",
                () -> common(ds, Device::role), v -> editAll("Set role of " + n, ds, Device::role, Device::setRole, v),
                DeviceRole.values()));
        items.add(FabricProperty.text("All selected", "Model", "empty when they differ; a value sets it on all",
                () -> common(ds, Device::model), v -> editAll("Set model of " + n, ds, Device::model, Device::setModel, v),
                FabricProperty::nullIfBlank, FabricProperty::blankIfNull));
        items.add(FabricProperty.text("All selected", "Unit", UNIT_HINT + "; empty when they differ",
                () -> common(ds, Device::unit), v -> editAll("Set unit of " + n, ds, Device::unit, Device::setUnit, v),
                InspectorPane::ordinal, InspectorPane::ordinalText));
        items.add(FabricProperty.text("All selected", "Rail", "rail index; empty when they differ",
                () -> common(ds, Device::rail), v -> editAll("Set rail of " + n, ds, Device::rail, Device::setRail, v),
                FabricProperty::optionalIndex, FabricProperty::blankIfNull));
        items.add(FabricProperty.text("All selected", "Pod", POD_HINT + "; empty when they differ",
                () -> common(ds, Device::pod), v -> editAll("Set pod of " + n, ds, Device::pod, Device::setPod, v),
                InspectorPane::ordinal, InspectorPane::ordinalText));
        items.add(FabricProperty.text("All selected", "QoS profile", "profile name; empty when they differ",
                () -> common(ds, Device::qosProfile), v -> editAll("Set QoS of " + n, ds, Device::qosProfile,
                        Device::setQosProfile, v), s -> qosName(f, s), FabricProperty::blankIfNull));
        if (ds.stream().allMatch(d -> d.role() == DeviceRole.SERVER)) {
            ScaleUp shared = common(ds, Device::scaleUp);
            items.add(FabricProperty.options("All selected", "GPU", "the GPU (NVLink / NVSwitch generation) of every "
                            + "selected server, with its datasheet figures; empty when they differ", () -> shared,
                    v -> editAll("Set GPU of " + n + " to " + v.gpu(), ds, Device::scaleUp, Device::setScaleUp, v),
                    gpuChoices(shared), InspectorPane::gpuLabel));
        }
    }

    private void multiLinkItems(List<Link> ls, List<PropertySheet.Item> items) {
        String n = ls.size() + " links";
        int maxSpeed = ls.stream().mapToInt(l -> Math.min(l.a().speedGbps(), l.b().speedGbps())).min().orElse(0);
        items.add(FabricProperty.text("All selected", "Speed (Gb/s)", "at most " + FabricPainter.speedText(maxSpeed)
                        + " (the slowest port); empty when they differ", () -> common(ls, Link::speedGbps),
                v -> editAll("Set speed of " + n, ls, Link::speedGbps, Link::setSpeedGbps, v),
                s -> FabricProperty.speed(s, maxSpeed), FabricProperty::blankIfNull));
        items.add(FabricProperty.text("All selected", "Length (m)", "cable length; empty when they differ",
                () -> common(ls, Link::cableLengthM), v -> editAll("Set cable length of " + n, ls, Link::cableLengthM,
                        Link::setCableLengthM, v), FabricProperty::length, FabricProperty::blankIfNull));
        items.add(FabricProperty.choice("All selected", "Type", "cable type of every selected link",
                () -> common(ls, Link::cableType), v -> editAll("Set cable type of " + n, ls, Link::cableType,
                        Link::setCableType, v), CableType.values()));
        items.add(FabricProperty.choice("All selected", "State", "fail or restore every selected link",
                () -> common(ls, Link::state), v -> editAll((v == LinkState.DOWN ? "Fail " : "Restore ") + n, ls,
                        Link::state, Link::setState, v), LinkState.values()));
    }

    /** The value every element has, or null when they differ. */
    private static <X, T> T common(List<X> xs, java.util.function.Function<X, T> get) {
        T first = get.apply(xs.get(0));
        for (X x : xs) {
            if (!java.util.Objects.equals(first, get.apply(x))) {
                return null;
            }
        }
        return first;
    }

    /** One compound command setting a property on each element that does not have the value yet. */
    private <X, T> void editAll(String what, List<X> xs, java.util.function.Function<X, T> get,
                                java.util.function.BiConsumer<X, T> set, T value) {
        List<io.fabriclab.edit.FabricCommand> parts = new ArrayList<>();
        for (X x : xs) {
            SetPropertyCommand<T> c = new SetPropertyCommand<>(what, () -> get.apply(x), v -> set.accept(x, v), value);
            if (!c.isNoOp()) {
                parts.add(c);
            }
        }
        if (!parts.isEmpty()) {
            doc.execute(new io.fabriclab.edit.CompoundCommand(what, parts));
            messages.accept(what);
        }
    }

    private <T> void edit(String what, Supplier<T> getter, Consumer<T> setter, T value) {
        SetPropertyCommand<T> c = new SetPropertyCommand<>(what, getter, setter, value);
        if (!c.isNoOp()) {
            doc.execute(c);
            messages.accept(what);
        }
    }

    /**
     * A unit or pod as typed: numbered from 1 like the generators' names (su01, pod01), stored
     * 0-based in the model (Device.unit()); empty for none.
     */
    static Integer ordinal(String s) {
        if (s.isBlank()) {
            return null;
        }
        try {
            int v = Integer.parseInt(s.trim());
            if (v < 1) {
                throw new IllegalArgumentException("numbered from 1 as in su01 (or empty for none)");
            }
            return v - 1;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a whole number: " + s);
        }
    }

    /** The 0-based model index as shown: numbered from 1 (unit 0 is "1", the unit of su01-…). */
    static String ordinalText(Integer index) {
        return index == null ? "" : String.valueOf(index + 1);
    }

    private static String qosName(Fabric f, String s) {
        String v = FabricProperty.nullIfBlank(s);
        if (v != null && f.qosProfile(v) == null) {
            throw new IllegalArgumentException("no QoS profile named " + v + "; have " + f.qosProfiles().keySet());
        }
        return v;
    }

    private static String portSummary(Device d) {
        Map<Integer, Integer> bySpeed = new TreeMap<>();
        for (Port p : d.ports()) {
            bySpeed.merge(p.speedGbps(), 1, Integer::sum);
        }
        List<String> parts = new ArrayList<>();
        bySpeed.forEach((speed, n) -> parts.add(n + " × " + FabricPainter.speedText(speed)));
        return parts.isEmpty() ? "none" : String.join(" + ", parts);
    }
}
