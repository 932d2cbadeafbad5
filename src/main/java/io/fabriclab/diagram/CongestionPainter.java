package io.fabriclab.diagram;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.fabriclab.model.Device;
import io.fabriclab.model.Link;

/**
 * Draws a {@link CongestionFrame} over a fabric painted by {@link FabricPainter}: both directions
 * of every link side by side (each on the right-hand side of its travel), coloured and widened by
 * queue depth or utilisation (an idle direction keeps the link's own colour); a violet pause
 * symbol at the sender of every direction PFC pauses, with violet ticks marching upstream along
 * it (the way PAUSE frames travel, so a storm is seen spreading); an orange line and exclamation
 * disc where the PFC watchdog declared the queue stormed; yellow ECN sparks running downstream,
 * more of them for a higher marking rate; small white squares for CNPs running back along the
 * flows' reverse paths toward the senders they throttle; a red flash with the count where packets were dropped;
 * a thick black dashed outline around the directions of a deadlock cycle; red dashes and a cross
 * on failed links; a green halo on the selected flow's path and a magenta one on the selected
 * collective's flows; a ring inside each server's box while its GPUs use NVLink, on the load
 * scale by the share of its NVLink bandwidth; and a legend of all of these, always on screen (top right). Folded
 * servers: their links merge into one line pair per bundle showing the worst of its directions.
 * Toolkit-free: the live view, replays and the report draw through it.
 */
public final class CongestionPainter {

    /** What the colour means. */
    public enum ColourBy {
        QUEUE("queue, % of Kmax or XOFF (the larger)"),
        UTILISATION("utilisation, % of the line rate");

        private final String legend;

        ColourBy(String legend) {
            this.legend = legend;
        }

        public String legend() {
            return legend;
        }
    }

    /**
     * Which legend to draw. A picture made from a results file (the report) has no watchdog storms,
     * CNPs travelling back or selection, so its legend leaves those rows out: a legend explains only
     * marks the picture can show.
     */
    public enum Legend {
        /** No legend; RESULTS: a packet run's marks; LIVE: with the live view's rows; FLOW: a flow-level run's (utilisation only). */
        NONE, RESULTS, LIVE, FLOW
    }

    /** What one paint drew (tests and the benchmark read it); {@code scaleUpDrawn}: NVLink marks inside server boxes. */
    public record Stats(int directionsDrawn, int pausedDrawn, int sparksDrawn, int dropsDrawn, boolean legendDrawn,
                        int scaleUpDrawn) {
        public Stats(int directionsDrawn, int pausedDrawn, int sparksDrawn, int dropsDrawn, boolean legendDrawn) {
            this(directionsDrawn, pausedDrawn, sparksDrawn, dropsDrawn, legendDrawn, 0);
        }
    }

    /** The legend's name for the NVLink mark. */
    public static final String NVLINK_BUSY = "NVLink busy inside the server";
    /** Below this share of its NVLink bandwidth a server shows no mark (as an idle link keeps its own colour). */
    public static final double SCALE_UP_IDLE = 0.01;

    /** Legend box size, in pixels; it sits {@link #LEGEND_MARGIN} px from the top right corner. */
    public static final double LEGEND_WIDTH = 232;
    public static final double LEGEND_MARGIN = 12;

    private final DiagramStyle style;
    private DiagramGeometry cachedGeometry;
    private Map<Device, FoldGroup> cachedFolded;
    private CongestionFrame.Directions cachedDirections;
    private List<Bundle> bundles;

    /** Directions drawn as one pair of lines: a single link, or a bundle into a fold group. */
    private record Bundle(Bounds first, Bounds second, int[] forward, int[] reverse, boolean folded) {
    }

    public CongestionPainter(DiagramStyle style) {
        this.style = style;
    }

    /** What the legend calls the pause mark: PFC's pause by default; a transport's own hold otherwise. */
    private String pausedLabel = PFC_PAUSED;
    public static final String PFC_PAUSED = "PFC paused (ticks run upstream)";

    public String pausedLabel() {
        return pausedLabel;
    }

