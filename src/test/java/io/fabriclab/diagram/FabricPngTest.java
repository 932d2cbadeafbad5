package io.fabriclab.diagram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;

/** Export PNG draws the whole fabric at the chosen scale, not the part the editor shows. */
class FabricPngTest {
    private final DiagramStyle style = new DiagramStyle();

    @Test
    void theWholeFabricAtTwiceTheScaleIsTwiceAsLargePlusTheMargins() throws Exception {
        Fabric f = TestFabrics.classic();
        f.layout().positions().putAll(new TieredLayout().layout(f).positions());
        Bounds extent = new DiagramGeometry(f, f.layout(), style).extent();
        // size = ceil(extent x scale) + 2 x 24 px on each axis, and 160 px below for the legend.
        int[] one = FabricPng.size(extent, 1);
        assertEquals((int) Math.ceil(extent.width()) + 48, one[0]);
        assertEquals((int) Math.ceil(extent.height()) + 48 + FabricPng.LEGEND_PX, one[1]);
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(FabricPng.render(f, 2, style,
                FabricPainter.Options.DEFAULT)));
        assertEquals((int) Math.ceil(extent.width() * 2) + 48, img.getWidth());
        assertEquals((int) Math.ceil(extent.height() * 2) + 48 + FabricPng.LEGEND_PX, img.getHeight());
        // Every device is drawn: the pixel at each device's centre is not the background.
        int bg = style.background().r() << 16 | style.background().g() << 8 | style.background().b();
        Layout l = f.layout();
        double left = img.getWidth() / 2.0 - extent.centreX() * 2;
        double top = (img.getHeight() - FabricPng.LEGEND_PX) / 2.0 - extent.centreY() * 2;
        for (var d : f.devices()) {
            Layout.Point p = l.position(d.id());
            int rgb = img.getRGB((int) (left + p.x() * 2), (int) (top + p.y() * 2)) & 0xffffff;
            assertTrue(rgb != bg, d.id() + " drawn");
        }
    }

    @Test
    void aPictureThatWouldPassTheLimitIsDrawnSmallerAndSaysSo() {
        // 100,000 x 50,000 world units at scale 1 would be 5 Gpx: the scale drops until it fits.
        Bounds huge = new Bounds(0, 0, 100_000, 50_000);
        double s = FabricPng.fittedScale(huge, 1);
        assertTrue(s < 1);
        int[] px = FabricPng.size(huge, s);
        assertTrue((long) px[0] * px[1] <= FabricPng.MAX_PIXELS + 2L * (px[0] + px[1]), px[0] + " x " + px[1]);
        assertEquals(2.0, FabricPng.fittedScale(new Bounds(0, 0, 1_000, 500), 2), 0);
    }
}
