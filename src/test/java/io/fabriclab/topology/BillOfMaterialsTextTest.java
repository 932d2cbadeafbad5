package io.fabriclab.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import io.fabriclab.io.FabricFiles;
import io.fabriclab.io.PriceBookFile;
import io.fabriclab.model.Fabric;

/** Issue 35 item 17: the bill of materials in text with thousands separators and units. */
class BillOfMaterialsTextTest {

    @Test
    void moneyAndQuantitiesReadAsPeopleWriteThem() {
        assertEquals("1,536,000.00", BillOfMaterials.money(new BigDecimal("1536000")));
        BillOfMaterials.Line fibre = new BillOfMaterials.Line(BillOfMaterials.Category.FIBER, "fibre", "k", 20480, "m",
                new BigDecimal("3.5"), new BigDecimal("71680"));
        assertEquals("20,480 m", BillOfMaterials.quantityText(fibre));
        assertEquals("/m", BillOfMaterials.perUnit(fibre));
        BillOfMaterials.Line nics = new BillOfMaterials.Line(BillOfMaterials.Category.NIC, "NIC", "k", 4096, "pcs",
                new BigDecimal("900"), new BigDecimal("3686400"));
        assertEquals("4,096", BillOfMaterials.quantityText(nics));
        assertEquals("", BillOfMaterials.perUnit(nics));
    }

    @Test
    void theAnalysisTextShowsThem() throws Exception {
        Fabric f = FabricFiles.load(Path.of("resources/examples/classic-leaf-spine.json"));
        String text = AnalysisText.of(f, "example", FabricAnalysis.run(f,
                FabricAnalysis.Options.defaults(PriceBookFile.sample())), 5);
        String bom = text.substring(text.indexOf("Bill of materials"));
        bom = bom.substring(0, bom.indexOf("total"));
        assertTrue(bom.contains("240 m"), bom);
        assertTrue(bom.contains("3.50/m"), bom);
        assertTrue(bom.contains("38,000.00"), bom);
        assertFalse(bom.contains("38000.00"), bom);
    }
}
