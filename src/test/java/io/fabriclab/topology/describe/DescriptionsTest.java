package io.fabriclab.topology.describe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Bad input gets a clear error quoting the words; what was understood, defaulted and unused is reported. */
class DescriptionsTest {

    private static Understanding refused(String text) {
        Understanding u = Descriptions.understand(text);
        assertFalse(u.ok(), text + " must be refused:\n" + u.table());
        assertNotNull(u.error());
        return u;
    }

    @Test
    void emptyAndBlankAreRefusedWithAnExample() {
        for (String s : new String[] {null, "", "   ", "\n\t"}) {
            Understanding u = refused(s);
            assertTrue(u.error().startsWith("the description is empty"), u.error());
            assertTrue(u.error().contains(Descriptions.EXAMPLE), u.error());
        }
    }

    @Test
    void a100000CharacterDescriptionIsRefusedWithoutBeingRead() {
        String huge = "4 leaves, ".repeat(10_000);
        assertEquals(100_000, huge.length());
        Understanding u = refused(huge);
        assertTrue(u.error().contains("100,000 characters; at most 2,000 are read"), u.error());
        assertTrue(u.error().contains("\"4 leaves, 4 leaves,"), "quotes the start: " + u.error());
        assertEquals(List.of(), u.terms(), "nothing taken from it");
    }

    @Test
    void justUnderTheLimitIsRead() {
        String s = "4 leaves, 2 spines" + " ".repeat(Descriptions.MAX_CHARS - 18);
        assertEquals(Descriptions.MAX_CHARS, s.length());
        assertTrue(Descriptions.understand(s).ok());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "leaf-spine, 0 leaves|'0 leaves'|at least 1",
            "leaf-spine, priority 8|'priority' '8'|0-7",
            "leaf-spine, DSCP 64|'DSCP' '64'|0-63",
            "leaf-spine, 300G NICs|'300G'|allowed: 10G, 25G, 40G, 50G, 100G, 200G, 400G, 800G, 1600G",
            "leaf-spine, 200000 m between tiers|'200000 m'|at most 100000 m",
            "leaf-spine, 1000000 leaves|'1000000 leaves'|at most 4096 per device",
            "fat tree, k=1000|'k', '1000'|the fabric would have 251250000 devices",
            "leaf-spine, 100:1|'100:1'|1:1 to 64:1",
            "leaf-spine, 2.5 leaves|'2.5'|whole number",
            "rail, 5000 SUs|'5000 SUs'|spine groups exceed"})
    void numbersOutOfRangeAreRefusedQuotingTheWords(String text, String words, String why) {
        Understanding u = refused(text);
        assertTrue(u.error().contains(words), "quotes " + words + ": " + u.error());
        assertTrue(u.error().contains(why), "says " + why + ": " + u.error());
        assertFalse(u.errorWords().isEmpty(), "the words are marked");
    }

    @Test
    void aContradictionNamesBothWordsAndTheNearestFabricThatFits() {
        Understanding u = refused("4 leaves, 2 spines, 8 leaves");
        assertTrue(u.error().contains("'4 leaves' and '8 leaves' give two different leaves (4 and 8)"), u.error());
        Understanding radix = refused("32 servers x 8 NICs on 4 leaves of radix 32");
        assertTrue(radix.error().contains("a leaf needs 64 server ports (8 servers x 8 NICs) + 2 uplinks = 66, more than "
                + "radix 32; nearest fabric that fits: radix 66"), radix.error());
        Understanding rail = refused(Descriptions.EXAMPLE.replace("8 leaves", "4 leaves"));
        assertTrue(rail.error().contains("nearest fabric that fits: 8 leaves (rail-optimized), or a leaf-spine with 4 leaves"),
                rail.error());
        List<String> marked = rail.errorWords().stream().map(s -> s.in(rail.text())).toList();
        assertTrue(marked.contains("4") && marked.contains("leaves") && marked.contains("rail-optimized"), marked.toString());
        assertTrue(rail.error().startsWith("'4 leaves' and 'rail-optimized' and "), rail.error());
    }

    @Test
    void theIssuesExampleIsUnderstoodWordForWord() {
        Understanding u = Descriptions.understand(Descriptions.EXAMPLE);
        assertTrue(u.ok(), u.table());
        assertEquals(List.of(), u.unused());
        assertEquals("'8 leaves'", u.term(Slot.LEAVES).quoted(u.text()));
        assertEquals("'2:1 oversubscribed'", u.term(Slot.OVERSUBSCRIPTION).quoted(u.text()));
        assertEquals("'50 m fibre between tiers'", u.term(Slot.SWITCH_CABLE).quoted(u.text()));
        assertEquals("'Tomahawk 5 leaves'", u.term(Slot.LEAF_MODEL).quoted(u.text()));
        assertEquals("'priority 3'", u.term(Slot.PRIORITY).quoted(u.text()));
        assertNotNull(u.defaultFor(Slot.RADIX), "the radix is a default, shown with its source");
        assertTrue(u.defaultFor(Slot.RADIX).why().contains("fabriclab generate rail"));
        assertEquals(42, u.blueprint().build().devices().size());
    }

    @Test
    void understoodDefaultedAndUnusedWordsAreAllReported() {
        Understanding u = Descriptions.understand("please give me 6 shiny leaves");
        assertTrue(u.ok(), u.table());
        assertEquals(List.of("shiny"), u.unused().stream().map(s -> s.in(u.text())).toList());
        assertEquals(List.of("please", "give", "me"), u.glue().stream().map(s -> s.in(u.text())).toList());
        assertEquals(List.of("6", "leaves"), u.understood().stream().map(s -> s.in(u.text())).toList());
        assertEquals("2", u.defaultFor(Slot.SPINES).value());
        String table = u.table();
        assertTrue(table.contains("Not used: 'shiny'"), table);
        assertTrue(table.contains("spines") && table.contains("the leaf-spine generator's default"), table);
    }

    @Test
    void typosAreRefusedWithTheWordTheyResemble() {
        Understanding u = refused("4 leafs, 2 spiens");
        assertEquals("'spiens' is not a word FabricLab reads; did you mean 'spines'?", u.error());
        assertEquals("spiens", u.errorWords().get(0).in(u.text()));
    }
}
