package io.fabriclab.topology.describe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The corpus of descriptions (src/test/resources/describe/corpus.tsv): each sentence, written the
 * way different people write, with the parameters it must give or the error it must give, quoting
 * its words.
 */
class DescriptionCorpusTest {
    record Line(int no, String sentence, String expect) {
    }

    static List<Line> corpus() throws IOException {
        List<Line> out = new ArrayList<>();
        try (InputStream in = DescriptionCorpusTest.class.getResourceAsStream("/describe/corpus.tsv")) {
            assertNotNull(in, "corpus.tsv on the test class path");
            String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n");
            for (int i = 0; i < lines.length; i++) {
                String l = lines[i];
                if (l.isBlank() || l.startsWith("#")) {
                    continue;
                }
                int tab = l.indexOf('\t');
                assertTrue(tab > 0, "line " + (i + 1) + " has a sentence, a tab and what it must give: " + l);
                out.add(new Line(i + 1, l.substring(0, tab), l.substring(tab + 1).strip()));
            }
        }
        return out;
    }

    @Test
    void theCorpusHasAtLeast150Sentences() throws IOException {
        List<Line> c = corpus();
        assertTrue(c.size() >= 150, c.size() + " sentences");
        assertTrue(c.stream().filter(l -> l.expect().startsWith("!")).count() >= 40, "refusals");
        assertEquals(c.size(), c.stream().map(Line::sentence).distinct().count(), "no sentence twice");
    }

    @TestFactory
    Stream<DynamicTest> everySentenceGivesItsParameters() throws IOException {
        return corpus().stream().map(l -> DynamicTest.dynamicTest("line " + l.no() + ": " + l.sentence(), () -> check(l)));
    }

    static void check(Line l) {
        Understanding u = Descriptions.understand(l.sentence());
        String where = "line " + l.no() + " \"" + l.sentence() + "\"\n" + u.table();
        if (l.expect().startsWith("!")) {
            String[] parts = l.expect().substring(1).split("\\|");
            assertFalse(u.ok(), "must be refused: " + where);
            assertTrue(u.error().contains(parts[0]), "error mentions \"" + parts[0] + "\": " + where);
            for (int i = 1; i < parts.length; i++) {
                assertTrue(u.error().contains(parts[i]), "error quotes " + parts[i] + ": " + where);
            }
            for (Span s : u.errorWords()) {
                assertTrue(s.end() <= l.sentence().length(), "error words inside the text");
            }
            return;
        }
        assertTrue(u.ok(), "must make a fabric: " + where);
        assertNull(u.error());
        Map<String, String> p = u.blueprint().params();
        for (String kv : l.expect().split("\\s+")) {
            int eq = kv.indexOf('=');
            String key = kv.substring(0, eq);
            String want = kv.substring(eq + 1);
            if (key.equals("unused")) {
                List<String> words = u.unused().stream().map(s -> s.in(l.sentence())).toList();
                assertEquals(List.of(want.split(",")), words, "unused words: " + where);
                continue;
            }
            assertTrue(p.containsKey(key), "no parameter " + key + " (have " + p.keySet() + "): " + where);
            assertEquals(want, p.get(key), key + ": " + where + "\nparams " + p);
        }
    }
}
