package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.DcqcnConfig;

/** The DCQCN reaction log is bounded (first 16 flows, first 256 CNPs each) and counts what it leaves out. */
class ReactionLogTest {
    static final long US = 1_000_000L;

    @Test
    void logsTheFirstFlowsAndTheFirstCnpsOfEachAndCountsTheRest() {
        ReactionLog log = new ReactionLog(20);
        ReactionPoint rp = new ReactionPoint(DcqcnConfig.paper(), ReactionPointTest.LINE);
        // 257 CNPs to flow 0, 1 us apart: the first 256 are logged, the 257th counted.
        for (int i = 0; i < 257; i++) {
            log.note(0, i * US, rp, rp.onCnp(i * US));
        }
        // Flow 16 is the 17th flow: counted, not logged.
        ReactionPoint other = new ReactionPoint(DcqcnConfig.paper(), ReactionPointTest.LINE);
        log.note(16, 0, other, other.onCnp(0));
        // A sender without DCQCN reacts to nothing: neither logged nor counted.
        ReactionPoint off = new ReactionPoint(DcqcnConfig.off(), ReactionPointTest.LINE);
        log.note(1, 0, off, off.onCnp(0));
        SimResults.DcqcnLog r = log.result();
        assertEquals(IntStream.range(0, 16).boxed().toList(), r.flows());
        assertEquals(ReactionLog.MAX_PER_FLOW, r.maxPerFlow());
        assertEquals(256, r.reactions().size());
        assertEquals(2, r.notLogged());
        // The first: at 0, alpha 1 (initial), 100 G -> 50 G, target 100 G. The second, 1 us later (no
        // alpha period of 55 us elapsed): alpha 1, 50 G -> 25 G, target 50 G.
        assertEquals(new SimResults.DcqcnReaction(0, 0, true, 1.0, 100.0, 50.0, 100.0), r.reactions().get(0));
        assertEquals(new SimResults.DcqcnReaction(0, US, true, 1.0, 50.0, 25.0, 50.0), r.reactions().get(1));
        assertTrue(r.reactions().stream().allMatch(x -> x.flow() == 0 && x.rateAfterGbps() <= x.rateBeforeGbps()));
    }

    @Test
    void aCnpWithinTheMinimumCutIntervalIsLoggedWithoutACut() {
        // Firmware style: a cut at most every 4 us. CNPs at 0, 2 and 4 us: cut, no cut, cut.
        ReactionLog log = new ReactionLog(1);
        ReactionPoint rp = new ReactionPoint(DcqcnConfig.nicFirmware(), ReactionPointTest.LINE);
        for (long t : new long[] {0, 2 * US, 4 * US}) {
            log.note(0, t, rp, rp.onCnp(t));
        }
        List<SimResults.DcqcnReaction> r = log.result().reactions();
        assertEquals(3, r.size());
        // 0 us: alpha 1, cut min(1/2, 0.5) = 50 %: 100 G -> 50 G.
        assertTrue(r.get(0).cut());
        assertEquals(50.0, r.get(0).rateAfterGbps(), 0.0);
        // 2 us: alpha = ((1-g) 1 + g) (1-g)^2 (two 1 us periods) = (255/256)^2; no cut: 50 G stays.
        assertFalse(r.get(1).cut());
        assertEquals(Math.pow(255.0 / 256, 2), r.get(1).alpha(), 1e-15);
        assertEquals(50.0, r.get(1).rateBeforeGbps(), 0.0);
        assertEquals(50.0, r.get(1).rateAfterGbps(), 0.0);
        // 4 us: alpha a2 = ((1-g) (255/256)^2 + g) (1-g)^2, cut by a2 / 2.
        double g = 1.0 / 256;
        double a2 = ((1 - g) * Math.pow(1 - g, 2) + g) * Math.pow(1 - g, 2);
        assertTrue(r.get(2).cut());
        assertEquals(a2, r.get(2).alpha(), 1e-15);
        assertEquals((long) (50e9 * (1 - a2 / 2)) / 1e9, r.get(2).rateAfterGbps(), 0.0);
    }
}
