package io.fabriclab.ui.live;

import java.util.ArrayList;
import java.util.List;

import io.fabriclab.diagram.CongestionFrame;
import io.fabriclab.diagram.CongestionPainter;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.sim.FlowValues;
import io.fabriclab.sim.PortThresholds;
import io.fabriclab.sim.SimSnapshot;

/**
 * Turns simulator snapshots into what the canvas draws ({@link CongestionFrame}) for one drawn
 * fabric: maps each snapshot port ("device:port", the sending end of a direction) to the drawn
 * link and direction by name, so the run can use a copy of the fabric. Rates (marks per
 * microsecond, utilisation) come from the running totals of the current and the previous
 * snapshot shown, since the viewer only sees the snapshots it takes.
 */
public final class FrameBuilder {
    /** Queue colour full scale when a port has neither an ECN Kmax nor a downstream XOFF. */
    public static final long DEFAULT_FULL_SCALE_BYTES = 1_000_000;
    /** How long, in wall time, a drop keeps flashing after the snapshot that showed it. */
    static final long DROP_FLASH_NANOS = 700_000_000L;

    private final Fabric fabric;
    private final CongestionFrame.Directions directions;
    private int[] portToDirection;
    private List<String> mappedPorts;
    private int unmapped;
    private long[] flashCount;
    private long[] flashUntilNanos;

    public FrameBuilder(Fabric fabric) {
        this.fabric = fabric;
        this.directions = new CongestionFrame.Directions(new ArrayList<>(fabric.links()));
    }

    public Fabric fabric() {
        return fabric;
    }

    public CongestionFrame.Directions directions() {
        return directions;
    }

    /** Snapshot ports whose link is not in the drawn fabric (a scenario on another fabric). */
    public int unmappedPorts() {
        return unmapped;
    }

    /** The drawn link of a snapshot port, or null. */
    public Link linkOf(String portRef) {
        Port p = fabric.port(portRef);
        return p == null ? null : fabric.linkAt(p);
    }

    private void map(List<String> ports) {
        if (ports == mappedPorts || ports.equals(mappedPorts)) {
            mappedPorts = ports;
            return;
        }
        mappedPorts = ports;
        portToDirection = new int[ports.size()];
        unmapped = 0;
        for (int i = 0; i < ports.size(); i++) {
            Port p = fabric.port(ports.get(i));
            Link l = p == null ? null : fabric.linkAt(p);
            portToDirection[i] = l == null ? -1 : directions.of(l, l.a() == p);
            if (portToDirection[i] < 0) {
                unmapped++;
            }
        }
        if (flashCount == null) {
            // Per drawn direction, so they outlive a remap (a later snapshot carries more ports).
            flashCount = new long[directions.count()];
            flashUntilNanos = new long[directions.count()];
        }
    }

    /**
     * Value {@code i} of an earlier snapshot's per-port array, 0 beyond its end: a snapshot carries
     * only the links traffic has reached so far, and its list only grows, so a port an earlier
     * snapshot did not carry was all zeros then (SnapshotBuilder).
     */
    static long at(long[] earlier, int i) {
        return earlier == null || i >= earlier.length ? 0 : earlier[i];
    }

    /** Direction id of each snapshot port (-1 when not drawn). */
    public int[] portToDirection(SimSnapshot s) {
        map(s.ports());
        return portToDirection;
    }

    /**
     * The frame for {@code s}, with rates against {@code prev} (null: since the start).
     * {@code flowPath} highlights a flow's path (-1: none).
     */
    public CongestionFrame frame(SimSnapshot s, SimSnapshot prev, CongestionPainter.ColourBy by, int flowPath,
                                 long wallNanos) {
        return frame(s, prev, by, flowPath, List.of(), wallNanos);
    }