    /** Names the pause mark in the legend (InfiniBand's credit stall, Ultra Ethernet's trimming). */
    public void setPausedLabel(String label) {
        this.pausedLabel = label == null ? PFC_PAUSED : label;
    }

    /**
     * Paints the frame. {@code folded} is the painter's current fold map
     * ({@link FabricPainter#foldGroups}); {@code phaseSeconds} drives the animation (wall time).
     */
    public Stats paint(Painter p, DiagramGeometry g, Map<Device, FoldGroup> folded, Viewport vp, double w,
                       double h, CongestionFrame f, double phaseSeconds, ColourBy colourBy, Legend legend) {
        prepare(g, folded, f.directions);
        Bounds visible = vp.visibleWorld(w, h).grow(20 / vp.scale());
        int drawn = 0;
        int pausedDrawn = 0;
        int sparks = 0;
        int drops = 0;
        p.save();
        p.setDash();
        List<double[]> deadlockLines = new ArrayList<>();
        for (Bundle b : bundles) {
            Segment seg = DiagramGeometry.between(b.first(), b.second());
            if (!seg.bounds().intersects(visible)) {
                continue;
            }
            double x1 = vp.toScreenX(seg.x1());
            double y1 = vp.toScreenY(seg.y1());
            double x2 = vp.toScreenX(seg.x2());
            double y2 = vp.toScreenY(seg.y2());
            double len = Math.hypot(x2 - x1, y2 - y1);
            if (len < 2) {
                continue;
            }
            for (int side = 0; side < 2; side++) {
                int[] dirs = side == 0 ? b.forward() : b.reverse();
                // Direction from (sx, sy) (sender) to (tx, ty) (receiver).
                double sx = side == 0 ? x1 : x2;
                double sy = side == 0 ? y1 : y2;
                double tx = side == 0 ? x2 : x1;
                double ty = side == 0 ? y2 : y1;
                Agg a = aggregate(f, dirs, colourBy == ColourBy.UTILISATION ? f.directions : null);
                if (a == null) {
                    continue;
                }
                double ux = (tx - sx) / len;
                double uy = (ty - sy) / len;
                // Right-hand side of travel (screen y grows downwards).
                double nx = -uy;
                double ny = ux;
                double width = Double.isNaN(a.load) ? 1.5 : 1.5 + 3.5 * clamp01(a.load);
                double off = width / 2 + 1.2;
                double ax = sx + nx * off;
                double ay = sy + ny * off;
                double bx = tx + nx * off;
                double by = ty + ny * off;
                if (a.collective) {
                    p.setStroke(DiagramStyle.COLLECTIVE_PATH.withAlpha(120), width + (a.highlighted ? 13 : 7));
                    p.line(ax, ay, bx, by);
                }
                if (a.highlighted) {
                    p.setStroke(DiagramStyle.FLOW_PATH.withAlpha(170), width + 7);
                    p.line(ax, ay, bx, by);
                }
                if (a.deadlock) {
                    deadlockLines.add(new double[] {ax, ay, bx, by, width});
                }
                if (a.down) {
                    p.setStroke(DiagramStyle.LINK_DOWN, 2);
                    p.setDash(6, 4);
                    p.line(ax, ay, bx, by);
                    p.setDash();
                    if (side == 0) {
                        double mx = (x1 + x2) / 2;
                        double my = (y1 + y2) / 2;
                        p.setStroke(DiagramStyle.LINK_DOWN, 2.5);
                        p.line(mx - 5, my - 5, mx + 5, my + 5);
                        p.line(mx - 5, my + 5, mx + 5, my - 5);
                    }
                    drawn++;
                    continue;
                }
                // An idle direction (empty queue, or no traffic) keeps the link's own colour: fewer
                // lines to rasterise, and what is coloured is what is loaded.
                if (!Double.isNaN(a.load) && a.load > 0) {
                    p.setStroke(style.utilisationColour(a.load), width);
                    p.line(ax, ay, bx, by);
                    drawn++;
                }
                int dots = trafficDots(a.carrying);
                if (dots > 0 && !a.paused) {
                    // Traffic on the wire: dots travel from sender to receiver, more of them at a
                    // higher share of the line rate, so a run without queues does not look idle.
                    double seed = (dirs[0] * 0.7548776662) % 1.0;
                    p.setFill(style.utilisationColour(Math.max(0.45, clamp01(a.carrying))));
                    p.setStroke(new Rgba(255, 255, 255, 230), 0.8);
                    for (int k = 0; k < dots; k++) {
                        double t = frac(seed + (double) k / dots + phaseSeconds * 0.35);
                        double px = ax + (bx - ax) * (0.06 + 0.88 * t);
                        double py = ay + (by - ay) * (0.06 + 0.88 * t);
                        p.fillCircle(px, py, 2.4);
                    }
                }
                if (a.paused) {
                    paintPause(p, ax, ay, bx, by, ux, uy, nx, ny, len, phaseSeconds);
                    pausedDrawn++;
                }
                if (a.stormed) {
                    paintStorm(p, ax, ay, bx, by, ux, uy, phaseSeconds);
                }
                int n = CongestionFrame.sparks(a.marksPerUs);
                if (n > 0) {
                    p.setFill(DiagramStyle.ECN_SPARK);
                    p.setStroke(DiagramStyle.ECN_SPARK_EDGE, 0.8);
                    double seed = (dirs[0] * 0.6180339887) % 1.0;
                    for (int k = 0; k < n; k++) {
                        double t = frac(seed + (double) k / n + phaseSeconds * 0.45);
                        double px = ax + (bx - ax) * (0.1 + 0.8 * t);
                        double py = ay + (by - ay) * (0.1 + 0.8 * t);
                        spark(p, px, py, 3.2);
                    }
                    sparks += n;
                }
                int cnps = CongestionFrame.sparks(a.cnpsPerUs);
                if (cnps > 0) {
                    // CNPs run along this direction's travel: back toward the senders they throttle.
                    double seed = (dirs[0] * 0.38196601125) % 1.0;
                    for (int k = 0; k < cnps; k++) {
                        double t = frac(seed + (double) k / cnps + phaseSeconds * 0.6);
                        cnpMark(p, ax + (bx - ax) * (0.1 + 0.8 * t), ay + (by - ay) * (0.1 + 0.8 * t));
                    }
                }
                if (a.drops > 0) {
                    double px = ax + ux * 16;
                    double py = ay + uy * 16;
                    double pulse = 0.5 + 0.5 * Math.sin(phaseSeconds * 2 * Math.PI * 3);
                    p.setFill(DiagramStyle.DROP.withAlpha((int) (140 + 115 * pulse)));
                    p.fillCircle(px, py, 6.5);
                    p.setStroke(new Rgba(255, 255, 255, 255), 1.6);
                    p.line(px - 3, py - 3, px + 3, py + 3);
                    p.line(px - 3, py + 3, px + 3, py - 3);
                    p.setFill(DiagramStyle.DROP);
                    p.setFont(11, true);
                    p.text(String.valueOf(a.drops), px + 9, py, TextAnchor.START);
                    drops++;
                }
            }
        }
        int scaleUp = paintScaleUp(p, g, folded, vp, visible, f);
        for (double[] d : deadlockLines) {
            p.setStroke(DiagramStyle.DEADLOCK, d[4] + 5);
            p.setDash(8, 5);
            p.line(d[0], d[1], d[2], d[3]);
            p.setDash();
        }
        if (legend != Legend.NONE) {
            paintLegend(p, w, colourBy, legend);
        }
        p.restore();
        return new Stats(drawn, pausedDrawn, sparks, drops, legend != Legend.NONE, scaleUp);
    }

