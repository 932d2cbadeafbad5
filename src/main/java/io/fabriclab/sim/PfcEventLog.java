package io.fabriclab.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The PFC frames of a run as they took effect, in time order, so a pause storm can be read frame
 * by frame: when, on which egress (the port that was paused) and priority, with which quanta, and
 * how long that frame held the queue paused (until the next PFC frame of that priority on that
 * port took effect, a resume, or its own expiry). Bounded: the first {@link #CAP} frames are
 * kept; later ones are only counted ({@link #dropped()}). Primitive arrays; not on the per-packet
 * path (one entry per PFC frame).
 */
final class PfcEventLog {
    /** Frames kept per run (about 150 B of results JSON each: at most about 1.5 MB). */
    static final int CAP = 10_000;

    private long[] timePs = new long[64];
    private long[] durationPs = new long[64];
    private int[] portAndPriority = new int[64];
    private int[] quanta = new int[64];
    private int size;
    private long dropped;
    /** Per (port, priority): the entry of the frame in force, or -1. */
    private final int[] open;

    PfcEventLog(int ports) {
        open = new int[ports * EgressPort.CLASSES];
        Arrays.fill(open, -1);
    }

    /**
     * A PFC frame with {@code q} quanta took effect at {@code nowPs} on egress {@code port},
     * priority {@code c}; the frame it replaces (if any) held until {@code nowPs} or its expiry
     * {@code previousUntilPs}, whichever came first.
     */
    void record(long nowPs, int port, int c, int q, long previousUntilPs) {
        int k = port * EgressPort.CLASSES + c;
        close(k, Math.min(nowPs, previousUntilPs));
        if (size == CAP) {
            dropped++;
            return;
        }
        if (size == timePs.length) {
            int n = Math.min(CAP, size * 2);
            timePs = Arrays.copyOf(timePs, n);
            durationPs = Arrays.copyOf(durationPs, n);
            portAndPriority = Arrays.copyOf(portAndPriority, n);
            quanta = Arrays.copyOf(quanta, n);
        }
        timePs[size] = nowPs;
        durationPs[size] = 0;
        portAndPriority[size] = k;
        quanta[size] = q;
        if (q > 0) {
            open[k] = size;
        }
        size++;
    }

    private void close(int k, long endPs) {
        int e = open[k];
        if (e >= 0) {
            durationPs[e] = Math.max(0, endPs - timePs[e]);
            open[k] = -1;
        }
    }

    long dropped() {
        return dropped;
    }

    /** The kept frames; a frame still in force at {@code endPs} holds until its expiry or the end of the run. */
    List<SimResults.PfcEvent> events(EgressPort[] ports, long endPs) {
        List<SimResults.PfcEvent> out = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            int k = portAndPriority[i];
            EgressPort p = ports[k / EgressPort.CLASSES];
            int c = k % EgressPort.CLASSES;
            long d = durationPs[i];
            if (open[k] == i) {
                d = Math.max(0, Math.min(endPs, p.cls(c, EgressPort.PAUSED_UNTIL)) - timePs[i]);
            }
            out.add(new SimResults.PfcEvent(timePs[i], p.ref(), p.peerPort.ref(), c, quanta[i], d));
        }
        return out;
    }
}
