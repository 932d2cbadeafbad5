package io.fabriclab.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.fasterxml.jackson.dataformat.yaml.util.StringQuotingChecker;

import io.fabriclab.model.CableType;
import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;
import io.fabriclab.model.Link;
import io.fabriclab.model.LinkState;
import io.fabriclab.model.Port;
import io.fabriclab.model.Units;

/**
 * containerlab topology files ({@code *.clab.yml}) in and out, so a fabric drawn here can be
 * brought up as a lab and a lab can be analysed here. What containerlab has no field for (roles,
 * units, rails, port speeds, cable lengths) travels in {@code fabriclab-*} node and link labels;
 * what FabricLab has no field for (kind, image, startup-config, binds, ...) travels in
 * {@code clab-*} device labels, so nothing is dropped on a round trip. Positions go to the
 * TopoViewer side file {@code <topo>.annotations.json}. See docs/format.md for the mapping.
 */
public final class ContainerlabYaml {
    /** Node label naming the FabricLab role explicitly; wins over every other hint. */
    public static final String ROLE_LABEL = "fabriclab-role";
    /** Node label listing every port with speed and NIC, e.g. "eth1=400G/nic0,eth2=400G". */
    public static final String PORTS_LABEL = "fabriclab-ports";
    /** Label TopoViewer uses to pick an icon (spine, leaf, super-spine, server, ...). */
    public static final String TOPOVIEWER_ROLE_LABEL = "topoViewer-role";
    /** Label containerlab's graph command uses for the vertical level of a node (1 = top). */
    public static final String GRAPH_LEVEL_LABEL = "graph-level";
    /** Device labels with this prefix hold containerlab node attributes (clab-kind, clab-image, ...). */
    public static final String CLAB_PREFIX = "clab-";

    /** Label holding a server's scale-up domain as the fabric file's one-line scaleUp JSON. */
    public static final String SCALE_UP_LABEL = "fabriclab-scaleup";

    /** The fabriclab- node labels import understands. */
    static final List<String> NODE_LABELS = List.of(ROLE_LABEL, "fabriclab-unit", "fabriclab-rail", "fabriclab-pod",
            "fabriclab-gpus", SCALE_UP_LABEL, "fabriclab-model", PORTS_LABEL);

    /** The fabriclab- link labels import understands. */
    static final List<String> LINK_LABELS = List.of("fabriclab-id", "fabriclab-speed-gbps", "fabriclab-cable-length-m",
            "fabriclab-cable-type", "fabriclab-state");

    /** Speed of a port created from an endpoint when neither the node nor the link says. */
    public static final int DEFAULT_PORT_SPEED_GBPS = 400;
    /** Length of a link whose labels do not say; the cable type then follows from it (DAC). */
    public static final double DEFAULT_CABLE_LENGTH_M = 1.0;
    static final String DEFAULT_SWITCH_KIND = "sonic-vs";
    static final String DEFAULT_SWITCH_IMAGE = "docker-sonic-vs:latest";
    static final String DEFAULT_SERVER_KIND = "linux";
    static final String DEFAULT_SERVER_IMAGE = "alpine:latest";

    /** Kinds that are end hosts rather than network operating systems. */
    private static final Set<String> SERVER_KINDS = Set.of("linux", "host", "k8s-kind", "generic_vm");

    private static final List<String> LINK_FIELDS = List.of("type", "endpoints", "labels", "vars", "mtu");

    private static final ObjectMapper JSON_READER = JsonInput.jsonMapper();
    /**
     * Quotes every string a YAML 1.1 reader could take for a number (0x1, 0o7, 1_000, .5, +1),
     * beyond Jackson's own check, so a string label or attribute never comes back as a number.
     */
    private static final class NumberSafeQuoting extends StringQuotingChecker.Default {
        private static final long serialVersionUID = 1L;

        @Override
        public boolean needToQuoteValue(String value) {
            if (super.needToQuoteValue(value)) {
                return true;
            }
            if (value.isEmpty()) {
                return true;
            }
            char c = value.charAt(0);
            return Character.isDigit(c) || c == '+' || c == '-' || c == '.';
        }

        @Override
        public boolean needToQuoteName(String name) {
            return super.needToQuoteName(name) || (!name.isEmpty() && needToQuoteValue(name));
        }
    }

    private static final YAMLMapper YAML_WRITER = YAMLMapper.builder(YAMLFactory.builder()
                    .stringQuotingChecker(new NumberSafeQuoting()).build())
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            // containerlab labels are strings: "2", not 2
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
            .disable(YAMLGenerator.Feature.SPLIT_LINES)
            .build();
    private static final ObjectMapper JSON_WRITER = JsonInput.writingMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private ContainerlabYaml() {
    }

    /** The TopoViewer side file of a topology: {@code lab.clab.yml} -> {@code lab.clab.yml.annotations.json}. */
    public static Path annotationsPath(Path topology) {
        return topology.resolveSibling(topology.getFileName() + ".annotations.json");
    }

