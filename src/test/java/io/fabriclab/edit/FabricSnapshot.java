package io.fabriclab.edit;

import java.util.ArrayList;
import java.util.List;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;

/**
 * Everything an edit can touch, as text lines in the fabric's own order (devices, ports, links,
 * positions, the graph's vertex and per-vertex edge order), to compare a fabric before and after undo.
 */
public final class FabricSnapshot {
    private FabricSnapshot() {
    }

    public static List<String> of(Fabric f) {
        List<String> lines = new ArrayList<>();
        for (Device d : f.devices()) {
            StringBuilder sb = new StringBuilder("device " + d.id() + " " + d.role() + " model=" + d.model() + " unit="
                    + d.unit() + " rail=" + d.rail() + " pod=" + d.pod() + " gpus=" + d.gpusOverride() + " qos="
                    + d.qosProfile() + " labels=" + d.labels());
            for (Port p : d.ports()) {
                Link l = f.linkAt(p);
                sb.append(" | ").append(p.name()).append(':').append(p.speedGbps()).append(":nic").append(p.nic())
                        .append(":qos").append(p.qosProfile()).append("->").append(l == null ? "free" : l.id());
            }
            lines.add(sb.toString());
        }
        for (Link l : f.links()) {
            lines.add("link " + l.id() + " " + l.a().ref() + " " + l.b().ref() + " " + l.speedGbps() + "G "
                    + l.cableLengthM() + "m " + l.cableType() + " " + l.state());
        }
        for (var e : f.layout().positions().entrySet()) {
            Layout.Point p = e.getValue();
            lines.add("pos " + e.getKey() + " " + p.x() + "," + p.y());
        }
        lines.add("graph " + f.graph().vertexSet().size() + " vertices " + f.graph().edgeSet().size() + " edges");
        for (Device d : f.graph().vertexSet()) {
            lines.add("vertex " + d.id() + " edges " + f.graph().edgesOf(d));
        }
        return lines;
    }
}
