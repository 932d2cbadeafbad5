package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Transport;
import io.fabriclab.routing.IbRoutingEngine;
import io.fabriclab.workload.FlowSpec;

/**
 * InfiniBand runs routed by the subnet manager's tables (docs/model.md, InfiniBand routing) and
 * the credit loop they can close (docs/model.md, Credit-loop deadlock).
 */
class InfinibandRoutingTest {
    private static final long US = io.fabriclab.model.Units.PS_PER_US;

    /** h{i} sends {@code bytes} to h{i+2}, on the 4-switch ring. */
    private static List<FlowSpec> acrossTheRing(long bytes) {
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            flows.add(new FlowSpec("h" + i + ":nic0", "h" + (i + 2) % 4 + ":nic0", bytes, 0, 3));
        }
        return flows;
    }

    private static SimResults run(IbRoutingEngine engine, long durationPs) {
        Fabric f = TestFabrics.ring(4, 100, 2.0);
        Simulator sim = new Simulator(f, acrossTheRing(8_000_000), SimConfig.defaults().withDurationPs(durationPs),
                QosResolver.of(f), Transport.INFINIBAND);
        sim.setIbRoutingEngine(engine);
        sim.setDeadlockThresholdPs(100 * US);
        return sim.run();
    }

    @Test
    void minhopRoutesTheRingOneWayRoundAndItsCreditsDeadlock() {
        // minhop's tables on the ring (LinearForwardingTablesTest derives the rule): at each switch
        // the destination two hops away has two shortest ports; the neighbours' own destinations came
        // first in NIC order, and the tie goes to the port fewer destinations use, toward L(i-1) each
        // time (at L0: h1 took the port to L1, so h2 takes the one to L3):
        // h0 -> h2 by L0-L3-L2, h1 -> h3 by L1-L0-L3, h2 -> h0 by L2-L1-L0, h3 -> h1 by L3-L2-L1.
        // So the packets waiting in L3's buffer from L0 wait for L3 -> L2, those in L2's from L3 for
        // L2 -> L1, those in L1's from L2 for L1 -> L0, those in L0's from L1 for L0 -> L3: a cycle
        // of credit dependencies on VL 3 (the flows' service level). Two flows share every ring link
        // at 100 Gb/s each, so the buffers fill, and once all four are full of packets for the next
        // hop no credit ever returns: the egress ports e0 of the four switches wait on one another.
        SimResults r = run(IbRoutingEngine.MINHOP, 3_000 * US);
        assertEquals(List.of("h0:nic0", "L0:e0", "L3:e0", "L2:e2"), r.flows().get(0).path());
        assertEquals(1, r.deadlocks().size(), r.deadlocks().toString());
        SimResults.DeadlockResult d = r.deadlocks().get(0);
        assertEquals(3, d.priority());
        assertEquals(List.of("L0:e0", "L1:e0", "L2:e0", "L3:e0"), d.ports());
        assertTrue(r.flows().stream().noneMatch(x -> x.finishPs() >= 0), "no flow can finish");
        assertEquals(0, r.summary().drops());
    }

    @Test
    void upDownBreaksTheLoopAndEveryFlowFinishes() {
        // updn (root L0): h1 -> h3 and h3 -> h1 go through the root (L1-L0-L3, L3-L0-L1) instead of
        // turning up after going down at L2 (LinearForwardingTablesTest), so no cycle: no deadlock,
        // every 8 MB flow completes.
        SimResults r = run(IbRoutingEngine.UPDN, 0);
        assertEquals(SimResults.StopReason.COMPLETED, r.run().stopReason());
        assertTrue(r.deadlocks().isEmpty(), r.deadlocks().toString());
        assertEquals(List.of("h1:nic0", "L1:e0", "L0:e0", "L3:e2"), r.flows().get(1).path());
        assertEquals(0, r.summary().drops());
    }

    @Test
    void ftreeRoutesALeafSpineAsItsTablesSay() {
        // leaf0..leaf2, two spines, three servers each (LinearForwardingTablesTest): ftree sends
        // s2_0 from leaf0 through spine0 (minhop: spine1).
        Fabric f = TestFabrics.leafSpine(3, 2, 3, 100, 100, 2.0, null);
        List<FlowSpec> one = List.of(new FlowSpec("s0_0:nic0", "s2_0:nic0", 4096, 0, 3));
        for (IbRoutingEngine e : List.of(IbRoutingEngine.FTREE, IbRoutingEngine.MINHOP)) {
            Simulator sim = new Simulator(f, one, SimConfig.defaults(), QosResolver.of(f), Transport.INFINIBAND);
            sim.setIbRoutingEngine(e);
            SimResults r = sim.run();
            String spine = e == IbRoutingEngine.FTREE ? "spine0" : "spine1";
            String up = e == IbRoutingEngine.FTREE ? "leaf0:up0" : "leaf0:up1";
            assertEquals(List.of("s0_0:nic0", up, spine + ":eth2", "leaf2:down0"), r.flows().get(0).path(), e.jsonName());
        }
    }

    @Test
    void anEngineAppliesToInfinibandRunsOnly() {
        Fabric f = TestFabrics.ring(4, 100, 2.0);
        Simulator roce = new Simulator(f, acrossTheRing(4096), SimConfig.defaults());
        assertThrows(IllegalStateException.class, () -> roce.setIbRoutingEngine(IbRoutingEngine.UPDN));
    }
}
