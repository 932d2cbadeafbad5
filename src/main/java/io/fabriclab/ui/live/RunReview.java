package io.fabriclab.ui.live;

import java.util.List;

import io.fabriclab.sim.SimSnapshot;

/** What a run's pictures say after it: its worst moment and the hottest port of a picture. */
final class RunReview {
    private RunReview() {
    }

    /** The snapshot with the most bytes queued over the fabric (ties: the earliest); null if none. */
    static SimSnapshot worstMoment(List<SimSnapshot> recorded) {
        SimSnapshot best = null;
        long most = -1;
        for (SimSnapshot s : recorded) {
            long q = 0;
            for (long v : s.queueBytes()) {
                q += v;
            }
            if (q > most) {
                most = q;
                best = s;
            }
        }
        return best;
    }

    /**
     * The hottest egress port of {@code s} ("device:port"): the deepest queue, else the
     * longest-paused direction paused now; null when nothing is queued or paused.
     */
    static String hottestPort(SimSnapshot s) {
        int best = -1;
        for (int i = 0; i < s.ports().size(); i++) {
            if (s.queueBytes()[i] > 0 && (best < 0 || s.queueBytes()[i] > s.queueBytes()[best])) {
                best = i;
            }
        }
        if (best < 0) {
            for (int i = 0; i < s.ports().size(); i++) {
                if (s.pausedMask()[i] != 0 && (best < 0 || s.pausedPsTotal()[i] > s.pausedPsTotal()[best])) {
                    best = i;
                }
            }
        }
        return best < 0 ? null : s.ports().get(best);
    }
}
