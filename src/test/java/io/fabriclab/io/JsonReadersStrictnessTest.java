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
        assertTrue(e.getMessage().startsWith(big + ": $: file is " + JsonInput.MAX_RESULTS_BYTES / 1048576
                + ".0 MB, too large to be a results file"), e.getMessage());
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

    /**
     * Item 4 of issue 31: a million-flow run wrote 760-918 MB that report refused (512 MB). The
     * writer and the reader keep to one cap, which holds a run at the scenario's flow limit
     * (measured bytes per flow of a real results file, times ScenarioJson.MAX_FLOWS), and a file
     * over the cap is never finished.
     */
    @Test
    void whatSimulateWritesReportReads(@TempDir Path dir) throws Exception {
        Path file = Path.of("resources/scenarios/incast-pfc-dcqcn.json");
        Scenario sc = ScenarioJson.read(file, FabricReader.FILES);
        io.fabriclab.sim.SimResults r = sc.simulator(sc.config().withDurationPs(100_000_000L)).run();
        ResultsJson.Metadata meta = new ResultsJson.Metadata("1", sc.name(), file.toString(), sc.sha256(), "f", null);
        Path out = dir.resolve("r.json");
        ResultsJson.write(r, meta, out, true);
        assertEquals(r.flows().size(), ResultsFile.read(out).results().flows().size(), "read back as a stream");
        // The per-flow part grows with the flows; the rest is bounded by telemetry.maxPoints (given twice the room).
        String text = Files.readString(out);
        int from = text.indexOf("\"flows\" : [");
        int to = text.indexOf("\"queues\" : [");
        assertTrue(from > 0 && to > from, "flows come before queues in the file");
        double bytesPerFlow = (double) (to - from) / r.flows().size();
        assertTrue(2 * bytesPerFlow * ScenarioJson.MAX_FLOWS < ResultsFile.MAX_BYTES, String.format(
                "%.0f bytes a flow x %d flows must fit in %d bytes", bytesPerFlow, ScenarioJson.MAX_FLOWS, ResultsFile.MAX_BYTES));
        // Over the cap (here a small one): refused while writing, the old file kept, no part left.
        Files.writeString(out, "old");
        ResultsJson.TooLargeException big = assertThrows(ResultsJson.TooLargeException.class,
                () -> ResultsJson.write(r, meta, out, true, 4096));
        assertTrue(big.getMessage().startsWith(out + ": the results file would be larger than"), big.getMessage());
        assertEquals("old", Files.readString(out));
        try (var files = Files.list(dir)) {
            assertEquals(1, files.count(), "no temporary file left");
        }
    }

    /** A file of {@code size} bytes that takes no disk space and is never read. */
    static Path sparse(Path file, long size) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(size);
        }
        return file;
    }
}
