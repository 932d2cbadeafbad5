package io.fabriclab.ui.live;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import io.fabriclab.sim.SimSnapshot;
import io.fabriclab.workload.FlowSpec;

/**
 * Which flows use a link direction or a device, read from the paths the simulator publishes in
 * its snapshots ({@link SimSnapshot#flowPaths()}: the egress ports a flow's data packets take now,
 * after any reroute), never re-derived from routing in the UI; and the figures the flow list
 * shows for each. No JavaFX: the run panel and tests call it alike.
 */
public final class CrossingFlows {
    private CrossingFlows() {
    }

    /** How the flow list is sorted. */
    public enum Order {
        /** Highest DCQCN current rate first. */
        RATE("rate (highest first)"),
        /**
         * Hurt most first: among flows still sending, the lowest throughput achieved over the last
         * window (a PFC-paused flow keeps its DCQCN rate but delivers little); finished flows last.
         */
        HURT("hurt most (lowest throughput first)"),
        /** Least progress first. */
        PROGRESS("progress (least first)"),
        ID("flow id");

        private final String text;

        Order(String text) {
            this.text = text;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    /**
     * One flow as the list shows it. {@code achievedGbps}: payload delivered in order per second
     * over the window between two snapshots (NaN without an earlier snapshot).
     */
    public record Row(int flow, String src, String dst, String label, double rateGbps, double targetGbps,
                      double achievedGbps, double progress) {
        public boolean done() {
            return progress >= 1.0;
        }

        /** Still sending: started (a DCQCN rate is published) and not complete. */
        public boolean active() {
            return rateGbps > 0 && !done();
        }
    }

    /** The device of a port reference "device:port". */
    static String deviceOf(String portRef) {
        int i = portRef.lastIndexOf(':');
        return i < 0 ? portRef : portRef.substring(0, i);
    }

    /** Flows whose data path leaves through egress port {@code port} (index into the snapshot's ports). */
    public static List<Integer> crossing(SimSnapshot s, int port) {
        List<Integer> out = new ArrayList<>();
        if (port < 0) {
            return out;
        }
        for (int f = 0; f < s.flowPaths().size(); f++) {
            for (int p : s.flowPaths().get(f)) {
                if (p == port) {
                    out.add(f);
                    break;
                }
            }
        }
        return out;
    }

    /**
     * Flows a device takes part in: for a server, those its NICs send ({@code sends}) and/or receive
     * ({@code receives}); for a switch, those whose path leaves through any of its ports.
     */
    public static List<Integer> ofDevice(SimSnapshot s, String device, boolean sends, boolean receives) {
        List<Integer> out = new ArrayList<>();
        List<String> ports = s.ports();
        for (int f = 0; f < s.flowPaths().size(); f++) {
            int[] path = s.flowPaths().get(f);
            if (path.length == 0) {
                continue;
            }
            boolean sender = deviceOf(ports.get(path[0])).equals(device);
            // The last hop leaves the destination's switch; its peer (index ^ 1) is the receiving NIC.
            int rx = path[path.length - 1] ^ 1;
            boolean receiver = rx < ports.size() && deviceOf(ports.get(rx)).equals(device);
            boolean through = false;
            for (int i = 1; i < path.length && !through; i++) {
                through = deviceOf(ports.get(path[i])).equals(device);
            }
            if ((sends && sender) || (receives && receiver) || (sends && receives && through)) {
                out.add(f);
            }
        }
        return out;
    }

    /** The rows of {@code flows} at snapshot {@code s}; throughput against {@code earlier} (may be null). */
    public static List<Row> rows(SimSnapshot s, SimSnapshot earlier, List<FlowSpec> specs, List<Integer> flows,
                                 Order order) {
        List<Row> out = new ArrayList<>(flows.size());
        double dtS = earlier == null ? 0 : (s.timePs() - earlier.timePs()) / 1e12;
        for (int f : flows) {
            FlowSpec spec = f < specs.size() ? specs.get(f) : null;
            double achieved = Double.NaN;
            if (dtS > 0 && spec != null) {
                achieved = (s.flowProgress().get(f) - earlier.flowProgress().get(f)) * spec.bytes() * 8 / dtS / 1e9;
            }
            out.add(new Row(f, spec == null ? "?" : spec.src(), spec == null ? "?" : spec.dst(),
                    spec == null || spec.label() == null ? "" : spec.label(), s.flowRateGbps().get(f),
                    s.flowTargetGbps().get(f), achieved, s.flowProgress().get(f)));
        }
        out.sort(comparator(order));
        return out;
    }

    static Comparator<Row> comparator(Order order) {
        Comparator<Row> byId = Comparator.comparingInt(Row::flow);
        return switch (order) {
            case RATE -> Comparator.comparingDouble(Row::rateGbps).reversed().thenComparing(byId);
            case HURT -> Comparator.comparing((Row r) -> !r.active())
                    .thenComparingDouble(r -> Double.isNaN(r.achievedGbps()) ? r.rateGbps() : r.achievedGbps())
                    .thenComparingDouble(Row::progress).thenComparing(byId);
            case PROGRESS -> Comparator.comparingDouble(Row::progress).thenComparing(byId);
            case ID -> byId;
        };
    }

    /** The flow's published path as "nic → switch port → ... → nic" (its ECMP choice, hop by hop). */
    public static String pathText(SimSnapshot s, int flow) {
        if (flow < 0 || flow >= s.flowPaths().size()) {
            return "";
        }
        int[] path = s.flowPaths().get(flow);
        StringBuilder sb = new StringBuilder();
        for (int p : path) {
            sb.append(sb.length() == 0 ? "" : " → ").append(s.ports().get(p));
        }
        if (path.length > 0 && (path[path.length - 1] ^ 1) < s.ports().size()) {
            sb.append(" → ").append(s.ports().get(path[path.length - 1] ^ 1));
        }
        return sb.toString();
    }

    /** One line per row, for the status text and tests. */
    static String describe(Row r) {
        return String.format(Locale.ROOT, "#%d %s → %s rate %.1f target %.1f Gb/s, %.0f %%", r.flow(), r.src(),
                r.dst(), r.rateGbps(), r.targetGbps(), 100 * r.progress());
    }
}
