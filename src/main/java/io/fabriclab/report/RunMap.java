package io.fabriclab.report;

import java.util.ArrayList;
import java.util.Map;

import io.fabriclab.diagram.CongestionFrame;
import io.fabriclab.diagram.CongestionPainter;
import io.fabriclab.diagram.DiagramGeometry;
import io.fabriclab.diagram.DiagramStyle;
import io.fabriclab.diagram.FabricPainter;
import io.fabriclab.diagram.FoldGroup;
import io.fabriclab.diagram.Selection;
import io.fabriclab.diagram.SvgPainter;
import io.fabriclab.diagram.TieredLayout;
import io.fabriclab.diagram.Viewport;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.WredEcn;
import io.fabriclab.sim.QosResolver;
import io.fabriclab.sim.SimResults;

/**
 * A run drawn on the topology with the live view's congestion layer ({@link CongestionPainter}):
 * each link direction coloured by the peak depth of its egress queues against ECN Kmax (or PFC
 * XOFF when the class is not marked), the pause symbol where PFC paused it, ECN sparks by marking
 * rate, drop flashes, and the directions of a detected deadlock outlined. The same picture as the
 * editor's live view, summarised over the whole run.
 */
final class RunMap {
    static final int W = 1100;
    static final int H = 720;

    private RunMap() {
    }

    static String svg(ReportRun run, Fabric reportFabric) {
        Fabric fabric = run.scenario() != null ? run.scenario().fabric() : reportFabric;
        SimResults r = run.results();
        QosResolver qos = run.qos(fabric);
        Layout layout = fabric.layout().copy();
        new TieredLayout().placeMissing(fabric, layout);
        DiagramStyle style = new DiagramStyle();
        DiagramGeometry g = new DiagramGeometry(fabric, layout, style);
        Viewport vp = new Viewport();
        vp.fit(g.extent(), W, H, 24);
        FabricPainter.Options options = FabricPainter.Options.DEFAULT.withGrid(false).withLegend(false)
                .withLabels(fabric.devices().size() <= 80);
        SvgPainter svg = new SvgPainter(W, H);
        FabricPainter fp = new FabricPainter(style);
        fp.paint(svg, g, new Selection(), null, vp, W, H, options);
        Map<Device, FoldGroup> folded = fp.foldGroups(g, vp.scale(), options.fold());
        CongestionFrame.Directions dirs = new CongestionFrame.Directions(new ArrayList<>(fabric.links()));
        CongestionFrame f = new CongestionFrame(r.run().simulatedPs(), dirs);
        double us = Math.max(1e-9, r.run().simulatedPs() / 1e6);
        for (SimResults.QueueResult q : r.queues()) {
            int d = direction(fabric, dirs, q.port());
            if (d < 0) {
                continue;
            }
            Port p = fabric.port(q.port());
            double ref = reference(qos.qosFor(p), q.trafficClass());
            double fill = ref > 0 ? Math.min(1.0, q.maxBytes() / ref) : 0;
            f.load[d] = Double.isNaN(f.load[d]) ? fill : Math.max(f.load[d], fill);
            f.queueBytes[d] = Math.max(f.queueBytes[d], q.maxBytes());
            f.marksPerUs[d] += q.ecnMarked() / us;
            f.dropFlash[d] += q.dropsBuffer() + q.dropsHeadroomOverflow() + q.dropsWatchdog() + q.dropsLinkDown();
        }
        for (SimResults.PfcResult p : r.pfc()) {
            int d = direction(fabric, dirs, p.port());
            if (d >= 0 && p.pausedPs() > 0) {
                f.paused[d] = true;
            }
        }
        for (SimResults.DeadlockResult dl : r.deadlocks()) {
            for (String port : dl.ports()) {
                int d = direction(fabric, dirs, port);
                if (d >= 0) {
                    f.deadlock[d] = true;
                }
            }
        }
        if (run.scenario() != null) {
            run.scenario().failures().forEach(lf -> {
                if (lf.degradedGbps() == 0) {
                    int i = dirs.of(lf.link(), true);
                    if (i >= 0) {
                        f.down[i] = true;
                        f.down[i + 1] = true;
                    }
                }
            });
        }
        new CongestionPainter(style).paint(svg, g, folded, vp, W, H, f, 0, CongestionPainter.ColourBy.QUEUE,
                CongestionPainter.Legend.RESULTS);
        return svg.toSvg();
    }

    /** The bytes a full-colour queue holds: ECN Kmax of its class, else the PFC XOFF, else 1 MB. */
    private static double reference(QosProfile q, int tc) {
        if (q != null) {
            WredEcn c = q.ecn() == null ? null : q.ecn().forClass(tc);
            if (c != null) {
                return c.kmaxBytes();
            }
            if (q.pfc() != null && q.pfc().enabled()) {
                return q.pfc().xoffBytes();
            }
        }
        return 1_000_000;
    }

    /** The direction leaving a port ("device:port"), or -1. */
    private static int direction(Fabric fabric, CongestionFrame.Directions dirs, String portRef) {
        Port p = fabric.port(portRef);
        if (p == null) {
            return -1;
        }
        Link l = fabric.linkAt(p);
        return l == null ? -1 : dirs.of(l, l.a() == p);
    }
}
