package io.fabriclab.io;

import java.io.StringReader;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A YAML document as a Jackson tree, built from SnakeYAML's composer so that anchors, aliases and
 * merge keys ({@code <<: *defaults}) mean what YAML says (containerlab files use them for shared
 * node settings). Jackson's own YAML reader reads an alias as the anchor's name and keeps
 * {@code <<} as a key; this one resolves both. Limits against "billion laughs" documents: at most
 * {@link #MAX_ALIASES} aliases, at most {@link #MAX_VALUES} values after aliases are expanded, no
 * alias that contains itself. A file holds one document; a second one is refused rather than
 * silently ignored. Duplicate keys are errors, as in every FabricLab JSON reader.
 *
 * <p>Scalars: plain {@code true}/{@code false}, decimal integers and decimal floats become
 * booleans and numbers, {@code null}/{@code ~}/empty become null; everything else stays text
 * (YAML 1.1's {@code yes}/{@code on}, sexagesimal {@code 1:20}, octal and hex are not guessed at).
 */
final class YamlTree {
    /** Aliases per document; real containerlab files use a handful. */
    static final int MAX_ALIASES = 100;
    /** Values (scalars, lists, maps) after expanding aliases; a 4,000-node lab has about 100,000. */
    static final int MAX_VALUES = 2_000_000;

    private static final Pattern INT = Pattern.compile("[-+]?[0-9]+");
    private static final Pattern FLOAT = Pattern.compile("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final Problems problems;
    private final IdentityHashMap<Node, Boolean> onPath = new IdentityHashMap<>();
    private long values;
    private boolean stopped;

    private YamlTree(Problems problems) {
        this.problems = problems;
    }

    /** The document's tree, or null after recording why there is none. */
    static JsonNode parse(String text, Problems problems) {
        if (text.length() > JsonInput.MAX_FILE_BYTES) {
            problems.add("$", null, "document is longer than " + JsonInput.MAX_FILE_BYTES / 1048576 + " MB",
                    "at most " + JsonInput.MAX_FILE_BYTES / 1048576 + " MB");
            return null;
        }
        if (text.isBlank()) {
            problems.add("$", null, "file is empty", "a YAML document");
            return null;
        }
        LoaderOptions opts = new LoaderOptions();
        opts.setCodePointLimit((int) JsonInput.MAX_FILE_BYTES);
        opts.setNestingDepthLimit(JsonInput.MAX_NESTING_DEPTH);
        opts.setMaxAliasesForCollections(MAX_ALIASES);
        opts.setAllowRecursiveKeys(false);
        opts.setAllowDuplicateKeys(false);
        try {
            // Every alias counts, to a scalar as to a list or a map (SnakeYAML's own limit counts the
            // collections only): one pass over the parser's events before anything is composed.
            int aliases = 0;
            for (org.yaml.snakeyaml.events.Event ev : new Yaml(opts).parse(new StringReader(text))) {
                if (ev instanceof org.yaml.snakeyaml.events.AliasEvent && ++aliases > MAX_ALIASES) {
                    problems.add("$", null, "more than " + MAX_ALIASES + " aliases; alias " + aliases + " (*"
                            + InputProblem.shorten(((org.yaml.snakeyaml.events.AliasEvent) ev).getAnchor()) + ")"
                            + at(ev.getStartMark()), "at most " + MAX_ALIASES + " aliases (*name) per document");
                    return null;
                }
            }
            Iterator<Node> docs = new Yaml(opts).composeAll(new StringReader(text)).iterator();
            Node first = docs.hasNext() ? docs.next() : null;
            while (docs.hasNext()) {
                Node more = docs.next();
                if (!isEmpty(more)) {
                    problems.add("$", null, "a second YAML document starts" + at(more.getStartMark())
                            + "; a containerlab topology file holds one document", "one YAML document (no second '---')");
                    return null;
                }
            }
            if (isEmpty(first)) {
                problems.add("$", null, "file is empty", "a YAML document");
                return null;
            }
            YamlTree t = new YamlTree(problems);
            JsonNode root = t.convert(first, "$");
            if (t.stopped) {
                return null;
            }
            int before = problems.size();
            JsonInput.checkText(root, "$", problems);
            return problems.size() > before ? null : root;
        } catch (MarkedYAMLException e) {
            problems.add("$", null, "not valid YAML" + at(e.getProblemMark()) + ": " + oneLine(e.getProblem()),
                    "a YAML document");
            return null;
        } catch (YAMLException | IllegalArgumentException | IllegalStateException e) {
            // SnakeYAML's limits (aliases, nesting, size) end up here; it is the input's fault.
            problems.add("$", null, "not valid YAML: " + oneLine(e.getMessage()), "a YAML document within "
                    + MAX_ALIASES + " aliases, nesting depth " + JsonInput.MAX_NESTING_DEPTH);
            return null;
        }
    }

    private static boolean isEmpty(Node n) {
        return n == null || (n instanceof ScalarNode s && Tag.NULL.equals(s.getTag()));
    }

    private JsonNode convert(Node n, String path) {
        if (stopped) {
            return NODES.nullNode();
        }
        if (++values > MAX_VALUES) {
            stopped = true;
            problems.add(path, null, "the document expands to more than " + MAX_VALUES
                    + " values once its aliases are resolved", "a topology whose aliases expand to at most "
                    + MAX_VALUES + " values");
            return NODES.nullNode();
        }
        if (onPath.containsKey(n)) {
            stopped = true;
            problems.add(path, null, "an alias" + at(n.getStartMark()) + " refers to a node that contains it",
                    "aliases to nodes defined before and outside them");
            return NODES.nullNode();
        }
        onPath.put(n, Boolean.TRUE);
        try {
            if (n instanceof ScalarNode s) {
                return scalar(s);
            }
            if (n instanceof SequenceNode seq) {
                ArrayNode a = NODES.arrayNode();
                List<Node> items = seq.getValue();
                for (int i = 0; i < items.size(); i++) {
                    a.add(convert(items.get(i), JsonPaths.index(path, i)));
                }
                return a;
            }
            return mapping((MappingNode) n, path);
        } finally {
            onPath.remove(n);
        }
    }

    private ObjectNode mapping(MappingNode m, String path) {
        ObjectNode o = NODES.objectNode();
        List<Node> merges = new ArrayList<>();
        for (NodeTuple t : m.getValue()) {
            Node k = t.getKeyNode();
            if (!(k instanceof ScalarNode ks)) {
                problems.add(path, null, "a key" + at(k.getStartMark()) + " is a list or a map", "plain text keys");
                continue;
            }
            if (Tag.MERGE.equals(ks.getTag())) {
                merges.add(t.getValueNode());
                continue;
            }
            String key = ks.getValue();
            if (o.has(key)) {
                problems.add(JsonPaths.field(path, key), null, "duplicate key \"" + InputProblem.shorten(key) + "\""
                        + at(k.getStartMark()), "each key once per map");
                continue;
            }
            o.set(key, convert(t.getValueNode(), JsonPaths.field(path, key)));
        }
        // Merge keys (YAML 1.1 <<): keys of the merged maps that the map does not set itself, the
        // first merged map winning over later ones.
        for (Node merge : merges) {
            List<Node> sources = merge instanceof SequenceNode seq ? seq.getValue() : List.of(merge);
            for (Node src : sources) {
                if (!(src instanceof MappingNode)) {
                    problems.add(JsonPaths.field(path, "<<"), null, "a merge key" + at(src.getStartMark())
                            + " must name a map", "<<: *anchor-of-a-map or <<: [*a, *b]");
                    continue;
                }
                JsonNode merged = convert(src, path);
                if (merged instanceof ObjectNode mo) {
                    for (Iterator<Map.Entry<String, JsonNode>> it = mo.fields(); it.hasNext();) {
                        Map.Entry<String, JsonNode> e = it.next();
                        if (!o.has(e.getKey())) {
                            o.set(e.getKey(), e.getValue());
                        }
                    }
                }
            }
        }
        return o;
    }

    private static JsonNode scalar(ScalarNode s) {
        String v = s.getValue();
        Tag tag = s.getTag();
        if (Tag.NULL.equals(tag)) {
            return NODES.nullNode();
        }
        if (Tag.BOOL.equals(tag) && (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false"))) {
            return NODES.booleanNode(v.equalsIgnoreCase("true"));
        }
        if (Tag.INT.equals(tag) && INT.matcher(v).matches()) {
            BigInteger b = new BigInteger(v.startsWith("+") ? v.substring(1) : v);
            return b.bitLength() < 64 ? NODES.numberNode(b.longValue()) : NODES.numberNode(b);
        }
        if (Tag.FLOAT.equals(tag) && FLOAT.matcher(v).matches()) {
            return NODES.numberNode(Double.parseDouble(v));
        }
        return NODES.textNode(v);
    }

    private static String at(Mark m) {
        return m == null ? "" : " at line " + (m.getLine() + 1) + ", column " + (m.getColumn() + 1);
    }

    private static String oneLine(String s) {
        if (s == null) {
            return "";
        }
        String line = s.lines().findFirst().orElse("").strip();
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }
}
