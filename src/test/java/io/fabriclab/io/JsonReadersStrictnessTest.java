package io.fabriclab.io;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Results files and price books are read through JsonInput like fabric and scenario files: a
 * size cap, UTF-8 (byte-order mark dropped), duplicate keys and trailing data refused, and every
 * failure naming the file.
 */
class JsonReadersStrictnessTest {
    private static final String BOOK = "{\"schemaVersion\": 1, \"currency\": \"USD\", \"prices\": {\"nic:400G\": 1800}}";

    @Test
    void aPriceBookThatIsNotUtf8OrIsADirectoryNamesTheFile(@TempDir Path dir) throws Exception {
        Path latin = dir.resolve("latin1.json");
        Files.write(latin, BOOK.replace("}}", "}, \"description\": \"caf\u00e9\"}").getBytes(StandardCharsets.ISO_8859_1));
        PriceBookException e = assertThrows(PriceBookException.class, () -> PriceBookFile.load(latin));
        assertEquals(latin + ": $: file is not UTF-8 text; allowed: UTF-8 encoded text", e.getMessage());
        Path folder = Files.createDirectory(dir.resolve("prices.json"));
        e = assertThrows(PriceBookException.class, () -> PriceBookFile.load(folder));
        assertEquals(folder + ": $: is not a regular file", e.getMessage());
        e = assertThrows(PriceBookException.class, () -> PriceBookFile.load(dir.resolve("missing.json")));
        assertEquals(dir.resolve("missing.json") + ": $: file does not exist", e.getMessage());
    }

    @Test
    void aPriceBookWithAByteOrderMarkReadsAndTrailingDataIsRefused(@TempDir Path dir) throws Exception {
        Path bom = dir.resolve("bom.json");
        Files.writeString(bom, "\uFEFF" + BOOK);
        assertEquals("USD", PriceBookFile.load(bom).currency());
        PriceBookException e = assertThrows(PriceBookException.class, () -> PriceBookFile.read(BOOK + " {}", "t.json"));
        assertTrue(e.getMessage().startsWith("t.json: $: not valid JSON at line 1"), e.getMessage());
    }

    @Test
    void aPriceBookOverTheSizeLimitIsRefusedUnread(@TempDir Path dir) throws Exception {
        Path big = sparse(dir.resolve("big.json"), JsonInput.MAX_FILE_BYTES + 1);
        PriceBookException e = assertThrows(PriceBookException.class, () -> PriceBookFile.load(big));
        assertTrue(e.getMessage().startsWith(big + ": $: file is 64.0 MB, too large to be a price book"), e.getMessage());
    }

    @Test
    void resultsFilesRefuseDuplicateKeysTrailingDataAndOversizeFiles(@TempDir Path dir) throws Exception {
        String head = "{\"kind\": \"fabriclab-results\", \"kind\": \"fabriclab-results\", \"schemaVersion\": 1}";
        InputException dup = assertThrows(InputException.class, () -> ResultsFile.parse(head, Path.of("r.json")));
        assertTrue(dup.getMessage().startsWith("r.json: $: not valid JSON at line 1"), dup.getMessage());
        assertTrue(dup.getMessage().contains("Duplicate field 'kind'"), dup.getMessage());
        InputException trailing = assertThrows(InputException.class,
                () -> ResultsFile.parse("{\"kind\": \"x\"} []", Path.of("t.json")));
        assertTrue(trailing.getMessage().startsWith("t.json: $: not valid JSON"), trailing.getMessage());
        Path big = sparse(dir.resolve("huge.json"), JsonInput.MAX_RESULTS_BYTES + 1);
        InputException e = assertThrows(InputException.class, () -> ResultsFile.read(big));
        assertTrue(e.getMessage().startsWith(big + ": $: file is 512.0 MB, too large to be a results file"),
                e.getMessage());
        InputException none = assertThrows(InputException.class, () -> ResultsFile.read(dir.resolve("none.json")));
        assertEquals(dir.resolve("none.json") + ": $: file does not exist", none.getMessage());
    }

    /** Item 6 of issue 31: {@code "flows": "x"} read as no flows, and the report contradicted itself. */
    @Test
    void aResultsListOfTheWrongTypeIsRefusedNotReadAsEmpty() {
        String head = "{\"schemaVersion\": 1, \"kind\": \"fabriclab-results\", \"metadata\": {}, \"run\": {}, \"summary\": {}";
        InputException e = assertThrows(InputException.class, () -> ResultsFile.parse(head + ", \"flows\": \"x\"}", Path.of("r.json")));
        assertEquals("r.json: $.flows: wrong type: a string (\"x\"); allowed: an array (a results file written by fabriclab simulate -o)",
                e.getMessage().replace("\n", " "));
        InputException obj = assertThrows(InputException.class, () -> ResultsFile.parse(head + ", \"queues\": {}}", Path.of("r.json")));
        assertTrue(obj.getMessage().contains("$.queues: wrong type: an object"), obj.getMessage());
        InputException deep = assertThrows(InputException.class,
                () -> ResultsFile.parse(head + ", \"flows\": [{\"bytes\": \"many\"}]}", Path.of("r.json")));
        assertTrue(deep.getMessage().contains("$.flows[0].bytes") && deep.getMessage().contains("allowed: a number"),
                deep.getMessage());
        // A list an older file lacks still reads as empty.
        assertTrue(assertDoesNotThrow(() -> ResultsFile.parse(head + "}", Path.of("r.json"))).results().flows().isEmpty());
    }

    /** A file of {@code size} bytes that takes no disk space and is never read. */
    static Path sparse(Path file, long size) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(size);
        }
        return file;
    }
}
