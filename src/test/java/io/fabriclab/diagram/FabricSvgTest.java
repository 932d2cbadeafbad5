package io.fabriclab.diagram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.LinkState;

class FabricSvgTest {

    private static Document parse(String svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void theClassicFabricBecomesWellFormedSvgWithEveryDeviceAndLink() throws Exception {
        Fabric f = TestFabrics.classic();
        f.findLink("leaf1:eth9").setState(LinkState.DOWN);
        // No labels: one text per device name plus the legend's texts only.
        String svg = FabricSvg.render(f, 2400, 900, FabricPainter.Options.DEFAULT.withGrid(false).withLabels(false));
        Document doc = parse(svg);
        Element root = doc.getDocumentElement();
        assertEquals("svg", root.getLocalName());
        assertEquals("2400", root.getAttribute("width"));
        DiagramStyle style = new DiagramStyle();
        // 2 spines + 4 leaves + 32 servers are filled rounded rectangles in their role colour; the
        // legend's 26 px role swatches are narrower than any device box at this size (48 units x ~1.2).
        int deviceBoxes = 0;
        NodeList rects = doc.getElementsByTagName("rect");
        for (int i = 0; i < rects.getLength(); i++) {
            Element r = (Element) rects.item(i);
            String fill = r.getAttribute("fill");
            for (var role : io.fabriclab.model.DeviceRole.values()) {
                if (fill.equals(style.fill(role).toHexRgb()) && r.hasAttribute("rx")
                        && Double.parseDouble(r.getAttribute("width")) > 30) {
                    deviceBoxes++;
                }
            }
        }
        assertEquals(38, deviceBoxes);
        // 40 links plus the legend's two speed samples and its down-link sample.
        NodeList lines = doc.getElementsByTagName("line");
        assertEquals(40 + 3, lines.getLength());
        List<String> dashed = new ArrayList<>();
        for (int i = 0; i < lines.getLength(); i++) {
            Element l = (Element) lines.item(i);
            if (l.hasAttribute("stroke-dasharray")) {
                dashed.add(l.getAttribute("stroke"));
            }
        }
        assertEquals(List.of(DiagramStyle.LINK_DOWN.toHexRgb(), DiagramStyle.LINK_DOWN.toHexRgb()), dashed,
                "the down link and its legend sample are dashed red");
        assertTrue(svg.contains(">spine1</text>"));
    }

    @Test
    void textIsEscapedAndNumbersUseAPoint() throws Exception {
        SvgPainter p = new SvgPainter(10, 10);
        p.setFont(12.5, false);
        p.text("a<b & \"c\"", 1.005, 2, TextAnchor.MIDDLE);
        p.save();
        p.translate(10, 0);
        p.scale(2);
        p.setStroke(new Rgba(0, 0, 0, 128), 1.5);
        p.line(0, 0, 1, 1);
        p.restore();
        String svg = p.toSvg();
        parse(svg);
        assertTrue(svg.contains("a&lt;b &amp; &quot;c&quot;"), svg);
        assertTrue(svg.contains("font-size=\"12.5\""), svg);
        // Scaled by 2 after a translation of 10: (0,0)-(1,1) lands at (10,0)-(12,2), width 3.
        assertTrue(svg.contains("<line x1=\"10\" y1=\"0\" x2=\"12\" y2=\"2\" stroke=\"#000000\" stroke-width=\"3\""
                + " stroke-opacity=\"0.5\"/>"), svg);
    }
}
