package io.fabriclab.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.fabriclab.model.CableType;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.LinkState;

import org.junit.jupiter.api.Test;

class BillOfMaterialsTest {

    /** Round prices so the hand computation below is easy to follow. */
    private static Map<String, BigDecimal> classicPrices() {
        Map<String, BigDecimal> m = new HashMap<>();
        m.put("switch:2x400G+8x100G", new BigDecimal("10000"));
        m.put("switch:4x400G", new BigDecimal("8000"));
        m.put("nic:100G", new BigDecimal("900"));
        m.put("cable:dac:100G", new BigDecimal("80"));
        m.put("transceiver:400G:mmf", new BigDecimal("700"));
        m.put("fiber:mmf:per-m", new BigDecimal("3"));
        return m;
    }

    @Test
    void classicLabCountsAndCostMatchAHandComputation() {
        BillOfMaterials bom = BillOfMaterials.of(LeafSpineGenerator.classic(), new PriceBook("USD", "", classicPrices()));
        // leaves: 4 x 10,000 = 40,000     (8 x 100G down + 2 x 400G up each)
        // spines: 2 x 8,000 = 16,000      (4 x 400G, one per leaf)
        // NICs: 32 x 900 = 28,800
        // server-leaf: 32 DAC 100G 3 m x 80 = 2,560
        // leaf-spine: 8 links of 30 m multimode: 16 transceivers x 700 = 11,200; 8 x 30 m = 240 m x 3 = 720
        // total 40,000 + 16,000 + 28,800 + 2,560 + 11,200 + 720 = 99,280
        assertEquals(4, bom.quantity("switch:2x400G+8x100G"));
        assertEquals(2, bom.quantity("switch:4x400G"));
        assertEquals(32, bom.quantity("nic:100G"));
        assertEquals(32, bom.quantity("cable:dac:100G"));
        assertEquals(16, bom.quantity("transceiver:400G:mmf"));
        assertEquals(240, bom.quantity("fiber:mmf:per-m"));
        assertEquals(32, bom.cableCount("server-leaf"));
        assertEquals(8, bom.cableCount("leaf-spine"));
        assertEquals(0, new BigDecimal("99280").compareTo(bom.total()), bom.total().toPlainString());
        assertTrue(bom.complete());
        assertEquals(32, bom.servers());
        assertEquals(32, bom.gpus());
        BillOfMaterials.Line leaves = bom.line(BillOfMaterials.Category.SWITCH, "leaf, 2x400G+8x100G").orElseThrow();
        assertEquals(0, new BigDecimal("40000").compareTo(leaves.cost()));
    }

    @Test
    void cablesAreGroupedByTierMediumSpeedAndLengthClass() {
        List<BillOfMaterials.CableGroup> groups = BillOfMaterials.of(LeafSpineGenerator.classic(),
                new PriceBook("USD", "", Map.of())).cables();
        assertEquals(2, groups.size());
        BillOfMaterials.CableGroup dac = groups.get(0);
        assertEquals("server-leaf", dac.tier());
        assertEquals(CableType.DAC, dac.medium());
        assertEquals(100, dac.speedGbps());
        assertEquals(3.0, dac.lengthClassM());
        assertEquals(32, dac.count());
        BillOfMaterials.CableGroup optics = groups.get(1);
        assertEquals("leaf-spine", optics.tier());
        assertEquals(CableType.MMF, optics.medium());
        assertEquals(30.0, optics.lengthClassM());
        assertEquals(240.0, optics.totalMetres(), 1e-9);
        // 4.2 m falls in the 5 m class; 31 m in the 50 m class.
        assertEquals(5.0, BillOfMaterials.lengthClass(4.2));
        assertEquals(50.0, BillOfMaterials.lengthClass(31));
    }

    @Test
    void missingPricesAreListedAsUnpricedAndLeftOutOfTheTotal() {
        Map<String, BigDecimal> prices = classicPrices();
        prices.remove("nic:100G");
        BillOfMaterials bom = BillOfMaterials.of(LeafSpineGenerator.classic(), new PriceBook("USD", "", prices));
        assertFalse(bom.complete());
        assertEquals(List.of("nic:100G"), bom.unpriced());
        BillOfMaterials.Line nics = bom.line(BillOfMaterials.Category.NIC, "NIC 100G").orElseThrow();
        assertEquals(32, nics.quantity());
        assertNull(nics.unitPrice());
        assertNull(nics.cost());
        // 99,280 without the 28,800 of NICs.
        assertEquals(0, new BigDecimal("70480").compareTo(bom.total()));
    }

    @Test
    void aLengthSpecificCablePriceWinsOverTheGenericOne() {
        Map<String, BigDecimal> prices = classicPrices();
        prices.put("cable:dac:100G:3m", new BigDecimal("60"));
        BillOfMaterials bom = BillOfMaterials.of(LeafSpineGenerator.classic(), new PriceBook("USD", "", prices));
        assertEquals(32, bom.quantity("cable:dac:100G:3m"));
        assertEquals(0, bom.quantity("cable:dac:100G"));
        // 99,280 - 32 x (80 - 60) = 98,640
        assertEquals(0, new BigDecimal("98640").compareTo(bom.total()));
    }

