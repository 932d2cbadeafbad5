package io.fabriclab.counters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import io.fabriclab.io.InputException;
import io.fabriclab.io.InputProblem;
import io.fabriclab.io.JsonInput;
import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Port;

/**
 * How the names a device uses map onto the drawing's: a JSON file (read by the strict reader)
 * <pre>
 * {"schemaVersion": 1,
 *  "devices": {"sonic-leaf-01": "leaf1"},
 *  "ports":   {"leaf1:Ethernet0": "leaf1:eth1", "server01:mlx5_0/1": "server01:nic0"}}
 * </pre>
 * {@code devices} renames the hosts a source names; {@code ports} maps {@code device:interface} (the
 * source's device name or its renamed one) to a port of the fabric. Every target must exist in the
 * fabric: a map naming a port the fabric lacks is refused with each such entry listed. Without an
 * entry a counter maps by name ({@code leaf1} + {@code eth1} is {@code leaf1:eth1}); a server with
 * one linked port takes counters that name no interface or one it does not have (ethtool output,
 * {@code mlx5_0/1}). What maps nowhere is listed, never dropped silently.
 */
public final class PortMap {
    public static final PortMap NONE = new PortMap(Map.of(), Map.of());

    private final Map<String, String> devices;
    private final Map<String, String> ports;

    public PortMap(Map<String, String> devices, Map<String, String> ports) {
        this.devices = Map.copyOf(devices);
        this.ports = Map.copyOf(ports);
    }

    public Map<String, String> devices() {
        return devices;
    }

    public Map<String, String> ports() {
        return ports;
    }

    /** Reads and checks a mapping file against {@code fabric}; every problem listed. */
    public static PortMap read(Path file, Fabric fabric) throws InputException {
        String source = file.toString();
        JsonNode root = JsonInput.readTree(file, "a port map");
        List<InputProblem> problems = new ArrayList<>();
        if (!root.isObject()) {
            throw InputException.of(source, "$", JsonInput.kind(root), "a port map is a JSON object",
                    "{\"schemaVersion\": 1, \"devices\": {...}, \"ports\": {...}}");
        }
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!List.of("schemaVersion", "devices", "ports", "description").contains(k)) {
                problems.add(InputProblem.notAllowed(source, "$." + k, k, "schemaVersion, description, devices, ports"));
            }
        }
        JsonNode v = root.get("schemaVersion");
        if (v == null || !v.isInt() || v.asInt() != 1) {
            problems.add(new InputProblem(source, "$.schemaVersion", v == null ? null : v.toString(),
                    "schemaVersion must be 1", "1"));
        }
        Map<String, String> devices = strings(root.get("devices"), "$.devices", source, problems);
        Map<String, String> ports = strings(root.get("ports"), "$.ports", source, problems);
        devices.forEach((from, to) -> {
            if (fabric.device(to) == null) {
                problems.add(new InputProblem(source, "$.devices[\"" + from + "\"]", to,
                        "names device " + to + ", which " + fabric.name() + " does not have", example(fabric, false)));
            }
        });
        ports.forEach((from, to) -> {
            if (!from.contains(":")) {
                problems.add(new InputProblem(source, "$.ports[\"" + from + "\"]", from,
                        "a key is DEVICE:INTERFACE as the counters name them", "e.g. leaf1:Ethernet0"));
            }
            if (fabric.port(to) == null) {
                problems.add(new InputProblem(source, "$.ports[\"" + from + "\"]", to,
                        "names port " + to + ", which " + fabric.name() + " does not have", example(fabric, true)));
            }
        });
        if (!problems.isEmpty()) {
            throw new InputException(problems);
        }
        return new PortMap(devices, ports);
    }

    private static String example(Fabric fabric, boolean port) {
        for (Device d : fabric.devices()) {
            if (!port) {
                return "a device id of the fabric, e.g. " + d.id();
            }
            if (!d.ports().isEmpty()) {
                return "a port of the fabric as DEVICE:PORT, e.g. " + d.ports().get(0).ref();
            }
        }
        return null;
    }

    private static Map<String, String> strings(JsonNode n, String path, String source, List<InputProblem> problems) {
        Map<String, String> out = new LinkedHashMap<>();
        if (n == null) {
            return out;
        }
        if (!n.isObject()) {
            problems.add(new InputProblem(source, path, JsonInput.kind(n), path + " must be an object of names", null));
            return out;
        }
        n.fields().forEachRemaining(e -> {
            if (e.getValue().isTextual()) {
                out.put(e.getKey(), e.getValue().asText());
            } else {
                problems.add(new InputProblem(source, path + "[\"" + e.getKey() + "\"]", JsonInput.kind(e.getValue()),
                        "must be a name (a string)", null));
            }
        });
        return out;
    }

    /** Where a counter lands: the fabric port, or null with the reason in {@code why[0]}. */
    public Port resolve(Fabric fabric, String device, String iface, String[] why) {
        String exact = ports.get(device + ":" + iface);
        if (exact != null) {
            return fabric.port(exact);
        }
        String dev = devices.getOrDefault(device, device);
        String renamed = ports.get(dev + ":" + iface);
        if (renamed != null) {
            return fabric.port(renamed);
        }
        Device d = fabric.device(dev);
        if (d == null) {
            why[0] = dev.isEmpty() ? "the counters name no device (give DEVICE=FILE)" : "no device " + dev + " in the fabric";
            return null;
        }
        Port p = d.port(iface);
        if (p != null) {
            return p;
        }
        if (d.role() == DeviceRole.SERVER) {
            List<Port> linked = d.ports().stream().filter(x -> fabric.linkAt(x) != null).toList();
            if (linked.size() == 1) {
                return linked.get(0);
            }
        }
        why[0] = iface.isEmpty() ? "the counters name no interface on " + dev + " (give DEVICE:IFACE=FILE or a port map)"
                : dev + " has no port " + iface + " (add it to the port map)";
        return null;
    }
}
