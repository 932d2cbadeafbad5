package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Issue 18, the class of inputs rather than examples: every field of a shipped fabric and of a
 * scenario is mutated the ways a careless colleague or a broken script does it (wrong type, null,
 * removed, negative, 1e308, NaN as text, an empty or control-character string, an unknown sibling
 * key), and each mutated file goes through the CLI as a user runs it ({@code validate} for the
 * fabric, {@code simulate} for the scenario). Every outcome must be either a clean error (exit 2,
 * the file named, no stack trace, no "internal error") or a run of a file that is still valid (exit
 * 0 or 1); a wrong type and an unknown key must always be a clean error. Counts are printed at the
 * end (surefire output) for the closing note.
 *
 * <p>The suite runs every third mutant (a fixed sample, the same each run) to keep the test command
 * short; {@code -Dfabriclab.mutations=all} runs the whole corpus (817 files on the shipped example).
 */
class MutationCorpusTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    static final AtomicInteger TRIED = new AtomicInteger();
    static final AtomicInteger CLEAN_ERRORS = new AtomicInteger();
    static final AtomicInteger ACCEPTED = new AtomicInteger();
    /** Mutations accepted as valid, printed at the end so a person can read them. */
    static final ConcurrentSkipListSet<String> ACCEPTED_LIST = new ConcurrentSkipListSet<>();

    /** One mutated document. {@code mustRefuse}: a wrong type or unknown key is never valid. */
    record Mutant(String kind, String path, String what, String json, boolean mustRefuse) {
        @Override
        public String toString() {
            return kind + " " + path + " " + what;
        }
    }

    static Stream<Mutant> fabricMutants() throws IOException {
        JsonNode root = JSON.readTree(Path.of("resources/examples/leaf-spine-2x4-100g.json").toFile());
        return sample(mutants("fabric", root));
    }

    static Stream<Mutant> scenarioMutants() throws IOException {
        JsonNode root = JSON.readTree(BadInputCountTest.SCENARIO);
        List<Mutant> all = mutants("scenario", root);
        // the fabric path itself: a wrong file is tested elsewhere (BadScenarioCliTest)
        return sample(all.stream().filter(m -> !m.path().equals("fabric") || m.mustRefuse()).toList());
    }

    private static Stream<Mutant> sample(List<Mutant> all) {
        boolean every = "all".equals(System.getProperty("fabriclab.mutations"));
        return java.util.stream.IntStream.range(0, all.size()).filter(i -> every || i % 3 == 0).mapToObj(all::get);
    }

    /** Every distinct field shape (array indices after the first folded), mutated each way. */
    static List<Mutant> mutants(String kind, JsonNode root) {
        Map<String, String> leaves = new LinkedHashMap<>();
        walk(root, "", leaves);
        List<Mutant> out = new ArrayList<>();
        for (String path : leaves.keySet()) {
            JsonNode leaf = at(root, path);
            List<Object[]> ways = new ArrayList<>();
            if (leaf.isNumber()) {
                ways.add(new Object[] {"text", NODES.textNode("x"), true});
                ways.add(new Object[] {"boolean", NODES.booleanNode(true), true});
                ways.add(new Object[] {"-1", NODES.numberNode(-1), false});
                ways.add(new Object[] {"1e308", NODES.numberNode(1e308), false});
                ways.add(new Object[] {"-1e308", NODES.numberNode(-1e308), false});
                ways.add(new Object[] {"\"NaN\"", NODES.textNode("NaN"), true});
                if (leaf.isIntegralNumber()) {
                    ways.add(new Object[] {"0.5", NODES.numberNode(0.5), false});
                    ways.add(new Object[] {"2^63", NODES.numberNode(new java.math.BigInteger("9223372036854775808")), false});
                }
            } else if (leaf.isTextual()) {
                ways.add(new Object[] {"number", NODES.numberNode(5), true});
                ways.add(new Object[] {"empty", NODES.textNode(""), false});
                ways.add(new Object[] {"control", NODES.textNode("a\u001b[2Jb"), false});
                ways.add(new Object[] {"bidi", NODES.textNode("a\u202eb"), false});
                ways.add(new Object[] {"long", NODES.textNode("n".repeat(100_000)), false});
            } else if (leaf.isBoolean()) {
                ways.add(new Object[] {"text", NODES.textNode("yes"), true});
                ways.add(new Object[] {"number", NODES.numberNode(1), true});
            }
            ways.add(new Object[] {"null", NODES.nullNode(), false});
            ways.add(new Object[] {"object", NODES.objectNode(), true});
            ways.add(new Object[] {"removed", null, false});
            for (Object[] w : ways) {
                JsonNode copy = root.deepCopy();
                replace(copy, path, (JsonNode) w[1]);
                out.add(new Mutant(kind, path, (String) w[0], copy.toString(), (Boolean) w[2]));
            }
        }
        // an unknown key beside every object's fields
        List<String> objects = new ArrayList<>();
        objectPaths(root, "", objects);
        for (String path : objects) {
            JsonNode copy = root.deepCopy();
            ((ObjectNode) at(copy, path)).put("bogusField", 1);
            out.add(new Mutant(kind, path.isEmpty() ? "(top)" : path, "unknown key", copy.toString(), true));
        }
        return out;
    }

    private static void walk(JsonNode n, String path, Map<String, String> leaves) {
        if (n.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                walk(e.getValue(), path.isEmpty() ? e.getKey() : path + "." + e.getKey(), leaves);
            }
        } else if (n.isArray()) {
            for (int i = 0; i < n.size(); i++) {
                walk(n.get(i), path + "[" + i + "]", leaves);
            }
        } else {
            leaves.putIfAbsent(path, shape(path));
            // keep one path per shape: later indices of the same field are the same question
            leaves.entrySet().removeIf(e -> !e.getKey().equals(path) && e.getValue().equals(shape(path))
                    && leaves.keySet().stream().filter(k -> shape(k).equals(shape(path))).findFirst().orElse(path) != e.getKey());
        }
    }

    private static String shape(String path) {
        return path.replaceAll("\\[\\d+]", "[]");
    }

    private static void objectPaths(JsonNode n, String path, List<String> out) {
        if (n.isObject()) {
            if (out.stream().noneMatch(p -> shape(p).equals(shape(path)))) {
                out.add(path);
            }
            n.fields().forEachRemaining(e -> objectPaths(e.getValue(), path.isEmpty() ? e.getKey() : path + "." + e.getKey(), out));
        } else if (n.isArray()) {
            for (int i = 0; i < n.size(); i++) {
                objectPaths(n.get(i), path + "[" + i + "]", out);
            }
        }
    }

    private static JsonNode at(JsonNode root, String path) {
        JsonNode n = root;
        for (String step : steps(path)) {
            n = step.startsWith("[") ? n.get(Integer.parseInt(step.substring(1, step.length() - 1))) : n.get(step);
        }
        return n;
    }

    private static void replace(JsonNode root, String path, JsonNode value) {
        List<String> s = steps(path);
        JsonNode parent = at(root, String.join("", s.subList(0, s.size() - 1).stream()
                .map(x -> x.startsWith("[") ? x : "." + x).toList()).replaceFirst("^\\.", ""));
        String last = s.get(s.size() - 1);
        if (last.startsWith("[")) {
            int i = Integer.parseInt(last.substring(1, last.length() - 1));
            if (value == null) {
                ((ArrayNode) parent).remove(i);
            } else {
                ((ArrayNode) parent).set(i, value);
            }
        } else if (value == null) {
            ((ObjectNode) parent).remove(last);
        } else {
            ((ObjectNode) parent).set(last, value);
        }
    }

    private static List<String> steps(String path) {
        List<String> out = new ArrayList<>();
        for (String part : path.split("\\.")) {
            if (part.isEmpty()) {
                continue;
            }
            int b = part.indexOf('[');
            if (b != 0) {
                out.add(b < 0 ? part : part.substring(0, b));
            }
            if (b >= 0) {
                for (String idx : part.substring(b).split("(?=\\[)")) {
                    out.add(idx);
                }
            }
        }
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fabricMutants")
    void mutatedFabric(Mutant m, @TempDir Path dir) throws IOException {
        check(m, dir, f -> new String[] {"validate", f.toString()});
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarioMutants")
    void mutatedScenario(Mutant m, @TempDir Path dir) throws IOException {
        check(m, dir, f -> new String[] {"simulate", f.toString(), "-o", dir.resolve("out.json").toString(), "--quiet"});
    }

    private static void check(Mutant m, Path dir, Function<Path, String[]> command) throws IOException {
        TRIED.incrementAndGet();
        Path f = dir.resolve("in.json");
        Files.writeString(f, m.json(), StandardCharsets.UTF_8);
        CliRun r = CliRun.of(command.apply(f));
        String err = r.err();
        assertFalse(err.contains("internal error") || err.contains("\tat ") || err.contains("Exception"), m + ": " + err);
        assertTrue(r.code() == ExitCode.OK || r.code() == ExitCode.FINDINGS || r.code() == ExitCode.BAD_INPUT,
                m + ": exit " + r.code() + " " + err);
        if (r.code() == ExitCode.BAD_INPUT) {
            assertTrue(err.contains(f.getFileName().toString()), m + ": names the file: " + err);
            CLEAN_ERRORS.incrementAndGet();
        } else {
            assertFalse(m.mustRefuse(), m + " was accepted (exit " + r.code() + ")");
            ACCEPTED.incrementAndGet();
            ACCEPTED_LIST.add(m.toString());
        }
    }

    @AfterAll
    static void counts() {
        System.out.printf("mutations tried: %d, clean errors: %d, still-valid files accepted: %d%n", TRIED.get(),
                CLEAN_ERRORS.get(), ACCEPTED.get());
        ACCEPTED_LIST.forEach(a -> System.out.println("  accepted: " + a));
    }
}
