package io.fabriclab.topology.describe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** docs/describe.md lists every word and phrase the reader takes. */
class DescribeDocTest {
    @Test
    void theDocListsEveryEntryOfTheLexicon() throws Exception {
        String doc = Files.readString(Path.of("docs/describe.md"));
        List<String> missing = new ArrayList<>();
        for (Lexicon.C c : Lexicon.C.values()) {
            for (String e : Lexicon.entries(c)) {
                if (!doc.contains("`" + e.replace("|", "\\|") + "`")) {
                    missing.add(c + ": " + e);
                }
            }
        }
        assertEquals(List.of(), missing, "add them to docs/describe.md, 'Every word and phrase it reads'");
    }
}