    /** Reads a topology and, when it exists, its annotations side file (positions). */
    public static Fabric read(Path topology) throws InputException {
        Problems problems = new Problems(topology.toString());
        String text = JsonInput.readText(topology, problems);
        problems.throwIfAny();
        Path ann = annotationsPath(topology);
        String annText = null;
        if (Files.isRegularFile(ann)) {
            Problems annProblems = new Problems(ann.toString());
            annText = JsonInput.readText(ann, annProblems);
            annProblems.throwIfAny();
        }
        return read(text, topology.toString(), annText, ann.toString());
    }

    /** Reads topology YAML text without annotations. */
    public static Fabric read(String yaml, String sourceName) throws InputException {
        return read(yaml, sourceName, null, null);
    }

    /**
     * Reads topology YAML text and optional TopoViewer annotations JSON text.
     *
     * @param annotationsJson null when there is no side file
     */
    public static Fabric read(String yaml, String sourceName, String annotationsJson, String annotationsName)
            throws InputException {
        Problems problems = new Problems(sourceName);
        JsonNode root = YamlTree.parse(yaml, problems);
        Fabric f = root == null ? null : new Importer(problems).read(root, fallbackName(sourceName));
        problems.throwIfAny();
        if (annotationsJson != null) {
            Problems ap = new Problems(annotationsName == null ? sourceName + ".annotations.json" : annotationsName);
            JsonNode ann = JsonInput.parse(JSON_READER, annotationsJson, ap, "JSON");
            if (ann != null) {
                readAnnotations(ann, f, ap);
            }
            ap.throwIfAny();
        }
        return f;
    }

    private static String fallbackName(String sourceName) {
        // Plain string work: a source name need not be a valid path on this platform.
        String n = sourceName.substring(Math.max(sourceName.lastIndexOf('/'), sourceName.lastIndexOf('\\')) + 1);
        if (n.isEmpty()) {
            n = "lab";
        }
        for (String ext : List.of(".clab.yml", ".clab.yaml", ".yml", ".yaml")) {
            if (n.endsWith(ext)) {
                return n.substring(0, n.length() - ext.length());
            }
        }
        return n;
    }

