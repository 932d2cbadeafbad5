package io.fabriclab.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.util.HashMap;
import java.util.Map;

import org.jgrapht.Graph;
import org.jgrapht.graph.DefaultEdge;
import org.jgrapht.graph.builder.GraphTypeBuilder;
import org.jgrapht.nio.Attribute;
import org.jgrapht.nio.dot.DOTImporter;
import org.jgrapht.nio.graphml.GraphMLImporter;
import org.jgrapht.util.SupplierUtil;
import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;

/** Exports are checked by reading them back with JGraphT's own importers. */
class GraphExportTest {

    private static Graph<String, DefaultEdge> emptyMultigraph() {
        return GraphTypeBuilder.<String, DefaultEdge>undirected().allowingMultipleEdges(true).allowingSelfLoops(false)
                .vertexSupplier(SupplierUtil.createStringSupplier()).edgeSupplier(SupplierUtil.DEFAULT_EDGE_SUPPLIER)
                .buildGraph();
    }

    @Test
    void graphMlHasEveryDeviceAndLinkWithTheirAttributes() {
        Fabric f = SampleFabrics.everyField();
        Graph<String, DefaultEdge> g = emptyMultigraph();
        Map<String, Map<String, Attribute>> vattrs = new HashMap<>();
        Map<DefaultEdge, Map<String, Attribute>> eattrs = new HashMap<>();
        GraphMLImporter<String, DefaultEdge> im = new GraphMLImporter<>();
        im.setVertexFactory(id -> id);
        im.addVertexAttributeConsumer((p, a) -> vattrs.computeIfAbsent(p.getFirst(), k -> new HashMap<>()).put(p.getSecond(), a));
        im.addEdgeAttributeConsumer((p, a) -> eattrs.computeIfAbsent(p.getFirst(), k -> new HashMap<>()).put(p.getSecond(), a));
        String xml = GraphExport.toGraphMl(f);
        im.importGraph(g, new StringReader(xml));
        assertTrue(xml.contains("<edge id=\"g2-rail0\""), "link ids are GraphML edge ids");

        assertEquals(5, g.vertexSet().size(), "spine1, leaf1, leaf2, gpu1, gpu2");
        assertEquals(6, g.edgeSet().size(), "two parallel leaf1-spine1 links count twice");
        assertEquals("spine", vattrs.get("spine1").get("role").getValue());
        assertEquals("1", vattrs.get("leaf2").get("rail").getValue());
        assertEquals("8", vattrs.get("gpu2").get("gpus").getValue());
        DefaultEdge rail0 = eattrs.entrySet().stream()
                .filter(e -> e.getValue().get("portA").getValue().equals("gpu2:nic0")).findFirst().orElseThrow().getKey();
        assertEquals("200", eattrs.get(rail0).get("speedGbps").getValue());
        assertEquals("dac", eattrs.get(rail0).get("cableType").getValue());
        assertEquals("1.0", eattrs.get(rail0).get("cableLengthM").getValue());
    }

    @Test
    void dotQuotesIdsAndCarriesTheSameAttributes() {
        Fabric f = SampleFabrics.everyField();
        String dot = GraphExport.toDot(f);
        assertTrue(dot.startsWith("strict graph \"lab-2x1\" {") || dot.startsWith("graph \"lab-2x1\" {"), dot.substring(0, 40));
        Graph<String, DefaultEdge> g = emptyMultigraph();
        Map<String, Map<String, Attribute>> vattrs = new HashMap<>();
        DOTImporter<String, DefaultEdge> im = new DOTImporter<>();
        im.setVertexFactory(id -> id);
        im.addVertexAttributeConsumer((p, a) -> vattrs.computeIfAbsent(p.getFirst(), k -> new HashMap<>()).put(p.getSecond(), a));
        im.importGraph(g, new StringReader(dot));
        assertEquals(5, g.vertexSet().size());
        assertEquals(6, g.edgeSet().size());
        assertEquals("leaf", vattrs.get("leaf1").get("role").getValue());
        assertEquals("box", vattrs.get("leaf1").get("shape").getValue());
        assertTrue(dot.contains("style=\"dashed\""), "the DOWN link is dashed");
    }
}
