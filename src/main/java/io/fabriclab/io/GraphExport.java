package io.fabriclab.io;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jgrapht.nio.Attribute;
import org.jgrapht.nio.AttributeType;
import org.jgrapht.nio.DefaultAttribute;
import org.jgrapht.nio.dot.DOTExporter;
import org.jgrapht.nio.graphml.GraphMLExporter;
import org.jgrapht.nio.graphml.GraphMLExporter.AttributeCategory;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;

/**
 * Exports a fabric's graph for other tools: GraphML (yEd, Gephi, NetworkX) and Graphviz DOT,
 * through JGraphT's exporters. Devices carry role, model, unit, rail, pod and GPU count; links
 * their ports, speed, cable length and type, and state. Export only: neither format holds ports
 * or QoS well enough to read a fabric back.
 */
public final class GraphExport {
    private GraphExport() {
    }

    public static String toGraphMl(Fabric f) {
        GraphMLExporter<Device, Link> ex = new GraphMLExporter<>(Device::id);
        ex.setEdgeIdProvider(Link::id);
        ex.registerAttribute("role", AttributeCategory.NODE, AttributeType.STRING);
        ex.registerAttribute("model", AttributeCategory.NODE, AttributeType.STRING);
        ex.registerAttribute("unit", AttributeCategory.NODE, AttributeType.INT);
        ex.registerAttribute("rail", AttributeCategory.NODE, AttributeType.INT);
        ex.registerAttribute("pod", AttributeCategory.NODE, AttributeType.INT);
        ex.registerAttribute("gpus", AttributeCategory.NODE, AttributeType.INT);
        ex.registerAttribute("portA", AttributeCategory.EDGE, AttributeType.STRING);
        ex.registerAttribute("portB", AttributeCategory.EDGE, AttributeType.STRING);
        ex.registerAttribute("speedGbps", AttributeCategory.EDGE, AttributeType.INT);
        ex.registerAttribute("cableLengthM", AttributeCategory.EDGE, AttributeType.DOUBLE);
        ex.registerAttribute("cableType", AttributeCategory.EDGE, AttributeType.STRING);
        ex.registerAttribute("state", AttributeCategory.EDGE, AttributeType.STRING);
        ex.setVertexAttributeProvider(GraphExport::deviceAttributes);
        ex.setEdgeAttributeProvider(GraphExport::linkAttributes);
        StringWriter w = new StringWriter();
        ex.exportGraph(f.graph(), w);
        return w.toString();
    }

    public static String toDot(Fabric f) {
        DOTExporter<Device, Link> ex = new DOTExporter<>(d -> quoted(d.id()));
        ex.setGraphIdProvider(() -> quoted(f.name()));
        ex.setVertexAttributeProvider(d -> {
            Map<String, Attribute> m = deviceAttributes(d);
            m.put("label", DefaultAttribute.createAttribute(d.id()));
            m.put("shape", DefaultAttribute.createAttribute(d.role().isSwitch() ? "box" : "ellipse"));
            return m;
        });
        ex.setEdgeAttributeProvider(l -> {
            Map<String, Attribute> m = linkAttributes(l);
            m.put("label", DefaultAttribute.createAttribute(l.speedGbps() + "G"));
            if (!l.isUp()) {
                m.put("style", DefaultAttribute.createAttribute("dashed"));
            }
            return m;
        });
        StringWriter w = new StringWriter();
        ex.exportGraph(f.graph(), w);
        return w.toString();
    }

    public static void saveGraphMl(Fabric f, Path file) throws IOException {
        AtomicFiles.write(file, toGraphMl(f).getBytes(StandardCharsets.UTF_8));
    }

    public static void saveDot(Fabric f, Path file) throws IOException {
        AtomicFiles.write(file, toDot(f).getBytes(StandardCharsets.UTF_8));
    }

    private static Map<String, Attribute> deviceAttributes(Device d) {
        Map<String, Attribute> m = new LinkedHashMap<>();
        m.put("role", DefaultAttribute.createAttribute(d.role().jsonName()));
        if (d.model() != null) {
            m.put("model", DefaultAttribute.createAttribute(d.model()));
        }
        if (d.unit() != null) {
            m.put("unit", DefaultAttribute.createAttribute(d.unit()));
        }
        if (d.rail() != null) {
            m.put("rail", DefaultAttribute.createAttribute(d.rail()));
        }
        if (d.pod() != null) {
            m.put("pod", DefaultAttribute.createAttribute(d.pod()));
        }
        if (d.gpus() > 0) {
            m.put("gpus", DefaultAttribute.createAttribute(d.gpus()));
        }
        return m;
    }

    private static Map<String, Attribute> linkAttributes(Link l) {
        Map<String, Attribute> m = new LinkedHashMap<>();
        m.put("portA", DefaultAttribute.createAttribute(l.a().ref()));
        m.put("portB", DefaultAttribute.createAttribute(l.b().ref()));
        m.put("speedGbps", DefaultAttribute.createAttribute(l.speedGbps()));
        m.put("cableLengthM", DefaultAttribute.createAttribute(l.cableLengthM()));
        m.put("cableType", DefaultAttribute.createAttribute(l.cableType().jsonName()));
        m.put("state", DefaultAttribute.createAttribute(l.state().jsonName()));
        return m;
    }

    /** A DOT ID in double quotes, which allows any text (ids like "leaf-1:eth1" are not bare DOT ids). */
    private static String quoted(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