    /**
     * The NVLink marks: inside the box of every server whose GPUs used NVLink since the previous
     * picture ({@link CongestionFrame#scaleUpBusy}), a ring just inside its outline (clear of the
     * label in the middle), coloured on the load scale by that share of its NVLink bandwidth and
     * wider for a larger share (1.5 to 3.5 px, as a link's line widens with its load); a folded
     * group shows the mean of its servers. Returns the marks drawn.
     */
    private int paintScaleUp(Painter p, DiagramGeometry g, Map<Device, FoldGroup> folded, Viewport vp, Bounds visible,
                             CongestionFrame f) {
        if (f.scaleUpBusy.isEmpty()) {
            return 0;
        }
        int drawn = 0;
        Map<FoldGroup, double[]> groups = new IdentityHashMap<>();
        for (Map.Entry<String, Double> e : f.scaleUpBusy.entrySet()) {
            Device d = g.fabric().device(e.getKey());
            if (d == null) {
                continue;
            }
            FoldGroup fg = folded.get(d);
            if (fg != null) {
                groups.computeIfAbsent(fg, k -> new double[1])[0] += e.getValue();
                continue;
            }
            Bounds b = g.box(d);
            if (b != null && b.intersects(visible) && scaleUpMark(p, vp, b, e.getValue())) {
                drawn++;
            }
        }
        for (Map.Entry<FoldGroup, double[]> e : groups.entrySet()) {
            FoldGroup fg = e.getKey();
            if (fg.bounds() != null && fg.bounds().intersects(visible)
                    && scaleUpMark(p, vp, fg.bounds(), e.getValue()[0] / Math.max(1, fg.serverCount()))) {
                drawn++;
            }
        }
        return drawn;
    }