    /** The topology YAML of a fabric. */
    public static String write(Fabric f) {
        ObjectNode root = NODES.objectNode();
        root.put("name", f.name());
        ObjectNode topo = root.putObject("topology");
        ObjectNode nodes = topo.putObject("nodes");
        for (Device d : f.devices()) {
            nodes.set(d.id(), nodeTree(d));
        }
        ArrayNode links = topo.putArray("links");
        for (Link l : f.links()) {
            ObjectNode lo = links.addObject();
            ArrayNode ends = lo.putArray("endpoints");
            ends.add(l.a().ref());
            ends.add(l.b().ref());
            ObjectNode labels = lo.putObject("labels");
            if (!l.id().equals(Link.idFor(l.a(), l.b()))) {
                labels.put("fabriclab-id", l.id());
            }
            labels.put("fabriclab-speed-gbps", Integer.toString(l.speedGbps()));
            labels.put("fabriclab-cable-length-m", number(l.cableLengthM()));
            labels.put("fabriclab-cable-type", l.cableType().jsonName());
            labels.put("fabriclab-state", l.state().jsonName());
        }
        try {
            return YAML_WRITER.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The TopoViewer annotations JSON for the fabric's positions, or null when it has none. */
    public static String writeAnnotations(Fabric f) {
        return writeAnnotations(f, null);
    }

    /** As {@link #writeAnnotations(Fabric)}, keeping every other field of an existing annotations document. */
    static String writeAnnotations(Fabric f, JsonNode existing) {
        if (f.layout().positions().isEmpty()) {
            return null;
        }
        ObjectNode root = existing != null && existing.isObject() ? ((ObjectNode) existing).deepCopy() : NODES.objectNode();
        ArrayNode anns = NODES.arrayNode();
        for (Map.Entry<String, Layout.Point> e : f.layout().positions().entrySet()) {
            ObjectNode a = anns.addObject();
            a.put("id", e.getKey());
            ObjectNode pos = a.putObject("position");
            pos.put("x", e.getValue().x());
            pos.put("y", e.getValue().y());
        }
        root.set("nodeAnnotations", anns);
        try {
            return JSON_WRITER.writer(FabricJson.prettyPrinter()).writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes the topology and, when the fabric has positions, its annotations side file (other
     * annotations already in that file, such as free text, are kept). Both files are written to
     * temporary files first and then renamed, so they are replaced together.
     */
    public static void save(Fabric f, Path topology) throws IOException {
        byte[] topo = write(f).getBytes(StandardCharsets.UTF_8);
        Path annPath = annotationsPath(topology);
        // Read before anything is written: a side file that cannot be merged stops the export.
        JsonNode existing = existingAnnotations(annPath);
        String ann = writeAnnotations(f, existing);
        // Both files are written before either replaces its old self: the pair never ends half-new
        // because a write failed (AtomicFiles#writeAll).
        java.util.Map<Path, AtomicFiles.Content> pair = new java.util.LinkedHashMap<>();
        pair.put(topology, out -> out.write(topo));
        if (ann != null) {
            byte[] annBytes = ann.getBytes(StandardCharsets.UTF_8);
            pair.put(annPath, out -> out.write(annBytes));
        }
        AtomicFiles.writeAll(pair);
    }

    /**
     * The annotations side file already next to a topology, read as {@link #read(Path)} reads it
     * (size limit, UTF-8, byte-order mark dropped, strict JSON); null when there is none. The
     * user's other annotations (free text, groups) are merged into the new file, so a side file
     * that cannot be read is an error: replacing it would lose them.
     */
    static JsonNode existingAnnotations(Path annPath) throws IOException {
        if (!Files.exists(annPath)) {
            return null;
        }
        Problems problems = new Problems(annPath.toString());
        String text = JsonInput.readText(annPath, problems);
        JsonNode existing = text == null ? null : JsonInput.parse(JSON_READER, text, problems, "JSON");
        if (existing != null && !existing.isObject()) {
            problems.add("$", JsonObjectReader.text(existing), "must be a JSON object", "{ \"nodeAnnotations\": [...] }");
        }
        if (!problems.isEmpty()) {
            throw new IOException("cannot merge the positions into the existing annotations file, which holds the "
                    + "user's annotations; nothing was written. Fix or move it and export again:\n"
                    + new InputException(problems.list()).getMessage());
        }
        return existing;
    }

    private static ObjectNode nodeTree(Device d) {
        ObjectNode n = NODES.objectNode();
        boolean server = d.role() == DeviceRole.SERVER;
        String kind = d.labels().getOrDefault(CLAB_PREFIX + "kind", server ? DEFAULT_SERVER_KIND : DEFAULT_SWITCH_KIND);
        n.put("kind", kind);
        String image = d.labels().get(CLAB_PREFIX + "image");
        if (image == null && kind.equals(DEFAULT_SWITCH_KIND)) {
            image = DEFAULT_SWITCH_IMAGE;
        } else if (image == null && kind.equals(DEFAULT_SERVER_KIND)) {
            image = DEFAULT_SERVER_IMAGE;
        }
        if (image != null) {
            n.put("image", image);
        }
        for (Map.Entry<String, String> e : new TreeMap<>(d.labels()).entrySet()) {
            String key = e.getKey();
            if (key.startsWith(CLAB_PREFIX) && !key.equals(CLAB_PREFIX + "kind") && !key.equals(CLAB_PREFIX + "image")) {
                n.set(key.substring(CLAB_PREFIX.length()), attributeValue(e.getValue()));
            }
        }
        ObjectNode labels = n.putObject("labels");
        labels.put(ROLE_LABEL, d.role().jsonName());
        labels.put(TOPOVIEWER_ROLE_LABEL, topoViewerRole(d.role()));
        labels.put(GRAPH_LEVEL_LABEL, Integer.toString(DeviceRole.CORE.tier() - d.role().tier() + 1));
        if (d.unit() != null) {
            labels.put("fabriclab-unit", d.unit().toString());
        }
        if (d.rail() != null) {
            labels.put("fabriclab-rail", d.rail().toString());
        }
        if (d.pod() != null) {
            labels.put("fabriclab-pod", d.pod().toString());
        }
        if (d.gpusOverride() != null) {
            labels.put("fabriclab-gpus", d.gpusOverride().toString());
        }
        if (d.scaleUp() != null) {
            labels.put(SCALE_UP_LABEL, FabricJson.scaleUpText(d.scaleUp()));
        }
        if (d.model() != null) {
            labels.put("fabriclab-model", d.model());
        }
        if (d.portCount() > 0) {
            labels.put(PORTS_LABEL, portsLabel(d));
        }
        for (Map.Entry<String, String> e : new TreeMap<>(d.labels()).entrySet()) {
            // The labels derived from the device above win over user labels of the same name.
            if (!e.getKey().startsWith(CLAB_PREFIX) && !labels.has(e.getKey())) {
                labels.put(e.getKey(), e.getValue());
            }
        }
        return n;
    }

    static String portsLabel(Device d) {
        StringBuilder sb = new StringBuilder();
        for (Port p : d.ports()) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(escapePortName(p.name())).append('=').append(p.speedGbps()).append('G');
            if (p.nic() != null) {
                sb.append("/nic").append(p.nic());
            }
        }
        return sb.toString();
    }

    /** Port names may hold ',' or '=' (the label's separators): those and '%' are percent-encoded. */
    static String escapePortName(String name) {
        return name.replace("%", "%25").replace(",", "%2C").replace("=", "%3D");
    }

    static String unescapePortName(String text) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            String code = i + 3 <= text.length() ? text.substring(i, i + 3) : "";
            switch (code) {
                case "%25" -> sb.append('%');
                case "%2C" -> sb.append(',');
                case "%3D" -> sb.append('=');
                default -> {
                    sb.append(text.charAt(i));
                    continue;
                }
            }
            i += 2;
        }
        return sb.toString();
    }

    private static String topoViewerRole(DeviceRole r) {
        return switch (r) {
            case SERVER -> "server";
            case LEAF, RAIL -> "leaf";
            case SPINE -> "spine";
            case CORE -> "super-spine";
        };
    }

    /** A stored clab attribute back to YAML: structures and numbers/booleans were stored as JSON text. */
    private static JsonNode attributeValue(String stored) {
        String t = stored.strip();
        if (t.startsWith("{") || t.startsWith("[") || t.equals("true") || t.equals("false")
                || t.matches("-?\\d{1,18}(\\.\\d{1,17})?([eE][+-]?\\d{1,3})?")) {
            try {
                JsonNode n = JSON_READER.readTree(t);
                if (n != null && !n.isMissingNode()) {
                    return n;
                }
            } catch (IOException | RuntimeException e) {
                // not JSON after all: a plain string
            }
        }
        return NODES.textNode(stored);
    }

    private static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    // ----- annotations ------------------------------------------------------------------------

    private static void readAnnotations(JsonNode root, Fabric f, Problems problems) {
        if (!root.isObject()) {
            problems.add("$", JsonObjectReader.text(root), "must be a JSON object", "{ \"nodeAnnotations\": [...] }");
            return;
        }
        JsonNode anns = root.get("nodeAnnotations");
        if (anns == null || anns.isNull()) {
            return;
        }
        if (!anns.isArray()) {
            problems.add("$.nodeAnnotations", JsonObjectReader.text(anns), "must be an array",
                    "[ { \"id\": \"leaf1\", \"position\": { \"x\": 0, \"y\": 0 } } ]");
            return;
        }
        Layout layout = f.layout();
        for (int i = 0; i < anns.size(); i++) {
            String p = JsonPaths.index("$.nodeAnnotations", i);
            JsonNode a = anns.get(i);
            JsonNode id = a.get("id");
            JsonNode pos = a.get("position");
            if (id == null || !id.isTextual()) {
                problems.add(JsonPaths.field(p, "id"), JsonObjectReader.text(id), "a node annotation needs a string id",
                        "a node name of the topology");
                continue;
            }
            if (pos == null || pos.isNull()) {
                continue; // TopoViewer writes annotations without a position (e.g. only an icon)
            }
            JsonNode x = pos.get("x");
            JsonNode y = pos.get("y");
            if (x == null || y == null || !x.isNumber() || !y.isNumber() || !Double.isFinite(x.doubleValue())
                    || !Double.isFinite(y.doubleValue())) {
                problems.add(JsonPaths.field(p, "position"), JsonObjectReader.text(pos),
                        "a position needs finite numbers x and y", "{ \"x\": 120, \"y\": 40 }");
                continue;
            }
            // Positions of nodes no longer in the topology are stale, not wrong: they are skipped.
            if (f.device(id.textValue()) != null) {
                layout.setPosition(id.textValue(), x.doubleValue(), y.doubleValue());
            }
        }
    }

    // ----- import -----------------------------------------------------------------------------

    /** Reads one topology tree, collecting problems. */
    private static final class Importer {
        private final Problems problems;

        Importer(Problems problems) {
            this.problems = problems;
        }

        Fabric read(JsonNode root, String fallbackName) {
            if (!root.isObject()) {
                problems.add("$", JsonObjectReader.text(root), "a containerlab topology must be a YAML mapping",
                        "name: ..., topology: { nodes: ..., links: ... }");
                return null;
            }
            JsonNode nameNode = root.get("name");
            String name = fallbackName;
            if (nameNode != null && !nameNode.isNull()) {
                if (nameNode.isValueNode() && !nameNode.asText().isBlank()) {
                    name = nameNode.asText();
                } else {
                    problems.add("$.name", JsonObjectReader.text(nameNode), "lab name must be a non-empty string",
                            "a string");
                }
            }
            Fabric f = new Fabric(name);
            JsonNode topo = root.get("topology");
            if (topo == null || !topo.isObject()) {
                problems.add("$.topology", JsonObjectReader.text(topo), topo == null
                        ? "required mapping \"topology\" is missing" : "must be a mapping",
                        "topology: { nodes: ..., links: ... }");
                return f;
            }
            JsonNode defaults = mapping(topo.get("defaults"), "$.topology.defaults", "defaults: { kind: ..., image: ... }");
            JsonNode kinds = mapping(topo.get("kinds"), "$.topology.kinds", "kinds: { KIND: { image: ... } }");
            for (var k = kinds.fields(); k.hasNext();) {
                var e = k.next();
                if (!e.getValue().isNull() && !e.getValue().isObject()) {
                    problems.add(JsonPaths.field("$.topology.kinds", e.getKey()), JsonObjectReader.text(e.getValue()),
                            "a kind's settings must be a mapping", "KIND: { image: ... }");
                }
            }
            JsonNode nodes = topo.get("nodes");
            if (nodes == null || nodes.isNull()) {
                problems.add("$.topology.nodes", null, "required mapping \"nodes\" is missing",
                        "nodes: { name: { kind: ..., image: ... } }");
                return f;
            }
            if (!nodes.isObject()) {
                problems.add("$.topology.nodes", JsonObjectReader.text(nodes), "must be a mapping of node name to node",
                        "nodes: { name: { kind: ..., image: ... } }");
                return f;
            }
            if (nodes.size() > FabricJsonReader.MAX_DEVICES) {
                problems.add("$.topology.nodes", nodes.size() + " nodes", "too many nodes",
                        "at most " + FabricJsonReader.MAX_DEVICES);
                return f;
            }
            var it = nodes.fields();
            while (it.hasNext()) {
                var e = it.next();
                readNode(f, e.getKey(), e.getValue(), JsonPaths.field("$.topology.nodes", e.getKey()), defaults, kinds);
            }
            JsonNode links = topo.get("links");
            if (links != null && !links.isNull()) {
                if (!links.isArray()) {
                    problems.add("$.topology.links", JsonObjectReader.text(links), "must be a list of links",
                            "- endpoints: [\"leaf1:eth1\", \"spine1:eth1\"]");
                } else if (links.size() > FabricJsonReader.MAX_LINKS) {
                    problems.add("$.topology.links", links.size() + " links", "too many links",
                            "at most " + FabricJsonReader.MAX_LINKS);
                } else {
                    Map<Port, String> usedAt = new IdentityHashMap<>();
                    Map<String, String> idAt = new HashMap<>();
                    for (int i = 0; i < links.size(); i++) {
                        readLink(f, links.get(i), JsonPaths.index("$.topology.links", i), usedAt, idAt);
                    }
                }
            }
            return f;
        }

        /**
         * An optional mapping (absent or null: empty); anything else is a problem, never silently
         * read as empty (a list under "kinds" would otherwise drop every kind's image).
         */
        private JsonNode mapping(JsonNode n, String path, String allowed) {
            if (n == null || n.isNull()) {
                return NODES.objectNode();
            }
            if (!n.isObject()) {
                problems.add(path, JsonObjectReader.text(n), "must be a mapping", allowed);
                return NODES.objectNode();
            }
            return n;
        }

        private void readNode(Fabric f, String name, JsonNode node, String path, JsonNode defaults, JsonNode kinds) {
            if (!FabricJsonReader.validId(name)) {
                problems.add(path, FabricJsonReader.quote(name), "bad node name", FabricJsonReader.ID_RULE);
                return;
            }
            if (node == null || node.isNull()) {
                node = NODES.objectNode(); // "leaf1:" with nothing under it takes every default
            }
            if (!node.isObject()) {
                problems.add(path, JsonObjectReader.text(node), "a node must be a mapping", "{ kind: ..., image: ... }");
                return;
            }
            String kind = text(node.get("kind"), path + ".kind");
            if (kind == null) {
                kind = text(defaults.get("kind"), "$.topology.defaults.kind");
            }
            String image = text(node.get("image"), path + ".image");
            if (image == null && kind != null) {
                image = text(kinds.path(kind).get("image"), "$.topology.kinds." + kind + ".image");
            }
            if (image == null) {
                image = text(defaults.get("image"), "$.topology.defaults.image");
            }
            Map<String, String> labels = new LinkedHashMap<>();
            JsonNode labelsNode = node.get("labels");
            if (labelsNode != null && !labelsNode.isNull()) {
                if (!labelsNode.isObject()) {
                    problems.add(path + ".labels", JsonObjectReader.text(labelsNode), "labels must be a mapping",
                            "{ key: value }");
                } else {
                    labelsNode.fields().forEachRemaining(e -> {
                        if (e.getKey().isEmpty()) {
                            problems.add(JsonPaths.field(path + ".labels", ""), null, "label name is empty",
                                    "a non-empty string");
                        } else if (e.getKey().startsWith(CLAB_PREFIX)) {
                            problems.add(JsonPaths.field(path + ".labels", e.getKey()), null, "node labels starting with \""
                                    + CLAB_PREFIX + "\" are reserved (FabricLab keeps containerlab node fields under it)",
                                    "any other label name");
                        } else if (e.getValue().isValueNode() && !e.getValue().isNull()) {
                            labels.put(e.getKey(), e.getValue().asText());
                        } else {
                            problems.add(JsonPaths.field(path + ".labels", e.getKey()), JsonObjectReader.text(e.getValue()),
                                    "a label value must be a scalar", "a string");
                        }
                    });
                }
            }
            DeviceRole role = role(name, kind, labels, path);
            Device d = new Device(name, role);
            if (kind != null) {
                d.labels().put(CLAB_PREFIX + "kind", kind);
            }
            if (image != null) {
                d.labels().put(CLAB_PREFIX + "image", image);
            }
            var fields = node.fields();
            while (fields.hasNext()) {
                var e = fields.next();
                String key = e.getKey();
                if (key.equals("kind") || key.equals("image") || key.equals("labels")) {
                    continue;
                }
                if (key.isEmpty()) {
                    problems.add(JsonPaths.field(path, ""), null, "empty node attribute name", "a containerlab node field");
                    continue;
                }
                JsonNode v = e.getValue();
                d.labels().put(CLAB_PREFIX + key, v.isTextual() ? v.textValue() : v.toString());
            }
            d.setUnit(intLabel(labels, "fabriclab-unit", path, 0, FabricJsonReader.MAX_DEVICES));
            d.setRail(intLabel(labels, "fabriclab-rail", path, 0, FabricJsonReader.MAX_DEVICES));
            d.setPod(intLabel(labels, "fabriclab-pod", path, 0, FabricJsonReader.MAX_DEVICES));
            Integer gpus = intLabel(labels, "fabriclab-gpus", path, 0, 1024);
            if (gpus != null && role == DeviceRole.SERVER) {
                d.setGpus(gpus);
            }
            if (labels.containsKey(SCALE_UP_LABEL) && role == DeviceRole.SERVER) {
                d.setScaleUp(FabricJsonReader.readScaleUpText(labels.get(SCALE_UP_LABEL),
                        JsonPaths.field(path + ".labels", SCALE_UP_LABEL), problems));
            }
            d.setModel(labels.get("fabriclab-model"));
            String ports = labels.get(PORTS_LABEL);
            if (ports != null) {
                readPortsLabel(d, ports, JsonPaths.field(path + ".labels", PORTS_LABEL));
            }
            for (Map.Entry<String, String> e : labels.entrySet()) {
                String k = e.getKey();
                if (k.startsWith("fabriclab-") && !NODE_LABELS.contains(k)) {
                    problems.add(JsonPaths.field(path + ".labels", k), null, "unknown FabricLab label \""
                            + InputProblem.shorten(k) + "\"", String.join(", ", NODE_LABELS));
                } else if (!k.startsWith("fabriclab-") && !k.equals(TOPOVIEWER_ROLE_LABEL) && !k.equals(GRAPH_LEVEL_LABEL)) {
                    d.labels().put(k, e.getValue());
                }
            }
            if (d.labels().size() > FabricJsonReader.MAX_LABELS_PER_DEVICE) {
                problems.add(path, d.labels().size() + " labels and fields", "too many labels and node fields",
                        "at most " + FabricJsonReader.MAX_LABELS_PER_DEVICE + " together");
            }
            f.addDevice(d);
        }

        private DeviceRole role(String name, String kind, Map<String, String> labels, String path) {
            String explicit = labels.get(ROLE_LABEL);
            if (explicit != null) {
                DeviceRole r = DeviceRole.fromJsonName(explicit).orElse(null);
                if (r == null) {
                    problems.notAllowed(JsonPaths.field(path + ".labels", ROLE_LABEL), FabricJsonReader.quote(explicit),
                            DeviceRole.allowedNames());
                    return DeviceRole.LEAF;
                }
                return r;
            }
            String tv = labels.getOrDefault(TOPOVIEWER_ROLE_LABEL, "").toLowerCase(Locale.ROOT);
            switch (tv) {
                case "spine":
                    return DeviceRole.SPINE;
                case "leaf":
                    return DeviceRole.LEAF;
                case "super-spine", "superspine":
                    return DeviceRole.CORE;
                case "server", "host", "client":
                    return DeviceRole.SERVER;
                default:
                    break;
            }
            if (kind != null && SERVER_KINDS.contains(kind)) {
                return DeviceRole.SERVER;
            }
            String n = name.toLowerCase(Locale.ROOT);
            if (n.contains("superspine") || n.contains("super-spine") || n.contains("core")) {
                return DeviceRole.CORE;
            }
            if (n.contains("spine")) {
                return DeviceRole.SPINE;
            }
            if (n.contains("rail")) {
                return DeviceRole.RAIL;
            }
            return DeviceRole.LEAF;
        }

        private Integer intLabel(Map<String, String> labels, String key, String path, int min, int max) {
            String v = labels.get(key);
            if (v == null) {
                return null;
            }
            try {
                int i = Integer.parseInt(v.strip());
                if (i >= min && i <= max) {
                    return i;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            problems.notAllowed(JsonPaths.field(path + ".labels", key), FabricJsonReader.quote(v),
                    "a whole number from " + min + " to " + max);
            return null;
        }

        private void readPortsLabel(Device d, String value, String path) {
            String allowed = "comma-separated name=SPEEDG or name=SPEEDG/nicN, e.g. \"eth1=400G,eth2=400G/nic1\"";
            for (String item : value.split(",")) {
                String t = item.strip();
                if (t.isEmpty()) {
                    continue;
                }
                int eq = t.indexOf('=');
                if (eq <= 0) {
                    problems.add(path, FabricJsonReader.quote(t), "bad port entry", allowed);
                    continue;
                }
                String name = unescapePortName(t.substring(0, eq));
                String rest = t.substring(eq + 1);
                Integer nic = null;
                int slash = rest.indexOf('/');
                if (slash >= 0) {
                    String nicText = rest.substring(slash + 1);
                    rest = rest.substring(0, slash);
                    if (nicText.matches("nic\\d{1,4}")) {
                        nic = Integer.parseInt(nicText.substring(3));
                    } else {
                        problems.add(path, FabricJsonReader.quote(t), "bad NIC in port entry", allowed);
                        continue;
                    }
                }
                int speed = Units.parseSpeedGbps(rest);
                if (!Units.isAllowedSpeed(speed)) {
                    problems.add(path, FabricJsonReader.quote(t), "port speed " + InputProblem.shorten(rest)
                            + " is not allowed", Units.allowedSpeeds());
                    continue;
                }
                if (!FabricJsonReader.validId(name) || d.port(name) != null) {
                    problems.add(path, FabricJsonReader.quote(t), d.port(name) != null ? "port " + name
                            + " is listed twice" : "bad port name", FabricJsonReader.ID_RULE);
                    continue;
                }
                if (d.portCount() >= FabricJsonReader.MAX_PORTS_PER_DEVICE) {
                    problems.add(path, null, "too many ports on one device", "at most "
                            + FabricJsonReader.MAX_PORTS_PER_DEVICE);
                    return;
                }
                d.addPort(name, speed, d.role() == DeviceRole.SERVER ? nic : null);
            }
        }

        private void readLink(Fabric f, JsonNode link, String path, Map<Port, String> usedAt, Map<String, String> idAt) {
            String briefForm = "endpoints: [\"node1:eth1\", \"node2:eth1\"]";
            if (link == null || !link.isObject()) {
                problems.add(path, JsonObjectReader.text(link), "a link must be a mapping", briefForm);
                return;
            }
            var names = link.fieldNames();
            while (names.hasNext()) {
                String n = names.next();
                if (!LINK_FIELDS.contains(n)) {
                    problems.add(JsonPaths.field(path, n), null, "unknown link field \"" + InputProblem.shorten(n) + "\"",
                            String.join(", ", LINK_FIELDS));
                }
            }
            JsonNode ends = link.get("endpoints");
            String ePath = path + ".endpoints";
            if (ends == null || ends.isNull()) {
                problems.add(ePath, null, "link has no endpoints", briefForm);
                return;
            }
            if (!ends.isArray() || ends.size() != 2) {
                problems.add(ePath, JsonObjectReader.text(ends), "a link needs exactly two endpoints", briefForm);
                return;
            }
            Map<String, String> labels = new HashMap<>();
            JsonNode ln = link.get("labels");
            if (ln != null && ln.isObject()) {
                ln.fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
            } else if (ln != null && !ln.isNull()) {
                problems.add(path + ".labels", JsonObjectReader.text(ln), "labels must be a mapping", "{ key: value }");
            }
            String lp = path + ".labels";
            for (String k : labels.keySet()) {
                if (k.startsWith("fabriclab-") && !LINK_LABELS.contains(k)) {
                    problems.add(JsonPaths.field(lp, k), null, "unknown FabricLab link label \"" + InputProblem.shorten(k)
                            + "\"", String.join(", ", LINK_LABELS));
                }
            }
            int speed = -1;
            if (labels.containsKey("fabriclab-speed-gbps")) {
                speed = Units.parseSpeedGbps(labels.get("fabriclab-speed-gbps"));
                if (!Units.isAllowedSpeed(speed)) {
                    problems.notAllowed(JsonPaths.field(lp, "fabriclab-speed-gbps"),
                            FabricJsonReader.quote(labels.get("fabriclab-speed-gbps")), Units.allowedSpeeds());
                    speed = DEFAULT_PORT_SPEED_GBPS;
                }
            }
            Port a = endpoint(f, ends.get(0), JsonPaths.index(ePath, 0), speed);
            Port b = endpoint(f, ends.get(1), JsonPaths.index(ePath, 1), speed);
            double length = DEFAULT_CABLE_LENGTH_M;
            if (labels.containsKey("fabriclab-cable-length-m")) {
                String v = labels.get("fabriclab-cable-length-m");
                try {
                    length = Double.parseDouble(v.strip());
                } catch (NumberFormatException e) {
                    length = -1;
                }
                if (!(length >= 0 && length <= FabricJsonReader.MAX_CABLE_M)) {
                    problems.notAllowed(JsonPaths.field(lp, "fabriclab-cable-length-m"), FabricJsonReader.quote(v),
                            "a number of metres from 0 to " + (long) FabricJsonReader.MAX_CABLE_M);
                    length = DEFAULT_CABLE_LENGTH_M;
                }
            }
            CableType type = CableType.forLength(length);
            if (labels.containsKey("fabriclab-cable-type")) {
                String v = labels.get("fabriclab-cable-type");
                type = CableType.fromJsonName(v).orElse(null);
                if (type == null) {
                    problems.notAllowed(JsonPaths.field(lp, "fabriclab-cable-type"), FabricJsonReader.quote(v),
                            CableType.allowedNames());
                    type = CableType.forLength(length);
                }
            }
            LinkState state = LinkState.UP;
            if (labels.containsKey("fabriclab-state")) {
                String v = labels.get("fabriclab-state");
                if (v.equals("down")) {
                    state = LinkState.DOWN;
                } else if (!v.equals("up")) {
                    problems.notAllowed(JsonPaths.field(lp, "fabriclab-state"), FabricJsonReader.quote(v), "up, down");
                }
            }
            if (a == null || b == null) {
                return;
            }
            boolean ok = true;
            if (a.device() == b.device()) {
                problems.add(ePath, a.ref() + ", " + b.ref(), "self-loop: both endpoints are on node " + a.device().id()
                        + " (FabricLab fabrics have no self-loops)", "endpoints on two different nodes");
                ok = false;
            }
            for (int i = 0; i < 2; i++) {
                Port p = i == 0 ? a : b;
                String first = usedAt.get(p);
                if (first != null) {
                    problems.add(JsonPaths.index(ePath, i), FabricJsonReader.quote(p.ref()), "interface " + p.ref()
                            + " is already used by the link at " + first, "an interface no other link uses");
                    ok = false;
                }
            }
            String id = labels.getOrDefault("fabriclab-id", Link.idFor(a, b));
            if (!FabricJsonReader.validLinkId(id)) {
                problems.add(JsonPaths.field(lp, "fabriclab-id"), FabricJsonReader.quote(id), "bad link id",
                        FabricJsonReader.LINK_ID_RULE);
                ok = false;
            } else if (idAt.containsKey(id)) {
                problems.add(path, FabricJsonReader.quote(id), "duplicate link id (first at " + idAt.get(id) + ")",
                        "an id used by no other link");
                ok = false;
            }
            usedAt.putIfAbsent(a, path);
            usedAt.putIfAbsent(b, path);
            idAt.putIfAbsent(id, path);
            if (speed > Math.min(a.speedGbps(), b.speedGbps())) {
                problems.add(JsonPaths.field(lp, "fabriclab-speed-gbps"), Integer.toString(speed), "link speed " + speed
                        + "G exceeds a port's speed (" + a.ref() + " " + a.speedGbps() + "G, " + b.ref() + " "
                        + b.speedGbps() + "G)", "at most " + Math.min(a.speedGbps(), b.speedGbps()) + "G");
                ok = false;
            }
            if (ok) {
                int s = speed > 0 ? speed : Math.min(a.speedGbps(), b.speedGbps());
                Link l = new Link(id, a, b, s, length, type);
                l.setState(state);
                f.addLink(l);
            }
        }

        /** "node:interface" or {node, interface}: the port, created on the node if it is new. */
        private Port endpoint(Fabric f, JsonNode e, String path, int speed) {
            String allowed = "\"node:interface\" with a node from topology.nodes, e.g. \"leaf1:eth1\"";
            String nodeName;
            String iface;
            if (e != null && e.isTextual()) {
                String s = e.textValue();
                int i = s.indexOf(':');
                if (i <= 0 || i == s.length() - 1 || s.indexOf(':', i + 1) >= 0) {
                    problems.add(path, FabricJsonReader.quote(s), "bad endpoint syntax", allowed);
                    return null;
                }
                nodeName = s.substring(0, i);
                iface = s.substring(i + 1);
            } else if (e != null && e.isObject() && e.path("node").isTextual() && e.path("interface").isTextual()) {
                nodeName = e.get("node").textValue();
                iface = e.get("interface").textValue();
            } else {
                problems.add(path, JsonObjectReader.text(e), "bad endpoint", allowed
                        + ", or { node: leaf1, interface: eth1 }");
                return null;
            }
            Device d = f.device(nodeName);
            if (d == null) {
                problems.add(path, FabricJsonReader.quote(nodeName + ":" + iface), "no node \"" + InputProblem.shorten(nodeName)
                        + "\" in topology.nodes", allowed);
                return null;
            }
            Port p = d.port(iface);
            if (p == null) {
                if (!FabricJsonReader.validId(iface)) {
                    problems.add(path, FabricJsonReader.quote(iface), "bad interface name", FabricJsonReader.ID_RULE);
                    return null;
                }
                if (d.portCount() >= FabricJsonReader.MAX_PORTS_PER_DEVICE) {
                    problems.add(path, null, "too many interfaces on node " + d.id(),
                            "at most " + FabricJsonReader.MAX_PORTS_PER_DEVICE);
                    return null;
                }
                // On a server every data interface is a NIC, numbered in the order the links name them.
                Integer nic = d.role() == DeviceRole.SERVER ? d.portCount() : null;
                p = d.addPort(iface, speed > 0 ? speed : DEFAULT_PORT_SPEED_GBPS, nic);
            }
            return p;
        }

        /** A scalar node as text; structures are problems. */
        private String text(JsonNode n, String path) {
            if (n == null || n.isNull() || n.isMissingNode()) {
                return null;
            }
            if (!n.isValueNode()) {
                problems.add(path, JsonObjectReader.text(n), "must be a string", "a string");
                return null;
            }
            return n.asText();
        }
    }
}
