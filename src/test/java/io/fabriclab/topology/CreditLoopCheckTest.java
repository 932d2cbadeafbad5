package io.fabriclab.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.routing.IbRoutingEngine;
import io.fabriclab.routing.LinearForwardingTables;
import io.fabriclab.routing.Routing;
import io.fabriclab.sim.TestFabrics;

/** The static credit-loop check of InfiniBand routes per VL (docs/model.md, Credit-loop deadlock). */
class CreditLoopCheckTest {

    private static CreditLoopCheck.Result ring(IbRoutingEngine e, int vls) {
        Routing r = Routing.compute(TestFabrics.ring(4, 100, 2.0));
        return CreditLoopCheck.check(r, LinearForwardingTables.compute(r, e), vls);
    }

    @Test
    void minhopOnARingClosesACreditLoopOnItsOneVl() {
        // minhop's routes two hops round the ring all go toward L(i-1) (InfinibandRoutingTest):
        // L0-L3-L2, L1-L0-L3, L2-L1-L0, L3-L2-L1. Each holds the buffer behind one ring link while
        // it waits for the next one's: the links leaving L0:e0, L3:e0, L2:e0, L1:e0 wait in a ring.
        CreditLoopCheck.Result res = ring(IbRoutingEngine.MINHOP, 1);
        assertEquals(List.of(List.of("L0:e0 (VL 0)", "L1:e0 (VL 0)", "L2:e0 (VL 0)", "L3:e0 (VL 0)")), res.cycles());
        assertTrue(!res.deadlockFree());
        // One route turns up after going down: L3 -> L2 goes down (rank 1 to 2 from root L0) and
        // L2 -> L1 up: two VLs keep every segment up-then-down.
        assertEquals(2, res.vlsNeeded());
    }

    @Test
    void aSecondVlIsTheEscape() {
        // With 2 VLs, L3-L2-L1 moves to VL 1 at its turn in L2: VL 0 keeps L2:e0 -> L1:e0 -> L0:e0
        // -> L3:e0, a chain that no longer closes (L3:e0's traffic waits on L2:e0 on VL 1).
        CreditLoopCheck.Result res = ring(IbRoutingEngine.MINHOP, 2);
        assertTrue(res.deadlockFree(), res.cycles().toString());
    }

    @Test
    void upDownNeedsNoEscape() {
        CreditLoopCheck.Result res = ring(IbRoutingEngine.UPDN, 1);
        assertTrue(res.deadlockFree(), res.cycles().toString());
        assertEquals(1, res.vlsNeeded());
    }

    @Test
    void everyEngineOnAFatTreeIsFreeOfCreditLoops() {
        Fabric f = TestFabrics.fatTree(4, 100, 2.0, null);
        Routing r = Routing.compute(f);
        for (IbRoutingEngine e : IbRoutingEngine.values()) {
            CreditLoopCheck.Result res = CreditLoopCheck.check(r, LinearForwardingTables.compute(r, e), 1);
            assertTrue(res.deadlockFree(), e + " " + res.cycles());
            assertEquals(1, res.vlsNeeded(), e.jsonName());
        }
    }
}