    /** One NVLink mark in the box {@code b} (world units) for a share {@code u} of the NVLink bandwidth. */
    private boolean scaleUpMark(Painter p, Viewport vp, Bounds b, double u) {
        if (!(u >= SCALE_UP_IDLE)) {
            return false;
        }
        double x = vp.toScreenX(b.minX());
        double y = vp.toScreenY(b.minY());
        double bw = b.width() * vp.scale();
        double bh = b.height() * vp.scale();
        scaleUpMarkAt(p, x, y, bw, bh, u);
        return true;
    }

    private void scaleUpMarkAt(Painter p, double x, double y, double bw, double bh, double u) {
        double share = clamp01(u);
        Rgba colour = style.utilisationColour(share);
        Rgba halo = new Rgba(255, 255, 255, 235);
        if (bw < 10 || bh < 7) {
            p.setFill(colour);
            p.fillRect(x, y, Math.max(2, bw), Math.max(2, bh));
            p.setStroke(halo, 1);
            p.strokeRect(x, y, Math.max(2, bw), Math.max(2, bh));
            return;
        }
        // A ring just inside the box's outline, clear of the label in its middle: white under the
        // scale's blue, so both its light and its dark end read on a server's dark fill.
        double width = 1.5 + 2 * share;
        double inset = Math.min(1.5, bh / 10);
        double rx = x + inset + width / 2;
        double ry = y + inset + width / 2;
        double rw = bw - 2 * inset - width;
        double rh = bh - 2 * inset - width;
        double arc = Math.min(5, rh / 2);
        p.setStroke(halo, width + 1.6);
        p.strokeRoundRect(rx, ry, rw, rh, arc);
        p.setStroke(colour, width);
        p.strokeRoundRect(rx, ry, rw, rh, arc);
    }

    /** Dots a direction shows for its share of the line rate: none when idle (under 1 %), 1 to 4. */
    public static int trafficDots(double carrying) {
        if (!(carrying >= 0.01)) {
            return 0;
        }
        return 1 + (int) Math.min(3, Math.floor(carrying * 4));
    }

    /** The animated pause: violet ticks moving from receiver to sender, a pulsing pause symbol at the sender. */
    private static void paintPause(Painter p, double ax, double ay, double bx, double by, double ux, double uy,
                                   double nx, double ny, double len, double phase) {
        p.setStroke(DiagramStyle.PFC_PAUSE, 2.2);
        p.line(ax, ay, bx, by);
        double spacing = 16;
        double shift = (phase * 28) % spacing;
        for (double d = 22 + spacing - shift; d < len - 6; d += spacing) {
            double cx = ax + ux * d;
            double cy = ay + uy * d;
            p.line(cx - nx * 4.5 - ux * 2, cy - ny * 4.5 - uy * 2, cx + nx * 4.5 - ux * 2, cy + ny * 4.5 - uy * 2);
        }
        double r = 6.5 + 1.5 * Math.sin(phase * 2 * Math.PI * 1.2);
        double cx = ax + ux * 9;
        double cy = ay + uy * 9;
        pauseSymbol(p, cx, cy, r);
    }

