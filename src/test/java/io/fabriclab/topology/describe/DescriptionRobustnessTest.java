package io.fabriclab.topology.describe;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * The app reads the description at every key: no text makes the reader throw. Random sentences
 * from the lexicon's words, numbers, units and punctuation, and every prefix of the corpus'
 * sentences (what the field holds while one is typed), each give an understanding or an error.
 */
class DescriptionRobustnessTest {
    private static final List<String> PIECES = List.of("4", "leaves", "spines", ",", ":", "=", "x", "400G", "50 m", "2:1",
            "per", "leaf", "with", "each", "no", "PFC", "ECN", "DCQCN", "priority", "DSCP", "26", "k=8", "fat tree", "rail",
            "SUs", "of", "32", "servers", "GPUs", "8-GPU", "Tomahawk 5", "Spectrum-4", "InfiniBand", "named", "\"x\"", "-",
            "1,024", "thirty-two", "and", "between", "tiers", "to the core", "DAC", "3 m", "radix", "64-port", "switches",
            "non-blocking", "only", "off", "H100", "DGX", "uplinks", "links", "pair", "0", "9999999", "1.5", "é", "😀", "(", ")",
            ";", ".", "/", "*", "×", "1.6T", "10 ft", "cores", "spine group", "3-tier", "\n", "  ");

    @Test
    void randomSentencesNeverThrow() {
        Random r = new Random(33);
        for (int n = 0; n < 3000; n++) {
            StringBuilder sb = new StringBuilder();
            int words = 1 + r.nextInt(14);
            for (int i = 0; i < words; i++) {
                sb.append(PIECES.get(r.nextInt(PIECES.size()))).append(r.nextInt(4) == 0 ? "" : " ");
            }
            String s = sb.toString();
            Understanding u = Descriptions.understand(s);
            assertNotNull(u, s);
            assertTrue(u.ok() || u.error() != null, s);
            if (!u.ok()) {
                assertTrue(!u.error().isBlank(), s);
            }
            for (Span sp : u.understood()) {
                assertTrue(sp.end() <= s.length(), s);
            }
            u.table(); // renders
        }
    }

    @Test
    void everyPrefixOfTheCorpusIsReadWithoutThrowing() throws Exception {
        for (DescriptionCorpusTest.Line l : DescriptionCorpusTest.corpus()) {
            String s = l.sentence();
            for (int i = 0; i <= s.length(); i++) {
                Understanding u = Descriptions.understand(s.substring(0, i));
                assertTrue(u.ok() || u.error() != null, s.substring(0, i));
            }
        }
    }
}
