package io.fabriclab.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * The DCQCN reaction log of a run: for a bounded set of flows, every CNP their reaction point
 * received, with the cut it made (or not), the alpha it found and the rates around it. Bounded so a
 * long run with many flows cannot grow it without limit: the first {@link #MAX_FLOWS} flows of the
 * run (in the scenario's order) and the first {@link #MAX_PER_FLOW} CNPs of each; the CNPs left out
 * (other flows', and beyond the per-flow bound) are counted.
 */
final class ReactionLog {
    /** Flows logged at most. */
    static final int MAX_FLOWS = 16;
    /** CNPs logged per flow at most (the first ones). */
    static final int MAX_PER_FLOW = 256;

    /** Reactions logged so far of flow i (the logged flows are ids 0 .. count - 1). */
    private final int[] loggedCount;
    private final List<SimResults.DcqcnReaction> reactions = new ArrayList<>();
    private long notLogged;

    ReactionLog(int flowCount) {
        loggedCount = new int[Math.min(MAX_FLOWS, flowCount)];
    }

    /** Flow {@code flow}'s reaction point {@code rp} has just handled a CNP at {@code nowPs}. */
    void note(int flow, long nowPs, ReactionPoint rp, boolean cut) {
        if (!rp.enabled()) {
            return;
        }
        if (flow >= loggedCount.length || loggedCount[flow] >= MAX_PER_FLOW) {
            notLogged++;
            return;
        }
        loggedCount[flow]++;
        reactions.add(new SimResults.DcqcnReaction(flow, nowPs, cut, rp.lastCnpAlpha(),
                rp.lastCnpRateBeforeBps() / 1e9, rp.currentRateBps() / 1e9, rp.targetRateBps() / 1e9));
    }

    SimResults.DcqcnLog result() {
        List<Integer> flows = new ArrayList<>(loggedCount.length);
        for (int i = 0; i < loggedCount.length; i++) {
            flows.add(i);
        }
        return new SimResults.DcqcnLog(List.copyOf(flows), MAX_PER_FLOW, notLogged, List.copyOf(reactions));
    }
}