    /**
     * A watchdog storm: an orange line along the direction and, at its sender, an orange disc with
     * a white exclamation mark inside a pulsing orange ring (the queue ignores the peer's pause).
     */
    private static void paintStorm(Painter p, double ax, double ay, double bx, double by, double ux, double uy,
                                   double phase) {
        p.setStroke(DiagramStyle.PFC_STORM, 2.2);
        p.line(ax, ay, bx, by);
        // Beyond the drop flash (16 px from the sender, count to its right): a stormed queue drops.
        double cx = ax + ux * 42;
        double cy = ay + uy * 42;
        p.setStroke(DiagramStyle.PFC_STORM.withAlpha(150), 2);
        p.strokeCircle(cx, cy, 10 + 2 * Math.sin(phase * 2 * Math.PI * 1.2));
        stormSymbol(p, cx, cy, 7);
    }

    private static void stormSymbol(Painter p, double cx, double cy, double r) {
        p.setFill(DiagramStyle.PFC_STORM);
        p.fillCircle(cx, cy, r);
        p.setFill(new Rgba(255, 255, 255, 255));
        double bw = Math.max(1.4, r * 0.3);
        p.fillRect(cx - bw / 2, cy - r * 0.62, bw, r * 0.8);
        p.fillCircle(cx, cy + r * 0.45, bw * 0.6);
    }

    private static void pauseSymbol(Painter p, double cx, double cy, double r) {
        p.setFill(DiagramStyle.PFC_PAUSE);
        p.fillCircle(cx, cy, r);
        p.setFill(new Rgba(255, 255, 255, 255));
        double bw = Math.max(1.2, r * 0.28);
        double bh = r * 1.1;
        p.fillRect(cx - r * 0.42, cy - bh / 2, bw, bh);
        p.fillRect(cx + r * 0.42 - bw, cy - bh / 2, bw, bh);
    }

    private static void cnpMark(Painter p, double x, double y) {
        p.setFill(DiagramStyle.CNP_FILL);
        p.fillRect(x - 2.5, y - 2.5, 5, 5);
        p.setStroke(DiagramStyle.CNP_EDGE, 1.2);
        p.strokeRect(x - 2.5, y - 2.5, 5, 5);
    }

    private static void spark(Painter p, double x, double y, double r) {
        p.fillCircle(x, y, r);
        p.strokeCircle(x, y, r);
    }

    private record Agg(double load, boolean paused, double marksPerUs, long drops, boolean down, boolean deadlock,
                       boolean highlighted, boolean stormed, boolean collective, double cnpsPerUs, double carrying) {
    }

    /**
     * The worst of a bundle's directions: highest load, any pause, summed marks and drops. With
     * {@code summed} (colour by utilisation) the load is the bundle's own instead: the bits its
     * directions carry over the bits they can carry ({@link FabricPainter#bundleLoad}'s rule, each
     * direction weighted by its link's speed), so a bundle of 32 links with one busy reads 1/32,
     * not full. A queue is no sum of queues: colour by queue keeps the deepest.
     */
    private static Agg aggregate(CongestionFrame f, int[] dirs, CongestionFrame.Directions summed) {
        if (dirs.length == 0) {
            return null;
        }
        double load = Double.NaN;
        boolean paused = false;
        double marks = 0;
        long drops = 0;
        boolean allDown = true;
        boolean deadlock = false;
        boolean hl = false;
        boolean stormed = false;
        boolean collective = false;
        double cnps = 0;
        double carrying = 0;
        double carried = 0;
        double capacity = 0;
        for (int d : dirs) {
            carrying = Math.max(carrying, f.carrying[d]);
            double l = f.load[d];
            if (!Double.isNaN(l) && (Double.isNaN(load) || l > load)) {
                load = l;
            }
            if (summed != null && !Double.isNaN(l) && d >= 0) {
                int speed = summed.links().get(d / 2).speedGbps();
                carried += l * speed;
                capacity += speed;
            }
            paused |= f.paused[d];
            marks += f.marksPerUs[d];
            drops += f.dropFlash[d];
            allDown &= f.down[d];
            deadlock |= f.deadlock[d];
            hl |= f.highlighted[d];
            stormed |= f.stormed[d];
            collective |= f.collective[d];
            cnps += f.cnpsPerUs[d];
        }
        if (summed != null && dirs.length > 1) {
            load = capacity == 0 ? Double.NaN : carried / capacity;
        }
        return new Agg(load, paused, marks, drops, allDown, deadlock, hl, stormed, collective, cnps, carrying);
    }

