package io.fabriclab.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;



import io.fabriclab.model.Fabric;
import io.fabriclab.model.Transport;
import io.fabriclab.topology.BillOfMaterials;
import io.fabriclab.topology.PriceBook;

/** The same drawing priced for each transport (docs/pricebook.md, Per transport). */
class TransportBillOfMaterialsTest {

    @Test
    void theShippedOneUnitRailFabricPricedForEachTransport() throws Exception {
        Fabric f = FabricFiles.load(Path.of("resources/examples/rail-1su.json"));
        PriceBook sample = PriceBookFile.sample();
        BillOfMaterials roce = BillOfMaterials.of(f, sample, Transport.ROCEV2);
        BillOfMaterials ib = BillOfMaterials.of(f, sample, Transport.INFINIBAND);
        BillOfMaterials uec = BillOfMaterials.of(f, sample, Transport.ULTRA_ETHERNET);
        for (BillOfMaterials b : List.of(roce, ib, uec)) {
            assertTrue(b.complete(), b.transport() + " unpriced: " + b.unpriced());
        }
        System.out.println("rail-1su: RoCEv2 " + roce.total() + ", InfiniBand " + ib.total() + ", Ultra Ethernet " + uec.total());
        for (BillOfMaterials.Line l : ib.lines()) {
            System.out.println("  " + l.description() + " x" + l.quantity() + " @" + l.unitPrice() + " = " + l.cost());
        }
        // The same counts under every transport: one line per line, quantity for quantity.
        assertEquals(roce.lines().size(), ib.lines().size());
        for (int i = 0; i < roce.lines().size(); i++) {
            assertEquals(roce.lines().get(i).quantity(), ib.lines().get(i).quantity());
            assertEquals(roce.lines().get(i).category(), ib.lines().get(i).category());
        }
        // rail-1su: 8 rail leaves and 4 spines of 64x400G, 32 servers x 8 NICs of 400G (256), and the cables.
        // RoCEv2 from the sample: 12 switches x 48,000 = 576,000; 256 NICs x 2,200 = 563,200; cables C.
        // InfiniBand: 12 x 120,000 (2.5 x 48,000) = 1,440,000; 256 HCAs x 2,640 (1.2 x 2,200) = 675,840;
        // the same cables C. So IB - RoCEv2 = 864,000 + 112,640 = 976,640.
        assertEquals(12, roce.lines().stream().filter(l -> l.category() == BillOfMaterials.Category.SWITCH)
                .mapToLong(BillOfMaterials.Line::quantity).sum());
        assertEquals(256, roce.quantity("nic:400G"));
        assertEquals(256, ib.quantity("hca:400G"));
        assertEquals(12, ib.quantity("ib-switch:64x400G"));
        assertEquals(new BigDecimal("976640.00"), ib.total().subtract(roce.total()));
        // Ultra Ethernet: the sample prices no UEC part apart from its Ethernet sibling, so the same total.
        assertEquals(roce.total(), uec.total());
        assertEquals(256, uec.quantity("nic:400G"));
    }

    @Test
    void ultraEthernetPartsArePricedApartOnlyWhereTheBookSaysTheyDiffer() throws Exception {
        Fabric f = io.fabriclab.topology.RailOptimizedGenerator.generate(1);
        Map<String, BigDecimal> prices = new java.util.HashMap<>(PriceBookFile.sample().prices());
        prices.put("uec-nic:400G", new BigDecimal("2500"));
        PriceBook book = new PriceBook("USD", "", prices);
        BillOfMaterials uec = BillOfMaterials.of(f, book, Transport.ULTRA_ETHERNET);
        BillOfMaterials roce = BillOfMaterials.of(f, book, Transport.ROCEV2);
        // 256 NICs at 2,500 instead of 2,200: 76,800 more; switches stay on switch:64x400G.
        assertEquals(256, uec.quantity("uec-nic:400G"));
        assertEquals(12, uec.quantity("switch:64x400G"));
        assertEquals(new BigDecimal("76800.00"), uec.total().subtract(roce.total()));
        // InfiniBand never falls back to an Ethernet price: without hca: keys the HCAs are unpriced.
        prices.keySet().removeIf(k -> k.startsWith("hca:"));
        BillOfMaterials ib = BillOfMaterials.of(f, new PriceBook("USD", "", prices), Transport.INFINIBAND);
        assertEquals(List.of("hca:400G"), ib.unpriced());
    }
}
