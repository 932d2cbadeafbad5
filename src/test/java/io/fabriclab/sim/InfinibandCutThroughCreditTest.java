package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Transport;
import io.fabriclab.workload.FlowSpec;

/**
 * A cut-through InfiniBand switch starts a packet while its tail is still coming in, but never
 * before the downstream receiver's credits for it have come back (IBTA vol. 1 §7.9; docs/model.md,
 * Switch port-to-port latency).
 */
class InfinibandCutThroughCreditTest {

    @Test
    void aCutThroughHeadStartWaitsForTheCreditsItNeeds() {
        // s0 -(2 m)- leaf0 -(10 m)- s1, 100G, InfiniBand, each VL buffer one packet (65 blocks =
        // 4,160 B for a 4,122 B packet: 4096 payload + 26 headers), the leaf cut-through with
        // L = 150 ns. One flow of two full packets. T = 4,122 x 80 = 329,760 ps; cables 10,000 and
        // 50,000 ps; a flow-control packet 6 B = 480 ps.
        //  - Packet 1 leaves s0 at 0, its tail is in the leaf at t1 = T + 10,000 = 339,760; the leaf
        //    had started it L after its head came in, at 10,000 + 150,000 = 160,000; its tail
        //    reaches s1 at 160,000 + T + 50,000 = 539,760, and s1 frees it at once: its
        //    flow-control packet is back at the leaf at U = 539,760 + 480 + 50,000 = 590,240.
        //  - The leaf freed packet 1 from its ingress buffer when it left (at t1), so s0's credits
        //    are back at 339,760 + 480 + 10,000 = 350,240; packet 2's tail is in the leaf at
        //    t2 = 350,240 + T + 10,000 = 690,000, after U: credits there, egress idle, no wait.
        //  - Cut through from its head (690,000 - T = 360,240) it would start at 360,240 + L =
        //    510,240, 80,000 ps before the credits it needs came back (the only packet's worth of
        //    credit was packet 1's until U). It starts at U = 590,240: its last bit reaches s1 at
        //    590,240 + T + 50,000 = 970,000 ps (the old model: 890,000).
        Fabric f = new Fabric("ct");
        Device leaf = f.addDevice("leaf0", DeviceRole.LEAF);
        leaf.addPorts("eth", 0, 2, 100);
        Device s0 = TestFabrics.server(f, "s0", 100);
        Device s1 = TestFabrics.server(f, "s1", 100);
        f.connect(s0.port("nic0"), leaf.port("eth0"), 100, 2.0);
        f.connect(s1.port("nic0"), leaf.port("eth1"), 100, 10.0);
        Simulator sim = new Simulator(f, List.of(new FlowSpec("s0:nic0", "s1:nic0", 2 * 4096, 0, 0)),
                SimConfig.defaults(), QosResolver.of(f), TransportProfile.of(Transport.INFINIBAND));
        sim.setVlCreditBytes(4160);
        SimResults r = sim.run();
        assertEquals(1, r.run().flowsCompleted());
        assertEquals(970_000, r.flows().get(0).finishPs());
    }
}
