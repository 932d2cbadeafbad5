package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Transport;

/**
 * InfiniBand acknowledgements travel on the queue pair's service level, the data's virtual lane,
 * with its credits (docs/model.md, InfiniBand), not on a strict lane of their own as RoCEv2's CNP
 * priority.
 */
class InfinibandAckLaneTest {

    @Test
    void acksShareTheDataLaneAndItsCredits() {
        // 4 senders x 64 packets of 4096 B into s0 on one 100G switch, priority (SL, VL) 3. Every
        // data packet is acknowledged (30 B, one 64-byte block), so s0's NIC sends 4 x 64 = 256
        // ACKs to the leaf, all on VL 3, but the last: the run ends with the last byte's arrival,
        // before its ACK leaves. 255 blocks = 16,320 B of VL 3 credit, and nothing on any other
        // lane anywhere (the old model put them on VL 6).
        int n = 4;
        Fabric f = TestFabrics.star(n + 1, 100, 1.0, null);
        SimResults r = new Simulator(f, IncastTest.incast(n, 64L * 4096), SimConfig.defaults(), QosResolver.of(f),
                TransportProfile.of(Transport.INFINIBAND)).run();
        assertEquals(n, r.run().flowsCompleted());
        for (SimResults.CreditResult c : r.credits()) {
            if (c.vl() != 3) {
                assertEquals(0, c.sentBytes(), c.toString());
            }
        }
        SimResults.CreditResult acks = r.credits().stream().filter(c -> c.port().equals("s0:nic0") && c.vl() == 3)
                .findFirst().orElseThrow();
        System.out.println("IB ACK lane: " + acks);
        assertEquals(255L * 64, acks.sentBytes());
        assertTrue(r.links().stream().filter(l -> l.from().equals("s0:nic0")).findFirst().orElseThrow().frames() >= 255);
    }
}
