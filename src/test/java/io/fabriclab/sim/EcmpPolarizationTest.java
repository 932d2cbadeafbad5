package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;
import io.fabriclab.workload.FlowSpec;
import io.fabriclab.workload.Permutation;

/** SIMULATION.md: hash collisions and polarization must be visible. */
class EcmpPolarizationTest {

    static long aggUplinksUsed(boolean perSwitchSeed) {
        Fabric f = TestFabrics.fatTree(8, 100, 1.0, QosProfile.roceLossless("lossless", 100));
        List<FlowSpec> flows = new Permutation(List.of(), 20_000, 0, 3, 3).flows(f);
        SimConfig cfg = new SimConfig(5, 0, 1_000_000_000_000L, 10_000_000, 64, 1, 4_000_000_000L, true, perSwitchSeed);
        SimResults r = new Simulator(f, flows, cfg).run();
        assertEquals(128, r.run().flowsCompleted());
        return r.ecmp().stream().filter(e -> e.device().startsWith("agg") && e.port().contains(":up")).count();
    }

    @Test
    void identicalHashesAtEveryTierPolarizeAndPerSwitchSeedsSpreadTheLoad() {
        // k = 8: each edge has 4 uplinks to the pod's 4 aggregation switches, each aggregation switch
        // 4 uplinks to the core; 8 pods x 4 aggs x 4 = 128 aggregation uplinks. With the same hash
        // everywhere, a flow that the edge sent to aggregation switch a (hash mod 4 = a) also leaves
        // that switch on uplink a: only 32 of the 128 uplinks can ever carry traffic. With a seed per
        // switch the choices are independent: the ~112 inter-pod flows land on 128 uplinks like balls
        // in bins, 128 (1 - (1 - 1/128)^112) = 75 used on average.
        long polarized = aggUplinksUsed(false);
        long seeded = aggUplinksUsed(true);
        System.out.printf("aggregation uplinks used: %d without per-switch seeds, %d with%n", polarized, seeded);
        assertTrue(polarized <= 32, "polarized: " + polarized);
        assertTrue(seeded > 64, "seeded: " + seeded);
    }
}