    private void prepare(DiagramGeometry g, Map<Device, FoldGroup> folded, CongestionFrame.Directions dirs) {
        if (g == cachedGeometry && folded == cachedFolded && dirs == cachedDirections) {
            return;
        }
        cachedGeometry = g;
        cachedFolded = folded;
        cachedDirections = dirs;
        Map<List<Object>, List<int[]>> groups = new LinkedHashMap<>();
        Map<Object, Bounds> boxes = new IdentityHashMap<>();
        for (Link l : dirs.links()) {
            Object a = folded.containsKey(l.a().device()) ? folded.get(l.a().device()) : l.a().device();
            Object b = folded.containsKey(l.b().device()) ? folded.get(l.b().device()) : l.b().device();
            if (a == b) {
                continue;
            }
            Bounds ba = a instanceof FoldGroup fg ? fg.bounds() : g.box((Device) a);
            Bounds bb = b instanceof FoldGroup fg ? fg.bounds() : g.box((Device) b);
            if (ba == null || bb == null) {
                continue;
            }
            boxes.put(a, ba);
            boxes.put(b, bb);
            boolean swap = System.identityHashCode(a) > System.identityHashCode(b);
            List<Object> k = swap ? List.of(b, a) : List.of(a, b);
            int fwd = dirs.of(l, !swap);
            int rev = dirs.of(l, swap);
            // Unfolded parallel links keep a pair of lines each (their directions would hide each other).
            List<Object> gk = a instanceof FoldGroup || b instanceof FoldGroup ? k : List.of(k.get(0), k.get(1), l);
            groups.computeIfAbsent(gk, x -> new ArrayList<>()).add(new int[] {fwd, rev});
        }
        List<Bundle> out = new ArrayList<>(groups.size());
        for (Map.Entry<List<Object>, List<int[]>> e : groups.entrySet()) {
            Object a = e.getKey().get(0);
            Object b = e.getKey().get(1);
            List<int[]> pairs = e.getValue();
            int[] fwd = new int[pairs.size()];
            int[] rev = new int[pairs.size()];
            for (int i = 0; i < pairs.size(); i++) {
                fwd[i] = pairs.get(i)[0];
                rev[i] = pairs.get(i)[1];
            }
            out.add(new Bundle(boxes.get(a), boxes.get(b), fwd, rev, a instanceof FoldGroup || b instanceof FoldGroup));
        }
        bundles = out;
    }

    // ----- legend ------------------------------------------------------------------------------

    /** Height of the live view's legend box in pixels. */
    public static double legendHeight() {
        return legendHeight(true);
    }

    /** Height of the legend box in pixels; {@code live}: with the rows only a live run draws. */
    public static double legendHeight(boolean live) {
        return 24 + (live ? 14 : 8) * 18;
    }

    private void paintLegend(Painter p, double w, ColourBy colourBy, Legend legend) {
        p.save();
        p.setDash();
        paintLegendBox(p, w - LEGEND_MARGIN - LEGEND_WIDTH, LEGEND_MARGIN, colourBy, legend == Legend.LIVE,
                legend == Legend.FLOW);
        p.restore();
    }

    /** Height of a flow-level run's legend: the utilisation scale, what it cannot show, a failed link. */
    public static double flowLegendHeight() {
        return 24 + 6 * 18;
    }

