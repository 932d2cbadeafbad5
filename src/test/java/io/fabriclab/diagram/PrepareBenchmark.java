package io.fabriclab.diagram;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;
import io.fabriclab.model.Link;
import io.fabriclab.model.LinkState;
import io.fabriclab.topology.RailOptimizedGenerator;

/**
 * The CPU the editor's canvas spends preparing a frame after an edit of the 64-unit rail fabric
 * (docs/performance.md, "The redraw after an edit"): a new geometry, a new painter's paint and the
 * hit-test index (a full rebuild) against {@link DiagramGeometry#update} and a painter kept across
 * edits, alternated, for a failed or restored link and a moved server. Draw calls go to a painter
 * that draws nothing (no rasterising). Thread CPU time, so other work on the machine counts less
 * than in wall time. Test code, not shipped; {@code [rounds]} (default 40), the second half counted.
 */
public final class PrepareBenchmark {
    private PrepareBenchmark() {
    }

    /** Records nothing: the painter's own work is what is measured. */
    private static final class NoPainter implements Painter {
        @Override public void save() { }
        @Override public void restore() { }
        @Override public void translate(double dx, double dy) { }
        @Override public void scale(double factor) { }
        @Override public void setFill(Rgba colour) { }
        @Override public void setStroke(Rgba colour, double width) { }
        @Override public void setDash(double... pattern) { }
        @Override public void setFont(double size, boolean bold) { }
        @Override public void line(double x1, double y1, double x2, double y2) { }
        @Override public void fillRect(double x, double y, double w, double h) { }
        @Override public void strokeRect(double x, double y, double w, double h) { }
        @Override public void fillRoundRect(double x, double y, double w, double h, double arc) { }
        @Override public void strokeRoundRect(double x, double y, double w, double h, double arc) { }
        @Override public void fillCircle(double cx, double cy, double r) { }
        @Override public void strokeCircle(double cx, double cy, double r) { }
        @Override public void text(String text, double x, double y, TextAnchor anchor) { }
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 40;
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        Fabric f = RailOptimizedGenerator.generate(64);
        if (f.layout().isEmpty()) {
            f.setLayout(new TieredLayout().layout(f));
        }
        DiagramStyle style = new DiagramStyle();
        double w = 1200;
        double h = 780;
        DiagramGeometry g = new DiagramGeometry(f, f.layout(), style);
        Viewport vp = new Viewport();
        vp.fit(g.extent(), w, h, 40);
        Link uplink = f.links().stream().filter(l -> l.a().device().role().tier() == 1
                && l.b().device().role().tier() == 2).findFirst().orElseThrow();
        Device server = f.servers().get(100);
        Layout.Point home = f.layout().position(server.id());
        FabricPainter kept = new FabricPainter(style);
        Selection sel = new Selection();
        Painter none = new NoPainter();
        kept.paint(none, g, sel, null, vp, w, h, FabricPainter.Options.DEFAULT);
        g.deviceAt(0, 0);
        long[][] t = new long[4][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int kind = 0; kind < 2; kind++) {
                if (kind == 0) {
                    uplink.setState(uplink.isUp() ? LinkState.DOWN : LinkState.UP);
                } else {
                    f.layout().setPosition(server.id(), home.x() + (r % 2 == 0 ? 40 : 0), home.y());
                }
                long s = cpu.getCurrentThreadCpuTime();
                DiagramGeometry full = new DiagramGeometry(f, f.layout(), style);
                new FabricPainter(style).paint(none, full, sel, null, vp, w, h, FabricPainter.Options.DEFAULT);
                full.deviceAt(0, 0);
                t[kind * 2][r] = cpu.getCurrentThreadCpuTime() - s;
                s = cpu.getCurrentThreadCpuTime();
                g = DiagramGeometry.update(g, f, f.layout(), style);
                kept.paint(none, g, sel, null, vp, w, h, FabricPainter.Options.DEFAULT);
                g.deviceAt(0, 0);
                t[kind * 2 + 1][r] = cpu.getCurrentThreadCpuTime() - s;
            }
        }
        String[] names = {"fail/restore a link: full rebuild", "fail/restore a link: update",
            "move a server: full rebuild", "move a server: update"};
        System.out.printf(Locale.ROOT, "prepare after an edit, 64 units (%,d devices, %,d links), thread CPU%n",
                f.devices().size(), f.linkCount());
        for (int k = 0; k < 4; k++) {
            long[] x = Arrays.copyOfRange(t[k], rounds / 2, rounds);
            Arrays.sort(x);
            System.out.printf(Locale.ROOT, "  %-36s median %6.1f ms (min %5.1f, max %6.1f) over the last %d rounds%n",
                    names[k], x[x.length / 2] / 1e6, x[0] / 1e6, x[x.length - 1] / 1e6, x.length);
        }
    }
}
