package io.fabriclab.diagram;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;

/** The whole fabric as an SVG picture, fitted to a page: what the report embeds and Export SVG writes. */
public final class FabricSvg {
    private FabricSvg() {
    }

    /**
     * Draws the fabric at its saved positions (devices without one get the tiered layout's) fitted
     * into width x height with a 24 px margin.
     */
    public static String render(Fabric fabric, double width, double height, FabricPainter.Options options) {
        Layout layout = fabric.layout().copy();
        new TieredLayout().placeMissing(fabric, layout);
        DiagramStyle style = new DiagramStyle();
        DiagramGeometry g = new DiagramGeometry(fabric, layout, style);
        Viewport vp = new Viewport();
        vp.fit(g.extent(), width, height, 24);
        SvgPainter svg = new SvgPainter(width, height);
        new FabricPainter(style).paint(svg, g, new Selection(), null, vp, width, height, options);
        return svg.toSvg();
    }
}