    /**
     * Paints the legend with its top left corner at ({@code x}, {@code y}): the editor's canvas
     * places it in a corner free of devices and links ({@link #paint} with {@link Legend#NONE}
     * draws the marks alone), so it never hides what the run shows.
     */
    public void paintLegendAt(Painter p, double x, double y, ColourBy colourBy, boolean live) {
        p.save();
        p.setDash();
        paintLegendBox(p, x, y, colourBy, live, false);
        p.restore();
    }

    private void paintLegendBox(Painter p, double x, double y, ColourBy colourBy, boolean live, boolean flow) {
        double row = 18;
        double lw = LEGEND_WIDTH;
        double lh = flow ? flowLegendHeight() : legendHeight(live);
        p.setFill(DiagramStyle.LEGEND_FILL);
        p.fillRoundRect(x, y, lw, lh, 8);
        p.setStroke(DiagramStyle.LEGEND_STROKE, 1);
        p.strokeRoundRect(x, y, lw, lh, 8);
        p.setFill(DiagramStyle.TEXT);
        p.setFont(11, true);
        p.text(live ? "Live congestion" : flow ? "Utilisation over the run" : "Congestion over the run", x + 10, y + 12,
                TextAnchor.START);
        p.setFont(10.5, false);
        double cy = y + 12 + row;
        double tx = x + 48;
        // The load scale with its numbers: what each colour (and width) means, 0 to 100 %.
        p.setFill(DiagramStyle.TEXT);
        p.text(colourBy.legend(), x + 10, cy, TextAnchor.START);
        cy += row;
        paintScale(p, x + 14, cy - 4, lw - 28);
        cy += row;
        if (flow) {
            // A flow-level run has rates only: no pause, mark, drop or deadlock to draw.
            p.setFill(DiagramStyle.TEXT_MUTED);
            p.text("flow engine: rates only; no queues,", x + 10, cy, TextAnchor.START);
            cy += row;
            p.text("pauses, marks or drops to show", x + 10, cy, TextAnchor.START);
            cy += row;
            linkDownRow(p, x, tx, cy);
            footnote(p, x, cy + row);
            return;
        }
        if (live) {
            p.setFill(style.utilisationColour(0.6));
            p.setStroke(new Rgba(255, 255, 255, 230), 0.8);
            for (int k = 0; k < 3; k++) {
                p.fillCircle(x + 15 + 10 * k, cy, 2.4);
            }
            p.setFill(DiagramStyle.TEXT);
            p.text("traffic on the wire (moving dots)", tx, cy, TextAnchor.START);
            cy += row;
            // A small server box with the NVLink mark at 70 % of its NVLink bandwidth.
            p.setFill(style.fill(io.fabriclab.model.DeviceRole.SERVER));
            p.fillRoundRect(x + 10, cy - 7.5, 30, 15, 3);
            p.setStroke(style.outline(io.fabriclab.model.DeviceRole.SERVER), 1);
            p.strokeRoundRect(x + 10, cy - 7.5, 30, 15, 3);
            scaleUpMarkAt(p, x + 10, cy - 7.5, 30, 15, 0.7);
            p.setFill(DiagramStyle.TEXT);
            p.text(NVLINK_BUSY, tx, cy, TextAnchor.START);
            cy += row;
        }
        p.setStroke(DiagramStyle.PFC_PAUSE, 2.2);
        p.line(x + 10, cy, x + 40, cy);
        pauseSymbol(p, x + 16, cy, 6);
        p.setFill(DiagramStyle.TEXT);
        p.text(pausedLabel, tx, cy, TextAnchor.START);
        cy += row;
        if (live) {
            p.setStroke(DiagramStyle.PFC_STORM, 2.2);
            p.line(x + 10, cy, x + 40, cy);
            stormSymbol(p, x + 16, cy, 6);
            p.setFill(DiagramStyle.TEXT);
            p.text("PFC watchdog storm (pause ignored)", tx, cy, TextAnchor.START);
            cy += row;
        }
        p.setFill(DiagramStyle.ECN_SPARK);
        p.setStroke(DiagramStyle.ECN_SPARK_EDGE, 0.8);
        spark(p, x + 15, cy, 3.2);
        spark(p, x + 25, cy, 3.2);
        spark(p, x + 35, cy, 3.2);
        p.setFill(DiagramStyle.TEXT);
        p.text("ECN marks (2 sparks per mark/µs)", tx, cy, TextAnchor.START);
        cy += row;
        if (live) {
            cnpMark(p, x + 15, cy);
            cnpMark(p, x + 25, cy);
            cnpMark(p, x + 35, cy);
            p.setFill(DiagramStyle.TEXT);
            p.text("CNPs going back to the sender", tx, cy, TextAnchor.START);
            cy += row;
        }
        p.setFill(DiagramStyle.DROP);
        p.fillCircle(x + 20, cy, 6);
        p.setStroke(new Rgba(255, 255, 255, 255), 1.5);
        p.line(x + 17, cy - 3, x + 23, cy + 3);
        p.line(x + 17, cy + 3, x + 23, cy - 3);
        p.setFill(DiagramStyle.TEXT);
        p.text("drops (count in the frame)", tx, cy, TextAnchor.START);
        cy += row;
        p.setStroke(DiagramStyle.DEADLOCK, 5);
        p.setDash(8, 5);
        p.line(x + 10, cy, x + 40, cy);
        p.setDash();
        p.setFill(DiagramStyle.TEXT);
        p.text("PFC deadlock cycle", tx, cy, TextAnchor.START);
        cy += row;
        linkDownRow(p, x, tx, cy);
        cy += row;
        if (live) {
            p.setStroke(DiagramStyle.FLOW_PATH.withAlpha(170), 7);
            p.line(x + 10, cy, x + 40, cy);
            p.setFill(DiagramStyle.TEXT);
            p.text("selected flow's path", tx, cy, TextAnchor.START);
            cy += row;
            p.setStroke(DiagramStyle.COLLECTIVE_PATH.withAlpha(120), 7);
            p.line(x + 10, cy, x + 40, cy);
            p.setFill(DiagramStyle.TEXT);
            p.text("selected collective's flows", tx, cy, TextAnchor.START);
            cy += row;
        }
        footnote(p, x, cy);
    }

