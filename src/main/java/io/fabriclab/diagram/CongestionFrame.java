package io.fabriclab.diagram;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import io.fabriclab.model.Link;

/**
 * What the congestion layer draws at one instant, per link direction, independent of where the
 * figures came from (a live run, a recorded one, a results file). Direction {@code 2i} is link
 * i from its a end to its b end, {@code 2i + 1} the other way. Arrays are filled once by the
 * producer and then only read.
 */
public final class CongestionFrame {

    /** The links of a fabric in a fixed order; shared by every frame of one run. */
    public static final class Directions {
        private final List<Link> links;
        private final Map<Link, Integer> index = new IdentityHashMap<>();

        public Directions(List<Link> links) {
            this.links = List.copyOf(links);
            for (int i = 0; i < this.links.size(); i++) {
                index.put(this.links.get(i), i);
            }
        }

        public List<Link> links() {
            return links;
        }

        /** Direction id of {@code link} leaving its a end ({@code fromA}) or its b end; -1 if unknown. */
        public int of(Link link, boolean fromA) {
            Integer i = index.get(link);
            return i == null ? -1 : 2 * i + (fromA ? 0 : 1);
        }

        public int count() {
            return 2 * links.size();
        }
    }

    /** Time of the frame in simulated picoseconds. */
    public final long timePs;
    public final Directions directions;
    /** Queue fill or utilisation 0..1 per direction (what the colour shows); NaN: no figure. */
    public final double[] load;
    /** Queue bytes per direction (for labels and tooltips). */
    public final long[] queueBytes;
    /** The direction's sender is paused by PFC on at least one priority. */
    public final boolean[] paused;
    /** ECN marks per microsecond of simulated time at the direction's egress (spark density). */
    public final double[] marksPerUs;
    /** Drops to flash at the direction's egress (0: none); the count shown next to the flash. */
    public final long[] dropFlash;
    public final boolean[] down;
    /** The direction is on a detected PFC deadlock cycle. */
    public final boolean[] deadlock;
    /** The direction carries the selected flow's path (ECMP choice highlighted). */
    public final boolean[] highlighted;
    /**
     * The PFC watchdog holds the direction's egress stormed (paused continuously for its detection
     * time; the queue now ignores the pause and drops or forwards, docs/model.md).
     */
    public final boolean[] stormed;
    /** CNPs per microsecond travelling along the direction, back toward the flows' senders. */
    public final double[] cnpsPerUs;
    /** The direction carries a flow of the selected collective (its rings or all-to-all pairs). */
    public final boolean[] collective;
    /**
     * Share of the direction's line rate on the wire since the previous picture (0..1), whatever
     * the colour shows: a run without queues still shows its traffic moving (0: idle).
     */
    public final double[] carrying;

    public CongestionFrame(long timePs, Directions directions) {
        this.timePs = timePs;
        this.directions = directions;
        int n = directions.count();
        this.load = new double[n];
        java.util.Arrays.fill(load, Double.NaN);
        this.queueBytes = new long[n];
        this.paused = new boolean[n];
        this.marksPerUs = new double[n];
        this.dropFlash = new long[n];
        this.down = new boolean[n];
        this.deadlock = new boolean[n];
        this.highlighted = new boolean[n];
        this.stormed = new boolean[n];
        this.collective = new boolean[n];
        this.cnpsPerUs = new double[n];
        this.carrying = new double[n];
    }

    /** How many sparks a direction shows for a marking rate: 2 per mark per microsecond, 1 to 8. */
    public static int sparks(double marksPerUs) {
        if (!(marksPerUs > 0)) {
            return 0;
        }
        return (int) Math.min(8, Math.ceil(marksPerUs * 2));
    }
}
