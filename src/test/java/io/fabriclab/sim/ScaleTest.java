package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;
import io.fabriclab.workload.FlowSpec;
import io.fabriclab.workload.Incast;
import io.fabriclab.workload.Permutation;

/** Existing simulators crash at these sizes; FabricLab must run them to completion. */
class ScaleTest {

    @Test
    void aThousandFlowIncastRunsToCompletionLosslessly() {
        // 1000 senders on one 1001-port switch, 64 KB each to s0, PFC + ECN + DCQCN (production profile).
        Fabric f = TestFabrics.star(1001, 100, 1.0, QosProfile.roceLossless("lossless", 100));
        List<String> senders = new ArrayList<>();
        for (int i = 1; i <= 1000; i++) {
            senders.add("s" + i + ":nic0");
        }
        List<FlowSpec> flows = new Incast(senders, "s0:nic0", 64_000, 0, 3).flows(f);
        SimResults r = new Simulator(f, flows, SimConfig.defaults()).run();
        assertEquals(SimResults.StopReason.COMPLETED, r.run().stopReason());
        assertEquals(1000, r.run().flowsCompleted());
        assertEquals(0, r.summary().headroomOverflowDrops());
        // 64 MB through one 100G port takes at least 64e6 * (4220 / 4138) * 8 / 100e9 = 5.22 ms.
        System.out.printf("1000-flow incast: %d events, max FCT %.1f us, pauses %d, marks %d, CNPs %d, drops %d%n",
                r.run().events(), r.summary().fctMaxUs(), r.summary().pauseFramesSent(), r.summary().ecnMarked(),
                r.summary().cnpsSent(), r.summary().drops());
        assertTrue(r.summary().fctMaxUs() >= 5_221);
    }

    @Test
    void aThousandFlowPermutationRunsToCompletion() {
        // k = 16 fat-tree has 1024 hosts; permute 1000 of them, 256 KB each.
        Fabric f = TestFabrics.fatTree(16, 100, 10.0, QosProfile.roceLossless("lossless", 100));
        List<String> nics = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            nics.add("h" + i + ":nic0");
        }
        List<FlowSpec> flows = new Permutation(nics, 256_000, 0, 3, 7).flows(f);
        SimResults r = new Simulator(f, flows, SimConfig.defaults()).run();
        assertEquals(SimResults.StopReason.COMPLETED, r.run().stopReason());
        assertEquals(1000, r.run().flowsCompleted());
        System.out.printf("1000-flow permutation: %d events, FCT p50 %.1f us, p99 %.1f us, pauses %d, marks %d, drops %d%n",
                r.run().events(), r.summary().fctP50Us(), r.summary().fctP99Us(), r.summary().pauseFramesSent(),
                r.summary().ecnMarked(), r.summary().drops());
        assertEquals(0, r.summary().drops());
        // ECMP distribution: every flow leaving its edge switch crosses exactly one edge uplink.
        int edgeUplinkFlows = r.ecmp().stream().filter(e -> e.device().startsWith("edge") && e.port().contains(":up"))
                .mapToInt(SimResults.EcmpResult::flows).sum();
        long interEdge = r.flows().stream().filter(x -> x.path().size() > 2).count();
        assertEquals(interEdge, edgeUplinkFlows);
    }
}