    @Test
    void aocNeedsNoTransceiversAndFailedLinksStillCountAsCables() {
        Fabric f = LeafSpineGenerator.classic();
        f.links().stream().filter(l -> l.cableType() == CableType.MMF).forEach(l -> l.setCableType(CableType.AOC));
        f.links().iterator().next().setState(LinkState.DOWN);
        BillOfMaterials bom = BillOfMaterials.of(f, new PriceBook("USD", "", Map.of()));
        assertEquals(0, bom.quantity("transceiver:400G:mmf"));
        assertEquals(8, bom.quantity("cable:aoc:400G"));
        assertEquals(32, bom.quantity("cable:dac:100G"));
        assertTrue(bom.unpriced().contains("cable:aoc:400G"));
    }

    @Test
    void railFabricCountsSwitchesNicsAndOpticsPerTier() {
        // 16 SU: 128 leaves + 128 spines + 64 cores, all 64x400G = 320 switches; 4096 servers' worth
        // of NICs: 16 x 32 x 8 = 4096. Optics: 4096 server-leaf (20 m MMF) + 4096 leaf-spine
        // (50 m MMF) links = 16,384 MMF transceivers; 4096 spine-core (150 m SMF) = 8192 SMF.
        BillOfMaterials bom = BillOfMaterials.of(RailOptimizedGenerator.generate(16), new PriceBook("USD", "", Map.of()));
        assertEquals(320, bom.quantity("switch:64x400G"));
        assertEquals(128, bom.line(BillOfMaterials.Category.SWITCH, "spine, 64x400G").orElseThrow().quantity());
        assertEquals(64, bom.line(BillOfMaterials.Category.SWITCH, "core, 64x400G").orElseThrow().quantity());
        assertEquals(4096, bom.quantity("nic:400G"));
        assertEquals(16_384, bom.quantity("transceiver:400G:mmf"));
        assertEquals(8_192, bom.quantity("transceiver:400G:smf"));
        assertEquals(4096 * 150, bom.quantity("fiber:smf:per-m"));
        assertEquals(4096, bom.cableCount("spine-core"));
    }

    @Test
    void priceBookRefusesUnknownKeysAndNegativePrices() {
        assertThrows(IllegalArgumentException.class,
                () -> new PriceBook("USD", "", Map.of("router:big", BigDecimal.ONE)));
        assertThrows(IllegalArgumentException.class,
                () -> new PriceBook("USD", "", Map.of("nic:400G", new BigDecimal("-1"))));
        assertTrue(PriceBook.isValidKey("cable:aoc:400G:2.5m"));
        assertTrue(PriceBook.isValidKey("switch:2x400G+8x100G"));
        assertFalse(PriceBook.isValidKey("transceiver:400G:copper"));
    }

    @Test
    void serversAreListedByModelWithTheirGpusScaleUpDomainAndNoCost() {
        Fabric f = RailOptimizedGenerator.generate(RailParams.of(1));
        PriceBook book = new PriceBook("USD", "", classicPrices());
        BillOfMaterials bom = BillOfMaterials.of(f, book);
        assertEquals(List.of(new BillOfMaterials.ServerModel("GPU server", 32, 8, io.fabriclab.model.ScaleUp.of("H100"),
                true)), bom.serverModels());
        assertEquals("32 x GPU server: 8 x H100, NVLink 4 / NVSwitch 450 GB/s per GPU each way",
                bom.serverModels().get(0).describe());
        // The NVSwitch is inside the server: the same lines and total as a bill that ignores it.
        assertTrue(bom.lines().stream().noneMatch(l -> l.description().toLowerCase(java.util.Locale.ROOT).contains("nvlink")
                || l.description().toLowerCase(java.util.Locale.ROOT).contains("nvswitch")));
        f.servers().get(0).setModel("DGX B200");
        f.servers().get(0).setScaleUp(io.fabriclab.model.ScaleUp.of("B200"));
        f.servers().get(1).setScaleUp(null);
        BillOfMaterials mixed = BillOfMaterials.of(f, book);
        assertEquals(bom.lines(), mixed.lines(), "the scale-up domain adds no line");
        assertEquals(bom.total(), mixed.total(), "nor any cost");
        assertEquals(List.of("1 x DGX B200: 8 x B200, NVLink 5 / NVSwitch 900 GB/s per GPU each way",
                "1 x GPU server: 8 x H100, NVLink 4 / NVSwitch 450 GB/s per GPU each way (not in the file: H100 assumed)",
                "30 x GPU server: 8 x H100, NVLink 4 / NVSwitch 450 GB/s per GPU each way"),
                mixed.serverModels().stream().map(BillOfMaterials.ServerModel::describe).toList());
        String text = AnalysisText.of(f, "f.json", FabricAnalysis.run(f, FabricAnalysis.Options.defaults(book)), 5);
        assertTrue(text.contains("Servers (not priced; NVLink / NVSwitch is inside each server: no line item, no cost)\n"
                + "  1 x DGX B200: 8 x B200, NVLink 5 / NVSwitch 900 GB/s per GPU each way"), text);
    }
}