    /** The legend's row for a failed link: its dashed red sample and name. */
    private static void linkDownRow(Painter p, double x, double tx, double cy) {
        p.setStroke(DiagramStyle.LINK_DOWN, 2);
        p.setDash(6, 4);
        p.line(x + 10, cy, x + 40, cy);
        p.setDash();
        p.setFill(DiagramStyle.TEXT);
        p.text("link down (failed)", tx, cy, TextAnchor.START);
    }

    /** The legend's last line: how a link's two directions are drawn. */
    private static void footnote(Painter p, double x, double cy) {
        p.setFill(DiagramStyle.TEXT_MUTED);
        p.setFont(9.5, false);
        p.text("each link: one line per direction, right of travel", x + 10, cy, TextAnchor.START);
    }

    /** A ramp of the load colours over {@code width} px with ticks at 0, 25, 50, 75 and 100 %. */
    private void paintScale(Painter p, double x, double y, double width) {
        int steps = 40;
        for (int i = 0; i < steps; i++) {
            double f = (i + 0.5) / steps;
            p.setStroke(style.utilisationColour(f), 1.5 + 3.5 * f);
            p.line(x + width * i / steps, y, x + width * (i + 1) / steps, y);
        }
        p.setFont(9.5, false);
        for (int t = 0; t <= 100; t += 25) {
            double tx = x + width * t / 100.0;
            p.setStroke(DiagramStyle.TEXT_MUTED, 1);
            p.line(tx, y + 3, tx, y + 6);
            p.setFill(DiagramStyle.TEXT);
            p.text(t + (t == 100 ? " %" : ""), tx, y + 12, t == 100 ? TextAnchor.END : t == 0 ? TextAnchor.START
                    : TextAnchor.MIDDLE);
        }
        p.setFont(10.5, false);
    }

    private static double frac(double v) {
        return v - Math.floor(v);
    }

    private static double clamp01(double v) {
        return Math.max(0, Math.min(1, v));
    }
}
