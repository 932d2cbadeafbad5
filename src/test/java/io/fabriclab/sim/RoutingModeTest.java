package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.workload.FlowSpec;

/** ECMP's spread follows its hash; spraying and adaptive routing remove the collisions ECMP makes. */
class RoutingModeTest {

    /** Two leaves, four spines, four 100G servers per leaf, 100G uplinks: leaf to leaf is exactly non-blocking. */
    static Fabric fabric() {
        return TestFabrics.leafSpine(2, 4, 4, 100, 100, 1.0, IncastTest.pfcOnly(100_000, 80_000, 70_000));
    }

    /** Each server of leaf0 sends {@code bytes} to its partner on leaf1: four flows for four uplinks. */
    static List<FlowSpec> acrossLeaves(long bytes) {
        List<FlowSpec> out = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            out.add(new FlowSpec("s0_" + i + ":nic0", "s1_" + i + ":nic0", bytes, 0, 3));
        }
        return out;
    }

    static SimResults run(RoutingMode mode, long seed) {
        Simulator sim = new Simulator(fabric(), acrossLeaves(8_000_000), SimConfig.defaults().withSeed(seed));
        sim.setRoutingPolicy(RoutingPolicy.of(mode));
        return sim.run();
    }

    static SimResults.UplinkSpread leaf0(SimResults r) {
        return r.uplinks().stream().filter(u -> u.device().equals("leaf0")).findFirst().orElseThrow();
    }

    @Test
    void sprayingAndAdaptiveRoutingRemoveTheCollisionsOfEcmp() {
        // Find a seed whose ECMP hash puts two of the four flows on one uplink. Four flows on four
        // uplinks all land apart with probability 4!/4^4 = 9.4 %, so most seeds collide.
        long seed = 1;
        SimResults ecmp = run(RoutingMode.ECMP, seed);
        while (leaf0(ecmp).flows().stream().mapToInt(Integer::intValue).max().orElse(0) < 2) {
            ecmp = run(RoutingMode.ECMP, ++seed);
        }
        SimResults spray = run(RoutingMode.SPRAY, seed);
        SimResults adaptive = run(RoutingMode.ADAPTIVE, seed);
        double alone = 8_000_000 * 8 / 100e9 * 1e6; // 640 us at 100G, payload only
        System.out.printf("seed %d: slowest flow ECMP %.1f us (uplink max/mean %.2f), spray %.1f us (%.3f), adaptive %.1f us (%.3f)%n",
                seed, ecmp.summary().fctMaxUs(), leaf0(ecmp).maxOverMean(), spray.summary().fctMaxUs(),
                leaf0(spray).maxOverMean(), adaptive.summary().fctMaxUs(), leaf0(adaptive).maxOverMean());

        // ECMP: m >= 2 flows of 100G share one 100G uplink, so each gets at most 100/m G: the
        // slowest needs at least m times the 640 us of a flow alone.
        int m = leaf0(ecmp).flows().stream().mapToInt(Integer::intValue).max().orElseThrow();
        assertTrue(ecmp.summary().fctMaxUs() > m * alone, "ECMP collision divides the rate");
        // Spraying: each of the 4 x 1,954 packets picks one of 4 uplinks at random, so each uplink
        // carries Binomial(7,816, 1/4) packets: mean 1,954, sigma sqrt(7816 x 1/4 x 3/4) = 38 (2 %).
        // The busiest of four stays within about 3 sigma (6 %) of the mean; ECMP's busiest carries 2x.
        assertTrue(leaf0(spray).maxOverMean() < 1.08, "spray spread " + leaf0(spray).maxOverMean());
        // ECMP: equal flows, so the busiest uplink carries (flows on it) / (4 flows / 4 uplinks) of the mean.
        int most = leaf0(ecmp).flows().stream().mapToInt(Integer::intValue).max().orElseThrow();
        assertEquals(most, leaf0(ecmp).maxOverMean(), 0.05);
        // Adaptive routing sends each packet to the shortest queue: the four uplinks share exactly.
        assertTrue(leaf0(adaptive).maxOverMean() < 1.02, "adaptive spread " + leaf0(adaptive).maxOverMean());
        // Adaptive routing: no collision and no random imbalance, so every flow runs at its line
        // rate: 640 us of payload plus 2 % of headers (82 B per 4,096 B) and a few us of latency.
        assertTrue(adaptive.summary().fctMaxUs() < alone * 1.05, "fct " + adaptive.summary().fctMaxUs());
        // Random spraying at exactly 100 % load: each uplink queue is a random walk (it gains a
        // packet when more than one of the four senders picks it), which reaches XOFF now and then
        // and pauses the sending NICs on priority 3 for a moment, so the flows lose a few percent
        // of their rate (about 6 % here); far better than a collision, which costs m times. The
        // receiver places reordered packets (reorder window 256 packets), so nothing is resent.
        assertTrue(spray.summary().fctMaxUs() < alone * 1.15, "fct " + spray.summary().fctMaxUs());
        assertTrue(spray.summary().fctMaxUs() < ecmp.summary().fctMaxUs() * 0.6);
        for (SimResults r : List.of(spray, adaptive)) {
            assertEquals(4, r.run().flowsCompleted());
            assertEquals(0, r.summary().drops());
            assertEquals(0, r.summary().retransmittedBytes(), "reordering is absorbed by out-of-order placement");
        }
    }

    @Test
    void ecmpSpreadsManyFlowsOverItsUplinksAsAUniformHashPromises() {
        // 400 single-packet flows from leaf0's servers to leaf1's, each with its own queue pair (UDP
        // source port). A uniform hash puts each flow on one of k = 4 uplinks with probability 1/4,
        // so the counts are multinomial and Pearson's statistic chi2 = sum (O - E)^2 / E with E = 100
        // follows a chi-square distribution with k - 1 = 3 degrees of freedom: mean 3, variance 6,
        // above 11.34 with probability 1 %. Over 100 seeds the mean of chi2 is 3 +- 0.245
        // (sqrt(6 / 100)), and the number of seeds above 11.34 is about Poisson(1): 5 or more has
        // probability 0.4 %. (A biased or polarizing hash fails both: see EcmpPolarizationTest.)
        int flows = 400;
        int seeds = 100;
        double sum = 0;
        int extreme = 0;
        List<FlowSpec> list = new ArrayList<>();
        for (int i = 0; i < flows; i++) {
            list.add(new FlowSpec("s0_" + (i % 4) + ":nic0", "s1_" + ((i / 4) % 4) + ":nic0", 1000, i * 1_000_000L, 3));
        }
        for (long seed = 1; seed <= seeds; seed++) {
            SimResults r = new Simulator(fabric(), list, SimConfig.defaults().withSeed(seed)
                    .withSampleIntervalPs(1_000_000_000L)).run();
            List<Integer> counts = leaf0(r).flows();
            assertEquals(4, counts.size());
            assertEquals(flows, counts.stream().mapToInt(Integer::intValue).sum());
            double chi2 = 0;
            for (int c : counts) {
                chi2 += (c - 100.0) * (c - 100.0) / 100.0;
            }
            sum += chi2;
            if (chi2 > 11.34) {
                extreme++;
            }
        }
        double mean = sum / seeds;
        System.out.printf("ECMP chi-square over 4 uplinks, 400 flows: mean of %d seeds %.2f (expected 3), above the 99 %% point: %d%n",
                seeds, mean, extreme);
        assertTrue(mean > 3 - 3 * 0.245 && mean < 3 + 3 * 0.245, "mean chi2 " + mean);
        assertTrue(extreme <= 4, "seeds above the 99 % point: " + extreme);
    }

    @Test
    void flowletsKeepALineRateFlowOnOnePathAndMoveItAfterAPause() {
        // A flow at line rate has no gap longer than 50 us, so flowlet switching never moves it:
        // each uplink carries whole flows, as ECMP does.
        Simulator sim = new Simulator(fabric(), List.of(new FlowSpec("s0_0:nic0", "s1_0:nic0", 4_000_000, 0, 3)),
                SimConfig.defaults());
        sim.setRoutingPolicy(RoutingPolicy.of(RoutingMode.FLOWLET));
        SimResults one = sim.run();
        assertEquals(1, leaf0(one).bytes().stream().filter(b -> b > 100_000).count(), "one uplink carries the flow");
        // 64 flowlets of one packet each, 100 us apart (longer than the 50 us gap): each picks an
        // uplink at random, so all four uplinks see some of them (missing one: 4 (3/4)^64 = 4e-8).
        List<FlowSpec> sparse = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            sparse.add(new FlowSpec("s0_0:nic0", "s1_0:nic0", 4096, i * 100_000_000L, 3));
        }
        Simulator s2 = new Simulator(fabric(), sparse, SimConfig.defaults());
        s2.setRoutingPolicy(RoutingPolicy.of(RoutingMode.FLOWLET));
        SimResults many = s2.run();
        assertTrue(leaf0(many).bytes().stream().allMatch(b -> b > 0), "bytes " + leaf0(many).bytes());
    }
}
