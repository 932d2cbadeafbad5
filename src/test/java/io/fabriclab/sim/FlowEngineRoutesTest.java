package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.Transport;
import io.fabriclab.workload.FlowSpec;

/**
 * The flow engine's route tables: NIC pairs with one path (shared, with their latency) and
 * sprayed or multi-path pairs numbered together, many of each in one run.
 */
class FlowEngineRoutesTest {
    private static final QosProfile QOS = QosProfile.roceLossless("lossless", 100);

    /** Every host to every other: the cross-leaf pairs first, then the same-leaf ones (one path each). */
    private static List<FlowSpec> allPairs(int leaves, int perLeaf) {
        List<FlowSpec> flows = new ArrayList<>();
        List<FlowSpec> sameLeaf = new ArrayList<>();
        for (int a = 0; a < leaves; a++) {
            for (int i = 0; i < perLeaf; i++) {
                for (int b = 0; b < leaves; b++) {
                    for (int j = 0; j < perLeaf; j++) {
                        if (a != b || i != j) {
                            FlowSpec flow = new FlowSpec("s" + a + "_" + i + ":nic0", "s" + b + "_" + j + ":nic0", 20_000, 0, 3);
                            (a == b ? sameLeaf : flows).add(flow);
                        }
                    }
                }
            }
        }
        flows.addAll(sameLeaf);
        return flows;
    }

    @Test
    void sprayedAndSharedPathsInOneRunAllComplete() {
        // Ultra Ethernet sprays: 8 x 7 x 8 x 8 = 3,584 sprayed cross-leaf pairs numbered first, then
        // the 8 x 8 x 7 = 448 same-leaf pairs whose one path keeps its latency (numbered after
        // thousands of sprayed ones: their latency slots must reach that far).
        Fabric f = TestFabrics.leafSpine(8, 4, 8, 100, 400, 2.0, QOS);
        List<FlowSpec> flows = allPairs(8, 8);
        SimResults r = new FlowEngine(f, flows, SimConfig.defaults(), TransportProfile.of(Transport.ULTRA_ETHERNET)).run(null);
        assertEquals(flows.size(), r.run().flowsCompleted());
        SimResults again = new FlowEngine(f, flows, SimConfig.defaults(), TransportProfile.of(Transport.ULTRA_ETHERNET)).run(null);
        for (int i = 0; i < flows.size(); i++) {
            assertEquals(r.flows().get(i).fctPs(), again.flows().get(i).fctPs());
        }
    }

    @Test
    void flowsOfAPairOnTheSamePathShareOneRouteList() {
        // ECMP over 4 spines: the 64 flows of one cross-leaf pair take at most 4 paths; flows on the
        // same path report the same list (one per distinct path), flows on others a different one.
        Fabric f = TestFabrics.leafSpine(2, 4, 1, 100, 400, 2.0, QOS);
        List<FlowSpec> flows = new ArrayList<>();
        for (int k = 0; k < 64; k++) {
            flows.add(new FlowSpec("s0_0:nic0", "s1_0:nic0", 10_000, k * 1_000_000L, 3));
        }
        SimResults r = new FlowEngine(f, flows, SimConfig.defaults(), TransportProfile.of(Transport.ROCEV2)).run(null);
        assertEquals(64, r.run().flowsCompleted());
        for (SimResults.FlowResult a : r.flows()) {
            for (SimResults.FlowResult b : r.flows()) {
                if (a.path().equals(b.path())) {
                    assertSame(a.path(), b.path());
                } else {
                    assertNotSame(a.path(), b.path());
                }
            }
        }
        assertEquals(4, r.flows().stream().map(SimResults.FlowResult::path).distinct().count(),
                "64 flows over 4 spines take every path");
    }
}
