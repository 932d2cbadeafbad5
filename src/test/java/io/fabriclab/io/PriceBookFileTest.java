package io.fabriclab.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import io.fabriclab.topology.BillOfMaterials;
import io.fabriclab.topology.FatTreeGenerator;
import io.fabriclab.topology.LeafSpineGenerator;
import io.fabriclab.topology.PriceBook;
import io.fabriclab.topology.RailOptimizedGenerator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PriceBookFileTest {

    /** The shipped sample, read from the source tree (the build puts it on the classpath too). */
    private static final Path SAMPLE = Path.of("resources/pricebook/sample-pricebook.json");

    @Test
    void aPriceBookSurvivesASaveAndLoadRoundTrip(@TempDir Path dir) throws Exception {
        PriceBook book = new PriceBook("EUR", "test prices", Map.of(
                "switch:64x400G", new BigDecimal("48000"),
                "fiber:mmf:per-m", new BigDecimal("3.50"),
                "cable:aoc:400G:30m", new BigDecimal("1100.25")));
        Path file = dir.resolve("prices.json");
        PriceBookFile.save(book, file);
        PriceBook back = PriceBookFile.load(file);
        assertEquals(book, back);
        assertTrue(Files.readString(file).contains("\"schemaVersion\" : 1"));
    }

    @Test
    void theSamplePricesEveryShippedGeneratorCompletely() throws Exception {
        PriceBook sample = PriceBookFile.load(SAMPLE);
        assertEquals("USD", sample.currency());
        assertTrue(sample.description().startsWith("ILLUSTRATIVE"));
        for (var fabric : new io.fabriclab.model.Fabric[] {LeafSpineGenerator.classic(),
                RailOptimizedGenerator.generate(1), RailOptimizedGenerator.generate(16), FatTreeGenerator.generate(4)}) {
            BillOfMaterials bom = BillOfMaterials.of(fabric, sample);
            assertTrue(bom.complete(), fabric.name() + " unpriced: " + bom.unpriced());
        }
    }

    @Test
    void aBadPriceNamesTheFilePathValueAndWhatIsAllowed(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.json");
        Files.writeString(file, "{\"schemaVersion\": 1, \"currency\": \"USD\", \"prices\": {\"nic:400G\": \"cheap\"}}");
        PriceBookException e = assertThrows(PriceBookException.class, () -> PriceBookFile.load(file));
        assertEquals(file.toString(), e.file());
        assertEquals("$.prices[\"nic:400G\"]", e.jsonPath());
        assertEquals("\"cheap\"", e.value());
        assertTrue(e.allowed().contains("number >= 0"), e.allowed());
        assertTrue(e.getMessage().startsWith(file + ": $.prices[\"nic:400G\"]"), e.getMessage());
    }

    @Test
    void unknownKeysFieldsVersionsAndCurrenciesAreRefusedWithTheAllowedForms() {
        PriceBookException key = assertThrows(PriceBookException.class, () -> PriceBookFile.read(
                "{\"schemaVersion\": 1, \"currency\": \"USD\", \"prices\": {\"optic:400G\": 5}}", "k.json"));
        assertEquals("$.prices[\"optic:400G\"]", key.jsonPath());
        assertEquals(PriceBook.KEY_FORMS, key.allowed());

        PriceBookException version = assertThrows(PriceBookException.class, () -> PriceBookFile.read(
                "{\"schemaVersion\": 2, \"currency\": \"USD\", \"prices\": {}}", "v.json"));
        assertEquals("$.schemaVersion", version.jsonPath());
        assertEquals("2", version.value());
        assertEquals("1", version.allowed());

        PriceBookException currency = assertThrows(PriceBookException.class, () -> PriceBookFile.read(
                "{\"schemaVersion\": 1, \"currency\": \"dollars\", \"prices\": {}}", "c.json"));
        assertEquals("$.currency", currency.jsonPath());

        PriceBookException field = assertThrows(PriceBookException.class, () -> PriceBookFile.read(
                "{\"schemaVersion\": 1, \"currency\": \"USD\", \"price\": {}}", "f.json"));
        assertEquals("$.price", field.jsonPath());
        assertTrue(field.allowed().contains("prices"));

        PriceBookException negative = assertThrows(PriceBookException.class, () -> PriceBookFile.read(
                "{\"schemaVersion\": 1, \"currency\": \"USD\", \"prices\": {\"nic:400G\": -5}}", "n.json"));
        assertEquals("-5", negative.value());
    }

    @Test
    void brokenJsonAndDuplicateKeysReportTheirPlace() {
        PriceBookException syntax = assertThrows(PriceBookException.class,
                () -> PriceBookFile.read("{\"schemaVersion\": 1,\n \"currency\": }", "s.json"));
        assertTrue(syntax.getMessage().contains("s.json: $: not valid JSON at line 2"), syntax.getMessage());
        PriceBookException dup = assertThrows(PriceBookException.class, () -> PriceBookFile.read(
                "{\"schemaVersion\": 1, \"currency\": \"USD\", \"prices\": {\"nic:400G\": 1, \"nic:400G\": 2}}", "d.json"));
        assertTrue(dup.getMessage().contains("nic:400G"), dup.getMessage());
    }

    @Test
    void anEmptyFileOrANonObjectIsRefused() {
        assertEquals("file is empty", problem(() -> PriceBookFile.read("  ", "e.json")));
        PriceBookException array = assertThrows(PriceBookException.class, () -> PriceBookFile.read("[1, 2]", "a.json"));
        assertEquals("[1,2]", array.value());
    }

    private static String problem(org.junit.jupiter.api.function.Executable call) {
        PriceBookException e = assertThrows(PriceBookException.class, call);
        return e.getMessage().substring(e.getMessage().indexOf("$: ") + 3, e.getMessage().indexOf(';'));
    }

    @Test
    void aMissingFileIsReportedByName() {
        PriceBookException e = assertThrows(PriceBookException.class,
                () -> PriceBookFile.load(Path.of("no/such/prices.json")));
        assertTrue(e.getMessage().contains("no/such/prices.json"));
    }
}