    /**
     * As {@link #frame(SimSnapshot, SimSnapshot, CongestionPainter.ColourBy, int, long)}, and
     * {@code collectiveFlows} (flow ids of the selected collective) marks every direction their
     * published paths cross.
     */
    public CongestionFrame frame(SimSnapshot s, SimSnapshot prev, CongestionPainter.ColourBy by, int flowPath,
                                 List<Integer> collectiveFlows, long wallNanos) {
        map(s.ports());
        CongestionFrame f = new CongestionFrame(s.timePs(), directions);
        double dtPs = prev == null ? s.timePs() : s.timePs() - prev.timePs();
        double dtUs = dtPs / 1e6;
        List<PortThresholds> th = s.thresholds();
        for (int i = 0; i < portToDirection.length; i++) {
            int d = portToDirection[i];
            if (d < 0) {
                continue;
            }
            Link l = directions.links().get(d >> 1);
            long q = s.queueBytes()[i];
            f.queueBytes[d] = q;
            double carrying = dtPs > 0
                    ? (s.wireBytesTotal()[i] - at(prev == null ? null : prev.wireBytesTotal(), i)) * 8.0 * 1e12
                    / (l.rateBps() * dtPs)
                    : s.utilization()[i];
            f.carrying[d] = carrying;
            f.load[d] = by == CongestionPainter.ColourBy.QUEUE ? q / (double) fullScaleBytes(th, i) : carrying;
            // The transport's own hold on the sender, drawn with the pause mark: PFC pausing it
            // (RoCEv2), its peer's credits not covering its head packet (InfiniBand), or packets
            // trimmed at that egress since the last picture (Ultra Ethernet).
            long trimmed = s.trimmedTotal()[i] - at(prev == null ? null : prev.trimmedTotal(), i);
            f.paused[d] = s.pausedMask()[i] != 0 || s.creditStalledMask()[i] != 0 || trimmed > 0;
            f.stormed[d] = s.stormedMask()[i] != 0;
            f.down[d] = s.linkDown()[i];
            long marks = s.ecnMarksTotal()[i] - at(prev == null ? null : prev.ecnMarksTotal(), i);
            f.marksPerUs[d] = dtUs > 0 ? marks / dtUs : 0;
            long drops = s.dropsTotal()[i] - at(prev == null ? null : prev.dropsTotal(), i);
            if (drops > 0) {
                flashCount[d] = drops;
                flashUntilNanos[d] = wallNanos + DROP_FLASH_NANOS;
            }
            f.dropFlash[d] = wallNanos < flashUntilNanos[d] ? flashCount[d] : 0;
        }
        for (List<String> cycle : s.deadlocks()) {
            for (String ref : cycle) {
                int i = s.portIndex(ref);
                if (i >= 0 && portToDirection[i] >= 0) {
                    f.deadlock[portToDirection[i]] = true;
                }
            }
        }
        // CNPs go back along each flow's reverse path (receiving NIC first), as the simulator
        // publishes it: every direction on it carries the flow's CNPs of the interval.
        if (dtUs > 0) {
            FlowValues now = s.flowCnpsTotal();
            FlowValues before = prev == null ? null : prev.flowCnpsTotal();
            int flows = Math.min(s.flowReversePaths().size(), now.size());
            // Only the flows in blocks the two snapshots do not share can have sent CNPs.
            for (int flow = now.nextUnshared(before, 0); flow < flows; flow = now.nextUnshared(before, flow + 1)) {
                long cnps = (long) (now.get(flow) - (before == null || flow >= before.size() ? 0 : before.get(flow)));
                if (cnps <= 0) {
                    continue;
                }
                for (int i : s.flowReversePaths().get(flow)) {
                    if (portToDirection[i] >= 0) {
                        f.cnpsPerUs[portToDirection[i]] += cnps / dtUs;
                    }
                }
            }
        }
        for (int flow : collectiveFlows) {
            if (flow >= 0 && flow < s.flowPaths().size()) {
                for (int i : s.flowPaths().get(flow)) {
                    if (portToDirection[i] >= 0) {
                        f.collective[portToDirection[i]] = true;
                    }
                }
            }
        }
        if (flowPath >= 0 && flowPath < s.flowPaths().size()) {
            for (int i : s.flowPaths().get(flowPath)) {
                if (portToDirection[i] >= 0) {
                    f.highlighted[portToDirection[i]] = true;
                }
            }
        }
        return f;
    }

    /**
     * A frame of a whole run's totals, for after it (when its queues have drained and the last
     * picture is empty): per direction the largest queue any of {@code recorded} saw (coloured
     * against the port's full scale, or its utilisation over the run when colouring by
     * utilisation), paused if it was ever paused (or credit-stalled in a recorded picture, or
     * trimmed a packet), its ECN marks per µs over the run (the sparks)
     * and its drops since the start (the red disc, steady), failed links and deadlocks as at the end.
     */
    public CongestionFrame totals(List<SimSnapshot> recorded, CongestionPainter.ColourBy by) {
        SimSnapshot last = recorded.get(recorded.size() - 1);
        map(last.ports());
        CongestionFrame f = new CongestionFrame(last.timePs(), directions);
        int n = last.ports().size();
        long[] maxQueue = new long[n];
        boolean[] everStalled = new boolean[n];
        for (SimSnapshot s : recorded) {
            long[] q = s.queueBytes();
            int[] stalled = s.creditStalledMask();
            for (int i = 0; i < Math.min(n, q.length); i++) {
                maxQueue[i] = Math.max(maxQueue[i], q[i]);
                everStalled[i] |= i < stalled.length && stalled[i] != 0;
            }
        }
        double us = last.timePs() / 1e6;
        for (int i = 0; i < n; i++) {
            int d = portToDirection[i];
            if (d < 0) {
                continue;
            }
            f.queueBytes[d] = maxQueue[i];
            Link l = directions.links().get(d >> 1);
            f.load[d] = by == CongestionPainter.ColourBy.QUEUE ? maxQueue[i] / (double) fullScaleBytes(last.thresholds(), i)
                    : last.timePs() > 0 ? last.wireBytesTotal()[i] * 8.0 * 1e12 / (l.rateBps() * (double) last.timePs()) : 0;
            f.paused[d] = last.pausedPsTotal()[i] > 0 || last.trimmedTotal()[i] > 0 || everStalled[i];
            f.marksPerUs[d] = us > 0 ? last.ecnMarksTotal()[i] / us : 0;
            f.dropFlash[d] = last.dropsTotal()[i];
            f.down[d] = last.linkDown()[i];
        }
        for (List<String> cycle : last.deadlocks()) {
            for (String ref : cycle) {
                int i = last.portIndex(ref);
                if (i >= 0 && portToDirection[i] >= 0) {
                    f.deadlock[portToDirection[i]] = true;
                }
            }
        }
        return f;
    }

    /** Colour full scale of egress port {@code i}: its ECN Kmax, else the XOFF of the port it feeds, else 1 MB. */
    static long fullScaleBytes(List<PortThresholds> th, int i) {
        long scale = 0;
        PortThresholds own = th.get(i);
        if (own.ecn() != null) {
            scale = own.ecn().kmaxBytes();
        }
        int peer = i ^ 1;
        if (peer < th.size()) {
            scale = Math.max(scale, th.get(peer).xoffBytes());
        }
        return scale > 0 ? scale : DEFAULT_FULL_SCALE_BYTES;
    }
}
