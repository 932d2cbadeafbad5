package io.fabriclab.counters;

import java.util.HashMap;
import java.util.Map;

import io.fabriclab.diagram.CongestionFrame;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.WredEcn;
import io.fabriclab.sim.QosResolver;

/**
 * Per-port figures (measured, simulated or their difference) as a picture of the live view's
 * congestion layer ({@link CongestionFrame}, drawn by diagram.CongestionPainter): for the direction
 * leaving port A toward port B, the pause mark where A received PFC frames, B sent them or A's egress
 * was held paused; ECN sparks by A's egress marking rate (or, toward a NIC, the marked packets the NIC
 * received); CNPs by the CNPs A's NIC sent or B's NIC handled; a drop flash with the drops counted
 * over the interval; the colour by A's queue watermark against the class's ECN Kmax (else PFC XOFF,
 * else 1 MB, as the report's run map); moving traffic by A's transmitted bytes against the line rate.
 */
public final class CountersFrame {

    /** Which figures a picture shows. */
    public enum View {
        MEASURED("Measured"), SIMULATED("Simulated"), DIFFERENCE("Difference");

        public final String label;

        View(String label) {
            this.label = label;
        }
    }

    private CountersFrame() {
    }

    /** The figures of {@code view}: measured, simulated, or |measured − simulated| per port. */
    public static Map<String, PortFigures> figures(View view, Measured m, Map<String, PortFigures> sim) {
        Map<String, PortFigures> out = new HashMap<>();
        if (view == View.SIMULATED) {
            return sim == null ? out : sim;
        }
        for (String p : m.ports().keySet()) {
            PortFigures meas = m.figures(p);
            if (view == View.MEASURED) {
                out.put(p, meas);
            } else if (sim != null) {
                out.put(p, PortFigures.absDiff(meas, sim.getOrDefault(p, PortFigures.NONE)));
            }
        }
        return out;
    }

    /** The picture of {@code figures} over {@code seconds} (the interval the rates were measured over). */
    public static CongestionFrame frame(Fabric fabric, CongestionFrame.Directions dirs, Map<String, PortFigures> figures,
                                        double seconds) {
        CongestionFrame f = new CongestionFrame(Math.round(seconds * 1e12), dirs);
        QosResolver qos = QosResolver.of(fabric);
        for (Link l : dirs.links()) {
            for (int side = 0; side < 2; side++) {
                Port a = side == 0 ? l.a() : l.b();
                Port b = l.opposite(a);
                int d = dirs.of(l, side == 0);
                if (d < 0) {
                    continue;
                }
                PortFigures pa = figures.getOrDefault(a.ref(), PortFigures.NONE);
                PortFigures pb = figures.getOrDefault(b.ref(), PortFigures.NONE);
                f.down[d] = !l.isUp();
                f.paused[d] = pa.pfcRxPerS() > 0 || pb.pfcTxPerS() > 0 || pa.pausedShare() > 0;
                boolean toNic = !b.device().role().isSwitch();
                double marks = a.device().role().isSwitch() ? pa.ecnPerS() : Double.NaN;
                if (toNic && !(marks > 0) && pb.ecnPerS() > 0) {
                    marks = pb.ecnPerS();
                }
                f.marksPerUs[d] = marks > 0 ? marks / 1e6 : 0;
                double cnps = Math.max(nz(pa.cnpSentPerS()), nz(pb.cnpHandledPerS()));
                f.cnpsPerUs[d] = cnps / 1e6;
                double drops = nz(pa.dropsPerS()) * Math.max(seconds, 1e-9);
                f.dropFlash[d] = drops > 0 ? Math.max(1, Math.round(drops)) : 0;
                if (pa.watermarkBytes() > 0 || pa.watermarkBytes() == 0) {
                    double ref = reference(qos.qosFor(a));
                    f.load[d] = Math.min(1, pa.watermarkBytes() / ref);
                    f.queueBytes[d] = Math.round(pa.watermarkBytes());
                }
                if (pa.txBytesPerS() > 0) {
                    f.carrying[d] = Math.min(1, pa.txBytesPerS() * 8 / Math.max(1, l.rateBps()));
                }
            }
        }
        return f;
    }

    private static double nz(double v) {
        return Double.isNaN(v) ? 0 : v;
    }

    /** The bytes a full-colour queue holds: the lowest ECN Kmax of the port's classes, else PFC XOFF, else 1 MB. */
    static double reference(QosProfile q) {
        if (q != null) {
            if (q.ecn() != null) {
                double min = Double.MAX_VALUE;
                for (int tc = 0; tc < 8; tc++) {
                    WredEcn c = q.ecn().forClass(tc);
                    if (c != null && c.kmaxBytes() > 0) {
                        min = Math.min(min, c.kmaxBytes());
                    }
                }
                if (min < Double.MAX_VALUE) {
                    return min;
                }
            }
            if (q.pfc() != null && q.pfc().enabled() && q.pfc().xoffBytes() > 0) {
                return q.pfc().xoffBytes();
            }
        }
        return 1_000_000;
    }
}
