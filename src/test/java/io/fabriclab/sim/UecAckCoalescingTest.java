package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Transport;
import io.fabriclab.workload.FlowSpec;

/**
 * Ultra Ethernet's receiver coalesces its ACKs as csg-htsim's EQDS sink does (docs/validation.md,
 * Ultra Ethernet): at once for the flow's first packet and a packet that asks (AR), otherwise once
 * more than 16,384 B have been accepted since the last ACK.
 */
class UecAckCoalescingTest {

    @Test
    void oneAckPerFourFullPacketsOnAnUncongestedPath() {
        // One flow of N = 1000 full packets (4098 B of payload, 4200 B frames) over leaf0 - spine0 -
        // leaf1 at 100G with 100 m cables: the base RTT is about 4 x 500 ns of cable each way,
        // 4 frame times and 3 switch latencies of 600 ns, some 8 us, a BDP near 100 KB, so NSCC's
        // window (1.5 BDP) never fills with the 4 packets the receiver holds back: no AR but on
        // the last packet, no ECN (one flow at line rate queues nothing). The receiver ACKs
        // packet 1 (the first), then whenever more than 16,384 B are unacknowledged: 3 frames
        // are 12,600 B, 4 are 16,800 B, so packets 5, 9, ..., 997 (249 ACKs), and packet 1000 (AR,
        // 3 frames after 997): 1 + 249 + 1 = 251 ACKs on the receiver's link, against 1000 with
        // an ACK per packet.
        int n = 1000;
        Fabric f = TestFabrics.leafSpine(2, 1, 1, 100, 100, 100.0, null);
        List<FlowSpec> flow = List.of(new FlowSpec("s0_0:nic0", "s1_0:nic0", (long) n * (4200 - 102), 0, 3));
        SimResults r = new Simulator(f, flow, SimConfig.defaults(), QosResolver.of(f),
                TransportProfile.of(Transport.ULTRA_ETHERNET)).run();
        assertEquals(1, r.run().flowsCompleted());
        assertEquals(0, r.ultraEthernet().timeouts());
        SimResults.LinkResult back = r.links().stream().filter(l -> l.from().equals("s1_0:nic0")).findFirst()
                .orElseThrow();
        System.out.printf("UEC ACK coalescing: %d ACK frames for %d packets (%d B)%n", back.frames(), n,
                back.frameBytes());
        assertEquals(251, back.frames());
        // Each a 90 B PDS ACK_CC frame (with its 64-bit SACK bitmap).
        assertEquals(251L * UecFraming.ACK_FRAME_BYTES, back.frameBytes());
    }
}
