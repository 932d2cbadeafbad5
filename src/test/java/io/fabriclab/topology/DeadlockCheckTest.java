package io.fabriclab.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.TestFabrics;

import org.junit.jupiter.api.Test;

class DeadlockCheckTest {

    @Test
    void healthyClosFabricsHaveNoCycle() {
        for (Fabric f : List.of(TestFabrics.leafSpine(4, 2, 2, 2), TestFabrics.fatTree(4),
                TestFabrics.railThreeTier(4, 2, 2, 2, 2, 2, 2))) {
            DeadlockCheck.Result r = DeadlockCheck.check(f);
            assertTrue(r.deadlockFree(), f.name());
            assertEquals(Set.of(QosProfile.RDMA_PRIORITY), r.priorities());
            assertTrue(r.dependencies() > 0, f.name());
        }
    }

    @Test
    void leafSpineDependenciesCountedByHand() {
        // 3 leaves, 2 spines, 1 server per leaf. A queue at a spine from leaf a feeds the spine's
        // queue toward every other leaf b: per spine 3 in-queues x 2 out = 6; a leaf forwards
        // nothing on (it is the destination): 12 dependencies in all.
        DeadlockCheck.Result r = DeadlockCheck.check(TestFabrics.leafSpine(3, 2, 1, 1));
        assertEquals(12, r.dependencies());
    }

    @Test
    void deadlockProneFabricIsSafeHealthyAndCyclicAfterItsTriggerLinkFails() {
        Fabric f = ExampleFabrics.deadlockProne();
        assertTrue(DeadlockCheck.check(f).deadlockFree());
        Link trigger = ExampleFabrics.deadlockTrigger(f);
        assertNotNull(trigger);
        DeadlockCheck.Result failed = DeadlockCheck.check(f, Set.of(), Set.of(trigger));
        assertFalse(failed.deadlockFree());
        assertEquals(trigger.id(), failed.failure());
        DeadlockCheck.Cycle c = failed.cycles().get(0);
        assertEquals(QosProfile.RDMA_PRIORITY, c.priority());
        // The ring spine1 <- leaf1, leaf2 <- spine1, spine2 <- leaf2, leaf1 <- spine2 (or its mirror
        // through the other leaf order): two spines and the two dual-homed leaves, 4 queues.
        assertEquals(4, c.queues().size());
        assertEquals(Set.of("spine1", "spine2", "leaf1", "leaf2"), Set.copyOf(c.switches()));
        // Consecutive queues chain: each queue's device is the next queue's upstream device.
        for (int i = 0; i < c.queues().size(); i++) {
            DeadlockCheck.IngressQueue q = c.queues().get(i);
            DeadlockCheck.IngressQueue next = c.queues().get((i + 1) % c.queues().size());
            assertEquals(q.device(), next.fromDevice());
        }
        // Each wait has one cause. Waits inside a leaf (a packet that came down and goes back up) are
        // the bounced leaf3<->leaf4 traffic; waits inside a spine are ordinary leaf1<->leaf2 traffic.
        for (int i = 0; i < 4; i++) {
            List<String> causes = c.destinations().get(i);
            assertEquals(1, causes.size(), causes.toString());
            boolean atLeaf = c.queues().get(i).device().startsWith("leaf");
            assertTrue(atLeaf ? Set.of("leaf3", "leaf4").contains(causes.get(0))
                    : Set.of("leaf1", "leaf2").contains(causes.get(0)), c.toString());
        }
    }

    @Test
    void theCheckOfAPathCounterReusesItsDistancesAndFindsTheSame() {
        // check(EcmpPathCounter) takes each destination's hop distances from the counter instead
        // of a search of its own (FabricAnalysis has the counter already): the same result,
        // healthy and after the trigger failure (a cycle, its queues and its causes).
        Fabric f = ExampleFabrics.deadlockProne();
        Link trigger = ExampleFabrics.deadlockTrigger(f);
        for (io.fabriclab.routing.Routing r : List.of(io.fabriclab.routing.Routing.compute(f),
                io.fabriclab.routing.Routing.compute(f, Set.of(), Set.of(trigger)),
                io.fabriclab.routing.Routing.compute(io.fabriclab.topology.FatTreeGenerator.generate(8)))) {
            assertEquals(DeadlockCheck.check(r), DeadlockCheck.check(io.fabriclab.routing.EcmpPathCounter.of(r)));
        }
        assertFalse(DeadlockCheck.check(io.fabriclab.routing.EcmpPathCounter.of(
                io.fabriclab.routing.Routing.compute(f, Set.of(), Set.of(trigger)))).deadlockFree());
    }

    @Test
    void exactlyTheSpine2UplinksOfTheDualHomedLeavesCreateACycle() {
        // leaf1..leaf3 are interchangeable: losing its spine2 uplink leaves any of them sharing no
        // spine with leaf4, and the other two dual-homed leaves carry the bounce. Every other single
        // link failure (spine1 uplinks, leaf4's uplink, server links) keeps all paths up-down.
        Fabric f = ExampleFabrics.deadlockProne();
        for (Link l : f.links()) {
            boolean expectCycle = l.b().device().id().equals("spine2") && !l.a().device().id().equals("leaf4");
            assertEquals(expectCycle, !DeadlockCheck.check(f, Set.of(), Set.of(l)).deadlockFree(), l.id());
        }
    }

    @Test
    void aRingOfFourLeavesIsCyclicAndLosslessOnlyWherePfcIsOn() {
        // Four leaves in a ring (each with one server): leaf i to leaf i+1. Traffic two hops away
        // passes through the leaf between, in both directions: the classic routing-ring deadlock.
        Fabric f = new Fabric("ring");
        f.putQosProfile(QosProfile.roceLossless("rdma", 400));
        f.putQosProfile(QosProfile.bestEffort("lossy"));
        Device[] leaf = new Device[4];
        for (int i = 0; i < 4; i++) {
            leaf[i] = f.addDevice("leaf" + i, DeviceRole.LEAF);
            Device s = TestFabrics.server(f, "srv" + i, 1, 400);
            f.connect(s.port("nic0"), TestFabrics.nextPort(leaf[i], 400), 400, 3);
        }
        for (int i = 0; i < 4; i++) {
            TestFabrics.connect(f, leaf[i], leaf[(i + 1) % 4], 400, 10);
        }
        DeadlockCheck.Result r = DeadlockCheck.check(f);
        // Clockwise and counter-clockwise rings are two separate strongly connected groups.
        assertEquals(2, r.cycles().size());
        r.cycles().forEach(c -> assertEquals(4, c.queues().size()));
        // Making one leaf's ring ports lossy breaks both rings (no PFC there, so no pause to wait on).
        leaf[0].ports().forEach(p -> p.setQosProfile("lossy"));
        assertTrue(DeadlockCheck.check(f).deadlockFree());
    }

    @Test
    void aFailedSwitchIsLeftOutOfTheRouting() {
        Fabric f = ExampleFabrics.deadlockProne();
        // Without spine1 everything goes through spine2 (leaf3 and leaf4 still share it): no bounce.
        assertTrue(DeadlockCheck.check(f, Set.of(f.device("spine1")), Set.of()).deadlockFree());
    }
}
